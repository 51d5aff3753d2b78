"""Name search that ignores case and accents ("Lucia" finds "Lucía", "soren" finds "Søren"), the same on
SQLite and PostgreSQL: players keep their name folded in ``Player.search_name`` and queries are folded the
same way, by tournaments.names."""

from __future__ import annotations

from django.db.models import Q

from tournaments.names import fold, folded_name  # noqa: F401 (folded_name: imported from here too)

MAX_QUERY_CHARS = 100
MAX_WORDS = 6


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
