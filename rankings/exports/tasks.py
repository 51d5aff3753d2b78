"""Background tasks of the exports and the EMA ranking: thin wrappers over services, taking ids only, each
named as the service it runs."""

from __future__ import annotations

from datetime import date

from celery import shared_task


@shared_task(bind=True, acks_late=True)
def export_job_run(self, job_id: int) -> str:
    """Run an export job; a job that is done or failed is left alone, so running twice is safe. A job
    running under a live lease elsewhere is looked at again after a lease; one whose worker is gone is
    taken over."""
    from rankings.exports import jobs
    from rankings.leases import JobBusy, lease_seconds

    try:
        job = jobs.export_job_run(job_id=job_id)
    except JobBusy:
        if self.request.is_eager:
            return "busy"
        raise self.retry(countdown=lease_seconds(), max_retries=None) from None
    return job.status if job is not None else "missing"


@shared_task(bind=True, acks_late=True, autoretry_for=(Exception,), retry_backoff=2, max_retries=5)
def ema_ranking_recompute(self, on: str | None = None) -> int:
    """Store the results of changed tournaments and recompute the EMA ranking (as of ``on``, ISO date,
    or today). Safe to run twice or concurrently; returns the input version it computed."""
    from rankings.ema import services

    state = services.ema_ranking_recompute(on=date.fromisoformat(on) if on else None)
    return state.computed_version


__all__ = ["ema_ranking_recompute", "export_job_run"]
