"""Whole schedules planned in advance, and what happens when the field changes."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.seating.helpers import assert_every_player_once, meetings, players
from tournaments.seating.engine import (
    Player,
    SeatingError,
    SeatingSettings,
    Tournament,
    plan_cli,
    plan_schedule,
    read_countries,
    replan_after_withdrawal,
    seated_players,
)
from tournaments.seating.engine.designs import repeat_count, zero_repeat_template
from tournaments.seating.engine.strategies import _Problem


def test_sixteen_players_five_sessions_never_meet_twice_and_winds_are_even():
    plan = plan_schedule(Tournament(players(16)), 5)
    assert_every_player_once(plan.sessions, range(1, 17))
    q = plan.quality
    assert q.repeated_meetings == 0
    assert q.max_pair_meetings == 1
    # Five sessions: every player sits one wind twice and the others once.
    assert q.max_wind_spread == 1
    assert all(sorted(w) == [1, 1, 1, 2] for w in q.winds.values())


def test_eight_players_three_sessions_reaches_the_proven_minimum_of_repeats():
    """Each session splits the 8 players into two tables: 12 pair-meetings per session, 36 in
    all, for only 28 pairs, so at least 36 - 28 = 8 meetings are repeats. Eight is reachable
    only if every pair meets, and then some pair meets three times: writing each player's
    sides over the three sessions as a 0/1 vector, two players never meet only if their
    vectors are complementary, and 8 players with no complementary vectors among the 8
    possible ones must repeat a vector, i.e. two players share all three tables."""
    plan = plan_schedule(Tournament(players(8)), 3)
    assert_every_player_once(plan.sessions, range(1, 9))
    assert plan.quality.repeated_meetings == 8
    assert plan.quality.max_pair_meetings == 3
    assert len(meetings(plan.sessions)) == 28  # everybody met everybody


def test_more_sessions_than_a_repeat_free_plan_spreads_the_repeats():
    # 16 players over 10 sessions: 240 pair-meetings for 120 pairs. The best is every pair
    # meeting exactly twice (120 repeats), not some pairs three times and others once.
    plan = plan_schedule(Tournament(players(16)), 10)
    assert plan.quality.repeated_meetings == 120
    assert plan.quality.max_pair_meetings == 2
    assert set(meetings(plan.sessions).values()) == {2}


@pytest.mark.parametrize(
    ("n", "sessions"),
    # 128 x 42: the transversal design over GF(32) gives 32 sessions and each row of 32 players
    # then sits the 10 sessions of the 32-player schedule below: the most any schedule can have.
    [(20, 5), (24, 7), (28, 9), (32, 8), (32, 10), (64, 21), (100, 10), (400, 10), (128, 42)],
)
def test_published_optimal_sizes_have_repeat_free_designs(n, sessions):
    template = zero_repeat_template(n, sessions)
    assert template is not None
    assert len(template) == sessions
    assert repeat_count(template) == 0
    assert_every_player_once(template, range(n))


def test_thirty_two_players_ten_sessions_meet_thirty_new_opponents_each_with_even_winds():
    """The 8-4-10 social golfer schedule: 10 sessions is the most 32 players can play without a
    repeat (3 new opponents a session, 31 others), so each player misses exactly one other and
    the pairs that never meet pair off all 32 players."""
    plan = plan_schedule(Tournament(players(32)), 10)
    assert_every_player_once(plan.sessions, range(1, 33))
    q = plan.quality
    assert q.repeated_meetings == 0
    assert q.max_pair_meetings == 1
    met = meetings(plan.sessions)
    assert len(met) == 480
    unmet = [(a, b) for a in range(1, 33) for b in range(a + 1, 33) if frozenset((a, b)) not in met]
    assert sorted(p for pair in unmet for p in pair) == list(range(1, 33))
    # Ten sessions over four winds: every player sits two winds three times and two twice.
    assert q.max_wind_spread == 1
    assert all(sorted(w) == [2, 2, 3, 3] for w in q.winds.values())


def test_thirty_two_players_of_four_countries_meet_no_more_compatriots_than_they_must():
    # Each player meets 30 of the 31 others, so at least 6 of their 7 compatriots: 32 * 6 / 2 = 96
    # meetings of compatriots at the least, and the ten sessions still have no repeat. (No time
    # limit, so that a slow machine plans the same.)
    roster = [Player(id=i, country=["ESP", "FRA", "NLD", "DEU"][i % 4]) for i in range(1, 33)]
    tournament = Tournament(roster, settings=SeatingSettings(time_limit=600.0))
    plan = plan_schedule(tournament, 10)
    assert plan.quality.repeated_meetings == 0
    assert plan.quality.same_country_meetings == 96
    assert plan.quality.max_wind_spread == 1
    # The search knows that bound, so it stops there: counting a compatriot like a repeat, no
    # schedule costs less than 96, and none of these 32 players can be kept from meeting 6.
    problem = _Problem(tournament, 10)
    assert problem.target(flat=True) == 96
    assert problem.target() == 96 * problem.w_country
    # Without countries to keep apart, only the plan's own repeats bound it: none.
    assert _Problem(Tournament(players(32)), 10).target(flat=True) == 0


def test_same_seed_same_plan_other_seed_other_plan():
    t = Tournament(players(24), settings=SeatingSettings(seed=7))
    first, again = plan_schedule(t, 6), plan_schedule(t, 6)
    assert first.sessions == again.sessions
    other = plan_schedule(Tournament(players(24), settings=SeatingSettings(seed=8)), 6)
    assert other.sessions != first.sessions
    assert other.quality.repeated_meetings == first.quality.repeated_meetings == 0


def test_forty_players_from_eight_countries_never_meet_a_compatriot_nor_anyone_twice():
    roster = [Player(i, country=f"C{(i - 1) // 5}") for i in range(1, 41)]
    plan = plan_schedule(Tournament(roster), 8)
    assert_every_player_once(plan.sessions, range(1, 41))
    assert plan.quality.repeated_meetings == 0
    assert plan.quality.same_country_meetings == 0
    assert plan.quality.max_wind_spread <= 1


def test_compatriots_kept_apart_only_in_the_first_sessions_when_asked():
    # Four countries of four: in a repeat-free 16 x 5 schedule every pair meets once, so the
    # compatriots must meet once; the director wants that to happen only in the last session.
    roster = [Player(i, country="ABCD"[(i - 1) // 4]) for i in range(1, 17)]
    plan = plan_schedule(Tournament(roster, settings=SeatingSettings(country_sessions=4)), 5)
    assert plan.quality.repeated_meetings == 0
    assert plan.quality.same_country_by_session == [0, 0, 0, 0, 24]


def test_same_club_goes_before_same_country():
    # Eight Dutch players at four tables: two per table is unavoidable (4 meetings a session),
    # but the four of them from one club never sit together.
    roster = [
        Player(i, country="NL" if i <= 8 else f"X{i}", club="A" if i <= 4 else "") for i in range(1, 17)
    ]
    plan = plan_schedule(Tournament(roster), 2)
    assert plan.quality.repeated_meetings == 0
    assert plan.quality.same_club_meetings == 0
    assert plan.quality.same_country_by_session == [4, 4]


def test_players_who_must_not_meet_never_share_a_table():
    keep_apart = [[1, 2, 3, 4, 5], [6, 7]]
    plan = plan_schedule(Tournament(players(20), separate=keep_apart), 5)
    assert plan.quality.separated_meetings == 0
    assert plan.quality.repeated_meetings == 0
    for session in plan.sessions:
        for table in session:
            assert len(set(table) & {1, 2, 3, 4, 5}) <= 1
            assert not {6, 7} <= set(table)


def test_fixed_tables_are_honoured_in_every_session():
    roster = [Player(i, fixed_table={3: 1, 9: 4, 10: 4}.get(i)) for i in range(1, 33)]
    plan = plan_schedule(Tournament(roster), 6)
    for session in plan.sessions:
        assert 3 in session[0]
        assert {9, 10} <= set(session[3])
    assert plan.quality.fixed_table_violations == 0
    # 9 and 10 meet every session (5 repeats), nobody else meets twice.
    assert plan.quality.repeated_meetings == 5
    assert plan.quality.repeated_pairs == [(9, 10, 6)]


def test_fixed_table_beyond_the_last_table_is_refused():
    roster = [Player(i, fixed_table=5 if i == 1 else None) for i in range(1, 17)]
    with pytest.raises(SeatingError, match="player 1 has fixed table 5, but there are only 4 tables"):
        plan_schedule(Tournament(roster), 2)


def test_table_numbers_are_not_revisited_when_there_is_room():
    plan = plan_schedule(Tournament(players(20)), 5)
    assert plan.quality.repeated_table_visits == 0


def test_substitutes_fill_the_last_table():
    roster = [
        *players(38),
        Player(101, substitute=True),
        Player(102, substitute=True),
        Player(103, substitute=True),
    ]
    plan = plan_schedule(Tournament(roster), 3)
    assert plan.substitutes == [101, 102]
    assert_every_player_once(plan.sessions, [*range(1, 39), 101, 102])


@pytest.mark.parametrize(
    ("roster", "message"),
    [
        (players(38), "players: 38, substitutes: 0; tables of four need 2 more"),
        (
            [*players(37), Player(99, substitute=True)],
            "players: 37, substitutes: 1; tables of four need 2 more",
        ),
        (players(15), "players: 15, substitutes: 0; tables of four need 1 more"),
    ],
)
def test_missing_players_are_counted_in_the_error(roster, message):
    with pytest.raises(SeatingError) as caught:
        plan_schedule(Tournament(roster), 4)
    assert str(caught.value) == message


def test_withdrawal_keeps_played_sessions_and_substitute_takes_the_seat():
    roster = [*players(16), Player(17, substitute=True)]
    total = 5
    original = plan_schedule(Tournament(roster), total)
    played = original.sessions[:2]
    # Player 5 withdraws after session 2; substitute 17 comes in.
    after = [Player(5, active=False) if p.id == 5 else p for p in roster]
    plan = replan_after_withdrawal(Tournament(after, played=played), total, previous=original.sessions[2:])
    assert plan.first_session == 3
    assert plan.substitutes == [17]
    assert_every_player_once(plan.sessions, [*range(1, 5), *range(6, 18)])
    # The report covers the played sessions too, and nobody meets anyone twice.
    assert plan.quality.sessions == 5
    assert plan.quality.repeated_meetings == 0
    assert plan.quality.max_wind_spread <= 1


def test_withdrawals_that_remove_a_table_are_replanned_without_repeats():
    roster = players(40)
    played = plan_schedule(Tournament(roster), 2).sessions
    gone = {3, 8, 13, 18}
    after = [Player(p.id, active=p.id not in gone) for p in roster]
    plan = replan_after_withdrawal(Tournament(after, played=played), 5)
    assert_every_player_once(plan.sessions, [i for i in range(1, 41) if i not in gone])
    assert [len(s) for s in plan.sessions] == [9, 9, 9]
    assert plan.quality.repeated_meetings == 0


def test_withdrawal_without_substitute_says_what_is_missing():
    roster = [Player(i, active=i != 7) for i in range(1, 17)]
    with pytest.raises(SeatingError, match="players: 15, substitutes: 0; tables of four need 1 more"):
        replan_after_withdrawal(Tournament(roster, played=[]), 5)


def test_seated_players_prefers_substitutes_who_already_played():
    roster = [*players(15), Player(50, substitute=True), Player(51, substitute=True)]
    played = [[[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12], [13, 14, 15, 51]]]
    seated, used = seated_players(Tournament(roster, played=played))
    assert used == [51]
    assert len(seated) == 16


def test_plan_cli_numbers_players_and_reads_countries():
    countries = ["NL"] * 4 + ["FR"] * 4 + ["DE"] * 4 + ["IT"] * 4
    schedule, quality = plan_cli(16, 4, countries, seed=3)
    assert_every_player_once(schedule, range(1, 17))
    assert quality.repeated_meetings == 0
    assert quality.same_country_meetings == 0
    payload = json.loads(json.dumps({"sessions": schedule, "quality": quality.to_dict()}))
    assert payload["quality"]["max_pair_meetings"] == 1
    with pytest.raises(SeatingError, match="3 countries were given for 16 players"):
        plan_cli(16, 4, ["NL", "FR", "DE"])


def test_country_file_gives_line_i_to_player_i():
    assert read_countries("NL\nFR\n\nDE\n\n") == ["NL", "FR", "", "DE"]


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    tables=st.integers(min_value=1, max_value=9),
    sessions=st.integers(min_value=1, max_value=6),
    seed=st.integers(0, 99),
)
def test_any_size_seats_everyone_once_and_reports_consistently(tables, sessions, seed):
    n = 4 * tables
    plan = plan_schedule(Tournament(players(n), settings=SeatingSettings(seed=seed)), sessions)
    assert_every_player_once(plan.sessions, range(1, n + 1))
    count = meetings(plan.sessions)
    assert plan.quality.repeated_meetings == sum(m - 1 for m in count.values())
    assert plan.quality.max_wind_spread <= 1
    if 3 * sessions <= n - 1 and n >= 16 and sessions <= 4:
        assert plan.quality.repeated_meetings == 0


def test_clubs_and_countries_too_large_to_spread_meet_no_more_than_the_pigeonholes_force():
    """15 compatriots at 10 tables share five tables in every session at best: the plan reaches that
    floor (and the planner knows it cannot do better), with no repeat."""
    countries = ["ES"] * 15 + ["FR"] * 10 + ["DE"] * 5 + ["IT"] * 5 + ["NL"] * 5
    players = [Player(id=i + 1, country=countries[i]) for i in range(40)]
    plan = plan_schedule(Tournament(players, settings=SeatingSettings(seed=0)), 6)
    assert plan.quality.repeated_meetings == 0
    assert plan.quality.same_country_meetings == 6 * 5  # ES: 5 tables with two each; the others one a table


def test_the_floor_of_the_rules_counts_each_session_where_they_apply():
    players = [
        Player(id=i + 1, country="ES" if i < 15 else "", club="A" if i < 12 else "") for i in range(40)
    ]
    settings = SeatingSettings(seed=0, country_sessions=2)
    problem = _Problem(Tournament(players, settings=settings), 4)
    # countries in the first two sessions only: 15 at 10 tables is 5 pairs; 12 of a club at 10 tables is 2
    assert problem.rules_floor(range(4), flat=True) == 2 * 5 + 4 * 2
