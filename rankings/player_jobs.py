"""Player import jobs: a director's CSV file of more than ``PLAYER_IMPORT_INLINE_ROWS`` players,
imported in the background with its progress.

- :func:`player_import_start` reads the file as the request's import does (the same bounds and checks:
  a faulty file is refused at once, every fault named with its line and column); a short file is
  imported there and then, a long one is stored as a queued :class:`PlayerImportJob` whose run is
  queued once the transaction commits (with no broker, it runs at once, in-process).
- :class:`PlayerImports` is the job's kind: its work imports the file in one transaction (nothing
  written on a fault), its progress (0–100) kept in the cache meanwhile, and keeps the summary or the
  faults. Claiming, leases, outcome and retries are the one runner's (``rankings.jobs.runner``), as for
  every background job.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.conf import settings
from django.contrib.auth.models import AnonymousUser
from django.db import transaction
from django.utils import translation

from rankings.jobs import runner
from rankings.jobs.models import PlayerImportJob
from tournaments.models import Tournament
from tournaments.player_import import (
    PlayerImportError,
    PlayerImportReport,
    parse_players_csv,
    players_import_csv,
    players_import_open_check,
)


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


@runner.register
class PlayerImports(runner.JobKind):
    """A director's long CSV file of players, imported in the background."""

    name = "player-import"
    model = PlayerImportJob
    task = "rankings.tasks.player_import_job_run"
    what = "import"
    refusals = (PlayerImportError,)
    progress_in_cache = True

    def work(self, job: PlayerImportJob, progress: runner.Progress) -> dict:
        tournament = Tournament.objects.get(pk=job.tournament_id)
        with translation.override(job.language or settings.LANGUAGE_CODE):
            report = players_import_csv(
                tournament=tournament,
                data=bytes(job.data),
                substitutes=job.substitutes,
                progress=progress,
                # who queued it (one whose account is gone sees what anybody sees)
                user=job.requested_by or AnonymousUser(),
            )
            return {"summary": report.summary(), "faults": []}

    def refused(self, exc: PlayerImportError) -> dict:
        return {"faults": exc.faults, "progress": 0}

    def failed(self, message: str) -> dict:
        return {"faults": [message]}


PLAYER_IMPORTS = runner.kind_of(PlayerImports.name)


def player_import_enqueue(*, job_id: int) -> None:
    """Queue (or, with no broker, run) the job; a broker that is down fails the job with a message."""
    runner.job_enqueue(PLAYER_IMPORTS, job_id)


def job_progress(job: PlayerImportJob) -> int:
    """The job's progress, 0–100: while it runs, as its worker last wrote it to the cache."""
    return runner.job_progress(PLAYER_IMPORTS, job)


def lease_name(job_id: int) -> str:
    return runner.lease_name(PLAYER_IMPORTS, job_id)


def player_import_job_run(*, job_id: int) -> PlayerImportJob | None:
    """Run a queued (or abandoned) job: the players registered (done) or the faults (failed).
    :class:`JobBusy` when a live worker holds the job."""
    return runner.job_run(PLAYER_IMPORTS, job_id)
