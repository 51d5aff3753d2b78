"""Ways a hand of tiles splits into sets and a pair, and the tiles a waiting hand waits for."""

from __future__ import annotations

from dataclasses import dataclass

from .notation import Tiles, is_honour, number_of

ORPHANS = (0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33)


@dataclass(frozen=True)
class Set:
    kind: str  # chow, pung, kong
    first: int  # the lowest tile
    concealed: bool  # held concealed at the win (a pung completed by a discard is exposed)

    @property
    def tiles(self) -> tuple[int, ...]:
        if self.kind == "chow":
            return (self.first, self.first + 1, self.first + 2)
        return (self.first,) * (4 if self.kind == "kong" else 3)

    @property
    def is_pung(self) -> bool:  # pungs and kongs
        return self.kind != "chow"


@dataclass(frozen=True)
class Shape:
    """One reading of a winning hand: four sets and a pair, seven pairs, or thirteen orphans."""

    form: str  # "standard", "seven_pairs", "thirteen_orphans"
    sets: tuple[Set, ...] = ()
    pair: int | None = None
    pairs: tuple[int, ...] = ()  # seven pairs: the pair tiles (a tile held four times is listed twice)


def _split(counts: list[int], start: int = 0) -> list[list[tuple[str, int]]]:
    """All ways to split ``counts`` into chows and pungs (empty list of ways when none)."""
    i = start
    while i < 34 and counts[i] == 0:
        i += 1
    if i == 34:
        return [[]]
    ways: list[list[tuple[str, int]]] = []
    if counts[i] >= 3:
        counts[i] -= 3
        ways += [[("pung", i), *rest] for rest in _split(counts, i)]
        counts[i] += 3
    if not is_honour(i) and number_of(i) <= 7 and counts[i + 1] and counts[i + 2]:
        for t in (i, i + 1, i + 2):
            counts[t] -= 1
        ways += [[("chow", i), *rest] for rest in _split(counts, i)]
        for t in (i, i + 1, i + 2):
            counts[t] += 1
    return ways


def _counts(tiles: list[int] | tuple[int, ...]) -> list[int]:
    counts = [0] * 34
    for t in tiles:
        counts[t] += 1
    return counts


def concealed_shapes(tiles: list[int] | tuple[int, ...]) -> list[tuple[tuple[tuple[str, int], ...], int]]:
    """(sets, pair) readings of concealed tiles whose count is 3n + 2."""
    counts = _counts(tiles)
    out = []
    for pair in range(34):
        if counts[pair] >= 2:
            counts[pair] -= 2
            for way in _split(counts):
                out.append((tuple(way), pair))
            counts[pair] += 2
    return out


def is_seven_pairs(tiles: list[int] | tuple[int, ...]) -> bool:
    """Seven pairs; a tile held four times counts as two pairs (as the Salamanca rules allow)."""
    return len(tiles) == 14 and all(n % 2 == 0 for n in _counts(tiles))


def is_distinct_seven_pairs(tiles: list[int] | tuple[int, ...]) -> bool:
    counts = _counts(tiles)
    return len(tiles) == 14 and sum(1 for n in counts if n == 2) == 7


def is_thirteen_orphans(tiles: list[int] | tuple[int, ...]) -> bool:
    return len(tiles) == 14 and set(tiles) == set(ORPHANS)


def _pung_pairs_allowed(hand: Tiles, pung_pairs: bool) -> bool:
    """Whether the hand's declared sets still allow seven pairs: none, or (``pung_pairs``) only
    exposed pungs, each of which, with its fourth tile among the concealed ones, makes two pairs."""
    if not hand.melds:
        return True
    return pung_pairs and all(m.kind == "pung" for m in hand.melds)


def shapes(hand: Tiles, *, self_drawn: bool, pung_pairs: bool = False) -> list[Shape]:
    """Every reading of the hand. A concealed pung that the winning tile completed on a discard
    counts as exposed; when the winning tile could sit in several sets, each placement is a reading.
    With ``pung_pairs`` (Salamanca art. 32) an exposed pung plus its fourth tile, held or the winning
    tile, counts as two pairs of a seven pairs hand."""
    found: list[Shape] = []
    declared = tuple(Set("kong" if m.is_kong else m.kind, m.first, m.concealed) for m in hand.melds)
    for sets, pair in concealed_shapes(hand.concealed):
        # placements of the winning tile: in the pair, or in any concealed set holding it
        placements: list[int | None] = []
        if pair == hand.winning_tile:
            placements.append(None)
        for index, (kind, first) in enumerate(sets):
            tiles = (first, first + 1, first + 2) if kind == "chow" else (first,)
            if hand.winning_tile in tiles:
                placements.append(index)
        for place in placements or [None]:
            read = tuple(
                Set(kind, first, self_drawn or place != index) for index, (kind, first) in enumerate(sets)
            )
            found.append(Shape("standard", read + declared, pair))
    if _pung_pairs_allowed(hand, pung_pairs) and is_seven_pairs(hand.all_tiles):
        pairs = tuple(t for t, n in enumerate(_counts(hand.all_tiles)) for _ in range(n // 2))
        found.append(Shape("seven_pairs", pairs=pairs))
    if not hand.melds and is_thirteen_orphans(hand.concealed):
        found.append(Shape("thirteen_orphans"))
    return found


def waits(hand: Tiles, *, pung_pairs: bool = False) -> list[int]:
    """The tiles that would have completed the hand before the winning tile came (the fifth copy of a
    tile the hand already holds four of does not exist). ``pung_pairs`` as in ``shapes``."""
    before = hand.before_win()
    held = hand.counts
    candidates = set()
    for t in before:  # only a tile next to a held one (or an orphan) can complete a hand
        candidates.update(c for c in range(t - 2, t + 3) if 0 <= c < 34 and c // 9 == t // 9)
    if not hand.melds:
        candidates.update(ORPHANS)
    exposed = [t for m in hand.melds for t in m.tiles]
    pairs_allowed = _pung_pairs_allowed(hand, pung_pairs)
    if pairs_allowed:
        candidates.update(exposed)  # the fourth tile of an exposed pung
    out = []
    for tile in sorted(candidates):
        if held[tile] - (1 if tile == hand.winning_tile else 0) >= 4:
            continue
        trial = [*before, tile]
        if (
            concealed_shapes(trial)
            or (pairs_allowed and is_seven_pairs([*trial, *exposed]))
            or (not hand.melds and is_thirteen_orphans(trial))
        ):
            out.append(tile)
    return out


def is_nine_gates(hand: Tiles) -> bool:
    """1112345678999 of one suit, concealed, plus any tile of that suit."""
    if hand.melds:
        return False
    tiles = hand.concealed
    suit = tiles[0] // 9
    if any(t // 9 != suit or is_honour(t) for t in tiles):
        return False
    counts = _counts(tiles)[suit * 9 : suit * 9 + 9]
    base = [3, 1, 1, 1, 1, 1, 1, 1, 3]
    return all(c >= b for c, b in zip(counts, base, strict=True))
