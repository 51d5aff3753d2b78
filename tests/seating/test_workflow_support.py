"""Helpers shared by the seating workflow tests (no tests here)."""

from __future__ import annotations

import re
from collections import Counter
from itertools import combinations

from scoring.services import result_confirm, totals_set
from tournaments.models import Registration, Seat, Session, Table
from tournaments.permissions import actor_for


def session(tournament, number: int) -> Session:
    return Session.objects.get(tournament=tournament, number=number)


def reg(tournament, key: str) -> Registration:
    return Registration.objects.get(tournament=tournament, key=key)


def seating(tournament, number: int) -> list[list[str]]:
    """Session ``number``'s tables in number order, each the keys of E, S, W, N."""
    tables: dict[int, list[str]] = {}
    for seat in (
        Seat.objects.filter(session__tournament=tournament, session__number=number)
        .select_related("table", "registration")
        .order_by("table__number", "position")
    ):
        tables.setdefault(seat.table.number, []).append(seat.registration.key)
    return [tables[n] for n in sorted(tables)]


def table_keys(tournament, number: int) -> list[str]:
    return list(
        Table.objects.filter(session__tournament=tournament, session__number=number)
        .order_by("number")
        .values_list("private_key", flat=True)
    )


def meetings(tournament, numbers) -> Counter:
    count: Counter = Counter()
    for n in numbers:
        for table in seating(tournament, n):
            for a, b in combinations(sorted(table), 2):
                count[(a, b)] += 1
    return count


def confirm(table: Table, scores, user) -> None:
    """Enter and confirm a table's game totals (seat order E, S, W, N)."""
    actor = actor_for(user=user, table=table)
    totals_set(table=table, scores=scores, actor=actor, expected_version=None)
    result_confirm(table=table, actor=actor, expected_version=None)


def metric(html: str, name: str) -> int:
    """A number of the quality report on the seating page."""
    match = re.search(rf'data-metric="{name}">(\d+)<', html)
    assert match, f"the quality report shows no {name}"
    return int(match.group(1))


def generate(client, tournament, sessions, strategy="schedule", seed=1):
    return client.post(
        f"/t/{tournament.slug}/seating/generate/",
        {"strategy": strategy, "sessions": [str(n) for n in sessions], "seed": str(seed)},
    )
