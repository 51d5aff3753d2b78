"""Team standings: sums of the members' table points and scores, ties sharing the rank."""

from __future__ import annotations

import itertools
from fractions import Fraction

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rankings.standings.engine import printable
from rankings.standings.teams import TeamInfo, team_standings

F = Fraction


def test_sums_and_ranks_worked_by_hand():
    # Dragons: 4 + 2 + 1 + 0 = 7 TP, 30 + 12 + (-5) + (-20) = 17 points.
    # Tigers:  2 + 2 + 2 + 1 = 7 TP, 10 + 5 + 0 + 2 = 17 points  -> tied with Dragons: both 1st.
    # Cranes:  4 + 4 + 0 + 0 = 8 TP, -40 + ... = -10 points      -> more TP beats score: 1st alone.
    # Pandas:  1 + 1 + 1 + 1/2 = 3.5 TP                           -> 4th.
    figures = {
        "d1": (F(4), F(30)), "d2": (F(2), F(12)), "d3": (F(1), F(-5)), "d4": (F(0), F(-20)),
        "t1": (F(2), F(10)), "t2": (F(2), F(5)), "t3": (F(2), F(0)), "t4": (F(1), F(2)),
        "c1": (F(4), F(-40)), "c2": (F(4), F(20)), "c3": (F(0), F(5)), "c4": (F(0), F(5)),
        "p1": (F(1), F(1)), "p2": (F(1), F(1)), "p3": (F(1), F(1)), "p4": (F(1, 2), F(1, 3)),
    }  # fmt: skip
    teams = [
        TeamInfo(1, "Dragons", ("d1", "d2", "d3", "d4")),
        TeamInfo(2, "Tigers", ("t1", "t2", "t3", "t4")),
        TeamInfo(3, "Cranes", ("c1", "c2", "c3", "c4")),
        TeamInfo(4, "Pandas", ("p1", "p2", "p3", "p4")),
    ]
    ranked = team_standings(teams, figures, by_table_points=True)
    assert [(t.rank, t.name, t.table_points, t.score) for t in ranked] == [
        (1, "Cranes", F(8), F(-10)),
        (2, "Dragons", F(7), F(17)),
        (2, "Tigers", F(7), F(17)),
        (4, "Pandas", F(7, 2), F(10, 3)),
    ]
    document = [t.as_document(printable) for t in ranked]
    assert document[3] == {
        "rank": 4,
        "team": 4,
        "name": "Pandas",
        "table_points": 3.5,
        "score": 3.33,
        "members": ["p1", "p2", "p3", "p4"],
    }


def test_by_score_ignores_table_points_and_ties_share():
    # Riichi: score only. East: 45.5 + (-12) = 33.5; West: 20 + 13.5 = 33.5; North: 0 (no rows yet).
    figures = {"e1": (None, F(91, 2)), "e2": (None, F(-12)), "w1": (None, F(20)), "w2": (None, F(27, 2))}
    teams = [
        TeamInfo(7, "West", ("w1", "w2")),
        TeamInfo(8, "East", ("e1", "e2")),
        TeamInfo(9, "North", ("n1",)),
    ]
    ranked = team_standings(teams, figures, by_table_points=False)
    assert [(t.rank, t.name, t.table_points, t.score) for t in ranked] == [
        (1, "East", None, F(67, 2)),
        (1, "West", None, F(67, 2)),
        (3, "North", None, F(0)),
    ]


numbers = st.integers(-4000, 4000).map(lambda n: Fraction(n, 12))  # quarters and thirds of a point
relaxed = settings(suppress_health_check=[HealthCheck.too_slow], deadline=None)


@st.composite
def teams_and_figures(draw):
    size = draw(st.integers(1, 4))
    count = draw(st.integers(1, 6))
    teams, figures = [], {}
    for t in range(count):
        members = tuple(f"t{t}p{i}" for i in range(size))
        teams.append(TeamInfo(t, f"Team {t}", members))
        for key in members:
            figures[key] = (draw(numbers), draw(numbers))
    return teams, figures


@relaxed
@given(teams_and_figures(), st.booleans())
def test_a_team_total_is_its_members_sum(data, by_tp):
    teams, figures = data
    ranked = team_standings(teams, figures, by_table_points=by_tp)
    assert sorted(t.team for t in ranked) == sorted(t.team for t in teams)
    for row in ranked:
        members = next(t.members for t in teams if t.team == row.team)
        assert row.score == sum(figures[k][1] for k in members)
        if by_tp:
            assert row.table_points == sum(figures[k][0] for k in members)
        else:
            assert row.table_points is None
    # The grand total is every player's figures added once.
    assert sum(r.score for r in ranked) == sum(s for _, s in figures.values())


@relaxed
@given(teams_and_figures(), st.booleans(), st.randoms())
def test_ranks_ignore_team_order_and_ties_share(data, by_tp, rnd):
    teams, figures = data
    ranked = team_standings(teams, figures, by_table_points=by_tp)
    shuffled = list(teams)
    rnd.shuffle(shuffled)
    assert team_standings(shuffled, figures, by_table_points=by_tp) == ranked

    def key(row):
        return (row.table_points or 0, row.score)

    for position, row in enumerate(ranked, start=1):
        better = sum(1 for other in ranked if key(other) > key(row))
        assert row.rank == better + 1  # standard competition ranking: 1, 1, 3
        assert row.rank <= position
    assert all(key(a) >= key(b) for a, b in itertools.pairwise(ranked))
