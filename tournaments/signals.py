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

The event is sent once the service's transaction commits (``transaction.on_commit``), so no listener ever
sees a write that rolls back, and a listener's own writes (rows, the standings' version, clocks) are made
after the change they follow is stored. A service that makes several changes in one transaction sends one
event per tournament: the changes are merged (``what``, ``sessions``, ``tables``… united) and sent together
at the commit; a change made in a savepoint that rolls back is dropped with it. Outside a transaction the
event is sent at once. The listeners are connected in one place, ``config.receivers``.
"""

from __future__ import annotations

import contextvars
import weakref
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field, replace

from django.db import transaction
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
    _after_commit(change)
    return change


_held: contextvars.ContextVar[dict | None] = contextvars.ContextVar("changes_held", default=None)


def _key(change: Change) -> tuple:
    return (change.tournament_id, change.players if change.tournament_id is None else ())


def _hold(held: dict, change: Change) -> None:
    key = _key(change)
    held[key] = _merge(held[key], change) if key in held else change


def _after_commit(change: Change) -> None:
    """Send ``change`` once the current transaction commits (at once outside a transaction).

    Each change registers a commit callback of its own, so that a savepoint that rolls back drops its
    changes with its callbacks. The changes waiting keep only a weak reference to their callback: Django
    holds the callbacks of the transaction until each has run and lets go of those of a savepoint rolled
    back, so the first callback that runs at the commit finds alive exactly the callbacks of the changes
    that survived (Django empties its own list before running any), sends those changes merged, and the
    others find nothing left to send."""
    connection = transaction.get_connection()
    if not connection.in_atomic_block:
        _send(change)
        return
    delivery = _Delivery(connection)
    pending = [(c, ref) for c, ref in getattr(connection, "changes_pending", ()) if ref() is not None]
    connection.changes_pending = [*pending, (change, weakref.ref(delivery))]
    # robust: the write is stored whatever a listener does; a listener's failure is logged, not the write's
    transaction.on_commit(delivery, robust=True)


class _Delivery:
    """The commit callback of one change (a class, not a closure: nothing but Django's list of callbacks
    may keep it alive, see ``_after_commit``)."""

    event_delivery = True  # how the tests, which run inside one transaction, recognise it

    def __init__(self, connection) -> None:
        self.connection = connection

    def __call__(self) -> None:
        pending = getattr(self.connection, "changes_pending", None)
        if not pending:
            return
        self.connection.changes_pending = []
        merged: dict = {}
        for change, ref in pending:
            if ref() is not None:  # its callback is still registered: not rolled back with a savepoint
                _hold(merged, change)
        failure = None
        for change in merged.values():  # one listener's failure does not keep the others' changes back
            try:
                _send(change)
            except Exception as exc:
                failure = failure or exc
        if failure is not None:
            raise failure


def _send(change: Change) -> None:
    """The listeners of one change. They run after the commit, each opening the transaction it needs (a
    listener that locks or writes several rows), so a change nobody acts on costs no statement."""
    changed.send(sender=Change, change=change)


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
        _after_commit(change)
