"""The quality report, checked figure by figure on a hand-made schedule."""

from __future__ import annotations

import json

from tournaments.seating.engine import Player, quality_report
from tournaments.seating.engine.quality import format_schedule

# Eight players; 1 and 2 are French, 3 and 4 German, 1 and 5 play for the same club, player 8
# must always sit at table 2, and players 2 and 6 were to be kept apart.
PLAYERS = [
    Player(1, country="FR", club="Club A"),
    Player(2, country="FR"),
    Player(3, country="DE"),
    Player(4, country="DE"),
    Player(5, club="Club A"),
    Player(6),
    Player(7),
    Player(8, fixed_table=2),
]
SESSIONS = [
    [[1, 2, 3, 4], [5, 6, 7, 8]],
    [[1, 2, 5, 6], [3, 4, 7, 8]],
    [[8, 1, 3, 5], [2, 4, 6, 7]],  # player 8 was moved to table 1 here
]


def report():
    return quality_report(PLAYERS, SESSIONS, separate=[[2, 6]])


def test_repeated_meetings_are_counted_beyond_the_first():
    q = report()
    # 36 pair-meetings: pairs 1-2, 1-3, 1-5, 2-4, 2-6, 3-4, 3-8, 4-7, 5-6, 5-8, 6-7, 7-8 meet twice,
    # twelve other pairs once.
    assert q.repeated_meetings == 12
    assert q.max_pair_meetings == 2
    assert {frozenset((a, b)) for a, b, _ in q.repeated_pairs} == {
        frozenset(p)
        for p in [
            (1, 2),
            (1, 3),
            (1, 5),
            (2, 4),
            (2, 6),
            (3, 4),
            (3, 8),
            (4, 7),
            (5, 6),
            (5, 8),
            (6, 7),
            (7, 8),
        ]
    }
    assert all(m == 2 for _, _, m in q.repeated_pairs)


def test_compatriots_club_mates_and_separated_players_are_counted_per_session():
    q = report()
    # 1-2 (FR) and 3-4 (DE) share a table in sessions 1 and 2.
    assert q.same_country_by_session == [2, 2, 0]
    assert q.same_country_meetings == 4
    # 1 and 5 (Club A) share table 1 in sessions 2 and 3.
    assert q.same_club_by_session == [0, 1, 1]
    assert q.same_club_meetings == 2
    # 2 and 6 were to be kept apart but met in sessions 2 and 3.
    assert q.separated_meetings == 2


def test_wind_counts_and_spreads():
    q = report()
    assert q.winds == {
        1: (2, 1, 0, 0),
        2: (1, 2, 0, 0),
        3: (1, 0, 2, 0),
        4: (0, 2, 0, 1),
        5: (1, 0, 1, 1),
        6: (0, 1, 1, 1),
        7: (0, 0, 2, 1),
        8: (1, 0, 0, 2),
    }
    assert q.wind_spread == {1: 2, 2: 2, 3: 2, 4: 2, 5: 1, 6: 1, 7: 2, 8: 2}
    assert q.max_wind_spread == 2


def test_table_visits_and_fixed_table_violations():
    q = report()
    # Player 1 sat at table 1 three times (2 repeats), player 7 at table 2 three times (2), players
    # 2..6 once each at a table they had seen before; player 8 is left out (fixed table).
    assert q.repeated_table_visits == 9
    # Player 8 left table 2 in session 3.
    assert q.fixed_table_violations == 1
    assert (q.sessions, q.players) == (3, 8)


def test_report_is_json_ready_and_printable():
    q = report()
    data = json.loads(json.dumps(q.to_dict()))
    assert data["repeated_meetings"] == 12
    assert data["winds"][0] == {"player": 1, "E": 2, "S": 1, "W": 0, "N": 0, "spread": 2}
    text = format_schedule(SESSIONS, q)
    assert "Session 3" in text
    assert "repeated meetings:        12" in text


def test_the_report_says_how_many_compatriot_meetings_no_seating_avoids():
    # 8 players over 3 sessions, countries A = 1-4, B = 5-6, C = 7-8. Each player meets 9 times
    # with only 7 others: a player of A has 4 from elsewhere, so 5 of their meetings are repeats or
    # compatriots; B and C have 6, so 3. (4 * 5 + 4 * 3) / 2 = 16 in all, and this seating has the
    # fewest repeats possible, 8: at least 8 compatriot meetings, which it has.
    roster = [Player(id=i, country="A" if i <= 4 else "B" if i <= 6 else "C") for i in range(1, 9)]
    sessions = [
        [[8, 2, 7, 1], [3, 4, 5, 6]],  # compatriots 1-2, 7-8, 3-4, 5-6
        [[5, 3, 2, 7], [4, 6, 1, 8]],  # 2-3, 1-4
        [[1, 8, 3, 5], [6, 7, 4, 2]],  # 1-3, 2-4
    ]
    q = quality_report(roster, sessions)
    assert q.repeated_meetings == 8
    assert q.same_country_meetings == 8
    assert q.same_country_least == 8
    assert q.same_club_least == 0
    assert q.to_dict()["same_country_least"] == 8
    # One session: 3 meetings each, fewer than the players from elsewhere: nothing is unavoidable.
    assert quality_report(roster, sessions[:1]).same_country_least == 0
