"""Archive imports in the background: a large archive is stored and imported by a task, with progress.

- :func:`archive_import_job_create` stores the upload and a queued job, and queues
  ``rankings.archive.tasks.archive_import_job_run`` on commit (with no broker it runs at once, in-process).
- :class:`ArchiveImports` is the job's kind: its work checks the requester's right to import this archive
  and imports it (one transaction, all or nothing); the job records the tournament, or the refusal with
  its JSON path. The import's progress goes to the cache while its transaction is open (a row written
  inside it would not be seen). Claiming, leases, outcome and retries are the one runner's
  (``rankings.jobs.runner``), as for every background job.
"""

from __future__ import annotations

from django.core.files.base import File
from django.db import transaction

from rankings.archive.access import import_allowed
from rankings.archive.importer import ArchiveImport
from rankings.archive.models import ArchiveImportJob
from rankings.archive.source import open_source
from rankings.jobs import runner
from rankings.jobs.leases import JobBusy
from scoring.rules.base import RuleError

__all__ = ["JobBusy", "archive_import_job_create", "archive_import_job_run", "job_progress"]


@runner.register
class ArchiveImports(runner.JobKind):
    """A large archive imported in the background."""

    name = "archive-import"
    model = ArchiveImportJob
    task = "rankings.archive.tasks.archive_import_job_run"
    what = "archive import"
    progress_in_cache = True
    internal = "{name}: {exc}"

    def work(self, job: ArchiveImportJob, progress: runner.Progress) -> dict:
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
                source,
                replace=job.replace,
                user=job.requested_by,
                progress=lambda done, steps: progress(done * 100 // max(steps, 1)),
            ).run()
        return {"tournament": tournament}

    def refused(self, exc: RuleError) -> dict:
        return {"error_path": exc.path[:300], "error": exc.message}


ARCHIVE_IMPORTS = runner.kind_of(ArchiveImports.name)


def archive_import_job_create(*, upload, replace: bool, user, only_slug: str = "") -> ArchiveImportJob:
    """Store ``upload`` (a file object) and a queued job; its run is queued when the transaction commits."""
    upload.seek(0)
    job = ArchiveImportJob(replace=replace, requested_by=user, only_slug=only_slug)
    job.file.save("archive.json", File(upload), save=False)
    job.save()
    transaction.on_commit(lambda: runner.job_enqueue(ARCHIVE_IMPORTS, job.pk))
    return job


def job_progress(job: ArchiveImportJob) -> int:
    """The job's progress in percent: from the cache while the import runs, else from the job."""
    return runner.job_progress(ARCHIVE_IMPORTS, job)


def lease_name(job_id: int) -> str:
    return runner.lease_name(ARCHIVE_IMPORTS, job_id)


def archive_import_job_run(*, job_id: int) -> ArchiveImportJob | None:
    """Run the job if it is queued or abandoned; the job as it ends (None: missing).
    :class:`JobBusy` when a live worker holds it."""
    return runner.job_run(ARCHIVE_IMPORTS, job_id)
