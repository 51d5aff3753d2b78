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

from rankings.standings.needs_teams import TeamContender, compute_team_needs
from scoring.rules.registry import get_ruleset
from tests.rankings.test_needs_engine import _arrangements, _case


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
