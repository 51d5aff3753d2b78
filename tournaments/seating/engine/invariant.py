"""Repeat-free schedules whose every session is fixed by a group of translations.

Points are ``(a, x)``: a *type* ``a`` in 0..3 and ``x`` in an abelian group ``G`` of order
``m = n / 4`` (point number ``a*m + x``, as in :func:`designs.develop`). Translating by ``g`` in
``G`` sends ``(a, x)`` to ``(a, x + g)``. A session is *invariant* when every translation maps
each of its tables onto a table of the same session. The tables of an invariant session fall
into orbits; the translations that fix a table form a subgroup ``H``, its orbit has ``m/|H|``
tables, and for the orbit to seat every point of the types it touches exactly once the table
must hold an ``H``-coset in each of ``4/|H|`` types:

* ``|H| = 1``: one point of each of the four types (a *transversal* table);
* ``|H| = 2``, ``H = {0, h}`` with ``h`` of order 2: a pair ``{x, x+h}`` in each of two types;
* ``|H| = 4``: a coset of a subgroup of order 4 inside one type.

So an invariant session is a choice, for a partition of the four types into parts of one, two
and four types, of one such table per part. Two points meet in it exactly when the orbit of
their pair (their two types and the difference of their group elements) is one of the orbits the
session covers, and it covers every pair of such an orbit. A schedule in which no two players meet
twice is therefore a set of invariant sessions covering disjoint pair orbits. With the most
sessions possible, ``(n-1)//3``, every pair orbit is covered except a *leave*: nothing when
``n-1`` is a multiple of 3; a perfect matching of pairs that never meet when ``n-1`` leaves 1
(each player misses exactly one opponent), itself a union of pair orbits: the pairs
``{(a, x), (a, x+s)}`` for one element ``s`` of order 2 in every type, or types 0-1 and 2-3
matched (other matchings are not tried); and when ``n-1`` leaves 2 (``n`` a multiple of 12)
nothing is searched: ``G`` then has an element of order 3 or 6, which no shape can use (below).

Two players of one type meet only at a table holding two or four of that type, so the orbit of
a difference ``d`` inside a type is covered only when ``d`` has order 2 or 4: a group with an
element of any other order cannot work, and is skipped before its sessions are listed. That
leaves the groups of order a power of two with no element of order 8 (16 and 32 players, and
larger sizes whose shapes are too big to search).

That is an exact cover problem, solved with Knuth's Algorithm X on bit sets: the orbit with the
fewest remaining candidate sessions is covered first. A run explores the candidates in a
random order (fixed seeds, so the result is reproducible) and restarts with the next seed
when it passes its node budget; a run that ends under its budget has exhausted the shape with
that leave, which then has no solution. For 32 players over 10 sessions (``G`` = Z2 x Z2 x Z2, a matching as
leave) there are 4,800 candidate sessions for 72 pair orbits, and solutions are common enough
that a few runs of a few thousand nodes find one: a resolvable 4-GDD of type 2^16, the
8-4-10 social golfer schedule.
"""

from __future__ import annotations

import itertools
import random
from functools import lru_cache

from .groups import AbelianGroup, group_types

Table = tuple[int, ...]
Template = list[list[list[int]]]

TYPES = 4
# Shapes with more candidate sessions than this, once those meeting the leave are dropped, are not
# searched: each search node costs a pass over bit sets of that length (64 players over Z2^4 would
# have 2.4 million; transversal designs seat them anyway).
MAX_CANDIDATES = 8_000
# ... and shapes with more than this before the leave is taken out are not even listed.
MAX_LISTED = 40_000
RUN_NODES = 5_000
# Runs for a whole call, over every shape and leave: a bound on the time spent when no shape
# has a solution.
RUNS = 24


class _Shape:
    """The pair orbits and the candidate sessions of ``4`` types over one group."""

    def __init__(self, group: AbelianGroup):
        self.group = group
        m = group.m
        self.m = m
        self.orbit_id: dict[tuple[int, int, int], int] = {}
        for a in range(TYPES):
            for d in range(1, m):
                self.orbit_id.setdefault((a, a, min(d, group.neg[d])), len(self.orbit_id))
        for a, b in itertools.combinations(range(TYPES), 2):
            for d in range(m):
                self.orbit_id[(a, b, d)] = len(self.orbit_id)
        self.involutions = [h for h in range(1, m) if group.add[h][h] == 0]
        self.subgroups = self._subgroups_of_order_four()

    def orbit(self, p: int, q: int) -> int:
        """The orbit of the pair of points ``p`` and ``q`` (numbers ``a*m + x``)."""
        (a, x), (b, y) = sorted((divmod(p, self.m), divmod(q, self.m)))
        d = self.group.add[y][self.group.neg[x]]
        if a == b:
            d = min(d, self.group.neg[d])
        return self.orbit_id[(a, b, d)]

    def covered(self, table: Table) -> frozenset[int]:
        return frozenset(self.orbit(p, q) for p, q in itertools.combinations(table, 2))

    def _subgroups_of_order_four(self) -> list[tuple[int, ...]]:
        add, out = self.group.add, set()
        for u, v in itertools.combinations(range(1, self.m), 2):
            closure = {0, u, v}
            while True:
                more = {add[x][y] for x in closure for y in closure} - closure
                if not more or len(closure) > 4:
                    break
                closure |= more
            if len(closure) == 4:
                out.add(tuple(sorted(closure)))
        return sorted(out)

    # A part option is the representative table of one orbit of tables.
    def part_options(self, part: tuple[int, ...]) -> list[Table]:
        m = self.m
        if len(part) == 4:
            return [
                tuple(a * m + x for a, x in zip(part, (0, *ys), strict=True))
                for ys in itertools.product(range(m), repeat=3)
            ]
        if len(part) == 2:
            a, b = part
            add = self.group.add
            return [
                (a * m, a * m + h, b * m + y, b * m + add[y][h])
                for h in self.involutions
                for y in range(m)
                if y < add[y][h]
            ]
        (a,) = part
        return [tuple(a * m + x for x in sub) for sub in self.subgroups]

    def candidate_count(self) -> int:
        total = 0
        for partition in _type_partitions(tuple(range(TYPES))):
            count = 1
            for part in partition:
                count *= len(self.part_options(part)) if len(part) != 4 else self.m**3
            total += count
        return total

    def candidates(self, leave: frozenset[int]) -> list[tuple[int, tuple[Table, ...]]]:
        """Every invariant session that covers no orbit of ``leave``: (orbit bit mask, tables)."""
        out = []
        for partition in _type_partitions(tuple(range(TYPES))):
            options = []
            for part in partition:
                here = []
                for table in self.part_options(part):
                    orbits = self.covered(table)
                    if not orbits & leave:
                        mask = 0
                        for o in orbits:
                            mask |= 1 << o
                        here.append((mask, table))
                options.append(here)
            for combo in itertools.product(*options):
                mask = 0
                for part_mask, _ in combo:
                    mask |= part_mask
                out.append((mask, tuple(table for _, table in combo)))
        return out

    def leaves(self, per_player: int) -> list[frozenset[int]]:
        """The leaves worth trying when every player misses ``per_player`` opponents."""
        if per_player == 0:
            return [frozenset()]
        if per_player != 1:
            return []
        out = [frozenset(self.orbit_id[(a, a, s)] for a in range(TYPES)) for s in self.involutions]
        out.append(frozenset({self.orbit_id[(0, 1, 0)], self.orbit_id[(2, 3, 0)]}))
        return out

    def session(self, tables: tuple[Table, ...]) -> list[list[int]]:
        """The whole session: the orbit of each representative table under the translations."""
        m, add = self.m, self.group.add
        seen: set[tuple[int, ...]] = set()
        out = []
        for table in tables:
            for g in range(m):
                moved = [(p // m) * m + add[p % m][g] for p in table]
                key = tuple(sorted(moved))
                if key not in seen:
                    seen.add(key)
                    out.append(moved)
        return out


def _type_partitions(types: tuple[int, ...]):
    """Partitions of ``types`` into parts of 1, 2 or 4 types."""
    if not types:
        yield []
        return
    first, rest = types[0], types[1:]
    for size in (4, 2, 1):
        for others in itertools.combinations(rest, size - 1):
            remaining = tuple(t for t in rest if t not in others)
            for tail in _type_partitions(remaining):
                yield [(first, *others), *tail]


class _Budget(Exception):
    pass


class _Cover:
    """Exact covers of ``items`` by ``candidates`` (bit masks over the items)."""

    def __init__(self, items: list[int], candidates: list[int]):
        self.items, self.candidates = items, candidates
        # For each item, the candidates covering it; for each candidate, those sharing an item.
        self.holders = dict.fromkeys(items, 0)
        for ci, mask in enumerate(candidates):
            for i in _bits(mask):
                self.holders[i] |= 1 << ci
        self.clash = []
        for mask in candidates:
            out = 0
            for i in _bits(mask):
                out |= self.holders[i]
            self.clash.append(out)

    def run(self, rng: random.Random, nodes: int) -> list[int] | None:
        """Indices of candidates covering every item exactly once, the candidates of each
        item tried in a random order; None when there is none. Raises :class:`_Budget` after
        ``nodes`` search nodes."""
        holders, clash, candidates = self.holders, self.clash, self.candidates
        left = [nodes]
        chosen: list[int] = []

        def search(remaining: list[int], alive: int) -> bool:
            left[0] -= 1
            if left[0] < 0:
                raise _Budget
            if not remaining:
                return True
            best, best_count = -1, None
            for i in remaining:
                count = (holders[i] & alive).bit_count()
                if best_count is None or count < best_count:
                    best, best_count = i, count
                    if count == 0:
                        return False
            options = list(_bits(holders[best] & alive))
            rng.shuffle(options)
            for ci in options:
                covered = candidates[ci]
                chosen.append(ci)
                if search([i for i in remaining if not covered >> i & 1], alive & ~clash[ci]):
                    return True
                chosen.pop()
            return False

        return chosen if search(self.items, (1 << len(candidates)) - 1) else None


def _bits(mask: int):
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def invariant_design(n: int, sessions: int) -> Template | None:
    """``sessions`` repeat-free sessions for ``n`` points, every session invariant, or None.

    The most sessions possible are searched (once per ``n``) and the first ``sessions`` returned.
    """
    if n % TYPES or n < 16 or not 1 <= sessions <= (n - 1) // 3:
        return None
    found = _most_sessions(n)
    return None if found is None else [[list(t) for t in s] for s in found[:sessions]]


def _usable(orders: tuple[int, ...]) -> bool:
    """Every element of order 2 or 4 (see the module's note): cyclic factors of order 2 or 4."""
    return all(o in (2, 4) for o in orders)


@lru_cache(maxsize=16)
def _most_sessions(n: int) -> tuple[tuple[tuple[int, ...], ...], ...] | None:
    most = (n - 1) // 3
    runs_left = [RUNS]
    # More cyclic factors first: each brings elements of order 2, hence more short orbits of tables.
    for orders in sorted(filter(_usable, group_types(n // TYPES)), key=len, reverse=True):
        shape = _Shape(AbelianGroup(orders))
        if shape.candidate_count() > MAX_LISTED:
            continue
        for leave in shape.leaves(n - 1 - 3 * most):
            found = _search(shape, leave, runs_left, seed=n * 1000 + len(orders))
            if found is not None:
                return tuple(tuple(tuple(t) for t in session) for session in found)
    return None


def _search(shape: _Shape, leave: frozenset[int], runs_left: list[int], seed: int) -> Template | None:
    pool = shape.candidates(leave)
    if len(pool) > MAX_CANDIDATES:
        return None
    items = [o for o in range(len(shape.orbit_id)) if o not in leave]
    cover = _Cover(items, [mask for mask, _ in pool])
    run = 0
    while runs_left[0] > 0:
        runs_left[0] -= 1
        try:
            chosen = cover.run(random.Random(seed + run), RUN_NODES)
        except _Budget:
            run += 1
            continue
        if chosen is None:
            return None
        return [shape.session(pool[ci][1]) for ci in chosen]
    return None
