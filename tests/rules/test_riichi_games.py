"""Riichi hands, games and session results: the examples of RULES.md and rulebooks 002/003."""

from __future__ import annotations

from fractions import Fraction

import pytest

from scoring.rules.base import GameResult, RuleError
from scoring.rules.riichi import (
    PRESETS,
    RiichiConfig,
    hand_value,
    noten_payments,
    parse_hand,
    seat_hands,
    valid_fu,
)
from tests.rules.riichi_support import chombo, draw, ron, tsumo

EMA = PRESETS["ema-riichi-2016"]
EMA2025 = PRESETS["ema-riichi-2025"]
WRC = PRESETS["wrc-riichi"]
EMA2008 = PRESETS["ema-riichi-2008"]


def finals(ruleset, scores, **kwargs):
    result = ruleset.table_result(ruleset.game_from_totals(scores), **kwargs)
    return [seat.final for seat in result.seats]


# -- presets ----------------------------------------------------------------------------------------
def test_presets_follow_the_rules_digest():
    assert set(PRESETS) == {"ema-riichi-2016", "ema-riichi-2025", "wrc-riichi", "ema-riichi-2008"}
    for ruleset in PRESETS.values():
        c = ruleset.config
        assert ruleset.family == "riichi"
        assert (c.start_points, c.target_points, c.oka) == (30000, 30000, 0)
        assert (c.honba_ron, c.honba_tsumo, c.riichi_stick, c.noten_total) == (300, 100, 1000, 3000)
    assert EMA.config.uma == WRC.config.uma == EMA2025.config.uma == (15000, 5000, -5000, -15000)
    assert EMA2008.config.uma == (9000, 3000, -3000, -9000)  # 002 §3.6.1
    assert [r.config.kiriage_mangan for r in (EMA, EMA2025, WRC, EMA2008)] == [False, True, False, False]
    assert [r.config.multiple_ron for r in (EMA, EMA2025, WRC, EMA2008)] == [True, True, False, True]
    assert [r.chombo_points() for r in (EMA, EMA2025, WRC, EMA2008)] == [-20000, -20000, -20000, 0]
    assert EMA2008.config.chombo_policy == "table"


def test_overrides_are_checked():
    custom = EMA.with_overrides({"uma": [20000, 10000, -10000, -20000]})
    assert custom.config.uma == (20000, 10000, -10000, -20000)
    assert EMA.config.uma == (15000, 5000, -5000, -15000)  # the preset itself is untouched
    with pytest.raises(RuleError) as exc:
        EMA.with_overrides({"uma": [20000, 10000, -10000, -10000]})
    assert (exc.value.path, exc.value.message) == ("rules.uma", "uma must sum to 0, not 10000")
    with pytest.raises(RuleError) as exc:
        EMA.with_overrides({"chombo_policy": "later"})
    assert exc.value.path == "rules.chombo_policy"
    with pytest.raises(RuleError):
        EMA.with_overrides({"kiriage": True})
    assert EMA.with_overrides({"two_yaku_counters": None}).config.two_yaku_counters is None


# -- hand values -------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("han", "fu", "dealer", "ron", "tsumo"),
    [
        (1, 30, False, 1000, (500, 300)),  # 30 × 2^3 = 240: 4 × 240 = 960 → 1000
        (2, 20, False, None, (700, 400)),  # pinfu tsumo, 320: 640 → 700, 320 → 400
        (2, 25, False, 1600, None),  # seven pairs, 400 × 4
        (3, 60, False, 7700, (3900, 2000)),  # 1920 × 4 = 7680 → 7700, no kiriage
        (4, 30, True, 11600, (3900, 3900)),  # 1920 × 6 = 11520 → 11600
        (4, 40, False, 8000, (4000, 2000)),  # 2560 ≥ 2000: mangan
        (5, None, True, 12000, (4000, 4000)),
        (7, None, False, 12000, (6000, 3000)),  # haneman
        (10, None, True, 24000, (8000, 8000)),  # baiman
        (12, None, False, 24000, (12000, 6000)),  # sanbaiman
        (13, None, False, 32000, (16000, 8000)),  # yakuman
        (13, None, True, 48000, (16000, 16000)),
    ],
)
def test_hand_values(han, fu, dealer, ron, tsumo):
    value = hand_value(han, fu, dealer=dealer)
    if ron is not None:
        assert value.ron == ron
    if tsumo is not None:
        assert (value.tsumo_dealer, value.tsumo_other) == tsumo


@pytest.mark.parametrize(("han", "fu"), [(4, 30), (3, 60)])
def test_kiriage_mangan_only_in_the_2025_preset(han, fu):
    assert EMA.hand_value(han, fu, dealer=False).ron == 7700
    assert EMA2025.hand_value(han, fu, dealer=False).ron == 8000
    assert EMA2025.hand_value(han, fu, dealer=True).ron == 12000
    assert EMA2025.hand_value(han, fu, dealer=False).limit == "mangan"
    assert EMA2025.hand_value(3, 50, dealer=False).ron == 6400  # 1600 base: below kiriage


def test_double_yakuman_only_where_the_text_has_one():
    """002 §4.2.5, Cuatro Grandes Vientos: "Esta jugada vale dos yakuman": a claimed double yakuman pays
    64000 on a non-dealer tsumo under ema-riichi-2008. 2025 §4.2.6 lists Big Four Winds as a single
    yakuman and §4.2 says "Yakuman are not cumulative": the 2016, 2025 and WRC presets refuse
    ``yakuman: 2``."""
    assert EMA2008.hand_value(13, None, dealer=False, yakuman=2).ron == 64000
    hand = tsumo(1, 13)
    hand["yakuman"] = 2
    assert EMA2008.play_game([hand]).steps[0].deltas == (-32000, 64000, -16000, -16000)
    for ruleset in (EMA, EMA2025, WRC):
        with pytest.raises(RuleError) as exc:
            ruleset.play_game([hand])
        assert exc.value.path == "hands[0].yakuman"
        assert "double_yakuman" in exc.value.message


def test_valid_fu_follows_the_tables():
    assert valid_fu(1, "ron") == [30, 40, 50, 60, 70, 80, 90, 100, 110]
    assert valid_fu(2, "ron") == [20, 25, *range(30, 111, 10)]  # 20 fu: by the formula, not in 002
    assert valid_fu(1, "tsumo") == [30, 40, 50, 60, 70, 80, 90, 100, 110]
    assert valid_fu(2, "tsumo", True) == [20, *range(30, 111, 10)]
    assert valid_fu(3, "tsumo") == [20, 25, *range(30, 111, 10)]
    assert valid_fu(5, "ron") == []  # fu do not count from mangan up
    assert EMA.valid_fu(4, "ron", dealer=True) == valid_fu(4, "ron")


# -- validation --------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("hand", "path", "message"),
    [
        (ron(2, (0, 1, 20)), "winners[0].fu", "1 han 20 fu cannot be won on a discard"),
        (ron(2, (0, 1, 25)), "winners[0].fu", "25 fu needs at least 2 han (seven pairs)"),
        (ron(2, (0, 2, 35)), "winners[0].fu", "fu must be 20, 25 or a multiple of 10 up to 110"),
        (ron(2, (0, 2, 120)), "winners[0].fu", "fu must be 20, 25 or a multiple of 10 up to 110"),
        (ron(2, (2, 2, 30)), "winners[0].player", "the discarder cannot be the winner"),
        (
            ron(2, (0, 2, 30), (3, 1, 30), (0, 1, 30)),
            "winners[2].player",
            "seat 0 is listed twice among the winners",
        ),
        (ron(2, (0, 2, 0)), "winners[0].fu", "a 2 han hand needs its fu"),
        (ron(2, (4, 2, 30)), "winners[0].player", "a player must be given as a seat 0..3, not 4"),
        (ron(-1, (0, 2, 30)), "loser", "a player must be given as a seat 0..3, not -1"),
        (ron(1, (0, 0, 30)), "winners[0].han", "han must be at least 1 (a win needs a yaku), not 0"),
        (tsumo(0, 1, 20), "fu", "1 han 20 fu cannot be won by self-draw (pinfu with menzen tsumo is 2 han)"),
        (tsumo(0, 2, 25), "fu", "25 fu needs at least 3 han on a self-draw (seven pairs with menzen tsumo)"),
        (tsumo(0, 2, 30, riichi=[1, 1]), "riichi[1]", "seat 1 is listed twice in riichi"),
        (tsumo(True, 2, 30), "winner", "a player must be given as a seat 0..3, not true"),
        (draw([0, 5]), "tenpai[1]", "a player must be given as a seat 0..3, not 5"),
        ({"result": "draw", "tenpai": "all"}, "tenpai", "tenpai must be a list of seats, not “all”"),
        (
            {"result": "abort"},
            "result",
            "unknown hand result “abort” (known results: ron, tsumo, draw, chombo)",
        ),
        ({"result": "chombo", "player": 1, "riichi": [1]}, "riichi", None),
        ({"result": "ron", "loser": 1, "winners": [], "riichi": []}, "winners", None),
        (
            {"result": "tsumo", "winner": 1, "han": "3", "fu": 30},
            "han",
            "han must be a whole number, not “3”",
        ),
        (
            {**tsumo(1, 13), "yakuman": 2, "han": 12},
            "yakuman",
            "a double yakuman needs 13 han or more, not 12",
        ),
    ],
)
def test_faulty_hands_are_refused(hand, path, message):
    with pytest.raises(RuleError) as exc:
        parse_hand(hand, EMA.config)
    assert exc.value.path == path
    if message:
        assert exc.value.message == message
    with pytest.raises(RuleError) as exc:  # in a game the path says which hand
        EMA.play_game([draw([]), hand])
    assert exc.value.path == f"hands[1].{path}"


def test_fu_is_ignored_from_mangan_up():
    assert parse_hand(ron(1, (0, 5, None))).winners[0].fu is None
    game = EMA.play_game([ron(1, (0, 6, 20))])  # 20 fu is no fault on a haneman
    assert game.steps[0].deltas == (18000, -18000, 0, 0)


def test_multiple_winners_are_kept_in_turn_order_after_the_discarder():
    hand = parse_hand(ron(2, (1, 2, 30), (0, 2, 30), (3, 2, 30)))
    assert [w.player for w in hand.winners] == [3, 0, 1]


def test_seat_hands_maps_player_keys_and_refuses_strangers():
    seats = ["ana", "bo", "cy", "di"]
    hands = [
        {
            "result": "ron",
            "loser": "cy",
            "winners": [{"player": "ana", "han": 3, "fu": 30}],
            "riichi": ["ana"],
        },
        {"result": "draw", "tenpai": ["ana", "di"], "riichi": ["di"]},
        {"result": "chombo", "player": "bo"},
    ]
    assert seat_hands(hands, seats) == [
        {"result": "ron", "loser": 2, "winners": [{"player": 0, "han": 3, "fu": 30}], "riichi": [0]},
        {"result": "draw", "tenpai": [0, 3], "riichi": [3]},
        {"result": "chombo", "player": 1},
    ]
    with pytest.raises(RuleError) as exc:
        seat_hands([{"result": "draw", "tenpai": ["ed"], "riichi": []}], seats)
    assert exc.value.path == "hands[0].tenpai[0]"


# -- counters, sticks, draws -------------------------------------------------------------------------
def test_counters_add_300_on_a_ron_and_100_per_payer_on_a_tsumo():
    # Two draws by nobody... the dealer is noten, so the deal passes, but each draw adds a counter.
    game = EMA.play_game([draw([0]), draw([0]), ron(3, (1, 1, 30)), draw([0]), tsumo(1, 2, 30)])
    # hands 1-2: dealer 0 tenpai keeps the deal; 2 counters on hand 3: 1000 + 2 × 300
    assert game.steps[2].deltas == (0, 1600, 0, -1600)
    assert game.steps[2].honba == 0 and game.steps[2].dealer == 1  # non-dealer win: counters reset
    # hand 4: dealer 1 noten at the draw: deal passes to 2, one counter
    assert (game.steps[3].dealer, game.steps[3].honba) == (2, 1)
    # hand 5: 2 han 30 fu tsumo by seat 1, dealer 2 pays 1000 + 100, the others 500 + 100
    assert game.steps[4].deltas == (-600, 2300, -1100, -600)


@pytest.mark.parametrize(
    ("tenpai", "deltas"),
    [
        ([], (0, 0, 0, 0)),
        ([2], (-1000, -1000, 3000, -1000)),
        ([0, 3], (1500, -1500, -1500, 1500)),
        ([0, 1, 3], (1000, 1000, -3000, 1000)),
        ([0, 1, 2, 3], (0, 0, 0, 0)),
    ],
)
def test_noten_payments(tenpai, deltas):
    assert noten_payments(tenpai, 3000) == deltas
    step = EMA.play_game([draw(tenpai)]).steps[0]
    assert step.deltas == deltas
    assert step.honba == 1  # a counter after any draw
    assert step.dealer == (0 if 0 in tenpai else 1)  # the dealer keeps the deal only when tenpai


def test_riichi_sticks_carry_over_draws_and_go_to_the_next_winner():
    game = EMA.play_game([draw([0, 1], riichi=[0, 1]), draw([2], riichi=[2]), ron(0, (3, 1, 30))])
    assert [s.sticks for s in game.steps] == [2, 3, 0]
    # 1000 + 2 counters × 300 + 3 sticks
    assert game.steps[2].deltas == (-1600, 0, 0, 4600)
    # draw 1: 30000 ± 1500, less the riichi bets of 0 and 1: 30500 30500 28500 28500
    # draw 2: seat 2 tenpai alone (+3000, bet −1000), the others −1000: 29500 29500 30500 27500
    assert game.scores == (27900, 29500, 30500, 32100)


def test_the_riichi_declarer_who_wins_gets_the_stick_back():
    step = EMA.play_game([tsumo(2, 1, 30, riichi=[2])]).steps[0]
    assert step.deltas == (-500, -300, 1100, -300)
    step = EMA.play_game([ron(0, (2, 1, 30), riichi=[0, 2])]).steps[0]
    assert step.deltas == (-2000, 0, 2000, 0)  # 1000 for the hand, the discarder's stick


# -- multiple ron and head bump ----------------------------------------------------------------------
def test_double_ron_under_ema():
    """002 §4.1: the discarder pays each winner with counters; a riichi winner takes back their stick,
    the other sticks go to the winner first in turn order after the discarder."""
    hands = [draw([0], riichi=[1]), ron(3, (2, 2, 40), (0, 1, 30), riichi=[2, 3])]
    step = EMA.play_game(hands).steps[1]
    # dealer 0 kept the deal with one counter; turn order after seat 3: 0, 1, 2, so seat 0 is first.
    # seat 0 (dealer) 1 han 30 fu: 1500 + 300; seat 2: 2 han 40 fu 2600 + 300.
    # sticks: seat 1's from the draw and seat 3's go to seat 0; seat 2 takes back its own.
    assert step.deltas == (1800 + 2000, 0, 2900 - 1000 + 1000, -1800 - 2900 - 1000)
    assert (step.dealer, step.honba, step.sticks) == (0, 2, 0)  # the dealer won: counter added


def test_triple_ron_under_ema():
    step = EMA.play_game([ron(1, (0, 1, 30), (2, 1, 30), (3, 1, 30))]).steps[0]
    assert step.deltas == (1500, -3500, 1000, 1000)


def test_head_bump_under_wrc():
    hands = [draw([0], riichi=[1]), ron(3, (2, 2, 40), (0, 1, 30), riichi=[2, 3])]
    step = WRC.play_game(hands).steps[1]
    # only seat 0, first after the discarder, wins: 1500 + 300 and all three sticks
    assert step.deltas == (1800 + 3000, 0, -1000, -1800 - 1000)
    assert "head bump" in step.note


def test_head_bump_decides_the_dealer_rotation():
    hand = ron(1, (2, 1, 30), (0, 1, 30))  # dealer 0 is second after the discarder
    assert (EMA.play_game([hand]).steps[0].dealer, EMA.play_game([hand]).steps[0].honba) == (0, 1)
    step = WRC.play_game([hand]).steps[0]
    assert (step.deltas, step.dealer, step.honba) == ((0, -1000, 1000, 0), 1, 0)


# -- chombo --------------------------------------------------------------------------------------------
def test_chombo_under_ema_2016_is_charged_after_the_game():
    game = EMA.play_game([draw([1], riichi=[1]), chombo(2), ron(0, (3, 1, 30))])
    step = game.steps[1]
    assert step.deltas == (0, 0, 0, 0) and step.replayed
    assert (step.dealer, step.honba, step.sticks) == (1, 1, 1)  # nothing moves
    assert game.chombos == (0, 0, 1, 0)
    result = EMA.table_result(game)
    assert [s.chombo for s in result.seats] == [0, 0, -20000, 0]
    assert sum(s.final for s in result.seats) == -20000


@pytest.mark.parametrize(
    ("offender", "deltas"),
    [(0, (-12000, 4000, 4000, 4000)), (1, (4000, -8000, 2000, 2000)), (3, (4000, 2000, 2000, -8000))],
)
def test_chombo_under_ema_2008_is_a_mangan_paid_at_the_table(offender, deltas):
    """002 §3.4.6: 4000 to East, 2000 to the others; East pays 4000 each; the hand is dealt again,
    no counter is added and the dealer does not change."""
    game = EMA2008.play_game([draw([0], riichi=[3]), chombo(offender)])
    step = game.steps[1]
    assert step.deltas == deltas
    assert step.replayed and (step.dealer, step.honba, step.sticks) == (0, 1, 1)
    assert game.chombos == (0, 0, 0, 0)
    # the totals-mode chombo penalty deducts nothing either: the payment is in the sheet
    result = EMA2008.table_result(game, chombos=(0, 1, 0, 0))
    assert [s.chombo for s in result.seats] == [0, 0, 0, 0]


# -- the end of the game ---------------------------------------------------------------------------------
def test_the_game_ends_after_south_4():
    # eight non-dealer wins: the deal passes every hand, East 1 to South 4
    game = EMA.play_game([tsumo((k + 1) % 4, 1, 30) for k in range(8)])
    assert [s.round_wind for s in game.steps] == ["E", "E", "E", "S", "S", "S", "S", None]
    assert game.steps[-1].dealer is None and "game over" in game.steps[-1].note
    with pytest.raises(RuleError) as exc:
        EMA.play_game([draw([])] * 8 + [draw([])])
    assert exc.value.path == "hands[8]"
    assert "no extension" in exc.value.message


def test_leftover_sticks_go_to_first_place_and_are_split_when_tied():
    # dealer 1 han 30 fu ron: 1500; then seat 1 bets and nobody wins: 31500 29000 28500 30000
    game = EMA.play_game([ron(2, (0, 1, 30)), draw([], riichi=[1])])
    assert game.scores == (32500, 29000, 28500, 30000) and game.leftover_sticks == 1
    game = EMA.play_game([draw([0, 1], riichi=[2])])
    assert game.scores == (32000, 32000, 27500, 28500)  # 31500 + 500 each
    three_way = EMA.play_game([draw([0, 1, 2], riichi=[3])])  # 31000 each, 1000 split in three
    assert three_way.scores[:3] == (31000 + Fraction(1000, 3),) * 3
    assert sum(three_way.scores) == 120000


def test_tied_firsts_split_sticks_in_whole_points_under_ema_2025():
    """2025 §3.7: "Any riichi bets remaining on the table are collected by the winner; the points are
    split in case of a tie (any decimals are rounded down)." Three players tied at 31000 share the
    1000 left: 333 each, from a hand record and from the totals of a score sheet alike."""
    game = EMA2025.play_game([draw([0, 1, 2], riichi=[3])])
    assert game.scores == (31333, 31333, 31333, 26000)
    totals = EMA2025.game_from_totals([31000, 31000, 31000, 26000])
    assert totals.scores == (31333, 31333, 31333, 26000) and totals.leftover_sticks == 1


def test_two_yaku_from_five_counters_under_ema_2008():
    hands = [draw([0])] * 5 + [ron(2, (1, 1, 30))]
    with pytest.raises(RuleError) as exc:
        EMA2008.play_game(hands)
    assert exc.value.path == "hands[5].winners[0].han"
    assert "5 counters" in exc.value.message
    assert EMA2008.play_game([*hands[:5], ron(2, (1, 2, 30))]).steps[-1].deltas == (0, 3500, -3500, 0)
    assert EMA.play_game(hands).steps[-1].deltas == (0, 2500, -2500, 0)  # not a 2016 rule


# -- totals and session results: the RULES.md examples -----------------------------------------------------
@pytest.mark.parametrize("ruleset", [EMA, EMA2025, WRC])
def test_rules_digest_examples(ruleset):
    assert finals(ruleset, [42300, 31700, 25000, 21000]) == [27300, 6700, -10000, -24000]
    assert finals(ruleset, [35000, 35000, 28000, 22000]) == [15000, 15000, -7000, -23000]
    with_chombo = finals(ruleset, [35000, 35000, 28000, 22000], chombos=(0, 0, 1, 0))
    assert with_chombo == [15000, 15000, -27000, -23000]
    assert sum(with_chombo) == -20000
    assert finals(ruleset, [40000, 30000, 30000, 20000]) == [25000, 0, 0, -25000]


def test_ema_2008_uma():
    assert finals(EMA2008, [42300, 31700, 25000, 21000]) == [21300, 4700, -8000, -18000]
    assert finals(EMA2008, [35000, 35000, 28000, 22000]) == [
        11000,
        11000,
        -5000,
        -17000,
    ]  # 002 §3.6.1: 6000 each


def test_seat_result_parts():
    result = EMA.table_result(EMA.game_from_totals([35000, 35000, 28000, 22000]), deductions=(0, -2000, 0, 0))
    second = result.seats[1]
    assert (second.game_score, second.uma, second.chombo, second.penalties, second.final) == (
        35000,
        10000,
        0,
        -2000,
        13000,
    )
    assert second.table_points is None


def test_oka_goes_to_first_place_shared_when_tied():
    ruleset = EMA.with_overrides({"start_points": 25000, "oka": 20000})
    result = ruleset.table_result(ruleset.game_from_totals([35000, 35000, 20000, 10000]))
    # (15000 + 5000 + 20000) / 2 each; raw − 30000
    assert [s.uma for s in result.seats] == [20000, 20000, -5000, -15000]
    assert [s.final for s in result.seats] == [25000, 25000, -15000, -35000]


def test_totals_short_by_whole_sticks_go_to_first_place():
    game = EMA.game_from_totals([40000, 30000, 29000, 19000])
    assert game.scores == (42000, 30000, 29000, 19000) and game.leftover_sticks == 2
    game = EMA.game_from_totals([35000, 35000, 29000, 20000])
    assert game.scores == (35500, 35500, 29000, 20000)


@pytest.mark.parametrize("scores", [[40000, 30000, 30000, 19500], [40000, 31000, 30000, 20000]])
def test_totals_that_do_not_add_up_are_refused(scores):
    total = sum(scores)
    with pytest.raises(RuleError) as exc:
        EMA.game_from_totals(scores)
    assert exc.value.path == "scores"
    assert exc.value.message == f"riichi totals sum to {total}, which is not 120000 less whole riichi sticks"
    game = EMA.game_from_totals(scores, imbalance_reason="sheet signed by the referee")
    assert game.scores == tuple(scores) and game.imbalance_reason


def test_totals_must_be_hundreds():
    with pytest.raises(RuleError) as exc:
        EMA.game_from_totals([40050, 30000, 30000, 19950])
    assert exc.value.path == "scores[0]"
    with pytest.raises(RuleError):
        EMA.game_from_totals([40000, 30000, 50000])


def test_penalty_amounts():
    assert EMA.referee_bounds() == (-100000, 0)
    for key, ruleset in PRESETS.items():
        if key == "ema-riichi-2025":  # §7.2 (line 1323): 1,000 points a minute
            assert ruleset.late_arrival(5).points == -5000
        else:
            with pytest.raises(RuleError):
                ruleset.late_arrival(5)  # the other riichi texts set no amount
        with pytest.raises(RuleError):
            ruleset.foul(1)
        with pytest.raises(RuleError) as exc:
            ruleset.false_hu(0, "invalid_hand")
        assert "chombo" in exc.value.message


def test_config_defaults_are_the_2016_preset():
    assert RiichiConfig() == EMA.config
    assert isinstance(EMA.table_result(GameResult(scores=(30000,) * 4)).seats[0].final, int)
