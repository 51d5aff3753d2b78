from django.apps import AppConfig


class ScoringConfig(AppConfig):
    name = "scoring"
    verbose_name = "Scoring"

    def ready(self) -> None:
        from scoring import receivers  # noqa: F401  (rewrites rows of tables a penalty touches)
