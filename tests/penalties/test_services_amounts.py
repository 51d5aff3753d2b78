"""Every penalty kind and its amount, checked against RULES.md (MERS 2010 for MCR, files 002/003 for riichi).

Table 1 of session 1 seats p1, p2, p3, p4 as East, South, West, North (seats 0..3).
"""

from __future__ import annotations

import pytest
from django.core.exceptions import PermissionDenied

from penalties.models import Penalty
from penalties.services import penalty_cancel, penalty_record
from rankings.standings.selectors import standings_view
from scoring import services as scoring
from scoring.models import SeatSummary
from scoring.rules.base import RuleError
from tournaments import permissions
from tournaments import services as tournament_services
from tournaments.models import Role
from tournaments.permissions import Actor

pytestmark = pytest.mark.django_db


def seat_all(tournament, sessions=(1,)):
    regs = {r.key: r for r in tournament.registrations.filter(is_substitute=False)}
    keys = sorted(regs, key=lambda k: int(k[1:]))
    tables = {}
    for number in sessions:
        session = tournament.sessions.get(number=number)
        groups = [[regs[k] for k in keys[i : i + 4]] for i in range(0, len(keys), 4)]
        tables[number] = tournament_services.session_seat(session=session, tables=groups)
    return tables


@pytest.fixture
def tables(tournament):
    return seat_all(tournament, sessions=(1, 2))


@pytest.fixture
def ref(referee):
    return Actor(user=referee, role=Role.REFEREE)


def record(tournament, actor, player, kind, *, session=1, table=None, by=None, **extra):
    regs = {r.key: r for r in tournament.registrations.all()}
    session_obj = tournament.sessions.get(number=session) if session else None
    table_obj = session_obj.tables.get(number=table) if table else None
    return penalty_record(
        tournament=tournament,
        registration=regs[player],
        kind=kind,
        actor=actor,
        session=session_obj,
        table=table_obj,
        substitute=regs[by] if by else None,
        **extra,
    )


def confirm_totals(table, actor, scores, **extra):
    result = scoring.totals_set(table=table, scores=scores, actor=actor, expected_version=None, **extra)
    return scoring.result_confirm(table=table, actor=actor, expected_version=result.version)


def summary(table):
    return {
        r.registration.key: (r.game_score, r.transfers, r.penalties, r.final, r.table_points)
        for r in SeatSummary.objects.filter(table=table).select_related("registration")
    }


# -- late arrival (MERS 2.2) --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("minutes", "points", "out"),
    [
        (9, -10, False),  # less than 10 minutes: 10 points
        (10, -20, False),  # within the first 15 minutes: 20 points
        (15, -20, False),
        (16, 0, True),  # after 15 minutes: out of the session, a substitute plays
    ],
)
def test_late_arrival_boundaries(tournament, tables, ref, minutes, points, out):
    penalty = record(tournament, ref, "p1", "late_arrival", minutes_late=minutes)
    assert (penalty.points, penalty.disqualifies) == (points, out)


def test_a_late_arrival_lowers_the_offenders_score_but_not_the_table_ranking(tournament, tables, ref):
    record(tournament, ref, "p1", "late_arrival", minutes_late=9)
    confirm_totals(tables[1][0], ref, [20, 15, -15, -20])
    # p1: 20 − 10 = 10, below p2's 15, but the table is ranked on the game scores: p1 keeps 4.
    assert summary(tables[1][0])["p1"] == (20, 0, -10, 10, 4)
    assert summary(tables[1][0])["p2"] == (15, 0, 0, 15, 2)
    row = standings_view(tournament=tournament).row("p1")
    assert (row.table_points, row.score, row.penalties) == (4, 10, -10)


def test_a_late_arrival_in_a_session_not_yet_confirmed_still_counts_once(tournament, tables, ref):
    record(tournament, ref, "p1", "late_arrival", minutes_late=12)
    assert standings_view(tournament=tournament).row("p1").score == -20
    confirm_totals(tables[1][0], ref, [0, 0, 0, 0])
    row = standings_view(tournament=tournament).row("p1")
    assert (row.score, row.penalties) == (-20, -20)  # now in the table's row, not counted twice


# -- the foul ladder (MERS 3.1, 3.6) --------------------------------------------------------------------------


def test_the_foul_ladder_warning_5_10_20_30_40(tournament, tables, ref):
    amounts = [record(tournament, ref, "p1", "foul", reason=f"foul {i}").points for i in range(6)]
    assert amounts == [0, -5, -10, -20, -30, -40]  # after 30, 10 more each time
    assert standings_view(tournament=tournament).row("p1").penalties == -105  # 5+10+20+30+40


def test_the_foul_count_restarts_each_session(tournament, tables, ref):
    assert [record(tournament, ref, "p1", "foul").points for _ in range(3)] == [0, -5, -10]
    assert [record(tournament, ref, "p1", "foul", session=2).points for _ in range(2)] == [0, -5]


def test_after_a_time_wasting_foul_the_count_persists_into_the_next_session(tournament, tables, ref):
    first = record(tournament, ref, "p2", "foul", reason="time wasting", persists=True)
    second = record(tournament, ref, "p2", "foul", reason="took a tile out of turn")
    third = record(tournament, ref, "p2", "foul", session=2, reason="took a tile out of turn")
    assert [first.points, second.points, third.points] == [0, -5, -10]  # no restart in session 2


def test_a_fouls_history_shows_its_amount_and_a_cancellation_recounts_the_ladder(
    tournament, tables, ref, referee
):
    fouls = [record(tournament, ref, "p1", "foul", reason=f"foul {i}") for i in range(3)]
    assert [f.history.earliest().points for f in fouls] == [0, -5, -10]  # recorded with their amounts
    penalty_cancel(penalty=fouls[0], actor=ref, reason="the tile was not taken")
    fouls = [Penalty.objects.get(pk=f.pk) for f in fouls]
    assert [f.points for f in fouls[1:]] == [0, -5]  # one step down each
    latest = fouls[2].history.latest()
    assert (latest.points, latest.history_user, latest.history_change_reason) == (
        -5,
        referee,
        "foul ladder recounted",
    )


# -- forgotten winning tile (MERS 2.8.7) --------------------------------------------------------------------


def test_a_forgotten_winning_tile_costs_the_winner_10_and_nobody_else(tournament, tables, ref):
    record(tournament, ref, "p1", "forgot_winning_tile", table=1, hand_number=1)
    confirm_totals(tables[1][0], ref, [20, 15, -15, -20])
    rows = summary(tables[1][0])
    assert rows["p1"] == (20, 0, -10, 10, 4)  # 20 − 10; the ranking is still on 20
    assert [rows[k][2] for k in ("p2", "p3", "p4")] == [0, 0, 0]


# -- false Hu (MERS 2.9.2, 3.3) ------------------------------------------------------------------------------


@pytest.mark.parametrize(("variant", "each"), [("below_minimum", 10), ("invalid_hand", 20)])
def test_a_false_hu_pays_each_other_player(tournament, tables, ref, variant, each):
    record(tournament, ref, "p3", "false_hu", table=1, hand_number=1, variant=variant)
    confirm_totals(tables[1][0], ref, [0, 0, 0, 0])
    rows = summary(tables[1][0])
    # the offender pays 3 × each: 30 or 60
    assert {k: rows[k][1] for k in rows} == {"p1": each, "p2": each, "p3": -3 * each, "p4": each}
    assert sum(rows[k][3] for k in rows) == 0


def test_false_hu_transfers_count_for_the_table_ranking_offender_only_deductions_do_not(
    tournament, tables, ref
):
    # Table 1: game 10/0/0/−10 and p1 pays a 60-point false Hu: p1 −50, p2 20, p3 20, p4 10.
    # p2 and p3 share the 4 + 2 of first and second: 3 each; p4 1; p1 0.
    record(tournament, ref, "p1", "false_hu", table=1, hand_number=1, variant="invalid_hand")
    confirm_totals(tables[1][0], ref, [10, 0, 0, -10])
    assert {k: v[4] for k, v in summary(tables[1][0]).items()} == {"p1": 0, "p2": 3, "p3": 3, "p4": 1}
    # Table 2: the same game, p5 gets a 60-point referee decision instead: p5's total is −50 but the
    # table is ranked on 10/0/0/−10: p5 4, p6 and p7 share 2 + 1 (1.5 each), p8 0.
    record(tournament, ref, "p5", "referee", points=-60, reason="insulted an opponent")
    confirm_totals(tables[1][1], ref, [10, 0, 0, -10])
    rows = summary(tables[1][1])
    assert {k: v[4] for k, v in rows.items()} == {"p5": 4, "p6": 1.5, "p7": 1.5, "p8": 0}
    assert rows["p5"][3] == -50


def test_a_false_hu_needs_a_valid_variant_and_a_seat(tournament, tables, ref):
    with pytest.raises(RuleError) as caught:
        record(tournament, ref, "p1", "false_hu", table=1, variant="")
    assert caught.value.path == "variant"
    reg = tournament.registrations.get(key="p8")
    reg.seats.all().delete()  # p8 does not play session 1
    with pytest.raises(RuleError, match="p8 has no seat in session 1"):
        record(tournament, ref, "p8", "false_hu", variant="below_minimum")


def test_salamanca_false_declaration_pays_4_fan_to_each_other_player(make_tournament, make_user):
    director = make_user("salamanca-director")
    tournament = make_tournament(slug="mayon", ruleset="salamanca", director=director, sessions=1)
    table = seat_all(tournament)[1][0]
    actor = Actor(user=director, role=Role.DIRECTOR)
    penalty = record(tournament, actor, "p3", "false_hu", table=1, variant="false_declaration")
    assert penalty.variant == "false_declaration"
    confirm_totals(table, actor, [0, 0, 0, 0])
    # art. 33 and 27: 4 fan are 32 points, paid to each of the three others: −96 for the offender
    assert {k: v[1] for k, v in summary(table).items()} == {"p1": 32, "p2": 32, "p3": -96, "p4": 32}


# -- riichi chombo -------------------------------------------------------------------------------------------


@pytest.fixture
def riichi(make_tournament, make_user):
    def make(ruleset):
        director = make_user(f"{ruleset}-director")
        tournament = make_tournament(slug=ruleset, ruleset=ruleset, director=director, sessions=1)
        return tournament, seat_all(tournament)[1][0], Actor(user=director, role=Role.DIRECTOR)

    return make


@pytest.mark.parametrize("ruleset", ["ema-riichi-2016", "ema-riichi-2025", "wrc-riichi"])
def test_a_riichi_chombo_from_a_totals_table_costs_20000_after_uma(riichi, ruleset):
    tournament, table, actor = riichi(ruleset)
    penalty = record(tournament, actor, "p3", "chombo")
    assert penalty.points == -20000
    confirm_totals(table, actor, [35000, 35000, 28000, 22000])
    # RULES.md: 35000/35000/28000/22000 → +15000/+15000/−7000/−23000 (the leaders share 15000 + 5000);
    # with one chombo for the third: −7000 − 20000 = −27000 (the table sums to −20000).
    finals = {r.registration.key: r.final for r in SeatSummary.objects.filter(table=table)}
    assert finals == {"p1": 15000, "p2": 15000, "p3": -27000, "p4": -23000}
    row = standings_view(tournament=tournament).row("p3")
    assert (row.score, row.penalties) == (-27000, -20000)


@pytest.mark.parametrize("ruleset", ["ema-riichi-2016", "ema-riichi-2025", "wrc-riichi"])
def test_a_riichi_chombo_entered_as_a_hand_costs_20000_after_uma(riichi, ruleset):
    tournament, table, actor = riichi(ruleset)
    result = scoring.hand_add(
        table=table, hand={"result": "chombo", "player": 2}, actor=actor, expected_version=1
    )
    result = scoring.hand_add(
        table=table,
        hand={"result": "draw", "tenpai": [], "riichi": []},
        actor=actor,
        expected_version=result.version,
    )
    scoring.result_confirm(table=table, actor=actor, expected_version=result.version)
    # Nothing paid at the table: four players on 30000 share the uma (15000+5000−5000−15000)/4 = 0;
    # the chombo takes 20000 from West's final score.
    rows = {r.registration.key: (r.chombo, r.final) for r in SeatSummary.objects.filter(table=table)}
    assert rows == {"p1": (0, 0), "p2": (0, 0), "p3": (-20000, -20000), "p4": (0, 0)}
    # and recorded once: a chombo penalty for a table entered hand by hand is refused
    with pytest.raises(RuleError, match="table 1 is entered hand by hand: record the chombo as a hand"):
        record(tournament, actor, "p3", "chombo")


def test_an_ema_2008_chombo_is_a_mangan_payment_at_the_table(riichi):
    _, table, actor = riichi("ema-riichi-2008")
    result = scoring.hand_add(
        table=table, hand={"result": "chombo", "player": 2}, actor=actor, expected_version=1
    )
    scoring.result_confirm(table=table, actor=actor, expected_version=result.version)
    # West (non-dealer) pays a mangan: 4000 to the dealer East, 2000 to South and North: 34000/32000/22000/32000.
    # Uma 2008 is 9000/3000/−3000/−9000: East +4000+9000 = 13000; South and North share 3000 − 3000: 2000 each;
    # West −8000 − 9000 = −17000. No deduction after the game.
    rows = {
        r.registration.key: (r.game_score, r.chombo, r.final) for r in SeatSummary.objects.filter(table=table)
    }
    assert rows == {
        "p1": (34000, 0, 13000),
        "p2": (32000, 0, 2000),
        "p3": (22000, 0, -17000),
        "p4": (32000, 0, 2000),
    }


def test_an_ema_2008_chombo_penalty_on_a_totals_table_deducts_nothing_more(riichi):
    tournament, table, actor = riichi("ema-riichi-2008")
    assert record(tournament, actor, "p3", "chombo").points == 0  # the payment is already on the score sheet
    confirm_totals(table, actor, [34000, 32000, 22000, 32000])
    assert SeatSummary.objects.get(table=table, registration__key="p3").final == -17000


def test_chombo_has_no_amount_under_mcr_and_false_hu_none_under_riichi(tournament, tables, ref, riichi):
    with pytest.raises(RuleError, match="chombo has no amount under the mcr rules"):
        record(tournament, ref, "p1", "chombo")
    riichi_tournament, _, actor = riichi("ema-riichi-2016")
    with pytest.raises(RuleError, match="a false win declaration is a chombo"):
        record(riichi_tournament, actor, "p1", "false_hu", table=1, variant="below_minimum")
    assert not Penalty.objects.exists()


# -- referee decisions (MERS 3.4) and table points -------------------------------------------------------------


def test_a_referee_decision_carries_its_own_points_within_the_bounds_and_needs_a_reason(
    tournament, tables, ref
):
    penalty = record(tournament, ref, "p1", "referee", points=-15, reason="deliberate slow play")
    assert penalty.points == -15
    for points, message in [
        (-1001, "points -1001 is outside the ruleset's bounds -1000 to 0"),
        (5, "points 5 is outside the ruleset's bounds -1000 to 0"),
        (
            "lots",
            "points must be written as a plain number (such as -16, 21.5 or 64/3; no exponent), not “lots”",
        ),
        (
            "1e10000000",
            "points must be written as a plain number (such as -16, 21.5 or 64/3; no exponent), not “1e10000000”",
        ),
    ]:
        with pytest.raises(RuleError) as caught:
            record(tournament, ref, "p1", "referee", points=points, reason="x")
        assert (caught.value.path, caught.value.message) == ("points", message)
    with pytest.raises(RuleError, match="a referee decision needs a reason"):
        record(tournament, ref, "p1", "referee", points=-15)
    assert Penalty.objects.count() == 1
    assert standings_view(tournament=tournament).row("p1").score == -15


def test_riichi_referee_decisions_reach_100000_points(riichi):
    tournament, _, actor = riichi("wrc-riichi")
    assert record(tournament, actor, "p1", "referee", points=-100000, reason="collusion").points == -100000
    with pytest.raises(RuleError, match="outside the ruleset's bounds -100000 to 0"):
        record(tournament, actor, "p1", "referee", points=-100001, reason="collusion")


def test_a_riichi_referee_step_set_by_the_tournament_is_enforced(riichi):
    tournament, _, actor = riichi("ema-riichi-2016")
    # No preset default: any amount within the limit.
    assert tournament.get_rules().referee_step() is None
    assert record(tournament, actor, "p1", "referee", points=-1500, reason="slow play").points == -1500
    tournament.rules = {"referee_step": 1000}
    tournament.save(update_fields=["rules"])
    with pytest.raises(RuleError) as caught:
        record(tournament, actor, "p2", "referee", points=-1500, reason="slow play")
    assert caught.value.path == "points"
    assert caught.value.message == "points -1500 is not a multiple of the ruleset's step of 1000 points"
    assert record(tournament, actor, "p2", "referee", points=-2000, reason="slow play").points == -2000
    with pytest.raises(RuleError, match="referee_step must be from 1"):
        tournament.rules = {"referee_step": 0}
        tournament.get_rules()


def test_a_riichi_referee_minimum_set_by_the_tournament_is_enforced(riichi):
    tournament, _, actor = riichi("wrc-riichi")
    assert tournament.get_rules().referee_minimum() is None
    assert record(tournament, actor, "p1", "referee", points=-50, reason="slow play").points == -50
    # Pantheon's range for its EMA and WRC presets: 100 to 20000 in steps of 100
    tournament.rules = {"referee_minimum": 100, "referee_limit": 20000, "referee_step": 100}
    tournament.save(update_fields=["rules"])
    with pytest.raises(RuleError) as caught:
        record(tournament, actor, "p2", "referee", points=-50, reason="slow play")
    assert caught.value.path == "points" and "smallest deduction of 100 points" in caught.value.message
    assert record(tournament, actor, "p2", "referee", points=0, reason="warning").points == 0
    assert record(tournament, actor, "p2", "referee", points=-100, reason="slow play").points == -100
    with pytest.raises(RuleError, match="outside the ruleset's bounds -20000 to 0"):
        record(tournament, actor, "p2", "referee", points=-20100, reason="slow play")
    with pytest.raises(RuleError, match="referee_minimum must be from 1 to referee_limit"):
        tournament.rules = {"referee_minimum": 30000, "referee_limit": 20000}
        tournament.get_rules()


def test_a_table_points_deduction_lowers_table_points_not_the_score(tournament, tables, ref):
    confirm_totals(tables[1][0], ref, [20, 15, -15, -20])
    record(tournament, ref, "p1", "table_points", table_points=-1, reason="late for the session")
    row = standings_view(tournament=tournament).row("p1")
    assert (row.table_points, row.score) == (3, 20)  # 4 − 1
    with pytest.raises(RuleError, match="points must be written as a plain number"):
        record(tournament, ref, "p1", "table_points", table_points="one")


def test_only_referees_and_directors_record_penalties(tournament, tables, scorer):
    with pytest.raises(PermissionDenied):
        record(tournament, Actor(user=scorer, role=Role.SCORER), "p1", "late_arrival", minutes_late=5)
    with pytest.raises(PermissionDenied):
        record(
            tournament, Actor(role="table", table_id=tables[1][0].pk), "p1", "late_arrival", minutes_late=5
        )
    assert not Penalty.objects.exists()


def test_a_classical_false_mah_jong_charges_the_east_of_that_hand(make_tournament, director):
    """§71: East pays and receives double; after a non-East win the deal passes, so at hand 2 East is seat 1."""
    from penalties.services import penalty_record
    from scoring import services as S
    from scoring.models import SeatSummary
    from scoring.rules.registry import get_ruleset
    from tournaments.models import Registration
    from tournaments.services import session_seat

    tournament = make_tournament(
        slug="classic", ruleset="classical", director=director, players=4, sessions=1
    )
    regs = list(Registration.objects.filter(tournament=tournament).order_by("id"))
    session = tournament.sessions.get(number=1)
    (table,) = session_seat(session=session, tables=[regs])
    actor = permissions.actor_for(user=director, table=table)
    win = {"result": "win", "winner": 2, "values": {"0": 0, "1": 0, "2": 40, "3": 0}}
    result = S.hand_add(table=table, hand=win, actor=actor, expected_version=None)
    result = S.hand_add(table=table, hand=dict(win, winner=2), actor=actor, expected_version=result.version)
    penalty_record(
        tournament=tournament,
        registration=regs[3],
        kind="false_hu",
        session=session,
        table=table,
        hand_number=2,
        actor=actor,
    )
    S.result_confirm(table=table, actor=actor, expected_version=result.version)
    transfers = list(
        SeatSummary.objects.filter(table=table).order_by("position").values_list("transfers", flat=True)
    )
    expected = get_ruleset("classical").false_hu(3, "", dealer=1)
    assert tuple(transfers) == tuple(expected)
    assert expected != get_ruleset("classical").false_hu(3, "", dealer=0)  # East of the hand matters
