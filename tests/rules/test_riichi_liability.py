"""Liability (pao) and abortive draws under every riichi preset, with the figures worked from the texts.

Texts (line numbers in shared/rulebooks):
- 2025: ema/ema-riichi-rules-2025.txt §3.3.7, lines 450-454: "In case of a win by self-draw, the liable
  player alone pays the full value of the yakuman. In case another opponent discards the winning tile for
  the yakuman, they share the payment equally with the liable player, but only the discarder pays for any
  counters." §4.2.6, lines 898-907: big three dragons and big four winds name §3.3.7. §3.4, line 557: "A hand
  can end in two ways: by exhaustive draw …, or by one or more players declaring a win" (no abortive draw).
- 002 (EMA 2008, Spanish): 002_e0d07d83d5b4395f.txt §3.3.6, lines 225-227: the feeder "debe pagar el valor
  completo de la mano … (los otros dos oponentes no deben pagar nada)"; on a discard by another opponent
  "éste comparte el pago" with the feeder (counters not named). §4.2.5, line 612: Dai Suushii "vale dos
  yakuman". §3.4.3, lines 289-300: abortive draw, no noten payment, a counter added, the riichi bets stay.
  §3.4.12, line 386: "Este permanece como Este si consigue un mahjong o si es tenpai tras un empate".
- 2016 and WRC: no text among the rulebooks (docs/rules-notes-riichi.md says what each preset takes).
"""

from __future__ import annotations

import pytest

from scoring.rules.base import RuleError
from scoring.rules.registry import get_ruleset
from scoring.rules.riichi import PRESETS
from scoring.rules.tiles.check import hand_checks, liable_yakuman_of

RIICHI = ("ema-riichi-2016", "ema-riichi-2025", "wrc-riichi", "ema-riichi-2008")
#: one draw with only the dealer tenpai: the dealer stays and one counter is on the next hand
COUNTER = {"result": "draw", "tenpai": [0]}
#: big three dragons with the three dragon sets called; big four winds with the four wind sets called
DRAGONS = {"hand": "123m55p", "melds": ["pung 5z", "pung 6z", "pung 7z"], "winning_tile": "5p"}
WINDS = {"hand": "55p", "melds": ["pung 1z", "pung 2z", "pung 3z", "pung 4z"], "winning_tile": "5p"}


def deltas(preset, hands, **overrides):
    return get_ruleset(preset, overrides or None).play_game(hands).steps[-1].deltas


def test_the_presets_say_who_is_liable_and_for_what():
    c = {key: PRESETS[key].config for key in RIICHI}
    assert [c[k].liability for k in RIICHI] == [True] * 4
    # 2025 line 454 "only the discarder pays for any counters"; 002 line 227 "comparte el pago"
    assert [c[k].liability_counters for k in RIICHI] == ["discarder", "discarder", "discarder", "shared"]
    # 2025 line 557 (two ways to end a hand); 002 §3.4.3 line 289; WRC 2015 lists an abortive draw (§5.7.3)
    assert [c[k].abortive_draws for k in RIICHI] == [False, False, True, True]
    for key in RIICHI:
        assert get_ruleset(key).liable_yakuman() == ("big three dragons", "big four winds")


# -- a yakuman on a discard: the discarder and the liable player share it ----------------------------------
@pytest.mark.parametrize("preset", RIICHI)
def test_dealer_yakuman_ron_is_split_half_and_half(preset):
    """2025 line 453 "they share the payment equally"; 002 line 227: the dealer's 48000 is 24000 each."""
    ron = {"result": "ron", "loser": 1, "winners": [{"player": 0, "han": 13, "liable": 2}]}
    assert deltas(preset, [ron]) == (48000, -24000, -24000, 0)


@pytest.mark.parametrize("preset", RIICHI)
def test_non_dealer_yakuman_ron_is_split_half_and_half(preset):
    ron = {"result": "ron", "loser": 2, "winners": [{"player": 1, "han": 13, "liable": 3}]}
    assert deltas(preset, [ron]) == (0, 32000, -16000, -16000)


@pytest.mark.parametrize("preset", ["ema-riichi-2016", "ema-riichi-2025", "wrc-riichi"])
def test_the_discarder_alone_pays_the_counters_under_2025(preset):
    """2025 line 454: with one counter (300 on a ron) the discarder pays 16000 + 300, the liable 16000."""
    ron = {"result": "ron", "loser": 1, "winners": [{"player": 3, "han": 13, "liable": 2}]}
    assert deltas(preset, [COUNTER, ron]) == (0, -16300, -16000, 32300)


def test_the_counters_are_shared_too_under_2008():
    """002 line 227 shares "el pago", counters not named; the counters are part of the payment (§3.4.10,
    "incrementa el valor de la mano ganadora en 300 puntos"): 16150 each with one counter."""
    ron = {"result": "ron", "loser": 1, "winners": [{"player": 3, "han": 13, "liable": 2}]}
    assert deltas("ema-riichi-2008", [COUNTER, ron]) == (0, -16150, -16150, 32300)


def test_big_four_winds_is_two_yakuman_shared_under_2008():
    """002 line 612: Dai Suushii "vale dos yakuman" (64000 from a non-dealer), shared 32000 each."""
    ron = {"result": "ron", "loser": 0, "winners": [{"player": 2, "han": 13, "yakuman": 2, "liable": 1}]}
    assert deltas("ema-riichi-2008", [ron]) == (-32000, -32000, 64000, 0)


@pytest.mark.parametrize("preset", RIICHI)
def test_a_liable_discarder_pays_the_whole_hand(preset):
    ron = {"result": "ron", "loser": 2, "winners": [{"player": 1, "han": 13, "liable": 2}]}
    assert deltas(preset, [ron]) == (0, 32000, -32000, 0)


# -- a yakuman on a self-draw: the liable player alone pays ----------------------------------------------
@pytest.mark.parametrize("preset", RIICHI)
def test_tsumo_is_paid_whole_by_the_liable_player(preset):
    """2025 line 452 "the liable player alone pays the full value"; 002 line 225 "los otros dos oponentes no
    deben pagar nada": the dealer's 16000 all is 48000, a non-dealer's 16000/8000 is 32000."""
    dealer = {"result": "tsumo", "winner": 0, "han": 13, "liable": 3}
    assert deltas(preset, [dealer]) == (48000, 0, 0, -48000)
    other = {"result": "tsumo", "winner": 1, "han": 13, "liable": 0}
    assert deltas(preset, [other]) == (-32000, 32000, 0, 0)


@pytest.mark.parametrize("preset", RIICHI)
def test_the_liable_player_pays_the_counters_of_a_tsumo_and_the_winner_takes_the_sticks(preset):
    """Counters on a tsumo under liability: not stated (2025, 002); the liable player pays all three
    payers' 100 each per counter, as the one who "alone pays". The riichi bets go to the winner as ever."""
    tsumo = {"result": "tsumo", "winner": 1, "han": 13, "liable": 3, "riichi": [2]}
    assert deltas(preset, [COUNTER, tsumo]) == (0, 32000 + 300 + 1000, -1000, -32000 - 300)


# -- who may be named ----------------------------------------------------------------------------------
@pytest.mark.parametrize("preset", RIICHI)
def test_the_liable_player_is_not_the_winner(preset):
    ron = {"result": "ron", "loser": 1, "winners": [{"player": 0, "han": 13, "liable": 0}]}
    with pytest.raises(RuleError) as exc:
        get_ruleset(preset).play_game([ron])
    assert exc.value.path == "hands[0].winners[0].liable"
    assert "cannot be the winner" in exc.value.message


@pytest.mark.parametrize("preset", RIICHI)
def test_liability_needs_a_yakuman(preset):
    tsumo = {"result": "tsumo", "winner": 0, "han": 12, "liable": 1}
    with pytest.raises(RuleError) as exc:
        get_ruleset(preset).play_game([tsumo])
    assert exc.value.path == "hands[0].liable"
    assert "only to a yakuman" in exc.value.message


def test_a_tournament_without_liability_refuses_the_field():
    tsumo = {"result": "tsumo", "winner": 0, "han": 13, "liable": 1}
    with pytest.raises(RuleError) as exc:
        get_ruleset("ema-riichi-2025", {"liability": False}).play_game([tsumo])
    assert exc.value.path == "hands[0].liable"
    assert "'liability'" in exc.value.message
    assert get_ruleset("ema-riichi-2025", {"liability": False}).liable_yakuman() == ()


def test_a_bumped_winner_s_liability_moves_nothing():
    """WRC's head bump: only the winner first after the discarder wins, so the liability of the other does
    not apply."""
    ron = {
        "result": "ron",
        "loser": 0,
        "winners": [{"player": 1, "han": 1, "fu": 30}, {"player": 2, "han": 13, "liable": 3}],
    }
    assert deltas("wrc-riichi", [ron]) == (-1000, 1000, 0, 0)


@pytest.mark.parametrize(
    "tiles, preset, found",
    [
        (DRAGONS, "ema-riichi-2025", "big three dragons"),
        (WINDS, "ema-riichi-2025", "big four winds"),
        (WINDS, "ema-riichi-2008", "big four winds"),
    ],
)
def test_tiles_of_the_liable_yakuman_with_called_sets_pass(tiles, preset, found):
    rules = get_ruleset(preset)
    assert liable_yakuman_of(rules, tiles) == found
    hand = {"result": "tsumo", "winner": 1, "liable": 2, "tiles": tiles}
    (check,) = hand_checks(rules, hand, state=(0, 0, 0))
    assert check.valuation.claim["han"] == 13
    assert check.valuation.claim["yakuman"] == (2 if preset == "ema-riichi-2008" and tiles is WINDS else 1)


@pytest.mark.parametrize(
    "tiles",
    [
        # a yakuman that carries no liability (all honours, a dragon pung concealed)
        {"hand": "11122z", "melds": ["pung 3z", "pung 4z", "pung 6z"], "winning_tile": "2z"},
        # big three dragons with one dragon set concealed: not "already called" (2025 line 452)
        {"hand": "123m55p777z", "melds": ["pung 5z", "pung 6z"], "winning_tile": "5p"},
    ],
)
def test_tiles_without_the_called_sets_refuse_a_liable_player(tiles):
    rules = get_ruleset("ema-riichi-2025")
    assert liable_yakuman_of(rules, tiles) is None
    hand = {"result": "ron", "loser": 0, "winners": [{"player": 1, "liable": 2, "tiles": tiles}]}
    with pytest.raises(RuleError) as exc:
        hand_checks(rules, hand, state=(0, 0, 0))
    assert exc.value.path == "winners[0].liable"
    assert "big three dragons or big four winds" in exc.value.message


@pytest.mark.parametrize("preset", RIICHI)
def test_liability_keeps_every_hand_zero_sum(preset):
    hands = [
        COUNTER,
        {"result": "ron", "loser": 1, "winners": [{"player": 0, "han": 13, "liable": 2}], "riichi": [3]},
        {"result": "tsumo", "winner": 2, "han": 13, "liable": 1},
    ]
    game = get_ruleset(preset).play_game(hands)
    assert [sum(step.deltas) for step in game.steps] == [0, 0, 0]
    assert sum(game.scores) == 4 * 30000


# -- abortive draws ------------------------------------------------------------------------------------
@pytest.mark.parametrize("preset", ["ema-riichi-2025", "ema-riichi-2016"])
def test_presets_without_abortive_draws_refuse_them(preset):
    """2025 §3.4 line 557: a hand ends by exhaustive draw or by a win."""
    with pytest.raises(RuleError) as exc:
        get_ruleset(preset).play_game([{"result": "draw", "abortive": True, "tenpai": []}])
    assert exc.value.path == "hands[0].abortive"
    assert "abortive_draws" in exc.value.message


@pytest.mark.parametrize("preset", ["ema-riichi-2008", "wrc-riichi"])
def test_an_abortive_draw_pays_nothing_adds_a_counter_and_keeps_the_sticks(preset):
    """002 §3.4.3 line 289: no noten payment, a counter added; line 300: the riichi bets stay on the table
    for the next winner; §3.4.12 line 386: the dealer stays when tenpai after a draw."""
    rules = get_ruleset(preset)
    four_riichi = {"result": "draw", "abortive": True, "tenpai": [0, 1, 2, 3], "riichi": [0, 1, 2, 3]}
    game = rules.play_game([four_riichi])
    step = game.steps[0]
    assert step.deltas == (-1000, -1000, -1000, -1000)  # the bets, on the table
    assert (step.sticks, step.honba, step.dealer) == (4, 1, 0)  # dealer repeats
    # the dealer alone tenpai: an exhaustive draw would pay 3000 to the dealer; an abortive one pays nothing
    game = rules.play_game([four_riichi, {"result": "draw", "abortive": True, "tenpai": [0]}])
    assert game.steps[1].deltas == (0, 0, 0, 0)
    assert (game.steps[1].sticks, game.steps[1].honba, game.steps[1].dealer) == (4, 2, 0)
    # nobody tenpai (nine terminals): the deal passes, the counter and the sticks stay
    game = rules.play_game([four_riichi, {"result": "draw", "abortive": True}])
    assert (game.steps[1].sticks, game.steps[1].honba, game.steps[1].dealer) == (4, 2, 1)
    # the next winner takes the four sticks and the two counters
    win = {"result": "ron", "loser": 2, "winners": [{"player": 3, "han": 1, "fu": 30}]}
    game = rules.play_game([four_riichi, {"result": "draw", "abortive": True}, win])
    assert game.steps[2].deltas == (0, 0, -1000 - 600, 1000 + 600 + 4000)


def test_abortive_must_be_true_or_false():
    with pytest.raises(RuleError) as exc:
        get_ruleset("ema-riichi-2008").play_game([{"result": "draw", "abortive": "yes"}])
    assert exc.value.path == "hands[0].abortive"
