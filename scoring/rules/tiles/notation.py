"""The tiles of a winning hand, in suffix notation, parsed strictly.

Notation (as in Tenhou logs and the ``mahjong`` package): digits followed by their suit letter,
``m`` characters, ``p`` dots (circles), ``s`` bamboo, ``z`` honours with 1–4 the winds East, South,
West, North and 5–7 the dragons white, green, red. ``"123m456p789s11z"`` is fourteen tiles.

A ``tiles`` object (ARCHIVE.md, API) holds ``hand``: the concealed tiles including the winning tile;
``melds``: the declared sets (``"pung 777p"``, ``"chow 456s"``, ``"kong 1z"``, ``"concealed_kong 5z"``);
``winning_tile``; and optional counters and condition flags (``FLAGS``). Every fault is a RuleError whose
message names the tile or the meld and whose path names the field. The size of every field is bounded
before any work is done.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ..base import RuleError
from ..text import gettext_noop

SUITS = "mpsz"
SUIT_NAMES = {"m": "characters", "p": "dots", "s": "bamboo", "z": "honours"}
WIND_KEYS = ("E", "S", "W", "N")
MELD_KINDS = ("chow", "pung", "kong", "concealed_kong")

MAX_HAND_CHARS = 64  # fourteen tiles written one suit letter each is 28 characters
MAX_MELD_CHARS = 32
MAX_MELDS = 4
MAX_INDICATORS = 5  # one dora indicator plus four kong dora
MAX_FLOWERS = 8
MAX_RED_FIVES = 3

#: Condition flags only the table knows (docs: rankings/archive/README.md, "Tiles").
BOOL_FLAGS = (
    "last_tile",  # won with the last tile of the wall (self-drawn) or its discard
    "replacement_tile",  # won with the replacement tile drawn after a kong
    "robbing_kong",  # won by robbing a kong
    "fourth_tile",  # MCR: the winning tile is the last of its kind (three already shown)
    "double_riichi",  # riichi: declared on the first turn
    "ippatsu",  # riichi: won within one go-around of the riichi declaration
    "first_turn",  # won on the dealer's first draw (heavenly) or a non-dealer's first draw
    "dealer_first_discard",  # won on the dealer's very first discard
    # riichi (renhō): won on a discard before one's first draw, the first go-around uninterrupted
    "first_turn_discard",
)
INT_FLAGS = {  # name: (least, most)
    "flowers": (0, MAX_FLOWERS),
    "red_fives": (0, MAX_RED_FIVES),
    "own_flowers": (0, 2),  # classical: own flower and own season held
    "flower_sets": (0, 2),  # classical: complete sets of four flowers or four seasons
    # Salamanca and classical: kongs declared one after another before the replacement tile that won
    # (2 or more: "kong upon kong"); 0 with ``replacement_tile`` counts as one kong
    "kongs_in_a_row": (0, 4),
}
WIND_FLAGS = ("seat_wind", "round_wind")  # overrides of what the game state says
LIST_FLAGS = ("dora_indicators", "ura_dora_indicators")
KNOWN_KEYS = ("hand", "melds", "winning_tile", *BOOL_FLAGS, *INT_FLAGS, *WIND_FLAGS, *LIST_FLAGS)


def tile_name(tile: int) -> str:
    """Notation of one tile index 0..33 (0–8 m, 9–17 p, 18–26 s, 27–33 z)."""
    return f"{tile % 9 + 1}{SUITS[tile // 9]}"


def suit_of(tile: int) -> int:
    return tile // 9


def number_of(tile: int) -> int:
    return tile % 9 + 1


def is_honour(tile: int) -> bool:
    return tile >= 27


def is_terminal(tile: int) -> bool:
    return tile < 27 and number_of(tile) in (1, 9)


def is_dragon(tile: int) -> bool:
    return tile >= 31


def is_wind(tile: int) -> bool:
    return 27 <= tile <= 30


def parse_tile_string(text: Any, path: str, *, what: str = "tiles") -> list[int]:
    """Tile indices of a notation string, in the order written."""
    if not isinstance(text, str):
        raise RuleError(
            gettext_noop(
                "%(_what)s must be text in suffix notation such as 123m55z, not %(text)s",
                _what=what,
                text=text,
            ),
            path,
        )
    if len(text) > MAX_HAND_CHARS:
        raise RuleError(
            gettext_noop(
                "%(_what)s is %(_count)s characters long; at most %(_MAX_HAND_CHARS)s",
                _what=what,
                _count=len(text),
                _MAX_HAND_CHARS=MAX_HAND_CHARS,
            ),
            path,
        )
    tiles: list[int] = []
    digits = ""
    for char in text.replace(" ", ""):
        if char.isdigit():
            digits += char
            continue
        if char not in SUITS:
            raise RuleError(
                gettext_noop(
                    "'%(_char)s' in %(text)s is not a digit or a suit letter (m, p, s, z)",
                    _char=char,
                    text=text,
                ),
                path,
            )
        if not digits:
            raise RuleError(
                gettext_noop(
                    "suit letter '%(_char)s' in %(text)s has no tile numbers before it", _char=char, text=text
                ),
                path,
            )
        for d in digits:
            n = int(d)
            if n == 0:
                raise RuleError(
                    gettext_noop(
                        "0%(_char)s in %(text)s: write a red five as 5%(_char2)s and count it in red_fives",
                        _char=char,
                        text=text,
                        _char2=char,
                    ),
                    path,
                )
            if char == "z" and n > 7:
                raise RuleError(
                    gettext_noop("%(_n)sz in %(text)s is not a tile: honours are 1z–7z", _n=n, text=text),
                    path,
                )
            tiles.append(SUITS.index(char) * 9 + n - 1)
        digits = ""
    if digits:
        raise RuleError(
            gettext_noop(
                "%(text)s ends with numbers '%(_digits)s' that have no suit letter", text=text, _digits=digits
            ),
            path,
        )
    return tiles


def notation(tiles: list[int] | tuple[int, ...]) -> str:
    """Sorted suffix notation of tile indices (``[0, 1, 2, 27]`` → ``123m1z``)."""
    out = []
    for suit, letter in enumerate(SUITS):
        digits = "".join(str(number_of(t)) for t in sorted(tiles) if suit_of(t) == suit)
        if digits:
            out.append(digits + letter)
    return "".join(out)


@dataclass(frozen=True)
class Meld:
    kind: str  # chow, pung, kong, concealed_kong
    tiles: tuple[int, ...]  # three tiles (chow, pung) or four (kongs), sorted

    @property
    def first(self) -> int:
        return self.tiles[0]

    @property
    def is_kong(self) -> bool:
        return self.kind in ("kong", "concealed_kong")

    @property
    def concealed(self) -> bool:
        return self.kind == "concealed_kong"

    def text(self) -> str:
        return f"{self.kind} {notation(list(self.tiles))}"


def parse_meld(text: Any, path: str) -> Meld:
    if not isinstance(text, str):
        raise RuleError(gettext_noop("a meld is text such as 'pung 777p', not %(text)s", text=text), path)
    if len(text) > MAX_MELD_CHARS:
        raise RuleError(
            gettext_noop(
                "meld %(value)s… is longer than %(_MAX_MELD_CHARS)s characters",
                value=text[:MAX_MELD_CHARS],
                _MAX_MELD_CHARS=MAX_MELD_CHARS,
            ),
            path,
        )
    parts = text.split()
    if len(parts) != 2 or parts[0] not in MELD_KINDS:
        raise RuleError(
            gettext_noop(
                "meld %(text)s must be a kind (%(_items)s) and its tiles, such as 'pung 777p'",
                text=text,
                _items=", ".join(MELD_KINDS),
            ),
            path,
        )
    kind, body = parts
    tiles = sorted(parse_tile_string(body, path, what=f"meld {text!r}"))
    if kind == "chow":
        if len(tiles) == 1 and not is_honour(tiles[0]) and number_of(tiles[0]) <= 7:
            tiles = [tiles[0], tiles[0] + 1, tiles[0] + 2]
        if (
            len(tiles) != 3
            or is_honour(tiles[0])
            or suit_of(tiles[0]) != suit_of(tiles[2])
            or tiles != [tiles[0], tiles[0] + 1, tiles[0] + 2]
        ):
            raise RuleError(
                gettext_noop("meld %(text)s: a chow is three consecutive tiles of one suit", text=text), path
            )
    else:
        size = 3 if kind == "pung" else 4
        if len(tiles) == 1:
            tiles = tiles * size
        if len(tiles) != size or len(set(tiles)) != 1:
            what = "a pung is three" if kind == "pung" else "a kong is four"
            raise RuleError(
                gettext_noop(
                    "meld %(text)s: %(_what)s identical tiles (or one tile to name them)",
                    text=text,
                    _what=what,
                ),
                path,
            )
    return Meld(kind, tuple(tiles))


@dataclass(frozen=True)
class Tiles:
    """A parsed, consistent winning hand."""

    concealed: tuple[int, ...]  # the concealed tiles including the winning tile, sorted
    melds: tuple[Meld, ...]
    winning_tile: int
    flags: frozenset[str] = frozenset()
    flowers: int = 0
    red_fives: int = 0
    own_flowers: int = 0
    flower_sets: int = 0
    kongs_in_a_row: int = 0
    seat_wind: int | None = None
    round_wind: int | None = None
    dora_indicators: tuple[int, ...] = ()
    ura_dora_indicators: tuple[int, ...] = ()
    counts: tuple[int, ...] = field(default=(), compare=False)  # all 34 tile counts (kongs as 4)

    def has(self, flag: str) -> bool:
        return flag in self.flags

    @property
    def is_concealed(self) -> bool:
        """No set was claimed from a discard (concealed kongs keep the hand concealed)."""
        return all(m.concealed for m in self.melds)

    @property
    def all_tiles(self) -> list[int]:
        """Every tile of the hand, kongs counted with four."""
        tiles = list(self.concealed)
        for m in self.melds:
            tiles.extend(m.tiles)
        return sorted(tiles)

    def before_win(self) -> list[int]:
        """The concealed tiles without the winning tile (the waiting hand)."""
        tiles = list(self.concealed)
        tiles.remove(self.winning_tile)
        return tiles


def _wind(value: Any, path: str) -> int | None:
    if value is None:
        return None
    if value in WIND_KEYS:
        return WIND_KEYS.index(value)
    raise RuleError(gettext_noop("a wind is one of E, S, W, N, not %(value)s", value=value), path)


def parse_tiles(data: Any) -> Tiles:
    """Parse and check a ``tiles`` object; paths are relative to it."""
    _check_fields(data)
    concealed = parse_tile_string(data.get("hand"), "hand", what="hand")
    melds = _parse_melds(data.get("melds", []))
    _check_tile_count(concealed, melds)
    winning = _winning_tile(data, concealed)
    counts = _tile_counts(concealed, melds)
    flags = _flags(data)
    ints = _whole_numbers(data)
    _check_flowers_and_fives(ints, counts)
    lists = _indicators(data)
    in_a_row = _kongs_in_a_row(flags, ints, melds)
    return Tiles(
        concealed=tuple(sorted(concealed)),
        melds=melds,
        winning_tile=winning[0],
        flags=frozenset(flags),
        flowers=ints["flowers"],
        red_fives=ints["red_fives"],
        own_flowers=ints["own_flowers"],
        flower_sets=ints["flower_sets"],
        kongs_in_a_row=max(in_a_row, 1) if "replacement_tile" in flags else 0,
        seat_wind=_wind(data.get("seat_wind"), "seat_wind"),
        round_wind=_wind(data.get("round_wind"), "round_wind"),
        dora_indicators=lists["dora_indicators"],
        ura_dora_indicators=lists["ura_dora_indicators"],
        counts=tuple(counts.get(t, 0) for t in range(34)),
    )


def _check_fields(data: Any) -> None:
    """An object of known fields only."""
    if not isinstance(data, Mapping):
        raise RuleError(
            gettext_noop("tiles must be an object with hand, melds and winning_tile, not %(data)s", data=data)
        )
    if len(data) > len(KNOWN_KEYS):
        raise RuleError(
            gettext_noop(
                "tiles has %(_count)s fields; at most %(_count2)s are known",
                _count=len(data),
                _count2=len(KNOWN_KEYS),
            )
        )
    for key in data:
        if key not in KNOWN_KEYS:
            raise RuleError(
                gettext_noop(
                    "unknown field '%(_key)s' in tiles (known fields: %(_items)s)",
                    _key=key,
                    _items=", ".join(KNOWN_KEYS),
                ),
                str(key),
            )


def _parse_melds(raw_melds: Any) -> tuple[Meld, ...]:
    if raw_melds is None:
        raw_melds = []
    if not isinstance(raw_melds, (list, tuple)):
        raise RuleError(
            gettext_noop(
                "melds must be a list such as ['pung 777p'], not %(raw_melds)s", raw_melds=raw_melds
            ),
            "melds",
        )
    if len(raw_melds) > MAX_MELDS:
        raise RuleError(
            gettext_noop(
                "%(_count)s melds; a hand has at most %(_MAX_MELDS)s",
                _count=len(raw_melds),
                _MAX_MELDS=MAX_MELDS,
            ),
            "melds",
        )
    return tuple(parse_meld(m, f"melds[{i}]") for i, m in enumerate(raw_melds))


def _check_tile_count(concealed: list[int], melds: tuple[Meld, ...]) -> None:
    """Fourteen tiles, three fewer concealed for each meld."""
    needed = 14 - 3 * len(melds)
    if len(concealed) != needed:
        with_melds = f" with {len(melds)} meld{'s' if len(melds) != 1 else ''}" if melds else ""
        raise RuleError(
            gettext_noop(
                "hand has %(_count)s tiles, a win%(_with_melds)s needs %(_needed)s",
                _count=len(concealed),
                _with_melds=with_melds,
                _needed=needed,
            ),
            "hand",
        )


def _winning_tile(data: Mapping[str, Any], concealed: list[int]) -> list[int]:
    """One tile, among the concealed ones."""
    winning = parse_tile_string(data.get("winning_tile"), "winning_tile", what="winning_tile")
    if len(winning) != 1:
        raise RuleError(
            gettext_noop("winning_tile must be one tile, not %(value)s", value=data.get("winning_tile")),
            "winning_tile",
        )
    if winning[0] not in concealed:
        raise RuleError(
            gettext_noop(
                "winning tile %(_value)s is not among the hand's concealed tiles",
                _value=tile_name(winning[0]),
            ),
            "winning_tile",
        )
    return winning


def _tile_counts(concealed: list[int], melds: tuple[Meld, ...]) -> Counter:
    """How many of each tile the hand holds with its melds: at most four."""
    counts = Counter(concealed)
    for m in melds:
        counts.update(m.tiles)
    for tile, n in sorted(counts.items()):
        if n > 4:
            raise RuleError(
                gettext_noop(
                    "tile %(_value)s appears %(_n)s times; a set has only 4", _value=tile_name(tile), _n=n
                ),
                "hand",
            )
    return counts


def _flags(data: Mapping[str, Any]) -> set[str]:
    """The true/false fields that are set."""
    flags = set()
    for name in BOOL_FLAGS:
        value = data.get(name, False)
        if not isinstance(value, bool):
            raise RuleError(
                gettext_noop("%(_name)s must be true or false, not %(value)s", _name=name, value=value), name
            )
        if value:
            flags.add(name)
    return flags


def _whole_numbers(data: Mapping[str, Any]) -> dict[str, int]:
    """The whole-number fields, each in its range."""
    ints = {}
    for name, (least, most) in INT_FLAGS.items():
        value = data.get(name, 0)
        if not isinstance(value, int) or isinstance(value, bool) or not least <= value <= most:
            raise RuleError(
                gettext_noop(
                    "%(_name)s must be a whole number from %(_least)s to %(_most)s, not %(value)s",
                    _name=name,
                    _least=least,
                    _most=most,
                    value=value,
                ),
                name,
            )
        ints[name] = value
    return ints


def _check_flowers_and_fives(ints: Mapping[str, int], counts: Counter) -> None:
    """Flowers that add up, and no more red fives than suits with a five."""
    if ints["own_flowers"] > ints["flowers"] or 4 * ints["flower_sets"] > ints["flowers"]:
        raise RuleError(
            gettext_noop(
                "own_flowers %(_value)s and flower_sets %(_value2)s do not fit %(_value3)s flowers",
                _value=ints["own_flowers"],
                _value2=ints["flower_sets"],
                _value3=ints["flowers"],
            ),
            "flowers",
        )
    fives = {suit_of(t) for t in counts if not is_honour(t) and number_of(t) == 5}
    if ints["red_fives"] > len(fives):
        raise RuleError(
            gettext_noop(
                "red_fives is %(_value)s but the hand holds fives of %(_count)s suit(s), one red five each",
                _value=ints["red_fives"],
                _count=len(fives),
            ),
            "red_fives",
        )


def _indicators(data: Mapping[str, Any]) -> dict[str, tuple[int, ...]]:
    """The lists of dora indicators, one tile each."""
    lists = {}
    for name in LIST_FLAGS:
        value = data.get(name, [])
        if value is None:
            value = []
        if not isinstance(value, (list, tuple)) or len(value) > MAX_INDICATORS:
            raise RuleError(
                gettext_noop(
                    "%(_name)s must be a list of at most %(_MAX_INDICATORS)s tiles, not %(value)s",
                    _name=name,
                    _MAX_INDICATORS=MAX_INDICATORS,
                    value=value,
                ),
                name,
            )
        parsed = []
        for i, text in enumerate(value):
            one = parse_tile_string(text, f"{name}[{i}]", what="an indicator")
            if len(one) != 1:
                raise RuleError(
                    gettext_noop("an indicator is one tile, not %(text)s", text=text), f"{name}[{i}]"
                )
            parsed.append(one[0])
        lists[name] = tuple(parsed)
    return lists


def _kongs_in_a_row(flags: set[str], ints: Mapping[str, int], melds: tuple[Meld, ...]) -> int:
    """A win on a replacement tile: a kong among the melds, not also robbing a kong; kongs in a row
    only on a replacement tile, no more than the melds' kongs."""
    if "robbing_kong" in flags and "replacement_tile" in flags:
        raise RuleError(
            gettext_noop("a win cannot both rob a kong and take a replacement tile"), "robbing_kong"
        )
    if "replacement_tile" in flags and not any(m.is_kong for m in melds):
        raise RuleError(
            gettext_noop("a win on a replacement tile needs a kong among the melds"), "replacement_tile"
        )
    in_a_row = ints["kongs_in_a_row"]
    if in_a_row and "replacement_tile" not in flags:
        raise RuleError(
            gettext_noop("kongs_in_a_row is for a win on a replacement tile: set replacement_tile too"),
            "kongs_in_a_row",
        )
    kongs = sum(1 for m in melds if m.is_kong)
    if in_a_row > kongs:
        raise RuleError(
            gettext_noop(
                "kongs_in_a_row is %(_value)s but the melds hold %(_count)s kong(s)",
                _value=in_a_row,
                _count=kongs,
            ),
            "kongs_in_a_row",
        )
    return in_a_row
