"""A reused database connection is checked (``SELECT 1``) only after it sat idle, not on every request: a
phone saving hands every few seconds pays no statement for it, a connection a database restart broke during
a quiet hour is replaced before the request uses it."""

from __future__ import annotations

import pytest

from config import dbcheck


class FakeConnection:
    in_atomic_block = False

    def __init__(self, usable: bool):
        self.connection = object()
        self.usable = usable
        self.checks = 0
        self.closed = False

    def is_usable(self) -> bool:
        self.checks += 1
        return self.usable

    def close(self) -> None:
        self.closed = True


@pytest.fixture
def clock(monkeypatch):
    now = {"t": 1000.0}
    monkeypatch.setattr(dbcheck.time, "monotonic", lambda: now["t"])
    return now


def serve(monkeypatch, conn):
    monkeypatch.setattr(dbcheck.connections, "all", lambda initialized_only=False: [conn])


def test_a_connection_used_a_moment_ago_is_not_checked(monkeypatch, clock, settings):
    settings.CONN_IDLE_CHECK_SECONDS = 30
    conn = FakeConnection(usable=True)
    serve(monkeypatch, conn)
    for _ in range(5):
        dbcheck._started()
        clock["t"] += 2
        dbcheck._finished()
    assert conn.checks == 0 and not conn.closed


def test_a_connection_idle_too_long_is_checked_and_a_broken_one_closed(monkeypatch, clock, settings):
    settings.CONN_IDLE_CHECK_SECONDS = 30
    fine, broken = FakeConnection(usable=True), FakeConnection(usable=False)
    for conn in (fine, broken):
        serve(monkeypatch, conn)
        dbcheck._finished()
        clock["t"] += 31
        dbcheck._started()
    assert fine.checks == 1 and not fine.closed
    assert broken.checks == 1 and broken.closed


def test_django_checks_no_connection_before_every_request(settings):
    assert settings.DATABASES["default"]["CONN_HEALTH_CHECKS"] is False
