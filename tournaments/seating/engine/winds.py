"""Seat winds: choose the seat order at every table so each player's wind counts stay even.

Seating a table is a perfect matching of its four players to the winds East, South, West,
North; over the schedule this is an edge colouring (four colours) of the bipartite graph
players / tables. De Werra's theorem says bipartite graphs have *equitable* edge colourings, so
without history every player can have wind counts that differ by at most one, whatever the
tables are. We get there in two steps:

1. descent: table by table, the seat order (out of 24) that adds least to the players' squared
   wind counts, repeated until nothing changes;
2. repair: while a player has wind ``a`` at least twice more than wind ``b``, follow an
   alternating path (their table where they sit ``a`` -> the player sitting ``b`` there -> one
   of that player's tables where they sit ``a`` -> ...) to a player who sits ``b`` more than
   ``a``, and swap ``a`` and ``b`` along the path. Players in the middle keep their counts, the
   sum of squares drops, and such a path always exists when all tables are free to change.

Sessions already played are history: their counts are kept, their seats are not changed.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Hashable, Sequence
from itertools import permutations

_PERMS = list(permutations(range(4)))


def balance_seats(
    planned: Sequence[Sequence[Sequence[Hashable]]],
    history: Sequence[Sequence[Sequence[Hashable]]] = (),
) -> list[list[list[Hashable]]]:
    """Return ``planned`` with the players of every table re-ordered into seats E, S, W, N."""
    counts: dict[Hashable, list[int]] = {}
    for session in history:
        for table in session:
            for seat, p in enumerate(table):
                counts.setdefault(p, [0, 0, 0, 0])[seat] += 1
    tables: list[list[Hashable]] = [list(t) for session in planned for t in session]
    for table in tables:
        for p in table:
            counts.setdefault(p, [0, 0, 0, 0])

    def best_order(table: list[Hashable]) -> list[Hashable]:
        rows = [counts[p] for p in table]
        best_perm, best_cost = None, None
        for perm in _PERMS:
            # perm[i] = seat of table[i]
            c = rows[0][perm[0]] + rows[1][perm[1]] + rows[2][perm[2]] + rows[3][perm[3]]
            if best_cost is None or c < best_cost:
                best_perm, best_cost = perm, c
        ordered: list[Hashable] = [None] * 4
        for i, seat in enumerate(best_perm):
            ordered[seat] = table[i]
        return ordered

    def place(table: list[Hashable], sign: int) -> None:
        for seat, p in enumerate(table):
            counts[p][seat] += sign

    for i, table in enumerate(tables):
        tables[i] = best_order(table)
        place(tables[i], 1)
    for _ in range(20):
        changed = False
        for i, table in enumerate(tables):
            place(table, -1)
            new = best_order(table)
            before = sum(counts[p][s] for s, p in enumerate(table))
            after = sum(counts[p][s] for s, p in enumerate(new))
            if after < before:
                tables[i] = new
                changed = True
            place(tables[i], 1)
        if not changed:
            break
    _repair(tables, counts)

    out: list[list[list[Hashable]]] = []
    k = 0
    for session in planned:
        out.append(tables[k : k + len(session)])
        k += len(session)
    return out


def _repair(tables: list[list[Hashable]], counts: dict[Hashable, list[int]]) -> None:
    tables_of: dict[Hashable, list[int]] = {}
    for t, table in enumerate(tables):
        for p in table:
            tables_of.setdefault(p, []).append(t)
    players = list(tables_of)
    for _ in range(10 * len(tables) + 10):
        progress = False
        for p in players:
            c = counts[p]
            if max(c) - min(c) < 2:
                continue
            # Try the widest pair of winds first, then any other unbalanced pair.
            pairs = sorted(
                ((a, b) for a in range(4) for b in range(4) if c[a] - c[b] >= 2),
                key=lambda ab: c[ab[1]] - c[ab[0]],
            )
            for a, b in pairs:
                if _flip_path(p, a, b, tables, tables_of, counts):
                    progress = True
                    break
        if not progress:
            return


def _flip_path(start, a: int, b: int, tables, tables_of, counts) -> bool:
    parent: dict[Hashable, tuple[int, Hashable]] = {start: (-1, None)}
    queue = deque([start])
    while queue:
        x = queue.popleft()
        for t in tables_of[x]:
            table = tables[t]
            if table[a] != x:
                continue
            y = table[b]
            if y in parent:
                continue
            parent[y] = (t, x)
            if counts[y][b] - counts[y][a] >= 1:
                # Swap winds a and b at every table on the path back to start.
                node = y
                while node != start:
                    t2, prev = parent[node]
                    tab = tables[t2]
                    tab[a], tab[b] = tab[b], tab[a]
                    node = prev
                counts[start][a] -= 1
                counts[start][b] += 1
                counts[y][a] += 1
                counts[y][b] -= 1
                return True
            queue.append(y)
    return False
