"""What each team needs in one session for the teams' podium: a bound that is never wrong.

Pure Python: no Django import. A team's standing is the sum of its members' table points and scores
(:mod:`rankings.standings.teams`), so its result in a session is the sum of its playing members' results
(table points, or uma with the oka), each one of the values a table's session gives. Counting every
seating and outcome of the members of every team together is too large; the bound here lets each playing
member take any value, whatever his table mates take, and each member's score move by up to the
ruleset's ``spread`` either way (so two teams' scores by up to ``spread`` times their playing members
together). That set of outcomes holds every real one, so:

- *sure with X*: with a total of X or more, fewer than ``k`` teams can end level with or ahead of the team
  in any of those outcomes, so in every real one: the place is sure;
- *out of reach*: even with every rival at its least total, ``k`` teams or more are surely ahead: no real
  outcome gives the place;
- *possible from X*: below X the place is out of reach; from X it is possible in the wider set, which may
  hold more than the tables allow when team mates or rivals share a table.

A team level with another on every figure counts against it for "sure" (teams that are level share the
rank, but a place shared is not a place sure).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from rankings.standings.needs import Method, Number, PlaceNeed, PlayerNeeds


@dataclass(frozen=True)
class TeamContender:
    team: str
    name: str
    primary: Fraction  # what ranks first: the members' table points (MCR), else their score
    score: Fraction  # the members' score
    playing: int  # members who play the session (0: the team's figures do not move)


def team_totals(values: Sequence[Fraction], playing: int) -> tuple[Fraction, ...]:
    """Every total ``playing`` members can make, each with one of ``values``, ascending."""
    totals = {Fraction(0)}
    for _member in range(playing):
        totals = {t + v for t in totals for v in values}
    return tuple(sorted(totals))


def compute_team_needs(
    *,
    teams: Sequence[TeamContender],
    outcomes: Sequence[Sequence[Number]],
    spread: Number,
    method: Method,
    places: Sequence[int],
) -> tuple[PlayerNeeds, ...]:
    """What each team needs (its members' total) for each of ``places`` (see the module's text)."""
    values = sorted({Fraction(v) for vector in outcomes for v in vector})
    spread = Fraction(spread)
    ranges = {t.team: (t.playing * values[0], t.playing * values[-1]) for t in teams}
    answers = []
    for a in teams:
        totals = team_totals(values, a.playing)
        threats, blockers = {}, {}
        for x in totals:
            threats[x] = sum(
                1 for u in teams if u is not a and not _ahead(a, x, u, ranges[u.team][1], spread, method)
            )
            blockers[x] = sum(
                1 for u in teams if u is not a and _ahead(u, ranges[u.team][0], a, x, spread, method)
            )
        answers.append(
            PlayerNeeds(
                player=a.team,
                name=a.name,
                plays=a.playing > 0,
                results=totals,
                places=tuple(_place(k, totals, threats, blockers) for k in places),
            )
        )
    return tuple(answers)


def _ahead(a: TeamContender, x: Fraction, b: TeamContender, y: Fraction, spread: Fraction, method) -> bool:
    """Whether ``a`` with the session total ``x`` is surely ahead of ``b`` with ``y``."""
    band = (a.playing + b.playing) * spread
    if method == "table_points":
        first, second = a.primary + x, b.primary + y
        return first > second or (first == second and a.score - b.score > band)
    return a.primary + x - b.primary - y > band


def _place(k: int, totals, threats: dict, blockers: dict) -> PlaceNeed:
    guaranteed = None
    for x in reversed(totals):
        if threats[x] >= k:
            break
        guaranteed = x
    possible = next((x for x in totals if blockers[x] < k), None)
    return PlaceNeed(place=k, guaranteed=guaranteed, possible=possible)
