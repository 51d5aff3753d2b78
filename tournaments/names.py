"""Names as people give them, folded, ordered and cleaned everywhere: searches, lists, printouts, the
venue screen, exports and every write. Pure Python, no Django import.

``fold`` folds case and accents the way a European reader expects ("Søren" is found by "soren", "Łukasz"
by "lukasz", "Æbelø" by "aebelo", "Straße" by "strasse"): every search finds names this way, in every
language. ``name_key`` orders people by surname, then first name, with the Unicode Collation Algorithm
(pyuca, requirements.txt) as the reader's language orders its letters (Spanish ñ after n, Polish ł after
l; the others by the root collation), surname particles kept where they are written ("De Vries" under D,
"van Dijk" under V). static/js/app.js folds what is typed the same way (``foldName``).

Names (players, nicknames, teams, tournaments, clubs) never hold control characters (NUL, tabs, line breaks,
…) or the invisible marks that reorder text on screen (bidirectional embeddings, overrides and isolates,
U+202A–U+202E, U+2066–U+2069, and the direction marks U+200E, U+200F, U+061C): a name with a right-to-left
override shows another name than the one stored. ``name_clean`` takes them out (every write of a name goes
through the models' ``save``); imports refuse them with ``unsafe_character``, naming the line and column.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable
from functools import lru_cache

import pyuca

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


# -- the order of names: the Unicode Collation Algorithm (pyuca), as each language orders its letters ----

# Letters a language orders as letters of their own, after their base letter (CLDR's tailorings of the
# root collation): Spanish ñ after n; Polish ą ć ę ł ń ó ś ź ż each after its base letter (ź before ż).
# The other languages of the site (Basque, Dutch, English, French, German, Italian, Portuguese) order
# names by the root collation: accents and strokes tell two names apart only when the letters are equal.
TAILORINGS = {
    "es": {"ñ": ("n", 0)},
    "pl": {
        "ą": ("a", 0),
        "ć": ("c", 0),
        "ę": ("e", 0),
        "ł": ("l", 0),
        "ń": ("n", 0),
        "ó": ("o", 0),
        "ś": ("s", 0),
        "ź": ("z", 0),
        "ż": ("z", 1),
    },
}
# A private-use character weighs more than every letter (an implicit weight): the base letter followed
# by it sorts after every word with that base letter at that place, before the next letter.
_AFTER = "\ue000"
_collator = None
_language_source: Callable[[], str | None] = lambda: None  # noqa: E731 - replaced at start-up


def set_language_source(source: Callable[[], str | None]) -> None:
    """Install the function that says the reader's language (Django's ``get_language``, at start-up)."""
    global _language_source
    _language_source = source


def _tailoring_table(language: str) -> dict[int, str]:
    table = {}
    for letter, (base, rank) in TAILORINGS.get(language, {}).items():
        table[ord(letter)] = base + chr(ord(_AFTER) + rank)
        table[ord(letter.upper())] = base.upper() + chr(ord(_AFTER) + rank)
    return table


_TABLES = {language: _tailoring_table(language) for language in TAILORINGS}


@lru_cache(maxsize=20000)
def collation_key(text: str, language: str = "") -> tuple[int, ...]:
    """The Unicode Collation Algorithm's sort key of ``text`` (DUCET, with the tailoring of ``language``
    when it has one): compare two keys to order two names as a reader of that language does."""
    global _collator
    if _collator is None:
        _collator = pyuca.Collator()
    base = (language or "").split("-")[0].lower()
    text = unicodedata.normalize("NFC", " ".join((text or "").split())).translate(_PUNCTUATION)
    return tuple(_collator.sort_key(text.translate(_TABLES.get(base, {}))))


def name_key(
    first_name: str | None, last_name: str | None, language: str | None = None
) -> tuple[tuple[int, ...], tuple[int, ...], str, str]:
    """The order of names in ``language`` (default: the reader's): surname, then first name, each by the
    Unicode Collation Algorithm as that language orders its letters (case and accents decide only between
    names otherwise equal), then the names as written (a fixed order for two names the algorithm holds
    equal). Surname particles stay where they are written ("De Vries" under D, "van Dijk" under V). A person
    with no surname sorts by first name."""
    first, last = first_name or "", last_name or ""
    if not last:
        first, last = "", first
    language = language if language is not None else (_language_source() or "")
    return (collation_key(last, language), collation_key(first, language), last, first)


def person_key(person) -> tuple[tuple[int, ...], tuple[int, ...], str, str]:
    """``name_key`` of anything with ``first_name`` and ``last_name`` (a player, an EMA list line)."""
    return name_key(person.first_name, person.last_name)
