"""Importing a predefined schedule: accepted formats and every fault named."""

from __future__ import annotations

import pytest

from tests.seating.helpers import players
from tournaments.seating.engine import (
    Player,
    SeatingError,
    Tournament,
    parse_predefined,
    plan_predefined,
)


def test_dash_lines_with_blank_line_between_sessions():
    text = "# imported\n1-2-3-4\n5-6-7-8\n\n1,5,3,7\n2;6;4;8\n"
    assert parse_predefined(text, players(8), sessions=2) == [
        [[1, 2, 3, 4], [5, 6, 7, 8]],
        [[1, 5, 3, 7], [2, 6, 4, 8]],
    ]


def test_session_header_lines_separate_sessions_too():
    text = "Session 1\n1 2 3 4\n5 6 7 8\nSession 2:\n1 5 3 7\n2 6 4 8\n"
    assert len(parse_predefined(text, players(8))) == 2


def test_csv_with_header_orders_tables_by_number():
    text = "session,table,east,south,west,north\n1,1,1,2,3,4\n1,2,5,6,7,8\n2,2,2,6,4,8\n2,1,1,5,3,7\n"
    assert parse_predefined(text, players(8)) == [
        [[1, 2, 3, 4], [5, 6, 7, 8]],
        [[1, 5, 3, 7], [2, 6, 4, 8]],
    ]


def test_every_fault_is_collected_and_named():
    roster = [*players(12), Player(13, active=False)]
    text = (
        "1-2-3-4\n"  # line 1
        "5-6-7-8\n"  # line 2
        "9-10-11-99\n"  # line 3: unknown player 99, so 12 is missing from session 1
        "\n"
        "1-2-3-4\n"  # line 5
        "5-6-7\n"  # line 6: three players
        "9-10-13-1\n"  # line 7: 13 withdrew, 1 seated twice; 8, 11 and 12 are missing
    )
    with pytest.raises(SeatingError) as caught:
        parse_predefined(text, roster, sessions=3)
    faults = caught.value.faults
    assert "the schedule has 2 sessions; 3 were expected" in faults
    assert "line 3: unknown player “99”" in faults
    assert "session 1: players missing: 12" in faults
    assert "line 6: a table needs 4 players, found 3 (“5-6-7”)" in faults
    assert "line 7: player 13 has withdrawn" in faults
    assert "session 2: player 1 is seated 2 times (lines 5, 7)" in faults
    assert "session 2: players missing: 8, 11, 12" in faults
    assert "session 2 seats 11 players in 3 tables; 12 players are needed" in faults
    # The message shown to the director lists them all.
    assert str(caught.value).startswith(f"{len(faults)} problems:")


def test_session_with_the_wrong_number_of_players_is_named():
    text = "1-2-3-4\n5-6-7-8\n9-10-11-12\n\n1-5-9-2\n6-10-3-7\n"
    with pytest.raises(SeatingError) as caught:
        parse_predefined(text, players(12))
    assert caught.value.faults == [
        "session 2: players missing: 4, 8, 11, 12",
        "session 2 seats 8 players in 2 tables; 12 players are needed",
    ]


def test_empty_schedule_is_refused():
    with pytest.raises(SeatingError, match="the schedule is empty"):
        parse_predefined("\n# nothing\n", players(8))


def test_substitutes_may_complete_the_tables():
    roster = [*players(6), Player(7, substitute=True), Player(8, substitute=True)]
    assert parse_predefined("1-2-3-4\n5-6-7-8\n", roster) == [[[1, 2, 3, 4], [5, 6, 7, 8]]]
    with pytest.raises(SeatingError, match="players missing: 6"):
        parse_predefined("1-2-3-4\n5-7-8-9\n", [*roster, Player(9, substitute=True)])


def test_imported_schedule_gets_balanced_winds_and_fixed_tables():
    # Sixteen players, the same seat order "lowest number East" in every session: unbalanced.
    rounds = [
        [[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12], [13, 14, 15, 16]],
        [[1, 5, 9, 13], [2, 6, 10, 14], [3, 7, 11, 15], [4, 8, 12, 16]],
        [[1, 6, 11, 16], [2, 5, 12, 15], [3, 8, 9, 14], [4, 7, 10, 13]],
        [[1, 7, 12, 14], [2, 8, 11, 13], [3, 5, 10, 16], [4, 6, 9, 15]],
        [[1, 8, 10, 15], [2, 7, 9, 16], [3, 6, 12, 13], [4, 5, 11, 14]],
    ]
    text = "\n\n".join("\n".join("-".join(map(str, t)) for t in s) for s in rounds)
    roster = [Player(i, fixed_table=3 if i == 16 else None) for i in range(1, 17)]
    kept = plan_predefined(Tournament(roster), text, balance_winds=False)
    assert kept.quality.max_wind_spread == 5  # player 1 sat East five times
    plan = plan_predefined(Tournament(roster), text)
    assert plan.quality.repeated_meetings == 0
    assert plan.quality.max_wind_spread <= 1
    # Player 16 needs table 3: that table moved to number 3 in every session.
    assert all(16 in session[2] for session in plan.sessions)
    assert plan.quality.fixed_table_violations == 0
    # Table composition is exactly what was imported.
    assert [sorted(map(sorted, s)) for s in plan.sessions] == [sorted(map(sorted, s)) for s in rounds]


def test_players_with_different_fixed_tables_at_one_table_are_refused():
    roster = [Player(1, fixed_table=1), Player(2, fixed_table=2), *players(8)[2:]]
    with pytest.raises(SeatingError, match="session 1: players with fixed tables 1, 2 share a table"):
        plan_predefined(Tournament(roster), "1-2-3-4\n5-6-7-8\n")
