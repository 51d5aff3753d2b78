"""Salamanca "Mayón" fan from tiles (rulebook 000, art. 32 "Tabla de fanes"; art. 27 caps at 12).

Pure code, no library. Art. 32: the fan of every feature add up, and when the concealed tiles can be
read in several ways all readings count (its worked example: 11223344556677p concealed and
self-drawn is 12 fan: all chows 1, self-drawn 1, concealed 1, seven pairs 3, one suit 6). A bigger
pattern replaces the smaller one of the same kind and adds the fan the rulebook puts in brackets
(for example three dragon pungs: 3, plus 1 for each dragon pung).

Colours (art. 32, optional): when the preset's ``colours`` names the colours of the tile set, every
tile of the hand brings its colours (the white dragon none); a hand of two colours scores "solo de dos
colores" (1), of one colour "solo de un color" (3), and "solo de un palo" is 5 fan instead of 6.
Without colours neither is counted.

The flags of the ``tiles`` object give what the tiles cannot show: ``last_tile``, ``replacement_tile``
(with ``kongs_in_a_row``: 1 fan per kong made one after another before the winning tile, up to 4),
``robbing_kong``, ``first_turn`` (the dealer wins on his first draw) and ``dealer_first_discard``.

Kongs (art. 18, 21, 22): a kong claimed from a discard, added to an exposed pung or declared from four
concealed tiles "se considera oculto": it keeps "mano secreta" and counts as a concealed pung of "todo
tríos con mano secreta y cerrar robando". Seven pairs (art. 32): four identical tiles held, or an exposed
pung plus its fourth tile, count as two pairs (the exposed pung still destroys "mano secreta"); a
declared kong rules seven pairs out.
"""

from __future__ import annotations

from collections import Counter

from ..base import RuleError
from ..salamanca import SalamancaConfig
from ..text import gettext_noop
from . import shapes as sh
from .notation import Tiles, is_dragon, is_honour, is_terminal, is_wind, number_of, suit_of
from .result import Item, Valuation, WinContext

MAX_FAN = 12  # art. 27

NAMES = {
    "all_chows": ("All chows (solo escaleras)", 1),
    "dragon_pung": ("Dragon pung (trío de dragones)", 1),
    "round_wind_pung": ("Pung of the round wind (trío del viento de la ronda)", 1),
    "seat_wind_pung": ("Pung of the own wind (trío del viento propio)", 1),
    "self_drawn": ("Self-drawn (cerrar robando)", 1),
    "concealed": ("Concealed hand (mano secreta)", 1),
    "single_wait": ("Only one tile could win (solo se podía cerrar con una ficha)", 1),
    "replacement_tile": ("Win after a kong (cerrar después de hacer un cuarteto)", 1),
    "two_colours": ("Only two colours (solo de dos colores)", 1),
    "two_wind_pungs_pair": ("Two wind pungs and a wind pair", 1),
    "two_pungs_same_number": ("Two pungs of one number in different suits", 1),
    "robbing_kong": ("Robbing a kong (cerrar interceptando un cuarteto ajeno)", 2),
    "last_tile": ("Last playable tile (cerrar con la última ficha jugable)", 2),
    "two_dragon_pungs_pair": ("Two dragon pungs and a dragon pair", 2),
    "three_wind_pungs": ("Three wind pungs (tres tríos de vientos)", 2),
    "two_pungs_pair_same_number": ("Two pungs and a pair of one number in different suits", 2),
    "seven_pairs": ("Seven pairs (todo parejas)", 3),
    "all_pungs": ("All pungs (todo tríos)", 3),
    "one_suit_honours": ("One suit and honours (solo de un palo y triunfos)", 3),
    "moon": ("Moon from the bottom of the sea (1 of dots, last tile, self-drawn)", 3),
    "plum": ("Plum blossom from a kong (5 of dots after a kong)", 3),
    "three_dragon_pungs": ("Three dragon pungs (tres tríos de dragones)", 3),
    "three_wind_pungs_pair": ("Three wind pungs and a wind pair", 3),
    "concealed_pungs_self_drawn": ("All pungs concealed and self-drawn", 3),
    "terminals_honours": ("Only honours and terminals (solo triunfos y extremos)", 3),
    "three_pungs_same_number": ("Three pungs of one number in the three suits", 3),
    "one_colour": ("Only one colour (solo de un color)", 3),
    "nine_gates": ("Nine gates (las nueve puertas)", 5),
    "four_wind_pungs": ("Four wind pungs (cuatro tríos de vientos)", 5),
    "one_suit": ("One suit only (solo de un palo)", 6),
    "one_suit_with_colours": ("One suit only (solo de un palo, played with colours)", 5),
    "thirteen_orphans": ("Thirteen orphans (trece huérfanos)", 6),
    "terminals": ("Only terminals (solo extremos)", 6),
    "all_honours": ("All honours (todo triunfos)", 7),
    "dealer_first_draw": ("Dealer wins on his first draw", 7),
    "dealer_first_discard": ("Win on the dealer's first discard", 7),
}
# the names above, marked for the catalogue: a Spanish page shows the rulebook's own (art. 32)
NAME_TEXTS: tuple[str, ...] = tuple(
    text.template
    for text in (
        gettext_noop("All chows (solo escaleras)"),
        gettext_noop("Dragon pung (trío de dragones)"),
        gettext_noop("Pung of the round wind (trío del viento de la ronda)"),
        gettext_noop("Pung of the own wind (trío del viento propio)"),
        gettext_noop("Self-drawn (cerrar robando)"),
        gettext_noop("Concealed hand (mano secreta)"),
        gettext_noop("Only one tile could win (solo se podía cerrar con una ficha)"),
        gettext_noop("Win after a kong (cerrar después de hacer un cuarteto)"),
        gettext_noop("Only two colours (solo de dos colores)"),
        gettext_noop("Two wind pungs and a wind pair"),
        gettext_noop("Two pungs of one number in different suits"),
        gettext_noop("Robbing a kong (cerrar interceptando un cuarteto ajeno)"),
        gettext_noop("Last playable tile (cerrar con la última ficha jugable)"),
        gettext_noop("Two dragon pungs and a dragon pair"),
        gettext_noop("Three wind pungs (tres tríos de vientos)"),
        gettext_noop("Two pungs and a pair of one number in different suits"),
        gettext_noop("Seven pairs (todo parejas)"),
        gettext_noop("All pungs (todo tríos)"),
        gettext_noop("One suit and honours (solo de un palo y triunfos)"),
        gettext_noop("Moon from the bottom of the sea (1 of dots, last tile, self-drawn)"),
        gettext_noop("Plum blossom from a kong (5 of dots after a kong)"),
        gettext_noop("Three dragon pungs (tres tríos de dragones)"),
        gettext_noop("Three wind pungs and a wind pair"),
        gettext_noop("All pungs concealed and self-drawn"),
        gettext_noop("Only honours and terminals (solo triunfos y extremos)"),
        gettext_noop("Three pungs of one number in the three suits"),
        gettext_noop("Only one colour (solo de un color)"),
        gettext_noop("Nine gates (las nueve puertas)"),
        gettext_noop("Four wind pungs (cuatro tríos de vientos)"),
        gettext_noop("One suit only (solo de un palo)"),
        gettext_noop("One suit only (solo de un palo, played with colours)"),
        gettext_noop("Thirteen orphans (trece huérfanos)"),
        gettext_noop("Only terminals (solo extremos)"),
        gettext_noop("All honours (todo triunfos)"),
        gettext_noop("Dealer wins on his first draw"),
        gettext_noop("Win on the dealer's first discard"),
    )
)
# a bigger pattern replaces these smaller ones
REPLACES = {
    "three_dragon_pungs": ("two_dragon_pungs_pair",),
    "four_wind_pungs": ("three_wind_pungs_pair", "three_wind_pungs", "two_wind_pungs_pair"),
    "three_wind_pungs_pair": ("three_wind_pungs", "two_wind_pungs_pair"),
    "three_wind_pungs": ("two_wind_pungs_pair",),
    "one_suit": ("one_suit_honours",),
    "one_suit_with_colours": ("one_suit_honours",),
    "terminals": ("terminals_honours",),
    "all_honours": ("one_suit_honours", "terminals_honours"),
}


def _suit_features(tiles: list[int]) -> set[str]:
    found = set()
    suits = {suit_of(t) for t in tiles if not is_honour(t)}
    honours = any(is_honour(t) for t in tiles)
    if not suits:
        found.add("all_honours")
    elif len(suits) == 1:
        found.add("one_suit_honours" if honours else "one_suit")
    if all(is_honour(t) or is_terminal(t) for t in tiles) and suits:
        found.add("terminals_honours" if honours else "terminals")
    return found


def _standard_features(shape: sh.Shape, context_seat: int, context_round: int) -> Counter:
    found: Counter = Counter()
    pungs = [s for s in shape.sets if s.is_pung]
    pair = shape.pair
    if all(not s.is_pung for s in shape.sets):
        found["all_chows"] = 1
    if len(pungs) == 4:
        found["all_pungs"] = 1
        # art. 18, 21, 22: every declared kong is considered concealed; art. 32 ("todo tríos con mano
        # secreta y cerrar robando"): "Los cuartetos, al ser ocultos, cuentan como tríos válidos"
        if all(s.concealed or s.kind == "kong" for s in pungs):
            found["_concealed_pungs"] = 1
    dragons = [s for s in pungs if is_dragon(s.first)]
    winds = [s for s in pungs if is_wind(s.first)]
    if dragons:
        found["dragon_pung"] = len(dragons)
    if len(dragons) == 3:
        found["three_dragon_pungs"] = 1
    elif len(dragons) == 2 and pair is not None and is_dragon(pair):
        found["two_dragon_pungs_pair"] = 1
    pair_wind = pair is not None and is_wind(pair)
    if len(winds) == 4:
        found["four_wind_pungs"] = 1
    elif len(winds) == 3:
        found["three_wind_pungs_pair" if pair_wind else "three_wind_pungs"] = 1
    elif len(winds) == 2 and pair_wind:
        found["two_wind_pungs_pair"] = 1
    if any(s.first == 27 + context_round for s in winds):
        found["round_wind_pung"] = 1
    if any(s.first == 27 + context_seat for s in winds):
        found["seat_wind_pung"] = 1
    by_number: dict[int, set[int]] = {}
    for s in pungs:
        if not is_honour(s.first):
            by_number.setdefault(number_of(s.first), set()).add(suit_of(s.first))
    for number, suits in by_number.items():
        if len(suits) == 3:
            found["three_pungs_same_number"] += 1  # each number is one pattern
        elif len(suits) == 2:
            if (
                pair is not None
                and not is_honour(pair)
                and number_of(pair) == number
                and suit_of(pair) not in suits
            ):
                found["two_pungs_pair_same_number"] += 1
            else:
                found["two_pungs_same_number"] += 1
    return found


def _seven_pairs_features(shape: sh.Shape, context_seat: int, context_round: int) -> Counter:
    """Art. 32, "todo parejas": "si se posee cuatro dragones rojos, por ejemplo, es un fan más". A tile
    held four times (two of the pairs) scores the fan of one pung of it: a dragon, the round wind, the
    own wind. Patterns of several pungs (all pungs, three dragon pungs, pungs of one number) are not
    read into a seven pairs hand."""
    found: Counter = Counter({"seven_pairs": 1})
    fours = [t for t, n in Counter(shape.pairs).items() if n == 2]
    dragons = sum(1 for t in fours if is_dragon(t))
    if dragons:
        found["dragon_pung"] = dragons
    if 27 + context_round in fours:
        found["round_wind_pung"] = 1
    if 27 + context_seat in fours:
        found["seat_wind_pung"] = 1
    return found


def _colour_features(tiles: list[int], table: dict[int, frozenset[str]]) -> set[str]:
    colours: set[str] = set()
    for t in tiles:
        colours |= table[t]
    if len(colours) == 1:
        return {"one_colour"}
    if len(colours) == 2:
        return {"two_colours"}
    return set()


def value(hand: Tiles, context: WinContext, config: SalamancaConfig | None = None) -> Valuation:
    seat = hand.seat_wind if hand.seat_wind is not None else context.seat_wind
    round_wind = hand.round_wind if hand.round_wind is not None else context.round_wind
    # art. 32: an exposed pung plus its fourth tile counts as two pairs of "todo parejas"
    readings = sh.shapes(hand, self_drawn=context.self_drawn, pung_pairs=True)
    if not readings:
        raise RuleError(
            gettext_noop(
                "the tiles do not make a winning hand (four sets and a pair, seven pairs or thirteen orphans)"
            ),
            "hand",
        )
    found: Counter = Counter()
    for shape in readings:
        if shape.form == "standard":
            features = _standard_features(shape, seat, round_wind)
        elif shape.form == "seven_pairs":
            features = _seven_pairs_features(shape, seat, round_wind)
        else:
            features = Counter({"thirteen_orphans": 1})
        for key, n in features.items():
            found[key] = max(found[key], n)
    for key in _suit_features(hand.all_tiles):
        found[key] = 1
    colours = config.colour_table if config is not None else {}
    if colours:
        for key in _colour_features(hand.all_tiles, colours):
            found[key] = 1
        if found.pop("one_suit", 0):
            found["one_suit_with_colours"] = 1
    if context.self_drawn:
        found["self_drawn"] = 1
    # art. 18, 21, 22, 32: only kongs exposed still counts as secret; an exposed pung (also one whose
    # fourth tile makes two pairs of "todo parejas") destroys it
    concealed = all(m.is_kong for m in hand.melds)
    if concealed:
        found["concealed"] = 1
    if found.pop("_concealed_pungs", 0) and concealed and context.self_drawn:
        found["concealed_pungs_self_drawn"] = 1
    if len(sh.waits(hand, pung_pairs=True)) == 1:
        found["single_wait"] = 1
    if hand.has("replacement_tile"):
        found["replacement_tile"] = hand.kongs_in_a_row  # art. 32: 1 fan per kong in a row, up to 4
        if hand.winning_tile == 13:  # 5p
            found["plum"] = 1
    if hand.has("robbing_kong"):
        found["robbing_kong"] = 1
    if hand.has("last_tile"):
        found["last_tile"] = 1
        if context.self_drawn and hand.winning_tile == 9:  # 1p
            found["moon"] = 1
    if sh.is_nine_gates(hand):
        found["nine_gates"] = 1
    if hand.has("first_turn"):
        if not (seat == 0 and context.self_drawn):
            raise RuleError(
                gettext_noop("first_turn: only the dealer winning on his first draw scores it"), "first_turn"
            )
        found["dealer_first_draw"] = 1
    if hand.has("dealer_first_discard"):
        found["dealer_first_discard"] = 1
    for big, smaller in REPLACES.items():
        if found.get(big):
            for key in smaller:
                found.pop(key, None)
    items = tuple(
        Item(NAMES[key][0], NAMES[key][1] * n, "fan", n)
        for key, n in sorted(found.items(), key=lambda kv: list(NAMES).index(kv[0]))
        if n
    )
    total = sum(i.value for i in items)
    fan = min(total, MAX_FAN)
    summary = f"{fan} fan" + (f" ({total} counted, art. 27 caps at {MAX_FAN})" if total > MAX_FAN else "")
    return Valuation("salamanca", {"fan": fan}, items, summary)
