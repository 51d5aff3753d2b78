"""What each player needs in a session whose seating is not published yet: for any seating.

Pure Python: no Django import. The model is that of :mod:`rankings.standings.needs`, with the tables
unknown: every ranked player plays the session, substitutes fill the last table, and the seating is any
split of them into tables of four. A place is *guaranteed* with a result when it is sure whatever the
seating and whatever the tables do; it is *possible* when some seating and some outcome leave it open.
Both statements hold for any seating that is published later: "sure" stays sure, and below the result
that keeps a place possible no seating makes it possible.

Counting, for ``p`` with a result: each rival has a level, the least value of the session with which he
is not surely behind ``p`` (for "sure") or is surely ahead (for "possible"). The most rivals not surely
behind, over every seating and outcome, is the most rivals that can be given, at distinct seats of
``p``'s table and the other tables, a value at or above their level; the fewest surely ahead is the
number of rivals minus the most that can be given a value below theirs. Either is a packing of rivals
into tables, each table finishing in one of the ruleset's ways: worked out exactly by a search over the
tables (each table takes one way of the places and, seat by seat from its best value down, the hardest
rival the seat fits), remembered by what is left to place.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Sequence

from rankings.standings.needs import Contender, Method, Number, PlayerNeeds, _Needs

#: beyond this many states a search stops and answers with the bound that ignores the tables (sound for
#: "sure": it counts more rivals than can be; a place then may read "possible" where no seating makes it)
SEARCH_LIMIT = 200_000


def tables_for(players: int) -> int:
    """The tables a session of ``players`` ranked players takes (substitutes fill the last)."""
    return max(1, -(-players // 4))


def compute_needs_any_seating(
    *,
    contenders: Sequence[Contender],
    outcomes: Sequence[Sequence[Number]],
    spread: Number,
    method: Method,
    places: Sequence[int],
) -> tuple[PlayerNeeds, ...]:
    """What each ranked player needs for each of ``places`` whatever the seating (see the module's text).
    Only the ranked contenders count; each of them plays."""
    ranked = [
        Contender(c.player, c.name, c.primary, c.score, table="?", ranked=True)
        for c in contenders
        if c.ranked
    ]
    return _AnySeating(ranked, outcomes, spread, method).answers(places)


class _AnySeating(_Needs):
    def __init__(self, contenders, outcomes, spread, method: Method):
        super().__init__([_unseated(c) for c in contenders], outcomes, spread, method)
        self.ranked = list(contenders)  # each plays, at a table not known yet
        self.free = tables_for(len(self.ranked)) - 1  # the tables besides p's
        self.top = len(self.values) - 1
        self.ways = tuple(tuple(sorted(self.values.index(v) for v in vector)) for vector in self.vectors)
        self.mirrored = tuple(_mirror(way, self.top) for way in self.ways)
        self.order = sorted(self.ranked, key=lambda c: self.P[c.player])
        self.order_P = [self.P[c.player] for c in self.order]
        self._own: dict = {}

    def _own_ways(self, r: int, low: bool) -> tuple[tuple[int, ...], ...]:
        """p's table: the ways with ``r`` among them, ``r`` taken out (the seats of his three mates)."""
        if (r, low) not in self._own:
            index = self.values.index(r)
            ways = {_drop(way, index) for way in self.ways if index in way}
            self._own[r, low] = tuple(sorted(_mirror(way, self.top) if low else way for way in ways))
        return self._own[r, low]

    def _count(self, p, r: int, enough: int, *, blockers: bool) -> int:
        """The most rivals not surely behind ``p`` (``blockers`` False) or the fewest surely ahead; exact
        below ``enough``."""
        x = self.P[p.player] + r
        need_at = self._blocker_at if blockers else self._threat_at
        lo, hi = self._window(x, blockers)
        start, end = bisect_left(self.order_P, lo), bisect_right(self.order_P, hi)
        forced = len(self.order) - end - (1 if self.P[p.player] > hi else 0)  # reach it whatever they get
        if forced >= enough:
            return forced
        never = self.top + 1
        levels = [bisect_left(self.values, need_at(p, x, q)) for q in self.order[start:end] if q is not p]
        forced += sum(1 for level in levels if level == 0)
        if blockers:  # surely ahead from his level up: seat him below it (mirrored: at or above)
            middle = sorted(never - level for level in levels if 0 < level < never)
        else:
            middle = sorted(level for level in levels if 0 < level < never)[: max(enough - forced, 0)]
        ways = self.mirrored if blockers else self.ways
        placed = _most_placed(tuple(middle), self.free, self._own_ways(r, blockers), ways, self.top)
        if blockers:
            return forced + len(middle) - placed
        return forced + placed


def _drop(way: tuple[int, ...], index: int) -> tuple[int, ...]:
    out = list(way)
    out.remove(index)
    return tuple(out)


def _mirror(way: tuple[int, ...], top: int) -> tuple[int, ...]:
    """A way seen from below: the lowest value becomes the highest (placing a rival below his level)."""
    return tuple(sorted(top - v for v in way))


def _most_placed(
    levels: tuple[int, ...],
    free: int,
    own: tuple[tuple[int, ...], ...],
    ways: tuple[tuple[int, ...], ...],
    top,
) -> int:
    """The most of the rivals (``levels`` ascending, each placed at a seat of that value index or above)
    that p's table (one of ``own``) and ``free`` other tables (one of ``ways`` each) can seat so."""
    levels = tuple(level for level in levels if level <= top)
    for j in range(len(levels), 0, -1):  # the j easiest rivals are the ones worth placing
        if _fits(levels[:j], free, own, ways):
            return j
    return 0


def _fits(levels: tuple[int, ...], free: int, own, ways) -> bool:
    """Whether every rival of ``levels`` (ascending) can be seated at or above his level."""
    if not levels:
        return True
    for way in own:
        rest = _seat(levels, way)
        if _fits_free(rest, free, ways):
            return True
    return not own and _fits_free(levels, free, ways)


def _seat(levels: tuple[int, ...], way: Sequence[int]) -> tuple[int, ...]:
    """Seat at one table: from its best seat down, the hardest rival left that the seat fits."""
    rest = list(levels)
    for value in sorted(way, reverse=True):
        at = bisect_left(rest, value + 1) - 1  # the hardest rival whose level is at most the value
        if at >= 0:
            del rest[at]
    return tuple(rest)


def _fits_free(levels: tuple[int, ...], free: int, ways) -> bool:
    """Whether ``free`` tables seat every rival of ``levels`` (ascending) at or above his level; past
    :data:`SEARCH_LIMIT` states, the bound that ignores the tables (each rival at a table's best seat)."""
    memo: dict = {}
    try:
        return _search(levels, free, ways, memo)
    except _TooLarge:
        return levels[-1] <= max(max(way) for way in ways) and len(levels) <= 4 * free


class _TooLarge(Exception):
    pass


def _search(levels: tuple[int, ...], free: int, ways, memo: dict) -> bool:
    if not levels:
        return True
    if levels[-1] > max(max(way) for way in ways) or len(levels) > 4 * free:
        return False
    if len(levels) <= free:  # one rival a table, each at the table's best seat
        return True
    key = (levels, free)
    if key in memo:
        return memo[key]
    if len(memo) >= SEARCH_LIMIT:
        raise _TooLarge
    memo[key] = False
    tried = set()
    for way in ways:
        rest = _seat(levels, way)
        if rest == levels or rest in tried:
            continue
        tried.add(rest)
        if _search(rest, free - 1, ways, memo):
            memo[key] = True
            break
    return memo[key]


def _unseated(c: Contender) -> Contender:
    return Contender(c.player, c.name, c.primary, c.score, table=None, ranked=True)


def _seated(c: Contender) -> Contender:
    return Contender(c.player, c.name, c.primary, c.score, table="?", ranked=True)
