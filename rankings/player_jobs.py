"""Player import jobs: a director's CSV file of more than ``PLAYER_IMPORT_INLINE_ROWS`` players,
imported in the background with its progress.

- :func:`player_import_start` reads the file as the request's import does (the same bounds and checks:
  a faulty file is refused at once, every fault named with its line and column); a short file is
  imported there and then, a long one is stored as a queued :class:`PlayerImportJob` whose run is
  queued once the transaction commits (with no broker, it runs at once, in-process).
- :func:`player_import_job_run` is the task's body: it claims the job under its lease
  (``rankings.leases``: a delivery that finds the lease alive raises :class:`JobBusy`, a job whose
  worker died is taken over), imports the file in one transaction (nothing written on a fault), writing
  the progress (0–100) as it goes, and keeps the summary or the faults. A job that is done or failed is
  left as it is, so a task delivered twice does no harm.
"""

from __future__ import annotations

import contextlib
import logging
from dataclasses import dataclass

from django.conf import settings
from django.contrib.auth.models import AnonymousUser
from django.core.cache import caches
from django.db import transaction
from django.utils import timezone, translation

from rankings.leases import Lease, job_claim, job_enqueue
from rankings.models import PlayerImportJob
from tournaments.models import Tournament
from tournaments.player_import import (
    PlayerImportError,
    PlayerImportReport,
    parse_players_csv,
    players_import_csv,
    players_import_open_check,
)

log = logging.getLogger(__name__)
PROGRESS_STEP = 5  # write the progress in steps of at least this many percent
PROGRESS_KEY = "player-import-progress:{}"


@dataclass
class Started:
    """What an import request got: the report of an import done at once, or the queued job."""

    report: PlayerImportReport | None = None
    job: PlayerImportJob | None = None


def inline_rows() -> int:
    return int(getattr(settings, "PLAYER_IMPORT_INLINE_ROWS", 200))


def player_import_start(
    *, tournament: Tournament, data: bytes, substitutes: bool = False, user=None
) -> Started:
    """Import ``data`` now, or queue it as a job when it has more than ``PLAYER_IMPORT_INLINE_ROWS``
    players. A faulty file raises :class:`PlayerImportError` either way, before anything is stored."""
    rows = parse_players_csv(data)
    players_import_open_check(tournament=tournament)
    if len(rows) <= inline_rows():
        return Started(
            report=players_import_csv(tournament=tournament, data=data, substitutes=substitutes, user=user)
        )
    with transaction.atomic():
        job = PlayerImportJob.objects.create(
            tournament=tournament,
            data=bytes(data) if not isinstance(data, str) else data.encode("utf-8"),
            rows=len(rows),
            substitutes=substitutes,
            language=translation.get_language() or settings.LANGUAGE_CODE,
            requested_by=user if user is not None and user.is_authenticated else None,
        )
        transaction.on_commit(lambda: player_import_enqueue(job_id=job.pk))
    return Started(job=job)


def player_import_enqueue(*, job_id: int) -> None:
    """Queue (or, with no broker, run) the job; a broker that is down fails the job with a message."""
    from rankings import tasks

    job_enqueue(
        tasks.player_import_job_run, job_id, what="import",
        fail=lambda message: _finish(job_id, PlayerImportJob.Status.FAILED, faults=[message]),
    )  # fmt: skip


def job_progress(job: PlayerImportJob) -> int:
    """The job's progress, 0–100: while it runs, as its worker last wrote it to the cache."""
    if job.status != PlayerImportJob.Status.RUNNING:
        return job.progress
    try:
        return int(caches["default"].get(PROGRESS_KEY.format(job.pk)) or job.progress)
    except Exception:
        return job.progress


def lease_name(job_id: int) -> str:
    return f"player-import:{job_id}"


def _claim(job_id: int) -> PlayerImportJob | None:
    return job_claim(PlayerImportJob.objects, job_id, lease=lease_name(job_id), what="player import job")


def _finish(job_id: int, status: str, **changes) -> None:
    PlayerImportJob.objects.filter(pk=job_id).exclude(status=PlayerImportJob.Status.DONE).update(
        status=status, finished_at=timezone.now(), **changes
    )


def player_import_job_run(*, job_id: int) -> PlayerImportJob | None:
    """Run a queued (or abandoned) job: the players registered (done) or the faults (failed).
    :class:`JobBusy` when a live worker holds the job."""
    job = _claim(job_id)
    if job is None:
        return PlayerImportJob.objects.filter(pk=job_id).first()
    with Lease(lease_name(job_id)):
        return _run(job)


def _run(job: PlayerImportJob) -> PlayerImportJob:
    job_id = job.pk
    last = {"written": 0}

    def progress(percent: int) -> None:
        # the import is one transaction: a progress written to the row inside it would not be seen,
        # so it goes to the cache, as the lease does
        if percent - last["written"] >= PROGRESS_STEP:
            last["written"] = percent
            with contextlib.suppress(Exception):
                caches["default"].set(PROGRESS_KEY.format(job_id), min(percent, 99), 3600)

    tournament = Tournament.objects.get(pk=job.tournament_id)
    with translation.override(job.language or settings.LANGUAGE_CODE):
        try:
            report = players_import_csv(
                tournament=tournament,
                data=bytes(job.data),
                substitutes=job.substitutes,
                progress=progress,
                # who queued it (one whose account is gone sees what anybody sees)
                user=job.requested_by or AnonymousUser(),
            )
        except PlayerImportError as exc:
            _finish(job_id, PlayerImportJob.Status.FAILED, faults=exc.faults, progress=0)
            return PlayerImportJob.objects.get(pk=job_id)
        except Exception as exc:
            log.exception("player import job %s failed", job_id)
            _finish(
                job_id,
                PlayerImportJob.Status.FAILED,
                faults=[
                    f"The import failed because of an internal error ({type(exc).__name__}); it was logged."
                ],
            )
            return PlayerImportJob.objects.get(pk=job_id)
        summary = report.summary()
    _finish(job_id, PlayerImportJob.Status.DONE, summary=summary, progress=100, faults=[])
    return PlayerImportJob.objects.get(pk=job_id)
