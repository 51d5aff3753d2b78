"""Export jobs: an exporter run in the background, with its progress and the file it made.

- :func:`export_job_create` checks the request, stores a queued job and, once the transaction
  commits, queues ``rankings.exports.tasks.export_job_run`` with the job's id (with no broker the task
  runs at once, in-process).
- :class:`Exports` is the job's kind: its work runs the exporter, whose progress (0–100) the runner
  writes to the job, and stores the file under ``MEDIA_ROOT/exports/``. Claiming, leases, outcome and
  retries are the one runner's (``rankings.jobs.runner``), as for every background job.
- Files are kept: the director's page lists every past export for download.
"""

from __future__ import annotations

from datetime import date
from typing import Any

from django.conf import settings
from django.core.files.base import ContentFile
from django.db import transaction
from django.utils import translation

from rankings.ema.selectors import RANKED_FAMILIES
from rankings.exports.base import RANKING, TOURNAMENT
from rankings.exports.models import ExportJob
from rankings.exports.registry import exporter_get
from rankings.jobs import runner
from rankings.submission.selectors import stamp
from scoring.rules.base import RuleError
from tournaments.models import Tournament


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
    if scope == RANKING and params.get("family") not in RANKED_FAMILIES:
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


@runner.register
class Exports(runner.JobKind):
    """An exporter run in the background; its file is kept for later downloads."""

    name = "export"
    model = ExportJob
    task = "rankings.exports.tasks.export_job_run"
    what = "export"

    def jobs(self):
        return ExportJob.objects.select_related("tournament")

    def work(self, job: ExportJob, progress: runner.Progress) -> dict:
        # the tournament's stamp before reading: a change meanwhile dates the file
        made_from = stamp(tournament=job.tournament) if job.tournament is not None else ""
        params = job.params or {}
        on = params.get("on")
        exporter = exporter_get(job.exporter)(
            tournament=job.tournament,
            family=params.get("family"),
            on=date.fromisoformat(on) if on else None,
            progress=progress,
        )
        with translation.override(job.language or settings.LANGUAGE_CODE):
            export = exporter.render(job.format)
        job.refresh_from_db()
        if job.file:  # a file of an earlier, interrupted run of this job
            job.file.delete(save=False)
        job.file.save(export.filename, ContentFile(export.data), save=False)
        return {"file": job.file.name, "error": "", "stamp": made_from}


EXPORTS = runner.kind_of(Exports.name)


def export_job_enqueue(*, job_id: int) -> None:
    """Queue (or, with no broker, run) the job; a broker that is down fails the job with a message."""
    runner.job_enqueue(EXPORTS, job_id)


def export_job_run(*, job_id: int) -> ExportJob | None:
    """Run a queued (or abandoned) job: the file (done) or the reason (failed). :class:`JobBusy` when a
    live worker holds the job."""
    return runner.job_run(EXPORTS, job_id)


def lease_name(job_id: int) -> str:
    return runner.lease_name(EXPORTS, job_id)
