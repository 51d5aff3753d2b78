from django.apps import AppConfig


class SubmissionConfig(AppConfig):
    name = "rankings.submission"
    label = "submission"
    verbose_name = "EMA submission"

    def ready(self) -> None:
        # registers the ema-pack exporter
        from rankings.submission import pack  # noqa: F401  # local import: Django, models not loaded yet
