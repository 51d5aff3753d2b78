"""A penalty's life: recorded, appealed, cancelled; its history; the standings before and after."""

from __future__ import annotations

import pytest
from django.core.exceptions import PermissionDenied

from penalties.models import Penalty
from penalties.services import penalty_appeal, penalty_cancel, penalty_record
from rankings.standings.selectors import standings_view
from scoring import services as scoring
from scoring.models import SeatSummary
from scoring.rules.base import RuleError
from tournaments import services as tournament_services
from tournaments.models import Role
from tournaments.permissions import Actor

pytestmark = pytest.mark.django_db


@pytest.fixture
def table(tournament):
    regs = {r.key: r for r in tournament.registrations.all()}
    return tournament_services.session_seat(
        session=tournament.sessions.get(number=1),
        tables=[[regs[k] for k in ("p1", "p2", "p3", "p4")], [regs[k] for k in ("p5", "p6", "p7", "p8")]],
    )[0]


@pytest.fixture
def ref(referee):
    return Actor(user=referee, role=Role.REFEREE)


def record(tournament, actor, player, kind, *, session=1, table=None, **extra):
    session_obj = tournament.sessions.get(number=session) if session else None
    return penalty_record(
        tournament=tournament,
        registration=tournament.registrations.get(key=player),
        kind=kind,
        actor=actor,
        session=session_obj,
        table=session_obj.tables.get(number=table) if table and session_obj else table,
        **extra,
    )


def confirmed(table, actor, scores=(20, 15, -15, -20)):
    result = scoring.totals_set(table=table, scores=list(scores), actor=actor, expected_version=None)
    return scoring.result_confirm(table=table, actor=actor, expected_version=result.version)


def test_cancelling_a_penalty_restores_the_standings(tournament, table, ref, referee):
    confirmed(table, ref)
    before = standings_view(tournament=tournament).row("p1")
    penalty = record(tournament, ref, "p1", "referee", points=-15, reason="deliberate slow play")
    # recorded after confirmation: the table's rows are rewritten (20 − 15 = 5)
    assert SeatSummary.objects.get(table=table, registration__key="p1").final == 5
    assert standings_view(tournament=tournament).row("p1").score == before.score - 15
    penalty_cancel(penalty=penalty, actor=ref, reason="the clock was wrong")
    after = standings_view(tournament=tournament).row("p1")
    assert (after.score, after.penalties, after.table_points) == (before.score, 0, before.table_points)
    penalty.refresh_from_db()
    assert (penalty.active, penalty.cancelled_by, penalty.cancel_reason) == (
        False,
        referee,
        "the clock was wrong",
    )


def test_cancelling_a_false_hu_restores_the_table_ranking(tournament, table, ref):
    penalty = record(tournament, ref, "p1", "false_hu", table=1, variant="invalid_hand")
    confirmed(table, ref)
    # 20 − 60 = −40 for p1; p2 35, p3 5, p4 0 → p1 last.
    assert SeatSummary.objects.get(table=table, registration__key="p1").table_points == 0
    penalty_cancel(penalty=penalty, actor=ref, reason="the hand was valid after all")
    assert SeatSummary.objects.get(table=table, registration__key="p1").table_points == 4


def test_a_cancellation_needs_a_reason_and_happens_once(tournament, table, ref):
    penalty = record(tournament, ref, "p1", "late_arrival", minutes_late=3)
    with pytest.raises(RuleError, match="cancelling a penalty needs a reason"):
        penalty_cancel(penalty=penalty, actor=ref, reason="  ")
    penalty_cancel(penalty=penalty, actor=ref, reason="arrived on time by the official clock")
    with pytest.raises(RuleError, match="this penalty is already cancelled"):
        penalty_cancel(penalty=penalty, actor=ref, reason="again")


def test_appeals_are_recorded_with_their_decision(tournament, table, ref, referee):
    penalty = record(tournament, ref, "p2", "foul", reason="took a tile out of turn")
    penalty_appeal(penalty=penalty, actor=ref, appeal="the tile was knocked over by p3")
    penalty.refresh_from_db()
    assert (penalty.appeal, penalty.appeal_decision, penalty.appeal_decided_at) == (
        "the tile was knocked over by p3",
        "",
        None,
    )
    penalty_appeal(
        penalty=penalty,
        actor=ref,
        appeal="the tile was knocked over by p3",
        decision="penalty upheld (MERS 2.1)",
    )
    penalty.refresh_from_db()
    assert penalty.appeal_decision == "penalty upheld (MERS 2.1)"
    assert penalty.appeal_decided_by == referee
    assert penalty.active  # an upheld appeal changes nothing else
    with pytest.raises(RuleError, match="describe the appeal"):
        penalty_appeal(penalty=penalty, actor=ref, appeal="")


def test_every_penalty_change_is_in_the_history_with_user_and_reason(
    tournament, table, ref, referee, director
):
    penalty = record(tournament, ref, "p3", "late_arrival", minutes_late=12)
    penalty_appeal(penalty=penalty, actor=ref, appeal="the session started early")
    penalty_cancel(
        penalty=penalty,
        actor=Actor(user=director, role=Role.DIRECTOR),
        reason="appeal granted: start was early",
    )
    log = [
        (h.history_type, h.history_user, h.history_change_reason, h.points, h.cancelled_at is not None)
        for h in penalty.history.order_by("history_id")
    ]
    assert log == [
        ("+", referee, "recorded", -20, False),
        ("~", referee, "appeal recorded", -20, False),
        ("~", director, "cancelled: appeal granted: start was early", -20, True),
    ]


def test_scorers_cannot_cancel_or_hear_appeals(tournament, table, ref, scorer):
    penalty = record(tournament, ref, "p1", "late_arrival", minutes_late=3)
    scorer_actor = Actor(user=scorer, role=Role.SCORER)
    with pytest.raises(PermissionDenied):
        penalty_cancel(penalty=penalty, actor=scorer_actor, reason="x")
    with pytest.raises(PermissionDenied):
        penalty_appeal(penalty=penalty, actor=scorer_actor, appeal="x")
    penalty.refresh_from_db()
    assert penalty.active and penalty.appeal == ""


def test_the_recording_order_is_kept(tournament, table, ref):
    kinds = ["late_arrival", "foul", "forgot_winning_tile"]
    extra = [{"minutes_late": 2}, {}, {"table": 1}]
    for kind, more in zip(kinds, extra, strict=True):
        record(tournament, ref, "p1", kind, **more)
    assert list(Penalty.objects.order_by("sequence").values_list("sequence", "kind")) == list(
        enumerate(kinds, start=1)
    )


@pytest.mark.parametrize(
    ("player", "kind", "extra", "path", "message"),
    [
        ("p5", "forgot_winning_tile", {"table": 1}, "player", "p5 is not seated at table 1"),
        (
            "p1",
            "late_arrival",
            {"session": 1, "minutes_late": 40000},
            "minutes_late",
            "minutes late must be a whole number up to 32767, not 40000",
        ),
        ("p1", "foul", {"hand_number": 0}, "hand", "the hand number must be at least 1, not 0"),
        ("p1", "foul", {"variant": "x" * 30}, "variant", None),
        ("p1", "foul", {"scope": "forever"}, "scope", None),
        ("p1", "late_arrival", {"session": None}, "session", "a late arrival penalty needs the session"),
        ("p1", "kicked", {}, "kind", None),
    ],
)
def test_bad_penalties_name_the_field_and_save_nothing(
    tournament, table, ref, player, kind, extra, path, message
):
    with pytest.raises(RuleError) as caught:
        record(tournament, ref, player, kind, **extra)
    assert caught.value.path == path
    if message:
        assert caught.value.message == message
    assert not Penalty.objects.exists()


def test_a_table_given_without_a_session_is_refused_by_name(tournament, table, ref):
    with pytest.raises(RuleError) as caught:
        record(tournament, ref, "p1", "disqualified", session=None, scope="tournament", table=table)
    assert (caught.value.path, caught.value.message) == ("table", "table 1 is not in the penalty's session")
