"""Salamanca "Mayón" rules v5.4: payment tables (art. 27–28), game flow (art. 4–8), liability
(art. 35–37), false declaration (art. 33) and the optional pot (art. 39)."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoring.rules.base import GameResult, RuleError
from scoring.rules.salamanca import PRESETS

SAL = PRESETS["salamanca"]

# The tables exactly as printed in art. 27 and art. 28 (fan 0 to 12).
ART27_POINTS = [2, 4, 8, 16, 32, 48, 64, 96, 128, 192, 256, 384, 512]
ART28_SELF_DRAWN_WINNER = [None, 12, 24, 48, 96, 144, 192, 288, 384, 576, 768, 1152, 1536]
ART28_SELF_DRAWN_EACH = [None, 4, 8, 16, 32, 48, 64, 96, 128, 192, 256, 384, 512]
ART28_DISCARD_WINNER = [4, 8, 16, 32, 64, 96, 128, 192, 256, 384, 512, 768, 1024]
ART28_DISCARD_DISCARDER = [2, 4, 8, 16, 32, 48, 64, 96, 128, 192, 256, 384, 512]
ART28_DISCARD_OTHERS = [1, 2, 4, 8, 16, 24, 32, 48, 64, 96, 128, 192, 256]


def win(winner, discarder, fan, liable=None):
    hand = {"result": "win", "winner": winner, "discarder": discarder, "fan": fan}
    if liable is not None:
        hand["liable"] = [{"player": p, "share": s} for p, s in liable]
    return hand


def deltas(hand):
    return SAL.hand_deltas(hand)[0]


# -- art. 27 and 28 -----------------------------------------------------------------------------


@pytest.mark.parametrize(("fan", "points"), list(enumerate(ART27_POINTS)))
def test_art27_fan_to_points(fan, points):
    assert SAL.points(fan) == points


@pytest.mark.parametrize("fan", [13, 16, 40])
def test_art27_twelve_fan_or_more_score_512(fan):
    assert SAL.points(fan) == 512
    assert deltas(win(0, None, fan)) == (1536, -512, -512, -512)


@pytest.mark.parametrize("fan", range(1, 13))
def test_art28_self_drawn_row(fan):
    # North (seat 3) self-draws: each loser pays x, the winner gains 3x
    each = ART28_SELF_DRAWN_EACH[fan]
    assert deltas(win(3, None, fan)) == (-each, -each, -each, ART28_SELF_DRAWN_WINNER[fan])


@pytest.mark.parametrize("fan", range(13))
def test_art28_discard_row(fan):
    # South (seat 1) wins on West's (seat 2) discard: West pays x, East and North x/2, South gains 2x
    other = ART28_DISCARD_OTHERS[fan]
    assert deltas(win(1, 2, fan)) == (
        -other,
        ART28_DISCARD_WINNER[fan],
        -ART28_DISCARD_DISCARDER[fan],
        -other,
    )


def test_dealer_pays_and_receives_like_anyone_else():
    game = SAL.play_game([win(0, 1, 3), win(0, None, 3)])
    assert game.steps[0].deltas == (32, -16, -8, -8)
    assert game.steps[1].deltas == (48, -16, -16, -16)


def test_a_self_drawn_win_cannot_have_zero_fan():
    # art. 32: closing by drawing is itself worth a fan; art. 28 prints "-" for 0 fan self-drawn
    with pytest.raises(RuleError) as err:
        SAL.play_game([win(2, None, 0)])
    assert err.value.path == "hands[0].fan"


@pytest.mark.parametrize(
    ("hand", "path", "words"),
    [
        (win(0, 0, 3), "hands[0].discarder", "the discarder cannot be the winner"),
        (win(4, 0, 3), "hands[0].winner", "seat 4 is not at this table"),
        (win(0, 1, -1), "hands[0].fan", "below the Salamanca minimum"),
        (win(0, 1, "3"), "hands[0].fan", "whole number"),
        ({"result": "tsumo", "winner": 0}, "hands[0].result", "not one of the Salamanca results"),
        ({"result": "win", "winner": 0, "fan": 3}, "hands[0].discarder", "missing"),
    ],
)
def test_bad_hands_are_refused(hand, path, words):
    with pytest.raises(RuleError) as err:
        SAL.play_game([hand])
    assert err.value.path == path
    assert words in err.value.message


# -- art. 4–8: dealer and rounds ----------------------------------------------------------------


def test_dealer_keeps_the_deal_after_his_own_win_or_a_draw():
    game = SAL.play_game([win(0, 2, 1), {"result": "draw"}, win(0, None, 1)])
    assert [step.dealer for step in game.steps] == [0, 0, 0]
    assert [step.round_wind for step in game.steps] == ["E", "E", "E"]


def test_the_deal_passes_to_the_next_seat_after_another_players_win():
    game = SAL.play_game([win(2, 0, 1), win(3, None, 1), win(3, 0, 1)])
    assert [step.dealer for step in game.steps] == [1, 2, 3]


def test_a_round_ends_when_its_first_dealer_deals_again():
    # four non-dealer wins pass the deal 0 -> 1 -> 2 -> 3 -> 0: the South round starts
    hands = [win((d + 1) % 4, None, 1) for d in range(4)]
    game = SAL.play_game(hands)
    assert [step.round_wind for step in game.steps] == ["E", "E", "E", "S"]
    assert game.steps[-1].dealer == 0


def full_game():
    """Sixteen passes of the deal, with some dealer wins and draws in between."""
    hands = []
    for n in range(16):
        dealer = n % 4
        if n % 3 == 0:
            hands.append({"result": "draw"})
            hands.append(win(dealer, (dealer + 2) % 4, 2))
        hands.append(win((dealer + 1) % 4, dealer, 2))
    return hands


def test_the_game_ends_after_the_north_round():
    hands = full_game()
    game = SAL.play_game(hands)
    assert game.steps[-1].dealer is None
    assert game.steps[-1].round_wind is None
    assert game.steps[-2].round_wind == "N"
    with pytest.raises(RuleError) as err:
        SAL.play_game([*hands, {"result": "draw"}])
    assert err.value.path == f"hands[{len(hands)}]"
    assert "the game ended after the North round" in err.value.message


# -- art. 35–37: liability ---------------------------------------------------------------------


def test_art36_first_example_eight_fan_half_liability():
    # A (seat 0) wins 8 fan on C's discard (seat 2); C is exempt; B (seat 1) risked first and pays
    # half of 256; the other 128 are paid as usual: C 64, B and D 32 each.
    assert deltas(win(0, 2, 8, [(1, "half")])) == (256, -160, -64, -32)


def test_art36_second_example_eleven_fan_thirds():
    # A wins 11 fan (x = 384, 768 in all) on D's discard (seat 3); B and C each exposed once:
    # B and C pay a third (256) each; the last third is paid as usual: D 128, B and C 64.
    assert deltas(win(0, 3, 11, [(1, "third"), (2, "third")])) == (768, -320, -320, -128)


def test_art36_third_example_ten_fan_self_drawn_half():
    # A self-draws 10 fan (x = 256, 768 in all); only B's exposure counts: B pays half (384),
    # the other half is paid by the three as usual, 128 each.
    assert deltas(win(0, None, 10, [(1, "half")])) == (768, -512, -128, -128)


def test_art35_discarder_pays_for_everyone():
    # 6 fan (x = 64) on seat 3's discard: seat 3 pays the whole 128
    assert deltas(win(1, 3, 6, [(3, "all")])) == (0, 128, 0, -128)


def test_art36_exposed_player_who_then_discards_pays_everything():
    # "una mitad por arriesgarse primero y la otra por arriesgarse después"
    assert deltas(win(0, 1, 8, [(1, "half"), (1, "half")])) == (256, -256, 0, 0)


def test_art36_two_players_who_risked_share_in_halves():
    # B risked first, C discarded the winning tile and is not exempt: they pay half each
    assert deltas(win(0, 2, 8, [(1, "half"), (2, "half")])) == (256, -128, -128, 0)


def test_thirds_can_be_fractions_of_a_point():
    # 0 fan on a discard: 4 in all, B and C a third each (4/3); the last third as usual
    d = deltas(win(0, 3, 0, [(1, "third"), (2, "third")]))
    assert d == (4, -Fraction(5, 3), -Fraction(5, 3), -Fraction(2, 3))
    assert sum(d) == 0


@pytest.mark.parametrize(
    ("hand", "path"),
    [
        (win(0, 2, 8, [(0, "half")]), "hands[0].liable[0].player"),
        (win(0, 2, 8, [(1, "quarter")]), "hands[0].liable[0].share"),
        (win(0, 2, 8, [(1, "half"), (3, "third")]), "hands[0].liable"),
        (win(0, 2, 8, [(1, "third")]), "hands[0].liable"),
        (win(0, 2, 8, [(1, "all")]), "hands[0].liable"),
        (win(0, None, 8, [(1, "all")]), "hands[0].liable"),
        (win(0, 2, 8, [(1, "half"), (2, "half"), (3, "half")]), "hands[0].liable"),
        ({**win(0, 2, 8), "liable": {"player": 1, "share": "all"}}, "hands[0].liable"),
        ({**win(0, 2, 8), "liable": [{"share": "all"}]}, "hands[0].liable[0].player"),
        ({**win(0, 2, 8), "liable": ["seat 1"]}, "hands[0].liable[0]"),
    ],
)
def test_liability_that_the_articles_do_not_allow_is_refused(hand, path):
    with pytest.raises(RuleError) as err:
        SAL.play_game([hand])
    assert err.value.path == path


# -- art. 33: false declaration ----------------------------------------------------------------


def test_art33_false_declaration_pays_four_fan_to_each_other_player():
    assert SAL.false_hu(1, "false_declaration") == (32, -96, 32, 32)
    assert SAL.false_hu(3, "") == (32, 32, 32, -96)


def test_false_declaration_checks_its_input():
    with pytest.raises(RuleError) as err:
        SAL.false_hu(4, "")
    assert err.value.path == "player"
    with pytest.raises(RuleError) as err:
        SAL.false_hu(0, "chombo")
    assert err.value.path == "variant"


def test_salamanca_has_no_mers_penalties():
    with pytest.raises(RuleError):
        SAL.late_arrival(5)
    with pytest.raises(RuleError):
        SAL.foul(2)


# -- art. 39: the pot ---------------------------------------------------------------------------


def test_the_pot_is_off_by_default():
    game = SAL.play_game([win(0, 1, 2), {"result": "draw"}])
    assert game.steps[0].deltas == (16, -8, -4, -4)
    assert game.steps[1].deltas == (0, 0, 0, 0)


def test_art39_pot_filled_by_dealer_wins_and_draws_and_taken_when_the_deal_passes():
    ruleset = SAL.with_overrides({"pot": True})
    game = ruleset.play_game([win(0, 1, 2), {"result": "draw"}, win(2, 3, 2)])
    # East wins 2 fan on South's discard (+16) and puts 20 in the pot
    assert game.steps[0].deltas == (-4, -8, -4, -4)
    # nobody wins: everyone but East puts 20 in the pot (80 now)
    assert game.steps[1].deltas == (0, -20, -20, -20)
    assert game.steps[1].sticks == 4
    # West wins on North's discard: +16 and the pot of 80
    assert game.steps[2].deltas == (-4, -4, 96, -8)
    assert game.steps[2].sticks == 0
    assert sum(game.scores) == 0


def test_a_pot_left_when_time_runs_out_goes_back_to_who_paid_it():
    ruleset = SAL.with_overrides({"pot": True})
    game = ruleset.play_game([{"result": "draw"}, win(0, None, 1)])
    assert game.steps[-1].scores == (12 - 20, -4 - 20, -4 - 20, -4 - 20)
    assert game.scores == (12, -4, -4, -4)


# -- totals and session result ----------------------------------------------------------------


def test_totals_must_sum_to_zero_unless_a_referee_says_why():
    assert SAL.game_from_totals([100, -50, Fraction(-101, 2), 0.5]).scores == (
        100,
        -50,
        Fraction(-101, 2),
        Fraction(1, 2),
    )
    with pytest.raises(RuleError) as err:
        SAL.game_from_totals([100, -50, -40, 0])
    assert err.value.message.startswith("Salamanca totals sum to 10, not 0")
    assert err.value.path == "scores"
    assert SAL.game_from_totals([100, -50, -40, 0], imbalance_reason="sheet as signed").imbalance_reason


def test_session_result_is_game_points_plus_transfers_plus_penalties():
    game = SAL.game_from_totals([200, -100, -60, -40])
    result = SAL.table_result(game, transfers=SAL.false_hu(0, ""), deductions=(0, 0, -10, 0))
    assert [s.final for s in result.seats] == [104, -68, -38, -8]
    assert all(s.table_points is None and s.uma is None for s in result.seats)


# -- properties ---------------------------------------------------------------------------------

seats = st.integers(min_value=0, max_value=3)


@st.composite
def hands(draw):
    if draw(st.integers(0, 4)) == 0:
        return {"result": "draw"}
    winner = draw(seats)
    discarder = draw(st.one_of(st.none(), seats.filter(lambda s: s != winner)))
    fan = draw(st.integers(min_value=1, max_value=15))
    others = [s for s in range(4) if s != winner]
    kind = draw(st.sampled_from(["none", "half", "third", "all"]))
    liable = []
    if kind == "half":
        liable = [(draw(st.sampled_from(others)), "half")]
        if discarder is not None and draw(st.booleans()):
            liable.append((discarder, "half"))
    elif kind == "third":
        liable = [(draw(st.sampled_from(others)), "third"), (draw(st.sampled_from(others)), "third")]
        if discarder is not None and draw(st.booleans()):
            liable.append((discarder, "third"))
    elif kind == "all" and discarder is not None:
        liable = [(discarder, "all")]
    return win(winner, discarder, fan, liable)


@given(st.lists(hands(), max_size=30), st.booleans())
def test_every_hand_and_game_is_zero_sum(hand_list, pot):
    ruleset = SAL.with_overrides({"pot": pot})
    game = ruleset.play_game(hand_list[:16])
    if not pot:
        assert all(sum(step.deltas) == 0 for step in game.steps)
    assert sum(game.scores) == 0


@given(hands().filter(lambda hand: hand["result"] == "win"))
def test_liability_never_changes_what_the_winner_gets(hand):
    plain = {k: v for k, v in hand.items() if k != "liable"}
    assert deltas(hand)[hand["winner"]] == deltas(plain)[hand["winner"]]


@given(st.lists(st.integers(-500, 500), min_size=4, max_size=4), st.permutations(range(4)))
def test_session_result_does_not_depend_on_seat_order(scores, order):
    result = SAL.table_result(GameResult(scores=tuple(scores)))
    permuted = SAL.table_result(GameResult(scores=tuple(scores[i] for i in order)))
    assert [s.final for s in permuted.seats] == [result.seats[i].final for i in order]


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 20) | st.floats() | st.text(max_size=3),
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(st.sampled_from(["player", "share", "x"]), inner, max_size=3)
    ),
    max_leaves=8,
)
fuzzed_hands = st.fixed_dictionaries(
    {"result": st.sampled_from(["win", "draw"])},
    optional={"winner": json_values, "discarder": json_values, "fan": json_values, "liable": json_values},
)


@given(st.lists(fuzzed_hands | json_values, max_size=4))
def test_malformed_input_is_a_rule_error_never_a_crash(hand_list):
    # whatever a form or an archive sends, the referee gets a message, not a server error
    try:
        SAL.play_game(hand_list)
    except RuleError as exc:
        assert exc.message
