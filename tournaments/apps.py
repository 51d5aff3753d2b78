from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    name = "tournaments"
    verbose_name = "Tournaments"

    def ready(self):
        from config import dbcheck
        from config.receivers import connect

        connect()  # the domain event's listeners, all in one place
        dbcheck.connect()  # persistent connections checked after they sat idle, not on every request
