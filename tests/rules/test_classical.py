"""Classical Chinese rules (rulebook file 001): settlement (§69–70), East double, the limit (§79, §85),
the dealer (§80–81), drawn hands (§73) and false mah jong (§71).

Hand values are worked out from the tables of §75:
table 1 (points): pungs of simples 2 exposed / 4 concealed, of terminals or honours 4 / 8; kongs of
simples 4 / 8, of terminals 8 / 16, of honours 16 / 32; a pair of dragons, of one's own wind or of
the prevailing wind 2; chows 0. Table 2 (doubles): a pung or kong of dragons 1 double. Table 3
(winner only): mah jong 20, winning tile drawn from the wall 2.
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoring.rules.base import GameResult, RuleError
from scoring.rules.classical import PRESETS, dealer_of_hand

CLA = PRESETS["classical"]


def win(winner, values, **extra):
    return {"result": "win", "winner": winner, "values": values, **extra}


def deltas(hand, dealer=0):
    return CLA.hand_deltas(hand, dealer)[0]


# Hands of the worked examples.
# Winner: exposed pung of red dragons 4 + concealed pung of 9 bamboo 8 + two chows 0 + pair of green
# dragons 2 + mah jong 20 + winning tile from the wall 2 = 36 points; 1 double (dragon pung): 72.
WINNER_72 = 72
# A loser with an exposed pung of 5 characters 2 + two concealed pungs of simples 4 + 4 + pair of
# dragons 2 = 12, no double.
LOSER_12 = 12
# A loser with only chows: 0.
LOSER_0 = 0
# A loser with a concealed kong of white dragons 32, 1 double: 64.
LOSER_64 = 64


def test_non_east_winner_worked_example():
    # East is seat 0; South (seat 1) wins with 72.
    # Step 1 (§69): East pays double, 144; West and North pay 72 each; South gains 288.
    # Step 2 (§70), between the losers, East double:
    #   East 12 vs West 0: West pays East 2 x 12 = 24
    #   East 12 vs North 64: East pays North 2 x 52 = 104
    #   West 0 vs North 64: West pays North 64
    # East -144 + 24 - 104 = -224; West -72 - 24 - 64 = -160; North -72 + 104 + 64 = +96.
    hand = win(1, {0: LOSER_12, 1: WINNER_72, 2: LOSER_0, 3: LOSER_64})
    assert deltas(hand) == (-224, 288, -160, 96)


def test_east_winner_worked_example():
    # East (seat 0) wins with 72: every loser pays double, 144; East gains 432.
    # Between the losers (no East, single payments): South 12 vs West 0: West pays 12;
    # South 12 vs North 64: South pays 52; West 0 vs North 64: West pays 64.
    # South -144 + 12 - 52 = -184; West -144 - 12 - 64 = -220; North -144 + 52 + 64 = -28.
    hand = win(0, {0: WINNER_72, 1: LOSER_12, 2: LOSER_0, 3: LOSER_64})
    assert deltas(hand) == (432, -184, -220, -28)


def test_who_is_east_follows_the_dealer():
    # the same hand as the first example, with South (seat 1) dealing: now South is East and wins double.
    # Each loser pays 144: +432. Losers: seat 0 12, seat 2 0, seat 3 64, none of them East:
    # seat 2 pays seat 0 12; seat 0 pays seat 3 52; seat 2 pays seat 3 64.
    hand = win(1, {0: LOSER_12, 1: WINNER_72, 2: LOSER_0, 3: LOSER_64})
    assert deltas(hand, dealer=1) == (-184, 432, -220, -28)


def test_values_may_be_keyed_by_seat_text():
    hand = win(1, {"0": LOSER_12, "1": WINNER_72, "2": LOSER_0, "3": LOSER_64})
    assert deltas(hand) == (-224, 288, -160, 96)


def test_limit_is_500_and_1000_for_east():
    # South wins 40 points with 4 doubles = 640 > 500: each non-East pays 500, East pays 1000.
    hand = win(1, {0: 0, 1: 640, 2: 0, 3: 0})
    assert deltas(hand) == (-1000, 2000, -500, -500)
    # East wins 768: each pays the East limit, 1000
    hand = win(0, {0: 768, 1: 0, 2: 0, 3: 0})
    assert deltas(hand) == (3000, -1000, -1000, -1000)


def test_a_hand_at_the_limit_is_paid_in_full():
    assert deltas(win(2, {0: 0, 1: 0, 2: 500, 3: 0})) == (-1000, -500, 2000, -500)


def test_limit_hands_score_the_limit():
    # §85 (e.g. thirteen orphans by West): the limit, whatever points the hand would count
    hand = win(2, {0: 8, 1: 0, 3: 0}, limit_hand=True)
    # East pays 1000, South and North 500; then South and North pay East 2 x 8 = 16 each
    assert deltas(hand) == (-1000 + 32, -516, 2000, -516)


def test_payments_between_losers_never_pass_the_limit():
    # North wins 20. West 900 vs South 100: the difference 800 is paid up to the limit, 500.
    hand = win(3, {0: 0, 1: 100, 2: 900, 3: 20})
    # step 1: East -40, South -20, West -20, North +80
    # step 2: East 0 vs South 100: East pays 200; East vs West 900: East pays 1000 (limit, double);
    #         South 100 vs West 900: South pays 500 (limit)
    assert deltas(hand) == (-40 - 200 - 1000, -20 + 200 - 500, -20 + 1000 + 500, 80)


def test_limit_on_hands_is_a_setting():
    ruleset = CLA.with_overrides({"limit_applies_to": "hand"})
    hand = win(3, {0: 0, 1: 100, 2: 900, 3: 20})
    # every hand is cut to 500 first: South 100 vs West 500 -> 400; East vs West 2 x 500
    assert ruleset.hand_deltas(hand, 0)[0] == (-40 - 200 - 1000, -20 + 200 - 400, -20 + 1000 + 400, 80)


def test_a_drawn_hand_pays_nothing_in_the_mixed_hand_game():
    game = CLA.play_game([{"result": "draw"}])
    assert game.steps[0].deltas == (0, 0, 0, 0)
    assert game.steps[0].dealer == 0  # §73, §80: East keeps the deal


def test_a_drawn_hand_settles_differences_when_the_setting_says_so():
    # the clean-hand game (§73): all four settle differences, East double
    ruleset = CLA.with_overrides({"draw_settles": True})
    hand = {"result": "draw", "values": {0: 10, 1: 30, 2: 0, 3: 0}}
    # East 10 vs South 30: East pays 40; East vs West, North: they pay East 20 each;
    # South 30 vs West, North: 30 each
    assert ruleset.hand_deltas(hand, 0)[0] == (0, 100, -50, -50)


# -- the dealer and the rounds -----------------------------------------------------------------


def test_east_keeps_the_deal_until_another_player_wins():
    hands = [win(0, {0: 30, 1: 0, 2: 0, 3: 0}), {"result": "draw"}, win(2, {0: 0, 1: 0, 2: 30, 3: 0})]
    game = CLA.play_game(hands)
    assert [step.dealer for step in game.steps] == [0, 0, 1]


def test_east_double_moves_with_the_deal():
    # after South wins, South deals and pays double when West wins
    hands = [win(1, {0: 0, 1: 30, 2: 0, 3: 0}), win(2, {0: 0, 1: 0, 2: 30, 3: 0})]
    game = CLA.play_game(hands)
    assert game.steps[0].deltas == (-60, 120, -30, -30)
    assert game.steps[1].deltas == (-30, -60, 120, -30)
    assert dealer_of_hand(game, 1) == 1


def test_four_rounds_and_the_game_is_over():
    hands = [win((n + 1) % 4, {0: 10, 1: 10, 2: 10, 3: 10}) for n in range(16)]
    game = CLA.play_game(hands)
    assert [game.steps[n].round_wind for n in (2, 3, 7, 11, 14)] == ["E", "S", "W", "N", "N"]
    assert game.steps[-1].dealer is None
    with pytest.raises(RuleError) as err:
        CLA.play_game([*hands, {"result": "draw"}])
    assert err.value.path == "hands[16]"


# -- false mah jong (§71) --------------------------------------------------------------------


def test_false_mah_jong_pays_east_the_limit_and_the_others_half():
    assert CLA.false_hu(2, "", dealer=0) == (500, 250, -1000, 250)
    assert CLA.false_hu(2, "invalid_hand", dealer=3) == (250, 250, -1000, 500)


def test_false_mah_jong_by_east_pays_everyone_the_limit():
    assert CLA.false_hu(1, "", dealer=1) == (500, -1500, 500, 500)


# -- faults -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("hand", "path", "words"),
    [
        (win(0, {0: 20, 1: 0, 2: 0}), "hands[0].values", "no hand value for seat 3"),
        (win(0, {0: 20, 1: 0, 2: 0, 5: 0}), "hands[0].values.5", "seat 5 is not at this table"),
        (win(0, {0: 20, 1: -4, 2: 0, 3: 0}), "hands[0].values.1", "at least 0"),
        (win(0, {0: "20", 1: 0, 2: 0, 3: 0}), "hands[0].values.0", "whole number"),
        (win(0, {0: 20, "0": 20, 1: 0, 2: 0, 3: 0}), "hands[0].values.0", "given twice"),
        (win(0, [20, 0, 0, 0]), "hands[0].values", "map each seat"),
        (win(6, {0: 20, 1: 0, 2: 0, 3: 0}), "hands[0].winner", "seat 6 is not at this table"),
        ({"result": "win", "winner": 0}, "hands[0].values", "values is missing"),
        (win(0, {0: 20, 1: 0, 2: 0, 3: 0}, limit_hand="yes"), "hands[0].limit_hand", "true or false"),
        ({"result": "mahjong"}, "hands[0].result", "not one of the classical results"),
    ],
)
def test_bad_hands_are_refused(hand, path, words):
    with pytest.raises(RuleError) as err:
        CLA.play_game([hand])
    assert err.value.path == path
    assert words in err.value.message


def test_totals_must_sum_to_zero_unless_a_referee_says_why():
    assert CLA.game_from_totals([500, -200, -200, -100]).scores == (500, -200, -200, -100)
    with pytest.raises(RuleError) as err:
        CLA.game_from_totals([500, -200, -200, -90])
    assert err.value.message.startswith("Classical totals sum to 10, not 0")
    assert CLA.game_from_totals([500, -200, -200, -90], imbalance_reason="as signed").scores[3] == -90


def test_session_result_adds_transfers_and_penalties():
    game = CLA.game_from_totals([500, -200, -200, -100])
    result = CLA.table_result(game, transfers=CLA.false_hu(3, "", dealer=0), deductions=(-10, 0, 0, 0))
    assert [s.final for s in result.seats] == [990, 50, 50, -1100]
    assert all(s.table_points is None for s in result.seats)


# -- properties -------------------------------------------------------------------------------

seats = st.integers(min_value=0, max_value=3)
values = st.lists(st.integers(min_value=0, max_value=3000), min_size=4, max_size=4)


@st.composite
def hands(draw):
    if draw(st.integers(0, 5)) == 0:
        return {"result": "draw", "values": dict(enumerate(draw(values)))}
    return win(draw(seats), dict(enumerate(draw(values))), limit_hand=draw(st.booleans()))


@given(st.lists(hands(), max_size=16), st.booleans(), st.sampled_from(["payment", "hand"]))
def test_every_hand_and_game_is_zero_sum(hand_list, draw_settles, cap):
    ruleset = CLA.with_overrides({"draw_settles": draw_settles, "limit_applies_to": cap})
    game = ruleset.play_game(hand_list)
    assert all(sum(step.deltas) == 0 for step in game.steps)
    assert sum(game.scores) == 0


@given(hands(), seats)
def test_no_single_payment_passes_the_limit(hand, dealer):
    d = CLA.hand_deltas(hand, dealer)[0]
    # a seat pays at most three payments, each at most the limit (double when East is involved)
    assert all(abs(x) <= 3 * 1000 for x in d)
    if hand["result"] == "win":
        # the winner collects the limit from each loser, double from or as East
        assert d[hand["winner"]] <= (3000 if hand["winner"] == dealer else 2000)


@given(st.lists(st.integers(-2000, 2000), min_size=4, max_size=4))
def test_session_result_is_the_game_points(scores):
    result = CLA.table_result(GameResult(scores=tuple(scores)))
    assert [s.final for s in result.seats] == scores


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 600) | st.floats() | st.text(max_size=3),
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(st.sampled_from([0, 1, 2, 3, "0", "3", "7", "x"]), inner, max_size=4)
    ),
    max_leaves=8,
)
fuzzed_hands = st.fixed_dictionaries(
    {"result": st.sampled_from(["win", "draw"])},
    optional={"winner": json_values, "values": json_values, "limit_hand": json_values},
)


@given(st.lists(fuzzed_hands | json_values, max_size=4))
def test_malformed_input_is_a_rule_error_never_a_crash(hand_list):
    # whatever a form or an archive sends, the referee gets a message, not a server error
    for ruleset in (CLA, CLA.with_overrides({"draw_settles": True})):
        try:
            ruleset.play_game(hand_list)
        except RuleError as exc:
            assert exc.message
