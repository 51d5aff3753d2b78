"""Every penalty kind under every ruleset of the registry: it says whether the ruleset has it, and when it
does, its amount, its effect on the table, its rows outside the table, its cells in the exports and the
archive and its description all come out of the kind, consistent with one another."""

from __future__ import annotations

from fractions import Fraction

import pytest

from penalties.forms import penalty_kinds
from penalties.kinds import KINDS, Draft, PenaltyKind, Tally, kind_of
from penalties.models import Kind, Penalty, Scope
from scoring.rules.base import RuleError, Ruleset
from scoring.rules.registry import RULESET_KEYS, get_ruleset
from tournaments.models import Registration, Session, Table, Tournament

RULESETS = [pytest.param(get_ruleset(key), id=key) for key in RULESET_KEYS]
KIND_PARAMS = [pytest.param(kind, id=value) for value, kind in KINDS.items()]
#: what the archive may hold of a penalty beyond player, session, table, hand, kind and reason (ARCHIVE.md)
ARCHIVE_FIELDS = {"minutes_late", "variant", "persists", "points", "scope", "by", "during"}


def test_the_registry_holds_every_stored_kind_once():
    assert list(KINDS) == [value for value in KINDS if value in Kind.values]
    assert set(KINDS) == set(Kind.values)
    assert all(kind_of(value).value == value for value in Kind.values)


def _world():
    tournament = Tournament(pk=1)
    session = Session(pk=1, number=1, tournament=tournament)
    table = Table(pk=7, number=3, session=session)
    seated = [Registration(pk=10 + n, tournament=tournament, key=f"p{n}") for n in range(4)]
    return tournament, session, table, seated


def _penalty(kind: PenaltyKind, rules: Ruleset) -> Penalty:
    """A penalty of ``kind`` by the second seat, with what the referee gives for it, priced by the kind
    when its checks need no stored rows."""
    tournament, session, table, seated = _world()
    penalty = Penalty(
        tournament=tournament,
        registration=seated[1],
        session=session,
        table=table,
        hand_number=2 if kind.at_hand else None,
        kind=kind.value,
        variant=rules.false_hu_default if "variant" in kind.fields else "",
        minutes_late=3 if "minutes_late" in kind.fields else None,
        scope=Scope.SESSION if "scope" in kind.fields else "",
        reason="illness" if "substitute" in kind.fields else "a reason",
    )
    points = rules.referee_bounds()[0] if "points" in kind.fields else None
    draft = Draft(penalty=penalty, rules=rules, points=points, table_points="-4")
    if kind.value in (Kind.CHOMBO.value, Kind.FOUL.value, Kind.REPLACED.value):
        penalty.points = {Kind.CHOMBO.value: rules.chombo_points, Kind.FOUL.value: lambda: rules.foul(1)}.get(
            kind.value, lambda: 0
        )()  # their checks read stored rows; the amount is the one the ruleset gives
    else:
        kind.check(draft)
    return penalty


@pytest.mark.parametrize("kind", KIND_PARAMS)
@pytest.mark.parametrize("rules", RULESETS)
def test_every_kind_answers_under_every_ruleset(rules: Ruleset, kind: PenaltyKind):
    offered = {value for value, _ in penalty_kinds(rules)}
    assert (kind.value in offered) == kind.supported(rules)
    assert kind.label and kind.label == str(Kind(kind.value).label)
    if not kind.supported(rules):
        return
    penalty = _penalty(kind, rules)
    _, _, table, seated = _world()

    # its effect on the table
    tally = Tally(
        table=table,
        rules=rules,
        game=None,
        mode="totals",
        seat_of={r.pk: n for n, r in enumerate(seated)},
        credited=list(seated),
        substitutes=set(),
    )
    kind.on_table(penalty, 1, tally)
    assert sum(tally.transfers) == 0, "what a penalty moves at the table adds up to nothing"
    if kind.offender_only:
        assert tally.deductions == [0, penalty.points, 0, 0]
    else:
        assert tally.deductions == [0, 0, 0, 0]
    paid = kind.transfers(penalty, rules)
    assert (paid is not None) == any(tally.transfers)
    if paid is not None:
        assert (tally.transfers[1] == paid[0] and paid[0] == -3 * paid[1]) or rules.false_hu_by_dealer

    # its rows outside the table
    assert kind.score_points(penalty) == (penalty.points if kind.offender_only and penalty.points else None)
    assert (kind.table_points_off(penalty) is not None) == (penalty.table_points is not None)
    assert kind.out_of_tournament(penalty) is False  # a session's penalty

    # its cells in the exports and the archive
    amount = kind.export_amount(penalty, rules)
    assert amount is None or isinstance(amount, int | Fraction)
    assert isinstance(kind.export_details(penalty), str)
    fields = kind.archive_fields(penalty, {r.pk: r.key for r in seated}, lambda x: x)
    assert set(fields) <= ARCHIVE_FIELDS and set(fields) <= {*kind.fields, "by", "points"}
    assert kind.archive_session(penalty)

    # its description
    shown, note = kind.amount(penalty, rules, 1)
    assert isinstance(shown, str) and isinstance(note, str)
    assert all(isinstance(part, str) and part for part in kind.details(penalty))


@pytest.mark.parametrize("rules", RULESETS)
def test_a_referee_decision_outside_the_bounds_is_refused_by_the_kind(rules: Ruleset):
    low, _ = rules.referee_bounds()
    tournament, session, _table, seated = _world()
    penalty = Penalty(tournament=tournament, registration=seated[0], session=session, kind=Kind.REFEREE.value)
    penalty.reason = "slow play"
    with pytest.raises(RuleError) as refused:
        kind_of(penalty.kind).check(Draft(penalty=penalty, rules=rules, points=str(low - 1)))
    assert refused.value.path == "points" and "outside the ruleset's bounds" in refused.value.message


def test_a_disqualification_for_the_tournament_names_no_session():
    kind = kind_of(Kind.DISQUALIFIED.value)
    tournament, session, _table, seated = _world()
    penalty = Penalty(tournament=tournament, registration=seated[0], session=session, kind=kind.value)
    penalty.scope = Scope.TOURNAMENT
    assert not kind.session_needed(penalty.scope) and kind.session_needed(Scope.SESSION)
    kind.check(Draft(penalty=penalty, rules=get_ruleset(RULESET_KEYS[0])))
    assert penalty.session is None and kind.out_of_tournament(penalty) and not kind.archive_session(penalty)
