"""MCR fan from tiles through the PyMahjongGB adapter, against values counted by hand from the Chinese
Official rules as the Green Book writes them (fan names as the calculator prints them). Seat and prevalent wind East unless said."""

import pytest

from scoring.rules.base import RuleError
from scoring.rules.registry import get_ruleset
from scoring.rules.tiles import WinContext, value_tiles

MCR = get_ruleset("mcr")


def fan(tiles, *, self_drawn=False, seat=0, round_wind=0):
    v = value_tiles(MCR, tiles, WinContext(self_drawn=self_drawn, seat_wind=seat, round_wind=round_wind))
    return v.claim["fan"], {i.name: i.value for i in v.items}


HANDS = [
    # Thirteen Orphans 88 (implies All Types, Concealed Hand, Single Wait)
    ({"hand": "19m19p19s12345677z", "winning_tile": "1m"}, False, 88, {"Thirteen Orphans": 88}),
    # Seven Pairs 24 (implies Concealed Hand, Single Wait); no suit or honour pattern
    ({"hand": "1133m5577p2299s11z", "winning_tile": "1z"}, False, 24, {"Seven Pairs": 24}),
    # Seven Shifted Pairs 88 (implies Full Flush, Seven Pairs) + All Simples 2
    (
        {"hand": "22334455667788m", "winning_tile": "8m"},
        False,
        90,
        {"Seven Shifted Pairs": 88, "All Simples": 2},
    ),
    # Big Four Winds 88 + All Terminals and Honours 32 + Half Flush 6 + Single Wait (1m pair only) 1
    (
        {"hand": "444z11m", "melds": ["pung 1z", "pung 2z", "pung 3z"], "winning_tile": "1m"},
        False,
        127,
        {"Big Four Winds": 88, "All Terminals and Honors": 32, "Half Flush": 6, "Single Wait": 1},
    ),
    # All Green 88 + Half Flush 6 (Green Book line 733-734: All Green "combines with Full Flush and Half
    # Flush") + Fully Concealed 4 + Dragon Pung (green) 2 + Two Concealed Pungs 2 + Pure Double Chow 1;
    # 8s or 7s would have won: no Single Wait
    (
        {"hand": "22334466688s666z", "winning_tile": "8s"},
        True,
        103,
        {
            "All Green": 88,
            "Half Flush": 6,
            "Fully Concealed Hand": 4,
            "Dragon Pung": 2,
            "Two Concealed Pungs": 2,
            "Pure Double Chow": 1,
        },
    ),
    # Nine Gates 88 (Green Book line 743: does not combine with Full Flush, Concealed Hand, Pung of
    # Terminals or Honors: neither the 1s nor the 9s score it) + Two Concealed Pungs 2
    (
        {"hand": "11123455678999p", "winning_tile": "5p"},
        False,
        90,
        {"Nine Gates": 88, "Two Concealed Pungs": 2},
    ),
    # Big Three Dragons 88 + Three Concealed Pungs 16 + Concealed Hand 2 + One Voided Suit 1 + Single Wait 1
    (
        {"hand": "555666777z234m99p", "winning_tile": "9p"},
        False,
        108,
        {
            "Big Three Dragons": 88,
            "Three Concealed Pungs": 16,
            "Concealed Hand": 2,
            "One Voided Suit": 1,
            "Single Wait": 1,
        },
    ),
    # Four Kongs 88 (implies Single Wait and the kong fan) + Dragon Pung 2 + Pungs of Terminals 1m, 9s: 2
    (
        {
            "hand": "55p",
            "melds": ["kong 1m", "concealed_kong 9s", "kong 5z", "kong 3p"],
            "winning_tile": "5p",
        },
        False,
        92,
        {"Four Kongs": 88, "Dragon Pung": 2, "Pung of Terminals or Honors": 2},
    ),
    # Full Flush 24 + Pure Straight 16 + Fully Concealed 4 + All Chows 2
    (
        {"hand": "12345678923455m", "winning_tile": "5m"},
        True,
        46,
        {"Full Flush": 24, "Pure Straight": 16, "Fully Concealed Hand": 4, "All Chows": 2},
    ),
    # Flowers: Mixed Straight 8 + Dragon Pung 2 + 3 flowers 3 (1m or 4m wins: no Single Wait)
    (
        {"hand": "123m456p789s11m", "melds": ["pung 5z"], "winning_tile": "1m", "flowers": 3},
        False,
        13,
        {"Mixed Straight": 8, "Dragon Pung": 2, "Flower Tiles": 3},
    ),
    # Robbing the Kong 8 + Dragon Pung 2 + Short Straight 1
    (
        {
            "hand": "234m567m99p",
            "melds": ["pung 7z", "chow 345s"],
            "winning_tile": "4m",
            "robbing_kong": True,
        },
        False,
        11,
        {"Robbing The Kong": 8, "Dragon Pung": 2, "Short Straight": 1},
    ),
    # Pure Straight 16 + Fully Concealed 4 + All Chows 2 + Single Wait (2s pair) 1
    (
        {"hand": "123456789p345m22s", "winning_tile": "2s"},
        True,
        23,
        {"Pure Straight": 16, "Fully Concealed Hand": 4, "All Chows": 2, "Single Wait": 1},
    ),
    # All Pungs 6 + Two Concealed Pungs 2 + Pungs of 9s and North 2 + Single Wait 1
    (
        {"hand": "222m555p88s", "melds": ["pung 999s", "pung 4z"], "winning_tile": "8s"},
        False,
        11,
        {"All Pungs": 6, "Two Concealed Pungs": 2, "Pung of Terminals or Honors": 2, "Single Wait": 1},
    ),
    # Half Flush 6 + Dragon Pung 2 + Two Terminal Chows 1 + Single Wait 1 + Self-Drawn 1
    (
        {"hand": "123345m555z11z", "melds": ["chow 789m"], "winning_tile": "1z"},
        True,
        11,
        {"Half Flush": 6, "Dragon Pung": 2, "Two Terminal Chows": 1, "Single Wait": 1, "Self-Drawn": 1},
    ),
    # Mixed Triple Chow 8 + Concealed Hand 2 + All Chows 2 + All Simples 2 + Short Straight 1
    (
        {"hand": "345m345p345s678m55s", "winning_tile": "8m"},
        False,
        15,
        {"Mixed Triple Chow": 8, "Concealed Hand": 2, "All Chows": 2, "All Simples": 2, "Short Straight": 1},
    ),
    # Lesser Honours and Knitted Tiles 12 + Knitted Straight 12
    (
        {"hand": "147m258p369s12345z", "winning_tile": "5z"},
        False,
        24,
        {"Lesser Honors and Knitted Tiles": 12, "Knitted Straight": 12},
    ),
]


@pytest.mark.parametrize(("tiles", "self_drawn", "total", "items"), HANDS)
def test_fan_counted_by_hand(tiles, self_drawn, total, items):
    got_total, got_items = fan(tiles, self_drawn=self_drawn)
    assert got_items == items
    assert got_total == total == sum(items.values())


def test_seat_and_prevalent_wind_from_the_game_state():
    # the pung of West is worth Seat Wind for the West player and Prevalent Wind in the West round
    tiles = {"hand": "123m456p789s11m", "melds": ["pung 3z"], "winning_tile": "1m"}
    _, items = fan(tiles, seat=2, round_wind=2)
    assert items == {"Mixed Straight": 8, "Prevalent Wind": 2, "Seat Wind": 2}
    _, items = fan(tiles, seat=1, round_wind=0)
    assert items == {"Mixed Straight": 8, "Pung of Terminals or Honors": 1}
    # a flag on the tiles overrides the state (players changed seats between rounds)
    _, items = fan({**tiles, "seat_wind": "W"}, seat=1, round_wind=0)
    assert items["Seat Wind"] == 2


def test_last_tile_and_kong_flags():
    tiles = {
        "hand": "234m567m99p",
        "melds": ["pung 7z", "kong 2s"],
        "winning_tile": "9p",
        "replacement_tile": True,
    }
    _total, items = fan(tiles, self_drawn=True)
    assert items["Out with Replacement Tile"] == 8
    _total, items = fan({**tiles, "replacement_tile": False, "last_tile": True}, self_drawn=True)
    assert items["Last Tile Draw"] == 8


def test_below_the_minimum_names_the_fan():
    with pytest.raises(RuleError) as exc:
        fan({"hand": "234m567p345s678s22m", "winning_tile": "2m"})
    assert exc.value.path == "hand"
    assert "7 fan without flowers, below the MCR minimum of 8" in exc.value.message


def test_flowers_do_not_count_towards_the_minimum():
    with pytest.raises(RuleError, match="7 fan without flowers"):
        fan({"hand": "234m567p345s678s22m", "winning_tile": "2m", "flowers": 8})


def test_not_a_winning_hand():
    with pytest.raises(RuleError, match="do not make a winning hand") as exc:
        fan({"hand": "1234m567p345s678s2m", "winning_tile": "2m"})
    assert exc.value.path == "hand"
