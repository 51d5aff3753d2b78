"""Names as people give them, folded, ordered and cleaned everywhere: searches, lists, printouts, the
venue screen, exports and every write. Pure Python, no Django import.

``fold`` folds case and accents the way a European reader expects ("Søren" is found by "soren", "Łukasz"
by "lukasz", "Æbelø" by "aebelo", "Straße" by "strasse"); ``name_key`` orders people by their folded
surname, then first name, with surname particles kept where they are written ("De Vries" under D, "van
Dijk" under V). static/js/app.js folds what is typed the same way (``foldName``).

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


# Letters that Unicode does not decompose into a base letter and a mark, as a European reader spells them
# without their stroke or ligature. Everything else of Latin script loses its marks by decomposition.
LETTERS = {
    "ø": "o",
    "ł": "l",
    "æ": "ae",
    "ß": "ss",
    "ẞ": "ss",
    "đ": "d",
    "ð": "d",
    "œ": "oe",
    "þ": "th",
    "ħ": "h",
    "ı": "i",
    "ŀ": "l",
    "ŧ": "t",
    "ŋ": "n",
    "ĳ": "ij",
    "ſ": "s",
    "ƒ": "f",
    "ɨ": "i",
    "ʉ": "u",
    "ƀ": "b",
    "ɍ": "r",
    "ȼ": "c",
    "ɇ": "e",
    "ɉ": "j",
    "ƶ": "z",
    "ⱥ": "a",
    "ȿ": "s",
}
_TABLE = str.maketrans(LETTERS)
# Apostrophes and dashes inside names ("O’Brien", "Jean-Luc") fold to what people type on a phone.
_PUNCTUATION = str.maketrans({"’": "'", "‘": "'", "ʼ": "'", "`": "'", "´": "'", "‐": "-", "‑": "-", "–": "-"})


def fold(text: str | None) -> str:
    """Lower case, accents and strokes dropped, ligatures spelled out, spaces collapsed:
    ``"  Ødegaard  Ñúñez"`` → ``"odegaard nunez"``."""
    lowered = (text or "").casefold().translate(_TABLE).translate(_PUNCTUATION)
    decomposed = unicodedata.normalize("NFKD", lowered)
    plain = "".join(ch for ch in decomposed if not unicodedata.combining(ch))
    return " ".join(plain.translate(_TABLE).split())


def folded_name(first_name: str, last_name: str) -> str:
    """What a name search looks in: the first name and the surname, folded."""
    return fold(f"{first_name} {last_name}")


def name_key(first_name: str | None, last_name: str | None) -> tuple[str, str, str, str]:
    """The order of names: folded surname, folded first name, then the names as written (so that two
    spellings of one folded name still come in a fixed order). A person with no surname sorts by first name."""
    first, last = first_name or "", last_name or ""
    if not last:
        first, last = "", first
    return (fold(last), fold(first), last, first)


def person_key(person) -> tuple[str, str, str, str]:
    """``name_key`` of anything with ``first_name`` and ``last_name`` (a player, an EMA list line)."""
    return name_key(person.first_name, person.last_name)
