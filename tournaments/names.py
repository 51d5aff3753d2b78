"""Text that people give as names and cells: what is refused or taken out. Pure Python, no Django import.

Names (players, nicknames, teams, tournaments, clubs) never hold control characters (NUL, tabs, line breaks,
…) or the invisible marks that reorder text on screen (bidirectional embeddings, overrides and isolates,
U+202A–U+202E, U+2066–U+2069, and the direction marks U+200E, U+200F, U+061C): a name with a right-to-left
override shows another name than the one stored. ``name_clean`` takes them out (every write of a name goes
through the models' ``save``); imports refuse them with ``unsafe_character``, naming the line and column.
"""

from __future__ import annotations

import re
import unicodedata

BIDI_CONTROLS = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
_UNSAFE = re.compile("[\x00-\x1f\x7f-\x9f" + "".join(sorted(BIDI_CONTROLS)) + "]")


def unsafe_character(text: str) -> tuple[int, str] | None:
    """The first control or bidirectional character of ``text`` (its position, 1-based, and its name such
    as ``U+0000 NULL``), or None."""
    found = _UNSAFE.search(text)
    if found is None:
        return None
    char = found.group()
    name = unicodedata.name(char, "") or {"\x00": "NULL"}.get(char, "control character")
    return found.start() + 1, f"U+{ord(char):04X} {name}"


def name_clean(text: str) -> str:
    """``text`` without control and bidirectional characters, spaces at its ends trimmed."""
    if not text:
        return text
    return _UNSAFE.sub("", text).strip()


def ascii_digits(text: str, length: int) -> bool:
    """Exactly ``length`` digits 0-9 (other scripts' digits, which ``str.isdigit`` accepts, are not)."""
    return len(text) == length and text.isascii() and text.isdigit()
