"""MCR fan from tiles: a strict adapter over PyMahjongGB (module ``MahjongGB``, pinned 1.4.0).

PyMahjongGB is the C++ fan calculator of the Chinese Official rules. Its tile codes are W1–W9
characters, B1–B9 dots, T1–T9 bamboo, F1–F4 winds E S W N, J1–J3 dragons red, green, white; a
declared set is ``(kind, middle-or-only tile, offer)`` with kind CHI, PENG or GANG and offer 0 for a
concealed kong. It raises TypeError with an ERROR_… code; those become RuleErrors here.

Configuration: every argument of the calculator is given (nothing is left to the library's defaults):
the winds from the hand or the game state, the flags from the tiles, and the minimum from the preset
(``MCRConfig.min_fan``).

The library follows the Chinese rules of 2006; the product's MCR text is the EMA's Green Book
(*Mahjong Competition Rules*, Appendix 1, the fan list). Where the two differ the adapter gives the Green
Book's fan (``as_written``), each with the line of the English text (mcr-competition-rules-en.txt):

- Two Concealed Kongs is 8 points (line 1030; the library 6), and a melded kong with a concealed kong is
  Two Melded Kongs 4 + Concealed Kong 2 = 6 (line 1081; the library one fan of 5) (``GREEN_BOOK``).
- "Combines with Fully Concealed if Self-Drawn": Nine Gates (line 744), Seven Shifted Pairs (759-760),
  Thirteen Orphans (765-766), Four Concealed Pungs (800), Seven Pairs (842, and All Green's example 1,
  line 736), Greater Honors and Knitted Tiles (852-853), Lesser Honors and Knitted Tiles (949-950): such a
  hand won from the wall with no claimed set scores Fully Concealed (4), which includes Self-Drawn; the
  library gives Self-Drawn (1) or nothing.
- All Green "combines with Full Flush and Half Flush" (lines 733-734): with the green dragon it scores
  Half Flush, which the library drops.
- All Terminals "can combine with Double Pung or Triple Pung" (lines 771-774, "Double Pung (times two)"):
  the library drops Double Pung.
- Nine Gates "does not combine with ... Pung of Terminals or Honors" (line 743): neither the pung of 1 nor
  the pung of 9 scores it; the library counts one of them when both are pungs (a win on the 2, 5 or 8).

Every sentence and example of Appendix 1 is a test (tests/rules/test_tiles_mcr_appendix_1.py); what the
product still reads otherwise than the text is listed in docs/rules-notes-mcr-salamanca-classical.md.
"""

from __future__ import annotations

from MahjongGB import MahjongFanCalculator

from ..base import RuleError
from ..text import Names, gettext_noop
from .notation import Tiles, notation, number_of, suit_of, tile_name
from .result import Item, Valuation, WinContext

LIBRARY = "PyMahjongGB"
LIBRARY_VERSION = "1.4.0"
_SUIT_CODES = ("W", "B", "T")
_HONOUR_CODES = ("F1", "F2", "F3", "F4", "J3", "J2", "J1")  # 1z..7z: E S W N, white, green, red
# fan name as the library writes it: the Green Book's items instead (name, points per count)
GREEN_BOOK: dict[str, tuple[tuple[str, int], ...]] = {
    "Two Concealed Kongs": (("Two Concealed Kongs", 8),),  # fan 48, 8 points
    "Concealed Kong and Melded Kong": (("Two Melded Kongs", 4), ("Concealed Kong", 2)),  # fan 57, 6 points
}
# The 81 fan as the library names them (and the Green Book's items above), marked for the catalogue: a page
# shows each in the reader's language (Spanish: the names of the Green Book's Spanish translation).
FAN_NAMES: tuple[str, ...] = tuple(
    text.template
    for text in (
        gettext_noop("Big Four Winds"),
        gettext_noop("Big Three Dragons"),
        gettext_noop("All Green"),
        gettext_noop("Nine Gates"),
        gettext_noop("Four Kongs"),
        gettext_noop("Seven Shifted Pairs"),
        gettext_noop("Thirteen Orphans"),
        gettext_noop("All Terminals"),
        gettext_noop("Little Four Winds"),
        gettext_noop("Little Three Dragons"),
        gettext_noop("All Honors"),
        gettext_noop("Four Concealed Pungs"),
        gettext_noop("Pure Terminal Chows"),
        gettext_noop("Quadruple Chow"),
        gettext_noop("Four Pure Shifted Pungs"),
        gettext_noop("Four Pure Shifted Chows"),
        gettext_noop("Three Kongs"),
        gettext_noop("All Terminals and Honors"),
        gettext_noop("Seven Pairs"),
        gettext_noop("Greater Honors and Knitted Tiles"),
        gettext_noop("All Even Pungs"),
        gettext_noop("Full Flush"),
        gettext_noop("Pure Triple Chow"),
        gettext_noop("Pure Shifted Pungs"),
        gettext_noop("Upper Tiles"),
        gettext_noop("Middle Tiles"),
        gettext_noop("Lower Tiles"),
        gettext_noop("Pure Straight"),
        gettext_noop("Three-Suited Terminal Chows"),
        gettext_noop("Pure Shifted Chows"),
        gettext_noop("All Five"),
        gettext_noop("Triple Pung"),
        gettext_noop("Three Concealed Pungs"),
        gettext_noop("Lesser Honors and Knitted Tiles"),
        gettext_noop("Knitted Straight"),
        gettext_noop("Upper Four"),
        gettext_noop("Lower Four"),
        gettext_noop("Big Three Winds"),
        gettext_noop("Mixed Straight"),
        gettext_noop("Reversible Tiles"),
        gettext_noop("Mixed Triple Chow"),
        gettext_noop("Mixed Shifted Pungs"),
        gettext_noop("Chicken Hand"),
        gettext_noop("Last Tile Draw"),
        gettext_noop("Last Tile Claim"),
        gettext_noop("Out with Replacement Tile"),
        gettext_noop("Robbing The Kong"),
        gettext_noop("Two Concealed Kongs"),
        gettext_noop("All Pungs"),
        gettext_noop("Half Flush"),
        gettext_noop("Mixed Shifted Chows"),
        gettext_noop("All Types"),
        gettext_noop("Melded Hand"),
        gettext_noop("Two Dragons Pungs"),
        gettext_noop("Outside Hand"),
        gettext_noop("Fully Concealed Hand"),
        gettext_noop("Two Melded Kongs"),
        gettext_noop("Last Tile"),
        gettext_noop("Dragon Pung"),
        gettext_noop("Prevalent Wind"),
        gettext_noop("Seat Wind"),
        gettext_noop("Concealed Hand"),
        gettext_noop("All Chows"),
        gettext_noop("Tile Hog"),
        gettext_noop("Double Pung"),
        gettext_noop("Two Concealed Pungs"),
        gettext_noop("Concealed Kong"),
        gettext_noop("All Simples"),
        gettext_noop("Pure Double Chow"),
        gettext_noop("Mixed Double Chow"),
        gettext_noop("Short Straight"),
        gettext_noop("Two Terminal Chows"),
        gettext_noop("Pung of Terminals or Honors"),
        gettext_noop("Melded Kong"),
        gettext_noop("One Voided Suit"),
        gettext_noop("No Honors"),
        gettext_noop("Edge Wait"),
        gettext_noop("Closed Wait"),
        gettext_noop("Single Wait"),
        gettext_noop("Self-Drawn"),
        gettext_noop("Flower Tiles"),
    )
)
# Green Book, Appendix 1: the special hands that "combine with Fully Concealed if Self-Drawn"
FULLY_CONCEALED_IF_SELF_DRAWN = frozenset(
    {
        "Nine Gates",  # line 744
        "Seven Shifted Pairs",  # lines 759-760
        "Thirteen Orphans",  # lines 765-766
        "Four Concealed Pungs",  # line 800
        "Seven Pairs",  # line 842 (and line 736)
        "Greater Honors and Knitted Tiles",  # lines 852-853
        "Lesser Honors and Knitted Tiles",  # lines 949-950
    }
)
_ERRORS = {
    "ERROR_NOT_WIN": "the tiles do not make a winning hand",
    "ERROR_WRONG_TILES_COUNT": "the number of tiles does not make a winning hand",
    "ERROR_TILE_COUNT_GREATER_THAN_4": "a tile appears more than 4 times",
}


def _code(tile: int) -> str:
    if tile >= 27:
        return _HONOUR_CODES[tile - 27]
    return f"{_SUIT_CODES[suit_of(tile)]}{number_of(tile)}"


def value(hand: Tiles, context: WinContext, *, min_fan: int = 8) -> Valuation:
    """The fan of an MCR win; fewer than ``min_fan`` without flowers is refused (a false Hu)."""
    packs = []
    for m in hand.melds:
        if m.kind == "chow":
            packs.append(("CHI", _code(m.tiles[1]), 1))
        elif m.kind == "pung":
            packs.append(("PENG", _code(m.first), 1))
        else:
            packs.append(("GANG", _code(m.first), 0 if m.concealed else 1))
    standing = tuple(_code(t) for t in hand.before_win())
    seat = hand.seat_wind if hand.seat_wind is not None else context.seat_wind
    round_wind = hand.round_wind if hand.round_wind is not None else context.round_wind
    try:
        fans = MahjongFanCalculator(
            pack=tuple(packs),
            hand=standing,
            winTile=_code(hand.winning_tile),
            flowerCount=hand.flowers,
            isSelfDrawn=context.self_drawn,
            is4thTile=hand.has("fourth_tile"),
            isAboutKong=hand.has("replacement_tile") or hand.has("robbing_kong"),
            isWallLast=hand.has("last_tile"),
            seatWind=seat,
            prevalentWind=round_wind,
            verbose=True,
        )
    except TypeError as exc:
        code = str(exc).strip()
        message = _ERRORS.get(code, f"the MCR fan calculator refused the hand ({code})")
        raise RuleError(
            gettext_noop("%(_message)s: %(_value)s", _message=message, _value=hand_text(hand)), "hand"
        ) from None
    items = as_written(
        [
            Item(name=name, value=value * int(cnt), unit="fan", count=int(cnt))
            for points, cnt, _zh, en in fans
            for name, value in GREEN_BOOK.get(str(en), ((str(en), int(points)),))
        ],
        hand,
        context,
    )
    total = sum(i.value for i in items)
    flowers = sum(i.value for i in items if i.name == "Flower Tiles")
    if total - flowers < min_fan:
        raise RuleError(
            gettext_noop(
                "the tiles make %(_value)s fan without flowers, below the MCR minimum of %(_min_fan)s: %(_items)s",
                _value=total - flowers,
                _min_fan=min_fan,
                _items=Names((i.name, i.value) for i in items),
            ),
            "hand",
        )
    return Valuation("mcr", {"fan": total}, items, f"{total} fan")


def as_written(items: list[Item], hand: Tiles, context: WinContext) -> tuple[Item, ...]:
    """The library's fan with the Green Book's combination sentences applied (see the module's text), in
    the order of Appendix 1."""
    names = {i.name for i in items}
    special = names & FULLY_CONCEALED_IF_SELF_DRAWN
    if context.self_drawn and hand.is_concealed and special and "Fully Concealed Hand" not in names:
        items = [i for i in items if i.name != "Self-Drawn"]
        items.append(Item(name="Fully Concealed Hand", value=4, unit="fan"))
    if "All Green" in names and "Half Flush" not in names and any(t >= 27 for t in hand.all_tiles):
        items.append(Item(name="Half Flush", value=6, unit="fan"))
    if "All Terminals" in names and not names & {"Double Pung", "Seven Pairs"}:
        doubles = _double_pungs(hand)
        if doubles:
            items.append(Item(name="Double Pung", value=2 * doubles, unit="fan", count=doubles))
    if "Nine Gates" in names:
        items = [i for i in items if i.name != "Pung of Terminals or Honors"]
    order = {name: index for index, name in enumerate(FAN_NAMES)}
    return tuple(sorted(items, key=lambda i: order.get(i.name, len(order))))


def _double_pungs(hand: Tiles) -> int:
    """How many Double Pungs the pungs and kongs of a hand make: two of one number in two suits (three
    are a Triple Pung, which the library scores)."""
    pungs = [m.first for m in hand.melds if m.kind != "chow"]
    concealed = list(hand.concealed)
    pungs += [t for t in set(concealed) if concealed.count(t) >= 3]
    numbered = [(number_of(t), suit_of(t)) for t in pungs if t < 27]
    return sum(1 for n in {n for n, _ in numbered} if len({s for m, s in numbered if m == n}) == 2)


def hand_text(hand: Tiles) -> str:
    melds = "".join(f" [{m.text()}]" for m in hand.melds)
    return f"{notation(list(hand.concealed))}{melds}, winning tile {tile_name(hand.winning_tile)}"
