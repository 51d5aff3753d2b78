"""Salamanca fan (rulebook 000 art. 32, art. 27 cap) and classical points and doubles (rulebook 001
§75–79, §85) from tiles, against values worked out by hand from the rulebooks. Seat and round East
unless said."""

import pytest

from scoring.rules.base import RuleError
from scoring.rules.registry import get_ruleset
from scoring.rules.tiles import WinContext, value_tiles

SALAMANCA = get_ruleset("salamanca")
CLASSICAL = get_ruleset("classical")
D, S = False, True  # won on a discard / self-drawn

SALAMANCA_HANDS = [
    # art. 32's own example: all chows 1 + self-drawn 1 + concealed 1 + seven pairs 3 + one suit 6 = 12
    (
        "art32",
        {"hand": "11223344556677p", "winning_tile": "7p"},
        S,
        0,
        12,
        {"chows": 1, "Self": 1, "Concealed": 1, "Seven": 3, "One suit only": 6},
    ),
    # thirteen orphans 6 (+ concealed 1, honours and terminals 3) + the 1m was the only winning tile 1
    (
        "orphans",
        {"hand": "19m19p19s12345677z", "winning_tile": "1m"},
        D,
        0,
        11,
        {"Thirteen": 6, "Concealed": 1, "honours and terminals": 3, "Only one tile": 1},
    ),
    # seven pairs 3 + concealed 1 + single wait 1
    (
        "pairs",
        {"hand": "1133m5577p2299s11z", "winning_tile": "1z"},
        D,
        0,
        5,
        {"Seven": 3, "Concealed": 1, "Only one tile": 1},
    ),
    # all pungs 3 + concealed 1 + self-drawn 1 + all pungs concealed and self-drawn 3 (2m or 1z could win)
    (
        "pungs",
        {"hand": "222m555p888s999s11z", "winning_tile": "2m"},
        S,
        0,
        8,
        {"All pungs": 3, "Concealed": 1, "Self": 1, "concealed and self-drawn": 3},
    ),
    # three dragon pungs 3 + 1 for each 3 + single wait 1
    (
        "dragons",
        {"hand": "777z234m99p", "melds": ["pung 5z", "pung 6z"], "winning_tile": "9p"},
        D,
        0,
        7,
        {"Three dragon": 3, "Dragon pung": 3, "Only one tile": 1},
    ),
    # two dragon pungs and a dragon pair 2 + 2 dragon pungs + one suit and honours 3 + single wait 1
    (
        "scholars",
        {"hand": "77z234m567m", "melds": ["pung 5z", "pung 6z"], "winning_tile": "7z"},
        D,
        0,
        8,
        {"Two dragon": 2, "Dragon pung": 2, "One suit and honours": 3, "Only one tile": 1},
    ),
    # four wind pungs 5 + all pungs 3 + own wind (South) 1 + round wind 1 + one suit and honours 3 + single 1 = 14 → 12
    (
        "winds",
        {"hand": "444z55m", "melds": ["pung 1z", "pung 2z", "pung 3z"], "winning_tile": "5m"},
        D,
        1,
        12,
        {
            "Four wind": 5,
            "All pungs": 3,
            "own wind": 1,
            "round wind": 1,
            "One suit and honours": 3,
            "Only one tile": 1,
        },
    ),
    # nine gates 5 + one suit 6 + concealed 1 (nine tiles could win)
    (
        "gates",
        {"hand": "11123455678999p", "winning_tile": "5p"},
        D,
        0,
        12,
        {"Nine gates": 5, "One suit only": 6, "Concealed": 1},
    ),
    # all chows 1 + the 5m was the only tile 1
    (
        "chows",
        {"hand": "456p789s234s55m", "melds": ["chow 123m"], "winning_tile": "5m"},
        D,
        0,
        2,
        {"chows": 1, "Only one tile": 1},
    ),
    # nothing: 0 fan (art. 27: 2 points)
    (
        "nothing",
        {"hand": "678s999p11s", "melds": ["pung 2m", "chow 345p"], "winning_tile": "9p"},
        D,
        0,
        0,
        {},
    ),
    # robbing a kong 2 + all chows 1 + concealed 1 (2s or 5s could win)
    (
        "robbing",
        {"hand": "123m456m789p234s55s", "winning_tile": "5s", "robbing_kong": True},
        D,
        0,
        4,
        {"Robbing": 2, "chows": 1, "Concealed": 1},
    ),
    # moon from the bottom of the sea 3 + last tile 2 + self-drawn 1 + concealed 1 + all chows 1
    (
        "moon",
        {"hand": "123m456m789s234p11p", "winning_tile": "1p", "last_tile": True},
        S,
        0,
        8,
        {"Moon": 3, "Last playable": 2, "Self": 1, "Concealed": 1, "chows": 1},
    ),
    # plum blossom 3 + after a kong 1 + self-drawn 1 + concealed (only a kong exposed) 1 + 5p the only tile 1
    (
        "plum",
        {"hand": "123m789m456p11z", "melds": ["kong 9s"], "winning_tile": "5p", "replacement_tile": True},
        S,
        0,
        7,
        {"Plum": 3, "after a kong": 1, "Self": 1, "Concealed": 1, "Only one tile": 1},
    ),
    # the dealer wins on his first draw 7 (+ concealed 1, self-drawn 1) + all chows 1
    (
        "first draw",
        {"hand": "123m456m789p234s55s", "winning_tile": "5s", "first_turn": True},
        S,
        0,
        10,
        {"first draw": 7, "Concealed": 1, "Self": 1, "chows": 1},
    ),
    # two pungs of fives in different suits 1 + concealed 1 + single wait 1
    (
        "fives",
        {"hand": "555m555p234s678s99m", "winning_tile": "9m"},
        D,
        0,
        3,
        {"Two pungs of one number": 1, "Concealed": 1, "Only one tile": 1},
    ),
    # only terminals 6 + all pungs 3 + pungs of 9 and a pair of 9 2 + pungs of 1 1 + single 1 = 13 → 12
    (
        "terminals",
        {"hand": "111s999s99m", "melds": ["pung 1m", "pung 9p"], "winning_tile": "9m"},
        D,
        0,
        12,
        {
            "Only terminals": 6,
            "All pungs": 3,
            "and a pair of one number": 2,
            "Two pungs of one number in": 1,
            "Only one tile": 1,
        },
    ),
]


def by_prefix(items, expected):
    """Match each expected name fragment to exactly one item."""
    got = {}
    for fragment, value in expected.items():
        hits = [i for i in items if fragment.lower() in i.name.lower() and i.name not in got]
        assert len(hits) >= 1, f"{fragment} not among {[i.name for i in items]}"
        got[hits[0].name] = value
        assert hits[0].value == value, hits[0]
    assert len(got) == len(items), [i.name for i in items]


@pytest.mark.parametrize(("name", "tiles", "self_drawn", "seat", "fan", "items"), SALAMANCA_HANDS)
def test_salamanca_fan_by_hand(name, tiles, self_drawn, seat, fan, items):
    v = value_tiles(SALAMANCA, tiles, WinContext(self_drawn=self_drawn, seat_wind=seat))
    by_prefix(v.items, items)
    assert v.claim == {"fan": fan}
    assert fan == min(12, sum(items.values()))


def test_salamanca_caps_at_twelve_and_says_so():
    v = value_tiles(SALAMANCA, SALAMANCA_HANDS[6][1], WinContext(self_drawn=False, seat_wind=1))
    assert v.summary == "12 fan (14 counted, art. 27 caps at 12)"


def test_salamanca_refuses_what_is_not_a_win():
    with pytest.raises(RuleError, match="do not make a winning hand") as exc:
        value_tiles(
            SALAMANCA, {"hand": "1234m567p234678s5p", "winning_tile": "5p"}, WinContext(self_drawn=True)
        )
    assert exc.value.path == "hand"
    with pytest.raises(RuleError) as exc:
        value_tiles(SALAMANCA, {**SALAMANCA_HANDS[13][1]}, WinContext(self_drawn=True, seat_wind=2))
    assert exc.value.path == "first_turn"


CLASSICAL_HANDS = [
    # 20 + exposed pung of 2m 2 + the 9p pung completed by a discard counts exposed: 4 = 26, no double
    ({"hand": "678s999p11s", "melds": ["pung 2m", "chow 345p"], "winning_tile": "9p"}, D, 26),
    # self-drawn: the 9p pung is concealed 8, + 2 from the wall = 32
    ({"hand": "678s999p11s", "melds": ["pung 2m", "chow 345p"], "winning_tile": "9p"}, S, 32),
    # 20 + white dragon pung 4 + only place 2 = 26, × 2 (dragon pung) = 52
    ({"hand": "123m456m789p22s", "melds": ["pung 5z"], "winning_tile": "2s"}, D, 52),
    # 20 + pung of East 4 + 888p 2 = 26, own wind that is also prevalent: 2 doubles = 104
    ({"hand": "234m567m888p99s", "melds": ["pung 1z"], "winning_tile": "8p"}, D, 104),
    # 20 + pair of the own prevalent wind 4 + only place 2 = 26
    ({"hand": "123m456p789s234s11z", "winning_tile": "1z"}, D, 26),
    # 20 + wall 2 + only place 2 = 24, chows and a worthless pair (§77) × 2 = 48
    ({"hand": "123m456p789s234s55m", "winning_tile": "5m"}, S, 48),
    # 20 + 666m concealed 4 + three exposed pungs of simples 6 + only place 2 = 32, no chows × 2 = 64
    ({"hand": "666m77p", "melds": ["pung 2m", "pung 3p", "pung 4s"], "winning_tile": "7p"}, D, 64),
    # 20 + green dragon pung 4 = 24; dragon pung and clean hand (dots and honours): 2 doubles = 96
    ({"hand": "456p789p99p", "melds": ["pung 6z", "chow 123p"], "winning_tile": "9p"}, D, 96),
    # kongs: 20 + exposed kong of East 16 + concealed kong of simples 8 + only place 2 = 46, × 4 = 184
    ({"hand": "234p678p99s", "melds": ["kong 1z", "concealed_kong 5m"], "winning_tile": "9s"}, D, 184),
    # flowers: 26 + 2 flowers 8 = 34, own flower × 2 = 68
    (
        {
            "hand": "678s999p11s",
            "melds": ["pung 2m", "chow 345p"],
            "winning_tile": "9p",
            "flowers": 2,
            "own_flowers": 1,
        },
        D,
        68,
    ),
    # four flowers: 26 + 16 = 42, a set of four × 8 = 336
    (
        {
            "hand": "678s999p11s",
            "melds": ["pung 2m", "chow 345p"],
            "winning_tile": "9p",
            "flowers": 4,
            "flower_sets": 1,
        },
        D,
        336,
    ),
    # three little scholars: 20 + 4 + 4 + dragon pair 2 + only place 2 = 32; 2 dragon pungs + §78: × 8 = 256
    ({"hand": "77z234m567p", "melds": ["pung 5z", "pung 6z"], "winning_tile": "7z"}, D, 256),
    # limit hands: one suit only (table 2), thirteen orphans (XII), heavenly twins (XIX), three great
    # scholars (VII), moon from the bottom of the sea (XV): the limit, 500
    ({"hand": "12345678923455m", "winning_tile": "5m"}, D, 500),
    ({"hand": "19m19p19s12345677z", "winning_tile": "1m"}, D, 500),
    ({"hand": "11223344556677z", "winning_tile": "7z"}, D, 500),
    ({"hand": "123m99m", "melds": ["pung 5z", "pung 6z", "pung 7z"], "winning_tile": "9m"}, D, 500),
    ({"hand": "123m456m789s234p11p", "winning_tile": "1p", "last_tile": True}, S, 500),
]


@pytest.mark.parametrize(("tiles", "self_drawn", "value"), CLASSICAL_HANDS)
def test_classical_value_by_hand(tiles, self_drawn, value):
    v = value_tiles(CLASSICAL, tiles, WinContext(self_drawn=self_drawn))
    assert v.claim == {"value": value}


def test_classical_limit_follows_the_preset():
    rules = get_ruleset("classical", {"limit": 1000})
    v = value_tiles(rules, CLASSICAL_HANDS[12][0], WinContext(self_drawn=False))
    assert v.claim == {"value": 1000} and v.items[0].unit == "limit"


def test_classical_ordinary_seven_pairs_are_refused():
    with pytest.raises(RuleError, match="limit hands XIX or XX"):
        value_tiles(
            CLASSICAL, {"hand": "1133m5577p2299s11z", "winning_tile": "1z"}, WinContext(self_drawn=False)
        )


# -- art. 32 played with colours ------------------------------------------------------------------
# A set whose dots show only red and green, as art. 32's own example implies ("5 fanes por solo de un
# palo y uno por dos colores" for 11223344556677 of dots), and whose bamboo is green with red on 5, 7, 9.
SET_COLOURS = "2s:g 3s:g 4s:g 5s:rg 6s:g 7s:rg 8s:g 9s:rg 2p:g 3p:rg 4p:g 5p:rg 6p:rg 7p:rg 8p:g 9p:rg"
WITH_COLOURS = get_ruleset("salamanca", {"colours": SET_COLOURS})

COLOUR_HANDS = [
    # art. 32's example with colours: chows 1 + self-drawn 1 + concealed 1 + seven pairs 3 + one suit 5 +
    # two colours 1 = 12, as the article says
    (
        {"hand": "11223344556677p", "winning_tile": "7p"},
        S,
        12,
        {"chows": 1, "Self": 1, "Concealed": 1, "Seven": 3, "One suit only": 5, "two colours": 1},
        12,
    ),
    # green bamboo and the green dragon pair: one colour 3 + one suit and honours 3 + concealed 1 + the
    # 6z was the only winning tile 1 = 8; without colours 5
    (
        {"hand": "234s234s666s888s66z", "winning_tile": "6z"},
        D,
        8,
        {"one colour": 3, "One suit and honours": 3, "Concealed": 1, "Only one tile": 1},
        5,
    ),
    # characters (red and black) and winds (black): two colours 1 + one suit and honours 3 + two wind
    # pungs and a wind pair 1 + single wait 1 = 6; without colours 5
    (
        {"hand": "123m456m11z", "melds": ["pung 2z", "pung 3z"], "winning_tile": "1z"},
        D,
        6,
        {"two colours": 1, "One suit and honours": 3, "Two wind pungs": 1, "Only one tile": 1},
        5,
    ),
    # thirteen orphans hold the three dragons: three colours, nothing for colours, 11 either way
    (
        {"hand": "19m19p19s12345677z", "winning_tile": "1m"},
        D,
        11,
        {"Thirteen": 6, "Concealed": 1, "honours and terminals": 3, "Only one tile": 1},
        11,
    ),
]


@pytest.mark.parametrize(("tiles", "self_drawn", "fan", "items", "without"), COLOUR_HANDS)
def test_salamanca_with_colours_by_hand(tiles, self_drawn, fan, items, without):
    v = value_tiles(WITH_COLOURS, tiles, WinContext(self_drawn=self_drawn))
    by_prefix(v.items, items)
    assert v.claim == {"fan": fan}
    plain = value_tiles(SALAMANCA, tiles, WinContext(self_drawn=self_drawn))
    assert plain.claim == {"fan": without}
    assert not any("colour" in i.name for i in plain.items)


def test_the_colour_setting_reads_spanish_letters_and_blue_as_black():
    spanish = SET_COLOURS.replace(":g", ":v").replace("g ", "v ")
    assert (
        get_ruleset("salamanca", {"colours": spanish}).config.colour_table == WITH_COLOURS.config.colour_table
    )
    blue = get_ruleset("salamanca", {"colours": SET_COLOURS.replace("2p:g", "2p:a")}).config.colour_table
    assert blue[10] == frozenset("k")  # 2 of dots printed in blue counts as black


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("2s:g", "does not give the colours of 3s"),
        (SET_COLOURS + " 1s:r", "1s"),
        (SET_COLOURS.replace("2s:g", "2s:x"), "not a colour"),
        (SET_COLOURS.replace("2s:g", "2s:"), "at least one colour"),
        (SET_COLOURS + " 2s:g", "twice"),
        ("2s:g " * 60, "at most 200 characters"),
    ],
)
def test_a_faulty_colour_setting_is_refused_naming_the_rule(text, message):
    with pytest.raises(RuleError, match=message) as exc:
        get_ruleset("salamanca", {"colours": text})
    assert exc.value.path == "rules.colours"


# -- kongs one after another ------------------------------------------------------------------------
KONGS = {
    "hand": "234m567p99s",
    "melds": ["kong 8m", "concealed_kong 3s"],
    "winning_tile": "9s",
    "replacement_tile": True,
}


def test_salamanca_counts_a_fan_per_kong_in_a_row():
    # art. 32: "después de hacer dos cuartetos consecutivos, 2 fanes": concealed (kongs only) 1 +
    # self-drawn 1 + only one tile 1 + after two kongs 2 = 5; after one kong 4
    two = value_tiles(SALAMANCA, {**KONGS, "kongs_in_a_row": 2}, WinContext(self_drawn=True))
    by_prefix(two.items, {"Concealed": 1, "Self": 1, "Only one tile": 1, "after a kong": 2})
    assert two.claim == {"fan": 5}
    one = value_tiles(SALAMANCA, KONGS, WinContext(self_drawn=True))
    assert one.claim == {"fan": 4}


def test_classical_kong_upon_kong_is_the_limit_hand_xviii():
    # §85 XVIII: the loose tile after a kong made a second kong, whose loose tile completed the hand
    v = value_tiles(CLASSICAL, {**KONGS, "kongs_in_a_row": 2}, WinContext(self_drawn=True))
    assert v.claim == {"value": 500}
    assert v.items[0].name == "XVIII Kong upon kong" and v.items[0].unit == "limit"
    # one kong only: 20 + exposed kong of simples 4 + concealed kong of simples 8 + from the wall 2 + only
    # place 2 = 36, the replacement tile doubles once: 72
    assert value_tiles(CLASSICAL, KONGS, WinContext(self_drawn=True)).claim == {"value": 72}


@pytest.mark.parametrize(
    ("tiles", "message"),
    [
        ({**KONGS, "replacement_tile": False, "kongs_in_a_row": 2}, "set replacement_tile too"),
        ({**KONGS, "kongs_in_a_row": 3}, "hold 2 kong"),
        ({**KONGS, "kongs_in_a_row": 5}, "from 0 to 4"),
    ],
)
def test_kongs_in_a_row_must_fit_the_hand(tiles, message):
    with pytest.raises(RuleError, match=message) as exc:
        value_tiles(CLASSICAL, tiles, WinContext(self_drawn=True))
    assert exc.value.path == "kongs_in_a_row"


def test_kongs_in_a_row_is_refused_where_it_counts_for_nothing():
    mcr = get_ruleset("mcr")
    with pytest.raises(RuleError, match="Salamanca and classical rules only") as exc:
        value_tiles(mcr, {**KONGS, "kongs_in_a_row": 2}, WinContext(self_drawn=True))
    assert exc.value.path == "kongs_in_a_row"
