from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    name = "tournaments"
    verbose_name = "Tournaments"

    def ready(self):
        from django.utils.translation import get_language

        from config import dbcheck
        from config import languages as chosen_language
        from config.receivers import connect
        from tournaments import names

        connect()  # the domain event's listeners, all in one place
        names.set_language_source(get_language)  # names ordered as the reader's language orders them
        chosen_language.connect()  # the account's language read into the session at sign-in
        dbcheck.connect()  # persistent connections checked after they sat idle, not on every request
