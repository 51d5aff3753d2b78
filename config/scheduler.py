"""The embedded default's beat: the periodic tasks run by the server itself when there is no broker.

With ``CELERY_BROKER_URL`` set, Celery beat runs ``CELERY_BEAT_SCHEDULE`` (the standings sweep, the
backups, the purge of old idempotency keys). With no broker there is no beat: every server process starts
this scheduler once (``config/wsgi.py``, ``config/asgi.py``; never in tests or management commands), a
daemon thread that wakes every ``EMBEDDED_SCHEDULER_TICK_SECONDS`` and runs the same schedule in-process.

The processes of the server share one schedule file (``EMBEDDED_SCHEDULE_FILE``): a tick takes an
exclusive lock on it (``flock``; a process that finds it taken skips that tick), reads when each task last
ran, runs the tasks whose period has passed and writes the times back before letting go. So a task runs
once per period whatever the number of processes, and never from a page view. (With ``gunicorn --preload``
the application is loaded once, before the workers are forked: the master process then runs it alone.)
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import threading
import time
from collections.abc import Callable
from pathlib import Path

from django.conf import settings
from django.db import close_old_connections, connections

from config.celery import app

try:
    import fcntl
except ImportError:  # not a POSIX system: one process only, guarded by the thread lock below
    fcntl = None

log = logging.getLogger(__name__)

_started_in: int | None = None  # the process id whose scheduler is running
_start_lock = threading.Lock()
_tick_lock = threading.Lock()


def enabled() -> bool:
    """The embedded default (tasks in-process, so no beat) and not turned off."""
    return bool(settings.CELERY_TASK_ALWAYS_EAGER and settings.EMBEDDED_SCHEDULER)


def _run_task(name: str) -> None:

    app.loader.import_default_modules()
    app.tasks[name].apply(throw=True)


def run_due(*, now: float | None = None, run: Callable[[str], None] = _run_task) -> list[str] | None:
    """Run every task of the beat schedule whose period has passed; the names of the tasks run, or None
    when another process holds the schedule (this tick is skipped). One failing task does not stop the
    others, and counts as run (it is tried again after its period)."""
    path = Path(settings.EMBEDDED_SCHEDULE_FILE)
    path.parent.mkdir(parents=True, exist_ok=True)
    with _tick_lock, path.open("a+", encoding="utf-8") as handle:
        if fcntl is not None:
            try:
                fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                return None
        handle.seek(0)
        try:
            last = json.loads(handle.read() or "{}")
        except ValueError:  # a damaged file: everything is due
            last = {}
        now = time.time() if now is None else now
        ran = []
        for entry in settings.CELERY_BEAT_SCHEDULE.values():
            name, period = entry["task"], float(entry["schedule"])
            if now - float(last.get(name, 0)) < period:
                continue
            try:
                run(name)
            except Exception:
                log.exception("scheduled task %s failed", name)
            last[name] = now
            ran.append(name)
        if ran:
            handle.seek(0)
            handle.truncate()
            handle.write(json.dumps(last, sort_keys=True))
            handle.flush()
        return ran


def _loop() -> None:
    while True:
        time.sleep(settings.EMBEDDED_SCHEDULER_TICK_SECONDS)
        close_old_connections()
        try:
            run_due()
        except Exception:  # the scheduler never stops: the next tick tries again
            log.exception("embedded scheduler tick failed")
        finally:
            with contextlib.suppress(Exception):
                connections.close_all()


def start() -> bool:
    """Start this process's scheduler (once per process); True when it was started now."""
    global _started_in
    if not enabled():
        return False
    with _start_lock:
        if _started_in == os.getpid():
            return False
        _started_in = os.getpid()
    threading.Thread(target=_loop, name="embedded-scheduler", daemon=True).start()
    return True
