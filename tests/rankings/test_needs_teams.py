"""What a team needs for the teams' podium, checked against every outcome of small tournaments.

The same standings as ``test_needs_engine`` (8 players, ties, penalties, a disqualified player, an absent
player whose substitute plays), the players in four teams of two. Every outcome of both tables is
enumerated; a team's worst and best rank for each total of its members are taken at the scores' extremes.
The bound must never be wrong: with a total at or above "sure", the worst rank is within the place; with a
total below "possible" (or any total when out of reach), even the best rank is not. And it must say
something: in every case some place is sure from a total and some is out of reach.
"""

from __future__ import annotations

import itertools
import random
from fractions import Fraction

import pytest

from rankings.standings import needs_teams
from rankings.standings.needs_teams import TeamContender, compute_team_needs, compute_team_needs_at_tables
from scoring.rules.registry import get_ruleset
from tests.rankings.test_needs_engine import SCALE, _arrangements, _case


def _teams(contenders, rng):
    players = sorted(c.player for c in contenders if c.player != "s")
    rng.shuffle(players)
    by_key = {c.player: c for c in contenders}
    teams = {}
    for i in range(0, len(players), 2):
        members = [by_key[k] for k in players[i : i + 2]]
        teams[f"t{i // 2}"] = members
    return teams


def _team_contenders(teams):
    return [
        TeamContender(
            team=name,
            name=name.upper(),
            primary=sum((m.primary for m in members), Fraction(0)),
            score=sum((m.score for m in members), Fraction(0)),
            playing=sum(1 for m in members if m.table is not None and m.ranked),
        )
        for name, members in teams.items()
    ]


def _ranks(team_list, totals, spread, method):
    """Each team's worst and best rank when the teams' totals are ``totals``."""
    eps = Fraction(1, 1000)
    out = {}
    for a in team_list:
        worst = best = 1
        x = totals[a.team]
        for u in team_list:
            if u is a:
                continue
            y = totals[u.team]
            lo_a, hi_u = a.score - a.playing * spread, u.score + u.playing * spread + eps
            hi_a, lo_u = a.score + a.playing * spread, u.score - u.playing * spread
            if method == "table_points":
                worst += (u.primary + y, hi_u) > (a.primary + x, lo_a)
                best += (u.primary + y, lo_u) > (a.primary + x, hi_a)
            else:
                worst += u.primary + y + u.playing * spread + eps > a.primary + x - a.playing * spread
                best += u.primary + y - u.playing * spread > a.primary + x + a.playing * spread
        out[a.team] = (worst, best)
    return out


CASES = [(0, "mcr", 1), (1, "mcr", 10), (2, "ema-riichi-2016", 1000), (1, "ema-riichi-2016", 6000)]


@pytest.mark.parametrize(("seed", "ruleset_key", "spread"), CASES)
def test_team_needs_are_never_wrong(seed, ruleset_key, spread):
    contenders, outcomes, spread, method, _n = _case(seed, 8, ruleset_key, spread)
    teams = _teams(contenders, random.Random(seed))
    team_list = _team_contenders(teams)
    places = (1, 2, 3)
    got = {
        row.player: row
        for row in compute_team_needs(
            teams=team_list, outcomes=outcomes, spread=spread, method=method, places=places
        )
    }
    by_table = {}
    for c in contenders:
        if c.table is not None:
            by_table.setdefault(c.table, []).append(c)
    arrangements = _arrangements(tuple(Fraction(v) for v in vec) for vec in outcomes)
    seen = {}
    for combo in itertools.product(arrangements, repeat=len(by_table)):
        value = {}
        for t, arrangement in zip(sorted(by_table), combo, strict=True):
            for c, v in zip(by_table[t], arrangement, strict=True):
                value[c.player] = v
        totals = {
            name: sum((value.get(m.player, 0) for m in members if m.ranked), Fraction(0))
            for name, members in teams.items()
        }
        for team, (worst, best) in _ranks(team_list, totals, spread, method).items():
            key = (team, totals[team])
            old = seen.get(key, (0, 10**9))
            seen[key] = (max(old[0], worst), min(old[1], best))
    statuses = set()
    for (team, total), (worst, best) in seen.items():
        for k in places:
            need = got[team].need(k)
            statuses.add(need.status)
            if need.guaranteed is not None and total >= need.guaranteed:
                assert worst <= k, (team, total, k)
            if need.possible is None or total < need.possible:
                assert best > k, (team, total, k)
    assert len(statuses) >= 2


def test_a_team_far_ahead_is_safe_and_one_far_behind_is_out():
    teams = [
        TeamContender("a", "A", Fraction(40), Fraction(0), 2),
        TeamContender("b", "B", Fraction(20), Fraction(0), 2),
        TeamContender("c", "C", Fraction(19), Fraction(0), 2),
        TeamContender("d", "D", Fraction(5), Fraction(0), 2),
    ]
    outcomes = get_ruleset("mcr").session_outcomes().places
    got = {
        row.player: row
        for row in compute_team_needs(
            teams=teams, outcomes=outcomes, spread=Fraction(10), method="table_points", places=(1, 2, 3)
        )
    }
    assert got["a"].need(1).guaranteed == 0  # whatever its two members do
    assert got["d"].need(3).status == "out"  # 8 at most against 19 and 20
    # B, 1 ahead of C: C's members can make 8 more; B is sure of third... always (D cannot pass)
    assert got["b"].need(3).guaranteed == 0
    # and of second only with a total that C's 8 cannot pass: 8 (above 7; level counts against)
    assert got["b"].need(2).guaranteed == 8


# -- exact at the published tables -------------------------------------------------------------------


def _teams_of(contenders, rng, size):
    """Teams of ``size`` drawn among the players (the substitute apart); the players left over play for
    no team."""
    players = sorted(c.player for c in contenders if c.player != "s")
    rng.shuffle(players)
    by_key = {c.player: c for c in contenders}
    return {
        f"t{i // size}": [by_key[k] for k in players[i : i + size]]
        for i in range(0, len(players) - size + 1, size)
    }


def _seated_teams(teams):
    """The teams as the exact engine takes them: a member plays when he is seated and ranked."""
    return [
        TeamContender(
            team=name,
            name=name.upper(),
            primary=sum((m.primary for m in members), Fraction(0)),
            score=sum((m.score for m in members), Fraction(0)),
            playing=sum(1 for m in members if m.table is not None and m.ranked),
            tables=tuple(m.table for m in members if m.table is not None and m.ranked),
        )
        for name, members in teams.items()
    ]


def _every_total(contenders, teams, outcomes):
    """Every vector of the teams' totals the tables can give, times ``SCALE`` (each table every way of the
    places, in every order; the vectors of the tables added up)."""
    names = sorted(teams)
    team_of = {m.player: names.index(name) for name, members in teams.items() for m in members if m.ranked}
    by_table = {}
    for c in contenders:
        if c.table is not None:
            by_table.setdefault(c.table, []).append(c)
    arrangements = _arrangements(tuple(int(Fraction(v) * SCALE) for v in vec) for vec in outcomes)
    vectors = {(0,) * len(names)}
    for table in sorted(by_table):
        here = set()
        for arrangement in arrangements:
            got = [0] * len(names)
            for c, v in zip(by_table[table], arrangement, strict=False):
                if c.player in team_of:
                    got[team_of[c.player]] += v
            here.add(tuple(got))
        vectors = {tuple(a + b for a, b in zip(v, h, strict=True)) for v in vectors for h in here}
    return names, vectors


def _exact_brute(contenders, teams, team_list, outcomes, spread, method, places):
    """Each team's worst and best rank for each total it can make, over every outcome, at the scores'
    extremes (as ``_ranks``, in whole numbers); then the least totals as the engine defines them."""
    names, vectors = _every_total(contenders, teams, outcomes)
    by_name = {t.team: t for t in team_list}
    figures = [
        (
            int(by_name[n].primary * SCALE),
            int(by_name[n].score * SCALE),
            by_name[n].playing * int(spread * SCALE),
        )
        for n in names
    ]
    seen = {}
    for totals in vectors:
        for i, (P, S, band) in enumerate(figures):
            worst = best = 1
            for j, (Q, T, other) in enumerate(figures):
                if j == i:
                    continue
                mine, theirs, width = P + totals[i], Q + totals[j], band + other
                if method == "table_points":
                    worst += theirs > mine or (theirs == mine and width >= S - T)
                    best += theirs > mine or (theirs == mine and width < T - S)
                else:
                    worst += mine - theirs <= width
                    best += theirs - mine > width
            key = (i, totals[i])
            old = seen.get(key, (0, 10**9))
            seen[key] = (max(old[0], worst), min(old[1], best))
    answers = {}
    for i, name in enumerate(names):
        results = sorted(total for (team, total) in seen if team == i)
        for k in places:
            guaranteed = None
            for x in reversed(results):
                if seen[(i, x)][0] > k:
                    break
                guaranteed = x
            possible = next((x for x in results if seen[(i, x)][1] <= k), None)
            answers[(name, k)] = tuple(
                None if x is None else Fraction(x, SCALE) for x in (guaranteed, possible)
            )
    return answers


EXACT_CASES = [
    (seed, n, ruleset_key, spread, size)
    for seed, n, size in ((0, 8, 2), (1, 8, 3), (2, 12, 2), (3, 12, 3), (4, 12, 4))
    for ruleset_key, spread in (("mcr", 10), ("ema-riichi-2016", 4000))
]
EXACT_CASES += [(7, 8, "mcr", 1, 2), (8, 8, "ema-riichi-2016", 1000, 2), (9, 12, "mcr", 40, 2)]
EXACT_CASES += [
    (5, 16, "mcr", 10, 4),
    (5, 16, "ema-riichi-2016", 4000, 4),
    (6, 16, "ema-riichi-2016", 4000, 3),
]


@pytest.mark.parametrize(("seed", "n", "ruleset_key", "spread", "size"), EXACT_CASES)
def test_team_needs_at_the_tables_match_every_outcome(seed, n, ruleset_key, spread, size):
    """At the published tables the answer is exact: team mates and rivals sharing a table included."""
    contenders, outcomes, spread, method, _n = _case(seed, n, ruleset_key, spread)
    teams = _teams_of(contenders, random.Random(seed), size)
    team_list = _seated_teams(teams)
    places = (1, 2, 3)
    sizes = {}
    for c in contenders:
        if c.table is not None:
            sizes[c.table] = sizes.get(c.table, 0) + 1
    got, exact = compute_team_needs_at_tables(
        teams=team_list, sizes=sizes, outcomes=outcomes, spread=spread, method=method, places=places
    )
    assert exact
    want = _exact_brute(contenders, teams, team_list, outcomes, spread, method, places)
    assert {
        (row.player, need.place): (need.guaranteed, need.possible) for row in got for need in row.places
    } == want


def test_team_needs_at_the_tables_are_tighter_than_the_bound():
    """Team mates at one table cannot both win it: at the tables, fewer totals are open and a place the
    bound calls possible can be out of reach."""
    contenders, outcomes, spread, method, _n = _case(9, 12, "mcr", 40)
    teams = _teams_of(contenders, random.Random(9), 2)
    team_list = _seated_teams(teams)
    sizes = {}
    for c in contenders:
        if c.table is not None:
            sizes[c.table] = sizes.get(c.table, 0) + 1
    exact, _all = compute_team_needs_at_tables(
        teams=team_list, sizes=sizes, outcomes=outcomes, spread=spread, method=method, places=(1, 2, 3)
    )
    bound = compute_team_needs(
        teams=team_list, outcomes=outcomes, spread=spread, method=method, places=(1, 2, 3)
    )
    pairs = [(e.need(k), b.need(k)) for e, b in zip(exact, bound, strict=True) for k in (1, 2, 3)]
    for e, b in pairs:  # never looser than the bound
        assert b.possible is None or e.possible is None or e.possible >= b.possible
        assert e.guaranteed is None or b.guaranteed is None or e.guaranteed <= b.guaranteed
    assert any((e.guaranteed, e.possible) != (b.guaranteed, b.possible) for e, b in pairs)


def test_team_needs_past_the_work_limit_fall_back_to_a_sound_bound(monkeypatch):
    """With no room to search, the answers are the bound at the tables: sure is still sure, out of reach
    still out of reach, and the answer says it is not exact."""
    monkeypatch.setattr(needs_teams, "WORK_LIMIT", 0)
    contenders, outcomes, spread, method, _n = _case(2, 12, "mcr", 10)
    teams = _teams_of(contenders, random.Random(2), 2)
    team_list = _seated_teams(teams)
    sizes = {}
    for c in contenders:
        if c.table is not None:
            sizes[c.table] = sizes.get(c.table, 0) + 1
    got, exact = compute_team_needs_at_tables(
        teams=team_list, sizes=sizes, outcomes=outcomes, spread=spread, method=method, places=(1, 2, 3)
    )
    assert not exact
    want = _exact_brute(contenders, teams, team_list, outcomes, spread, method, (1, 2, 3))
    for row in got:
        for need in row.places:
            guaranteed, possible = want[(row.player, need.place)]
            if need.guaranteed is not None:
                assert guaranteed is not None and need.guaranteed >= guaranteed
            if possible is not None:
                assert need.possible is not None and need.possible <= possible
