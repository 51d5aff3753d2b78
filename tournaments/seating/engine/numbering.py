"""Table numbers: give every table of a session a number so players rarely revisit a table.

Tables holding a player with a fixed table keep that number. The others get the free numbers
by an assignment per session (cost: how often its players already sat at that number), built
greedily and improved by exchanging the numbers of two tables, then revisited session by
session until no exchange helps.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from itertools import compress


def hungarian(cost: list[list[int]]) -> list[int]:
    """Minimum-cost perfect matching of a square matrix: ``result[row] = column``.

    The classic O(n^3) method with row and column potentials and shortest augmenting paths.
    """
    size = len(cost)
    inf = float("inf")
    u = [0] * (size + 1)
    v = [0] * (size + 1)
    match = [0] * (size + 1)  # match[column] = row, 1-based; 0 = free
    way = [0] * (size + 1)
    for row in range(1, size + 1):
        match[0] = row
        col0 = 0
        minv = [inf] * (size + 1)
        used = [False] * (size + 1)
        while True:
            used[col0] = True
            r = match[col0]
            delta, col1 = inf, 0
            cr = cost[r - 1]
            ur = u[r]
            for col in range(1, size + 1):
                if not used[col]:
                    cur = cr[col - 1] - ur - v[col]
                    if cur < minv[col]:
                        minv[col] = cur
                        way[col] = col0
                    if minv[col] < delta:
                        delta, col1 = minv[col], col
            for col in range(size + 1):
                if used[col]:
                    u[match[col]] += delta
                    v[col] -= delta
                else:
                    minv[col] -= delta
            col0 = col1
            if match[col0] == 0:
                break
        while col0:
            col1 = way[col0]
            match[col0] = match[col1]
            col0 = col1
    result = [0] * size
    for col in range(1, size + 1):
        if match[col]:
            result[match[col] - 1] = col - 1
    return result


def number_tables(
    planned: list[list[list[int]]],
    n: int,
    fixed: Sequence[int | None],
    history_visits: Sequence[Sequence[int]],
    rng: random.Random,
) -> list[list[list[int]]]:
    """Reorder the tables of every session so that index ``i`` is table number ``i + 1``.

    ``fixed[p]`` is the 0-based table index of a player with a fixed table, else None; tables
    holding such players must already sit at that index. ``history_visits[p][i]``: past visits of
    player ``p`` to table ``i + 1``. The cost of a table at a number is the sum of its players'
    earlier visits there, i.e. the sum over players and numbers of visits*(visits-1)/2.
    """
    if not planned:
        return []
    g = len(planned[0])
    visits = [list(history_visits[p][:g]) + [0] * max(0, g - len(history_visits[p])) for p in range(n)]
    numbering = _Numbering(g, n, visits, [fixed[p] is None for p in range(n)], fixed, rng)
    sessions = [list(session) for session in planned]
    for s, session in enumerate(sessions):
        sessions[s] = numbering.assign(session)
        numbering.apply(sessions[s], 1)
    best = numbering.total()
    for _ in range(6):
        for s, session in enumerate(sessions):
            numbering.apply(session, -1)
            sessions[s] = numbering.assign(session)
            numbering.apply(sessions[s], 1)
        now = numbering.total()
        if now >= best:
            break
        best = now
    if best:
        _tabu_numbers(sessions, visits, numbering.counted, fixed, rng, max_iters=1000)
    return sessions


class _Numbering:
    """Past visits of each player to each table number (``visits``, for the players without a fixed
    table: ``counted``), and the numbering of one session's tables against them."""

    def __init__(
        self,
        g: int,
        n: int,
        visits: list[list[int]],
        counted: list[bool],
        fixed: Sequence[int | None],
        rng: random.Random,
    ) -> None:
        self.g, self.n, self.visits, self.counted, self.fixed, self.rng = g, n, visits, counted, fixed, rng

    def apply(self, session: list[list[int]], sign: int) -> None:
        for k, table in enumerate(session):
            for p in table:
                if self.counted[p]:
                    self.visits[p][k] += sign

    def cost(self, table: list[int], k: int) -> int:
        return sum(self.visits[p][k] for p in table if self.counted[p])

    def total(self) -> int:
        return sum(v * (v - 1) // 2 for p in range(self.n) if self.counted[p] for v in self.visits[p])

    def assign(self, session: list[list[int]]) -> list[list[int]]:
        """The session's tables in number order: fixed tables at their number, the others matched to the
        free numbers (exactly up to 40 tables, greedily and by exchanges above)."""
        fixed = self.fixed
        pinned_at = {}
        free_tables = []
        for table in session:
            idx = {fixed[p] for p in table if fixed[p] is not None}
            if len(idx) == 1 and next(iter(idx)) not in pinned_at:
                pinned_at[idx.pop()] = table
            else:
                free_tables.append(table)
        free_numbers = [k for k in range(self.g) if k not in pinned_at]
        chosen: dict[int, list[int]] = {}
        if len(free_tables) <= 40:
            matrix = [[self.cost(t, k) for k in free_numbers] for t in free_tables]
            for t, col in enumerate(hungarian(matrix)):
                chosen[free_numbers[col]] = free_tables[t]
        else:
            self.rng.shuffle(free_tables)
            chosen = self._greedy(free_tables, free_numbers)
            self._exchange(chosen)
        out = [None] * self.g
        for k, table in pinned_at.items():
            out[k] = table
        for k, table in chosen.items():
            out[k] = table
        return out  # type: ignore[return-value]

    def _greedy(self, free_tables: list[list[int]], free_numbers: list[int]) -> dict[int, list[int]]:
        """Each table (in a seeded random order) takes the cheapest free number."""
        chosen: dict[int, list[int]] = {}
        available = list(free_numbers)
        for table in free_tables:
            best_k, best_c = None, None
            for k in available:
                c = self.cost(table, k)
                if best_c is None or c < best_c:
                    best_k, best_c = k, c
                    if c == 0:
                        break
            chosen[best_k] = table
            available.remove(best_k)
        return chosen

    def _exchange(self, chosen: dict[int, list[int]]) -> None:
        """Exchange the numbers of two tables while that lowers the cost."""
        cost = self.cost
        keys = sorted(chosen)
        improved = True
        rounds = 0
        while improved and rounds < 20:
            improved = False
            rounds += 1
            for i, ka in enumerate(keys):
                ta = chosen[ka]
                ca = cost(ta, ka)
                if ca == 0:
                    continue
                for kb in keys[i + 1 :] + keys[:i]:
                    tb = chosen[kb]
                    if cost(ta, kb) + cost(tb, ka) < ca + cost(tb, kb):
                        chosen[ka], chosen[kb] = tb, ta
                        improved = True
                        break


def _tabu_numbers(sessions, visits, counted, fixed, rng: random.Random, max_iters: int) -> None:
    """Exchange the numbers of two tables of a session, tabu style, to cut repeated visits.

    Which tables cost something (``flags``) is kept up to date: an exchange changes the visits of its
    players to its two numbers only, so only the tables at those two numbers are looked at again."""
    S, g = len(sessions), len(sessions[0])
    movable = [[not any(fixed[p] is not None for p in table) for table in session] for session in sessions]

    def table_cost(table, k):
        return sum(visits[p][k] - 1 for p in table if counted[p] and visits[p][k] > 1)

    flags = [[movable[s][k] and table_cost(sessions[s][k], k) > 0 for k in range(g)] for s in range(S)]
    numbers = range(g)
    cost = sum(v * (v - 1) // 2 for p in range(len(visits)) if counted[p] for v in visits[p])
    best = cost
    best_state = [list(session) for session in sessions]
    tabu: dict[tuple[int, int], int] = {}
    since_best = 0
    for it in range(1, max_iters + 1):
        if best == 0 or since_best > 200:
            break
        since_best += 1
        bad = [(s, k) for s in range(S) for k in compress(numbers, flags[s])]
        if not bad:
            break
        if len(bad) > 12:
            bad = rng.sample(bad, 12)
        choice, best_delta = _best_number_swap(
            sessions, visits, counted, movable, bad, tabu, it, cost, best, rng
        )
        if choice is None:
            continue
        s, ka, kb = choice
        A, B = sessions[s][ka], sessions[s][kb]
        for p in A:
            if counted[p]:
                visits[p][ka] -= 1
                visits[p][kb] += 1
        for p in B:
            if counted[p]:
                visits[p][kb] -= 1
                visits[p][ka] += 1
        sessions[s][ka], sessions[s][kb] = B, A
        for k in (ka, kb):
            for s2 in range(S):
                flags[s2][k] = movable[s2][k] and table_cost(sessions[s2][k], k) > 0
        cost += best_delta
        tabu[(s, min(ka, kb) * g + max(ka, kb))] = it + rng.randint(5, 15)
        if cost < best:
            best = cost
            best_state = [list(session) for session in sessions]
            since_best = 0
    for s in range(S):
        sessions[s] = best_state[s]


def _best_number_swap(sessions, visits, counted, movable, bad, tabu, it, cost, best, rng):
    """The exchange ``(session, ka, kb)`` of the numbers of a costly table ``ka`` and another that cuts the
    most repeated visits (ties drawn at random; a tabu exchange only if it beats the best), and its change.

    Moving table A from ``ka`` to ``kb`` adds, for each of its players, ``visits[kb] - visits[ka] + 1``;
    the players of A are summed by column once, for every ``kb``."""
    g = len(sessions[0])
    choice, best_delta, ties = None, None, 0
    for s, ka in bad:
        session = sessions[s]
        rows_a = [visits[p] for p in session[ka] if counted[p]]
        at_ka = sum(row[ka] for row in rows_a) - len(rows_a)
        to_kb = list(map(sum, zip(*rows_a, strict=True))) if rows_a else [0] * g
        ok = movable[s]
        for kb in range(g):
            if kb == ka or not ok[kb]:
                continue
            d = to_kb[kb] - at_ka
            for p in session[kb]:
                if counted[p]:
                    row = visits[p]
                    d += row[ka] - row[kb] + 1
            if best_delta is not None and d > best_delta:
                continue  # worse than a swap already found, tabu or not
            if tabu.get((s, min(ka, kb) * g + max(ka, kb)), 0) > it and cost + d >= best:
                continue
            if best_delta is None or d < best_delta:
                choice, best_delta, ties = (s, ka, kb), d, 1
            elif d == best_delta:
                ties += 1
                if rng.randrange(ties) == 0:
                    choice = (s, ka, kb)
    return choice, best_delta
