"""MCR under the MERS regulations (v1.1, 2010): hands, table points, penalties, substitutes."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoring.rules.base import GameResult, LateArrival, RuleError
from scoring.rules.mcr import PRESETS, Foul, FoulCharge, substitution_exclusions

MCR = PRESETS["mcr"]


def win(winner, discarder, fan):
    return {"result": "win", "winner": winner, "discarder": discarder, "fan": fan}


def table_points(scores, **kwargs):
    result = MCR.table_result(MCR.game_from_totals(scores), **kwargs)
    return tuple(seat.table_points for seat in result.seats)


# -- hands ------------------------------------------------------------------------------------


def test_eight_fan_on_a_discard_pays_32_16_8_8():
    game = MCR.play_game([win(0, 1, 8)])
    assert game.scores == (32, -16, -8, -8)


def test_ten_fan_self_drawn_pays_54_and_18_from_each():
    game = MCR.play_game([win(2, None, 10)])
    assert game.scores == (-18, -18, 54, -18)


def test_discard_win_general_formula():
    # 24 fan: discarder 8 + 24 = 32, the other two 8 each, the winner 24 + 24 = 48
    game = MCR.play_game([win(3, 0, 24)])
    assert game.scores == (-32, -8, -8, 48)


def test_exhaustive_draw_pays_nothing():
    game = MCR.play_game([{"result": "draw"}, win(1, 2, 8)])
    assert game.steps[0].deltas == (0, 0, 0, 0)
    assert game.scores == (-8, 32, -16, -8)


def test_running_scores_follow_the_hands():
    game = MCR.play_game([win(0, 1, 8), win(1, None, 10), {"result": "draw"}])
    assert [step.scores for step in game.steps] == [
        (32, -16, -8, -8),
        (14, 38, -26, -26),
        (14, 38, -26, -26),
    ]
    assert game.scores == (14, 38, -26, -26)


def test_no_dealer_effect_and_round_wind_every_four_hands():
    hands = [win(s % 4, (s + 1) % 4, 8) for s in range(16)]
    game = MCR.play_game(hands)
    assert all(step.dealer is None for step in game.steps)
    assert [step.round_wind for step in game.steps[:5]] == ["E", "E", "E", "S", "S"]
    assert game.steps[11].round_wind == "N"
    assert game.steps[15].round_wind is None  # the session is over


def test_a_seventeenth_hand_is_refused():
    hands = [{"result": "draw"}] * 17
    with pytest.raises(RuleError) as err:
        MCR.play_game(hands)
    assert err.value.path == "hands[16]"
    assert "at most 16 hands" in err.value.message


def test_fan_below_minimum_is_refused_with_path():
    with pytest.raises(RuleError) as err:
        MCR.play_game([win(0, 1, 8)] * 7 + [win(0, 1, 6)])
    assert err.value.path == "hands[7].fan"
    assert err.value.message.startswith("fan 6 is below the MCR minimum of 8")
    assert str(err.value).startswith("hands[7].fan: fan 6 is below")


@pytest.mark.parametrize(
    ("hand", "path", "words"),
    [
        (win(1, 1, 8), "hands[0].discarder", "the discarder cannot be the winner"),
        (win(5, 1, 8), "hands[0].winner", "seat 5 is not at this table"),
        (win(0, -1, 8), "hands[0].discarder", "seat -1 is not at this table"),
        (win(0, 1, "8"), "hands[0].fan", "fan must be a whole number, not “8”"),
        (win(0, 1, 8.5), "hands[0].fan", "fan must be a whole number"),
        (win(0, 1, True), "hands[0].fan", "fan must be a whole number"),
        (win("p1", 1, 8), "hands[0].winner", "must be a seat number"),
        ({"result": "win", "winner": 0, "fan": 8}, "hands[0].discarder", "missing"),
        ({"result": "win", "discarder": 1, "fan": 8}, "hands[0].winner", "winner is missing"),
        ({"result": "win", "winner": 0, "discarder": 1}, "hands[0].fan", "fan is missing"),
        ({"result": "ron", "winner": 0}, "hands[0].result", "not one of the MCR results"),
        ({"winner": 0}, "hands[0].result", "result is missing"),
        (["win", 0, 1, 8], "hands[0]", "must be an object"),
    ],
)
def test_bad_hands_give_rule_errors_never_type_errors(hand, path, words):
    with pytest.raises(RuleError) as err:
        MCR.play_game([hand])
    assert err.value.path == path
    assert words in err.value.message


def test_hands_must_be_a_list():
    with pytest.raises(RuleError) as err:
        MCR.play_game({"result": "draw"})
    assert err.value.path == "hands"


# -- game totals --------------------------------------------------------------------------------


def test_totals_that_sum_to_zero_are_the_game_scores():
    game = MCR.game_from_totals([60, 60, -20, -100])
    assert game.scores == (60, 60, -20, -100)
    assert game.imbalance_reason == ""


def test_totals_that_do_not_sum_to_zero_are_refused():
    with pytest.raises(RuleError) as err:
        MCR.game_from_totals([60, 60, -20, -88])
    assert err.value.path == "scores"
    assert err.value.message.startswith("MCR totals sum to 12, not 0")


def test_a_referee_statement_accepts_an_unbalanced_sheet():
    game = MCR.game_from_totals([60, 60, -20, -110], imbalance_reason="late arrival deducted at the table")
    assert game.scores == (60, 60, -20, -110)
    assert game.imbalance_reason == "late arrival deducted at the table"


def test_a_blank_reason_does_not_accept_an_unbalanced_sheet():
    with pytest.raises(RuleError):
        MCR.game_from_totals([60, 60, -20, -110], imbalance_reason="   ")


@pytest.mark.parametrize(
    ("scores", "path"),
    [
        ([10, -10, 0], "scores"),
        ([10, "-10", 0, 0], "scores[1]"),
        ([10, -10, 0.5, -0.5], "scores[2]"),
        (None, "scores"),
    ],
)
def test_bad_totals_are_refused(scores, path):
    with pytest.raises(RuleError) as err:
        MCR.game_from_totals(scores)
    assert err.value.path == path


# -- table points -------------------------------------------------------------------------------


def test_table_points_without_ties():
    assert table_points([50, 20, -20, -50]) == (4, 2, 1, 0)
    assert table_points([-50, -20, 20, 50]) == (0, 1, 2, 4)


def test_tie_for_first_shares_four_and_two():
    assert table_points([60, 60, -20, -100]) == (3, 3, 1, 0)


def test_tie_for_second_shares_two_and_one():
    assert table_points([50, -10, -10, -30]) == (4, Fraction(3, 2), Fraction(3, 2), 0)


def test_tie_for_last_shares_one_and_zero():
    assert table_points([40, 10, -25, -25]) == (4, 2, Fraction(1, 2), Fraction(1, 2))


def test_three_way_tie_for_first_shares_seven():
    assert table_points([40, 40, 40, -120]) == (Fraction(7, 3), Fraction(7, 3), Fraction(7, 3), 0)


def test_three_way_tie_for_second_shares_three():
    assert table_points([90, -30, -30, -30]) == (4, 1, 1, 1)


def test_two_pairs_of_ties():
    assert table_points([30, 30, -30, -30]) == (3, 3, Fraction(1, 2), Fraction(1, 2))


def test_all_equal_gives_one_and_three_quarters_each():
    assert table_points([0, 0, 0, 0]) == (Fraction(7, 4),) * 4


def test_table_points_are_fractions_summing_to_seven():
    points = table_points([60, 60, -20, -100])
    assert all(isinstance(p, Fraction) for p in points)
    assert sum(points) == 7


def test_false_hu_transfers_count_for_the_ranking():
    # game scores 10/0/-5/-5; seat 0 then pays 10 to each for a false Hu under 8 fan
    transfers = MCR.false_hu(0, "below_minimum")
    result = MCR.table_result(MCR.game_from_totals([10, 0, -5, -5]), transfers=transfers)
    assert [s.table_points for s in result.seats] == [0, 4, Fraction(3, 2), Fraction(3, 2)]
    assert [s.final for s in result.seats] == [-20, 10, 5, 5]
    assert [s.transfers for s in result.seats] == [-30, 10, 10, 10]


def test_offender_only_deductions_do_not_change_the_ranking():
    game = MCR.game_from_totals([20, 10, -10, -20])
    result = MCR.table_result(game, deductions=(-20, 0, 0, 0))
    first = result.seats[0]
    assert first.table_points == 4
    assert first.game_score == 20
    assert first.penalties == -20
    assert first.final == 0
    assert sum(s.table_points for s in result.seats) == 7


def test_deductions_before_ranking_is_a_setting():
    ruleset = MCR.with_overrides({"deductions_before_ranking": True})
    game = ruleset.game_from_totals([20, 10, -10, -20])
    result = ruleset.table_result(game, deductions=(-20, 0, 0, 0))
    assert [s.table_points for s in result.seats] == [2, 4, 1, 0]
    assert result.seats[0].final == 0


def test_final_is_game_score_plus_transfers_plus_penalties():
    game = MCR.game_from_totals([30, 10, -15, -25])
    result = MCR.table_result(game, transfers=(20, -60, 20, 20), deductions=(0, -10, 0, -5))
    assert [s.final for s in result.seats] == [50, -60, 5, -10]
    assert all(s.uma is None and s.chombo == 0 for s in result.seats)


def test_a_positive_deduction_is_refused():
    with pytest.raises(RuleError) as err:
        MCR.table_result(MCR.game_from_totals([0, 0, 0, 0]), deductions=(0, 5, 0, 0))
    assert err.value.path == "deductions[1]"


def test_mcr_has_no_chombo():
    with pytest.raises(RuleError) as err:
        MCR.table_result(MCR.game_from_totals([0, 0, 0, 0]), chombos=(0, 0, 1, 0))
    assert "no chombo" in err.value.message
    with pytest.raises(RuleError):
        MCR.chombo_points()


def test_excluded_seat_gets_zero_and_the_others_share_four_two_one():
    # MERS 4.1.2 (illness during the session) / 4.2: the top scorer's seat is the substitute's
    result = MCR.table_result(MCR.game_from_totals([100, 20, -40, -80]), excluded=frozenset({0}))
    assert [s.table_points for s in result.seats] == [0, 4, 2, 1]
    assert sum(s.table_points for s in result.seats) == 7


def test_excluded_seat_with_ties_among_the_others():
    result = MCR.table_result(MCR.game_from_totals([-60, 20, 20, 20]), excluded=frozenset({0}))
    assert [s.table_points for s in result.seats] == [0, Fraction(7, 3), Fraction(7, 3), Fraction(7, 3)]


def test_table_points_from_hands():
    # two 8-fan wins on seat 1's discards: seats 0 and 2 tie for first and share 4 + 2
    game = MCR.play_game([win(0, 1, 8), win(2, 1, 8)])
    assert game.scores == (24, -32, 24, -16)
    result = MCR.table_result(game)
    assert [s.table_points for s in result.seats] == [3, 0, 3, 1]


# -- penalties ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("minutes", "expected"),
    [
        (0, LateArrival(points=-10, disqualified=False)),
        (9, LateArrival(points=-10, disqualified=False)),
        (10, LateArrival(points=-20, disqualified=False)),
        (14, LateArrival(points=-20, disqualified=False)),
        (15, LateArrival(points=-20, disqualified=False)),
        (16, LateArrival(points=0, disqualified=True)),
        (45, LateArrival(points=0, disqualified=True)),
    ],
)
def test_late_arrival_boundaries(minutes, expected):
    # MERS 2.2: under 10 minutes 10 points; within the first 15 minutes 20; after 15 out of the session
    assert MCR.late_arrival(minutes) == expected


@pytest.mark.parametrize("minutes", [-1, "7", 7.5, None])
def test_late_arrival_needs_whole_minutes(minutes):
    with pytest.raises(RuleError) as err:
        MCR.late_arrival(minutes)
    assert err.value.path == "minutes_late"


def test_foul_ladder_warning_then_5_10_20_30_and_on_by_ten():
    assert [MCR.foul(step) for step in range(1, 9)] == [0, -5, -10, -20, -30, -40, -50, -60]


def test_foul_step_must_be_positive():
    with pytest.raises(RuleError):
        MCR.foul(0)


def test_foul_count_restarts_each_session():
    fouls = [Foul(1), Foul(1), Foul(1), Foul(2), Foul(2)]
    assert MCR.foul_charges(fouls) == (
        FoulCharge(1, 0),
        FoulCharge(2, -5),
        FoulCharge(3, -10),
        FoulCharge(1, 0),
        FoulCharge(2, -5),
    )


def test_foul_count_carries_on_after_obstruction_or_time_wasting():
    fouls = [
        {"session": 1},
        {"session": 1, "persists": True},  # time-wasting
        {"session": 2},
        {"session": 3},
    ]
    charges = MCR.foul_charges(fouls)
    assert [c.step for c in charges] == [1, 2, 3, 4]
    assert [c.points for c in charges] == [0, -5, -10, -20]


def test_persistent_foul_only_affects_later_sessions():
    fouls = [Foul(1), Foul(1), Foul(2, persists=True), Foul(3)]
    # session 1 counts 1, 2; session 2 restarts (the time-wasting foul is its first); session 3 carries on
    assert [c.step for c in MCR.foul_charges(fouls)] == [1, 2, 1, 2]


def test_fouls_recorded_late_count_in_their_own_session():
    fouls = [Foul(2), Foul(1), Foul(1)]
    assert [c.step for c in MCR.foul_charges(fouls)] == [1, 1, 2]


def test_bad_foul_records_are_refused():
    with pytest.raises(RuleError) as err:
        MCR.foul_charges([{"session": 1}, {"session": "two"}])
    assert err.value.path == "fouls[1].session"
    with pytest.raises(RuleError) as err:
        MCR.foul_charges([{"session": 1, "persists": "yes"}])
    assert err.value.path == "fouls[0].persists"


def test_forgotten_winning_tile_costs_the_winner_ten():
    assert MCR.forgot_winning_tile() == -10


def test_false_hu_under_eight_fan_pays_ten_to_each_other_player():
    transfers = MCR.false_hu(1, "below_minimum")
    assert transfers == (10, -30, 10, 10)
    assert -transfers[1] == 30  # MERS 3.3: 30 in total
    assert sum(transfers) == 0


def test_false_hu_with_an_invalid_hand_pays_twenty_to_each_other_player():
    transfers = MCR.false_hu(3, "invalid_hand")
    assert transfers == (20, 20, 20, -60)
    assert -transfers[3] == 60  # MERS 3.3: 60 in total


@pytest.mark.parametrize(
    ("seat", "variant", "path"), [(4, "invalid_hand", "player"), (0, "dead_hand", "variant")]
)
def test_false_hu_checks_its_input(seat, variant, path):
    with pytest.raises(RuleError) as err:
        MCR.false_hu(seat, variant)
    assert err.value.path == path


def test_referee_decisions_only_deduct():
    low, high = MCR.referee_bounds()
    assert high == 0
    assert low < 0


# -- substitutes (MERS 4) ----------------------------------------------------------------------


def test_late_player_replaced_from_the_start_shares_normally():
    assert substitution_exclusions(3, "late_arrival") == frozenset()
    result = MCR.table_result(MCR.game_from_totals([-10, -20, -30, 60]), excluded=frozenset())
    assert result.seats[3].table_points == 4  # the substitute can win the table


def test_illness_before_the_session_shares_normally():
    assert substitution_exclusions(2, "illness", during=False) == frozenset()


def test_illness_during_the_session_excludes_the_seat():
    assert substitution_exclusions(2, "illness", during=True) == frozenset({2})


def test_disqualified_for_the_session_excludes_the_seat():
    assert substitution_exclusions(1, "disqualified") == frozenset({1})
    assert MCR.substitution_exclusions(1, "disqualified", during=True) == frozenset({1})


@pytest.mark.parametrize(
    ("args", "kwargs", "path"),
    [
        ((0, "late_arrival"), {"during": True}, "during"),
        ((0, "holiday"), {}, "reason"),
        ((7, "illness"), {}, "player"),
        ((0, "illness"), {"during": "yes"}, "during"),
    ],
)
def test_substitution_input_is_checked(args, kwargs, path):
    with pytest.raises(RuleError) as err:
        substitution_exclusions(*args, **kwargs)
    assert err.value.path == path


# -- properties ---------------------------------------------------------------------------------

seats = st.integers(min_value=0, max_value=3)


@st.composite
def mcr_hands(draw):
    if draw(st.booleans()) and draw(st.booleans()):
        return {"result": "draw"}
    winner = draw(seats)
    discarder = draw(st.one_of(st.none(), seats.filter(lambda s: s != winner)))
    return win(winner, discarder, draw(st.integers(min_value=8, max_value=400)))


@given(st.lists(mcr_hands(), max_size=16))
def test_every_hand_and_game_is_zero_sum(hands):
    game = MCR.play_game(hands)
    assert all(sum(step.deltas) == 0 for step in game.steps)
    assert sum(game.scores) == 0


score_lists = st.lists(st.integers(min_value=-300, max_value=300), min_size=4, max_size=4)


@given(score_lists)
def test_table_points_always_sum_to_seven(scores):
    result = MCR.table_result(GameResult(scores=tuple(scores)))
    assert sum(s.table_points for s in result.seats) == 7
    assert all(isinstance(s.table_points, Fraction) for s in result.seats)


@given(score_lists, st.permutations(range(4)))
def test_points_do_not_depend_on_the_order_players_are_listed(scores, order):
    points = table_points_of(scores)
    permuted = table_points_of([scores[i] for i in order])
    assert permuted == tuple(points[i] for i in order)


@given(score_lists)
def test_equal_scores_get_equal_points_and_better_scores_no_fewer(scores):
    points = table_points_of(scores)
    for a in range(4):
        for b in range(4):
            if scores[a] == scores[b]:
                assert points[a] == points[b]
            if scores[a] > scores[b]:
                assert points[a] > points[b]


@given(score_lists, seats)
def test_one_excluded_seat_leaves_seven_for_the_other_three(scores, out):
    result = MCR.table_result(GameResult(scores=tuple(scores)), excluded=frozenset({out}))
    assert result.seats[out].table_points == 0
    assert sum(s.table_points for s in result.seats) == 7


@given(score_lists, st.lists(st.integers(min_value=-100, max_value=0), min_size=4, max_size=4))
def test_deductions_never_move_table_points_by_default(scores, deductions):
    game = GameResult(scores=tuple(scores))
    plain = MCR.table_result(game)
    deducted = MCR.table_result(game, deductions=deductions)
    assert [s.table_points for s in plain.seats] == [s.table_points for s in deducted.seats]
    assert [s.final for s in deducted.seats] == [g + d for g, d in zip(scores, deductions, strict=True)]


def table_points_of(scores):
    return tuple(s.table_points for s in MCR.table_result(GameResult(scores=tuple(scores))).seats)


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 40) | st.floats() | st.text(max_size=3),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=8,
)
fuzzed_hands = st.fixed_dictionaries(
    {"result": st.sampled_from(["win", "draw", "chombo"])},
    optional={"winner": json_values, "discarder": json_values, "fan": json_values},
)


@given(st.lists(fuzzed_hands | json_values, max_size=4), json_values)
def test_malformed_input_is_a_rule_error_never_a_crash(hands, scores):
    # whatever a form or an archive sends, the referee gets a message, not a server error
    for call in (lambda: MCR.play_game(hands), lambda: MCR.game_from_totals(scores)):
        try:
            call()
        except RuleError as exc:
            assert exc.message
