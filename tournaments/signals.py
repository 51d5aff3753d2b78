"""The domain event: how a write says what it changed, without knowing who listens.

Every write service ends by sending ``changed`` once (``changed_send``), naming what changed and where:

- ``tournament_id``: the tournament the write landed in (None for a write that belongs to no one
  tournament, such as a player's name, which names ``players`` instead);
- ``what``: a set of ``RESULTS`` (what counts: confirmations, the hands and totals of a confirmed table,
  penalties, the rules the results are read with), ``ENTRY`` (hands and totals of a table that does not
  count yet), ``ROSTER`` (players, registrations, teams, withdrawals), ``SCHEDULE`` (sessions, tables, seats,
  the seating), ``STATUS`` (a session's or the tournament's status), ``CLOCK`` (the session clock and the
  venue screen's announcements), ``SETTINGS`` (the tournament's facts and settings);
- ``sessions``, ``tables``, ``players``: ids of what the write touched, when it knows them;
- ``rewrite``: ids of confirmed tables whose per-seat rows must be rewritten before the standings read them
  (a penalty that belongs to them changed).

The event is sent at the end of the service, inside its transaction; listeners that do more than write rows
of the same transaction (queueing the standings or the EMA ranking, renewing the public pages' stamp,
refreshing the clock document, writing a backup) do it once the transaction commits, so nothing happens for a
write that rolls back. The listeners are connected in one place, ``config.receivers``.
"""

from __future__ import annotations

import contextvars
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field, replace

from django.dispatch import Signal

RESULTS = "results"
ENTRY = "entry"
ROSTER = "roster"
SCHEDULE = "schedule"
STATUS = "status"
CLOCK = "clock"
SETTINGS = "settings"
KINDS = frozenset({RESULTS, ENTRY, ROSTER, SCHEDULE, STATUS, CLOCK, SETTINGS})

changed = Signal()


@dataclass(frozen=True)
class Change:
    """What one write changed, and where."""

    tournament_id: int | None
    what: frozenset[str]
    sessions: tuple[int, ...] = ()
    tables: tuple[int, ...] = ()
    players: tuple[int, ...] = ()
    rewrite: tuple[int, ...] = ()
    # the tournament's slug when the writer has it at hand (the page cache's key): saves a query per write
    slug: str = field(default="", compare=False)


def changed_send(
    *,
    tournament_id: int | None,
    what: Iterable[str],
    sessions: Iterable[int] = (),
    tables: Iterable[int] = (),
    players: Iterable[int] = (),
    rewrite: Iterable[int] = (),
    slug: str = "",
) -> Change:
    """Send the domain event for one write; returns what was sent."""
    kinds = frozenset(what)
    unknown = kinds - KINDS
    if unknown or not kinds:
        raise ValueError(f"unknown kinds of change: {sorted(unknown)}" if unknown else "nothing changed")
    change = Change(
        tournament_id=tournament_id,
        what=kinds,
        sessions=tuple(sorted(set(sessions))),
        tables=tuple(sorted(set(tables))),
        players=tuple(sorted(set(players))),
        rewrite=tuple(sorted(set(rewrite))),
        slug=slug,
    )
    held = _held.get()
    if held is not None:
        key = (change.tournament_id, change.players if change.tournament_id is None else ())
        held[key] = _merge(held[key], change) if key in held else change
        return change
    changed.send(sender=Change, change=change)
    return change


_held: contextvars.ContextVar[dict | None] = contextvars.ContextVar("changes_held", default=None)


def _merge(a: Change, b: Change) -> Change:
    return replace(
        a,
        what=a.what | b.what,
        sessions=tuple(sorted({*a.sessions, *b.sessions})),
        tables=tuple(sorted({*a.tables, *b.tables})),
        players=tuple(sorted({*a.players, *b.players})),
        rewrite=tuple(sorted({*a.rewrite, *b.rewrite})),
        slug=a.slug or b.slug,
    )


@contextmanager
def one_event() -> Iterator[None]:
    """A write made of other writes (an archive import, a restore): the events they send are held and
    merged, and one event per tournament is sent when the block ends (none if it raises)."""
    if _held.get() is not None:  # already inside one: the outer block sends
        yield
        return
    token = _held.set({})
    try:
        yield
        held = _held.get()
    finally:
        _held.reset(token)
    for change in held.values():
        changed.send(sender=Change, change=change)
