"""The worked examples of the EMA Riichi Rules, 2025 edition (the ``ema-riichi-2025`` preset), valued
from their tiles: the §4.2 example of cumulative yaku and the ten scoring examples that close §4.2
(printed as §4.3, "Scoring examples").

The text draws tiles with a tile font; its letters read (§1.1, §1.2): ``asdfghjkl`` circles 1–9,
``zxcvbnm,.`` bamboo 1–9, ``qwertyuio`` characters 1–9, ``1 2 3 8`` the winds East, South, West,
North, ``6 7 5`` the dragons white, green, red; a capital letter (or ``!`` for ``1``) is a tile turned
to show a call. Each test gives the line as printed and the hand in the product's notation.
"""

from __future__ import annotations

import pytest

from scoring.rules.registry import get_ruleset
from scoring.rules.tiles import WinContext, value_tiles

EMA_2025 = get_ruleset("ema-riichi-2025")
EMA_2016 = get_ruleset("ema-riichi-2016")


def value(tiles, *, ruleset=EMA_2025, **context):
    return value_tiles(ruleset, tiles, WinContext(**context))


def payments(v):
    return v.payment["ron"], v.payment["tsumo_dealer"], v.payment["tsumo_other"]


def han_of(v):
    return {i.name: i.value for i in v.items}


# -- §4.2 -----------------------------------------------------------------------------------------------
def test_4_2_all_simples_and_mixed_triple_sequence():
    """§4.2: "E.g. a concealed hand with All Simples and Mixed Triple Sequence is worth four han if won
    by self-draw. If the hand is open, it is worth only two han." 234m 234p 234s 567m 88p, won on a
    closed-wait 6m (no pinfu): All Simples 1 + Mixed Triple Sequence 2 + Fully Concealed Hand 1; with
    the 234s chow called, All Simples 1 + Mixed Triple Sequence 1."""
    concealed = value({"hand": "234m234p234s57m88p6m", "winning_tile": "6m"}, self_drawn=True, seat_wind=1)
    assert han_of(concealed) == {"Tanyao": 1, "Sanshoku Doujun": 2, "Menzen Tsumo": 1}
    assert concealed.claim["han"] == 4
    open_hand = value(
        {"hand": "234m234p57m88p6m", "melds": ["chow 234s"], "winning_tile": "6m"},
        self_drawn=True,
        seat_wind=1,
    )
    assert han_of(open_hand) == {"Tanyao": 1, "Sanshoku Doujun": 1}
    assert open_hand.claim["han"] == 2


# -- the scoring examples -----------------------------------------------------------------------------
# Examples 1 and 2: "ee qwe zxc vbn m,	." = 33m 123m 123s 456s 78s, winning on 9s
STRAIGHT = {"hand": "33m123m123456789s", "winning_tile": "9s"}


@pytest.mark.parametrize(("seat", "paid"), [(0, (12000, 4000, 4000)), (1, (8000, 4000, 2000))])
def test_example_1(seat, paid):
    """Scoring example 1: "The winning tile is 9 bamboo by self-draw. The hand is concealed. The player
    has declared riichi. The hand scores 1 han for Riichi, 1 han for Fully Concealed Hand, 1 han for
    Pinfu and 2 han for Pure Straight … Total: 5 han. … mangan and it scores 4,000 from each if the
    winner is East; a total of 12,000 points. If the winner is not East, they receive 4,000 from East
    and 2,000 from each of the other opponents"."""
    v = value(STRAIGHT, self_drawn=True, riichi=True, seat_wind=seat)
    assert han_of(v) == {"Riichi": 1, "Menzen Tsumo": 1, "Pinfu": 1, "Ittsu": 2}
    assert v.claim == {"han": 5, "fu": None, "yakuman": 1}
    assert payments(v)[1:] == paid[1:]


@pytest.mark.parametrize(("seat", "ron"), [(0, 12000), (1, 8000)])
def test_example_2(seat, ron):
    """Scoring example 2: "The winning tile is 9 bamboo by discard. … 1 han for Riichi, 1 han for Pinfu
    and 2 han for Pure Straight … Total: 4 han. Minipoints: 20 for winning and 10 for winning by discard
    with a concealed hand. … the hand value is 4 han, 30 minipoints, which is rounded up to mangan. The
    hand scores 12,000 from the discarder if the winner is East. If the winner is not East, the hand
    scores 8,000." (Under the 2016 preset, without kiriage: 11600 and 7700.)"""
    v = value(STRAIGHT, self_drawn=False, riichi=True, seat_wind=seat)
    assert han_of(v) == {"Riichi": 1, "Pinfu": 1, "Ittsu": 2}
    assert v.claim == {"han": 4, "fu": 30, "yakuman": 1}
    assert v.payment["ron"] == ron
    old = value(STRAIGHT, ruleset=EMA_2016, self_drawn=False, riichi=True, seat_wind=seat)
    assert old.payment["ron"] == {0: 11600, 1: 7700}[seat]


@pytest.mark.parametrize(("seat", "ron"), [(0, 2900), (1, 2000)])
def test_example_3(seat, ron):
    """Scoring example 3: "ee zxc zxc Vbn m,	." = 33m 123s 123s, the 456s chow called, 78s + 9s by
    discard: "7 bamboo is dora. The hand scores 1 han for Pure Straight (because the hand is open). …
    an additional han for the dora tile. Minipoints: 20 for winning and 2 for open pinfu. 22 minipoints
    are rounded up to 30 … 2 han, 30 minipoints, and it scores 2,900 from the discarder if the winner is
    East. If the winner is not East, they receive 2,000." """
    tiles = {"hand": "33m123123789s", "melds": ["chow 456s"], "winning_tile": "9s", "dora_indicators": ["6s"]}
    v = value(tiles, self_drawn=False, seat_wind=seat)
    assert han_of(v) == {"Ittsu": 1, "Dora": 1}
    assert v.claim == {"han": 2, "fu": 30, "yakuman": 1}
    assert v.payment["ron"] == ron


# Examples 4 and 5: "eee sss fff cc ,,	," = 333m 222p 444p 33s 88s + 8s
TRIPLETS = {"hand": "333m222444p33888s", "winning_tile": "8s"}


@pytest.mark.parametrize(("seat", "dealer_pays", "other_pays"), [(0, 16000, 16000), (1, 16000, 8000)])
def test_example_4(seat, dealer_pays, other_pays):
    """Scoring example 4: "The winning tile is 8 bamboo by self-draw. The hand is concealed. The hand
    scores a yakuman for Four Concealed Triplets. … If the winner is East, they receive 16,000 from
    each; a total of 48,000. If the winner is not East, they receive 16,000 from East and 8,000 from
    each of the other opponents; a total of 32,000." """
    v = value(TRIPLETS, self_drawn=True, seat_wind=seat)
    assert [i.unit for i in v.items] == ["yakuman"]
    assert v.claim == {"han": 13, "fu": None, "yakuman": 1}
    assert (v.payment["tsumo_dealer"], v.payment["tsumo_other"]) == (dealer_pays, other_pays)


@pytest.mark.parametrize(("seat", "ron"), [(0, 24000), (1, 16000)])
def test_example_5(seat, ron):
    """Scoring example 5: "The winning tile is 8 bamboo by discard. The hand is concealed. 4 circles is
    dora. … 2 han for Three Concealed Triplets, 2 han for All Triplets and 1 han for All Simples. Total:
    5 han. The hand scores an additional han for each of the dora tiles, for a total of 8 han. This is
    the limit hand called baiman, and it scores 24,000 points from the discarder if the winner is East.
    If the winner is not East, they receive 16,000 points from the discarder." """
    v = value({**TRIPLETS, "dora_indicators": ["3p"]}, self_drawn=False, seat_wind=seat)
    assert han_of(v) == {"San Ankou": 2, "Toitoi": 2, "Tanyao": 1, "Dora": 3}
    assert v.claim == {"han": 8, "fu": None, "yakuman": 1}
    assert v.payment["ron"] == ron


@pytest.mark.parametrize(("seat", "dealer_pays", "other_pays"), [(0, 6000, 6000), (1, 6000, 3000)])
def test_example_6(seat, dealer_pays, other_pays):
    """Scoring example 6: "ww ee tt ss hh cc v	v" = 22m 33m 55m 22p 66p 33s 4s + 4s: "The winning tile
    is 4 bamboo by self-draw in the set of turns immediately after the player has declared riichi. The
    hand scores 1 han for Riichi, 1 han for Ippatsu, 1 han for Fully Concealed Hand, 1 han for All
    Simples and 2 han for Seven Pairs. Total: 6 han. … haneman, and it scores 6,000 from each if the
    winner is East … If the winner is not East, they receive 6,000 from East and 3,000 from each"."""
    tiles = {"hand": "223355m2266p3344s", "winning_tile": "4s", "ippatsu": True}
    v = value(tiles, self_drawn=True, riichi=True, seat_wind=seat)
    assert han_of(v) == {"Riichi": 1, "Ippatsu": 1, "Menzen Tsumo": 1, "Tanyao": 1, "Chiitoitsu": 2}
    assert v.claim == {"han": 6, "fu": None, "yakuman": 1}
    assert (v.payment["tsumo_dealer"], v.payment["tsumo_other"]) == (dealer_pays, other_pays)


@pytest.mark.parametrize(("seat", "ron"), [(0, 2400), (1, 1600)])
def test_example_7(seat, ron):
    """Scoring example 7: "77 ee tt ss hh cc v	v" = green dragon pair, 33m 55m 22p 66p 33s 4s + 4s:
    "The winning tile is 4 bamboo by discard. The player has not declared riichi. The hand scores 2 han
    for Seven Pairs. Minipoints: 25 for winning with Seven Pairs. The hand scores no further points even
    though there is a pair of dragons and a pair wait. The hand value is 2 han, 25 minipoints, and it
    scores 2,400 points from the discarder if the winner is East and 1,600 points otherwise." """
    v = value({"hand": "3355m2266p3344s66z", "winning_tile": "4s"}, self_drawn=False, seat_wind=seat)
    assert han_of(v) == {"Chiitoitsu": 2}
    assert v.claim == {"han": 2, "fu": 25, "yakuman": 1}
    assert v.payment["ron"] == ron


@pytest.mark.parametrize(("seat", "dealer_pays", "other_pays"), [(0, 4000, 4000), (1, 4000, 2000)])
def test_example_8(seat, dealer_pays, other_pays):
    """Scoring example 8: "eerrtt aassdd 5	5" = 334455m 112233p, red dragon pair: "The winning tile
    is red dragon by self-draw. … 3 han for Twice Pure Double Sequence and 1 han for Fully Concealed
    Hand. The hand cannot also score for Seven Pairs … Minipoints: 20 for winning, 2 for winning by
    self-draw, 2 for pair of dragons and 2 for pair wait. 26 minipoints are rounded up to 30. The hand
    value is 4 han, 30 minipoints, equivalent to a mangan in payment, and it scores 4,000 from each if
    the winner is East … If the winner is not East, they receive 4,000 from East and 2,000 from each"
    (kiriage, 2025 §4.1.2; the 2016 preset pays 3900/2000)."""
    tiles = {"hand": "334455m112233p77z", "winning_tile": "7z"}
    v = value(tiles, self_drawn=True, seat_wind=seat)
    assert han_of(v) == {"Ryanpeikou": 3, "Menzen Tsumo": 1}
    assert v.claim == {"han": 4, "fu": 30, "yakuman": 1}
    assert (v.payment["tsumo_dealer"], v.payment["tsumo_other"]) == (dealer_pays, other_pays)
    old = value(tiles, ruleset=EMA_2016, self_drawn=True, seat_wind=1)
    assert (old.payment["tsumo_dealer"], old.payment["tsumo_other"]) == (3900, 2000)


def test_example_9():
    """Scoring example 9: "zz zxc m,. 1!1 33	3" = 11s 123s 789s, a called East pung, 33z + West by
    discard: "7 bamboo is dora. The player is East in an east round. The hand scores 2 han for Half
    Flush, 1 han for Seat Wind Triplet, 1 han for Round Wind Triplet and 1 han for Half Outside Hand.
    Total: 5 han. The hand scores an additional han for the dora tile. The hand value is 6 han. The
    winner scores 18,000 from the discarder." """
    tiles = {"hand": "11123789s333z", "melds": ["pung 1z"], "winning_tile": "3z", "dora_indicators": ["6s"]}
    v = value(tiles, self_drawn=False, seat_wind=0, round_wind=0)
    assert sorted(han_of(v).values()) == [1, 1, 1, 1, 2]
    assert han_of(v)["Honitsu"] == 2 and han_of(v)["Chantai"] == 1 and han_of(v)["Dora"] == 1
    assert v.claim == {"han": 6, "fu": None, "yakuman": 1}
    assert v.payment["ron"] == 18000


def test_example_10():
    """Scoring example 10: "888 aa sdf ghj kl	j" = North pung, 11p, 234p 567p 89p + 7p: "The winning
    tile is 7 circles by self-draw. The hand is concealed. The player is South. The hand scores 3 han
    for Half Flush (because the hand is concealed) and 1 han for Fully Concealed Hand. Minipoints: 20
    for winning, 2 for winning by self-draw, 8 for a concealed triplet of honours and 2 for edge wait.
    … 32 minipoints are rounded up to 40. The hand value is 4 han, 40 minipoints, equivalent to a
    mangan in payment: 4,000 from East and 2,000 from the others for a total of 8,000 points." """
    v = value({"hand": "11234567789p444z", "winning_tile": "7p"}, self_drawn=True, seat_wind=1)
    assert han_of(v) == {"Honitsu": 3, "Menzen Tsumo": 1}
    assert v.claim == {"han": 4, "fu": 40, "yakuman": 1}
    assert (v.payment["tsumo_dealer"], v.payment["tsumo_other"]) == (4000, 2000)
