"""Standings from session rows: ordering, tie-breaks, irregular players and the printed document."""

from __future__ import annotations

import itertools
import random
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rankings.standings.engine import (
    TIEBREAKS,
    PlayerInfo,
    ScorePenalty,
    SessionRow,
    TablePointsPenalty,
    compute_standings,
    method_of,
    printable,
)
from scoring.rules.base import RuleError
from scoring.rules.registry import RULESET_KEYS, get_ruleset

# -- helpers ---------------------------------------------------------------------------------------


def mcr_table_points(scores: list[int]) -> list[Fraction]:
    """4/2/1/0 by rank, tied players sharing the points of the places they occupy."""
    points = [4, 2, 1, 0]
    ordered = sorted(range(4), key=lambda i: -scores[i])
    result: list[Fraction] = [Fraction(0)] * 4
    start = 0
    while start < 4:
        end = start
        while end + 1 < 4 and scores[ordered[end + 1]] == scores[ordered[start]]:
            end += 1
        share = Fraction(sum(points[start : end + 1]), end - start + 1)
        for k in range(start, end + 1):
            result[ordered[k]] = share
        start = end + 1
    return result


def mcr_table(session: int, table: int, seats: dict[str, int], penalties: dict[str, int] | None = None):
    """The four rows of an MCR table from the game scores in seat order (offender-only deductions
    lower the final value, not the table points)."""
    penalties = penalties or {}
    players = list(seats)
    scores = list(seats.values())
    points = mcr_table_points(scores)
    return [
        SessionRow(
            player=p,
            session=session,
            table=table,
            seat_wind="ESWN"[i],
            opponents=tuple(o for o in players if o != p),
            game_score=scores[i],
            table_points=points[i],
            uma=None,
            transfers=0,
            chombo=0,
            penalties=penalties.get(p, 0),
            final=scores[i] + penalties.get(p, 0),
        )
        for i, p in enumerate(players)
    ]


def riichi_table(
    session: int, table: int, seats: dict[str, tuple[int, int]], chombo: dict[str, int] | None = None
):
    """Rows of a riichi table from (raw end points, final after uma) per seat."""
    chombo = chombo or {}
    players = list(seats)
    return [
        SessionRow(
            player=p,
            session=session,
            table=table,
            seat_wind="ESWN"[i],
            opponents=tuple(o for o in players if o != p),
            game_score=raw,
            table_points=None,
            uma=final - (raw - 30000),
            transfers=0,
            chombo=chombo.get(p, 0),
            penalties=0,
            final=final + chombo.get(p, 0),
        )
        for i, (p, (raw, final)) in enumerate(seats.items())
    ]


def infos(rows, **special: PlayerInfo) -> list[PlayerInfo]:
    keys = sorted({r.player for r in rows} | set(special))
    return [special.get(k, PlayerInfo(k, k.upper())) for k in keys]


def ranks(standings) -> dict[str, int]:
    return {row.player: row.rank for row in standings.rows}


def mcr(rows, tiebreaks=(), **kwargs):
    players = kwargs.pop("players", None) or infos(rows)
    return compute_standings(players=players, rows=rows, method="table_points", tiebreaks=tiebreaks, **kwargs)


# -- ordering ----------------------------------------------------------------------------------------


def test_the_ruleset_decides_the_ranking_method():
    assert method_of(get_ruleset("mcr")) == "table_points"
    assert {method_of(get_ruleset(k)) for k in RULESET_KEYS if not k.startswith("mcr")} == {"score"}


def test_mcr_ranks_by_table_points_before_score():
    rows = mcr_table(1, 1, {"a": 10, "b": 200, "c": -100, "d": -110}) + mcr_table(
        2, 1, {"a": 20, "b": -150, "c": 140, "d": -10}
    )
    standings = mcr(rows)
    # a: 2 + 2 = 4 TP, score 30; b: 4 + 0 = 4 TP, score 50; c: 1 + 4 = 5 TP, score 40; d: 0 + 1 = 1
    assert [(r.player, r.table_points, r.score) for r in standings.rows] == [
        ("c", 5, 40),
        ("b", 4, 50),
        ("a", 4, 30),
        ("d", 1, -120),
    ]
    assert [r.rank for r in standings.rows] == [1, 2, 3, 4]


def test_shared_table_points_add_up_exactly():
    # +40/+40/+40/-120 gives 7/3 each; three such sessions make exactly 7, never 6.99.
    rows = list(
        itertools.chain.from_iterable(
            mcr_table(s, 1, {"a": 40, "b": 40, "c": 40, "d": -120}) for s in (1, 2, 3)
        )
    )
    standings = mcr(rows)
    assert standings.row("a").table_points == 7
    assert standings.row("a").table_points.denominator == 1


def test_equal_on_every_key_share_the_best_rank_1_2_2_4():
    rows = mcr_table(1, 1, {"a": 60, "b": 10, "c": 10, "d": -80})
    standings = mcr(rows)
    assert [(r.player, r.rank) for r in standings.rows] == [("a", 1), ("b", 2), ("c", 2), ("d", 4)]
    assert standings.row("b").table_points == Fraction(3, 2)


# -- tie-breaks --------------------------------------------------------------------------------------


def _filler(prefix: str, scores: list[int]) -> dict[str, int]:
    return {f"{prefix}{i}": s for i, s in enumerate(scores)}


def test_first_places_break_a_tie_on_table_points_and_score():
    # a: first then last (4 + 0), b: second twice (2 + 2); both end on 4 TP and score 0.
    rows = (
        mcr_table(1, 1, {"a": 50, **_filler("x", [20, -30, -40])})
        + mcr_table(1, 2, {"b": 10, **_filler("y", [30, -15, -25])})
        + mcr_table(2, 1, {"a": -50, **_filler("z", [30, 20, 0])})
        + mcr_table(2, 2, {"b": -10, **_filler("w", [40, -15, -15])})
    )
    assert ranks(mcr(rows))["a"] == ranks(mcr(rows))["b"]
    standings = mcr(rows, tiebreaks=["first_places"])
    assert ranks(standings)["a"] + 1 == ranks(standings)["b"]
    assert standings.row("a").tiebreak("first_places") == 1
    assert standings.row("b").tiebreak("first_places") == 0


def test_best_session_decides_after_first_places_tie():
    # Both won one session and lost the other: equal TP (4), score (0) and first places (1);
    # b's win was the bigger one.
    rows = (
        mcr_table(1, 1, {"a": 30, **_filler("x", [20, -20, -30])})
        + mcr_table(1, 2, {"b": 60, **_filler("y", [20, -30, -50])})
        + mcr_table(2, 1, {"a": -30, **_filler("z", [30, 0, 0])})
        + mcr_table(2, 2, {"b": -60, **_filler("w", [40, 10, 10])})
    )
    standings = mcr(rows, tiebreaks=["first_places", "best_session"])
    assert ranks(standings)["b"] < ranks(standings)["a"]
    assert standings.row("b").tiebreak("best_session") == (True, 4, 60)
    assert (
        mcr(rows, tiebreaks=["first_places"]).row("a").rank
        == mcr(rows, tiebreaks=["first_places"]).row("b").rank
    )


def test_head_to_head_counts_only_sessions_where_the_tied_players_met():
    rows = (
        # session 1: a and b meet; a takes 4, b 2
        mcr_table(1, 1, {"a": 40, "b": 20, "x1": -20, "x2": -40})
        # session 2 and 3 apart: a 0 + 2, b 2 + 2 -> both 6 TP, both score 10
        + mcr_table(2, 1, {"a": -40, **_filler("y", [30, 20, -10])})
        + mcr_table(2, 2, {"b": 10, **_filler("z", [30, -15, -25])})
        + mcr_table(3, 1, {"a": 10, **_filler("v", [30, -15, -25])})
        + mcr_table(3, 2, {"b": -20, **_filler("w", [70, -25, -25])})
    )
    plain = mcr(rows)
    assert (plain.row("a").table_points, plain.row("a").score) == (
        plain.row("b").table_points,
        plain.row("b").score,
    )
    assert plain.row("a").rank == plain.row("b").rank
    standings = mcr(rows, tiebreaks=["head_to_head"])
    assert standings.row("a").rank + 1 == standings.row("b").rank
    assert standings.row("a").tiebreak("head_to_head") == 4
    assert standings.row("b").tiebreak("head_to_head") == 2
    # a player who was not tied with anybody has no head-to-head value
    assert standings.row("x1").tiebreak("head_to_head") is None


def test_head_to_head_leaves_players_who_never_met_tied_for_the_next_tie_break():
    rows = (
        mcr_table(1, 1, {"a": 40, **_filler("x", [20, -20, -40])})
        + mcr_table(1, 2, {"b": 60, **_filler("y", [20, -30, -50])})
        + mcr_table(2, 1, {"a": -40, **_filler("z", [30, 20, -10])})
        + mcr_table(2, 2, {"b": -60, **_filler("w", [30, 20, 10])})
    )
    only_h2h = mcr(rows, tiebreaks=["head_to_head"])
    assert only_h2h.row("a").rank == only_h2h.row("b").rank
    assert only_h2h.row("a").tiebreak("head_to_head") == 0
    then_best = mcr(rows, tiebreaks=["head_to_head", "best_session"])
    assert then_best.row("b").rank < then_best.row("a").rank


def test_fewer_penalties_puts_the_cleaner_player_first():
    # a scored 10 more at the table but lost 10 to a foul: same TP, same score as b.
    rows = mcr_table(1, 1, {"a": 50, **_filler("x", [20, -30, -40])}, penalties={"a": -10}) + mcr_table(
        1, 2, {"b": 40, **_filler("y", [20, -30, -30])}
    )
    plain = mcr(rows)
    assert plain.row("a").score == plain.row("b").score == 40
    assert plain.row("a").rank == plain.row("b").rank
    standings = mcr(rows, tiebreaks=["fewer_penalties"])
    assert standings.row("b").rank < standings.row("a").rank
    assert standings.row("a").penalties == -10


def test_tie_break_order_is_the_directors_choice():
    # Equal on table points (8) and score (0); a has more first places (2 against 1), b the better
    # best session (4 TP with +100 against 4 TP with +10).
    rows = (
        mcr_table(1, 1, {"a": 10, **_filler("x", [5, -5, -10])})
        + mcr_table(1, 2, {"b": 100, **_filler("y", [20, -50, -70])})
        + mcr_table(2, 1, {"a": 10, **_filler("z", [5, -5, -10])})
        + mcr_table(2, 2, {"b": -40, **_filler("w", [150, -50, -60])})
        + mcr_table(3, 1, {"a": -20, **_filler("v", [20, 5, -5])})
        + mcr_table(3, 2, {"b": -60, **_filler("u", [200, -70, -70])})
    )
    plain = mcr(rows)
    assert (plain.row("a").table_points, plain.row("a").score) == (8, 0)
    assert (plain.row("b").table_points, plain.row("b").score) == (8, 0)
    firsts_first = mcr(rows, tiebreaks=["first_places", "best_session"])
    assert firsts_first.row("a").rank < firsts_first.row("b").rank
    best_first = mcr(rows, tiebreaks=["best_session", "first_places"])
    assert best_first.row("b").rank < best_first.row("a").rank


def test_unknown_tie_break_is_refused_with_its_position():
    with pytest.raises(RuleError) as exc:
        mcr([], tiebreaks=["first_places", "coin_toss"])
    assert exc.value.path == "tiebreaks[1]"
    assert "coin_toss" in exc.value.message
    assert set(TIEBREAKS) == {"first_places", "best_session", "head_to_head", "fewer_penalties"}


# -- irregular players -------------------------------------------------------------------------------


def test_disqualified_player_is_listed_last_with_zero_table_points_and_keeps_the_score():
    rows = mcr_table(1, 1, {"a": 100, "b": 10, "c": -40, "d": -70}) + mcr_table(
        2, 1, {"a": 90, "b": 20, "c": -50, "d": -60}
    )
    players = infos(rows, a=PlayerInfo("a", "Ana", disqualified=True))
    standings = mcr(rows, players=players)
    last = standings.rows[-1]
    assert (last.player, last.rank, last.table_points, last.score, last.disqualified) == (
        "a",
        4,
        0,
        190,
        True,
    )
    assert [r.player for r in standings.rows[:3]] == ["b", "c", "d"]
    assert standings.to_document("t", "mcr")["standings"][-1]["disqualified"] is True


def test_disqualified_player_is_last_in_a_score_ranking_too():
    rows = riichi_table(
        1, 1, {"a": (50000, 35000), "b": (30000, 5000), "c": (25000, -10000), "d": (15000, -30000)}
    )
    players = infos(rows, a=PlayerInfo("a", "Ana", disqualified=True))
    standings = compute_standings(players=players, rows=rows, method="score")
    assert [r.player for r in standings.rows] == ["b", "c", "d", "a"]
    assert standings.row("a").score == 35000


def test_substitutes_are_not_listed_but_their_results_shape_the_table():
    # s1 replaced nobody's place in the standings but won the table: b is not first there.
    rows = mcr_table(1, 1, {"s1": 80, "b": 30, "c": -50, "d": -60})
    players = infos(rows, s1=PlayerInfo("s1", "Sub", substitute=True))
    standings = mcr(rows, players=players, tiebreaks=["first_places"])
    assert "s1" not in [r.player for r in standings.rows]
    assert [r.rank for r in standings.rows] == [1, 2, 3]
    assert standings.row("b").table_points == 2
    assert standings.row("b").tiebreak("first_places") == 0


def test_withdrawn_player_keeps_the_sessions_played_and_is_listed_apart_below_the_ranking():
    rows = (
        mcr_table(1, 1, {"a": 100, "b": 10, "c": -40, "d": -70})
        + mcr_table(2, 1, {"a": 90, "b": 20, "c": -50, "d": -60})
        + mcr_table(3, 1, {"b": 30, "c": 20, "d": -20, "e": -30})
    )
    players = infos(rows, a=PlayerInfo("a", "Ana", withdrawn_from=3))
    standings = mcr(rows, players=players)
    # the best total of the day, yet not ranked: the four who stayed are ranked 1-4 without him
    assert [r.player for r in standings.rows] == ["b", "c", "d", "e"]
    assert [r.rank for r in standings.rows] == [1, 2, 3, 4]
    (row,) = standings.withdrawn
    assert (row.player, row.rank, row.sessions, row.table_points, row.withdrawn_from) == ("a", 5, 2, 8, 3)
    assert [r.session for r in row.breakdown] == [1, 2]
    assert [r.player for r in standings.listed] == ["b", "c", "d", "e", "a"]
    doc = standings.to_document("t", "mcr")
    assert [r["player"] for r in doc["standings"]] == ["b", "c", "d", "e"]
    assert doc["withdrawn"] == [
        {"rank": None, "player": "a", "name": "Ana", "table_points": 8, "score": 190, "penalties": 0,
         "sessions": 2, "disqualified": False, "withdrawn_from": 3}
    ]  # fmt: skip


def test_withdrawn_players_among_themselves_keep_the_ranking_order_and_share_a_place_when_tied():
    rows = mcr_table(1, 1, {"a": 100, "b": 10, "c": 10, "d": -120})
    players = infos(
        rows,
        b=PlayerInfo("b", "Bea", withdrawn_from=2),
        c=PlayerInfo("c", "Cris", withdrawn_from=2),
        d=PlayerInfo("d", "Dani", withdrawn_from=2),
    )
    standings = mcr(rows, players=players)
    assert [(r.player, r.rank) for r in standings.rows] == [("a", 1)]
    assert [(r.player, r.rank) for r in standings.withdrawn] == [("b", 2), ("c", 2), ("d", 4)]


def test_a_substitute_ranks_only_when_his_results_count():
    rows = mcr_table(1, 1, {"a": 100, "s1": 10, "s2": -40, "d": -70})
    players = infos(
        rows,
        s1=PlayerInfo("s1", "Sara", substitute=True, counted_substitute=True),
        s2=PlayerInfo("s2", "Sol", substitute=True),
    )
    standings = mcr(rows, players=players)
    assert [r.player for r in standings.rows] == ["a", "s1", "d"]  # s2: an 'in tournament' substitute
    s1 = standings.row("s1")
    assert (s1.rank, s1.counted_substitute) == (2, True)
    assert standings.to_document("t", "mcr")["standings"][1]["substitute"] is True


def test_registered_player_without_results_is_listed_with_nothing():
    rows = mcr_table(1, 1, {"a": 100, "b": 10, "c": -40, "d": -70})
    standings = mcr(rows, players=infos(rows, e=PlayerInfo("e", "Eve")))
    assert (standings.row("e").sessions, standings.row("e").table_points, standings.row("e").score) == (
        0,
        0,
        0,
    )


# -- penalties ---------------------------------------------------------------------------------------


def test_table_points_penalty_deducts_table_points_not_score():
    rows = mcr_table(1, 1, {"a": 100, "b": 10, "c": -40, "d": -70}) + mcr_table(
        2, 1, {"a": -20, "b": 60, "c": 30, "d": -70}
    )
    # a: 4 + 1 = 5 TP, score 80; c: 1 + 2 = 3 TP, score -10
    before = mcr(rows)
    assert before.row("a").rank < before.row("c").rank
    after = mcr(rows, table_points_penalties=[TablePointsPenalty("a", 2, -2)])
    a = after.row("a")
    assert (a.table_points, a.table_points_penalty, a.score, a.penalties) == (3, -2, 80, 0)
    # now level with c on 3 TP: a stays above on score
    assert after.row("a").rank < after.row("c").rank
    bigger = mcr(rows, table_points_penalties=[TablePointsPenalty("a", 2, Fraction(-5, 2))])
    assert bigger.row("c").rank < bigger.row("a").rank
    assert bigger.to_document("t", "mcr")["standings"][2]["table_points"] == 2.5


def test_table_points_penalty_is_refused_for_a_score_ranking():
    rows = riichi_table(
        1, 1, {"a": (50000, 35000), "b": (30000, 5000), "c": (25000, -10000), "d": (15000, -30000)}
    )
    with pytest.raises(RuleError):
        compute_standings(
            players=infos(rows),
            rows=rows,
            method="score",
            table_points_penalties=[TablePointsPenalty("a", 1, -1)],
        )


def test_score_penalties_outside_any_table_lower_score_and_show_in_penalties():
    rows = mcr_table(1, 1, {"a": 100, "b": 10, "c": -40, "d": -70}, penalties={"b": -5})
    # b was 12 minutes late for session 2 and did not play it: 20 points off the score.
    standings = mcr(rows, score_penalties=[ScorePenalty("b", 2, -20)])
    b = standings.row("b")
    assert (b.score, b.penalties, b.table_points) == (10 - 5 - 20, -25, 2)


def test_riichi_ranks_by_score_and_counts_chombo_in_penalties():
    rows = riichi_table(
        1,
        1,
        {"a": (42300, 27300), "b": (31700, 6700), "c": (25000, -10000), "d": (21000, -24000)},
        chombo={"a": -20000},
    ) + riichi_table(
        2,
        1,
        {"a": (35000, 15000), "b": (35000, 15000), "c": (28000, -7000), "d": (22000, -23000)},
    )
    standings = compute_standings(
        players=infos(rows), rows=rows, method="score", score_penalties=[ScorePenalty("c", 2, -1000)]
    )
    assert [(r.player, r.score, r.penalties) for r in standings.rows] == [
        ("a", 27300 - 20000 + 15000, -20000),
        ("b", 21700, 0),
        ("c", -18000, -1000),
        ("d", -47000, 0),
    ]
    assert all(r.table_points is None for r in standings.rows)


# -- the standings document --------------------------------------------------------------------------


def test_document_has_the_archive_shape_and_prints_numbers_with_at_most_two_decimals():
    rows = (
        mcr_table(1, 1, {"a": 40, "b": 40, "c": 40, "d": -120})
        + mcr_table(2, 1, {"a": 50, "b": -10, "c": -10, "d": -30}, penalties={"a": -10})
        + mcr_table(3, 1, {"a": 60, "b": 60, "c": -20, "d": -100})
        + mcr_table(4, 1, {"a": 3, "b": 0, "c": -1, "d": -2})
    )
    players = infos(rows, a=PlayerInfo("a", "Ana García"))
    doc = mcr(rows, players=players, complete_sessions=4).to_document("salamanca-2026", "mcr")
    assert doc["tournament"] == "salamanca-2026"
    assert doc["ruleset"] == "mcr"
    assert doc["complete_sessions"] == 4
    first = doc["standings"][0]
    # 7/3 + 4 + 3 + 4 = 13 1/3 TP; score 40 + (50 - 10) + 60 + 3 = 143, the -10 penalty included
    assert first == {
        "rank": 1,
        "player": "a",
        "name": "Ana García",
        "table_points": 13.33,
        "score": 143,
        "penalties": -10,
        "sessions": 4,
        "disqualified": False,
    }
    assert isinstance(first["score"], int)
    b = next(r for r in doc["standings"] if r["player"] == "b")
    # 7/3 + 3/2 + 3 + 2 = 8 5/6 -> 8.83
    assert b["table_points"] == 8.83


def test_riichi_document_has_null_table_points():
    rows = riichi_table(
        1, 1, {"a": (42300, 27300), "b": (31700, 6700), "c": (25000, -10000), "d": (21000, -24000)}
    )
    doc = compute_standings(players=infos(rows), rows=rows, method="score").to_document(
        "t", "ema-riichi-2016"
    )
    assert [r["table_points"] for r in doc["standings"]] == [None] * 4
    assert [r["score"] for r in doc["standings"]] == [27300, 6700, -10000, -24000]


@pytest.mark.parametrize(
    ("value", "printed"),
    [
        (Fraction(7, 3), 2.33),
        (Fraction(23, 2), 11.5),
        (Fraction(7, 4), 1.75),
        (Fraction(-7, 3), -2.33),
        (Fraction(1, 8), 0.13),  # halves away from zero, not to even
        (Fraction(-1, 8), -0.13),
        (Fraction(2999, 1000), 3),
        (Fraction(-1, 1000), 0),
        (143, 143),
    ],
)
def test_printed_numbers(value, printed):
    result = printable(value)
    assert result == printed
    assert isinstance(result, int) == (printed == int(printed))


# -- order never matters -----------------------------------------------------------------------------


@st.composite
def tournaments(draw):
    n_players = draw(st.integers(4, 12))
    players = [f"p{i}" for i in range(n_players)]
    rng = random.Random(draw(st.integers(0, 2**32)))
    rows = []
    for session in range(1, draw(st.integers(1, 4)) + 1):
        sitting = rng.sample(players, (n_players // 4) * 4)
        for t in range(len(sitting) // 4):
            seats = sitting[4 * t : 4 * t + 4]
            scores = [draw(st.sampled_from([-30, -10, 0, 10, 30])) for _ in range(4)]
            rows += mcr_table(session, t + 1, dict(zip(seats, scores, strict=True)))
    penalties = [
        TablePointsPenalty(p, 1, -1)
        for p in draw(st.lists(st.sampled_from(players), max_size=2, unique=True))
    ]
    disqualified = draw(st.sets(st.sampled_from(players), max_size=2))
    infos_ = [PlayerInfo(p, f"Player {p}", disqualified=p in disqualified) for p in players]
    tiebreaks = draw(st.permutations(list(TIEBREAKS)).map(lambda keys: keys[: rng.randint(0, len(keys))]))
    return infos_, rows, penalties, tiebreaks, rng


@settings(max_examples=60, deadline=None)
@given(tournaments())
def test_ranks_never_depend_on_input_order(data):
    infos_, rows, penalties, tiebreaks, rng = data
    first = mcr(rows, players=infos_, table_points_penalties=penalties, tiebreaks=tiebreaks)
    rows2, infos2, penalties2 = list(rows), list(infos_), list(penalties)
    for seq in (rows2, infos2, penalties2):
        rng.shuffle(seq)
    second = mcr(rows2, players=infos2, table_points_penalties=penalties2, tiebreaks=tiebreaks)
    assert [(r.rank, r.player) for r in first.rows] == [(r.rank, r.player) for r in second.rows]
    ranks_ = [r.rank for r in first.rows]
    # 1, 2, 2, 4: a rank is either the position or the rank of the player above
    assert all(r == i + 1 or r == ranks_[i - 1] for i, r in enumerate(ranks_))
    assert all(not a.disqualified or b.disqualified for a, b in itertools.pairwise(first.rows))
