"""Result entry services: versions, stale writes, history, confirmation rules, and what the standings see.

Hands here are stored-shape (seat numbers 0..3 = E, S, W, N; p1..p4 sit E..N at table 1).
MCR figures (RULES.md): on a discard with F fan the discarder pays 8+F, the others 8, the winner
gains 24+F; self-drawn, each of the three pays 8+F.
"""

from __future__ import annotations

import pytest
from django.core.exceptions import PermissionDenied

from rankings.standings.selectors import standings_view
from scoring import services
from scoring.models import Hand, SeatSummary, TableResult
from scoring.rules.base import RuleError
from scoring.services import StaleWrite
from tournaments import permissions
from tournaments import services as tournament_services
from tournaments.models import Role
from tournaments.permissions import Actor

pytestmark = pytest.mark.django_db

P1_ON_P3_8 = {"result": "win", "winner": 0, "discarder": 2, "fan": 8}  # +32 / −8 / −16 / −8
P2_SELF_10 = {"result": "win", "winner": 1, "discarder": None, "fan": 10}  # −18 / +54 / −18 / −18
DRAW = {"result": "draw"}

SHORT = "Time limit reached"  # test games are shorter than a full session


@pytest.fixture
def tables(tournament):
    regs = {r.key: r for r in tournament.registrations.all()}
    return tournament_services.session_seat(
        session=tournament.sessions.get(number=1),
        tables=[[regs[k] for k in ("p1", "p2", "p3", "p4")], [regs[k] for k in ("p5", "p6", "p7", "p8")]],
    )


@pytest.fixture
def table(tables):
    return tables[0]


@pytest.fixture
def as_scorer(scorer):
    return Actor(user=scorer, role=Role.SCORER)


@pytest.fixture
def as_referee(referee):
    return Actor(user=referee, role=Role.REFEREE)


def result_of(table) -> TableResult:
    return TableResult.objects.get(table=table)


def test_every_write_bumps_the_version_by_one(table, as_scorer, as_referee):
    steps = [
        lambda v: services.hand_add(table=table, hand=P1_ON_P3_8, actor=as_scorer, expected_version=v),
        lambda v: services.hand_add(table=table, hand=P2_SELF_10, actor=as_scorer, expected_version=v),
        lambda v: services.hand_replace(
            table=table, number=2, hand=DRAW, actor=as_scorer, expected_version=v, reason="no win after all"
        ),
        lambda v: services.hand_remove_last(table=table, actor=as_scorer, expected_version=v),
        lambda v: services.result_submit(table=table, actor=as_scorer, expected_version=v),
        lambda v: services.result_confirm(
            table=table, actor=as_referee, expected_version=v, short_reason=SHORT
        ),
        lambda v: services.result_reopen(table=table, actor=as_referee, reason="recount", expected_version=v),
    ]
    for version, step in enumerate(steps, start=1):
        assert step(version).version == version + 1
    assert result_of(table).version == 8


@pytest.mark.parametrize(
    "write",
    [
        lambda t, a: services.hand_add(table=t, hand=DRAW, actor=a, expected_version=1),
        lambda t, a: services.hand_replace(
            table=t, number=1, hand=DRAW, actor=a, expected_version=1, reason="x"
        ),
        lambda t, a: services.hand_remove_last(table=t, actor=a, expected_version=1),
        lambda t, a: services.result_submit(table=t, actor=a, expected_version=1),
        lambda t, a: services.result_confirm(table=t, actor=a, expected_version=1, short_reason=SHORT),
    ],
    ids=["add", "replace", "undo", "submit", "confirm"],
)
def test_a_stale_version_raises_and_writes_nothing(table, as_referee, write):
    services.hand_add(table=table, hand=P1_ON_P3_8, actor=as_referee, expected_version=1)
    history_before = (TableResult.history.count(), Hand.history.count())
    with pytest.raises(StaleWrite) as caught:
        write(table, as_referee)
    assert caught.value.current_version == 2
    result = result_of(table)
    assert (result.version, result.status) == (2, "draft")
    assert [h.data for h in result.hands.all()] == [P1_ON_P3_8]
    assert (TableResult.history.count(), Hand.history.count()) == history_before


def test_a_hand_that_breaks_a_rule_writes_nothing(table, as_scorer):
    services.hand_add(table=table, hand=P1_ON_P3_8, actor=as_scorer, expected_version=1)
    with pytest.raises(RuleError) as caught:
        services.hand_add(table=table, hand={**P1_ON_P3_8, "fan": 6}, actor=as_scorer, expected_version=2)
    assert caught.value.path == "hands[1].fan"
    assert caught.value.message.startswith("fan 6 is below the MCR minimum of 8")
    assert (result_of(table).version, result_of(table).hands.count()) == (2, 1)


def test_the_history_keeps_every_change_with_its_user_and_reason(
    table, scorer, referee, as_scorer, as_referee
):
    services.hand_add(table=table, hand=P1_ON_P3_8, actor=as_scorer, expected_version=1)
    services.hand_add(table=table, hand=P2_SELF_10, actor=as_scorer, expected_version=2)
    services.hand_replace(
        table=table,
        number=1,
        hand={**P1_ON_P3_8, "discarder": 3},
        actor=as_referee,
        expected_version=3,
        reason="p4 discarded the winning tile",
    )
    services.hand_remove_last(table=table, actor=as_referee, expected_version=4, reason="entered twice")
    services.result_submit(table=table, actor=as_scorer, expected_version=5)
    services.result_confirm(table=table, actor=as_referee, expected_version=6, short_reason=SHORT)
    services.result_reopen(table=table, actor=as_referee, reason="score sheet disputed", expected_version=7)

    hand_log = [
        (h.number, h.history_type, h.history_user, h.history_change_reason, h.data.get("discarder", "-"))
        for h in Hand.history.order_by("history_id")
    ]
    assert hand_log == [
        (1, "+", scorer, "hand 1 added", 2),
        (2, "+", scorer, "hand 2 added", None),
        (1, "~", referee, "p4 discarded the winning tile", 3),  # what after: p4
        (2, "-", referee, "entered twice", None),
    ]
    result_log = [
        (h.version, h.status, h.history_user, h.history_change_reason)
        for h in TableResult.history.order_by("history_id")
    ][1:]  # the first entry is the empty result created by the first write
    assert result_log == [
        (2, "draft", scorer, "hand 1 added"),
        (3, "draft", scorer, "hand 2 added"),
        (4, "draft", referee, "hand 1 changed: p4 discarded the winning tile"),
        (5, "draft", referee, "hand 2 undone: entered twice"),
        (6, "submitted", scorer, "submitted"),
        (7, "confirmed", referee, "confirmed"),
        (8, "submitted", referee, "reopened: score sheet disputed"),
    ]


def test_a_long_reason_is_kept_whole(table, as_referee):
    reason = "The players agreed at the table that the discard came from North, not West; " * 5
    services.hand_add(table=table, hand=P1_ON_P3_8, actor=as_referee, expected_version=1)
    services.hand_replace(
        table=table,
        number=1,
        hand={**P1_ON_P3_8, "discarder": 3},
        actor=as_referee,
        expected_version=2,
        reason=reason,
    )
    assert Hand.history.latest("history_id").history_change_reason == reason


def test_totals_and_hands_exclude_each_other(table, tables, as_scorer):
    services.hand_add(table=table, hand=DRAW, actor=as_scorer, expected_version=1)
    with pytest.raises(RuleError, match="already has hands"):
        services.totals_set(table=table, scores=[10, 0, 0, -10], actor=as_scorer, expected_version=2)
    other = tables[1]
    services.totals_set(table=other, scores=[10, 0, 0, -10], actor=as_scorer, expected_version=1)
    with pytest.raises(RuleError, match="entered as game totals"):
        services.hand_add(table=other, hand=DRAW, actor=as_scorer, expected_version=2)


def test_only_a_referee_accepts_totals_that_do_not_balance(table, as_scorer, as_referee):
    with pytest.raises(RuleError, match="MCR totals sum to 10, not 0"):
        services.totals_set(table=table, scores=[20, 0, 0, -10], actor=as_scorer, expected_version=1)
    with pytest.raises(PermissionDenied):
        services.totals_set(
            table=table, scores=[20, 0, 0, -10], actor=as_scorer, expected_version=1, imbalance_reason="sheet"
        )
    result = services.totals_set(
        table=table,
        scores=[20, 0, 0, -10],
        actor=as_referee,
        expected_version=1,
        imbalance_reason="10 taken off East at the table",
    )
    assert (result.scores, result.imbalance_reason) == ([20, 0, 0, -10], "10 taken off East at the table")


def test_nothing_to_submit_or_confirm_without_a_result(table, as_scorer, as_referee):
    with pytest.raises(RuleError, match="no hands entered yet"):
        services.result_submit(table=table, actor=as_scorer, expected_version=1)
    with pytest.raises(RuleError, match="no hands entered yet"):
        services.result_confirm(table=table, actor=as_referee, expected_version=1, short_reason=SHORT)


def confirmed(table, actor, hands=(P1_ON_P3_8, P2_SELF_10)):
    version = 1
    for hand in hands:
        version = services.hand_add(table=table, hand=hand, actor=actor, expected_version=version).version
    return services.result_confirm(table=table, actor=actor, expected_version=version, short_reason=SHORT)


def test_a_confirmed_table_refuses_scorers_and_table_links(table, as_scorer, as_referee):
    result = confirmed(table, as_referee)
    link = Actor(role="table", table_id=table.pk)
    for actor in (as_scorer, link):
        with pytest.raises(RuleError, match="this table is confirmed; a referee must reopen it"):
            services.hand_add(table=table, hand=DRAW, actor=actor, expected_version=result.version)
        with pytest.raises(RuleError, match="this table is confirmed; a referee must reopen it"):
            services.hand_remove_last(table=table, actor=actor, expected_version=result.version, reason="x")
    with pytest.raises(PermissionDenied):
        services.result_reopen(table=table, actor=as_scorer, reason="x")
    assert result_of(table).hands.count() == 2


def test_a_referee_changes_a_confirmed_table_only_with_a_reason(table, as_referee):
    version = confirmed(table, as_referee).version
    with pytest.raises(RuleError, match="changing a confirmed result needs a reason"):
        services.hand_add(table=table, hand=P1_ON_P3_8, actor=as_referee, expected_version=version)
    with pytest.raises(RuleError, match="this table is already confirmed"):
        services.result_submit(table=table, actor=as_referee, expected_version=version)
    # Running totals 14/46/−34/−26 plus another +32/−8/−16/−8: 46/38/−50/−34; the summary rows follow.
    services.hand_add(
        table=table, hand=P1_ON_P3_8, actor=as_referee, expected_version=version, reason="a hand was missed"
    )
    rows = {
        r.registration.key: (r.game_score, r.table_points) for r in SeatSummary.objects.filter(table=table)
    }
    assert rows == {"p1": (46, 4), "p2": (38, 2), "p3": (-50, 0), "p4": (-34, 1)}


def test_a_table_link_cannot_write_another_table(tables):
    link = permissions.actor_for(user=None, table=tables[0], table_key=tables[0].private_key)
    assert link.role == "table"
    with pytest.raises(PermissionDenied):
        services.hand_add(table=tables[1], hand=DRAW, actor=link, expected_version=1)
    with pytest.raises(PermissionDenied):
        permissions.actor_for(user=None, table=tables[1], table_key=tables[0].private_key)
    with pytest.raises(PermissionDenied):
        permissions.actor_for(user=None, table=tables[1], table_key="ñ-not-a-key")
    assert not TableResult.objects.filter(table=tables[1]).exists()


def test_scorers_and_table_links_cannot_confirm(table, as_scorer):
    services.hand_add(table=table, hand=DRAW, actor=as_scorer, expected_version=1)
    for actor in (as_scorer, Actor(role="table", table_id=table.pk)):
        with pytest.raises(PermissionDenied):
            services.result_confirm(table=table, actor=actor, expected_version=2, short_reason=SHORT)
    assert result_of(table).status == "draft"


def test_only_confirmed_results_count_in_the_standings(tournament, table, as_scorer, as_referee):
    version = 1
    for hand in (P1_ON_P3_8, P2_SELF_10):
        version = services.hand_add(table=table, hand=hand, actor=as_scorer, expected_version=version).version
    version = services.result_submit(table=table, actor=as_scorer, expected_version=version).version
    before = standings_view(tournament=tournament)
    assert all(row.sessions == 0 and row.table_points == 0 and row.score == 0 for row in before.rows)

    version = services.result_confirm(
        table=table, actor=as_referee, expected_version=version, short_reason=SHORT
    ).version
    # Totals: p1 32−18 = 14, p2 −8+54 = 46, p3 −16−18 = −34, p4 −8−18 = −26 → 4 to p2, 2 p1, 1 p4, 0 p3.
    after = standings_view(tournament=tournament)
    seen = {r.player: (r.rank, r.table_points, r.score, r.sessions) for r in after.rows}
    assert seen["p2"] == (1, 4, 46, 1)
    assert seen["p1"] == (2, 2, 14, 1)
    assert seen["p4"] == (3, 1, -26, 1)
    # p5..p8 have not played: 0 table points and 0 score, tied 4th, ahead of p3 (0 table points, −34)
    assert {seen[k] for k in ("p5", "p6", "p7", "p8")} == {(4, 0, 0, 0)}
    assert seen["p3"] == (8, 0, -34, 1)

    services.result_reopen(
        table=table, actor=as_referee, reason="score sheet disputed", expected_version=version
    )
    assert all(row.sessions == 0 for row in standings_view(tournament=tournament).rows)
    assert not SeatSummary.objects.filter(table=table).exists()


def test_totals_can_be_cleared_to_enter_the_table_hand_by_hand(tournament, referee):
    from scoring import services as S
    from tournaments.models import Registration
    from tournaments.services import session_seat

    regs = list(Registration.objects.filter(tournament=tournament).order_by("id"))
    table, _ = session_seat(session=tournament.sessions.get(number=1), tables=[regs[0:4], regs[4:8]])
    actor = permissions.actor_for(user=referee, table=table)
    result = S.totals_set(table=table, scores=[10, -10, 5, -5], actor=actor, expected_version=None)
    with pytest.raises(RuleError, match="clear the totals"):
        S.hand_add(table=table, hand={"result": "draw"}, actor=actor, expected_version=result.version)
    result = S.totals_clear(table=table, actor=actor, expected_version=result.version)
    assert (result.mode, result.scores) == ("hands", None)
    result = S.hand_add(table=table, hand={"result": "draw"}, actor=actor, expected_version=result.version)
    assert result.hands.count() == 1
    with pytest.raises(RuleError, match="no game totals to clear"):
        S.totals_clear(table=table, actor=actor, expected_version=result.version)


def test_fractional_totals_are_kept_exact_and_confirm(make_tournament, director):
    """A Salamanca sheet can carry a half point (liability in thirds): it is stored and confirmed exactly."""
    from fractions import Fraction

    from scoring import services as S
    from scoring.models import SeatSummary
    from tournaments.models import Registration
    from tournaments.services import session_seat

    tournament = make_tournament(slug="sala", ruleset="salamanca", director=director, players=4, sessions=1)
    regs = list(Registration.objects.filter(tournament=tournament).order_by("id"))
    (table,) = session_seat(session=tournament.sessions.get(number=1), tables=[regs])
    actor = permissions.actor_for(user=director, table=table)
    result = S.totals_set(
        table=table, scores=["21.5", "-10.5", "-5", "-6"], actor=actor, expected_version=None
    )
    S.result_confirm(table=table, actor=actor, expected_version=result.version)
    finals = list(
        SeatSummary.objects.filter(table=table).order_by("position").values_list("final", flat=True)
    )
    assert finals == [Fraction(43, 2), Fraction(-21, 2), -5, -6]


def test_a_hand_added_rewrites_only_what_it_changes_and_keeps_the_whole_result_in_the_history(
    table, as_scorer
):
    """A hand added changes the result's version, its mode and its time of change: the row's other
    columns are not written again; the history keeps the whole result, as every write's does."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    services.hand_add(table=table, hand=DRAW, actor=as_scorer, expected_version=None)
    before = result_of(table)
    with CaptureQueriesContext(connection) as queries:
        services.hand_add(table=table, hand=P1_ON_P3_8, actor=as_scorer, expected_version=before.version)
    updates = [
        q["sql"] for q in queries.captured_queries if q["sql"].startswith('UPDATE "scoring_tableresult"')
    ]
    assert len(updates) == 1
    written = updates[0].split(" WHERE ")[0]
    assert '"version"' in written and '"mode"' in written and '"updated_at"' in written
    assert '"scores"' not in written and '"status"' not in written and '"submitted_by_id"' not in written
    after = result_of(table)
    assert after.version == before.version + 1 and after.updated_at > before.updated_at
    assert (after.mode, after.status, after.scores) == (TableResult.Mode.HANDS, before.status, None)
    assert after.hands.count() == 2
    last = after.history.order_by("-history_id").first()
    assert (last.version, last.mode, last.status, last.history_change_reason) == (
        after.version,
        after.mode,
        after.status,
        "hand 2 added",
    )
