"""What a player needs in one session, checked against every outcome of small tournaments.

Each case draws a tournament of 8 or 12 players before its last session (table points, scores, ties,
penalties recorded, a disqualified player, an absent player whose substitute plays), takes the standings
the standings engine computes, and compares what ``compute_needs`` answers with a brute force that
enumerates every outcome of every table (each way of the places, in every order) and ranks each player
by the model's extremes of the score: against him (his score at the low end, the others' at the high end,
a hair above) for a guarantee, for him for a possibility.
"""

from __future__ import annotations

import itertools
import random
from fractions import Fraction

import pytest

from rankings.standings.engine import (
    PlayerInfo,
    ScorePenalty,
    SessionRow,
    TablePointsPenalty,
    compute_standings,
)
from rankings.standings.needs import Contender, check_places, compute_needs
from scoring.rules.registry import get_ruleset

EPS = Fraction(1, 1000)
SCALE = 12000  # every value and total here is a multiple of 1/12: the brute force counts in whole numbers


def _arrangements(vectors):
    seen = set()
    for vector in vectors:
        for perm in itertools.permutations(vector):
            seen.add(perm)
    return sorted(seen)


def _prior(rng, n, method, *, disqualified, penalties):
    """Players, their standings before the last session (the real standings engine) and the seating."""
    players = [PlayerInfo(player=f"p{i}", name=f"Player {i:02d}") for i in range(n)]
    players[disqualified] = PlayerInfo(
        player=f"p{disqualified}", name=f"Player {disqualified:02d}", disqualified=True
    )
    rows = []
    for i in range(n):
        tp = Fraction(rng.choice([0, 1, 2, 3, 4, 5, 6, 7, 8, 5, 6]), rng.choice([1, 1, 1, 2, 3]))
        score = rng.choice([-30, -10, 0, 0, 10, 20, 30, 40]) * (1000 if method == "score" else 1)
        rows.append(
            SessionRow(
                player=f"p{i}",
                session=1,
                table=1,
                seat_wind="E",
                opponents=(),
                game_score=score,
                table_points=tp if method == "table_points" else None,
                uma=None,
                transfers=0,
                chombo=0,
                penalties=0,
                final=score,
            )
        )
    tp_pen = (
        [TablePointsPenalty(player=f"p{i}", session=1, points=-1) for i in penalties]
        if method == "table_points"
        else []
    )
    sc_pen = [
        ScorePenalty(player=f"p{i}", session=1, points=-10 * (1000 if method == "score" else 1))
        for i in penalties
    ]
    standings = compute_standings(
        players=players, rows=rows, method=method, table_points_penalties=tp_pen, score_penalties=sc_pen
    )
    return standings


def _case(seed, n, ruleset_key, spread):
    rng = random.Random(seed)
    rules = get_ruleset(ruleset_key)
    method = rules.ranks_by
    outcomes = rules.session_outcomes().places
    disqualified = rng.randrange(n)
    standings = _prior(rng, n, method, disqualified=disqualified, penalties=rng.sample(range(n), 2))
    order = list(range(n))
    rng.shuffle(order)
    tables = {}
    # order[0] is absent from the session: a substitute ("s") takes his seat
    seated = [f"p{i}" for i in order[1:]] + ["s"]
    rng.shuffle(seated)
    for t in range(n // 4):
        for key in seated[4 * t : 4 * t + 4]:
            tables[key] = t + 1
    contenders = []
    for row in (*standings.rows, *standings.withdrawn):
        contenders.append(
            Contender(
                player=row.player,
                name=row.name,
                primary=row.table_points if method == "table_points" else row.score,
                score=row.score,
                table=tables.get(row.player),
                ranked=not row.disqualified,
            )
        )
    contenders.append(
        Contender(
            player="s", name="Sub", primary=Fraction(0), score=Fraction(0), table=tables["s"], ranked=False
        )
    )
    return contenders, outcomes, Fraction(spread), method, n


def _rank(p, r, finals, rivals, method, spread, against, eps=EPS):
    """p's rank when the scores fall at the model's extreme against him (``against``) or for him."""
    P, S = finals[p]
    sign = -1 if against else 1
    ahead = 0
    for Q, T, v in rivals.values():
        lift = -sign * spread + (eps if against else 0)
        if method == "table_points":
            ahead += (Q + v, T + lift) > (P + r, S + sign * spread)
        else:
            ahead += Q + v + lift > P + r + sign * spread
    return ahead + 1


def _brute(contenders, outcomes, spread, method, places):
    by_table = {}
    for c in contenders:
        if c.table is not None:
            by_table.setdefault(c.table, []).append(c)
    tables = sorted(by_table)
    arrangements = _arrangements(tuple(int(Fraction(v) * SCALE) for v in vec) for vec in outcomes)
    whole = int(spread * SCALE)

    def w(x):
        return int(x * SCALE)

    ranked = [c for c in contenders if c.ranked]
    worst = {}  # (p, r) -> worst rank
    best = {}
    for combo in itertools.product(arrangements, repeat=len(tables)):
        value = {}
        for t, arrangement in zip(tables, combo, strict=True):
            for c, v in zip(by_table[t], arrangement, strict=False):
                value[c.player] = v
        for p in ranked:
            r = value.get(p.player, 0)
            rivals = {
                q.player: (w(q.primary), w(q.score), value.get(q.player, 0)) for q in ranked if q is not p
            }
            finals = {p.player: (w(p.primary), w(p.score))}
            lo = _rank(p.player, r, finals, rivals, method, whole, True, eps=SCALE // 1000)
            hi = _rank(p.player, r, finals, rivals, method, whole, False)
            key = (p.player, r)
            worst[key] = max(worst.get(key, 0), lo)
            best[key] = min(best.get(key, 10**9), hi)
    answers = {}
    for p in ranked:
        results = sorted(r for (q, r) in worst if q == p.player)
        for k in places:
            guaranteed = None
            for r in reversed(results):
                if worst[(p.player, r)] <= k:
                    guaranteed = r
                else:
                    break
            possible = next((r for r in results if best[(p.player, r)] <= k), None)
            answers[(p.player, k)] = tuple(
                None if x is None else Fraction(x, SCALE) for x in (guaranteed, possible)
            )
    return answers


CASES = [(seed, 8, "mcr", spread) for seed in range(5) for spread in (5, 40)]
CASES += [(seed, 8, "ema-riichi-2016", spread) for seed in range(5) for spread in (3000, 12000)]


@pytest.mark.parametrize(("seed", "n", "ruleset_key", "spread"), CASES)
def test_needs_match_every_outcome(seed, n, ruleset_key, spread):
    contenders, outcomes, spread, method, players = _case(seed, n, ruleset_key, spread)
    places = check_places((1, 2, 3, 5), players)
    got = compute_needs(contenders=contenders, outcomes=outcomes, spread=spread, method=method, places=places)
    want = _brute(contenders, outcomes, spread, method, places)
    assert {
        (row.player, need.place): (need.guaranteed, need.possible) for row in got for need in row.places
    } == want
    # the cases are not all alike: some places are safe, some need a result, some are out of reach
    statuses = {need.status for row in got for need in row.places}
    assert len(statuses) >= 2


@pytest.mark.parametrize("seed", range(1))
def test_needs_match_every_outcome_twelve_players_strict_places(seed):
    """12 players, riichi with ties broken by seat (24 orders per table, 13,824 outcomes)."""
    rules = get_ruleset("ema-riichi-2016").with_overrides({"ties": "seat"})
    contenders, _, spread, method, players = _case(100 + seed, 12, "ema-riichi-2016", 8000)
    outcomes = rules.session_outcomes().places
    assert len(outcomes) == 1
    places = check_places((1, 2, 3, 6), players)
    got = compute_needs(contenders=contenders, outcomes=outcomes, spread=spread, method=method, places=places)
    want = _brute(contenders, outcomes, spread, method, places)
    assert {
        (row.player, need.place): (need.guaranteed, need.possible) for row in got for need in row.places
    } == want


def test_brute_force_ranks_as_the_standings_engine():
    """The brute force's rank (extreme scores, no tie-break) is the standings engine's rank of the same
    totals, table points first."""
    contenders, _outcomes, spread, method, _n = _case(7, 8, "mcr", 40)
    ranked = [c for c in contenders if c.ranked]
    p = ranked[0]
    values = dict(
        zip([c.player for c in ranked], itertools.cycle([Fraction(4), Fraction(2), Fraction(1), Fraction(0)]))
    )
    rivals = {q.player: (q.primary, q.score, values[q.player]) for q in ranked if q is not p}
    rank = _rank(p.player, values[p.player], {p.player: (p.primary, p.score)}, rivals, method, spread, True)
    rows = []
    for c in ranked:
        mine = c is p
        score = c.score + (-spread if mine else spread + EPS)
        rows.append(
            SessionRow(
                player=c.player,
                session=1,
                table=1,
                seat_wind="E",
                opponents=(),
                game_score=0,
                table_points=c.primary + values[c.player],
                uma=None,
                transfers=0,
                chombo=0,
                penalties=0,
                final=score,
            )
        )
    standings = compute_standings(
        players=[PlayerInfo(player=c.player, name=c.name) for c in ranked], rows=rows, method="table_points"
    )
    assert standings.row(p.player).rank == rank


def test_a_leader_out_of_reach_is_safe_and_the_last_is_out():
    """Ten table points clear with a session to go: the leader is first whatever happens; the last, ten
    behind everybody, can finish nowhere near the podium."""
    rules = get_ruleset("mcr")
    contenders = [
        Contender(player=f"p{i}", name=f"P{i}", primary=Fraction(tp), score=Fraction(0), table=1 + i // 4)
        for i, tp in enumerate([20, 10, 10, 9, 9, 8, 8, 0])
    ]
    got = {
        row.player: row
        for row in compute_needs(
            contenders=contenders,
            outcomes=rules.session_outcomes().places,
            spread=rules.session_spread(),
            method="table_points",
            places=(1, 3),
        )
    }
    assert got["p0"].safe(1)
    assert got["p7"].need(3).status == "out"
    # 10 points, at the leader's table: only a win (4) keeps his table mate on 10 and the 9 at the other
    # table from passing him (a shared first, 3, lets both reach 13); even a last place keeps third
    # possible (the leader 4, his mates 2 and 1: 12 ahead, 10 level, decided by the score)
    assert got["p1"].need(3).guaranteed == 4
    assert got["p1"].need(3).possible == 0
    assert got["p1"].need(1).status == "out"


def _table_by_table(contenders, outcomes, spread, method, places):
    """The same answers counted table by table (tables are independent): at each table every way of the
    places in every order, the most rivals not surely behind and the fewest surely ahead; for tournaments
    too large to enumerate whole."""
    arrangements = _arrangements(tuple(Fraction(v) for v in vec) for vec in outcomes)
    values = sorted({v for a in arrangements for v in a})
    band = 2 * spread
    ranked = [c for c in contenders if c.ranked]

    def ahead(a, va, b, vb):
        if method == "table_points":
            return a.primary + va > b.primary + vb or (
                a.primary + va == b.primary + vb and a.score - b.score > band
            )
        return a.primary + va - b.primary - vb > band

    by_table = {}
    for c in contenders:
        if c.table is not None:
            by_table.setdefault(c.table, []).append(c)
    answers = {}
    for p in ranked:
        results = values if p.table is not None else [Fraction(0)]
        most, fewest = {}, {}
        for r in results:
            hi = lo = 0
            for q in ranked:
                if q is not p and q.table is None:
                    hi += not ahead(p, r, q, 0)
                    lo += ahead(q, 0, p, r)
            for table, members in by_table.items():
                options = [a for a in arrangements if table != p.table or a[members.index(p)] == r]
                counts = [
                    (
                        sum(
                            not ahead(p, r, q, v)
                            for q, v in zip(members, a, strict=False)
                            if q.ranked and q is not p
                        ),
                        sum(
                            ahead(q, v, p, r)
                            for q, v in zip(members, a, strict=False)
                            if q.ranked and q is not p
                        ),
                    )
                    for a in options
                ]
                hi += max(c[0] for c in counts)
                lo += min(c[1] for c in counts)
            most[r], fewest[r] = hi, lo
        for k in places:
            guaranteed = None
            for r in reversed(results):
                if most[r] < k:
                    guaranteed = r
                else:
                    break
            answers[(p.player, k)] = (guaranteed, next((r for r in results if fewest[r] < k), None))
    return answers


@pytest.mark.parametrize(
    ("seed", "ruleset_key", "spread"), [(200, "mcr", 20), (201, "ema-riichi-2016", 6000)]
)
def test_needs_of_a_larger_tournament_match_the_count_table_by_table(seed, ruleset_key, spread):
    """32 players: the shortcuts for players far from a place (whole tables skipped) change no answer."""
    contenders, outcomes, spread, method, players = _case(seed, 32, ruleset_key, spread)
    places = check_places((1, 2, 3, 8, 16), players)
    got = compute_needs(contenders=contenders, outcomes=outcomes, spread=spread, method=method, places=places)
    want = _table_by_table(contenders, outcomes, spread, method, places)
    assert {
        (row.player, need.place): (need.guaranteed, need.possible) for row in got for need in row.places
    } == want
