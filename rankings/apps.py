from django.apps import AppConfig


class RankingsConfig(AppConfig):
    name = "rankings"
    verbose_name = "Rankings"

    def ready(self) -> None:
        # Connect the receivers, and register the tasks of the domain packages with Celery.
        from rankings.archive import tasks as archive_tasks  # noqa: F401
        from rankings.backups import receivers as backup_receivers  # noqa: F401
        from rankings.backups import tasks as backup_tasks  # noqa: F401
        from rankings.ema import signals  # noqa: F401
        from rankings.exports import tasks as export_tasks  # noqa: F401
        from rankings.standings import receivers, tasks  # noqa: F401
