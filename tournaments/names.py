"""How names are folded and ordered everywhere: searches, lists, printouts, the venue screen and exports.

Pure (no Django): ``fold`` folds case and accents the way a European reader expects ("Søren" is found by
"soren", "Łukasz" by "lukasz", "Æbelø" by "aebelo", "Straße" by "strasse"); ``name_key`` orders people by
their folded surname, then first name, with surname particles kept where they are written ("De Vries"
under D, "van Dijk" under V). static/js/app.js folds what is typed the same way (``foldName``).
"""

from __future__ import annotations

import unicodedata

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
