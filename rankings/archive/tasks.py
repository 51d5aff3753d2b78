"""Background task of the archive imports: a thin wrapper taking the job's id, named as its service."""

from celery import shared_task


@shared_task(bind=True, acks_late=True, ignore_result=True)
def archive_import_job_run(self, job_id: int) -> str:
    """Import the archive of a job; a job that is done or failed is left alone. A job running under a
    live lease elsewhere is looked at again after a lease (so that a worker dying later is still
    noticed); one whose worker is gone is taken over."""
    from rankings.archive import jobs
    from rankings.leases import JobBusy, lease_seconds

    try:
        job = jobs.archive_import_job_run(job_id=job_id)
    except JobBusy:
        if self.request.is_eager:
            return "busy"
        raise self.retry(countdown=lease_seconds(), max_retries=None) from None
    return job.status if job is not None else "skipped"
