from django.apps import AppConfig

from config import dbcheck


class TournamentsConfig(AppConfig):
    name = "tournaments"
    verbose_name = "Tournaments"

    def ready(self):
        from config.receivers import connect  # local import: Django loads the models after the apps' configs

        connect()  # the domain event's listeners, all in one place
        dbcheck.connect()  # persistent connections checked after they sat idle, not on every request
