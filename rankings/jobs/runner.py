"""The one runner of every background job: claim under a lease, progress, outcome, queueing, the task.

A kind of job (:class:`JobKind`) names its model, its Celery task and what its work is; the runner does the
rest, alike for every kind:

- :func:`job_enqueue` queues the kind's task with the job's id (with no broker it runs at once,
  in-process); a broker that is down fails the job with a message instead of leaving it queued for ever.
- :func:`job_run` is the task's body. It claims the job: a queued one, or a running one whose worker is
  gone (its lease lapsed, ``rankings.jobs.leases``); a job that is done or failed is left as it is, so a
  task delivered twice does no harm, and a running one whose lease is alive raises :class:`JobBusy` (the
  task looks again after a lease). It runs the work while holding the lease, passing it a progress
  callback (0–100), then records the outcome: the work's fields (done), or the refusal or the internal
  error (failed). Only the run that holds the job records its outcome: a run whose job was taken over
  meanwhile records nothing.
- :func:`job_task` is the Celery task of every kind: ``busy`` under a live lease (eager) or a retry after
  a lease (worker), else the job's status.
- A kind whose work runs in one transaction keeps its progress in the cache (a row written inside the
  transaction would not be seen); :func:`job_progress` reads it from there.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Callable

from django.conf import settings
from django.core.cache import caches
from django.db import transaction
from django.utils import timezone

from rankings.jobs.leases import JobBusy, Lease, abandoned, lease_seconds
from rankings.jobs.models import BackgroundJob
from rankings.jobs.queue import task_named
from scoring.rules.base import RuleError

log = logging.getLogger(__name__)
PROGRESS_STEP = 5  # write the progress in steps of at least this many percent
PROGRESS_KEY = "job-progress:{}"
_KINDS: dict[str, JobKind] = {}

Progress = Callable[[int], None]


class JobKind:
    """What one kind of background job is; a kind overrides :meth:`work` and says how it records a fault."""

    name = ""  # the kind, and the start of its jobs' lease names: "export" → "export:12"
    model: type[BackgroundJob]
    task = ""  # the Celery task that runs a job of this kind
    what = ""  # the job in messages: "the export could not be started"
    refusals: tuple[type[Exception], ...] = (RuleError,)  # faults of the input: recorded, not logged
    progress_in_cache = False  # the work runs in one transaction: keep its progress in the cache
    internal = "The {what} failed because of an internal error ({name}); it was logged."

    def jobs(self):
        """The rows the runner claims (a kind may read related rows with them)."""
        return self.model.objects.all()

    def work(self, job, progress: Progress) -> dict:
        """Do the job; the fields to record on it when done. Raise one of ``refusals`` to refuse it."""
        raise NotImplementedError

    def refused(self, exc: Exception) -> dict:
        """The fields that record a refusal."""
        return self.failed(getattr(exc, "message", str(exc)))

    def failed(self, message: str) -> dict:
        """The fields that record a failure said in one message."""
        return {"error": message}


def register(kind: type[JobKind]) -> type[JobKind]:
    """Class decorator: the runner knows the kind (by its name) from now on."""
    _KINDS[kind.name] = kind()
    return kind


def kinds() -> list[JobKind]:
    """Every kind registered, in registration order."""
    return list(_KINDS.values())


def kind_of(name: str) -> JobKind:
    return _KINDS[name]


def lease_name(kind: JobKind, job_id: int) -> str:
    return f"{kind.name}:{job_id}"


def job_enqueue(kind: JobKind, job_id: int) -> None:
    """Queue a job's task (with no broker, run it at once); a broker that is down fails the job."""
    task = task_named(kind.task)
    if settings.CELERY_TASK_ALWAYS_EAGER:
        task.apply(args=[job_id])
        return
    try:
        task.apply_async(args=[job_id])
    except Exception as exc:
        log.warning("%s job %s not queued: %s", kind.what, job_id, exc)
        message = (
            f"The {kind.what} could not be started: the background worker is not reachable. Try again later."
        )
        _finish(kind, job_id, None, kind.model.Status.FAILED, kind.failed(message))


def job_claim(kind: JobKind, job_id: int):
    """Take a job: a queued one, or a running one whose worker is gone (its lease lapsed). None: missing,
    done or failed, nothing to do; :class:`JobBusy`: a live worker holds it."""
    with transaction.atomic():
        job = kind.jobs().select_for_update(of=("self",)).filter(pk=job_id).first()
        if job is None:
            return None
        status = kind.model.Status
        if job.status in (status.DONE, status.FAILED):
            return None
        if job.status == status.RUNNING:
            if not abandoned(lease_name(kind, job.pk), started_at=job.started_at, now=timezone.now()):
                raise JobBusy(job.pk)
            log.warning("%s job %s was left running by a worker that is gone: taken over", kind.what, job.pk)
        job.status = status.RUNNING
        job.started_at = timezone.now()
        job.progress = 0
        job.save(update_fields=["status", "started_at", "progress"])
    return job


def job_run(kind: JobKind, job_id: int):
    """Run a queued (or abandoned) job; the job as it ends (None: missing). :class:`JobBusy` when a live
    worker holds it."""
    job = job_claim(kind, job_id)
    if job is None:
        return kind.model.objects.filter(pk=job_id).first()
    with Lease(lease_name(kind, job.pk)):  # held until the outcome is recorded
        status, fields = _outcome(kind, job)
        return _finish(kind, job.pk, job.started_at, status, fields)


def _outcome(kind: JobKind, job) -> tuple[str, dict]:
    """Run the work: (done, its fields) or (failed, the fields that say why)."""
    status = kind.model.Status
    try:
        return status.DONE, {"progress": 100, **kind.work(job, _progress(kind, job))}
    except kind.refusals as exc:
        return status.FAILED, kind.refused(exc)
    except Exception as exc:  # recorded for the requester and logged
        log.exception("%s job %s failed", kind.what, job.pk)
        return status.FAILED, kind.failed(
            kind.internal.format(what=kind.what, name=type(exc).__name__, exc=exc)
        )


def _progress(kind: JobKind, job) -> Progress:
    """The work's progress callback: written in steps, never 100 before the outcome."""
    last = {"written": 0}

    def progress(percent: int) -> None:
        if percent >= 100 or percent - last["written"] >= PROGRESS_STEP:
            last["written"] = percent
            _progress_write(kind, job.pk, min(percent, 99))

    return progress


def _progress_write(kind: JobKind, job_id: int, percent: int) -> None:
    if kind.progress_in_cache:
        with contextlib.suppress(Exception):
            caches["default"].set(PROGRESS_KEY.format(lease_name(kind, job_id)), percent, 3600)
        return
    kind.model.objects.filter(pk=job_id, status=kind.model.Status.RUNNING).update(progress=percent)


def _finish(kind: JobKind, job_id: int, started_at, status: str, fields: dict):
    """Record the outcome unless the job is done, or another run took it over (it records its own)."""
    rows = kind.model.objects.filter(pk=job_id).exclude(status=kind.model.Status.DONE)
    if started_at is not None:
        rows = rows.filter(started_at=started_at)
    if not rows.update(status=status, finished_at=timezone.now(), **fields):
        log.warning("%s job %s is done or was taken over: this outcome is not recorded", kind.what, job_id)
    with contextlib.suppress(Exception):
        caches["default"].delete(PROGRESS_KEY.format(lease_name(kind, job_id)))
    return kind.model.objects.filter(pk=job_id).first()


def job_progress(kind: JobKind, job) -> int:
    """The job's progress, 0–100: while it runs, as its worker last wrote it."""
    if not kind.progress_in_cache or job.status != kind.model.Status.RUNNING:
        return job.progress
    try:
        return int(caches["default"].get(PROGRESS_KEY.format(lease_name(kind, job.pk))) or job.progress)
    except Exception:
        return job.progress


def job_task(task, kind: JobKind, job_id: int) -> str:
    """The body of every job's Celery task: run the job; under a live lease elsewhere, look again after a
    lease (eager: answer "busy"). The job's status, or "missing"."""
    try:
        job = job_run(kind, job_id)
    except JobBusy:
        if task.request.is_eager:
            return "busy"
        raise task.retry(countdown=lease_seconds(), max_retries=None) from None
    return job.status if job is not None else "missing"
