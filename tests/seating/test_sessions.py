"""One session at a time: Swiss, random, manual swaps and seat winds."""

from __future__ import annotations

import pytest

from tests.seating.helpers import assert_every_player_once, players
from tournaments.seating.engine import (
    Player,
    SeatingError,
    Tournament,
    balance_winds,
    plan_random_session,
    plan_schedule,
    plan_swiss_session,
    swap_players,
)


def test_swiss_without_history_seats_the_standings_in_blocks_of_four():
    roster = [Player(i, rank=17 - i) for i in range(1, 17)]  # player 16 leads
    plan = plan_swiss_session(Tournament(roster))
    assert [sorted(t) for t in plan.sessions[0]] == [
        [13, 14, 15, 16],
        [9, 10, 11, 12],
        [5, 6, 7, 8],
        [1, 2, 3, 4],
    ]


def test_swiss_orders_by_score_when_there_is_no_rank():
    scores = [10, 50, 30, 80, 20, 70, 60, 40]
    roster = [Player(i, score=s) for i, s in enumerate(scores, start=1)]
    plan = plan_swiss_session(Tournament(roster))
    assert sorted(plan.sessions[0][0]) == [2, 4, 6, 7]  # 80, 70, 60 and 50 points
    assert sorted(plan.sessions[0][1]) == [1, 3, 5, 8]


def test_swiss_avoids_repeats_with_the_least_movement():
    # 32 players ranked 1..32; the previous session seated them in blocks of four already, so
    # no block may stay together. Each new table can take at most one player per old block.
    roster = [Player(i, rank=i) for i in range(1, 33)]
    played = [[list(range(t * 4 + 1, t * 4 + 5)) for t in range(8)]]
    plan = plan_swiss_session(Tournament(roster, played=played))
    session = plan.sessions[0]
    assert_every_player_once(plan.sessions, range(1, 33))
    assert plan.quality.repeated_meetings == 0
    # The leader still plays at table 1. A table now needs players from four different blocks,
    # so someone moves three tables; nobody moves further.
    assert 1 in session[0]
    for number, table in enumerate(session):
        for p in table:
            assert abs(number - (p - 1) // 4) <= 3
    # Tables stay in standings order.
    means = [sum(t) / 4 for t in session]
    assert means == sorted(means)


def test_swiss_keeps_a_fixed_table_number():
    roster = [Player(i, rank=i, fixed_table=4 if i == 1 else None) for i in range(1, 17)]
    plan = plan_swiss_session(Tournament(roster))
    session = plan.sessions[0]
    assert sorted(session[3]) == [1, 2, 3, 4]
    assert sorted(session[0]) == [5, 6, 7, 8]


def test_random_session_finds_the_only_repeat_free_seating_left():
    # After four sessions of the 16-player design, exactly one repeat-free session remains.
    full = plan_schedule(Tournament(players(16)), 5).sessions
    plan = plan_random_session(Tournament(players(16), played=full[:4]))
    assert plan.quality.repeated_meetings == 0
    assert sorted(map(sorted, plan.sessions[0])) == sorted(map(sorted, full[4]))
    assert plan.first_session == 5


def test_random_session_differs_by_seed_but_not_within_one():
    from tournaments.seating.engine import SeatingSettings

    a = plan_random_session(Tournament(players(40), settings=SeatingSettings(seed=1)))
    b = plan_random_session(Tournament(players(40), settings=SeatingSettings(seed=1)))
    c = plan_random_session(Tournament(players(40), settings=SeatingSettings(seed=2)))
    assert a.sessions == b.sessions
    assert a.sessions != c.sessions


def test_swap_reports_the_repeats_it_creates():
    roster = players(16)
    plan = plan_schedule(Tournament(roster), 5)
    first = plan.sessions[0]
    a, b = first[0][0], first[1][0]
    swapped = swap_players(Tournament(roster), plan.sessions, 1, a, b)
    assert swapped.sessions[0][0][0] == b
    assert swapped.sessions[0][1][0] == a
    # Every pair meets exactly once in this design, so each of the six new pairs is a repeat.
    assert swapped.quality.repeated_meetings == 6
    assert plan.sessions[0][0][0] == a  # the original plan is left alone


def test_swap_refuses_unknown_players_and_fixed_tables():
    roster = [Player(i, fixed_table=1 if i == 1 else None) for i in range(1, 9)]
    planned = [[[1, 2, 3, 4], [5, 6, 7, 8]]]
    with pytest.raises(SeatingError, match="player 42 does not play in session 1"):
        swap_players(Tournament(roster), planned, 1, 2, 42)
    with pytest.raises(SeatingError, match="player 1 must stay at table 1"):
        swap_players(Tournament(roster), planned, 1, 1, 5)
    with pytest.raises(SeatingError, match="there is no planned session 2"):
        swap_players(Tournament(roster), planned, 2, 1, 5)


def test_balancing_winds_on_tables_that_never_change():
    # The same four players at one table for eight sessions: two of each wind for everyone.
    sessions = [[[1, 2, 3, 4]] for _ in range(8)]
    balanced = balance_winds(sessions)
    for p in range(1, 5):
        assert sorted(sum(1 for s in balanced if s[0][w] == p) for w in range(4)) == [2, 2, 2, 2]


def test_balancing_winds_continues_from_history():
    # Player 1 already sat East twice: the next two sessions put them elsewhere.
    played = [[[1, 2, 3, 4]], [[1, 3, 4, 2]]]
    planned = balance_winds([[[1, 2, 3, 4]], [[1, 2, 3, 4]]], played)
    assert all(s[0][0] != 1 for s in planned)
    assert played == [[[1, 2, 3, 4]], [[1, 3, 4, 2]]]
