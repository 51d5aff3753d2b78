"""Whole riichi games checked hand by hand against values worked out from rulebook 002.

Each row: the hand, then what it must do: the deltas (bets, counters and sticks included), the running
scores, and the dealer, round wind, counters and sticks for the next hand. The comments show the sums.
"""

from __future__ import annotations

import pytest

from scoring.rules.base import RuleError
from scoring.rules.riichi import PRESETS
from tests.rules.riichi_support import draw, ron, tsumo

EMA = PRESETS["ema-riichi-2016"]
EMA2008 = PRESETS["ema-riichi-2008"]
WRC = PRESETS["wrc-riichi"]


# fmt: off
EMA_2016_GAME = [
    # East 1, dealer 0. Dealer ron 3 han 30 fu: 960 × 6 = 5760 → 5800; seat 0's own bet comes back.
    (ron(2, (0, 3, 30), riichi=[0]), (5800, 0, -5800, 0), (35800, 30000, 24200, 30000), 0, "E", 1, 0),
    # East 1, 1 counter. Seat 1 bets and is alone tenpai: +3000 from the three noten, 1000 each.
    (draw([1], riichi=[1]), (-1000, 2000, -1000, -1000), (34800, 32000, 23200, 29000), 1, "E", 2, 1),
    # East 2, 2 counters, 1 stick. Seat 3 pinfu tsumo 2 han 20 fu: base 320; dealer 1 pays 700 + 200,
    # seats 0 and 2 pay 400 + 200; seat 3: 2100 + the 1000 stick.
    (tsumo(3, 2, 20), (-600, -900, -600, 3100), (34200, 31100, 22600, 32100), 2, "E", 0, 0),
    # East 3, dealer 2. Double ron on seat 1: turn order after 1 is 2, 3, 0, so dealer 2 is first.
    # Seat 2: 4 han 30 fu, 1920 × 6 = 11520 → 11600. Seat 3: 1 han 40 fu, 320 × 4 = 1280 → 1300.
    # Bets of 3 and 0: seat 3 takes back its own, seat 0's goes to seat 2. The dealer won: +1 counter.
    (ron(1, (3, 1, 40), (2, 4, 30), riichi=[3, 0]),
     (-1000, -12900, 12600, 1300), (33200, 18200, 35200, 33400), 2, "E", 1, 0),
    # East 3, 1 counter. Seat 1 ron 3 han 60 fu: 1920 × 4 = 7680 → 7700 (no kiriage) + 300.
    (ron(0, (1, 3, 60)), (-8000, 8000, 0, 0), (25200, 26200, 35200, 33400), 3, "E", 0, 0),
    # East 4, dealer 3. Two tenpai (0 and 3) get 1500 each from the two noten; seat 0 bets.
    (draw([0, 3], riichi=[0]), (500, -1500, -1500, 1500), (25700, 24700, 33700, 34900), 3, "E", 1, 1),
    # East 4, 1 counter. Three tenpai get 1000 each from dealer 3, who is noten: the deal passes
    # and South 1 begins with 2 counters and 2 sticks (seat 1 bet too).
    (draw([0, 1, 2], riichi=[1]), (1000, 0, 1000, -3000), (26700, 24700, 34700, 31900), 0, "S", 2, 2),
    # South 1, 2 counters. Dealer 0 mangan tsumo with a bet: 4000 + 200 from each, plus 3 sticks.
    (tsumo(0, 5, riichi=[0]), (14600, -4200, -4200, -4200), (41300, 20500, 30500, 27700), 0, "S", 3, 0),
    # Chombo by seat 2: nothing at the table (20000 after the game); dealt again, counters kept.
    ({"result": "chombo", "player": 2}, (0, 0, 0, 0), (41300, 20500, 30500, 27700), 0, "S", 3, 0),
    # South 1, 3 counters. Seat 3 seven pairs 2 han 25 fu on dealer 0's discard: 1600 + 900;
    # bets of 3 and 2 go to seat 3.
    (ron(0, (3, 2, 25), riichi=[3, 2]), (-2500, 0, -1000, 3500), (38800, 20500, 29500, 31200), 1, "S", 0, 0),
    # South 2, dealer 1. Seat 2 tsumo 1 han 30 fu: 240 → dealer pays 500, the others 300.
    (tsumo(2, 1, 30), (-300, -500, 1100, -300), (38500, 20000, 30600, 30900), 2, "S", 0, 0),
    # South 3, dealer 2. Dealer yakuman tsumo: 16000 from each.
    (tsumo(2, 13), (-16000, -16000, 48000, -16000), (22500, 4000, 78600, 14900), 2, "S", 1, 0),
    # South 3, 1 counter. Seat 1 bets and deals into seat 0's haneman: 12000 + 300 + the stick.
    (ron(1, (0, 6, None), riichi=[1]), (13300, -13300, 0, 0), (35800, -9300, 78600, 14900), 3, "S", 0, 0),
    # South 4, dealer 3. Nobody tenpai, seat 2's bet stays: the dealer is noten, the game is over.
    (draw([], riichi=[2]), (0, 0, -1000, 0), (35800, -9300, 77600, 14900), None, None, 1, 1),
]

EMA_2008_GAME = [
    # East 1. Chombo by seat 1 (002 §3.4.6): 4000 to the dealer, 2000 to the others; dealt again.
    ({"result": "chombo", "player": 1}, (4000, -8000, 2000, 2000), (34000, 22000, 32000, 32000), 0, "E", 0, 0),
    # Dealer 0 alone tenpai with a bet: +3000 − 1000.
    (draw([0], riichi=[0]), (2000, -1000, -1000, -1000), (36000, 21000, 31000, 31000), 0, "E", 1, 1),
    (draw([0, 2]), (1500, -1500, 1500, -1500), (37500, 19500, 32500, 29500), 0, "E", 2, 1),
    # Chombo by the dealer: 4000 to each; counters and the stick stay.
    ({"result": "chombo", "player": 0}, (-12000, 4000, 4000, 4000), (25500, 23500, 36500, 33500), 0, "E", 2, 1),
    # Double ron on seat 3; after 3 come 0, 1, 2, so seat 1 is first. Seat 1: 1 han 30 fu 1000 + 600.
    # Seat 2: 2 han 40 fu, 640 × 4 = 2560 → 2600, + 600; takes back its bet. Seat 1 takes the old stick.
    (ron(3, (2, 2, 40), (1, 1, 30), riichi=[2]), (0, 2600, 3200, -4800), (25500, 26100, 39700, 28700), 1, "E", 0, 0),
    # East 2, dealer 1. Dealer tsumo 2 han 30 fu: 480 × 2 = 960 → 1000 from each.
    (tsumo(1, 2, 30), (-1000, 3000, -1000, -1000), (24500, 29100, 38700, 27700), 1, "E", 1, 0),
    # Dealer ron 4 han 40 fu: 2560 is over 2000, mangan 12000 + 300.
    (ron(2, (1, 4, 40)), (0, 12300, -12300, 0), (24500, 41400, 26400, 27700), 1, "E", 2, 0),
    # Seat 0 alone noten pays 1000 to each; seat 3 bets.
    (draw([1, 2, 3], riichi=[3]), (-3000, 1000, 1000, 0), (21500, 42400, 27400, 27700), 1, "E", 3, 1),
    # All tenpai: no payment; seat 0 bets.
    (draw([0, 1, 2, 3], riichi=[0]), (-1000, 0, 0, 0), (20500, 42400, 27400, 27700), 1, "E", 4, 2),
    # Nobody tenpai: no payment, the dealer is noten and the deal passes; a fifth counter.
    (draw([]), (0, 0, 0, 0), (20500, 42400, 27400, 27700), 2, "E", 5, 2),
    # East 3, 5 counters (2 yaku needed). Seat 0 tsumo 2 han 30 fu: 480; dealer 2 pays 1000 + 500,
    # the others 500 + 500; plus 2 sticks: 3500 + 2000.
    (tsumo(0, 2, 30), (5500, -1000, -1500, -1000), (26000, 41400, 25900, 26700), 3, "E", 0, 0),
    # East 4, dealer 3. Seven pairs with a dora, 3 han 25 fu on a discard: 800 × 6 = 4800.
    (ron(1, (3, 3, 25)), (0, -4800, 0, 4800), (26000, 36600, 25900, 31500), 3, "E", 1, 0),
]
# fmt: on


def _check(ruleset, rows):
    game = ruleset.play_game([row[0] for row in rows])
    assert len(game.steps) == len(rows)
    for i, (row, step) in enumerate(zip(rows, game.steps, strict=True)):
        _, deltas, scores, dealer, wind, honba, sticks = row
        got = (step.deltas, step.scores, step.dealer, step.round_wind, step.honba, step.sticks)
        assert got == (deltas, scores, dealer, wind, honba, sticks), f"hand {i}: {step.note}"
        assert step.replayed == (row[0]["result"] == "chombo")
        assert sum(deltas) == -1000 * (sticks - (rows[i - 1][-1] if i else 0))  # the sums above add up
    return game


def test_ema_2016_game_hand_by_hand():
    game = _check(EMA, EMA_2016_GAME)
    # the last stick goes to first place, seat 2: 77600 + 1000
    assert game.scores == (35800, -9300, 78600, 14900) and game.leftover_sticks == 1
    assert game.chombos == (0, 0, 1, 0)
    result = EMA.table_result(game)
    # 1st seat 2: 48600 + 15000 − 20000 chombo; 2nd seat 0: 5800 + 5000;
    # 3rd seat 3: −15100 − 5000; 4th seat 1: −39300 − 15000
    assert [s.final for s in result.seats] == [10800, -54300, 43600, -20100]
    assert [s.uma for s in result.seats] == [5000, -15000, 15000, -5000]
    assert sum(s.final for s in result.seats) == -20000
    with pytest.raises(RuleError) as exc:  # no West round
        EMA.play_game([row[0] for row in EMA_2016_GAME] + [draw([])])
    assert exc.value.path == "hands[14]"


def test_ema_2008_game_hand_by_hand():
    game = _check(EMA2008, EMA_2008_GAME)
    # stopped by the time limit in East 4: no sticks left, nothing more to give
    assert game.scores == (26000, 36600, 25900, 31500) and game.leftover_sticks == 0
    # uma 9000/3000/−3000/−9000: 6600 + 9000, 1500 + 3000, −4000 − 3000, −4100 − 9000
    assert [s.final for s in EMA2008.table_result(game).seats] == [-7000, 15600, -13100, 4500]


def test_the_same_game_under_wrc_differs_only_by_the_head_bump():
    """Under WRC only seat 2 wins the double ron of hand 4; seat 3 is no winner, so its bet goes to
    seat 2 with seat 0's."""
    hands = [row[0] for row in EMA_2016_GAME]
    game = WRC.play_game(hands[:4])
    # seat 2 dealer 4 han 30 fu 11600 and both bets; seat 3 loses its bet and wins nothing
    assert game.steps[3].deltas == (-1000, -11600, 13600, -1000)
    assert (game.steps[3].dealer, game.steps[3].honba) == (2, 1)
