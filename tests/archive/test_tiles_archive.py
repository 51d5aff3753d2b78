"""Tiles in the archive: the round trip keeps them exactly; an import values them through the same
service as live entry; a claim that differs from the tiles needs a referee's ruling."""

from __future__ import annotations

import copy

import pytest

from rankings.archive import archive_export, archive_import
from scoring.models import Hand
from scoring.rules.base import RuleError
from tests.archive.conftest import load

pytestmark = pytest.mark.django_db

# Robbing the Kong 8 + Dragon Pung 2 + Short Straight 1 + 1 flower = 12 fan (the fixture's first MCR hand)
MCR_TILES = {
    "hand": "234m567m99p",
    "melds": ["pung 7z", "chow 345s"],
    "winning_tile": "4m",
    "robbing_kong": True,
    "flowers": 1,
}
# two pungs of fives 1 + concealed 1 + single wait 1 = 3 fan (the fixture's first Salamanca hand)
SALAMANCA_TILES = {"hand": "555m555p234s678s99m", "winning_tile": "9m"}
# riichi 1 + pinfu 1 + tanyao 1, 30 fu (the fixture's first riichi hand: 3 han 30 fu)
RIICHI_TILES = {"hand": "234m567m234p678s55p", "winning_tile": "4p", "dora_indicators": [], "red_fives": 0}


def first_hand(document):
    return document["sessions"][0]["tables"][0]["hands"][0]


@pytest.mark.parametrize(
    ("ruleset", "where", "tiles"),
    [
        ("mcr", None, MCR_TILES),
        ("salamanca", None, SALAMANCA_TILES),
        ("ema-riichi-2016", 0, RIICHI_TILES),
    ],
)
def test_the_round_trip_keeps_tiles_exactly(ruleset, where, tiles):
    document = load(ruleset)
    hand = first_hand(document)
    (hand if where is None else hand["winners"][where])["tiles"] = copy.deepcopy(tiles)
    tournament = archive_import(document=copy.deepcopy(document))
    assert archive_export(tournament=tournament) == document
    stored = Hand.objects.get(result__table__session__number=1, result__table__number=1, number=1)
    assert stored.valuation["status"] == "agreed"
    again = archive_import(document=archive_export(tournament=tournament), replace=True)
    assert archive_export(tournament=again) == document


def test_an_unclaimed_value_is_filled_on_import_and_then_kept():
    document = load("mcr")
    hand = first_hand(document)
    del hand["fan"]
    hand["tiles"] = {**MCR_TILES, "flowers": 3}
    exported = archive_export(tournament=archive_import(document=document))
    assert first_hand(exported)["fan"] == 14
    assert first_hand(exported)["tiles"] == {**MCR_TILES, "flowers": 3}
    again = archive_export(tournament=archive_import(document=exported, replace=True))
    assert again == exported


def test_a_differing_claim_needs_a_ruling():
    document = load("mcr")
    hand = first_hand(document)
    hand["fan"] = 20
    hand["tiles"] = MCR_TILES
    with pytest.raises(RuleError) as refused:
        archive_import(document=copy.deepcopy(document))
    assert refused.value.path == "sessions[0].tables[0].hands[0].tiles"
    assert "claim of 20 fan differs from the tiles (12 fan" in refused.value.message
    hand["ruling"] = "the referee counted a second flower the table showed"
    tournament = archive_import(document=copy.deepcopy(document))
    stored = Hand.objects.get(result__table__session__number=1, result__table__number=1, number=1)
    assert stored.valuation["status"] == "ruling"
    assert archive_export(tournament=tournament) == document


def test_bad_tiles_are_refused_with_their_path():
    document = load("ema-riichi-2016")
    first_hand(document)["winners"][0]["tiles"] = {"hand": "234m567m234p678s5p", "winning_tile": "4p"}
    with pytest.raises(RuleError) as refused:
        archive_import(document=document)
    assert refused.value.path == "sessions[0].tables[0].hands[0].winners[0].tiles.hand"
    assert refused.value.message == "hand has 13 tiles, a win needs 14"


def test_the_tiles_setting_is_checked_and_followed():
    document = load("mcr")
    document["tournament"]["settings"] = {"tiles": "sometimes"}
    with pytest.raises(RuleError) as refused:
        archive_import(document=copy.deepcopy(document))
    assert refused.value.path == "tournament.settings.tiles"
    document["tournament"]["settings"] = {"tiles": "off"}
    first_hand(document)["tiles"] = MCR_TILES
    with pytest.raises(RuleError, match="setting 'tiles' is off"):
        archive_import(document=document)


# no yaku without renhō: terminals, a closed wait on 3s
RENHOU_TILES = {"hand": "123m456p789s24s99m3s", "winning_tile": "3s", "first_turn_discard": True}


@pytest.mark.parametrize(("ruleset", "han"), [("ema-riichi-2016", 5), ("ema-riichi-2008", 13)])
def test_renhou_in_the_archive(ruleset, han):
    """The archive line ``"first_turn_discard": true`` on a riichi winner's tiles: renhō, a mangan under
    2016 (2025 §4.2.4, five han, not combined) and a yakuman under 2008 (002 §4.2.5). An unclaimed
    value is filled from it, and the round trip keeps the flag."""
    document = load("ema-riichi-2016")
    document["tournament"]["ruleset"] = ruleset
    document["sessions"][0]["tables"][0]["hands"][0] = {
        "result": "ron",
        "loser": "p3",
        "winners": [{"player": "p2", "tiles": copy.deepcopy(RENHOU_TILES)}],
        "riichi": [],
    }
    exported = archive_export(tournament=archive_import(document=copy.deepcopy(document)))
    winner = first_hand(exported)["winners"][0]
    assert winner == {"player": "p2", "han": han, "tiles": RENHOU_TILES}
    stored = Hand.objects.get(result__table__session__number=1, result__table__number=1, number=1)
    assert stored.valuation["status"] == "filled"
    again = archive_export(tournament=archive_import(document=exported, replace=True))
    assert again == exported
    # the flag where the win was self-drawn is refused with its path
    document["sessions"][0]["tables"][0]["hands"][0] = {
        "result": "tsumo",
        "winner": "p2",
        "riichi": [],
        "tiles": copy.deepcopy(RENHOU_TILES),
    }
    with pytest.raises(RuleError) as refused:
        archive_import(document=document, replace=True)
    assert refused.value.path == "sessions[0].tables[0].hands[0].tiles.first_turn_discard"


def test_a_self_drawn_seven_pairs_is_imported_fully_concealed():
    """Green Book, Appendix 1, line 842: Seven Pairs "may combine with Fully Concealed if Self-Drawn". The
    fixture's second MCR hand (p2 self-drawn) with the tiles of a Seven Pairs and no value: the import
    fills 28 fan (24 + 4, not 25), and a claim of 25 needs a referee's ruling."""
    document = load("mcr")
    hand = document["sessions"][0]["tables"][0]["hands"][1]
    assert hand["discarder"] is None
    del hand["fan"]
    hand["tiles"] = {"hand": "1133m5577p2299s11z", "winning_tile": "1z"}
    exported = archive_export(tournament=archive_import(document=copy.deepcopy(document)))
    assert exported["sessions"][0]["tables"][0]["hands"][1]["fan"] == 28
    hand["fan"] = 25
    with pytest.raises(RuleError, match="claim of 25 fan differs from the tiles \\(28 fan"):
        archive_import(document=document, replace=True)
