from django.apps import AppConfig


class RankingsConfig(AppConfig):
    name = "rankings"
    verbose_name = "Rankings"

    def ready(self) -> None:
        # Register the tasks of the domain packages with Celery (receivers: config.receivers), and with them
        # every kind of background job (rankings.jobs.runner). Django imports apps.py before any model.
        from rankings import tasks as job_tasks  # noqa: F401  # local import: Django, models not loaded yet
        from rankings.archive import tasks as archive_tasks  # noqa: F401  # local import: as above
        from rankings.backups import tasks as backup_tasks  # noqa: F401  # local import: as above
        from rankings.exports import tasks as export_tasks  # noqa: F401  # local import: as above
        from rankings.standings import tasks  # noqa: F401  # local import: as above
