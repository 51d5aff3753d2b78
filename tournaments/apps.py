from django.apps import AppConfig
from django.utils.translation import get_language

from config import dbcheck, dbtypes


class TournamentsConfig(AppConfig):
    name = "tournaments"
    verbose_name = "Tournaments"

    def ready(self):
        from config import languages  # local import: the models load after the apps' configs
        from config.receivers import connect  # local import: the same
        from tournaments import names  # local import: the same

        connect()  # the domain event's listeners, all in one place
        names.set_language_source(get_language)  # names ordered as the reader's language orders them
        languages.connect()  # the account's language read into the session at sign-in
        dbcheck.connect()  # persistent connections checked after they sat idle, not on every request
        dbtypes.connect()  # timestamps read by psycopg's compiled loader
