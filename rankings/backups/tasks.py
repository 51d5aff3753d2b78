"""Background task of the backups (Celery beat, every BACKUP_SECONDS)."""

from celery import shared_task


@shared_task(ignore_result=True)
def write_backups() -> list[str]:
    """Write the archive of every running tournament to the backups folder."""
    from rankings.backups.services import backups_write_running

    return backups_write_running()
