"""Filters of the API's list endpoints (django-filter): every tournament-scoped list narrows by tournament
(its slug) and, where it has one, by session number and table number. Values are bounded like every other
input: a slug of at most 80 characters, numbers from 1 to 9999."""

from __future__ import annotations

import django_filters
from django.core.validators import MaxValueValidator, MinValueValidator

from tournaments.models import Registration, Seat, Session, Table


def _number(field: str, label: str) -> django_filters.NumberFilter:
    return django_filters.NumberFilter(
        field_name=field,
        label=label,
        validators=[MinValueValidator(1), MaxValueValidator(9999)],
    )


def _slug(field: str) -> django_filters.CharFilter:
    return django_filters.CharFilter(field_name=field, max_length=80, label="tournament slug")


class RegistrationFilter(django_filters.FilterSet):
    tournament = _slug("tournament__slug")
    tournament_slug = _slug("tournament__slug")  # the older name, kept for existing clients
    is_substitute = django_filters.BooleanFilter()

    class Meta:
        model = Registration
        fields = ["tournament", "tournament_slug", "is_substitute"]


class SessionFilter(django_filters.FilterSet):
    tournament = _slug("tournament__slug")
    number = _number("number", "session number")
    status = django_filters.ChoiceFilter(choices=Session.Status.choices)

    class Meta:
        model = Session
        fields = ["tournament", "number", "status"]


class TableFilter(django_filters.FilterSet):
    tournament = _slug("session__tournament__slug")
    session = _number("session__number", "session number")
    number = _number("number", "table number")

    class Meta:
        model = Table
        fields = ["tournament", "session", "number"]


class SeatFilter(django_filters.FilterSet):
    tournament = _slug("table__session__tournament__slug")
    session = _number("table__session__number", "session number")
    table = _number("table__number", "table number")
    player = django_filters.CharFilter(field_name="registration__key", max_length=40, label="player key")

    class Meta:
        model = Seat
        fields = ["tournament", "session", "table", "player"]
