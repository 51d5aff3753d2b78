"""Schedules whose every session is fixed by translations: the search that seats 32 players over
10 sessions without a repeat."""

from __future__ import annotations

import itertools
import random
from collections import Counter

import pytest

from tests.seating.helpers import assert_every_player_once, meetings
from tournaments.seating.engine.groups import AbelianGroup
from tournaments.seating.engine.invariant import _Budget, _Cover, _Shape, _usable, invariant_design


@pytest.mark.parametrize("orders", [(2, 2, 2), (4, 2), (8,), (3, 3)])
def test_every_candidate_session_seats_each_player_once_and_meets_the_pairs_it_claims(orders):
    shape = _Shape(AbelianGroup(orders))
    n = 4 * shape.m
    pool = shape.candidates(frozenset())
    assert len(pool) == shape.candidate_count()
    sizes = Counter(shape.orbit(p, q) for p, q in itertools.combinations(range(n), 2))
    for mask, tables in pool[::7]:
        session = shape.session(tables)
        assert_every_player_once([session], range(n))
        met = {shape.orbit(p, q) for table in session for p, q in itertools.combinations(table, 2)}
        assert met == {o for o in range(len(shape.orbit_id)) if mask >> o & 1}
        # A session meets every pair of each orbit it touches: 6 pairs a table.
        assert sum(sizes[o] for o in met) == 6 * len(session)


def test_thirty_two_players_every_session_is_fixed_by_the_translations():
    template = invariant_design(32, 10)
    assert template is not None and len(template) == 10
    assert_every_player_once(template, range(32))
    assert max(meetings(template).values()) == 1
    group = AbelianGroup((2, 2, 2))
    for session in template:
        tables = {frozenset(t) for t in session}
        for g in range(8):
            moved = {frozenset((p // 8) * 8 + group.add[p % 8][g] for p in t) for t in session}
            assert moved == tables


def test_the_search_is_reproducible_and_gives_fewer_sessions_on_request():
    assert invariant_design(32, 10) == invariant_design(32, 10)
    assert invariant_design(32, 6) == invariant_design(32, 10)[:6]


@pytest.mark.parametrize(("n", "sessions"), [(32, 11), (30, 5), (12, 3)])
def test_sizes_it_cannot_seat_get_nothing(n, sessions):
    # 11 sessions would need 33 opponents out of 31; tables of four need a multiple of four.
    assert invariant_design(n, sessions) is None


def test_a_shape_without_a_solution_is_given_up_at_once_and_a_long_search_is_cut_short():
    # 28 players over Z7: two players of one type meet only at a table holding two of the type,
    # which needs a translation of order 2 or a subgroup of order 4; Z7 has neither, so the cover
    # ends at its first node, proving there is none.
    shape = _Shape(AbelianGroup((7,)))
    pool = shape.candidates(frozenset())
    cover = _Cover(list(range(len(shape.orbit_id))), [mask for mask, _ in pool])
    assert cover.run(random.Random(0), nodes=1) is None
    # 32 players: a solution needs at least 11 nodes (10 sessions and the end), so 5 run out.
    shape = _Shape(AbelianGroup((2, 2, 2)))
    leave = shape.leaves(1)[0]
    pool = shape.candidates(leave)
    items = [o for o in range(len(shape.orbit_id)) if o not in leave]
    with pytest.raises(_Budget):
        _Cover(items, [mask for mask, _ in pool]).run(random.Random(0), nodes=5)


@pytest.mark.parametrize(("orders", "d"), [((8,), 1), ((3, 3), 1), ((2, 3), 2), ((4, 4), 1)])
def test_differences_of_order_other_than_two_or_four_inside_a_type_are_never_met(orders, d):
    # Why the search skips such groups before listing anything: players x and x + d of one type
    # never share a table in any invariant session (for Z4 x Z4, d = 1 has order 4 and is met).
    shape = _Shape(AbelianGroup(orders))
    orbit = shape.orbit(0, d)
    met = any(mask >> orbit & 1 for mask, _ in shape.candidates(frozenset()))
    assert met == (orders == (4, 4))
    assert _usable(orders) == (orders == (4, 4))
