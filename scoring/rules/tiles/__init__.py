"""Hands from tiles: strict notation, library adapters (MCR, riichi) and pure valuations (Salamanca,
classical). No Django import here.

   - `scoring/rules/tiles/` values a winning hand from its tiles: `notation.py` (the strict parser of the
     suffix notation, every fault a `RuleError` naming the tile or meld, sizes bounded first), `shapes.py`
     (sets and pair, seven pairs, thirteen orphans, waits), adapters over the pinned rule libraries
     (`mcr.py`: PyMahjongGB; `riichi.py`: `mahjong`, every option set from the preset, payment by the
     product's own riichi engine so that a computed and a claimed value pay alike), the Salamanca art. 32 fan list and the classical §75 tables
     in pure code, `check.py` (the wins of a hand, the game state, filling and comparing claims) and
     `stats.py` (statistics and the best-hand ranking from recorded hands).
"""

from .check import WinCheck, fill, hand_checks, hand_state, held, liable_yakuman_of, value_tiles
from .notation import Tiles, parse_tiles
from .result import Item, Valuation, WinContext

__all__ = [
    "Item",
    "Tiles",
    "Valuation",
    "WinCheck",
    "WinContext",
    "fill",
    "hand_checks",
    "hand_state",
    "held",
    "liable_yakuman_of",
    "parse_tiles",
    "value_tiles",
]
