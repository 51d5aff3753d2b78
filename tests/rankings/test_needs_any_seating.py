"""What a player needs before the session's seating is published, checked against every seating and every
outcome of small tournaments: the same standings as ``test_needs_engine`` (ties, penalties, a disqualified
player), every ranked player playing, a substitute filling the last table, the players split into tables
of four in every way."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest

from rankings.standings.needs import check_places
from rankings.standings.needs_seating import compute_needs_any_seating, tables_for
from tests.rankings.test_needs_engine import SCALE, _arrangements, _case, _rank


def _seatings(persons):
    """Every split of ``persons`` into tables of four (the tables' order does not matter)."""
    if not persons:
        yield ()
        return
    first, rest = persons[0], persons[1:]
    for mates in itertools.combinations(rest, 3):
        left = [q for q in rest if q not in mates]
        for others in _seatings(left):
            yield ((first, *mates), *others)


def _brute_any(contenders, outcomes, spread, method, places):
    ranked = [c for c in contenders if c.ranked]
    persons = [c.player for c in ranked]
    persons += [f"sub{i}" for i in range(4 * tables_for(len(ranked)) - len(ranked))]
    arrangements = _arrangements(tuple(int(Fraction(v) * SCALE) for v in vec) for vec in outcomes)
    index = {c.player: i for i, c in enumerate(ranked)}
    assignments = set()
    for seating in _seatings(persons):
        for combo in itertools.product(arrangements, repeat=len(seating)):
            value = [0] * len(ranked)
            for table, arrangement in zip(seating, combo, strict=True):
                for key, v in zip(table, arrangement, strict=True):
                    if key in index:
                        value[index[key]] = v
            assignments.add(tuple(value))
    whole = int(spread * SCALE)
    worst, best = {}, {}
    figures = [(int(c.primary * SCALE), int(c.score * SCALE)) for c in ranked]
    for value in assignments:
        for i, p in enumerate(ranked):
            rivals = {q.player: (*figures[j], value[j]) for j, q in enumerate(ranked) if j != i}
            finals = {p.player: figures[i]}
            key = (p.player, value[i])
            lo = _rank(p.player, value[i], finals, rivals, method, whole, True, eps=SCALE // 1000)
            hi = _rank(p.player, value[i], finals, rivals, method, whole, False)
            worst[key] = max(worst.get(key, 0), lo)
            best[key] = min(best.get(key, 10**9), hi)
    answers = {}
    for p in ranked:
        results = sorted(r for (q, r) in worst if q == p.player)
        for k in places:
            guaranteed = None
            for r in reversed(results):
                if worst[(p.player, r)] > k:
                    break
                guaranteed = r
            possible = next((r for r in results if best[(p.player, r)] <= k), None)
            answers[(p.player, k)] = tuple(
                None if x is None else Fraction(x, SCALE) for x in (guaranteed, possible)
            )
    return answers


CASES = [(0, "mcr", 5), (2, "mcr", 40), (1, "ema-riichi-2016", 3000), (2, "ema-riichi-2016", 12000)]


@pytest.mark.parametrize(("seed", "ruleset_key", "spread"), CASES)
def test_needs_for_any_seating_match_every_seating_and_outcome(seed, ruleset_key, spread):
    contenders, outcomes, spread, method, players = _case(seed, 8, ruleset_key, spread)
    places = check_places((1, 2, 3, 5), players)
    got = compute_needs_any_seating(
        contenders=contenders, outcomes=outcomes, spread=spread, method=method, places=places
    )
    want = _brute_any(contenders, outcomes, spread, method, places)
    assert {
        (row.player, need.place): (need.guaranteed, need.possible) for row in got for need in row.places
    } == want
    assert len({need.status for row in got for need in row.places}) >= 2
