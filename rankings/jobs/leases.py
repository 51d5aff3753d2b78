"""Leases of background jobs: who is running a job now, kept alive by a heartbeat.

A worker that takes a job (an archive import, an export) holds its lease: a cache key that lives
``JOB_LEASE_SECONDS`` and that a heartbeat thread renews every third of that while the job runs. A worker
that dies (``kill -9``, a lost machine) stops renewing it, so the lease lapses within
``JOB_LEASE_SECONDS``; the job's message, acknowledged late, comes back after the broker's visibility
timeout, and the worker that gets it takes the job over. A message delivered while the lease is alive (a
long job outlives the visibility timeout) finds the job busy and looks again later instead of running it
twice.

The lease lives in the cache, not in the job's row, because an archive import writes everything in one
transaction: a heartbeat written to the row inside it would not be seen. Where the cache cannot be
reached, a job counts as abandoned only after ``STALE_AFTER`` from its start (the older rule).
"""

from __future__ import annotations

import contextlib
import datetime as dt
import threading
import uuid

from django.conf import settings
from django.core.cache import caches

STALE_AFTER = dt.timedelta(minutes=15)
KEY = "job-lease:{}"
_UNREACHABLE = object()


def lease_seconds() -> int:
    return max(3, int(getattr(settings, "JOB_LEASE_SECONDS", 30)))


def lease_holder(name: str):
    """The token of the live lease on ``name``, None when it lapsed, or ``_UNREACHABLE``."""
    try:
        return caches["default"].get(KEY.format(name))
    except Exception:
        return _UNREACHABLE


def abandoned(name: str, *, started_at: dt.datetime | None, now: dt.datetime) -> bool:
    """Whether a job marked running under ``name`` was left by a worker that is gone: its lease lapsed
    (and it started more than a lease ago, the time its first heartbeat takes), or, with no cache, it
    started more than ``STALE_AFTER`` ago."""
    if started_at is None:
        return True
    holder = lease_holder(name)
    if holder is _UNREACHABLE:
        return started_at < now - STALE_AFTER
    return holder is None and started_at < now - dt.timedelta(seconds=lease_seconds())


class Lease:
    """Hold the lease on ``name`` while the ``with`` block runs, renewed by a heartbeat thread."""

    def __init__(self, name: str):
        self.name = name
        self.token = uuid.uuid4().hex
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def _renew(self) -> None:
        with contextlib.suppress(Exception):
            caches["default"].set(KEY.format(self.name), self.token, lease_seconds())

    def _beat(self) -> None:
        try:
            while not self._stop.wait(lease_seconds() / 3):
                self._renew()
        finally:
            with contextlib.suppress(Exception):
                caches["default"].close()

    def __enter__(self) -> Lease:
        self._renew()
        self._thread = threading.Thread(target=self._beat, name=f"lease {self.name}", daemon=True)
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=5)
        with contextlib.suppress(Exception):
            if caches["default"].get(KEY.format(self.name)) == self.token:
                caches["default"].delete(KEY.format(self.name))


class JobBusy(Exception):
    """The job is running under a live lease elsewhere: look again after a lease."""
