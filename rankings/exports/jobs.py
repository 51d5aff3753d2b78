"""Export jobs: an exporter run in the background, with its progress and the file it made.

- :func:`export_job_create` checks the request, stores a queued job and, once the transaction
  commits, queues ``rankings.exports.tasks.export_job_run`` with the job's id (with no broker the task
  runs at once, in-process).
- :func:`export_job_run` is the task's body: it claims the job, runs the exporter while writing its
  progress (0–100) to the job, and stores the file under ``MEDIA_ROOT/exports/``. A job that is done
  or failed is left as it is, so a task delivered twice does no harm. The worker running a job holds its
  lease (``rankings.leases``): a delivery that finds the lease alive raises
  :class:`~rankings.leases.JobBusy` instead of running the job a second time at once; a job whose worker
  died is taken over once the lease lapsed.
- Files are kept: the director's page lists every past export for download.
"""

from __future__ import annotations

import logging
from datetime import date
from typing import Any

from django.conf import settings
from django.core.files.base import ContentFile
from django.db import transaction
from django.utils import timezone, translation

from rankings.exports.base import RANKING, TOURNAMENT
from rankings.exports.registry import exporter_get
from rankings.leases import Lease, job_claim, job_enqueue
from rankings.models import ExportJob
from scoring.rules.base import RuleError
from tournaments.models import Tournament

log = logging.getLogger(__name__)

PROGRESS_STEP = 5  # write the progress to the database in steps of at least this many percent


def export_job_create(
    *,
    exporter: str,
    fmt: str | None = None,
    tournament: Tournament | None = None,
    user=None,
    params: dict[str, Any] | None = None,
    language: str = "",
) -> ExportJob:
    """Store a queued export job and queue its run on commit. Faults raise :class:`RuleError`."""
    scope = TOURNAMENT if tournament is not None else RANKING
    cls = exporter_get(exporter, scope=scope)
    if tournament is not None and not cls.available_for(tournament):
        raise RuleError(f"the '{exporter}' export does not apply to this tournament", "exporter")
    fmt = fmt or cls.formats[0]
    if fmt not in cls.formats:
        raise RuleError(
            f"the '{exporter}' export is available as {', '.join(cls.formats)}, not {fmt}", "format"
        )
    params = dict(params or {})
    if scope == RANKING:
        from rankings.ema.selectors import RANKED_FAMILIES

        if params.get("family") not in RANKED_FAMILIES:
            raise RuleError(f"choose the ranking: {' or '.join(RANKED_FAMILIES)}", "family")
    job = ExportJob.objects.create(
        tournament=tournament,
        exporter=exporter,
        format=fmt,
        params=params,
        language=language or translation.get_language() or settings.LANGUAGE_CODE,
        requested_by=user if user is not None and user.is_authenticated else None,
    )
    transaction.on_commit(lambda: export_job_enqueue(job_id=job.pk))
    return job


def export_job_enqueue(*, job_id: int) -> None:
    """Queue (or, with no broker, run) the job; a broker that is down fails the job with a message."""
    from rankings.exports import tasks

    job_enqueue(
        tasks.export_job_run, job_id, what="export",
        fail=lambda message: _finish(job_id, ExportJob.Status.FAILED, error=message),
    )  # fmt: skip


def lease_name(job_id: int) -> str:
    return f"export:{job_id}"


def _claim(job_id: int) -> ExportJob | None:
    queryset = ExportJob.objects.select_related("tournament")
    return job_claim(queryset, job_id, lease=lease_name(job_id), what="export job")


def _finish(job_id: int, status: str, **changes) -> None:
    ExportJob.objects.filter(pk=job_id).exclude(status=ExportJob.Status.DONE).update(
        status=status, finished_at=timezone.now(), **changes
    )


def export_job_run(*, job_id: int) -> ExportJob | None:
    """Run a queued (or abandoned) job: progress as it goes, then the file (done) or the reason (failed).
    :class:`JobBusy` when a live worker holds the job."""
    job = _claim(job_id)
    if job is None:
        return ExportJob.objects.filter(pk=job_id).first()
    with Lease(lease_name(job_id)):
        return _run(job)


def _run(job: ExportJob) -> ExportJob | None:
    job_id = job.pk
    last = {"written": 0}

    def progress(percent: int) -> None:
        if percent >= 100 or percent - last["written"] >= PROGRESS_STEP:
            last["written"] = percent
            ExportJob.objects.filter(pk=job_id, status=ExportJob.Status.RUNNING).update(
                progress=min(percent, 99)  # 100 only with the file
            )

    params = job.params or {}
    try:
        made_from = ""
        if job.tournament is not None:
            from rankings.submission.selectors import stamp

            made_from = stamp(tournament=job.tournament)  # before reading: a change meanwhile dates the file
        cls = exporter_get(job.exporter)
        on = params.get("on")
        exporter = cls(
            tournament=job.tournament,
            family=params.get("family"),
            on=date.fromisoformat(on) if on else None,
            progress=progress,
        )
        with translation.override(job.language or settings.LANGUAGE_CODE):
            export = exporter.render(job.format)
    except RuleError as exc:
        _finish(job_id, ExportJob.Status.FAILED, error=exc.message)
        return ExportJob.objects.get(pk=job_id)
    except Exception as exc:
        log.exception("export job %s failed", job_id)
        _finish(
            job_id,
            ExportJob.Status.FAILED,
            error=f"The export failed because of an internal error ({type(exc).__name__}); it was logged.",
        )
        return ExportJob.objects.get(pk=job_id)

    job.refresh_from_db()
    if job.file:  # a file of an earlier, interrupted run of this job
        job.file.delete(save=False)
    job.file.save(export.filename, ContentFile(export.data), save=False)
    ExportJob.objects.filter(pk=job_id).update(
        file=job.file.name,
        status=ExportJob.Status.DONE,
        progress=100,
        error="",
        stamp=made_from,
        finished_at=timezone.now(),
    )
    return ExportJob.objects.get(pk=job_id)
