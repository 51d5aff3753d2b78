from django.apps import AppConfig


class ScoringConfig(AppConfig):
    name = "scoring"
    verbose_name = "Scoring"

    def ready(self) -> None:
        from django.utils.translation import gettext

        from scoring.rules import text  # local import: Django loads apps.py before the models

        text.set_translator(gettext)  # engine messages in the reader's language

        from penalties import tables  # local import: Django loads apps.py before the models
        from scoring import selectors  # local import: Django loads apps.py before the models

        # the penalties below read table results through this layer's selectors
        tables.install(
            tables.Readers(entry=selectors.penalty_table_entry, touched=selectors.penalty_tables_touched)
        )
