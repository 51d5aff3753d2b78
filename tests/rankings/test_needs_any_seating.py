"""What a player needs before the session's seating is published, checked against every seating and every
outcome of small tournaments: the same standings as ``test_needs_engine`` (ties, penalties, a disqualified
player), every ranked player playing, a substitute filling the last table, the players split into tables
of four in every way."""

from __future__ import annotations

import itertools
import random
from fractions import Fraction

import pytest

from rankings.standings.needs import check_places
from rankings.standings.needs_seating import (
    _drop,
    _mirror,
    _most_placed,
    compute_needs_any_seating,
    tables_for,
)
from scoring.rules.registry import get_ruleset
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


def _most_by_every_choice(levels, free, own, ways):
    """The most rivals seated at or above their level, trying every way for p's table and every multiset
    of ways for the other tables, each time pairing the j easiest rivals with the j best seats."""
    best = 0
    for mine in own:
        for combo in itertools.combinations_with_replacement(ways, free):
            seats = sorted((*mine, *(v for way in combo for v in way)), reverse=True)
            for j in range(min(len(levels), len(seats)), best, -1):
                if all(
                    level <= seat
                    for level, seat in zip(sorted(levels[:j], reverse=True), seats, strict=False)
                ):
                    best = j
                    break
    return best


@pytest.mark.parametrize("mirrored", [False, True])
@pytest.mark.parametrize("ruleset_key", ["mcr", "ema-riichi-2016"])
def test_the_packing_of_rivals_into_tables_is_the_best_of_every_choice_of_ways(ruleset_key, mirrored):
    """Larger tournaments than the brute force above can enumerate (3 to 5 tables): the search's packing
    is the best over every choice of the tables' ways (``mirrored``: seen from below, for "possible")."""
    outcomes = get_ruleset(ruleset_key).session_outcomes().places
    values = sorted({Fraction(v) for vec in outcomes for v in vec})
    ways = tuple(sorted({tuple(sorted(values.index(Fraction(v)) for v in vec)) for vec in outcomes}))
    top = len(values) - 1
    if mirrored:
        ways = tuple(sorted({_mirror(way, top) for way in ways}))
    rng = random.Random(7)
    for _case_number in range(150):
        free = rng.randint(2, 4)
        mine = rng.randrange(len(values))
        own = tuple(sorted({_drop(way, mine) for way in ways if mine in way}))
        levels = tuple(sorted(rng.randint(1, top) for _ in range(rng.randint(free + 1, 4 * free + 3))))
        assert _most_placed(levels, free, own, ways, top) == _most_by_every_choice(levels, free, own, ways), (
            levels,
            free,
            mine,
        )
