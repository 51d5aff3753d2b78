"""What each player needs in one session to finish in a place: worked out from the rules, not sampled.

Pure Python: no Django import. The input is the standings before the session (what ranks first and the
score, penalties already recorded included), the session's seating and the range of one table's session
as the ruleset gives it (:meth:`scoring.rules.base.Ruleset.session_outcomes`): every way the places of a
table can fall, ties included (MCR: table points 4, 2, 1, 0 and their shares; riichi: uma and oka and
their shares), and the most a seat's score moves beyond its place's value (``spread``).

The model (docs/what-i-need.md):

- Each table of the session finishes in one of the ways the ruleset lists, each way given to its four
  players in any order; tables are independent.
- The places are counted exactly. The score is bounded: each player's session score lies within
  ``spread`` of its place's value, either way, independently of the others. So a player ``a`` is *surely
  ahead* of ``b`` after the session when, ranking by table points, ``a`` has more, or as many and a
  score lead over ``b`` of more than twice the spread; ranking by score, when ``a``'s lead counting the
  places' values is more than twice the spread. Anything closer can go either way (the score, then the
  tie-breaks, decide it).
- A place ``k`` is *guaranteed* with a result when, whatever the other tables and the player's own table
  mates do, fewer than ``k`` players can end ahead of him (a player who is not surely behind counts).
  It is *possible* with a result when some outcome leaves fewer than ``k`` players surely ahead.

The result is the value of the player's own place (table points, or uma with the oka); the answer per
place is the least result from which every better result guarantees it, and the least result that keeps
it possible (None: no result does, out of reach). Substitutes and disqualified players are never ahead
of a ranked player; withdrawn players are not in the standings.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from math import gcd
from typing import Literal

Number = int | Fraction
Method = Literal["table_points", "score"]
#: the most places one request asks about (the podium, a cut line and a few more)
MAX_PLACES = 8


@dataclass(frozen=True)
class Contender:
    """One player of the standings before the session."""

    player: str
    name: str
    primary: Fraction  # what ranks first: table points (MCR), else the score
    score: Fraction  # the score (the same as ``primary`` when the ranking is by score)
    table: int | str | None  # the player's table in the session; None: he does not play it
    ranked: bool = True  # False: a substitute or a disqualified player, never ahead of a ranked player


@dataclass(frozen=True)
class PlaceNeed:
    place: int  # finish in this place or better
    guaranteed: Fraction | None  # least result from which every better result guarantees it; None: none
    possible: Fraction | None  # least result that keeps it possible; None: out of reach

    @property
    def status(self) -> str:
        """``"safe"`` (guaranteed whatever the result), ``"needs"`` (guaranteed with some result),
        ``"open"`` (possible but no result guarantees it), ``"out"`` (out of reach)."""
        if self.possible is None:
            return "out"
        if self.guaranteed is None:
            return "open"
        return "needs"


@dataclass(frozen=True)
class PlayerNeeds:
    player: str
    name: str
    plays: bool  # seated in the session
    results: tuple[Fraction, ...]  # the results open to him, worst first (0 alone when he does not play)
    places: tuple[PlaceNeed, ...]

    def need(self, place: int) -> PlaceNeed:
        for need in self.places:
            if need.place == place:
                return need
        raise KeyError(place)

    def safe(self, place: int) -> bool:
        need = self.need(place)
        return need.guaranteed is not None and need.guaranteed == self.results[0]


def check_places(places: Iterable[int], players: int) -> tuple[int, ...]:
    """The places asked about, each from 1 to the number of players, sorted, at most :data:`MAX_PLACES`."""
    out = sorted({int(k) for k in places if 1 <= int(k) <= max(players, 1)})
    return tuple(out[:MAX_PLACES])


def compute_needs(
    *,
    contenders: Sequence[Contender],
    outcomes: Sequence[Sequence[Number]],
    spread: Number,
    method: Method,
    places: Sequence[int],
) -> tuple[PlayerNeeds, ...]:
    """What each ranked player needs for each of ``places`` (see the module's text)."""
    return _Needs(contenders, outcomes, spread, method).answers(places)


class _Needs:
    """The computation in whole numbers: every value, total and the spread times one common denominator."""

    def __init__(self, contenders, outcomes, spread, method: Method):
        figures = [Fraction(v) for vector in outcomes for v in vector]
        figures += [Fraction(spread)]
        for c in contenders:
            figures += [Fraction(c.primary), Fraction(c.score)]
        scale = 1
        for f in figures:
            scale = scale * f.denominator // gcd(scale, f.denominator)
        self.scale = scale
        self.method = method
        self.band = int(2 * Fraction(spread) * scale)
        self.vectors = sorted(
            {tuple(sorted((int(Fraction(v) * scale) for v in vector), reverse=True)) for vector in outcomes},
            reverse=True,
        )
        self.values = sorted({v for vector in self.vectors for v in vector})
        self.contenders = list(contenders)
        self.P = {c.player: int(Fraction(c.primary) * scale) for c in contenders}
        self.S = {c.player: int(Fraction(c.score) * scale) for c in contenders}
        self.tables: dict[int | str, list[Contender]] = defaultdict(list)
        for c in contenders:
            if c.table is not None:
                self.tables[c.table].append(c)
        for table, members in self.tables.items():
            if len(members) > 4:
                raise ValueError(f"table {table} has {len(members)} players")
        self.ranked = [c for c in contenders if c.ranked]
        self.playing = sorted((c for c in self.ranked if c.table is not None), key=lambda c: self.P[c.player])
        self.playing_P = [self.P[c.player] for c in self.playing]
        self.absent = [c for c in self.ranked if c.table is None]
        self._most: dict = {}
        self._fewest: dict = {}
        self._made: dict = {}
        # by table, its ranked players' (contender, primary, score), for the count at a table
        self.ranked_at = {
            table: [(q, self.P[q.player], self.S[q.player]) for q in members if q.ranked]
            for table, members in self.tables.items()
        }

    def answers(self, places: Sequence[int]) -> tuple[PlayerNeeds, ...]:
        places = sorted(places)
        result = []
        for p in self.ranked:
            results = self.values if p.table is not None else [0]
            guaranteed: dict[int, int | None] = dict.fromkeys(places)
            open_ = set(places)
            for r in reversed(results):  # from the best result down, while some place stays sure
                most = self._threats(p, r, places[-1])
                for k in list(open_):
                    if most < k:
                        guaranteed[k] = r
                    else:
                        open_.discard(k)
                if not open_:
                    break
            possible: dict[int, int | None] = dict.fromkeys(places)
            for r in results:  # from the worst result up, until every place is possible
                fewest = self._blockers(p, r, places[-1])
                for k in places:
                    if possible[k] is None and fewest < k:
                        possible[k] = r
                if possible[places[0]] is not None:
                    break
            result.append(
                PlayerNeeds(
                    player=p.player,
                    name=p.name,
                    plays=p.table is not None,
                    results=self._fractions(results),
                    places=tuple(
                        PlaceNeed(
                            place=k,
                            guaranteed=self._fraction(guaranteed[k]),
                            possible=self._fraction(possible[k]),
                        )
                        for k in places
                    ),
                )
            )
        return tuple(result)

    def _fraction(self, value: int | None) -> Fraction | None:
        """A value as it is (the common denominator taken out), made once."""
        if value is None:
            return None
        if value not in self._made:
            self._made[value] = Fraction(value, self.scale)
        return self._made[value]

    def _fractions(self, values: Sequence[int]) -> tuple[Fraction, ...]:
        key = tuple(values)
        if key not in self._made:
            self._made[key] = tuple(self._fraction(v) for v in values)
        return self._made[key]

    # -- the least value with which a rival is not surely behind (threat) or surely ahead (blocker) --------
    def _threat_at(self, p, x: int, q) -> int:
        """The least value of the session with which ``q`` is not surely behind ``p`` on ``x``."""
        if self.method == "table_points":
            return x - self.P[q.player] + (1 if self.S[p.player] - self.S[q.player] > self.band else 0)
        return x - self.P[q.player] - self.band

    def _blocker_at(self, p, x: int, q) -> int:
        """The least value with which ``q`` is surely ahead of ``p`` on ``x``."""
        if self.method == "table_points":
            return x - self.P[q.player] + (0 if self.S[q.player] - self.S[p.player] > self.band else 1)
        return x - self.P[q.player] + self.band + 1

    def _window(self, x: int, blockers: bool) -> tuple[int, int]:
        """Totals below ``lo`` never reach the need, totals above ``hi`` always do (whatever the value)."""
        low, high = self.values[0], self.values[-1]
        if self.method == "table_points":
            return x - high, x - low
        shift = self.band if blockers else -self.band
        return x + shift - high - 1, x + shift - low + 1

    def _index(self, need: int) -> int:
        """The position of the least value at or above ``need`` (len(values): none)."""
        return bisect_left(self.values, need)

    def _threats(self, p, r: int, enough: int) -> int:
        return self._count(p, r, enough, blockers=False)

    def _blockers(self, p, r: int, enough: int) -> int:
        return self._count(p, r, enough, blockers=True)

    def _count(self, p, r: int, enough: int, *, blockers: bool) -> int:
        """The most rivals not surely behind ``p`` (``blockers`` False) or the fewest surely ahead of him,
        ``p`` having result ``r``; counting stops being exact once it reaches ``enough`` (no place asked
        about is then sure, or possible)."""
        x = self.P[p.player] + r
        need_at = self._blocker_at if blockers else self._threat_at
        total = 0
        for q in self.absent:  # they get nothing from the session: value 0
            if q is not p:
                total += need_at(p, x, q) <= 0
        lo, hi = self._window(x, blockers)
        above = len(self.playing) - bisect_right(self.playing_P, hi)  # reach the need whatever they get
        if total + above - 4 >= enough:  # at most p and his three table mates among them
            return total + above - 4
        start = bisect_left(self.playing_P, lo)
        end = bisect_right(self.playing_P, hi)
        exact = {c.table for c in self.playing[start:end]}
        if p.table is not None:
            exact.add(p.table)
        total += above
        values, by_points, band, mine = (
            self.values,
            self.method == "table_points",
            self.band,
            self.S[p.player],
        )
        for table in exact:
            indices = []
            for q, primary, score in self.ranked_at[table]:
                if primary > hi:
                    total -= 1
                if q is p:
                    continue
                # need_at(p, x, q), inlined: the least value with which q is not surely behind p (surely
                # ahead of him, for blockers)
                if by_points:
                    lead = (score - mine > band) if blockers else (mine - score > band)
                    need = x - primary + ((0 if lead else 1) if blockers else (1 if lead else 0))
                else:
                    need = x - primary + (band + 1 if blockers else -band)
                indices.append(bisect_left(values, need))
            if indices:
                indices.sort()
                total += self._table(r if table == p.table else None, tuple(indices), blockers)
        return total

    def _table(self, own: int | None, indices: tuple[int, ...], blockers: bool) -> int:
        """At one table (``own``: p's, where he has that value), the most rivals meeting their need
        (threats) or the fewest that cannot avoid it (blockers), over every way of the places."""
        memo = self._fewest if blockers else self._most
        key = (own, indices)
        if key in memo:
            return memo[key]
        if own is None:
            candidates = [[self.values.index(v) for v in vector] for vector in self.vectors]
        else:
            candidates = [
                [self.values.index(v) for v in _without(vector, own)]
                for vector in self.vectors
                if own in vector
            ]
        needs = [i for i in indices if i < len(self.values)]
        if blockers:
            answer = min(len(indices) - _most_below(needs, len(indices), c) for c in candidates)
        else:
            answer = max(_most_matched(needs, c) for c in candidates)
        memo[key] = answer
        return answer


def _without(vector: tuple[int, ...], value: int) -> tuple[int, ...]:
    out = list(vector)
    out.remove(value)
    return tuple(out)


def _most_matched(needs: list[int], vector: Sequence[int]) -> int:
    """The most of ``needs`` (ascending) met by distinct values of ``vector``: the j smallest needs against
    the j largest values, both ascending, pair by pair."""
    top = sorted(vector, reverse=True)
    for j in range(min(len(needs), len(top)), 0, -1):
        mine = sorted(top[:j])
        if all(n <= v for n, v in zip(needs[:j], mine, strict=True)):
            return j
    return 0


def _most_below(needs: list[int], rivals: int, vector: Sequence[int]) -> int:
    """The most of ``rivals`` that can get a value below their need (``needs`` ascending: the rivals whose
    need some value reaches; the others stay below whatever they get), each a distinct value of
    ``vector``. The rivals with a need take the smallest values (the others, and the substitutes, the
    rest); then the j largest needs against the j smallest values, both ascending."""
    low = sorted(vector)[: len(needs)]
    for j in range(len(needs), 0, -1):
        if all(v < n for v, n in zip(low[:j], needs[-j:], strict=True)):
            return rivals - len(needs) + j
    return rivals - len(needs)
