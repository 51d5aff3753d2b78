"""Background tasks of the rankings app found by Celery's autodiscovery: thin wrappers taking ids only."""

from __future__ import annotations

from celery import shared_task

from rankings import player_jobs, sweep
from rankings.jobs import runner


@shared_task(bind=True, acks_late=True)
def player_import_job_run(self, job_id: int) -> str:
    """Run a player import job (``rankings.jobs.runner.job_task``: safe to run twice; under a live lease
    elsewhere, looked at again after a lease)."""
    return runner.job_task(self, player_jobs.PLAYER_IMPORTS, job_id)


@shared_task(ignore_result=True)
def jobs_sweep() -> list:
    """Queue again every background job whose message was lost (beat)."""
    return [list(found) for found in sweep.jobs_sweep()]


__all__ = ["jobs_sweep", "player_import_job_run"]
