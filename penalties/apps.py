from django.apps import AppConfig


class PenaltiesConfig(AppConfig):
    name = "penalties"
    verbose_name = "Penalties"
