"""The jobs sweep: no background job stays lost.

A job's message lives in the broker. When the broker loses it (Redis restarted without persistence, a
queue purged), the job's row says "queued" (or "running", for a worker that died with it) and nothing
would ever run it. Every ``JOBS_SWEEP_SECONDS`` the sweep (Celery beat; with no broker the server's own
scheduler, ``config/scheduler.py``) queues again every export, player import and archive import that is
queued for longer than ``JOBS_SWEEP_STALE_SECONDS``, or running under a lease that lapsed
(``rankings.jobs.leases``), and not queued again within that time. Every kind the runner knows
(``rankings.jobs.runner.kinds``) is swept alike. Running a job twice is safe: the run that
claims it does the work, any other finds it taken, done or failed and stops.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import logging

from django.conf import settings
from django.core.cache import caches
from django.db.models import Q
from django.utils import timezone

from rankings import player_jobs
from rankings.archive import jobs as archive_jobs
from rankings.exports import jobs as export_jobs
from rankings.jobs import runner
from rankings.jobs.leases import abandoned

log = logging.getLogger(__name__)
SWEPT = (
    export_jobs.EXPORTS,
    player_jobs.PLAYER_IMPORTS,
    archive_jobs.ARCHIVE_IMPORTS,
)  # imported: registered
REQUEUED_KEY = "job-requeued:{}"


def stale_seconds() -> int:
    return int(getattr(settings, "JOBS_SWEEP_STALE_SECONDS", 60))


def _recently_requeued(name: str) -> bool:
    try:
        return caches["default"].get(REQUEUED_KEY.format(name)) is not None
    except Exception:
        return False


def _mark_requeued(name: str) -> None:
    with contextlib.suppress(Exception):
        caches["default"].set(REQUEUED_KEY.format(name), 1, stale_seconds())


def lost_jobs() -> list[tuple[str, int]]:
    """(kind, id) of every job whose message may be lost: queued for longer than the stale time, or
    running under a lapsed lease; not already queued again within the stale time."""
    now = timezone.now()
    before = now - dt.timedelta(seconds=stale_seconds())
    found = []
    for kind in runner.kinds():
        status = kind.model.Status
        rows = kind.model.objects.filter(
            Q(status=status.QUEUED, created_at__lt=before) | Q(status=status.RUNNING)
        ).values_list("pk", "status", "started_at")
        for pk, state, started_at in rows.order_by("pk"):
            name = runner.lease_name(kind, pk)
            if state == status.RUNNING and not abandoned(name, started_at=started_at, now=now):
                continue
            if _recently_requeued(name):
                continue
            found.append((kind.name, pk))
    return found


def jobs_sweep() -> list[tuple[str, int]]:
    """Queue again (with no broker, run) every lost job; the (kind, id) queued."""
    queued = []
    for name, pk in lost_jobs():
        kind = runner.kind_of(name)
        _mark_requeued(runner.lease_name(kind, pk))
        runner.job_enqueue(kind, pk)
        queued.append((name, pk))
    if queued:
        log.warning("jobs sweep queued again %s", queued)
    return queued
