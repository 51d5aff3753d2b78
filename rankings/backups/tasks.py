"""Background task of the backups (Celery beat, every BACKUP_SECONDS), named as the service it runs."""

from celery import shared_task

from rankings.backups import services


@shared_task(ignore_result=True)
def backups_write_running() -> list[str]:
    """Write the archive of every running tournament to the backups folder."""
    return services.backups_write_running()
