"""Riichi han, fu, yaku and payments from tiles through the ``mahjong`` adapter, against values worked
out by hand with rulebooks 002/003 (base = fu × 2^(han+2); ron 4×base, dealer 6×base; tsumo 2×base from
the dealer and 1×base from the others; payments rounded up to 100; limits from 5 han)."""

import pytest

from scoring.rules.base import RuleError
from scoring.rules.registry import get_ruleset
from scoring.rules.tiles import WinContext, value_tiles

PINFU_HAND = {"hand": "234m567p234678s55p", "winning_tile": "4s"}  # 234m 567p 234s 678s 55p, two-sided wait
KIRIAGE_HAND = {"hand": "234m567m234p678s55p", "winning_tile": "4p", "dora_indicators": ["1m"]}

# (preset, tiles, context, han, fu, yakuman, payments (ron, tsumo from dealer, tsumo from others), yaku)
HANDS = [
    # riichi 1 + menzen tsumo 1 + pinfu 1 + tanyao 1; pinfu tsumo 20 fu: base 1280 → 2600/1300
    (
        "ema-riichi-2016",
        PINFU_HAND,
        {"self_drawn": True, "riichi": True, "seat_wind": 1},
        4,
        20,
        1,
        (5200, 2600, 1300),
        {"Riichi": 1, "Menzen Tsumo": 1, "Pinfu": 1, "Tanyao": 1},
    ),
    # riichi + hatsu pung + dora (indicator 1m → 2m); 20 + 10 closed ron + 8 concealed honour pung = 38 → 40
    (
        "ema-riichi-2016",
        {"hand": "234m567p22456s666z", "winning_tile": "4s", "dora_indicators": ["1m"]},
        {"self_drawn": False, "riichi": True, "seat_wind": 1},
        3,
        40,
        1,
        (5200, 2600, 1300),
        {"Riichi": 1, "Yakuhai (hatsu)": 1, "Dora": 1},
    ),
    # seven pairs: 2 han 25 fu, base 400 → ron 1600
    (
        "ema-riichi-2016",
        {"hand": "1133m5577p2299s11z", "winning_tile": "1z"},
        {"self_drawn": False, "seat_wind": 2},
        2,
        25,
        1,
        (1600, 800, 400),
        {"Chiitoitsu": 2},
    ),
    # thirteen orphans on a thirteen-sided wait, dealer: double yakuman under 002 ("se concede un yakuman
    # adicional"): 32000 each
    (
        "ema-riichi-2008",
        {"hand": "19m19p19s12345677z", "winning_tile": "7z"},
        {"self_drawn": True, "seat_wind": 0},
        13,
        None,
        2,
        (96000, 32000, 32000),
        {"Kokushi Musou Juusanmen Matchi": 26},
    ),
    # the same under WRC (no double yakuman; EMA 2016 and 2025 alike): one yakuman, 16000 each
    (
        "wrc-riichi",
        {"hand": "19m19p19s12345677z", "winning_tile": "7z"},
        {"self_drawn": True, "seat_wind": 0},
        13,
        None,
        1,
        (48000, 16000, 16000),
        {"Kokushi Musou Juusanmen Matchi": 13},
    ),
    # 4 han 30 fu (riichi, pinfu, tanyao, dora): 1920 × 4 = 7680 → 7700 without kiriage (EMA 2016)
    (
        "ema-riichi-2016",
        KIRIAGE_HAND,
        {"self_drawn": False, "riichi": True, "seat_wind": 1},
        4,
        30,
        1,
        (7700, 3900, 2000),
        {"Riichi": 1, "Pinfu": 1, "Tanyao": 1, "Dora": 1},
    ),
    # ... and mangan 8000 with kiriage (EMA 2025)
    (
        "ema-riichi-2025",
        KIRIAGE_HAND,
        {"self_drawn": False, "riichi": True, "seat_wind": 1},
        4,
        30,
        1,
        (8000, 4000, 2000),
        {"Riichi": 1, "Pinfu": 1, "Tanyao": 1, "Dora": 1},
    ),
    # open chun pung: 20 + 4 open honour pung + 2 pair wait = 26 → 30; 1 han 30 fu ron: 960 → 1000
    (
        "ema-riichi-2016",
        {"hand": "567p345s99s", "melds": ["pung 777z", "chow 234m"], "winning_tile": "9s"},
        {"self_drawn": False, "seat_wind": 2},
        1,
        30,
        1,
        (1000, 500, 300),
        {"Yakuhai (chun)": 1},
    ),
    # concealed kong of 1m: 20 + 2 tsumo + 32 concealed terminal kong + 8 chun pung + 2 pair wait = 64 → 70
    (
        "ema-riichi-2016",
        {"hand": "234m567p55s777z", "melds": ["concealed_kong 1m"], "winning_tile": "5s"},
        {"self_drawn": True, "seat_wind": 1},
        2,
        70,
        1,
        (4500, 2300, 1200),
        {"Menzen Tsumo": 1, "Yakuhai (chun)": 1},
    ),
    # last tile of the wall: haitei 1 on top of tsumo, pinfu, tanyao
    (
        "ema-riichi-2016",
        {**PINFU_HAND, "last_tile": True},
        {"self_drawn": True, "seat_wind": 1},
        4,
        20,
        1,
        (5200, 2600, 1300),
        {"Menzen Tsumo": 1, "Haitei Raoyue": 1, "Pinfu": 1, "Tanyao": 1},
    ),
    # replacement tile after an open kong of 8p: rinshan 1 + open tanyao 1; 20 + 2 + 8 + 2 = 32 → 40
    (
        "ema-riichi-2016",
        {"hand": "234m456s678s55m", "melds": ["kong 8p"], "winning_tile": "5m", "replacement_tile": True},
        {"self_drawn": True, "seat_wind": 3},
        2,
        40,
        1,
        (2600, 1300, 700),
        {"Rinshan Kaihou": 1, "Tanyao": 1},
    ),
    # robbing a kong: chankan 1 + pinfu 1 + tanyao 1, 30 fu: 960 × 4 → 3900
    (
        "ema-riichi-2016",
        {**KIRIAGE_HAND, "dora_indicators": [], "robbing_kong": True},
        {"self_drawn": False, "seat_wind": 1},
        3,
        30,
        1,
        (3900, 2000, 1000),
        {"Chankan": 1, "Pinfu": 1, "Tanyao": 1},
    ),
    # double riichi 2 + ippatsu 1 + tsumo 1 + pinfu 1 + tanyao 1 = 6 han: haneman 6000/3000
    (
        "ema-riichi-2016",
        {**PINFU_HAND, "double_riichi": True, "ippatsu": True},
        {"self_drawn": True, "riichi": True, "seat_wind": 1},
        6,
        None,
        1,
        (12000, 6000, 3000),
        {"Menzen Tsumo": 1, "Ippatsu": 1, "Double Riichi": 2, "Pinfu": 1, "Tanyao": 1},
    ),
    # the dealer wins on the first draw: tenhou, yakuman, 16000 from each
    (
        "ema-riichi-2016",
        {**PINFU_HAND, "first_turn": True},
        {"self_drawn": True, "seat_wind": 0},
        13,
        None,
        1,
        (48000, 16000, 16000),
        {"Tenhou": 13},
    ),
    # dealer, open half flush 2 + haku 1 + open straight 1 = 4 han 30 fu: 1920 × 6 = 11520 → 11600 …
    (
        "ema-riichi-2016",
        {"hand": "456s789s99s", "melds": ["pung 5z", "chow 123s"], "winning_tile": "9s"},
        {"self_drawn": False, "seat_wind": 0},
        4,
        30,
        1,
        (11600, 3900, 3900),
        {"Yakuhai (haku)": 1, "Ittsu": 1, "Honitsu": 2},
    ),
    # … and 12000 with kiriage
    (
        "ema-riichi-2025",
        {"hand": "456s789s99s", "melds": ["pung 5z", "chow 123s"], "winning_tile": "9s"},
        {"self_drawn": False, "seat_wind": 0},
        4,
        30,
        1,
        (12000, 4000, 4000),
        {"Yakuhai (haku)": 1, "Ittsu": 1, "Honitsu": 2},
    ),
]


@pytest.mark.parametrize(("preset", "tiles", "context", "han", "fu", "yakuman", "paid", "yaku"), HANDS)
def test_values_worked_out_by_hand(preset, tiles, context, han, fu, yakuman, paid, yaku):
    v = value_tiles(get_ruleset(preset), tiles, WinContext(**context))
    assert {i.name: i.value for i in v.items} == yaku
    assert v.claim == {"han": han, "fu": fu, "yakuman": yakuman}
    assert (v.payment["ron"], v.payment["tsumo_dealer"], v.payment["tsumo_other"]) == paid


def test_red_fives_count_where_the_preset_plays_them():
    rules = get_ruleset("ema-riichi-2016", {"red_fives": 3})
    v = value_tiles(
        rules, {**PINFU_HAND, "red_fives": 1}, WinContext(self_drawn=True, riichi=True, seat_wind=1)
    )
    assert {i.name: i.value for i in v.items}["Aka Dora"] == 1
    assert v.claim["han"] == 5 and v.summary == "mangan" and v.payment["tsumo_dealer"] == 4000


def test_red_fives_refused_where_the_preset_has_none():
    with pytest.raises(RuleError) as exc:
        value_tiles(
            get_ruleset("ema-riichi-2016"), {**PINFU_HAND, "red_fives": 1}, WinContext(self_drawn=True)
        )
    assert exc.value.path == "red_fives" and "rule 'red_fives'" in exc.value.message


@pytest.mark.parametrize(
    ("tiles", "context", "path", "message"),
    [
        (
            {"hand": "456p789s234s99m", "melds": ["chow 123m"], "winning_tile": "9m"},
            {"self_drawn": False},
            "hand",
            "the hand has no yaku",
        ),
        (
            {**PINFU_HAND, "ura_dora_indicators": ["1m"]},
            {"self_drawn": True},
            "ura_dora_indicators",
            "riichi",
        ),
        ({**PINFU_HAND, "ippatsu": True}, {"self_drawn": True}, "ippatsu", "ippatsu needs riichi"),
        ({"hand": "1234m567p234678s5p", "winning_tile": "5p"}, {"self_drawn": True}, "hand", "winning hand"),
    ],
)
def test_refusals(tiles, context, path, message):
    with pytest.raises(RuleError) as exc:
        value_tiles(get_ruleset("ema-riichi-2016"), tiles, WinContext(**context))
    assert exc.value.path == path and message in exc.value.message
