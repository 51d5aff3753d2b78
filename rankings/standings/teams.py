"""Team standings (pure): a team's table points and score are the sums of its members'.

A member's figures are those of their row in the individual standings (penalties and
disqualification already applied); a member without a row adds nothing. Teams rank by table points
then score when the tournament ranks by table points (MCR, Mayón), by score otherwise. Teams with the
same figures share the rank and the next rank skips (1, 1, 3); ties are listed by name.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any


@dataclass(frozen=True)
class TeamInfo:
    team: int | str  # the team's identifier in the tournament
    name: str
    members: tuple[str, ...]  # player keys, in the team's order


@dataclass(frozen=True)
class TeamStanding:
    rank: int
    team: int | str
    name: str
    table_points: Fraction | None  # None when the ranking is by score
    score: Fraction
    members: tuple[str, ...]

    def as_document(self, printable) -> dict[str, Any]:
        return {
            "rank": self.rank,
            "team": self.team,
            "name": self.name,
            "table_points": None if self.table_points is None else printable(self.table_points),
            "score": printable(self.score),
            "members": list(self.members),
        }


def team_standings(
    teams: Iterable[TeamInfo],
    figures: Mapping[str, tuple[Fraction | None, Fraction]],
    by_table_points: bool,
) -> tuple[TeamStanding, ...]:
    """Rank ``teams``; ``figures`` maps a player key to its (table points, score)."""
    totals = []
    for info in teams:
        points = Fraction(0)
        score = Fraction(0)
        for key in info.members:
            tp, sc = figures.get(key, (None, Fraction(0)))
            points += Fraction(tp or 0)
            score += Fraction(sc)
        totals.append((info, points if by_table_points else None, score))

    def key(item) -> tuple:
        _info, points, score = item
        return (points if points is not None else 0, score)

    ordered = sorted(totals, key=lambda item: (tuple(-v for v in key(item)), item[0].name, str(item[0].team)))
    out: list[TeamStanding] = []
    previous: tuple | None = None
    rank = 0
    for position, item in enumerate(ordered, start=1):
        if key(item) != previous:
            rank, previous = position, key(item)
        info, points, score = item
        out.append(TeamStanding(rank, info.team, info.name, points, score, tuple(info.members)))
    return tuple(out)


def figures_of(rows: Sequence[Any]) -> dict[str, tuple[Fraction | None, Fraction]]:
    """(table points, score) by player key from individual standing rows."""
    return {row.player: (row.table_points, row.score) for row in rows}
