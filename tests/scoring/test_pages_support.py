"""Helpers shared by the result-entry page tests (no tests here)."""

from __future__ import annotations

import re
from html import unescape

from django.urls import reverse

from scoring.models import TableResult
from tournaments import services
from tournaments.models import Registration, Table

MINUS = "\u2212"


def seat_session(tournament, number: int = 1, keys: list[str] | None = None) -> list[Table]:
    """Seat session ``number`` with the given player keys (default: every regular player in key order)."""
    session = tournament.sessions.get(number=number)
    regs = {r.key: r for r in Registration.objects.filter(tournament=tournament)}
    if keys is None:
        keys = sorted((k for k, r in regs.items() if not r.is_substitute), key=lambda k: int(k[1:]))
    groups = [[regs[k] for k in keys[i : i + 4]] for i in range(0, len(keys), 4)]
    return services.session_seat(session=session, tables=groups)


def table_url(table: Table, *parts) -> str:
    session = table.session
    return reverse("table-page", args=[session.tournament.slug, session.number, table.number, *parts])


def link_url(table: Table) -> str:
    return reverse("table-link", args=[table.private_key])


def version(table: Table) -> int:
    result = TableResult.objects.filter(table=table).first()
    return result.version if result else 1


def text(response) -> str:
    """The page's visible text, whitespace collapsed (for asserting what a person reads)."""
    html = response.content.decode()
    html = re.sub(r"<(script|style)\b.*?</\1>", " ", html, flags=re.S)
    return re.sub(r"\s+", " ", unescape(re.sub(r"<[^>]+>", " ", html))).strip()


def post(client, url: str, action: str, table: Table, **fields):
    if action == "confirm":  # short test games: the reason a full session's hands were not played
        fields.setdefault("short_reason", "Time limit reached")
    data = {"action": action, "version": version(table), **fields}
    return client.post(url, data)


def seat_scores(response) -> list[str]:
    """The four running scores shown beside the players' names."""
    return re.findall(r'<span class="score">([^<]*)</span>', response.content.decode())


def m(value: int) -> str:
    """A number as the pages print it (typographic minus)."""
    return f"{MINUS}{-value}" if value < 0 else str(value)
