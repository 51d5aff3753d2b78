"""Salamanca (rulebook 000, "Mayón" v5.4) kongs and seven pairs from tiles, and the worked examples of
art. 32 and art. 36, each test naming the figure, the hand, the article and the line of the rulebook's
text (000_a8708661e2afa277.txt) it comes from. Seat and round East unless said; 7z is the red dragon,
4z the North wind."""

import pytest

from scoring.rules.base import RuleError
from scoring.rules.registry import get_ruleset
from scoring.rules.tiles import WinContext, value_tiles

SALAMANCA = get_ruleset("salamanca")


def fan_items(tiles, *, self_drawn, seat=0, round_wind=0):
    v = value_tiles(
        SALAMANCA, tiles, WinContext(self_drawn=self_drawn, seat_wind=seat, round_wind=round_wind)
    )
    return v.claim["fan"], {i.name.split(" (")[0]: i.value for i in v.items}


# --- art. 18 (line 170) and art. 32 (lines 416-418): a kong claimed from a discard is concealed ---


def test_art18_claimed_kong_keeps_all_pungs_concealed_and_self_drawn():
    """Art. 18, line 170: a kong claimed from a discard "se considera oculto y no destruye per se la
    jugada de mano secreta"; art. 32, lines 416-418: "Todo tríos con mano secreta y cerrar robando - 3
    fanes. Los cuartetos, al ser ocultos, cuentan como tríos válidos". Hand: kong of 9s claimed from a
    discard, 222m 555p 888s concealed, pair 1z, 2m drawn: all pungs 3 + concealed 1 + self-drawn 1 +
    todo tríos con mano secreta y cerrar robando 3 = 8 fan."""
    fan, items = fan_items(
        {"hand": "222m555p888s11z", "melds": ["kong 9s"], "winning_tile": "2m"}, self_drawn=True
    )
    assert items == {
        "All pungs": 3,
        "Self-drawn": 1,
        "Concealed hand": 1,
        "All pungs concealed and self-drawn": 3,
    }
    assert fan == 8


@pytest.mark.parametrize("kong", ["kong 9s", "concealed_kong 9s"])
def test_art21_22_every_kind_of_kong_counts_as_a_concealed_pung(kong):
    """Art. 21 (added kong, "se considerará oculto") and art. 22 (concealed kong) as art. 18: the same
    8 fan whichever way the kong of 9s was made (the tiles object writes an added or claimed kong
    "kong", a kong of four concealed tiles "concealed_kong")."""
    fan, _ = fan_items({"hand": "222m555p888s11z", "melds": [kong], "winning_tile": "2m"}, self_drawn=True)
    assert fan == 8


def test_art32_an_exposed_pung_still_loses_the_concealed_all_pungs():
    """Art. 32, line 416: the 3 fan need "mano secreta"; with the 9s exposed as a pung (not a kong)
    the hand is all pungs 3 + self-drawn 1 = 4 fan."""
    fan, items = fan_items(
        {"hand": "222m555p888s11z", "melds": ["pung 9s"], "winning_tile": "2m"}, self_drawn=True
    )
    assert items == {"All pungs": 3, "Self-drawn": 1}
    assert fan == 4


# --- art. 32 (lines 386-396): seven pairs with an exposed pung and its fourth tile ---


def test_art32_exposed_pung_and_its_fourth_tile_held_count_as_two_pairs():
    """Art. 32, lines 388-392: "un trío expuesto más la cuarta ficha oculta ... sí cuentan como dos
    parejas. No obstante, si el trío está expuesto sí se destruye la jugada de mano secreta". Hand:
    exposed pung of 2m, 2m 44m 66p 88p 33s 55s concealed, 5s on a discard: seven pairs 3 + only the 5s
    could win 1 = 4 fan, no concealed hand."""
    fan, items = fan_items(
        {"hand": "244m6688p3355s", "melds": ["pung 2m"], "winning_tile": "5s"}, self_drawn=False
    )
    assert items == {"Seven pairs": 3, "Only one tile could win": 1}
    assert fan == 4


def test_art32_exposed_pung_and_its_fourth_tile_as_the_winning_tile():
    """Art. 32, lines 389-391: the fourth tile may be "usada de otro para cerrar": exposed pung of 2m,
    44m 66p 88p 33s 55s held, the 2m won on a discard: seven pairs 3 + only the 2m could win 1 = 4."""
    fan, items = fan_items(
        {"hand": "244m6688p3355s", "melds": ["pung 2m"], "winning_tile": "2m"}, self_drawn=False
    )
    assert items == {"Seven pairs": 3, "Only one tile could win": 1}
    assert fan == 4


def test_art32_an_exposed_pung_without_its_fourth_tile_is_not_two_pairs():
    """Art. 32, lines 389-391: only "un trío expuesto más la cuarta ficha" makes two pairs: an exposed
    pung of 2m beside 44m 66p 88p 33s 55s and a lone 9p is no winning hand."""
    with pytest.raises(RuleError, match="do not make a winning hand"):
        value_tiles(
            SALAMANCA,
            {"hand": "44m6688p9p3355s", "melds": ["pung 2m"], "winning_tile": "5s"},
            WinContext(self_drawn=False),
        )


def test_art32_four_red_dragons_in_seven_pairs_are_one_more_fan():
    """Art. 32, lines 393-394: "si se posee cuatro dragones rojos, por ejemplo, es un fan más". Hand:
    7777z 11m 55m 88m 99p 33s concealed, 3s on a discard: seven pairs 3 + concealed 1 + dragon 1 + only the
    3s could win 1 = 6 fan."""
    fan, items = fan_items({"hand": "115588m99p33s7777z", "winning_tile": "3s"}, self_drawn=False)
    assert items == {
        "Dragon pung": 1,
        "Concealed hand": 1,
        "Only one tile could win": 1,
        "Seven pairs": 3,
    }
    assert fan == 6


def test_art32_four_red_dragons_from_an_exposed_pung_in_seven_pairs():
    """Art. 32, lines 389-394 together: an exposed pung of red dragons plus the fourth one, in seven
    pairs: seven pairs 3 + dragon 1 + single wait 1 = 5 fan (the exposed pung loses mano secreta)."""
    fan, items = fan_items(
        {"hand": "7z115588m99p33s", "melds": ["pung 7z"], "winning_tile": "3s"}, self_drawn=False
    )
    assert items == {"Dragon pung": 1, "Only one tile could win": 1, "Seven pairs": 3}
    assert fan == 5


def test_art32_four_of_the_own_wind_in_seven_pairs_score_the_own_wind():
    """Art. 32, line 394 ("por ejemplo"): the product reads four of a tile in seven pairs as a pung of
    it for the fan of one pung; four South winds held by South in the East round: seven pairs 3 +
    concealed 1 + own wind 1 + single wait 1 = 6 fan."""
    fan, items = fan_items({"hand": "115588m99p33s2222z", "winning_tile": "3s"}, self_drawn=False, seat=1)
    assert items == {
        "Pung of the own wind": 1,
        "Concealed hand": 1,
        "Only one tile could win": 1,
        "Seven pairs": 3,
    }
    assert fan == 6


# --- art. 32 (lines 306-325): the worked example ---


def test_art32_worked_example_twelve_fan():
    """Art. 32, lines 309-325: 11223344556677 of dots, concealed, the 7 of dots drawn, "debe ser
    puntuada con 12 fanes" (line 312): all chows 1 + self-drawn 1 + concealed 1 + seven pairs 3 + one
    suit 6; 0 for the single wait, since the 1 of dots also won (line 319)."""
    fan, items = fan_items({"hand": "11223344556677p", "winning_tile": "7p"}, self_drawn=True)
    assert items == {
        "All chows": 1,
        "Self-drawn": 1,
        "Concealed hand": 1,
        "Seven pairs": 3,
        "One suit only": 6,
    }
    assert fan == 12


# --- art. 36 (lines 769-781): the second example, the only one whose hand the text fixes ---


def test_art36_second_example_eleven_fan():
    """Art. 36, lines 769-781: A shows pungs of the 1 of dots and the 1 of characters, takes B's 1 of
    bamboo and C's red dragon as pungs, and wins on D's North wind: "A declara 11 fanes (768 puntos)"
    (line 775). All pungs 3 + three pungs of one number 3 + only honours and terminals 3 + dragon 1 +
    only one tile 1 = 11 fan, and 2 x 384 = 768 points (art. 27, line 245; art. 28)."""
    fan, items = fan_items(
        {"hand": "44z", "melds": ["pung 1p", "pung 1m", "pung 1s", "pung 7z"], "winning_tile": "4z"},
        self_drawn=False,
        seat=2,
    )
    assert items == {
        "All pungs": 3,
        "Three pungs of one number in the three suits": 3,
        "Only honours and terminals": 3,
        "Dragon pung": 1,
        "Only one tile could win": 1,
    }
    assert fan == 11
    assert SALAMANCA.config.fan_points[11] * 2 == 768
