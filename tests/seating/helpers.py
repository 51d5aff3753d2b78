"""Shared checks for the seating tests."""

from __future__ import annotations

from collections import Counter

from tournaments.seating.engine import Player


def players(n: int, **fields) -> list[Player]:
    return [Player(id=i, **fields) for i in range(1, n + 1)]


def assert_every_player_once(sessions, expected_ids) -> None:
    """Each session seats every expected player exactly once, four to a table."""
    expected = sorted(expected_ids)
    for k, session in enumerate(sessions, start=1):
        assert all(len(table) == 4 for table in session), f"session {k} has a table not of four"
        seated = sorted(p for table in session for p in table)
        assert seated == expected, f"session {k} does not seat every player exactly once"


def meetings(sessions) -> Counter:
    count: Counter = Counter()
    for session in sessions:
        for table in session:
            for i, a in enumerate(table):
                for b in table[i + 1 :]:
                    count[frozenset((a, b))] += 1
    return count
