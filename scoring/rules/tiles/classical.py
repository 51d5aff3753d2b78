"""Classical Chinese hand value from tiles (rulebook 001, §74–79 and the limit hands of §85).

Pure code, no library. The winner's hand of the mixed-hand game (esku nahasia), which the product
plays: points of table 1 of §75, doubled once per double of tables 2 and 3 and §77–78:

- pungs exposed/concealed: simples 2/4, terminals 4/8, honours 4/8; kongs: simples 4/8, terminals
  8/16, honours 16/32, as the rulebook's table prints them; chows 0; pairs of dragons, of the own
  wind or of the prevalent wind 2, of the own wind when it is also prevalent 4; each flower 4;
- winner: 20 for mah jong, 2 for a winning tile from the wall, 2 for filling the only place;
- doubles: a pung or kong of dragons, of the own wind, of the prevalent wind 1 each (own prevalent
  wind 2); own flower or season 1 each; a complete set of four flowers 3; one suit with honours 1;
  terminals with honours 1; last tile of the wall, replacement tile, robbing a kong 1 each; chows and
  a worthless pair 1 (§77); no chows 1; three little scholars 1 and four little blessings 1 (§78);
- the limit (§79, §85): one suit only, terminals only or honours only (table 2, "esku purua") and the
  limit hands of §85 that tiles can show (I–XII, XV–XVII, XIX, XX; XIII and XIV from the
  ``first_turn`` and ``dealer_first_discard`` flags; XVIII, kong upon kong, from ``replacement_tile``
  with ``kongs_in_a_row`` of 2 or more: the loose tile after a kong made a second kong, and the loose
  tile after that one completed the hand).

A limit hand's value is the limit (the preset's ``limit``; East's double is applied when paying).
The value returned is the hand's value after doubles and before the limit, as the archive records it.
"""

from __future__ import annotations

from ..base import RuleError
from ..classical import ClassicalConfig
from ..text import gettext_noop
from . import shapes as sh
from .notation import Tiles, is_dragon, is_honour, is_terminal, is_wind, number_of, suit_of
from .result import Item, Valuation, WinContext


def _set_points(s: sh.Set) -> int:
    if s.kind == "chow":
        return 0
    if s.kind == "kong":
        base = 16 if is_honour(s.first) else 8 if is_terminal(s.first) else 4
    else:
        base = 4 if (is_honour(s.first) or is_terminal(s.first)) else 2
    return base * (2 if s.concealed else 1)


# every name an item of a classical hand can have (the sets', the doubles', the limit hands'), marked
# for the catalogue: a page shows them in the reader's language
NAME_TEXTS: tuple[str, ...] = tuple(
    text.template
    for text in (
        gettext_noop("Mah jong"),
        gettext_noop("Pung of honours, concealed"),
        gettext_noop("Pung of honours, exposed"),
        gettext_noop("Pung of terminals, concealed"),
        gettext_noop("Pung of terminals, exposed"),
        gettext_noop("Pung of simples, concealed"),
        gettext_noop("Pung of simples, exposed"),
        gettext_noop("Kong of honours, concealed"),
        gettext_noop("Kong of honours, exposed"),
        gettext_noop("Kong of terminals, concealed"),
        gettext_noop("Kong of terminals, exposed"),
        gettext_noop("Kong of simples, concealed"),
        gettext_noop("Kong of simples, exposed"),
        gettext_noop("Pair of value"),
        gettext_noop("Flowers"),
        gettext_noop("Winning tile from the wall"),
        gettext_noop("Filling the only place"),
        gettext_noop("Dragon pung"),
        gettext_noop("Pung of the own prevalent wind"),
        gettext_noop("Own wind pung"),
        gettext_noop("Prevalent wind pung"),
        gettext_noop("Own flower or season"),
        gettext_noop("Four flowers"),
        gettext_noop("Clean hand: one suit and honours"),
        gettext_noop("Clean hand: terminals and honours"),
        gettext_noop("Last tile"),
        gettext_noop("Replacement tile"),
        gettext_noop("Robbing a kong"),
        gettext_noop("Chows and a worthless pair"),
        gettext_noop("No chows"),
        gettext_noop("Three little scholars"),
        gettext_noop("Four little blessings"),
        gettext_noop("XIII Heavenly hand"),
        gettext_noop("First draw"),
        gettext_noop("XIV Earthly hand"),
        gettext_noop("XII Thirteen orphans"),
        gettext_noop("XI Nine gates"),
        gettext_noop("X All kongs"),
        gettext_noop("IX Four blessings"),
        gettext_noop("I Hidden treasure"),
        gettext_noop("II All honours"),
        gettext_noop("III All terminals"),
        gettext_noop("IV Green hand"),
        gettext_noop("V Red hand"),
        gettext_noop("VI White hand"),
        gettext_noop("VII Three great scholars"),
        gettext_noop("VIII Horizontal hand"),
        gettext_noop("XV Moon from the bottom of the sea"),
        gettext_noop("XVI Plum blossom on the roof"),
        gettext_noop("XVII Robbing the two of bamboo"),
        gettext_noop("XVIII Kong upon kong"),
        gettext_noop("XIX Heavenly twins"),
        gettext_noop("XX Seven twins"),
        gettext_noop("Pure hand: one suit"),
        gettext_noop("Pure hand: honours"),
        gettext_noop("Pure hand: terminals"),
    )
)


def _set_name(s: sh.Set) -> str:
    kind = {"pung": "Pung", "kong": "Kong", "chow": "Chow"}[s.kind]
    what = "honours" if is_honour(s.first) else "terminals" if is_terminal(s.first) else "simples"
    return f"{kind} of {what}, {'concealed' if s.concealed else 'exposed'}"


def _limit_hand(hand: Tiles, shape: sh.Shape | None, context: WinContext) -> str | None:
    """The name of the §85 limit hand (or pure hand of table 2) the tiles show, if any."""
    tiles = hand.all_tiles
    suits = {suit_of(t) for t in tiles if not is_honour(t)}
    if hand.has("first_turn") and context.self_drawn:
        return "XIII Heavenly hand" if context.seat_wind == 0 else "First draw"
    if hand.has("dealer_first_discard"):
        return "XIV Earthly hand"
    if sh.is_thirteen_orphans(hand.concealed) and not hand.melds:
        return "XII Thirteen orphans"
    if sh.is_nine_gates(hand):
        return "XI Nine gates"
    if shape is not None and shape.form == "standard":
        sets = shape.sets
        pungs = [s for s in sets if s.is_pung]
        if len([s for s in sets if s.kind == "kong"]) == 4:
            return "X All kongs"
        if len([s for s in pungs if is_wind(s.first)]) == 4:
            return "IX Four blessings"
        one_suit = len(suits) == 1 and not any(is_honour(t) for t in tiles)
        if len(pungs) == 4 and one_suit and context.self_drawn and all(s.concealed for s in pungs):
            return "I Hidden treasure"
        if len(pungs) == 4 and all(is_honour(t) for t in tiles):
            return "II All honours"
        if len(pungs) == 4 and all(is_terminal(t) for t in tiles):
            return "III All terminals"
        simples = [t for t in tiles if not is_honour(t)]
        for dragon, suit, name in ((32, 2, "IV Green hand"), (33, 1, "V Red hand"), (31, 0, "VI White hand")):
            if all(t == dragon or (suit_of(t) == suit and 2 <= number_of(t) <= 8) for t in tiles) and simples:
                return name
        if len([s for s in pungs if is_dragon(s.first)]) == 3 and len(suits) <= 1:
            return "VII Three great scholars"
        numbers = {}
        for s in pungs:
            if not is_honour(s.first) and not is_terminal(s.first):
                numbers.setdefault(number_of(s.first), set()).add(suit_of(s.first))
        honour_pung = any(is_honour(s.first) for s in pungs)
        if (
            any(len(v) == 3 for v in numbers.values())
            and honour_pung
            and shape.pair is not None
            and is_honour(shape.pair)
        ):
            return "VIII Horizontal hand"
    if hand.has("last_tile") and context.self_drawn and hand.winning_tile == 9:
        return "XV Moon from the bottom of the sea"
    if hand.has("replacement_tile") and hand.winning_tile == 13:
        return "XVI Plum blossom on the roof"
    if hand.has("robbing_kong") and hand.winning_tile == 19:
        return "XVII Robbing the two of bamboo"
    if hand.has("replacement_tile") and hand.kongs_in_a_row >= 2:
        return "XVIII Kong upon kong"
    if shape is not None and shape.form == "seven_pairs" and sh.is_distinct_seven_pairs(hand.concealed):
        kinds = set(hand.concealed)
        if kinds == set(range(27, 34)) or (len(suits) == 1 and not any(is_honour(t) for t in kinds)):
            return "XIX Heavenly twins"
        if (len(suits) == 1 and any(is_honour(t) for t in kinds)) or all(
            is_honour(t) or is_terminal(t) for t in kinds
        ):
            return "XX Seven twins"
    if len(suits) == 1 and not any(is_honour(t) for t in tiles):
        return "Pure hand: one suit"
    if not suits:
        return "Pure hand: honours"
    if all(is_terminal(t) for t in tiles):
        return "Pure hand: terminals"
    return None


def _standard_value(
    hand: Tiles, shape: sh.Shape, context: WinContext, seat: int, round_wind: int
) -> tuple[int, list[Item]]:
    items: list[Item] = [Item("Mah jong", 20, "points")]
    for s in shape.sets:
        if s.kind != "chow":
            items.append(Item(_set_name(s), _set_points(s), "points"))
    own, prevalent = 27 + seat, 27 + round_wind
    pair = shape.pair
    pair_points = 0
    if pair is not None:
        if is_dragon(pair):
            pair_points = 2
        elif pair == own and pair == prevalent:
            pair_points = 4
        elif pair in (own, prevalent):
            pair_points = 2
    if pair_points:
        items.append(Item("Pair of value", pair_points, "points"))
    if hand.flowers:
        items.append(Item("Flowers", 4 * hand.flowers, "points", hand.flowers))
    if context.self_drawn:
        items.append(Item("Winning tile from the wall", 2, "points"))
    if len(sh.waits(hand)) == 1:
        items.append(Item("Filling the only place", 2, "points"))
    doubles: list[Item] = []
    for s in shape.sets:
        if not s.is_pung:
            continue
        if is_dragon(s.first):
            doubles.append(Item("Dragon pung", 1, "doubles"))
        elif s.first == own and s.first == prevalent:
            doubles.append(Item("Pung of the own prevalent wind", 2, "doubles"))
        elif s.first in (own, prevalent):
            doubles.append(Item("Own wind pung" if s.first == own else "Prevalent wind pung", 1, "doubles"))
    if hand.own_flowers:
        doubles.append(Item("Own flower or season", hand.own_flowers, "doubles", hand.own_flowers))
    if hand.flower_sets:
        doubles.append(Item("Four flowers", 3 * hand.flower_sets, "doubles", hand.flower_sets))
    tiles = hand.all_tiles
    suits = {suit_of(t) for t in tiles if not is_honour(t)}
    if len(suits) == 1 and any(is_honour(t) for t in tiles):
        doubles.append(Item("Clean hand: one suit and honours", 1, "doubles"))
    elif all(is_honour(t) or is_terminal(t) for t in tiles):
        doubles.append(Item("Clean hand: terminals and honours", 1, "doubles"))
    for flag, name in (
        ("last_tile", "Last tile"),
        ("replacement_tile", "Replacement tile"),
        ("robbing_kong", "Robbing a kong"),
    ):
        if hand.has(flag):
            doubles.append(Item(name, 1, "doubles"))
    if all(not s.is_pung for s in shape.sets) and not pair_points:
        doubles.append(Item("Chows and a worthless pair", 1, "doubles"))
    if all(s.is_pung for s in shape.sets):
        doubles.append(Item("No chows", 1, "doubles"))
    dragon_pungs = sum(1 for s in shape.sets if s.is_pung and is_dragon(s.first))
    wind_pungs = sum(1 for s in shape.sets if s.is_pung and is_wind(s.first))
    if dragon_pungs == 2 and pair is not None and is_dragon(pair):
        doubles.append(Item("Three little scholars", 1, "doubles"))
    if wind_pungs == 3 and pair is not None and is_wind(pair):
        doubles.append(Item("Four little blessings", 1, "doubles"))
    points = sum(i.value for i in items)
    count = sum(i.value for i in doubles)
    return points * 2**count, items + doubles


def value(hand: Tiles, context: WinContext, config: ClassicalConfig) -> Valuation:
    seat = hand.seat_wind if hand.seat_wind is not None else context.seat_wind
    round_wind = hand.round_wind if hand.round_wind is not None else context.round_wind
    context = WinContext(self_drawn=context.self_drawn, seat_wind=seat, round_wind=round_wind)
    readings = sh.shapes(hand, self_drawn=context.self_drawn)
    if not readings:
        raise RuleError(
            gettext_noop("the tiles do not make mah jong (four sets and a pair, or a limit hand of §85)"),
            "hand",
        )
    best: tuple[int, list[Item]] | None = None
    for shape in readings:
        limit = _limit_hand(hand, shape, context)
        if limit:
            candidate = (config.limit, [Item(limit, config.limit, "limit")])
        elif shape.form != "standard":
            continue  # seven pairs score only as the limit hands XIX and XX
        else:
            candidate = _standard_value(hand, shape, context, seat, round_wind)
        if best is None or candidate[0] > best[0]:
            best = candidate
    if best is None:
        raise RuleError(
            gettext_noop("seven pairs are mah jong only as the limit hands XIX or XX of §85"), "hand"
        )
    total, items = best
    summary = f"{total} points" + (" (limit)" if items and items[0].unit == "limit" else "")
    return Valuation("classical", {"value": total}, tuple(items), summary)
