"""Hands from tiles: strict notation, library adapters (MCR, riichi) and pure valuations (Salamanca,
classical). No Django import here."""

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
