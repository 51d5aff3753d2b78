"""The strict tile notation: what it accepts, and refusals that name the tile, the meld and the field."""

import pytest

from scoring.rules.base import RuleError
from scoring.rules.tiles import parse_tiles
from scoring.rules.tiles.notation import notation, tile_name


def refused(data):
    with pytest.raises(RuleError) as exc:
        parse_tiles(data)
    return exc.value


def test_parses_suffix_notation_and_melds():
    t = parse_tiles(
        {
            "hand": "123m 456p 789s 555m 1z 1z",
            "melds": [],
            "winning_tile": "1z",
            "flowers": 1,
            "dora_indicators": ["3m"],
        }
    )
    assert notation(list(t.concealed)) == "123555m456p789s11z"
    assert t.winning_tile == 27 and tile_name(33) == "7z"
    assert t.flowers == 1 and t.dora_indicators == (2,)
    t = parse_tiles(
        {
            "hand": "11z",
            "melds": ["pung 777p", "chow 645s", "kong 1m", "concealed_kong 5z"],
            "winning_tile": "1z",
        }
    )
    assert [m.text() for m in t.melds] == ["pung 777p", "chow 456s", "kong 1111m", "concealed_kong 5555z"]
    assert t.is_concealed is False
    assert len(t.all_tiles) == 16


@pytest.mark.parametrize(
    ("data", "path", "message"),
    [
        ({"hand": "123m456p789s234s1z", "winning_tile": "1z"}, "hand", "hand has 13 tiles, a win needs 14"),
        (
            {"hand": "123m456p789s", "melds": ["pung 1z"], "winning_tile": "1m"},
            "hand",
            "hand has 9 tiles, a win with 1 meld needs 11",
        ),
        (
            {"hand": "123m456p789s11x", "winning_tile": "1m"},
            "hand",
            "'x' in “123m456p789s11x” is not a digit",
        ),
        (
            {"hand": "123m456p789s118z", "winning_tile": "1m"},
            "hand",
            "8z in “123m456p789s118z” is not a tile",
        ),
        ({"hand": "123m456p789s1155", "winning_tile": "1m"}, "hand", "ends with numbers '1155'"),
        ({"hand": "023m456p789s11z", "winning_tile": "2m"}, "hand", "write a red five as 5m"),
        ({"hand": "11111m456p789s111z", "winning_tile": "1m"}, "hand", "tile 1m appears 5 times"),
        (
            {"hand": "123m456p789s234s11z", "winning_tile": "9m"},
            "winning_tile",
            "winning tile 9m is not among",
        ),
        ({"hand": "123m456p789s234s11z", "winning_tile": "12m"}, "winning_tile", "must be one tile"),
        (
            {"hand": "123m456p789s11z", "melds": ["chow 135s"], "winning_tile": "1z"},
            "melds[0]",
            "three consecutive",
        ),
        (
            {"hand": "123m456p789s11z", "melds": ["chow 123z"], "winning_tile": "1z"},
            "melds[0]",
            "three consecutive",
        ),
        ({"hand": "123m456p789s11z", "melds": ["pung 778p"], "winning_tile": "1z"}, "melds[0]", "identical"),
        (
            {"hand": "123m456p789s11z", "melds": ["triple 777p"], "winning_tile": "1z"},
            "melds[0]",
            "must be a kind",
        ),
        ({"hand": "123m456p789s11z", "melds": "pung 777p", "winning_tile": "1z"}, "melds", "must be a list"),
        ({"hand": "123m456p789s234s11z", "winning_tile": "1z", "flowers": 9}, "flowers", "from 0 to 8"),
        ({"hand": "123m456p789s234s11z", "winning_tile": "1z", "ippatsu": "yes"}, "ippatsu", "true or false"),
        ({"hand": "123m456p789s234s11z", "winning_tile": "1z", "seat_wind": "X"}, "seat_wind", "E, S, W, N"),
        (
            {"hand": "123m456p789s234s11z", "winning_tile": "1z", "red_fives": 2},
            "red_fives",
            "fives of 1 suit",
        ),
        ({"hand": "123m456p789s234s11z", "winning_tile": "1z", "colour": "red"}, "colour", "unknown field"),
        (
            {"hand": "123m456p789s234s11z", "winning_tile": "1z", "dora_indicators": ["1m"] * 6},
            "dora_indicators",
            "at most 5",
        ),
        ({"hand": "1" * 65 + "m", "winning_tile": "1m"}, "hand", "at most 64"),
        (
            {"hand": "123m456p789s234s11z", "winning_tile": "1z", "replacement_tile": True},
            "replacement_tile",
            "needs a kong",
        ),
    ],
)
def test_refusals_name_the_fault(data, path, message):
    error = refused(data)
    assert error.path == path
    assert message in error.message


def test_not_an_object():
    assert "must be an object" in refused("123m").message
