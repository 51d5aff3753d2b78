"""The domain event: how a write says what it changed, without knowing who listens.

Every write service ends by sending ``changed`` once (``changed_send``), naming what changed and where:

- ``tournament_id``: the tournament the write landed in (None for a write that belongs to no one
  tournament, such as a player's name, which names ``players`` instead);
- ``what``: a set of ``RESULTS`` (what counts: confirmations, the hands and totals of a confirmed table,
  penalties, the rules the results are read with), ``ENTRY`` (hands and totals of a table that does not
  count yet), ``ROSTER`` (players, registrations, teams, withdrawals), ``SCHEDULE`` (sessions, tables, seats,
  the seating), ``STATUS`` (a session's or the tournament's status), ``CLOCK`` (the session clock and the
  venue screen's announcements), ``SETTINGS`` (the tournament's facts and settings), ``ATTENTION`` (a table
  asks for a referee: a referee call opened or moved on, a hand held for a referee's ruling; always with
  ``ENTRY`` or ``RESULTS``, which say what the table's data did);
- ``sessions``, ``tables``, ``players``: ids of what the write touched, when it knows them;
- ``rewrite``: ids of confirmed tables whose per-seat rows must be rewritten before the standings read them
  (a penalty that belongs to them changed).

Each change is told twice:

- ``changing``, at once, inside the write's transaction: the data derived from the change (the per-seat
  rows of the tables a penalty touches, the input versions of the standings and the EMA ranking, the
  clocks that follow a status, the public pages' stamp) is written with the write, or not at all; a
  failure there fails the write.
- ``changed``, once the transaction commits (``transaction.on_commit``), merged: one event per tournament
  per transaction, with what every change of the transaction said; a change made in a savepoint that rolls
  back is dropped with it, and a write that rolls back is told to nobody. Its listeners only notify (queue
  the standings' recompute, write the clock document, a backup); each runs whatever the others
  do (``send_robust``), a failure is logged with the event, and what a listener missed is caught up by the
  standings sweep, since the input version moved with the write.

Outside a transaction both are sent at once. The listeners are connected in one place,
``config.receivers``.
"""

from __future__ import annotations

import contextvars
import logging
import weakref
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field, replace

from asgiref.local import Local
from django.db import transaction
from django.dispatch import Signal

RESULTS = "results"
ENTRY = "entry"
ROSTER = "roster"
SCHEDULE = "schedule"
STATUS = "status"
CLOCK = "clock"
SETTINGS = "settings"
ATTENTION = "attention"
KINDS = frozenset({RESULTS, ENTRY, ROSTER, SCHEDULE, STATUS, CLOCK, SETTINGS, ATTENTION})

changing = Signal()  # inside the write's transaction, once per change: the derived data
changed = Signal()  # after the commit, once per tournament per transaction: the notifications

log = logging.getLogger(__name__)


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
    # whether the tournament is finished, when the writer has it at hand (None: not said): a change that
    # is not a status, in a tournament that is not finished, leaves the EMA ranking as it is
    finished: bool | None = field(default=None, compare=False)


def changed_send(
    *,
    tournament_id: int | None,
    what: Iterable[str],
    sessions: Iterable[int] = (),
    tables: Iterable[int] = (),
    players: Iterable[int] = (),
    rewrite: Iterable[int] = (),
    slug: str = "",
    finished: bool | None = None,
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
        finished=finished,
    )
    held = _held.get()
    if held is not None:
        _hold(held, change)
        return change
    _dispatch(change)
    return change


_held: contextvars.ContextVar[dict | None] = contextvars.ContextVar("changes_held", default=None)


def _key(change: Change) -> tuple:
    return (change.tournament_id, change.players if change.tournament_id is None else ())


def _hold(held: dict, change: Change) -> None:
    key = _key(change)
    held[key] = _merge(held[key], change) if key in held else change


def _dispatch(change: Change) -> None:
    """The derived data now, in the write's transaction; the notifications once it commits."""
    changing.send(sender=Change, change=change)
    delivery = _Delivery(change)
    waiting = _waiting()
    waiting[:] = [ref for ref in waiting if ref() is not None]
    waiting.append(weakref.ref(delivery))
    # robust: the write is stored whatever a listener does (at once when no transaction is open); a bound
    # method, so that only Django's list of commit callbacks holds the delivery
    transaction.on_commit(delivery.send, robust=True)


_deliveries = Local()  # scoped as Django scopes its connections (a thread, or an asynchronous context)


def _waiting() -> list:
    if not hasattr(_deliveries, "waiting"):
        _deliveries.waiting = []
    return _deliveries.waiting


class _Delivery:
    """The commit callback of one change.

    Each change registers its own callback, so a savepoint that rolls back drops the callbacks of its
    changes (Django discards them); the list of changes waiting keeps a weak reference to each callback,
    and only the list of commit callbacks holds one. At the commit Django runs the callbacks in the order
    they were registered: the first one of the transaction sends, merged per tournament, its own change and
    those after it whose callbacks are still registered, and the others find theirs sent. Changes before it
    belong to writes that never committed here (a rolled-back transaction, or a test's, which never
    commits): they are left out."""

    __slots__ = ("__weakref__", "change", "sent")

    def __init__(self, change: Change) -> None:
        self.change = change
        self.sent = False

    def send(self) -> None:
        if self.sent:
            return
        waiting = _waiting()
        deliveries = [ref() for ref in waiting]
        waiting.clear()
        start = next((i for i, d in enumerate(deliveries) if d is self), None)
        batch = [self] if start is None else [d for d in deliveries[start:] if d is not None and not d.sent]
        merged: dict = {}
        for delivery in batch:
            delivery.sent = True
            _hold(merged, delivery.change)
        for change in merged.values():
            _send(change)


def _send(change: Change) -> None:
    """The listeners of one change, after the commit: each runs whatever the others do, and a failure is
    logged with the change (the write is stored; the standings sweep catches up what was missed)."""
    for receiver, result in changed.send_robust(sender=Change, change=change):
        if isinstance(result, Exception):
            name = f"{getattr(receiver, '__module__', '')}.{getattr(receiver, '__qualname__', receiver)}"
            log.error("listener %s failed on %s", name, change, exc_info=result)


def _merge(a: Change, b: Change) -> Change:
    return replace(
        a,
        what=a.what | b.what,
        sessions=tuple(sorted({*a.sessions, *b.sessions})),
        tables=tuple(sorted({*a.tables, *b.tables})),
        players=tuple(sorted({*a.players, *b.players})),
        rewrite=tuple(sorted({*a.rewrite, *b.rewrite})),
        slug=a.slug or b.slug,
        finished=None if a.finished is None or b.finished is None else a.finished or b.finished,
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
        _dispatch(change)
