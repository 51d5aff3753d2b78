"""Table points after irregularities (MERS §4): substitutes, illness, disqualification.

Table 1 of session 1 seats p1, p2, p3, p4 (East..North); s1 is the substitute. The session's game
scores are 30/10/−10/−30, which share 4/2/1/0 when nothing happens.
"""

from __future__ import annotations

import pytest

from penalties.services import penalty_cancel, penalty_record
from rankings.standings.selectors import standings_view
from scoring import services as scoring
from scoring.models import SeatSummary
from scoring.rules.base import RuleError
from tournaments import services as tournament_services
from tournaments.models import Role
from tournaments.permissions import Actor

pytestmark = pytest.mark.django_db

GAME = [30, 10, -10, -30]


@pytest.fixture
def tournament(make_tournament, director):
    return make_tournament(slug="mers-open", director=director, substitutes=2)


@pytest.fixture
def tables(tournament):
    regs = {r.key: r for r in tournament.registrations.all()}
    seated = {}
    for number, layout in ((1, ("p1 p2 p3 p4", "p5 p6 p7 p8")), (2, ("p1 p5 p2 p6", "p3 p7 p4 p8"))):
        seated[number] = tournament_services.session_seat(
            session=tournament.sessions.get(number=number),
            tables=[[regs[k] for k in t.split()] for t in layout],
        )
    return seated


@pytest.fixture
def ref(referee):
    return Actor(user=referee, role=Role.REFEREE)


def record(tournament, actor, player, kind, *, session=1, table=None, by=None, **extra):
    regs = {r.key: r for r in tournament.registrations.all()}
    session_obj = tournament.sessions.get(number=session) if session else None
    return penalty_record(
        tournament=tournament,
        registration=regs[player],
        kind=kind,
        actor=actor,
        session=session_obj,
        table=session_obj.tables.get(number=table) if table else None,
        substitute=regs[by] if by else None,
        **extra,
    )


def confirm(table, actor, scores=GAME):
    result = scoring.totals_set(table=table, scores=scores, actor=actor, expected_version=None)
    return scoring.result_confirm(table=table, actor=actor, expected_version=result.version)


def points(table):
    return {
        r.registration.key: r.table_points
        for r in SeatSummary.objects.filter(table=table).select_related("registration")
    }


def test_a_late_player_replaced_from_the_start_the_substitute_can_take_4(tournament, tables, ref):
    late = record(tournament, ref, "p1", "late_arrival", minutes_late=16)
    assert late.disqualifies  # past 15 minutes: out of the session
    record(tournament, ref, "p1", "replaced", by="s1", reason="late_arrival")
    confirm(tables[1][0], ref)
    # §4.1.1: shared out normally; the substitute in East scored 30 and takes 4.
    assert points(tables[1][0]) == {"s1": 4, "p2": 2, "p3": 1, "p4": 0}
    standings = standings_view(tournament=tournament)
    assert "s1" not in [r.player for r in standings.rows]  # a substitute never gets a place
    assert (standings.row("p1").sessions, standings.row("p1").table_points) == (0, 0)


def test_a_late_player_cannot_be_replaced_during_the_session(tournament, tables, ref):
    with pytest.raises(RuleError) as caught:
        record(tournament, ref, "p1", "replaced", by="s1", reason="late_arrival", during=True)
    assert caught.value.path == "during"


def test_illness_before_the_session_shares_the_points_normally(tournament, tables, ref):
    record(tournament, ref, "p1", "replaced", by="s1", reason="illness", during=False)
    confirm(tables[1][0], ref)
    assert points(tables[1][0]) == {"s1": 4, "p2": 2, "p3": 1, "p4": 0}


def test_illness_during_the_session_the_substitute_gets_0_and_the_others_4_2_1(tournament, tables, ref):
    record(tournament, ref, "p1", "replaced", by="s1", reason="illness", during=True)
    confirm(tables[1][0], ref)
    # §4.1.2: East's seat (30, the best score) gets 0; South 10 → 4, West −10 → 2, North −30 → 1.
    assert points(tables[1][0]) == {"s1": 0, "p2": 4, "p3": 2, "p4": 1}
    row = SeatSummary.objects.get(table=tables[1][0], position=0)
    assert (row.registration.key, row.game_score, row.excluded) == ("s1", 30, True)


def test_disqualified_for_the_session_the_substitute_gets_0_and_the_others_4_2_1(tournament, tables, ref):
    record(tournament, ref, "p2", "disqualified", scope="session", reason="abusive behaviour")
    record(tournament, ref, "p2", "replaced", by="s1", reason="disqualified", during=True)
    confirm(tables[1][0], ref)
    # §4.2: South's seat gets 0; East 30 → 4, West −10 → 2, North −30 → 1.
    assert points(tables[1][0]) == {"p1": 4, "s1": 0, "p3": 2, "p4": 1}
    assert standings_view(tournament=tournament).row("p2").table_points == 0


def test_disqualified_for_the_session_without_a_substitute_the_seat_gets_0(tournament, tables, ref):
    record(tournament, ref, "p1", "disqualified", scope="session", reason="left the table")
    confirm(tables[1][0], ref)
    assert points(tables[1][0]) == {"p1": 0, "p2": 4, "p3": 2, "p4": 1}


def test_disqualified_from_the_tournament_is_listed_last_with_0_table_points(tournament, tables, ref):
    confirm(tables[1][0], ref)
    confirm(tables[1][1], ref, scores=[-30, -10, 10, 30])
    record(tournament, ref, "p1", "disqualified", scope="tournament", session=None, reason="cheating")
    standings = standings_view(tournament=tournament)
    last = standings.rows[-1]
    # §4.4: p1 won the table (4 points, +30) but is listed at the bottom with 0 table points; the
    # score is kept (it still counts for the EMA ranking).
    assert (last.player, last.table_points, last.score, last.disqualified) == ("p1", 0, 30, True)
    assert standings.rows[0].table_points == 4  # p8, first at table 2


def test_a_replaced_player_gets_0_table_points_for_the_session_missed(tournament, tables, ref):
    record(tournament, ref, "p1", "replaced", by="s1", reason="illness")
    confirm(tables[1][0], ref)
    # Session 2 table 1 seats p1 p5 p2 p6: p1 scores 40 and takes 4.
    confirm(tables[2][0], ref, scores=[40, 0, 0, -40])
    row = standings_view(tournament=tournament).row("p1")
    assert (row.sessions, row.table_points, row.score) == (1, 4, 40)  # nothing from session 1


def test_one_substitute_replaces_one_player_per_session(tournament, tables, ref):
    record(tournament, ref, "p1", "replaced", by="s1", reason="illness")
    with pytest.raises(RuleError) as caught:
        record(tournament, ref, "p5", "replaced", by="s1", reason="illness")
    assert (caught.value.path, caught.value.message) == ("by", "s1 already replaces p1 in session 1")
    with pytest.raises(RuleError, match="p1 is already replaced in session 1"):
        record(tournament, ref, "p1", "replaced", by="s2", reason="illness")
    with pytest.raises(RuleError, match="p6 already plays in session 1"):
        record(tournament, ref, "p5", "replaced", by="p6", reason="illness")


def test_a_substitutes_false_hu_is_paid_from_the_seat_they_took(tournament, tables, ref):
    record(tournament, ref, "p1", "replaced", by="s1", reason="late_arrival")
    record(tournament, ref, "s1", "false_hu", table=1, hand_number=1, variant="below_minimum")
    confirm(tables[1][0], ref)
    # East: 30 − 30 = 0; the others +10 each: 20, 0, −20. Ranked: p2 20 → 4, s1 and p3 0 → share 2+1, p4 0.
    rows = {
        r.registration.key: (r.transfers, r.final, r.table_points)
        for r in SeatSummary.objects.filter(table=tables[1][0])
    }
    assert rows == {"s1": (-30, 0, 1.5), "p2": (10, 20, 4), "p3": (10, 0, 1.5), "p4": (10, -20, 0)}


def test_a_false_hu_before_an_illness_stays_with_the_seat(tournament, tables, ref):
    record(tournament, ref, "p4", "false_hu", table=1, hand_number=1, variant="invalid_hand")
    record(tournament, ref, "p4", "replaced", by="s1", reason="illness", during=True)
    confirm(tables[1][0], ref)
    # North paid 60 before falling ill; the others keep their 20 each: 50, 30, 10, −90 (sum 0).
    finals = {r.registration.key: r.final for r in SeatSummary.objects.filter(table=tables[1][0])}
    assert finals == {"p1": 50, "p2": 30, "p3": 10, "s1": -90}


def test_cancelling_a_substitution_gives_the_seat_back(tournament, tables, ref):
    replaced = record(tournament, ref, "p1", "replaced", by="s1", reason="illness", during=True)
    confirm(tables[1][0], ref)
    assert points(tables[1][0])["s1"] == 0
    penalty_cancel(penalty=replaced, actor=ref, reason="recorded at the wrong table")
    assert points(tables[1][0]) == {"p1": 4, "p2": 2, "p3": 1, "p4": 0}
    assert standings_view(tournament=tournament).row("p1").table_points == 4
