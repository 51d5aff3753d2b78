"""EMA ranking arithmetic: base ranks, tournament weight, ageing, Parts A and B, the results file."""

from __future__ import annotations

from datetime import date
from fractions import Fraction

import pytest

from rankings.ema.engine import (
    RESULTS_HEADER,
    EmaPlayer,
    EmaResult,
    ageing,
    base_rank,
    base_ranks,
    ema_ranking,
    ema_results_rows,
    normalize_ema_id,
    part_a_size,
    shared_places,
    shown,
    tournament_weight,
)
from rankings.standings.engine import PlayerInfo, SessionRow, compute_standings
from scoring.rules.base import RuleError

# -- base rank ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("place", "players", "expected"),
    [
        (32, 60, 475),  # 1000 × 28/59 = 474.58
        (3, 16, 867),  # 1000 × 13/15 = 866.67
        (1, 60, 1000),
        (60, 60, 0),
        (1, 2, 1000),
        (2, 2, 0),
        (1, 1, 1000),  # a tournament of one player: the winner
    ],
)
def test_base_rank_examples(place, players, expected):
    assert base_rank(place, players) == expected


@pytest.mark.parametrize(
    ("place", "players", "expected"),
    [
        (16, 17, 63),  # 62.5: halves go up (Python's round() would give 62)
        (12, 17, 313),  # 312.5 (round() would give 312)
        (14, 17, 188),  # 187.5
        (4, 17, 813),  # 812.5
    ],
)
def test_base_rank_rounds_halves_up(place, players, expected):
    assert base_rank(place, players) == expected


def test_base_rank_refuses_a_place_outside_the_tournament():
    with pytest.raises(RuleError):
        base_rank(0, 10)
    with pytest.raises(RuleError):
        base_rank(11, 10)


def test_tied_players_share_the_best_place():
    assert shared_places([30, 20, 20, 10]) == [1, 2, 2, 4]
    assert shared_places([5, 5, 5]) == [1, 1, 1]
    assert shared_places([]) == []


def _standings(scores: dict[str, int], **special: PlayerInfo):
    rows = [
        SessionRow(p, 1, i // 4 + 1, "ESWN"[i % 4], (), s, None, None, 0, 0, 0, s)
        for i, (p, s) in enumerate(scores.items())
    ]
    players = [special.get(p, PlayerInfo(p, p.title())) for p in scores]
    players += [info for key, info in special.items() if key not in scores]
    return compute_standings(players=players, rows=rows, method="score")


def test_tied_players_get_the_base_rank_of_the_best_tied_place():
    standings = _standings({"a": 30, "b": 10, "c": 10, "d": -50})
    assert base_ranks(standings) == {"a": 1000, "b": 667, "c": 667, "d": 0}


def test_substitutes_do_not_count_in_n_but_disqualified_players_do():
    standings = _standings(
        {"a": 30, "b": 10, "c": 0, "d": -40, "s": 99},
        s=PlayerInfo("s", "Sub", substitute=True),
        a=PlayerInfo("a", "A", disqualified=True),
    )
    # N = 4: b, c, d, then a (disqualified, last, still ranked for the EMA per MERS §4.4)
    assert base_ranks(standings) == {"b": 1000, "c": 667, "d": 333, "a": 0}


def test_players_removed_from_the_results_move_the_others_up():
    standings = _standings({"a": 30, "b": 10, "c": 0, "d": -40})
    assert base_ranks(standings, removed={"b"}) == {"a": 1000, "c": 500, "d": 0}


# -- tournament weight -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("players", "part"),
    [(8, 0), (40, 0), (41, Fraction(1, 2)), (80, Fraction(1, 2)), (81, 1), (300, 1)],
)
def test_weight_for_players(players, part):
    assert tournament_weight(days=1, players=players, countries=1) == 1 + part


@pytest.mark.parametrize(
    ("countries", "part"),
    [(1, 0), (5, 0), (6, Fraction(1, 2)), (9, Fraction(1, 2)), (10, 1), (25, 1)],
)
def test_weight_for_countries(countries, part):
    assert tournament_weight(days=1, players=20, countries=countries) == 1 + part


def test_weight_for_days_and_european_qualifier():
    assert [tournament_weight(days=d, players=20, countries=1) for d in (1, 2, 3)] == [1, 2, 3]
    assert tournament_weight(days=4, players=20, countries=1) == 3
    assert tournament_weight(days=2, players=20, countries=1, european_qualifier=True) == 3
    # the largest possible weight: 3 days, over 80 players, 10 countries or more, qualifier
    assert tournament_weight(days=3, players=120, countries=14, european_qualifier=True) == 6
    with pytest.raises(RuleError):
        tournament_weight(days=0, players=20, countries=1)


# -- ageing ------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("on", "share"),
    [
        (date(2024, 6, 16), 1),  # the last day itself
        (date(2025, 6, 16), 1),  # first anniversary: still one year old, counts fully
        (date(2025, 6, 17), Fraction(1, 2)),
        (date(2026, 6, 16), Fraction(1, 2)),  # second anniversary: still half
        (date(2026, 6, 17), 0),
        (date(2024, 6, 15), 0),  # the tournament had not ended yet
    ],
)
def test_ageing_boundaries(on, share):
    assert ageing(date(2024, 6, 16), on) == share


@pytest.mark.parametrize(
    ("on", "share"),
    [
        (date(2025, 2, 28), 1),  # 29 February's anniversary in 2025 is 28 February
        (date(2025, 3, 1), Fraction(1, 2)),
        (date(2026, 2, 28), Fraction(1, 2)),
        (date(2026, 3, 1), 0),
    ],
)
def test_ageing_of_a_tournament_ending_on_29_february(on, share):
    assert ageing(date(2024, 2, 29), on) == share


def test_ageing_on_29_february():
    # ranking date 29 February 2028: a result of 28 February 2027 passed its anniversary yesterday
    assert ageing(date(2027, 2, 28), date(2028, 2, 29)) == Fraction(1, 2)
    assert ageing(date(2027, 3, 1), date(2028, 2, 29)) == 1


# -- a player's ranking ------------------------------------------------------------------------------

ON = date(2026, 6, 1)


def test_worked_example_part_a_650_6_part_b_667_33_ranking_658_97():
    results = [
        EmaResult(750, 1, date(2026, 3, 1)),
        EmaResult(700, 1, date(2025, 11, 1)),
        EmaResult(653, 1, date(2025, 9, 1)),
        EmaResult(600, Fraction(3, 2), date(2026, 1, 1)),  # 1 day, 41-80 players
        EmaResult(500, 1, date(2025, 2, 1)),  # 16 months old: counts half (weight 0.5)
    ]
    ranking = ema_ranking(results, ruleset="mcr", on=ON)
    # Part B, best 4: (750 + 700 + 653 + 1.5 × 600) / (1 + 1 + 1 + 1.5) = 3003 / 4.5 = 667.333…
    assert ranking.part_b == Fraction(3003 * 2, 9)
    # Part A, best ceil(5 + 0.8 × 0) = 5: (3003 + 0.5 × 500) / (4.5 + 0.5) = 3253 / 5 = 650.6
    assert ranking.part_a == Fraction(3253, 5)
    # (650.6 + 667.333…) / 2 = 658.9666…
    assert ranking.ranking == Fraction(19769, 30)
    assert (shown(ranking.part_a), shown(ranking.part_b), shown(ranking.ranking)) == (
        Fraction("650.6"),
        Fraction("667.33"),
        Fraction("658.97"),
    )
    assert ranking.counted == 5
    assert [r.weight for r in ranking.part_a_results][-1] == Fraction(1, 2)


def test_fewer_than_five_results_are_padded_with_zero_results_of_weight_one():
    results = [EmaResult(1000, 2, date(2026, 5, 1)), EmaResult(800, 1, date(2026, 4, 1))]
    ranking = ema_ranking(results, ruleset="mcr", on=ON)
    # A: (2 × 1000 + 800 + 0 + 0 + 0) / (2 + 1 + 1 + 1 + 1) = 2800 / 6
    assert ranking.part_a == Fraction(2800, 6)
    # B: best four = 1000 (×2), 800, 0, 0 -> 2800 / 5 = 560
    assert ranking.part_b == 560
    assert shown(ranking.ranking) == Fraction("513.33")
    assert ranking.counted == 2
    assert [r.dummy for r in ranking.part_a_results] == [False, False, True, True, True]


def test_a_result_aged_one_to_two_years_weighs_half():
    fresh = [EmaResult(1000, 2, date(2026, 1, 10)), *[EmaResult(0, 1, date(2026, 1, 10))] * 4]
    aged = [EmaResult(1000, 2, date(2025, 1, 10)), *[EmaResult(0, 1, date(2026, 1, 10))] * 4]
    # fresh: A = 2 × 1000 / (2 + 4) ; aged: the win weighs 1, so A = 1000 / 5 and B = 1000 / 4
    assert ema_ranking(fresh, ruleset="mcr", on=ON).part_a == Fraction(2000, 6)
    assert ema_ranking(aged, ruleset="mcr", on=ON).part_a == 200
    assert ema_ranking(aged, ruleset="mcr", on=ON).part_b == 250


def test_results_older_than_two_years_are_dropped_and_replaced_by_padding():
    results = [EmaResult(900, 1, date(2026, 1, 1)), EmaResult(1000, 3, date(2024, 1, 1))]
    ranking = ema_ranking(results, ruleset="mcr", on=ON)
    assert ranking.counted == 1
    assert ranking.part_a == Fraction(900, 5)


@pytest.mark.parametrize(("n", "size"), [(0, 5), (5, 5), (6, 6), (7, 7), (9, 9), (10, 9), (11, 10), (20, 17)])
def test_part_a_averages_the_best_ceil_5_plus_0_8_of_the_extra_results(n, size):
    assert part_a_size(n) == size


def test_part_a_leaves_out_the_worst_results_from_ten_on():
    results = [EmaResult(100 * i, 1, date(2026, 1, i + 1)) for i in range(1, 11)]  # 100 .. 1000
    ranking = ema_ranking(results, ruleset="mcr", on=ON)
    assert len(ranking.part_a_results) == 9
    assert ranking.part_a == Fraction(sum(range(200, 1001, 100)), 9)  # 100 left out
    assert ranking.part_b == Fraction(1000 + 900 + 800 + 700, 4)


def test_mcr_and_riichi_are_ranked_separately():
    results = [EmaResult(1000, 1, date(2026, 1, 1), ruleset="riichi"), EmaResult(500, 1, date(2026, 1, 1))]
    assert ema_ranking(results, ruleset="mcr", on=ON).part_b == Fraction(500, 4)
    assert ema_ranking(results, ruleset="riichi", on=ON).part_b == Fraction(1000, 4)
    with pytest.raises(RuleError):
        ema_ranking(results, ruleset="salamanca", on=ON)


def test_equal_base_ranks_prefer_the_heavier_result():
    results = [EmaResult(800, 1, date(2026, 1, 1)), *[EmaResult(800, 3, date(2026, 1, 1))] * 4]
    # five results: B keeps four of them; the heavier ones come first
    assert [r.weight for r in ema_ranking(results, ruleset="mcr", on=ON).part_b_results] == [3, 3, 3, 3]


# -- results file ------------------------------------------------------------------------------------


def _mcr_standings():
    rows = []
    seats = {"a": (40, Fraction(7, 3)), "b": (40, Fraction(7, 3)), "c": (40, Fraction(7, 3)), "d": (-120, 0)}
    for i, (p, (score, tp)) in enumerate(seats.items()):
        rows.append(SessionRow(p, 1, 1, "ESWN"[i], (), score, tp, None, 0, 0, 0, score))
    players = [PlayerInfo(p, p) for p in seats]
    return compute_standings(players=players, rows=rows, method="table_points")


PEOPLE = {
    "a": EmaPlayer("a", "Ana", "García", "04010001", True, "esp"),
    "b": EmaPlayer("b", "Bo", "", "", False, "GBR"),
    "c": EmaPlayer("c", "Chen", "Li", "4020002", True, "FRA"),
    "d": EmaPlayer("d", "Dora", "Nagy", "06000003", True, "HUN"),
}


def test_results_file_rows():
    table = ema_results_rows(_mcr_standings(), PEOPLE)
    assert table[0] == list(RESULTS_HEADER)
    assert table[0] == [
        "Place",
        "First name",
        "Last name",
        "EMA number",
        "Table points",
        "Score",
        "EMA member",
        "Country",
    ]
    assert table[1:] == [
        [1, "Ana", "García", "04010001", 2.33, 40, "Yes", "ESP"],
        [1, "Bo", "", "", 2.33, 40, "No", "GBR"],  # no EMA number: listed and counted
        [1, "Chen", "Li", "04020002", 2.33, 40, "Yes", "FRA"],  # leading zero restored
        [4, "Dora", "Nagy", "06000003", 0, -120, "Yes", "HUN"],
    ]
    assert all(isinstance(row[3], str) for row in table[1:])


def test_results_file_for_riichi_leaves_table_points_empty():
    standings = _standings({"a": 27300, "b": 6700, "c": -10000, "d": -24000})
    people = {p: EmaPlayer(p, p.title(), "X", "", False, "ESP") for p in "abcd"}
    table = ema_results_rows(standings, people)
    assert [row[4] for row in table[1:]] == ["", "", "", ""]
    assert [row[5] for row in table[1:]] == [27300, 6700, -10000, -24000]


def test_results_file_removed_player_and_bad_ema_number():
    table = ema_results_rows(_mcr_standings(), PEOPLE, removed={"b"})
    assert [(row[0], row[1]) for row in table[1:]] == [(1, "Ana"), (1, "Chen"), (3, "Dora")]
    bad = {**PEOPLE, "d": EmaPlayer("d", "Dora", "Nagy", "6-3", True, "HUN")}
    with pytest.raises(RuleError) as exc:
        ema_results_rows(_mcr_standings(), bad)
    assert exc.value.path == "players.d.ema_id"


@pytest.mark.parametrize(
    ("raw", "clean"),
    [("04010001", "04010001"), (" 10990043 ", "10990043"), ("4010001", "04010001"), ("", "")],
)
def test_ema_numbers_keep_their_leading_zeros(raw, clean):
    assert normalize_ema_id(raw) == clean
