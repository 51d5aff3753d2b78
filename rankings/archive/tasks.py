"""Background task of the archive imports: a thin wrapper taking the job's id, named as its service."""

from celery import shared_task

from rankings.archive import jobs
from rankings.jobs import runner


@shared_task(bind=True, acks_late=True, ignore_result=True)
def archive_import_job_run(self, job_id: int) -> str:
    """Import the archive of a job (``rankings.jobs.runner.job_task``: a job that is done or failed is
    left alone; under a live lease elsewhere, looked at again after a lease, so that a worker dying later
    is still noticed)."""
    return runner.job_task(self, jobs.ARCHIVE_IMPORTS, job_id)
