from django.apps import AppConfig


class RankingsConfig(AppConfig):
    name = "rankings"
    verbose_name = "Rankings"

    def ready(self) -> None:
        from rankings import signals  # noqa: F401  (connects the receivers)
