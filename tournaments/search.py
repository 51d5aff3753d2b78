"""Name search that ignores case and accents ("Lucia" finds "Lucía", "FERNANDEZ" finds "Fernández"), the same
on SQLite and PostgreSQL: players keep their name folded in ``Player.search_name`` and queries are folded the
same way."""

from __future__ import annotations

import unicodedata

from django.db.models import Q

MAX_QUERY_CHARS = 100
MAX_WORDS = 6


def fold(text: str) -> str:
    """Lower case, accents and other marks dropped, spaces collapsed: ``"  Élodie  Núñez"`` → ``"elodie nunez"``."""
    decomposed = unicodedata.normalize("NFKD", text or "")
    plain = "".join(ch for ch in decomposed if not unicodedata.combining(ch))
    return " ".join(plain.casefold().split())


def folded_name(first_name: str, last_name: str) -> str:
    return fold(f"{first_name} {last_name}")


def name_query(query: str, *, field: str = "search_name") -> Q | None:
    """A filter for players whose name contains every word of ``query`` (in any order), or None when the query
    has nothing to search for. ``field`` is the path to ``search_name`` (``"player__search_name"``)."""
    words = fold(query[:MAX_QUERY_CHARS].replace("\x00", "")).split()[:MAX_WORDS]
    if not words:
        return None
    condition = Q()
    for word in words:
        condition &= Q(**{f"{field}__contains": word})
    return condition
