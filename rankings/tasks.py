"""Background tasks of the rankings app found by Celery's autodiscovery: thin wrappers taking ids only."""

from __future__ import annotations

from celery import shared_task


@shared_task(bind=True, acks_late=True)
def player_import_job_run(self, job_id: int) -> str:
    """Run a player import job; a job that is done or failed is left alone, so running twice is safe. A
    job running under a live lease elsewhere is looked at again after a lease; one whose worker is gone
    is taken over."""
    from rankings import player_jobs
    from rankings.leases import JobBusy, lease_seconds

    try:
        job = player_jobs.player_import_job_run(job_id=job_id)
    except JobBusy:
        if self.request.is_eager:
            return "busy"
        raise self.retry(countdown=lease_seconds(), max_retries=None) from None
    return job.status if job is not None else "missing"


@shared_task(ignore_result=True)
def jobs_sweep() -> list:
    """Queue again every background job whose message was lost (beat)."""
    from rankings import sweep

    return [list(found) for found in sweep.jobs_sweep()]


__all__ = ["jobs_sweep", "player_import_job_run"]
