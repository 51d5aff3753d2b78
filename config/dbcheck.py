"""Persistent database connections checked when they may have gone stale, not on every request.

Django's ``CONN_HEALTH_CHECKS`` sends ``SELECT 1`` at the start of every request that uses a reused
connection: one statement more per request, always. Here the check is made only on a connection left idle
for ``CONN_IDLE_CHECK_SECONDS`` (default 30) since its last request ended: the one a restart of the
database or a network cut may have broken unseen. A connection used a moment ago is trusted; one that failed
during a request is closed at its end by Django itself (``close_old_connections``), so the next request
opens a new one.
"""

from __future__ import annotations

import time

from django.conf import settings
from django.core.signals import request_finished, request_started
from django.db import connections


def idle_seconds() -> float:
    return float(getattr(settings, "CONN_IDLE_CHECK_SECONDS", 30))


def _finished(**kwargs) -> None:
    now = time.monotonic()
    for conn in connections.all(initialized_only=True):
        conn._idle_since = now


def _started(**kwargs) -> None:
    now = time.monotonic()
    for conn in connections.all(initialized_only=True):
        if conn.connection is None or conn.in_atomic_block:
            continue
        since = getattr(conn, "_idle_since", None)
        if since is not None and now - since > idle_seconds() and not conn.is_usable():
            conn.close()


def connect() -> None:
    request_started.connect(_started, dispatch_uid="config.dbcheck.started")
    request_finished.connect(_finished, dispatch_uid="config.dbcheck.finished")
