from django.apps import AppConfig


class ScoringConfig(AppConfig):
    name = "scoring"
    verbose_name = "Scoring"

    def ready(self) -> None:
        from django.utils.translation import gettext

        from scoring.rules import text

        text.set_translator(gettext)  # engine messages in the reader's language
