"""Archive imports in the background: a large archive is stored and imported by a task, with progress.

- :func:`archive_import_job_create` stores the upload and a queued job, and queues
  ``rankings.archive.tasks.archive_import_job_run`` on commit (with no broker it runs at once, in-process).
- :func:`archive_import_job_run` is the task's body: it claims the job, checks the requester's right to
  import this archive, imports it (one transaction, all or nothing) and records the tournament or the
  refusal with its JSON path. The import's progress goes to the cache while its transaction is open (a
  row written inside it would not be seen), then to the job. A job that is done or failed is left alone.
- The worker running a job holds its lease (``rankings.leases``): a job left running by a worker that died
  is taken over by the next delivery of its message once the lease lapsed (``JOB_LEASE_SECONDS``); a
  delivery that finds the lease alive raises :class:`~rankings.leases.JobBusy` (the task looks again
  later). Only the run that holds the job records its outcome.
"""

from __future__ import annotations

import contextlib
import logging

from django.core.cache import cache
from django.core.files.base import File
from django.db import transaction
from django.utils import timezone

from rankings.archive.access import import_allowed
from rankings.archive.importer import ArchiveImport
from rankings.archive.source import open_source
from rankings.leases import STALE_AFTER, JobBusy, Lease, abandoned
from rankings.models import ArchiveImportJob
from scoring.rules.base import RuleError

log = logging.getLogger(__name__)
__all__ = ["STALE_AFTER", "JobBusy", "archive_import_job_create", "archive_import_job_run", "job_progress"]
PROGRESS_KEY = "archive-import-progress:{}"


def archive_import_job_create(*, upload, replace: bool, user, only_slug: str = "") -> ArchiveImportJob:
    """Store ``upload`` (a file object) and a queued job; its run is queued when the transaction commits."""
    from rankings.archive import tasks

    upload.seek(0)
    job = ArchiveImportJob(replace=replace, requested_by=user, only_slug=only_slug)
    job.file.save("archive.json", File(upload), save=False)
    job.save()
    transaction.on_commit(lambda: tasks.archive_import_job_run.delay(job.pk))
    return job


def job_progress(job: ArchiveImportJob) -> int:
    """The job's progress in percent: from the cache while the import runs, else from the job."""
    if job.status == ArchiveImportJob.Status.RUNNING:
        try:
            return int(cache.get(PROGRESS_KEY.format(job.pk)) or job.progress)
        except Exception:
            return job.progress
    return job.progress


def lease_name(job_id: int) -> str:
    return f"archive-import:{job_id}"


def _claim(job_id: int) -> ArchiveImportJob | None:
    """Take the job: a queued one, or a running one whose worker is gone. None: nothing to do."""
    with transaction.atomic():
        job = ArchiveImportJob.objects.select_for_update().filter(pk=job_id).first()
        if job is None:
            return None
        if job.status == ArchiveImportJob.Status.RUNNING:
            if not abandoned(lease_name(job.pk), started_at=job.started_at, now=timezone.now()):
                raise JobBusy(job.pk)
            log.warning("archive import job %s was left running by a worker that is gone: taken over", job.pk)
        elif job.status != ArchiveImportJob.Status.QUEUED:
            return None
        job.status = ArchiveImportJob.Status.RUNNING
        job.started_at = timezone.now()
        job.save(update_fields=["status", "started_at"])
        return job


def _finish(job: ArchiveImportJob, **fields) -> ArchiveImportJob:
    """Record the outcome, unless another worker took the job over meanwhile (its run records its own)."""
    with transaction.atomic():
        current = ArchiveImportJob.objects.select_for_update().filter(pk=job.pk).first()
        if current is None or current.started_at != job.started_at:
            log.warning("archive import job %s was taken over: this run's outcome is not recorded", job.pk)
            return current
        for name, value in fields.items():
            setattr(job, name, value)
        job.finished_at = timezone.now()
        job.save()
    with contextlib.suppress(Exception):
        cache.delete(PROGRESS_KEY.format(job.pk))
    return job


def archive_import_job_run(*, job_id: int) -> ArchiveImportJob | None:
    """Run the job if it is queued or abandoned; None when there is nothing to do (done, failed or
    missing); :class:`JobBusy` when a live worker holds it."""
    job = _claim(job_id)
    if job is None:
        return None
    with Lease(lease_name(job.pk)):
        return _run(job)


def _run(job: ArchiveImportJob) -> ArchiveImportJob | None:
    def progress(done: int, steps: int) -> None:
        with contextlib.suppress(Exception):
            cache.set(PROGRESS_KEY.format(job.pk), min(99, done * 100 // max(steps, 1)), 3600)

    try:
        with job.file.open("rb") as stream:
            source = open_source(stream)
            head = source.head.get("tournament")
            found = head.get("slug") if isinstance(head, dict) else None
            if job.only_slug and found != job.only_slug:
                raise RuleError(
                    f"this file holds the tournament {found}, not {job.only_slug}", "tournament.slug"
                )
            if not import_allowed(job.requested_by, source.head, job.replace):
                raise RuleError("you may not create tournaments, or replace this one", "")
            tournament = ArchiveImport(
                source, replace=job.replace, user=job.requested_by, progress=progress
            ).run()
    except RuleError as exc:
        return _finish(
            job, status=ArchiveImportJob.Status.FAILED, error_path=exc.path[:300], error=exc.message
        )
    except Exception as exc:  # recorded for the requester; the import wrote nothing
        log.exception("archive import job %s failed", job.pk)
        return _finish(job, status=ArchiveImportJob.Status.FAILED, error=f"{type(exc).__name__}: {exc}")
    return _finish(job, status=ArchiveImportJob.Status.DONE, progress=100, tournament=tournament)
