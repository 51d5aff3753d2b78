from django.apps import AppConfig


class RankingsConfig(AppConfig):
    name = "rankings"
    verbose_name = "Rankings"

    def ready(self) -> None:
        # Register the tasks of the domain packages with Celery (receivers: config.receivers).
        from rankings.archive import tasks as archive_tasks  # noqa: F401
        from rankings.backups import tasks as backup_tasks  # noqa: F401
        from rankings.exports import tasks as export_tasks  # noqa: F401
        from rankings.standings import tasks  # noqa: F401
