"""Seating strategies: whole schedule, Swiss, random, predefined, re-planning and manual swaps.

Every strategy runs the same pipeline:

1. the *roster*: active players plus the substitutes needed for tables of four;
2. who sits with whom: a start (a repeat-free design relabelled to the players, the standings,
   or a random draw) improved by the tabu search of :mod:`.search`, minimising in this order
   players who must be kept apart, repeated meetings, same-club meetings, same-country meetings
   (and, for Swiss sessions, distance in the standings);
3. table numbers (fixed tables honoured, repeated visits avoided);
4. seat winds balanced over the tournament (:mod:`.winds`);
5. the quality report over played and planned sessions.
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from operator import add

from scoring.rules.text import gettext_noop

from .designs import best_template, zero_repeat_template
from .models import (
    Player,
    PlayerId,
    QualityReport,
    SeatingError,
    SeatingPlan,
    SeatingSettings,
    Session,
    Tournament,
)
from .numbering import number_tables
from .predefined import parse_predefined
from .quality import quality_report
from .search import ScheduleSearch, relabel
from .winds import balance_seats

#: Whole-schedule planning with rules that keep players apart (teams, clubs, countries): the search starts
#: from ``_STARTS`` relabellings of the design at most (it stops at the floor), each searched with
#: ``_START_SHARE`` of the full budget, a relabelling of ``_RELABEL_ITERATIONS`` exchanges, every conflict
#: priced in each step (up to ``_START_SAMPLE``) and a polish that gives up after ``_POLISH_GIVE_UP`` steps
#: without a better schedule. Four short starts find as few meetings as four long ones did (the best
#: schedule of a start is found early), at about a quarter of the CPU (see bench/seating/README.md).
_STARTS = 4
_START_SHARE = 0.3
_START_SAMPLE = 40
_POLISH_GIVE_UP = 150
_RELABEL_ITERATIONS = 60
# --------------------------------------------------------------------------- roster


def seated_players(tournament: Tournament) -> tuple[list[Player], list[PlayerId]]:
    """The players to seat (active regulars, then the substitutes needed) and the substitutes used.

    Raises :class:`SeatingError` when tables of four cannot be completed.
    """
    faults = []
    seen: set[PlayerId] = set()
    for p in tournament.players:
        if p.id in seen:
            faults.append(gettext_noop("player %(_id)s is registered twice", _id=p.id))
        seen.add(p.id)
    if faults:
        raise SeatingError(faults)
    regulars = [p for p in tournament.players if p.active and not p.substitute]
    substitutes = [p for p in tournament.players if p.active and p.substitute]
    played = {pid for session in tournament.played for table in session for pid in table}
    # Substitutes who already stepped in keep their place ahead of fresh ones.
    substitutes.sort(key=lambda p: p.id not in played)
    need = (-len(regulars)) % 4
    if len(substitutes) < need:
        missing = need - len(substitutes)
        raise SeatingError(
            gettext_noop(
                "players: %(players)s, substitutes: %(substitutes)s; tables of four need %(missing)s more",
                players=len(regulars),
                substitutes=len(substitutes),
                missing=missing,
            )
        )
    roster = regulars + substitutes[:need]
    if len(roster) < 4:
        raise SeatingError(
            gettext_noop("%(count)s players: at least 4 are needed for a table", count=len(roster))
        )
    g = len(roster) // 4
    per_table: dict[int, list[PlayerId]] = {}
    for p in roster:
        if p.fixed_table is not None:
            if not 1 <= p.fixed_table <= g:
                faults.append(
                    gettext_noop(
                        "player %(_id)s has fixed table %(_fixed_table)s, but there are only %(_g)s tables",
                        _id=p.id,
                        _fixed_table=p.fixed_table,
                        _g=g,
                    )
                )
            per_table.setdefault(p.fixed_table, []).append(p.id)
    for number, ids in sorted(per_table.items()):
        if len(ids) > 4:
            faults.append(
                gettext_noop(
                    "table %(_number)s is fixed for %(_count)s players: %(_items)s",
                    _number=number,
                    _count=len(ids),
                    _items=", ".join(map(str, ids)),
                )
            )
    if faults:
        raise SeatingError(faults)
    return roster, [p.id for p in substitutes[:need]]


def _standings(players: Sequence[Player]) -> list[int]:
    """Indices of ``players`` from the leader down: by rank, else by score, else as listed."""

    def key(i: int):
        p = players[i]
        return (
            p.rank is None,
            p.rank if p.rank is not None else 0,
            p.score is None,
            -(p.score or 0),
            i,
        )

    return sorted(range(len(players)), key=key)


# --------------------------------------------------------------------------- the problem


def _shared(values) -> bool:
    """Whether two of ``values`` are the same non-empty value."""
    seen: set[str] = set()
    for value in values:
        if value:
            if value in seen:
                return True
            seen.add(value)
    return False


def _seen(met: list[int], n: int, x: int, table: list[int], leaving: int, current: list[int]) -> int:
    """Earlier meetings of ``x`` with ``table`` once ``leaving`` has left it; ``current`` is the
    table ``x`` sits at now (meetings there in this session are not earlier meetings)."""
    return sum(met[x * n + y] - (y in current) for y in table if y not in (x, leaving))


class _Problem:
    """One planning request, in player indices ``0..n-1``."""

    def __init__(self, tournament: Tournament, sessions: int, swiss: bool = False):
        if sessions < 0:
            raise SeatingError(gettext_noop("the number of sessions to plan cannot be negative"))
        self.tournament = tournament
        self.settings: SeatingSettings = tournament.settings
        self.started = time.monotonic()
        self.deadline = self.started + self.settings.time_limit
        self.rng = random.Random(self.settings.seed)
        roster, self.substitutes = seated_players(tournament)
        self.roster = roster
        self.ids = [p.id for p in roster]
        self.index = {pid: i for i, pid in enumerate(self.ids)}
        n = self.n = len(roster)
        g = self.g = n // 4
        self.S = sessions
        self.offset = len(tournament.played)
        self.fixed: list[int | None] = [
            p.fixed_table - 1 if p.fixed_table is not None else None for p in roster
        ]
        self.pinned = [f is not None for f in self.fixed]

        history = [0] * (n * n)
        self.hist_visits = [[0] * g for _ in range(n)]
        for session in tournament.played:
            for number, table in enumerate(session):
                idx = [self.index[pid] for pid in table if pid in self.index]
                for i in idx:
                    if number < g:
                        self.hist_visits[i][number] += 1
                for a in idx:
                    for b in idx:
                        if a != b:
                            history[a * n + b] += 1
        self.history = history

        self.class_keys, self.session_class = self._classes(sessions)
        # A rule is live when some session applies it and two players share a club (a country).
        self.clubs_live = any(c for c, _ in self.class_keys) and _shared(p.club for p in roster)
        self.countries_live = any(c for _, c in self.class_keys) and _shared(p.country for p in roster)

        # Lexicographic weights: each level outweighs everything the levels below can add up to.
        # From the bottom: distance in the standings (Swiss), pairs meeting many times (the
        # square of a pair's repeats), same country, same club, repeats, players kept apart. A
        # level no pair can reach is left out (the weights above it stay small integers, which
        # Python adds fastest; the order of any two schedules is the same).
        pairs_max = 6 * g * max(1, sessions) + 1
        rank_max = pairs_max * n * n if swiss else 0
        most_met = max(history, default=0) + sessions
        self.w_spread = rank_max + 1
        self.w_country = self.w_spread * (pairs_max * (2 * most_met + 1) + 1)
        self.w_club = self.w_country * (pairs_max + 1 if self.countries_live else 1)
        self.w_repeat = self.w_club * (pairs_max + 1 if self.clubs_live else 1)
        self.w_group = self.w_repeat * (pairs_max + 1)

        groups_of: list[set[int]] = [set() for _ in range(n)]
        for gi, group in enumerate(tournament.separate):
            for pid in group:
                if pid in self.index:
                    groups_of[self.index[pid]].add(gi)
        position = [0] * n
        if swiss:
            for pos, i in enumerate(_standings(roster)):
                position[i] = pos
        self.position = position

        self.groups_of = groups_of
        self.swiss = swiss
        self._targets: dict[bool, int] = {}
        self._flat: list[list[int] | None] | None = None
        self.weights: list[list[int] | None] = [
            self._matrix(club, country, groups_of, swiss) for club, country in self.class_keys
        ]

    def _classes(self, sessions: int) -> tuple[list[tuple[bool, bool]], list[int]]:
        """The session classes (whether clubs, whether countries are kept apart) and each session's."""
        s = self.settings
        keys: list[tuple[bool, bool]] = []
        of_session: list[int] = []
        for k in range(sessions):
            number = self.offset + k  # 0-based index of the session in the tournament
            club = s.avoid_same_club and (s.club_sessions is None or number < s.club_sessions)
            country = s.avoid_same_country and (s.country_sessions is None or number < s.country_sessions)
            if (club, country) not in keys:
                keys.append((club, country))
            of_session.append(keys.index((club, country)))
        return keys, of_session

    def _matrix(
        self, club: bool, country: bool, groups_of: list[set[int]], swiss: bool, flat: bool = False
    ) -> list[int] | None:
        """Pair weights of one session class; ``flat`` weighs every rule like a repeat (unit 1).

        In a Swiss session two players also cost the square of their distance in the standings,
        which keeps every table as close to a block of four consecutive places as possible.
        """
        n, roster = self.n, self.roster
        w_group, w_club, w_country = (1, 1, 1) if flat else (self.w_group, self.w_club, self.w_country)
        w = [0] * (n * n)
        # Players who share a group (once, however many groups they share), a club, a country.
        members: dict[int, list[int]] = {}
        for i, groups in enumerate(groups_of):
            for gi in groups:
                members.setdefault(gi, []).append(i)
        grouped = {a * n + b for ids in members.values() for a in ids for b in ids if a != b}
        for k in grouped:
            w[k] += w_group
        for wanted, weight, of in ((club, w_club, "club"), (country, w_country, "country")):
            if not wanted:
                continue
            by_value: dict[str, list[int]] = {}
            for i, p in enumerate(roster):
                if getattr(p, of):
                    by_value.setdefault(getattr(p, of), []).append(i)
            for ids in by_value.values():
                for a in ids:
                    for b in ids:
                        if a != b:
                            w[a * n + b] += weight
        if swiss and not flat:
            position = self.position
            for i in range(n):
                pi, row = position[i], i * n
                for j in range(n):
                    if j != i:
                        w[row + j] += (pi - position[j]) ** 2
        return w if any(w) else None

    # ----------------------------------------------------------------- targets and budgets

    def target(self, flat: bool = False) -> int:
        """:meth:`floor`, computed once per request (every start of the search asks for it)."""
        if flat not in self._targets:
            self._targets[flat] = self.floor(flat)
        return self._targets[flat]

    def flat_weights(self) -> list[list[int] | None]:
        """The pair weights of every session class with each rule weighed like a repeat (computed once)."""
        if self._flat is None:
            self._flat = [self._matrix(c, k, self.groups_of, False, flat=True) for c, k in self.class_keys]
        return self._flat

    def floor(self, flat: bool = False) -> int:
        """A cost no schedule can beat: the repeats of the history plus those the plan cannot
        avoid (each of a player's meetings beyond their number of unmet opponents is a repeat).

        Rules that apply in every session (teams and groups kept apart, and clubs or countries
        when the director keeps them apart throughout) leave a player fewer opponents to meet
        freely: each meeting beyond those is a repeat or a meeting the rules forbid, and costs at
        least the smallest of their weights. With 32 players of four countries over 10 sessions
        that is 6 compatriots a player, and the search stops there instead of looking for less.
        """
        n, H, S = self.n, self.history, self.S
        wr, wx = (1, 0) if flat else (self.w_repeat, self.w_spread)
        club_all = all(club for club, _ in self.class_keys)
        country_all = all(country for _, country in self.class_keys)
        # Pairs some rule keeps apart in every session: the flat weights of such a session.
        ruled_pairs = self._matrix(club_all, country_all, self.groups_of, False, flat=True)
        rule_weights = [wr + wx]
        if any(self.groups_of):
            rule_weights.append(1 if flat else self.w_group)
        if club_all and self.clubs_live:
            rule_weights.append(1 if flat else self.w_club)
        if country_all and self.countries_live:
            rule_weights.append(1 if flat else self.w_country)
        constant = 0
        excess = 0
        ruled_excess = 0
        for i in range(n):
            row = i * n
            seen = H[row : row + n]
            met = n - seen.count(0)
            for h in filter((1).__lt__, seen[i + 1 :]):
                constant += (h - 1) * wr + (h - 1) * (h - 1) * wx
            ruled = 0
            if ruled_pairs is not None:
                rules = ruled_pairs[row : row + n]
                if met:
                    ruled = sum(1 for h, r in zip(seen, rules, strict=True) if r and not h)
                else:
                    ruled = n - rules.count(0)
            excess += max(0, 3 * S - (n - 1 - met))
            ruled_excess += max(0, 3 * S - (n - 1 - met - ruled))
        unavoidable = (excess + 1) // 2
        per_table: dict[int, int] = {}
        for f in self.fixed:
            if f is not None:
                per_table[f] = per_table.get(f, 0) + 1
        together = sum(k * (k - 1) // 2 * max(0, S - 1) for k in per_table.values())
        repeats = max(unavoidable, together)
        # Meetings that are repeats or forbidden: those beyond the repeats cost at least the
        # smallest weight of a repeat or of a rule. Whatever the repeats, the clubs and countries
        # too large to spread one to a table meet at least as often as the pigeonholes say.
        beyond = max(0, (ruled_excess + 1) // 2 - repeats)
        rules = max(beyond * min(rule_weights), self.rules_floor(range(S), flat))
        return constant + repeats * (wr + wx) + rules

    def rules_floor(self, sessions, flat: bool = False) -> int:
        """The least the club and country rules can cost over ``sessions`` (indices of the plan's
        sessions): in each session, ``k`` players of one club or country at ``g`` tables share them at
        best evenly, which makes some pairs meet (15 compatriots at 10 tables: at least 5 meetings)."""
        if self.swiss or self.g == 0:
            return 0
        g = self.g

        def floor(counts) -> int:
            total = 0
            for k in counts.values():
                q, r = divmod(k, g)
                total += r * (q + 1) * q // 2 + (g - r) * q * (q - 1) // 2
            return total

        clubs: dict[str, int] = {}
        countries: dict[str, int] = {}
        for p in self.roster:
            if p.club:
                clubs[p.club] = clubs.get(p.club, 0) + 1
            if p.country:
                countries[p.country] = countries.get(p.country, 0) + 1
        w_club, w_country = (1, 1) if flat else (self.w_club, self.w_country)
        per_club, per_country = floor(clubs) * w_club, floor(countries) * w_country
        total = 0
        for k in sessions:
            club, country = self.class_keys[self.session_class[k]]
            total += (per_club if club else 0) + (per_country if country else 0)
        return total

    def _budget(self, sample: int, evaluations: float = 3_000_000) -> int:
        """Iterations worth ``evaluations`` priced swaps (scaled by the effort setting)."""
        per_iteration = max(1, sample * (self.n - 4))
        return max(200, int(evaluations * self.settings.effort / per_iteration))

    # ----------------------------------------------------------------- starts

    def random_start(self, sessions: int | None = None) -> list[list[list[int]]]:
        out = []
        for _ in range(self.S if sessions is None else sessions):
            order = list(range(self.n))
            self.rng.shuffle(order)
            out.append([order[t * 4 : t * 4 + 4] for t in range(self.g)])
        return out

    def standings_start(self) -> list[list[list[int]]]:
        order = sorted(range(self.n), key=lambda i: self.position[i])
        return [[order[t * 4 : t * 4 + 4] for t in range(self.g)]]

    def template_start(self, relabel_iterations: int = 300) -> list[list[list[int]]] | None:
        """A repeat-free design relabelled to the players (history and rules considered).

        When the plan is longer than the design, the design is used again (or the part that is
        needed), each copy relabelled against everything seated before it: with 16 players over
        10 sessions two copies of the affine plane make every pair meet exactly twice.
        """
        n, S = self.n, self.S
        template = best_template(n, S)
        if template is None or len(template) < S:
            template = _rows_template(n, S, self.rng) or template
        if template is None:
            return None
        met = list(self.history)
        sessions: list[list[list[int]]] = []
        while len(sessions) < S:
            part = template[: S - len(sessions)]
            classes = self.session_class[len(sessions) : len(sessions) + len(part)]
            costs = self._relabel_costs(met, classes)
            if all(costs[c] is None for c in classes):
                player = list(range(n))
                self.rng.shuffle(player)
            else:
                iters = max(50, int(relabel_iterations * self.settings.effort))
                floor = self.rules_floor(range(len(sessions), len(sessions) + len(part)))
                player, _ = relabel(part, n, costs, classes, self.rng, iters, self.deadline, floor=floor)
            block = [[[player[u] for u in table] for table in session] for session in part]
            for session in block:
                for table in session:
                    for a in table:
                        for b in table:
                            if a != b:
                                met[a * n + b] += 1
            sessions += block
        return sessions

    def _relabel_costs(self, met: list[int], classes: list[int]) -> list[list[int] | None]:
        """Pair costs for relabelling a template: meeting again after ``met`` meetings, the
        rules of each session class, and players fixed to different tables."""
        n = self.n
        wr, wx = self.w_repeat, self.w_spread
        base = list(map({h: wr + wx * (2 * h - 1) if h else 0 for h in set(met)}.__getitem__, met))
        used = any(met)
        for i in range(n):
            fi = self.fixed[i]
            if fi is None:
                continue
            for j in range(n):
                fj = self.fixed[j]
                if fj is not None and fj != fi:
                    base[i * n + j] += self.w_group
                    used = True
        out: list[list[int] | None] = []
        for c, w in enumerate(self.weights):
            if c not in classes:
                out.append(None)
            elif w is None:
                out.append(base if used else None)
            else:
                out.append(list(map(add, base, w)))
        return out

    def fit_pins(self, sessions: list[list[list[int]]]) -> list[list[list[int]]]:
        """Move players with a fixed table to that table's index in every session.

        A player who is elsewhere swaps with the player of the fixed table whose exchange adds
        the fewest meetings already seen (in history or in the other sessions).
        """
        if not any(self.pinned):
            return sessions
        fixed, g, n = self.fixed, self.g, self.n
        met = list(self.history)
        for session in sessions:
            for table in session:
                for a in table:
                    for b in table:
                        if a != b:
                            met[a * n + b] += 1
        out = []
        for session in sessions:
            slots: list[list[int] | None] = [None] * g
            rest = []
            for table in session:
                wanted = {fixed[p] for p in table if fixed[p] is not None}
                if len(wanted) == 1 and slots[next(iter(wanted))] is None:
                    slots[next(iter(wanted))] = list(table)
                else:
                    rest.append(list(table))
            for k in range(g):
                if slots[k] is None:
                    slots[k] = rest.pop(0)
            tables: list[list[int]] = slots  # type: ignore[assignment]

            for _ in range(4 * g):
                misplaced = [
                    (p, k)
                    for k, table in enumerate(tables)
                    for p in table
                    if fixed[p] is not None and fixed[p] != k
                ]
                if not misplaced:
                    break
                p, k = misplaced[0]
                target = tables[fixed[p]]
                candidates = [x for x in target if fixed[x] != fixed[p]]
                q = min(
                    candidates,
                    key=lambda x: (
                        fixed[x] is not None,
                        _seen(met, n, p, target, x, tables[k]) + _seen(met, n, x, tables[k], p, target),
                    ),
                )
                tables[k][tables[k].index(p)] = q
                target[target.index(q)] = p
            out.append(tables)
        return out

    # ----------------------------------------------------------------- search

    def optimise(
        self,
        start: list[list[list[int]]],
        share: float = 1.0,
        polish_give_up: int | None = None,
        sample_cap: int = 24,
    ) -> tuple[list[list[list[int]]], int]:
        """Improve ``start``; return the best schedule found and its (lexicographic) cost.

        When rules keep pairs apart, a first pass weighs a forbidden meeting exactly like a
        repeat, so the search may trade one for the other on its way (with the rules far
        below repeats it could hardly cross a repeat to fix a country); a second, lexicographic
        pass polishes the result, and the better of start and result is kept. ``share`` scales the
        budget, ``polish_give_up`` caps the steps the polish runs without a better schedule and
        ``sample_cap`` the conflicts priced in a step.
        """
        start = self.fit_pins(start)
        if self.S == 0 or self.g < 2:
            return start, 0
        sample = max(4, min(sample_cap, 1600 // self.n))
        budget = self._budget(sample, 3_000_000 * share)
        give_up = min(self._budget(sample, 1_200_000 * share), 5000)
        target = self.target()
        lexi = self._search(start, self.weights, self.w_repeat, self.w_spread)
        if lexi.cost <= target:
            return lexi.snapshot(), lexi.cost
        if any(w is not None for w in self.weights) and not self.swiss:
            flat = self._search(start, self.flat_weights(), 1)
            flat_best, _ = flat.run(
                budget * 3 // 5,
                target=self.target(flat=True),
                deadline=self.deadline,
                sample=sample,
                give_up=give_up,
            )
            polish = self._search(flat_best, self.weights, self.w_repeat, self.w_spread)
            polished = polish.run(
                budget * 2 // 5,
                target=target,
                deadline=self.deadline,
                sample=sample,
                give_up=give_up if polish_give_up is None else min(give_up, polish_give_up),
            )
            start_cost = lexi.cost
            if polished[1] <= start_cost:
                return polished
            return lexi.snapshot(), start_cost
        return lexi.run(budget, target=target, deadline=self.deadline, sample=sample, give_up=give_up)

    def _search(self, start, weights, repeat_weight, spread_weight=0) -> ScheduleSearch:
        return ScheduleSearch(
            self.n,
            start,
            self.history,
            self.session_class,
            weights,
            repeat_weight,
            self.pinned,
            self.rng,
            spread_weight,
        )

    # ----------------------------------------------------------------- output

    def to_ids(self, sessions: list[list[list[int]]]) -> list[Session]:
        return [[[self.ids[p] for p in table] for table in session] for session in sessions]

    def finish(self, sessions: list[list[list[int]]], numbering: str = "visits") -> SeatingPlan:
        if numbering == "standings":
            numbered = [self._number_by_standings(s) for s in sessions]
        else:
            numbered = number_tables(sessions, self.n, self.fixed, self.hist_visits, self.rng)
        planned = balance_seats(self.to_ids(numbered), self.tournament.played)
        report = quality_report(
            self.tournament.players, [*self.tournament.played, *planned], self.tournament.separate
        )
        return SeatingPlan(
            sessions=planned,  # type: ignore[arg-type]
            quality=report,
            first_session=self.offset + 1,
            substitutes=list(self.substitutes),
        )

    def _number_by_standings(self, session: list[list[int]]) -> list[list[int]]:
        slots: list[list[int] | None] = [None] * self.g
        rest = []
        for table in session:
            wanted = {self.fixed[p] for p in table if self.fixed[p] is not None}
            if len(wanted) == 1 and slots[next(iter(wanted))] is None:
                slots[next(iter(wanted))] = table
            else:
                rest.append(table)
        rest.sort(key=lambda t: sum(self.position[p] for p in t))
        for k in range(self.g):
            if slots[k] is None:
                slots[k] = rest.pop(0)
        return slots  # type: ignore[return-value]


def _rows_template(n: int, sessions: int, rng: random.Random) -> list[list[list[int]]] | None:
    """For more sessions than a transversal design has: the design's ``g`` sessions, in which
    players of the same row (``g`` of them) never meet, then sessions that seat each row on its
    own with as few repeats as a quick search finds. It serves the sizes with no repeat-free
    design for the whole plan (80 players over 26 sessions, for one)."""
    g = n // 4
    if sessions <= g or g % 4 or g < 4 or sessions - g > max(1, (g - 1) // 3):
        return None
    design = zero_repeat_template(n, g, search=False)
    if design is None or any(len({p // g for p in table}) != 4 for session in design for table in session):
        return None
    inner_sessions = sessions - g
    inner = zero_repeat_template(g, inner_sessions, search=False)
    if inner is None:
        start = []
        for _ in range(inner_sessions):
            order = list(range(g))
            rng.shuffle(order)
            start.append([order[t * 4 : t * 4 + 4] for t in range(g // 4)])
        search = ScheduleSearch(g, start, [0] * (g * g), [0] * inner_sessions, [None], 1, [False] * g, rng)
        inner, _ = search.run(2000, target=0, sample=8)
    extra = [[[i * g + x for x in table] for i in range(4) for table in session] for session in inner]
    return design + extra


# --------------------------------------------------------------------------- strategies


def plan_schedule(tournament: Tournament, sessions: int) -> SeatingPlan:
    """Plan ``sessions`` sessions at once (after the sessions already played).

    Minimises, in this order: meetings of players to be kept apart, repeated meetings,
    same-club then same-country meetings (in the sessions the settings say), then balances seat
    winds and avoids repeated table visits. Deterministic for a given seed.
    """
    problem = _Problem(tournament, sessions)
    template = problem.template_start(_RELABEL_ITERATIONS)
    if template is None or all(w is None for w in problem.weights):
        best, _ = problem.optimise(template or problem.random_start())
        return problem.finish(best)
    # With rules that keep players apart (teams, countries, clubs), the relabelling of the design
    # decides much: a few fresh relabellings, kept only if better, reach zero where one start stops
    # short (40 players in teams of four with countries: 9 compatriot meetings from one start, none
    # from the best of four). Short starts: a start finds its best schedule early.
    short = {"share": _START_SHARE, "polish_give_up": _POLISH_GIVE_UP, "sample_cap": _START_SAMPLE}
    best, cost = problem.optimise(template, **short)
    target = problem.target()
    for _ in range(max(0, round((_STARTS - 1) * problem.settings.effort))):
        if cost <= target or time.monotonic() > problem.deadline:
            break
        start = problem.template_start(_RELABEL_ITERATIONS) or template
        candidate, candidate_cost = problem.optimise(start, **short)
        if candidate_cost < cost:
            best, cost = candidate, candidate_cost
    return problem.finish(best)


def plan_swiss_session(tournament: Tournament) -> SeatingPlan:
    """Seat the next session from the standings: the leaders together at table 1, and so on,
    moving players between neighbouring tables only as far as needed to avoid repeats (and, if
    the settings say so, club or country mates)."""
    problem = _Problem(tournament, 1, swiss=True)
    best, _ = problem.optimise(problem.standings_start())
    return problem.finish(best, numbering="standings")


def plan_random_session(tournament: Tournament) -> SeatingPlan:
    """Seat the next session at random, then remove as many repeated meetings as possible."""
    problem = _Problem(tournament, 1)
    best, _ = problem.optimise(problem.random_start())
    return problem.finish(best)


def plan_predefined(
    tournament: Tournament,
    text: str,
    sessions: int | None = None,
    balance_winds: bool = True,
) -> SeatingPlan:
    """Use an imported schedule (see :func:`parse_predefined`) for the next sessions.

    Tables keep their imported order except that tables with a fixed-table player move to that
    number. With ``balance_winds`` the seat order within each table is chosen to even out winds.
    """
    parsed = parse_predefined(text, tournament.players, sessions)
    fixed = {p.id: p.fixed_table for p in tournament.players if p.fixed_table is not None}
    faults = []
    renumbered: list[Session] = []
    for s, session in enumerate(parsed, start=1):
        g = len(session)
        slots: list[list[PlayerId] | None] = [None] * g
        rest = []
        for table in session:
            wanted = sorted({fixed[p] for p in table if p in fixed})
            if len(wanted) > 1:
                faults.append(
                    gettext_noop(
                        "session %(_s)s: players with fixed tables %(_items)s share a table",
                        _s=s,
                        _items=", ".join(map(str, wanted)),
                    )
                )
                rest.append(table)
            elif wanted:
                k = wanted[0] - 1
                if not 0 <= k < g:
                    faults.append(
                        gettext_noop(
                            "session %(_s)s: table %(_value)s does not exist (%(_g)s tables)",
                            _s=s,
                            _value=wanted[0],
                            _g=g,
                        )
                    )
                    rest.append(table)
                elif slots[k] is not None:
                    faults.append(
                        gettext_noop(
                            "session %(_s)s: two tables hold players fixed to table %(_value)s",
                            _s=s,
                            _value=wanted[0],
                        )
                    )
                    rest.append(table)
                else:
                    slots[k] = table
            else:
                rest.append(table)
        for k in range(g):
            if slots[k] is None and rest:
                slots[k] = rest.pop(0)
        renumbered.append([t for t in slots if t is not None])
    if faults:
        raise SeatingError(faults)
    if balance_winds:
        renumbered = balance_seats(renumbered, tournament.played)  # type: ignore[assignment]
    report = quality_report(tournament.players, [*tournament.played, *renumbered], tournament.separate)
    roster_ids = {pid for session in renumbered for table in session for pid in table}
    substitutes = [p.id for p in tournament.players if p.substitute and p.id in roster_ids]
    return SeatingPlan(renumbered, report, len(tournament.played) + 1, substitutes)


def replan_after_withdrawal(
    tournament: Tournament,
    total_sessions: int,
    previous: Sequence[Session] | None = None,
) -> SeatingPlan:
    """Plan the sessions still to play after players withdrew (``active=False``).

    Sessions already played are kept as history. When the previous plan of the remaining
    sessions is given and the number of tables is unchanged, substitutes first take the seats of
    withdrawn players in it; the result is then improved, and compared with a fresh plan: the
    better one (by the planning order of goals) is returned, the previous one on a tie.
    """
    remaining = total_sessions - len(tournament.played)
    if remaining < 0:
        raise SeatingError(
            gettext_noop(
                "%(_count)s sessions were already played, more than the %(_total_sessions)s planned",
                _count=len(tournament.played),
                _total_sessions=total_sessions,
            )
        )
    problem = _Problem(tournament, remaining)
    candidates = []
    if previous:
        start = _patch_previous(problem, previous[-remaining:] if remaining else [])
        if start is not None:
            candidates.append(problem.optimise(start))
    fresh = problem.template_start() or problem.random_start()
    candidates.append(problem.optimise(fresh))
    best = min(candidates, key=lambda c: c[1])
    return problem.finish(best[0])


def _patch_previous(problem: _Problem, previous: Sequence[Session]) -> list[list[list[int]]] | None:
    if len(previous) != problem.S or any(len(s) != problem.g for s in previous):
        return None
    seated = [pid for table in previous[0] for pid in table]
    gone = [pid for pid in dict.fromkeys(seated) if pid not in problem.index]
    fresh = [pid for pid in problem.ids if pid not in set(seated)]
    if len(gone) != len(fresh):
        return None
    replace = dict(zip(gone, fresh, strict=True))
    out = []
    for session in previous:
        tables = [[problem.index[replace.get(pid, pid)] for pid in table] for table in session]
        if sorted(p for t in tables for p in t) != list(range(problem.n)):
            return None
        out.append(tables)
    return out


def balance_winds(sessions: Sequence[Session], played: Sequence[Session] = ()) -> list[Session]:
    """Re-order the seats of every table in ``sessions`` so wind counts stay even, counting
    ``played`` sessions (left unchanged) as history."""
    return balance_seats(sessions, played)  # type: ignore[return-value]


def swap_players(
    tournament: Tournament,
    planned: Sequence[Session],
    session: int,
    a: PlayerId,
    b: PlayerId,
) -> SeatingPlan:
    """Exchange the seats of players ``a`` and ``b`` in planned session ``session`` (1-based,
    counted within ``planned``) and report the quality of the result."""
    faults = []
    if not 1 <= session <= len(planned):
        raise SeatingError(
            gettext_noop(
                "there is no planned session %(_session)s (1 to %(_count)s)",
                _session=session,
                _count=len(planned),
            )
        )
    tables = [list(t) for t in planned[session - 1]]
    where = {pid: (k, seat) for k, t in enumerate(tables) for seat, pid in enumerate(t)}
    for pid in (a, b):
        if pid not in where:
            faults.append(
                gettext_noop(
                    "player %(_pid)s does not play in session %(_session)s", _pid=pid, _session=session
                )
            )
    if faults:
        raise SeatingError(faults)
    (ka, sa), (kb, sb) = where[a], where[b]
    fixed = {p.id: p.fixed_table for p in tournament.players if p.fixed_table is not None}
    for pid, k in ((a, kb), (b, ka)):
        if pid in fixed and fixed[pid] != k + 1:
            faults.append(
                gettext_noop("player %(_pid)s must stay at table %(_value)s", _pid=pid, _value=fixed[pid])
            )
    if faults:
        raise SeatingError(faults)
    tables[ka][sa], tables[kb][sb] = b, a
    new = [[list(t) for t in s] for s in planned]
    new[session - 1] = tables
    report = quality_report(tournament.players, [*tournament.played, *new], tournament.separate)
    return SeatingPlan(new, report, len(tournament.played) + 1)


def read_countries(text: str) -> list[str]:
    """Country codes from a file's text, one per line (line ``i`` is player ``i``); trailing
    blank lines are ignored, blank lines in between mean "no country"."""
    lines = [line.strip() for line in text.splitlines()]
    while lines and not lines[-1]:
        lines.pop()
    return lines


def plan_cli(
    players: int,
    sessions: int,
    countries: Sequence[str] | None = None,
    seed: int = 0,
) -> tuple[list[Session], QualityReport]:
    """Plan a whole schedule for players numbered ``1..players``; ``countries[i]`` is player
    ``i + 1``'s country. Returns the sessions and their quality report."""
    if players < 1:
        raise SeatingError(gettext_noop("the number of players must be positive"))
    countries = list(countries or [])
    if countries and len(countries) != players:
        raise SeatingError(
            gettext_noop(
                "%(_count)s countries were given for %(_players)s players",
                _count=len(countries),
                _players=players,
            )
        )
    roster = [Player(id=i + 1, country=countries[i] if countries else "") for i in range(players)]
    plan = plan_schedule(Tournament(roster, settings=SeatingSettings(seed=seed)), sessions)
    return plan.sessions, plan.quality


__all__ = [
    "balance_winds",
    "parse_predefined",
    "plan_cli",
    "plan_predefined",
    "plan_random_session",
    "plan_schedule",
    "plan_swiss_session",
    "read_countries",
    "replan_after_withdrawal",
    "seated_players",
    "swap_players",
]
