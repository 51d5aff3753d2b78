"""A fake server clock for the clock's tests: ``fake_now.set(...)`` / ``fake_now.advance(seconds)``."""

from __future__ import annotations

import datetime as dt

import pytest

from tournaments import lifecycle, services
from tournaments.clock import servertime
from tournaments.models import Session

T0 = dt.datetime(2026, 5, 1, 10, 0, tzinfo=dt.UTC)


class FakeNow:
    def __init__(self, start: dt.datetime):
        self.value = start

    def __call__(self) -> dt.datetime:
        return self.value

    def set(self, value: dt.datetime) -> None:
        self.value = value

    def advance(self, seconds: float) -> dt.datetime:
        self.value += dt.timedelta(seconds=seconds)
        return self.value


@pytest.fixture
def fake_now():
    fake = FakeNow(T0)
    with servertime.override(fake):
        yield fake


@pytest.fixture(autouse=True)
def _commit_is_immediate(monkeypatch):
    """Tests run inside a transaction that never commits: what waits for the commit (a new publication
    stamp, the clock's cached document) happens at once instead."""
    from django.db import transaction

    monkeypatch.setattr(transaction, "on_commit", lambda func, using=None, robust=False: func())


@pytest.fixture(autouse=True)
def _fresh_cache():
    from django.core.cache import cache

    from tournaments import pagecache

    cache.clear()
    pagecache.local.clear()
    yield
    cache.clear()
    pagecache.local.clear()


def seat_session(tournament, number: int = 1):
    """Seat session ``number`` with the tournament's players in order, four a table, and publish it (the
    session is seated: its clock may start, which starts the session)."""
    session = tournament.sessions.get(number=number)
    regs = list(tournament.registrations.filter(is_substitute=False).order_by("id"))
    tables = services.session_seat(session=session, tables=[regs[i : i + 4] for i in range(0, len(regs), 4)])
    Session.objects.filter(pk=session.pk).update(seating_published=True)
    lifecycle.session_move(session=session, to=Session.Status.SEATED)
    return tables
