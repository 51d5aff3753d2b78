"""Background task of the archive imports: a thin wrapper taking the job's id, named as its service."""

from celery import shared_task


@shared_task(acks_late=True, ignore_result=True)
def archive_import_job_run(job_id: int) -> str:
    """Import the archive of a job; a job that is done, failed or running elsewhere is left alone."""
    from rankings.archive import jobs

    job = jobs.archive_import_job_run(job_id=job_id)
    return job.status if job is not None else "skipped"
