"""The jobs sweep: no background job stays lost.

A job's message lives in the broker. When the broker loses it (Redis restarted without persistence, a
queue purged), the job's row says "queued" (or "running", for a worker that died with it) and nothing
would ever run it. Every ``JOBS_SWEEP_SECONDS`` the sweep (Celery beat; with no broker the server's own
scheduler, ``config/scheduler.py``) queues again every export, player import and archive import that is
queued for longer than ``JOBS_SWEEP_STALE_SECONDS``, or running under a lease that lapsed
(``rankings.leases``), and not queued again within that time. Running a job twice is safe: the run that
claims it does the work, any other finds it taken, done or failed and stops.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import logging
from collections.abc import Callable

from django.conf import settings
from django.core.cache import caches
from django.db.models import Q
from django.utils import timezone

from rankings.leases import abandoned, job_enqueue
from rankings.models import ArchiveImportJob, ExportJob, PlayerImportJob

log = logging.getLogger(__name__)
REQUEUED_KEY = "job-requeued:{}"


def stale_seconds() -> int:
    return int(getattr(settings, "JOBS_SWEEP_STALE_SECONDS", 60))


def _kinds() -> list[tuple[str, type, Callable[[int], str], Callable[[int], None]]]:
    """(name, model, lease name of a job, queue a job) of every kind of background job."""
    from rankings import player_jobs
    from rankings.archive import jobs as archive_jobs
    from rankings.archive import tasks as archive_tasks
    from rankings.exports import jobs as export_jobs

    def archive_enqueue(job_id: int) -> None:
        def fail(message: str) -> None:
            ArchiveImportJob.objects.filter(pk=job_id, status=ArchiveImportJob.Status.QUEUED).update(
                status=ArchiveImportJob.Status.FAILED, error=message, finished_at=timezone.now()
            )

        job_enqueue(archive_tasks.archive_import_job_run, job_id, what="archive import", fail=fail)

    return [
        ("export", ExportJob, export_jobs.lease_name, lambda pk: export_jobs.export_job_enqueue(job_id=pk)),
        (
            "player-import",
            PlayerImportJob,
            player_jobs.lease_name,
            lambda pk: player_jobs.player_import_enqueue(job_id=pk),
        ),
        ("archive-import", ArchiveImportJob, archive_jobs.lease_name, archive_enqueue),
    ]


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
    for kind, model, lease_name, _enqueue in _kinds():
        status = model.Status
        rows = model.objects.filter(
            Q(status=status.QUEUED, created_at__lt=before) | Q(status=status.RUNNING)
        ).values_list("pk", "status", "started_at")
        for pk, state, started_at in rows.order_by("pk"):
            if state == status.RUNNING and not abandoned(lease_name(pk), started_at=started_at, now=now):
                continue
            if _recently_requeued(f"{kind}:{pk}"):
                continue
            found.append((kind, pk))
    return found


def jobs_sweep() -> list[tuple[str, int]]:
    """Queue again (with no broker, run) every lost job; the (kind, id) queued."""
    enqueue = {kind: queue for kind, _model, _lease, queue in _kinds()}
    queued = []
    for kind, pk in lost_jobs():
        _mark_requeued(f"{kind}:{pk}")
        enqueue[kind](pk)
        queued.append((kind, pk))
    if queued:
        log.warning("jobs sweep queued again %s", queued)
    return queued
