"""Background tasks of the exports and the EMA ranking: thin wrappers over services, taking ids only, each
named as the service it runs."""

from __future__ import annotations

from datetime import date

from celery import shared_task

from rankings.ema import services
from rankings.exports import jobs
from rankings.jobs import runner


@shared_task(bind=True, acks_late=True)
def export_job_run(self, job_id: int) -> str:
    """Run an export job (``rankings.jobs.runner.job_task``: safe to run twice; under a live lease
    elsewhere, looked at again after a lease; a job whose worker is gone is taken over)."""
    return runner.job_task(self, jobs.EXPORTS, job_id)


@shared_task(bind=True, acks_late=True, autoretry_for=(Exception,), retry_backoff=2, max_retries=5)
def ema_ranking_recompute(self, on: str | None = None) -> int:
    """Store the results of changed tournaments and recompute the EMA ranking (as of ``on``, ISO date,
    or today). Safe to run twice or concurrently; returns the input version it computed."""
    state = services.ema_ranking_recompute(on=date.fromisoformat(on) if on else None)
    return state.computed_version


__all__ = ["ema_ranking_recompute", "export_job_run"]
