"""What each team needs in one session for the teams' podium: exact at the published tables, else a bound
that is never wrong.

Pure Python: no Django import. A team's standing is the sum of its members' table points and scores
(:mod:`rankings.standings.teams`), so its result in a session is the sum of its playing members' results
(table points, or uma with the oka), each one of the values a table's session gives; each member's score
moves by up to the ruleset's ``spread`` either way (so two teams' scores by up to ``spread`` times their
playing members together), as for a player (:mod:`rankings.standings.needs`).

At the published tables (:func:`compute_team_needs_at_tables`) the answer is exact: every table finishes
in one of the ruleset's ways, in any order of its seats, team mates and rivals sharing it included. For a
team and a total X it can make there, the most rivals not surely behind it and the fewest surely ahead of
it over every outcome where its members make X are counted by a search over the tables (the rivals that
reach their level whatever, or never, set apart; rivals linked by no shared table counted apart; each
state the team's total so far and each unfinished rival's, up to its level). The least X from which every
better total makes the place sure, and the least that keeps it possible, follow as for a player. Past
:data:`WORK_LIMIT`, :data:`SEARCH_LIMIT` or :data:`GROUP_LIMIT` (a large tournament where many teams are
close and share tables), a search answers with the bound that lets each team at a shared table reach its
level on its own, and the answer says it is not exact.

Before the seating is published (:func:`compute_team_needs`), the bound lets each playing member take any
value, whatever his table mates take. That set of outcomes holds every real one, so:

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

import functools
from bisect import bisect_left, bisect_right
from collections import defaultdict
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from itertools import permutations
from math import gcd

from rankings.standings.needs import Method, Number, PlaceNeed, PlayerNeeds


@dataclass(frozen=True)
class TeamContender:
    team: str
    name: str
    primary: Fraction  # what ranks first: the members' table points (MCR), else their score
    score: Fraction  # the members' score
    playing: int  # members who play the session (0: the team's figures do not move)
    tables: tuple[Hashable, ...] = ()  # at the published tables: the table of each member who plays


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
    scale = _common_denominator([*values, Fraction(spread), *(Fraction(t.primary) for t in teams)] + [
        Fraction(t.score) for t in teams
    ])  # fmt: skip
    whole = [int(v * scale) for v in values]
    band = int(Fraction(spread) * scale)
    # each team in whole numbers: (primary, score, playing members), and its least and most total
    figures = {
        t.team: (int(Fraction(t.primary) * scale), int(Fraction(t.score) * scale), t.playing) for t in teams
    }
    ranges = {t.team: (t.playing * whole[0], t.playing * whole[-1]) for t in teams}
    totals_of: dict[int, tuple[int, ...]] = {}
    answers = []
    for a in teams:
        if a.playing not in totals_of:
            totals_of[a.playing] = tuple(int(x * scale) for x in team_totals(values, a.playing))
        totals = totals_of[a.playing]
        rivals = [u for u in teams if u is not a]
        mine = figures[a.team]
        # u is a threat while (x, 1) is at most his key, a blocker likewise (see _reach)
        threat_keys = sorted(
            _reach(mine, figures[u.team], ranges[u.team][1], band, method, True) for u in rivals
        )
        blocker_keys = sorted(
            _reach(mine, figures[u.team], ranges[u.team][0], band, method, False) for u in rivals
        )
        threats, blockers = (
            functools.partial(_counted, threat_keys),
            functools.partial(_counted, blocker_keys),
        )
        answers.append(
            PlayerNeeds(
                player=a.team,
                name=a.name,
                plays=a.playing > 0,
                results=tuple(Fraction(x, scale) for x in totals),
                places=tuple(_place(k, totals, threats, blockers, scale) for k in places),
            )
        )
    return tuple(answers)


def _common_denominator(figures: Sequence[Fraction]) -> int:
    scale = 1
    for f in figures:
        scale = scale * f.denominator // gcd(scale, f.denominator)
    return scale


def _counted(keys: list, x: int) -> int:
    """How many of the rivals' ``keys`` (sorted) count with ``a``'s total ``x``."""
    return len(keys) - bisect_left(keys, (x, 1))


def _reach(a: tuple[int, int, int], u: tuple[int, int, int], y: int, spread: int, method, threat: bool):
    """The most of ``a``'s totals with which ``u``, making ``y``, is not surely behind ``a`` (``threat``) or
    is surely ahead of it, as a key: ``(x, 1)`` is at most ``(D, 1)`` when ``x <= D``, at most ``(D, 0)``
    when ``x < D``. Teams as (primary, score, playing members), in whole numbers."""
    band = (a[2] + u[2]) * spread
    gap = u[0] + y - a[0]
    if method == "table_points":
        lead = (a[1] - u[1] > band) if threat else (u[1] - a[1] > band)
        return (gap, 0 if lead == threat else 1)
    return (gap + band, 1) if threat else (gap - band, 0)


def _place(k: int, totals, threats, blockers, scale: int) -> PlaceNeed:
    """``threats`` and ``blockers``: the count for a total (totals times ``scale``)."""
    guaranteed = None
    for x in reversed(totals):
        if threats(x) >= k:
            break
        guaranteed = x
    possible = next((x for x in totals if blockers(x) < k), None)
    return PlaceNeed(
        place=k,
        guaranteed=None if guaranteed is None else Fraction(guaranteed, scale),
        possible=None if possible is None else Fraction(possible, scale),
    )


# -- exact, at the published tables ------------------------------------------------------------------

#: the work (states carried from one table to the next) a whole computation may take; past it, and for a
#: search that would keep more than :data:`SEARCH_LIMIT` states at once, an answer is the bound that lets
#: the teams sharing tables reach their totals independently (sound, as the bound above: "sure" is sure)
WORK_LIMIT = 250_000
SEARCH_LIMIT = 20_000
#: a group of more teams linked by shared tables than this is not searched (the bound answers)
GROUP_LIMIT = 16


class _TooLarge(Exception):
    pass


def compute_team_needs_at_tables(
    *,
    teams: Sequence[TeamContender],
    sizes: Mapping[Hashable, int],
    outcomes: Sequence[Sequence[Number]],
    spread: Number,
    method: Method,
    places: Sequence[int],
) -> tuple[tuple[PlayerNeeds, ...], bool]:
    """What each team needs for each of ``places`` at the published tables, exactly (see the module's
    text): ``sizes`` is the number of seats of each table, ``TeamContender.tables`` the table of each
    member who plays. Also whether every answer is exact (False: some search was too large, see
    :data:`WORK_LIMIT`, and some answers are a bound)."""
    exact = _Exact(teams, sizes, outcomes, spread, method)
    answers = tuple(exact.answer(i, sorted(places)) for i in range(len(teams)))
    return answers, exact.exact


class _Exact:
    """The teams in whole numbers (every figure times one common denominator), each table's outcomes seen
    from the teams with members at it: the sum each of them gets there."""

    def __init__(self, teams, sizes, outcomes, spread, method: Method):
        figures = [Fraction(v) for vector in outcomes for v in vector] + [Fraction(spread)]
        for t in teams:
            figures += [Fraction(t.primary), Fraction(t.score)]
        scale = 1
        for f in figures:
            scale = scale * f.denominator // gcd(scale, f.denominator)
        self.scale, self.method, self.teams = scale, method, list(teams)
        self.spread = int(Fraction(spread) * scale)
        self.P = [int(Fraction(t.primary) * scale) for t in teams]
        self.S = [int(Fraction(t.score) * scale) for t in teams]
        self.count = [len(t.tables) for t in teams]
        vectors = {tuple(int(Fraction(v) * scale) for v in vector) for vector in outcomes}
        # counted from the least value up, so that a team's sum only grows table after table
        self.base = min(min(vector) for vector in vectors)
        vectors = {tuple(v - self.base for v in vector) for vector in vectors}
        owners: dict = defaultdict(list)  # table -> the team of each seat that counts
        for i, t in enumerate(teams):
            for table in t.tables:
                owners[table].append(i)
        self.at: dict = {}  # table -> (the teams at it, the sums they get in each outcome)
        for table, seats in owners.items():
            here = tuple(sorted(set(seats)))
            size = max(sizes.get(table, 4), len(seats))
            sums = set()
            for arrangement in {p[:size] for v in vectors for p in permutations(v)}:
                got = dict.fromkeys(here, 0)
                for team, value in zip(seats, arrangement, strict=False):
                    got[team] += value
                sums.add(tuple(got[team] for team in here))
            self.at[table] = (here, tuple(sorted(sums)))
        self.totals = [self._alone(i) for i in range(len(teams))]  # from the least value up
        self.work, self.exact = WORK_LIMIT, True
        self._cache: dict = {}
        self._projected: dict = {}  # (table, the seats' teams kept) -> the sums they can get

    def real(self, i: int, total: int) -> int:
        """A total of team ``i`` counted from the least value up, as it is."""
        return total + self.count[i] * self.base

    def _alone(self, i: int) -> tuple[int, ...]:
        """Every total team ``i`` can make, ascending."""
        totals = {0}
        for table in set(self.teams[i].tables):
            here, sums = self.at[table]
            own = {s[here.index(i)] for s in sums}
            totals = {t + v for t in totals for v in own}
        return tuple(sorted(totals))

    def _band(self, a: int, b: int) -> int:
        return (self.count[a] + self.count[b]) * self.spread

    def _offset(self, a: int, u: int, maximize: bool) -> int:
        """What ``u`` needs beyond ``a``'s total (both counted from the least value up): with ``a``'s
        total plus this, ``u`` is not surely behind ``a`` (``maximize``), or is surely ahead of it."""
        lead = self.P[a] + self.count[a] * self.base - self.P[u] - self.count[u] * self.base
        band = (self.count[a] + self.count[u]) * self.spread
        if self.method == "table_points":
            if maximize:
                return lead + (1 if self.S[a] - self.S[u] > band else 0)
            return lead + (0 if self.S[u] - self.S[a] > band else 1)
        return lead - band if maximize else lead + band + 1

    def _levels(self, a: int, maximize: bool) -> tuple[list[int], list[int], list[tuple[int, int, int, int]]]:
        """For ``a``'s rivals, the most of ``a``'s totals with which each reaches his need whatever he
        makes (ascending); by the least total of ``a`` with which he cannot reach it, those totals and each
        rival's (that total, the most with which he reaches it whatever, the rival, his offset)."""
        key = (a, maximize)
        if key not in self._cache:
            rivals = []
            for u in range(len(self.teams)):
                if u != a:
                    offset = self._offset(a, u, maximize)
                    rivals.append((self.totals[u][-1] - offset + 1, self.totals[u][0] - offset, u, offset))
            rivals.sort()
            self._cache[key] = (sorted(r[1] for r in rivals), [r[0] for r in rivals], rivals)
        return self._cache[key]

    def answer(self, a: int, places: list[int]) -> PlayerNeeds:
        totals = self.totals[a]
        guaranteed: dict = dict.fromkeys(places)
        open_ = set(places)
        for x in reversed(totals):  # from the best total down, while some place stays sure
            most = self._extreme(a, x, open_, maximize=True)
            for k in list(open_):
                if most < k:
                    guaranteed[k] = x
                else:
                    open_.discard(k)
            if not open_:
                break
        possible: dict = dict.fromkeys(places)
        for x in totals:  # from the worst total up, until every place is possible
            fewest = self._extreme(a, x, {k for k in places if possible[k] is None}, maximize=False)
            for k in places:
                if possible[k] is None and fewest < k:
                    possible[k] = x
            if possible[places[0]] is not None:
                break

        def frac(value):
            return None if value is None else Fraction(self.real(a, value), self.scale)

        return PlayerNeeds(
            player=self.teams[a].team,
            name=self.teams[a].name,
            plays=self.count[a] > 0,
            results=tuple(frac(t) for t in totals),
            places=tuple(PlaceNeed(k, frac(guaranteed[k]), frac(possible[k])) for k in places),
        )

    def _extreme(self, a: int, x: int, asked: set[int], *, maximize: bool) -> int:
        """The most teams not surely behind ``a`` (``maximize``) or the fewest surely ahead of it, ``a``
        making the total ``x``; exact as far as the places ``asked`` go (more or fewer than each)."""
        always, beyond, rivals = self._levels(a, maximize)
        forced = len(always) - bisect_left(always, x)  # reach their need whatever they make
        if forced >= max(asked):
            return forced
        need = {}
        for _beyond, sure, u, offset in rivals[bisect_right(beyond, x) :]:
            if sure < x:  # can reach it, or not
                need[u] = x + offset
        unsure = [k for k in asked if forced < k <= forced + len(need)]
        if not unsure:  # every place asked is settled whatever the teams of ``need`` make
            return forced + len(need) if maximize else forced
        cap = max(unsure) - forced
        try:
            return forced + self._search(a, x, need, cap, maximize)
        except _TooLarge:  # the teams at shared tables as if each reached its total on its own
            self.exact = False
            return forced + (min(len(need), cap) if maximize else 0)

    def _search(self, a: int, x: int, need: dict[int, int], cap: int, maximize: bool) -> int:
        """Over every outcome of the tables where ``a`` makes ``x``, the most (or fewest) teams of ``need``
        reaching their total, at most ``cap``. Teams that share no table (through others) are apart:
        each group counted on its own, ``a``'s with it."""
        if maximize and self._apart(a, need, cap):
            return cap
        found = 0
        for group in sorted(self._groups(a, need), key=len):
            if group == {a}:
                continue
            if a in group:
                found += self._count(a, x, {u: need[u] for u in group if u != a}, cap, maximize)
            elif len(group) == 1:
                found += 1 if maximize else 0  # alone at his tables: reaches it, or not, as one likes
            else:
                found += self._count(-1, 0, {u: need[u] for u in group}, cap, maximize)
            if found >= cap:
                return cap
        return found

    def _apart(self, a: int, need: dict[int, int], cap: int) -> bool:
        """Whether ``cap`` teams of ``need`` sit at tables of their own (none of ``a``'s, none shared
        between them): each then makes its need on its own, whatever ``a`` and the others make."""
        used, found = set(self.teams[a].tables), 0
        for u in need:
            tables = set(self.teams[u].tables)
            if not tables & used:
                used |= tables
                found += 1
                if found >= cap:
                    return True
        return False

    def _groups(self, a: int, need: dict[int, int]) -> list[set[int]]:
        """``a`` and the teams of ``need`` in groups linked by the tables they share."""
        parent = {u: u for u in (*need, a)}

        def root(u):
            while parent[u] != u:
                parent[u] = parent[parent[u]]
                u = parent[u]
            return u

        for here, _sums in self.at.values():
            linked = [u for u in here if u in parent]
            for u in linked[1:]:
                parent[root(u)] = root(linked[0])
        groups: dict[int, set[int]] = defaultdict(set)
        for u in parent:
            groups[root(u)].add(u)
        return list(groups.values())

    def _count(self, a: int, x: int, need: dict[int, int], cap: int, maximize: bool) -> int:
        """Over every outcome of the tables where ``a`` (-1: none) makes ``x``, the most (or fewest) teams
        of ``need`` reaching their total, at most ``cap``: table after table, each state the total of
        ``a`` so far and that of each team still to finish (up to its need), with the best count."""
        if maximize and (cap == 0 or not need):
            return 0
        steps = self._steps(a, need)
        last = {u: n for n, (here, _moves) in enumerate(steps) for u in here}
        rest = [{0}] * (len(steps) + 1)  # what a can make over the tables from each step on
        for n in range(len(steps) - 1, -1, -1):
            here, sums = steps[n]
            own = {s[here.index(a)] for s in sums} if a in here else {0}
            rest[n] = {t + v for t in rest[n + 1] for v in own}
        states: dict[tuple, int] = {(0, ()): 0}
        frontier: list[int] = []
        for n, (here, sums) in enumerate(steps):
            grown = frontier + [u for u in here if u != a and u not in frontier]
            at = {u: i for i, u in enumerate(grown)}
            caps = [need[u] for u in grown]
            moves = set()
            for s in sums:
                add = [0] * len(grown)
                for team, value in zip(here, s, strict=True):
                    if team != a:
                        add[at[team]] = value
                moves.add((s[here.index(a)] if a in here else 0, tuple(add)))
            closing = [at[u] for u in grown if last[u] == n]
            kept = [at[u] for u in grown if last[u] != n]
            ahead = rest[n + 1]  # a's total after this step must leave x within reach
            pad = (0,) * (len(grown) - len(frontier))
            following: dict[tuple, int] = {}
            for (mine, partial), count in states.items():
                partial = partial + pad
                for gain, add in moves:
                    total = mine + gain
                    if x - total not in ahead:
                        continue
                    now = [min(p + d, c) for p, d, c in zip(partial, add, caps, strict=True)]
                    reached = count + sum(1 for i in closing if now[i] >= caps[i])
                    if reached >= cap:
                        if maximize:  # every state left can still be finished: as many as asked
                            return cap
                        continue  # no better than the cap: not worth following
                    key = (total, tuple(now[i] for i in kept))
                    old = following.get(key)
                    if old is None or (reached > old if maximize else reached < old):
                        following[key] = reached
            self.work -= len(states) * len(moves)
            if len(following) > SEARCH_LIMIT or self.work < 0:
                raise _TooLarge
            states, frontier = following, [grown[i] for i in kept]
        counts = [count for (mine, _partial), count in states.items() if mine == x]
        if not counts:  # every way left reached the cap (fewest: x is reachable, so some way is)
            return cap
        return min(max(counts) if maximize else min(counts), cap)

    def _steps(
        self, a: int, need: dict[int, int]
    ) -> list[tuple[tuple[int, ...], tuple[tuple[int, ...], ...]]]:
        """The tables where ``a`` or a team of ``need`` plays, each with those teams and the sums they can
        get there; in an order that keeps few teams unfinished at once (each next table the one that
        finishes the most teams for the fewest it starts)."""
        relevant = set(need) | {a}
        if len(relevant) > GROUP_LIMIT:
            raise _TooLarge
        steps = []
        for table in sorted({t for u in relevant if u >= 0 for t in self.teams[u].tables}, key=str):
            here, sums = self.at[table]
            keep = tuple(j for j, team in enumerate(here) if team in relevant)
            if (table, keep) not in self._projected:
                self._projected[table, keep] = tuple(sorted({tuple(s[j] for j in keep) for s in sums}))
            steps.append((tuple(here[j] for j in keep), self._projected[table, keep]))
        left = defaultdict(int)
        for here, _sums in steps:
            for u in here:
                left[u] += 1
        ordered, started = [], set()
        while steps:

            def cost(step):
                here = step[0]
                return sum(1 for u in here if u not in started) - sum(1 for u in here if left[u] == 1)

            best = min(range(len(steps)), key=lambda i: cost(steps[i]))
            step = steps.pop(best)
            ordered.append(step)
            for u in step[0]:
                started.add(u)
                left[u] -= 1
        return ordered
