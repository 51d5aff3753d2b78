"""Local search over seatings: who sits with whom, session by session.

Players are numbered ``0..n-1``. A planned schedule is a list of sessions, each a list of tables of
four players. The cost of a schedule is a weighted sum, with weights large enough to be
lexicographic in practice:

* ``repeat_weight`` for every meeting of a pair beyond its first (history included), plus
  ``spread_weight`` times the square of that excess, so that among schedules with as many
  repeats the search prefers many pairs meeting twice to one pair meeting five times;
* per-session pair weights (players who must not meet, same club, same country, far apart in
  the standings for Swiss sessions), one flat ``n*n`` matrix per *weight class*; sessions that
  share their rules share a class.

Two searches live here:

* :class:`ScheduleSearch`, a tabu search over swaps of two players at different tables of the
  same session (the neighbourhood of Dotú and Van Hentenryck's social golfer search). It keeps a
  pair-meeting count matrix and, for every player and session, the cost that player carries at
  their table, so a candidate swap is priced with a handful of look-ups.
* :func:`relabel`, a search over which real player takes which point of a repeat-free template:
  it only renames points, so it never creates a repeat, and it pushes the other costs (history,
  clubs, countries, players to keep apart) down first.
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from itertools import chain, compress
from operator import add

Tables = list[list[int]]
#: above every swap's cost change: the best change before any swap is priced
_NONE = float("inf")


class ScheduleSearch:
    """Tabu search on a planned schedule. See the module docstring for the cost."""

    def __init__(
        self,
        n: int,
        sessions: list[Tables],
        history: list[int],
        session_class: Sequence[int],
        class_weights: Sequence[list[int] | None],
        repeat_weight: int,
        pinned: Sequence[bool],
        rng: random.Random,
        spread_weight: int = 0,
    ):
        self.n = n
        self.S = len(sessions)
        self.tables = [[list(t) for t in session] for session in sessions]
        self.history = history
        self.cls = list(session_class)
        self.weights = list(class_weights)
        self.WR = repeat_weight
        self.WX = spread_weight
        self.pinned = list(pinned)
        self.rng = rng
        self._build()

    # ----------------------------------------------------------------- state

    def _build(self) -> None:
        n = self.n
        M = list(self.history)
        self.pos = []
        for session in self.tables:
            pos = [0] * n
            for t, table in enumerate(session):
                for p in table:
                    pos[p] = t
                for i in range(4):
                    pi = table[i] * n
                    for j in range(i + 1, 4):
                        M[pi + table[j]] += 1
                        M[table[j] * n + table[i]] += 1
            self.pos.append(pos)
        self.M = M
        # Few distinct meeting counts: price each once, then look the prices up (n*n entries).
        counts = set(M)
        self.add = list(map({m: self._add(m) for m in counts}.__getitem__, M))
        self.rem = list(map({m: self._add(m - 1) for m in counts}.__getitem__, M))
        # AC[c][x][y]: the cost of one more meeting of x and y in a session of class c, one row per
        # player (a swap is priced from rows, with no index arithmetic); RC: the flat cost of their
        # meeting in such a session, what one fewer meeting saves.
        self.AC = []
        self.RC = []
        rows = [self.add[x * n : x * n + n] for x in range(n)]
        for w in self.weights:
            if w is None:
                self.AC.append(rows)
                self.RC.append(self.rem)
            else:
                flat = list(map(add, self.add, w))
                self.AC.append([flat[x * n : x * n + n] for x in range(n)])
                self.RC.append(list(map(add, self.rem, w)))
        # The row sets and flat costs a meeting's change touches (classes with no weights share one).
        self.ac_sets = [self.AC[c] for c, w in enumerate(self.weights) if w is not None]
        if any(w is None for w in self.weights):
            self.ac_sets.append(rows)
        self.rc_sets = [self.RC[c] for c, w in enumerate(self.weights) if w is not None]
        self.G = [[0] * n for _ in range(self.S)]
        for s in range(self.S):
            for table in self.tables[s]:
                self._table_gain(s, table)
        self.cost = self._full_cost()

    def _add(self, m: int) -> int:
        """Cost of one more meeting of a pair that met ``m`` times: f(m+1) - f(m) with
        f(m) = WR*e + WX*e*e, e = max(0, m - 1)."""
        return self.WR + self.WX * (2 * m - 1) if m >= 1 else 0

    def _table_gain(self, s: int, table: list[int]) -> None:
        RC = self.RC[self.cls[s]]
        G = self.G[s]
        n = self.n
        for p in table:
            pn = p * n
            G[p] = RC[pn + table[0]] + RC[pn + table[1]] + RC[pn + table[2]] + RC[pn + table[3]] - RC[pn + p]

    def _full_cost(self) -> int:
        n, M, WR, WX = self.n, self.M, self.WR, self.WX
        total = 0
        more_than_once = (1).__lt__
        for i in range(n):
            row = i * n
            for m in filter(more_than_once, M[row + i + 1 : row + n]):
                total += (m - 1) * WR + (m - 1) * (m - 1) * WX
        for s in range(self.S):
            w = self.weights[self.cls[s]]
            if w is None:
                continue
            for table in self.tables[s]:
                for i in range(4):
                    for j in range(i + 1, 4):
                        total += w[table[i] * n + table[j]]
        return total

    def _set_pair(self, x: int, y: int, new: int, s_skip: int) -> None:
        """Record that the pair (x, y) now meets ``new`` times; refresh every derived cost."""
        n, WR, WX = self.n, self.WR, self.WX
        i, j = x * n + y, y * n + x
        self.M[i] = self.M[j] = new
        a = WR + WX * (2 * new - 1) if new >= 1 else 0  # _add(new)
        r = WR + WX * (2 * new - 3) if new >= 2 else 0  # _add(new - 1)
        da = a - self.add[i]
        dr = r - self.rem[i]
        if da:
            self.add[i] = self.add[j] = a
            for AC in self.ac_sets:
                AC[x][y] += da
                AC[y][x] += da
        if dr:
            self.rem[i] = self.rem[j] = r
            for RC in self.rc_sets:
                RC[i] += dr
                RC[j] += dr
            for s, pos in enumerate(self.pos):
                if pos[x] == pos[y] and s != s_skip:
                    Gs = self.G[s]
                    Gs[x] += dr
                    Gs[y] += dr

    def swap(self, s: int, p: int, q: int) -> int:
        """Swap players ``p`` and ``q`` (at different tables) in session ``s``; return the cost change."""
        n = self.n
        pos = self.pos[s]
        ta, tb = pos[p], pos[q]
        A, B = self.tables[s][ta], self.tables[s][tb]
        w = self.weights[self.cls[s]]
        M = self.M
        delta = 0
        for x, table in ((p, A), (q, B)):
            for y in table:
                if y != x:
                    m = M[x * n + y]
                    delta -= self._add(m - 1) + (w[x * n + y] if w is not None else 0)
                    self._set_pair(x, y, m - 1, s)
        A[A.index(p)] = q
        B[B.index(q)] = p
        pos[p], pos[q] = tb, ta
        for x, table in ((q, A), (p, B)):
            for y in table:
                if y != x:
                    m = M[x * n + y]
                    delta += self._add(m) + (w[x * n + y] if w is not None else 0)
                    self._set_pair(x, y, m + 1, s)
        self._table_gain(s, A)
        self._table_gain(s, B)
        self.cost += delta
        return delta

    def snapshot(self) -> list[Tables]:
        return [[list(t) for t in session] for session in self.tables]

    def restore(self, sessions: list[Tables]) -> None:
        self.tables = [[list(t) for t in session] for session in sessions]
        self._build()

    # ----------------------------------------------------------------- search

    def run(
        self,
        max_iters: int,
        target: int = 0,
        deadline: float | None = None,
        sample: int = 24,
        patience: int = 1500,
        give_up: int | None = None,
    ) -> tuple[list[Tables], int]:
        """Search until the cost reaches ``target``, the budget runs out, ``give_up`` iterations
        pass without a new best, or the deadline passes.

        Returns the best schedule seen and its cost.
        """
        rng = self.rng
        n, S = self.n, self.S
        best = self.cost
        best_state = self.snapshot()
        tabu = [[0] * n for _ in range(S)]
        stall = 0
        since_best = 0
        movable = [p for p in range(n) if not self.pinned[p]]
        # A conflict is the number s * n + p (player p in session s), listed in that order.
        ids = [[s * n + p for p in movable] for s in range(S)]
        everyone = len(movable) == n
        if len(movable) < 2 or self.cost <= target:
            return best_state, best
        for it in range(1, max_iters + 1):
            if best <= target or (give_up is not None and since_best >= give_up):
                break
            if deadline is not None and (it & 31) == 0 and time.monotonic() > deadline:
                break
            # Costs are never negative: a player has a conflict where their cost is not zero.
            conflicts: list[int] = []
            for s_ids, Gs in zip(ids, self.G, strict=True):
                conflicts += compress(s_ids, Gs if everyone else map(Gs.__getitem__, movable))
            if not conflicts:
                # Costs can only come from pairs now; nothing left to improve locally.
                break
            if len(conflicts) > sample:
                conflicts = rng.sample(conflicts, sample)
            choice = self._best_swap(conflicts, tabu, it, best)
            if choice is None:
                stall = patience
            else:
                s, p, q = choice
                self.swap(s, p, q)
                tenure = rng.randint(3, 10)
                tabu[s][p] = it + tenure
                tabu[s][q] = it + tenure
                if self.cost < best:
                    best = self.cost
                    best_state = self.snapshot()
                    stall = 0
                    since_best = 0
                else:
                    stall += 1
            since_best += 1
            if stall >= patience:
                self._shake(best_state, movable)
                tabu = [[0] * n for _ in range(S)]
                stall = 0
        return best_state, best

    def _best_swap(
        self, conflicts: list[int], tabu: list[list[int]], it: int, best: int
    ) -> tuple[int, int, int] | None:
        """The swap ``(session, p, q)`` of a conflicted player (``session * n + p``) that lowers the cost
        most (ties drawn at random), not tabu unless it beats the best cost; None when there is none.

        Swapping ``p`` (at the table of ``a0, a1, a2``) with ``q`` (at the table of ``b0..b3``) costs what
        ``q`` adds beside ``a0, a1, a2`` and ``p`` beside ``b0..b3`` less ``p``'s and ``q``'s own costs (the
        pair ``p, q`` itself does not meet). The rows are symmetric, so ``a0``'s row prices every ``q``.
        """
        rng, pinned = self.rng, self.pinned
        best_delta: float = _NONE
        choice = None
        ties = 0
        cost = self.cost
        AC, cls, G, tables, positions = self.AC, self.cls, self.G, self.tables, self.pos
        n = self.n
        for conflict in conflicts:
            s, p = divmod(conflict, n)
            rows = AC[cls[s]]
            Gs = G[s]
            tb = tabu[s]
            p_tabu = tb[p] > it
            session = tables[s]
            ta = positions[s][p]
            a0, a1, a2 = [a for a in session[ta] if a != p]
            r0, r1, r2, rp = rows[a0], rows[a1], rows[a2], rows[p]
            gp = Gs[p]
            for t, table in enumerate(session):
                if t == ta:
                    continue
                b0, b1, b2, b3 = table
                sum_b = rp[b0] + rp[b1] + rp[b2] + rp[b3] - gp
                limit = best_delta - sum_b
                if (
                    r0[b0] + r1[b0] + r2[b0] - rp[b0] - Gs[b0] > limit
                    and r0[b1] + r1[b1] + r2[b1] - rp[b1] - Gs[b1] > limit
                    and r0[b2] + r1[b2] + r2[b2] - rp[b2] - Gs[b2] > limit
                    and r0[b3] + r1[b3] + r2[b3] - rp[b3] - Gs[b3] > limit
                ):
                    continue  # no swap at this table as good as the best so far (the usual case)
                for q in table:
                    d = r0[q] + r1[q] + r2[q] + sum_b - rp[q] - Gs[q]
                    if d > best_delta or pinned[q]:
                        continue
                    if (p_tabu or tb[q] > it) and cost + d >= best:
                        continue
                    if d < best_delta:
                        best_delta = d
                        choice = (s, p, q)
                        ties = 1
                    else:
                        ties += 1
                        if rng.randrange(ties) == 0:
                            choice = (s, p, q)
        return choice

    def _shake(self, best_state: list[Tables], movable: list[int]) -> None:
        """Start again from the best schedule, shaken by a few random swaps."""
        rng = self.rng
        self.restore(best_state)
        for _ in range(rng.randint(1, 4)):
            s = rng.randrange(self.S)
            p, q = rng.sample(movable, 2)
            if self.pos[s][p] != self.pos[s][q]:
                self.swap(s, p, q)


# --------------------------------------------------------------------------- relabelling


def relabel(
    template: list[Tables],
    n: int,
    pair_cost: Sequence[list[int] | None],
    session_class: Sequence[int],
    rng: random.Random,
    max_iters: int,
    deadline: float | None = None,
    initial: list[int] | None = None,
    floor: int = 0,
) -> tuple[list[int], int]:
    """Choose which player takes which template point, minimising the pair costs of meetings.

    ``pair_cost[c]`` is a flat ``n*n`` matrix (or None for all zero) charged once for every
    meeting of two players in a session of class ``c``; ``floor`` is a cost no relabelling can
    beat (the search stops there). Returns ``(player_of_point, cost)``.
    """
    neighbours = _neighbours(template, n, pair_cost, session_class)
    player = list(initial) if initial is not None else list(range(n))
    if initial is None:
        rng.shuffle(player)
    costs = [m if m is not None else [] for m in pair_cost]
    search = _Relabelling(n, neighbours, costs, player, rng)
    best, best_player = search.total, list(player)
    if search.total <= floor:
        return best_player, search.total
    tabu = [0] * n
    stall = 0
    for it in range(1, max_iters + 1):
        if best <= floor:
            break
        if deadline is not None and (it & 15) == 0 and time.monotonic() > deadline:
            break
        bad = [u for u in range(n) if search.local[u] > 0]
        if not bad:
            break
        if len(bad) > 4:
            bad = rng.sample(bad, 4)
        others = range(n) if n <= 32 else rng.sample(range(n), 32)
        found = search.best_exchange(bad, others, tabu, it, best)
        if found is None:
            stall = 200
        else:
            u, v, delta = found
            search.exchange(u, v, delta)
            tenure = rng.randint(3, 10)
            tabu[u] = tabu[v] = it + tenure
            if search.total < best:
                best, best_player = search.total, list(search.player)
                stall = 0
            else:
                stall += 1
        if stall >= 200:
            search.shake(best_player)
            tabu = [0] * n
            stall = 0
    return best_player, best


def _neighbours(
    template: list[Tables], n: int, pair_cost: Sequence[list[int] | None], session_class: Sequence[int]
) -> list[list[tuple[int, int]]]:
    """For each template point, the points it meets and the class of the session they meet in (only
    sessions whose class charges meetings)."""
    neighbours: list[list[tuple[int, int]]] = [[] for _ in range(n)]
    for s, session in enumerate(template):
        c = session_class[s]
        if pair_cost[c] is None:
            continue
        for table in session:
            for u in table:
                for v in table:
                    if u != v:
                        neighbours[u].append((v, c))
    return neighbours


class _Relabelling:
    """Who takes which point (``player``), each point's cost (``local``) and the total.

    The classes that charge meetings are laid side by side: ``rows[x]`` holds player ``x``'s price with
    every player in the first such class, then in the second, and so on (class ``c`` from
    ``offset[c]``), and ``slots[u]`` the places, in that layout, of the points ``u`` meets. So a point's
    cost is one sum over a map, with no index arithmetic in Python."""

    def __init__(
        self,
        n: int,
        neighbours: list[list[tuple[int, int]]],
        costs: list[list[int]],
        player: list[int],
        rng: random.Random,
    ) -> None:
        self.n, self.neighbours, self.costs, self.player, self.rng = n, neighbours, costs, player, rng
        used = sorted({c for points in neighbours for _, c in points})
        self.offset = {c: k * n for k, c in enumerate(used)}
        self.rows = [list(chain.from_iterable(costs[c][x * n : x * n + n] for c in used)) for x in range(n)]
        self.slots = [[self.offset[c] + w for w, c in points] for points in neighbours]
        self.points = [[w for w, _ in points] for points in neighbours]
        # where each meeting's class starts in the rows (None: one class, every meeting at 0)
        self.shifts = [
            [self.offset[c] for _, c in points] if len(used) > 1 else None for points in neighbours
        ]
        self.local = [self.point_cost(u) for u in range(n)]
        self.total = sum(self.local) // 2

    def met(self, u: int) -> list[int]:
        """The players ``u`` meets, laid out like ``rows``."""
        players = map(self.player.__getitem__, self.points[u])
        shifts = self.shifts[u]
        return list(players) if shifts is None else list(map(add, shifts, players))

    def point_cost(self, u: int) -> int:
        return sum(map(self.rows[self.player[u]].__getitem__, self.met(u)))

    def best_exchange(self, bad: list[int], others, tabu: list[int], it: int, best: int):
        """``(u, v, change of cost)`` of the best exchange of a costly point's player with another's (ties
        drawn at random), not tabu unless it beats the best cost; None when there is none.

        Giving point ``u``'s neighbours player ``y`` instead of ``x`` costs the sum of ``y``'s prices with
        them less ``local[u]``; a meeting of ``u`` and ``v`` themselves keeps its players, so its price
        (counted on both sides) is given back."""
        n, player, neighbours, costs, rng = self.n, self.player, self.neighbours, self.costs, self.rng
        local, rows, slots, used = self.local, self.rows, self.slots, self.offset
        best_delta = None
        choice = None
        ties = 0
        for u in bad:
            x = player[u]
            xn = x * n
            met_players = self.met(u)  # the price of any player y at u: y's row summed over these
            # x's price beside the player of each point, laid out like the rows: x's price at v
            price = rows[x].__getitem__
            x_at = list(chain.from_iterable(map(price, map(k.__add__, player)) for k in used.values()))
            x_beside = x_at.__getitem__
            met_u: dict[int, list[int]] = {}
            for w, c in neighbours[u]:
                met_u.setdefault(w, []).append(c)
            base_u = local[u]
            for v in others:
                if v == u:
                    continue
                y = player[v]
                yn = y * n
                d = sum(map(rows[y].__getitem__, met_players)) - base_u
                d += sum(map(x_beside, slots[v])) - local[v]
                if v in met_u:
                    d += sum(costs[c][xn + y] + costs[c][yn + x] for c in met_u[v])
                if tabu[u] > it and tabu[v] > it and self.total + d >= best:
                    continue
                if best_delta is None or d < best_delta:
                    best_delta, choice, ties = d, (u, v), 1
                elif d == best_delta:
                    ties += 1
                    if rng.randrange(ties) == 0:
                        choice = (u, v)
        return None if choice is None else (*choice, best_delta)

    def exchange(self, u: int, v: int, delta: int) -> None:
        player = self.player
        player[u], player[v] = player[v], player[u]
        self.total += delta
        touched = {u, v}
        touched.update(w for w, _ in self.neighbours[u])
        touched.update(w for w, _ in self.neighbours[v])
        for w in touched:
            self.local[w] = self.point_cost(w)

    def shake(self, best_player: list[int]) -> None:
        """Start again from the best labelling, shaken by a few random exchanges."""
        rng, n = self.rng, self.n
        self.player = player = list(best_player)
        for _ in range(rng.randint(2, 6)):
            u, v = rng.sample(range(n), 2)
            player[u], player[v] = player[v], player[u]
        self.local = [self.point_cost(u) for u in range(n)]
        self.total = sum(self.local) // 2
