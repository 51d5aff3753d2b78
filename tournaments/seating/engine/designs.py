"""Schedules in which no two players meet twice, built from combinatorial designs.

A *template* is a list of sessions; a session is a list of tables; a table is a list of four
point numbers ``0..n-1``. Points are relabelled to real players afterwards, so a template only
has to get the meeting structure right: no pair of points shares a table twice.

Four families are used, tried in this order:

* **Transversal designs over a finite ring.** With ``n = 4g`` and a ring ``R`` of order ``g``
  that is a product of finite fields each of order at least 4, the point ``(i, x)`` (row ``i``
  in 0..3, ``x`` in ``R``) sits in session ``s`` at table ``x - m_i*s``, where the multipliers
  ``m_i`` differ pairwise by units. This gives ``g`` sessions without a repeat (three mutually
  orthogonal Latin squares of order ``g`` in disguise). Points of the same row never meet, so
  when ``g`` is itself a multiple of four each row can be seated internally with a template for
  ``g`` players, adding sessions: 16 players get the 5 parallel classes of the affine plane of
  order 4, 64 players the 21 classes of the affine space AG(3, 4), and so on.
* **Cyclic transversal designs.** The same formula over the integers modulo ``g`` with
  multipliers 0, 1, 2, 3 is repeat-free for ``g / gcd(g, 2)`` or ``g / gcd(g, 3)`` sessions,
  whichever is fewer, which covers large tournaments whatever their size (200 players get 25
  sessions).
* **Developed base sessions.** Points are ``(x, a)`` with ``x`` in an abelian group ``G`` of
  order ``m`` and a type ``a`` in ``0..k-1``, plus ``r`` fixed points. One base session (or
  two) is searched such that the differences ``y - x`` of points sharing a table are all
  distinct per pair of types; translating the base session by every element of ``G`` then
  gives ``m`` sessions without a repeat. With four types a session can also be the orbit of a
  single table holding one point of each type (a *transversal* session). The search is small
  (a few dozen points); the bases it found for the hardest sizes are kept in
  :data:`KNOWN_BASES` (24 players over 7 sessions, 28 over 9 -- a resolvable 2-(28, 4, 1)
  design -- and 40 over 10), so those cost nothing at run time.
* **Sessions fixed by translations** (:mod:`.invariant`). Four types over a group of order
  ``n/4``, every session mapped onto itself by every translation: the schedule is an exact
  cover of the pairs' orbits, searched at plan time. It reaches the most sessions possible where
  the families above cannot: 32 players over 10 sessions (over Z2 x Z2 x Z2, about 0.1 s), and
  through the first family 128 players over 42. It is tried before the developed base sessions,
  whose tabu search it spares when it succeeds.
"""

from __future__ import annotations

import itertools
import random
from functools import lru_cache

from .groups import AbelianGroup, factorize, group_types
from .invariant import invariant_design

Session = list[list[int]]
Template = list[Session]


# --------------------------------------------------------------------------- arithmetic


class Field:
    """The finite field GF(p^e); elements are ints ``0..q-1`` (base-p coefficient digits)."""

    def __init__(self, p: int, e: int):
        self.p, self.e, self.q = p, e, p**e
        self.modulus = self._irreducible() if e > 1 else None

    def _digits(self, a: int) -> list[int]:
        out = []
        for _ in range(self.e):
            out.append(a % self.p)
            a //= self.p
        return out

    def _number(self, digits: list[int]) -> int:
        value = 0
        for d in reversed(digits):
            value = value * self.p + d
        return value

    def _irreducible(self) -> list[int]:
        p, e = self.p, self.e
        # Monic polynomial of degree e (coefficients low to high) with no factor of degree <= e/2.
        for tail in itertools.product(range(p), repeat=e):
            poly = [*tail, 1]
            if poly[0] == 0:
                continue
            if all(not _divides(f, poly, p) for f in _monic_polys(p, e // 2)):
                return poly
        raise AssertionError("no irreducible polynomial")  # pragma: no cover

    def add(self, a: int, b: int) -> int:
        if self.e == 1:
            return (a + b) % self.p
        return self._number([(x + y) % self.p for x, y in zip(self._digits(a), self._digits(b), strict=True)])

    def mul(self, a: int, b: int) -> int:
        if self.e == 1:
            return a * b % self.p
        p, e = self.p, self.e
        x, y = self._digits(a), self._digits(b)
        prod = [0] * (2 * e - 1)
        for i, xi in enumerate(x):
            if xi:
                for j, yj in enumerate(y):
                    prod[i + j] = (prod[i + j] + xi * yj) % p
        mod = self.modulus
        for deg in range(2 * e - 2, e - 1, -1):
            c = prod[deg]
            if c:
                for k in range(e + 1):
                    prod[deg - e + k] = (prod[deg - e + k] - c * mod[k]) % p
        return self._number(prod[:e])


def _monic_polys(p: int, max_degree: int):
    for degree in range(1, max_degree + 1):
        for tail in itertools.product(range(p), repeat=degree):
            yield [*tail, 1]


def _divides(f: list[int], g: list[int], p: int) -> bool:
    rem = list(g)
    df = len(f) - 1
    for deg in range(len(rem) - 1, df - 1, -1):
        c = rem[deg]
        if c:
            for k in range(df + 1):
                rem[deg - df + k] = (rem[deg - df + k] - c * f[k]) % p
    return not any(rem[:df])


class Ring:
    """A product of finite fields; elements are ints in mixed radix over the factors."""

    def __init__(self, fields: list[Field]):
        self.fields = fields
        self.order = 1
        for f in fields:
            self.order *= f.q

    def components(self, a: int) -> list[int]:
        out = []
        for f in self.fields:
            out.append(a % f.q)
            a //= f.q
        return out

    def element(self, comps: list[int]) -> int:
        value = 0
        for f, c in zip(reversed(self.fields), reversed(comps), strict=True):
            value = value * f.q + c
        return value

    def add(self, a: int, b: int) -> int:
        return self.element(
            [f.add(x, y) for f, x, y in zip(self.fields, self.components(a), self.components(b), strict=True)]
        )

    def mul(self, a: int, b: int) -> int:
        return self.element(
            [f.mul(x, y) for f, x, y in zip(self.fields, self.components(a), self.components(b), strict=True)]
        )


def field_ring(g: int) -> Ring | None:
    """A ring of order ``g`` with four elements whose differences are units, or None."""
    if g < 4:
        return None
    factors = factorize(g)
    if any(p**e < 4 for p, e in factors):
        return None
    return Ring([Field(p, e) for p, e in factors])


# --------------------------------------------------------------------------- checks


def repeat_count(template: Template) -> int:
    """Meetings beyond the first, summed over pairs."""
    seen: dict[tuple[int, int], int] = {}
    extra = 0
    for session in template:
        for table in session:
            for a, b in itertools.combinations(sorted(table), 2):
                if (a, b) in seen:
                    extra += 1
                seen[(a, b)] = 1
    return extra


def is_valid(template: Template, n: int) -> bool:
    return all(sorted(p for table in session for p in table) == list(range(n)) for session in template)


# --------------------------------------------------------------------------- transversal designs


def _ring_design(n: int, sessions: int) -> Template | None:
    g = n // 4
    ring = field_ring(g)
    if ring is None:
        return None
    extra: Template = []
    if sessions > g:
        if g % 4:
            return None
        inner = zero_repeat_template(g, sessions - g)
        if inner is None:
            return None
        extra = [[[i * g + x for x in table] for i in range(4) for table in session] for session in inner]
    multipliers = [ring.element([c] * len(ring.fields)) for c in range(4)]
    out: Template = []
    for s in range(min(g, sessions)):
        shifts = [ring.mul(m, s) for m in multipliers]
        # Point (i, t + m_i*s) sits at table t.
        session = [[i * g + ring.add(t, shifts[i]) for i in range(4)] for t in range(g)]
        out.append(session)
    return out + extra[: max(0, sessions - g)]


def _cyclic_design(n: int, sessions: int) -> Template | None:
    g = n // 4
    if g < 2:
        return None
    limit = min(g // _gcd(d, g) for d in (1, 2, 3))
    if sessions > limit:
        return None
    return [[[i * g + (t + i * s) % g for i in range(4)] for t in range(g)] for s in range(sessions)]


def _gcd(a: int, b: int) -> int:
    while b:
        a, b = b, a % b
    return a


# --------------------------------------------------------------------------- developed base sessions


def development_options(n: int, sessions: int) -> list[tuple[int, int, int, int, int]]:
    """Shapes ``(m, k, r, b, f)`` worth searching, easiest (most slack) first.

    ``n = m*k + r`` points: ``k`` types over a group of order ``m`` plus ``r`` fixed points;
    ``b`` base sessions, each developed into ``m`` sessions, and ``f`` transversal sessions
    (``b*m + f >= sessions``).
    """
    g = n // 4
    found = []
    for b in (1, 2):
        for m in range(max(2, -(-sessions // b)), n + 1):
            for k in range(1, n // m + 1):
                r = n - m * k
                # r == g would be a resolvable transversal design: the ring construction's job.
                if r >= g or (r and (k < 3 * b or m < 2)):
                    continue
                pure = k * ((m - 1) // 2)
                mixed = k * (k - 1) // 2 * m
                used = b * (3 * r + 6 * (g - r))
                slack = pure + mixed - used
                if slack < 0:
                    continue
                found.append((slack / used if used else 1.0, b, m, k, r, 0))
    if n % 4 == 0 and g >= 4:
        m = g
        for f in range(max(1, sessions - m), 3 * g):
            slack = 4 * ((m - 1) // 2) - 6 * f
            if slack < 0:
                break
            found.append((slack / (6 * (m + f)), 1, m, 4, 0, f))
    found.sort(key=lambda item: (item[1], -item[0], item[2]))
    return [(m, k, r, b, f) for _, b, m, k, r, f in found]


class _BaseSearch:
    """Tabu search for base sessions whose development has no repeated meeting.

    ``b`` base sessions are developed over the group; with ``f`` > 0 (only for ``k == 4`` types
    and no fixed point) there are also ``f`` *transversal* sessions: the orbit of one table
    holding a point of every type, which is a whole session by itself. Such a table is given
    by its offsets ``(0, x1, x2, x3)`` and uses the six differences ``x_b - x_a``.
    """

    def __init__(self, group: AbelianGroup, k: int, r: int, b: int, rng: random.Random, f: int = 0):
        self.group, self.k, self.r, self.b, self.f, self.rng = group, k, r, b, f, rng
        m = group.m
        self.m = m
        self.nf = m * k
        self.n = self.nf + r
        self.g = self.n // 4
        n = self.n
        # Difference class of every pair of points, and its capacity.
        cls = [0] * (n * n)
        caps: list[int] = []
        index: dict[tuple, int] = {}

        def class_id(key: tuple, cap: int) -> int:
            if key not in index:
                index[key] = len(caps)
                caps.append(cap)
            return index[key]

        add, neg = group.add, group.neg
        for u in range(n):
            for v in range(n):
                if u == v:
                    continue
                if u >= self.nf and v >= self.nf:
                    c = class_id(("inf-inf",), 0)
                elif u >= self.nf or v >= self.nf:
                    inf, fin = (u, v) if u >= self.nf else (v, u)
                    c = class_id(("inf", inf, fin // m), 1)
                else:
                    a, x = divmod(u, m)
                    bb, y = divmod(v, m)
                    d = add[y][neg[x]]
                    if a == bb:
                        nd = neg[d]
                        c = class_id(("pure", a, min(d, nd)), 0 if d == nd else 1)
                    elif a < bb:
                        c = class_id(("mixed", a, bb, d), 1)
                    else:
                        c = class_id(("mixed", bb, a, neg[d]), 1)
                cls[u * n + v] = c
        self.cls = cls
        self.caps = caps
        # mixed[a][b][d]: class of a type-a point and a type-b point at difference d (a < b).
        self.mixed = [
            [[index.get(("mixed", a, bb, d), -1) for d in range(m)] for bb in range(k)] for a in range(k)
        ]

    def _initial(self) -> list[list[list[int]]]:
        bases = []
        for _ in range(self.b):
            finite = list(range(self.nf))
            self.rng.shuffle(finite)
            tables = [[self.nf + j] for j in range(self.r)] + [[] for _ in range(self.g - self.r)]
            i = 0
            for t in range(self.g):
                while len(tables[t]) < 4:
                    tables[t].append(finite[i])
                    i += 1
            bases.append(tables)
        return bases

    def _fixed_classes(self, off: list[int]) -> list[int]:
        """Classes used by a transversal table with offsets ``off`` (one per type)."""
        sub = self.group.add
        neg = self.group.neg
        return [self.mixed[a][bb][sub[off[bb]][neg[off[a]]]] for a in range(4) for bb in range(a + 1, 4)]

    def run(self, max_iters: int) -> tuple[list[list[list[int]]], list[list[int]]] | None:
        """Return ``(bases, offsets)`` of a repeat-free development, or None."""
        search = _TabuSearch(self)
        for it in range(1, max_iters + 1):
            if search.cost == 0:
                return search.bases, search.offsets
            search.step(it)
        return (search.bases, search.offsets) if search.cost == 0 else None

    def _swap(self, bases, where, cnt, bi, u, v) -> int:
        n, cls, caps = self.n, self.cls, self.caps
        tables = bases[bi]
        ta, tb = where[bi][u], where[bi][v]
        delta = 0
        for x in tables[ta]:
            if x != u:
                c = cls[u * n + x]
                cnt[c] -= 1
                if cnt[c] >= caps[c]:
                    delta -= 1
        for x in tables[tb]:
            if x != v:
                c = cls[v * n + x]
                cnt[c] -= 1
                if cnt[c] >= caps[c]:
                    delta -= 1
        tables[ta][tables[ta].index(u)] = v
        tables[tb][tables[tb].index(v)] = u
        where[bi][u], where[bi][v] = tb, ta
        for x in tables[ta]:
            if x != v:
                c = cls[v * n + x]
                if cnt[c] >= caps[c]:
                    delta += 1
                cnt[c] += 1
        for x in tables[tb]:
            if x != u:
                c = cls[u * n + x]
                if cnt[c] >= caps[c]:
                    delta += 1
                cnt[c] += 1
        return delta

    def develop(self, found: tuple[list[list[list[int]]], list[list[int]]]) -> Template:
        return develop(self.group, self.k, found[0], found[1])


class _Moves:
    """The best moves of one step (lowest change of cost), one of them taken at random."""

    def __init__(self) -> None:
        self.best_delta: int | None = None
        self.moves: list[tuple] = []

    def offer(self, delta: int, move: tuple) -> None:
        if self.best_delta is None or delta < self.best_delta:
            self.best_delta = delta
            self.moves = [move]
        elif delta == self.best_delta:
            self.moves.append(move)


class _TabuSearch:
    """One run of the tabu search of :class:`_BaseSearch`: the bases and offsets, how often each class of
    differences is used (``cnt``), the cost (uses over the caps), the best state met and the tabu lists."""

    def __init__(self, owner: _BaseSearch) -> None:
        self.owner = owner
        self.rng = owner.rng
        self.bases = owner._initial()
        self.offsets = [[0] + [self.rng.randrange(owner.m) for _ in range(3)] for _ in range(owner.f)]
        self.cnt = [0] * len(owner.caps)
        self.where = [[0] * owner.n for _ in range(owner.b)]
        self.cost = self.rebuild()
        self.best = self.cost
        self.best_state = self.snapshot()
        self.tabu = [[0] * owner.n for _ in range(owner.b)]
        self.tabu_off = [[0] * 4 for _ in range(owner.f)]
        self.stall = 0

    def snapshot(self) -> tuple[list[list[list[int]]], list[list[int]]]:
        return ([[list(t) for t in tables] for tables in self.bases], [list(o) for o in self.offsets])

    def rebuild(self) -> int:
        owner, cnt, where = self.owner, self.cnt, self.where
        n, cls = owner.n, owner.cls
        for i in range(len(cnt)):
            cnt[i] = 0
        for bi, tables in enumerate(self.bases):
            for t, table in enumerate(tables):
                for u in table:
                    where[bi][u] = t
                for u, v in itertools.combinations(table, 2):
                    cnt[cls[u * n + v]] += 1
        for off in self.offsets:
            for c in owner._fixed_classes(off):
                cnt[c] += 1
        return sum(max(0, c - cap) for c, cap in zip(cnt, owner.caps, strict=True))

    def step(self, it: int) -> None:
        moves = _Moves()
        for bi, tables in enumerate(self.bases):
            self.swap_moves(it, bi, tables, moves)
        self.offset_moves(it, moves)
        if not moves.moves:
            self.stall += 1000
        else:
            self.apply(moves.moves[self.rng.randrange(len(moves.moves))], it)
        if self.stall > 400:
            self.restart()

    def _conflicted(self, tables: list[list[int]]) -> list[int]:
        """Points in a table holding an over-used difference."""
        n, cls, caps, cnt = self.owner.n, self.owner.cls, self.owner.caps, self.cnt
        conflicted = []
        for table in tables:
            for u, v in itertools.combinations(table, 2):
                c = cls[u * n + v]
                if cnt[c] > caps[c]:
                    conflicted.extend(x for x in table if x < self.owner.nf)
                    break
        return conflicted

    def swap_moves(self, it: int, bi: int, tables: list[list[int]], moves: _Moves) -> None:
        n, cls, caps, cnt, nf = self.owner.n, self.owner.cls, self.owner.caps, self.cnt, self.owner.nf
        tb = self.tabu[bi]
        for u in self._conflicted(tables):
            ta = self.where[bi][u]
            rest_a = [x for x in tables[ta] if x != u]
            lose_u = sum(1 for x in rest_a if cnt[cls[u * n + x]] > caps[cls[u * n + x]])
            for tbi, table_b in enumerate(tables):
                if tbi == ta:
                    continue
                for v in table_b:
                    if v >= nf:
                        continue
                    delta = -lose_u
                    for x in table_b:
                        if x != v:
                            c = cls[v * n + x]
                            if cnt[c] > caps[c]:
                                delta -= 1
                            c = cls[u * n + x]
                            if cnt[c] >= caps[c]:
                                delta += 1
                    for x in rest_a:
                        c = cls[v * n + x]
                        if cnt[c] >= caps[c]:
                            delta += 1
                    if tb[u] > it and tb[v] > it and self.cost + delta >= self.best:
                        continue
                    moves.offer(delta, ("swap", bi, u, v))

    def _offset_delta(self, current: list[int], new: list[int]) -> int:
        """The change of cost when a transversal table's classes ``current`` become those of ``new``."""
        cnt, caps, fixed = self.cnt, self.owner.caps, self.owner._fixed_classes
        delta = 0
        for c in current:
            cnt[c] -= 1
        for c in fixed(new):
            if cnt[c] >= caps[c]:
                delta += 1
            cnt[c] += 1
        for c in fixed(new):
            cnt[c] -= 1
        for c in current:
            if cnt[c] >= caps[c]:
                delta -= 1
            cnt[c] += 1
        return delta

    def offset_moves(self, it: int, moves: _Moves) -> None:
        cnt, caps = self.cnt, self.owner.caps
        for fi, off in enumerate(self.offsets):
            current = self.owner._fixed_classes(off)
            if not any(cnt[c] > caps[c] for c in current):
                continue
            for a in range(1, 4):
                for x in range(self.owner.m):
                    if x == off[a]:
                        continue
                    new = list(off)
                    new[a] = x
                    delta = self._offset_delta(current, new)
                    if self.tabu_off[fi][a] > it and self.cost + delta >= self.best:
                        continue
                    moves.offer(delta, ("offset", fi, a, x))

    def apply(self, move: tuple, it: int) -> None:
        tenure = self.rng.randint(4, 12)
        if move[0] == "swap":
            _, bi, u, v = move
            self.cost += self.owner._swap(self.bases, self.where, self.cnt, bi, u, v)
            self.tabu[bi][u] = self.tabu[bi][v] = it + tenure
        else:
            _, fi, a, x = move
            for c in self.owner._fixed_classes(self.offsets[fi]):
                self.cnt[c] -= 1
            self.offsets[fi][a] = x
            for c in self.owner._fixed_classes(self.offsets[fi]):
                self.cnt[c] += 1
            self.cost = sum(max(0, c - cap) for c, cap in zip(self.cnt, self.owner.caps, strict=True))
            self.tabu_off[fi][a] = it + tenure
        if self.cost < self.best:
            self.best = self.cost
            self.best_state = self.snapshot()
            self.stall = 0
        else:
            self.stall += 1

    def restart(self) -> None:
        """Restart from the best state with a few random changes."""
        owner, rng = self.owner, self.rng
        self.bases = [[list(t) for t in tables] for tables in self.best_state[0]]
        self.offsets = [list(o) for o in self.best_state[1]]
        self.cost = self.rebuild()
        for _ in range(rng.randint(2, 6)):
            bi2 = rng.randrange(owner.b)
            u2, v2 = rng.sample(range(owner.nf), 2)
            if self.where[bi2][u2] != self.where[bi2][v2]:
                self.cost += owner._swap(self.bases, self.where, self.cnt, bi2, u2, v2)
        self.tabu = [[0] * owner.n for _ in range(owner.b)]
        self.tabu_off = [[0] * 4 for _ in range(owner.f)]
        self.stall = 0


def develop(
    group: AbelianGroup, k: int, bases: list[list[list[int]]], offsets: list[list[int]] | None = None
) -> Template:
    """Translate each base session by every group element; add the orbit of each transversal
    table ``offsets``. Point ``a*m + x`` is ``(x, a)``; points from ``m*k`` on are fixed."""
    m, add = group.m, group.add
    nf = m * k
    out: Template = []
    for tables in bases:
        for s in range(m):
            out.append([[u if u >= nf else (u // m) * m + add[u % m][s] for u in table] for table in tables])
    for off in offsets or []:
        out.append([[a * m + add[x][s] for a, x in enumerate(off)] for s in range(m)])
    return out


# Base sessions found by the search above (``_BaseSearch``), kept so that the hardest shapes are
# instant: (group orders, types k, fixed points r, base sessions). Each is verified before use.
KNOWN_BASES: dict[int, list[tuple[tuple[int, ...], int, int, list[list[list[int]]]]]] = {
    # 24 players, 7 sessions: Z_7 x 3 types + 3 fixed points.
    24: [
        (
            (7,),
            3,
            3,
            [
                [
                    [21, 7, 4, 15],
                    [22, 13, 20, 0],
                    [23, 5, 9, 19],
                    [8, 3, 11, 10],
                    [18, 2, 6, 1],
                    [17, 14, 16, 12],
                ]
            ],
        )
    ],
    # 28 players, 9 sessions (a resolvable 2-(28, 4, 1) design): GF(9)+ x 3 types + 1 fixed point.
    28: [
        (
            (3, 3),
            3,
            1,
            [
                [
                    [27, 4, 22, 14],
                    [18, 12, 21, 26],
                    [3, 0, 23, 8],
                    [16, 20, 19, 7],
                    [1, 2, 17, 24],
                    [6, 9, 25, 11],
                    [5, 13, 15, 10],
                ]
            ],
        )
    ],
    # 40 players, 10 sessions: Z_10 x 4 types.
    40: [
        (
            (2, 5),
            4,
            0,
            [
                [
                    [35, 15, 21, 23],
                    [19, 28, 17, 9],
                    [14, 24, 32, 39],
                    [18, 13, 6, 34],
                    [3, 10, 16, 25],
                    [22, 38, 7, 31],
                    [29, 0, 5, 30],
                    [26, 36, 11, 12],
                    [20, 2, 27, 4],
                    [37, 1, 33, 8],
                ]
            ],
        )
    ],
}


def _known_design(n: int, sessions: int) -> Template | None:
    for orders, k, _r, bases in KNOWN_BASES.get(n, []):
        template = develop(AbelianGroup(orders), k, bases)
        if len(template) >= sessions:
            return template[:sessions]
    return None


def _developed_design(n: int, sessions: int, effort: int) -> Template | None:
    """Search developed base sessions, spending ``effort`` tabu iterations in all."""
    rng = random.Random(n * 1000 + sessions)
    shapes = [
        (k, r, b, f, orders)
        for m, k, r, b, f in development_options(n, sessions)
        for orders in group_types(m)
    ]
    shapes = shapes[:4]
    for k, r, b, f, orders in shapes:
        search = _BaseSearch(AbelianGroup(orders), k, r, b, rng, f)
        found = search.run(max(200, effort // len(shapes)))
        if found is not None:
            template = search.develop(found)[:sessions]
            if is_valid(template, n) and repeat_count(template) == 0:
                return template
    return None


# --------------------------------------------------------------------------- entry point


def max_zero_repeat_sessions(n: int) -> int:
    """Upper bound on sessions without a repeat: each session meets three new opponents, and
    with fewer than four tables a second session must seat two players of one earlier table
    together."""
    if n < 16:
        return 1
    return (n - 1) // 3


@lru_cache(maxsize=64)
def zero_repeat_template(n: int, sessions: int, search: bool = True, effort: int = 1200) -> Template | None:
    """A schedule of ``sessions`` sessions for ``n`` points with no repeated meeting, or None.

    Constructions are tried first; with ``search`` the bounded search for sessions fixed by
    translations follows (:mod:`.invariant`), then one for developed base sessions (up to 64
    players). Deterministic: the same arguments give the same template.
    """
    if n % 4 or n < 4 or sessions < 1 or sessions > max_zero_repeat_sessions(n):
        return None
    if sessions == 1:
        return [[[t * 4 + i for i in range(4)] for t in range(n // 4)]]
    builds = (_ring_design, _cyclic_design, _known_design) + ((invariant_design,) if search else ())
    for build in builds:
        template = build(n, sessions)
        if template is not None and is_valid(template, n) and repeat_count(template) == 0:
            return template
    if search and n <= 64:
        return _developed_design(n, sessions, effort)
    return None


def best_template(n: int, sessions: int) -> Template | None:
    """The longest repeat-free template of at most ``sessions`` sessions: a search for the full
    length first, then constructions only for fewer sessions."""
    w = min(sessions, max_zero_repeat_sessions(n))
    if w < 1:
        return None
    template = zero_repeat_template(n, w)
    while template is None and w > 1:
        w -= 1
        template = zero_repeat_template(n, w, search=False)
    return template
