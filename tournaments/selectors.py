"""Reads of the tournaments app."""

from __future__ import annotations

from django.db.models import Count, Q, QuerySet
from django.shortcuts import get_object_or_404

from tournaments.models import Registration, Session, Tournament
from tournaments.permissions import can_view


def tournament_list_visible(*, user) -> QuerySet[Tournament]:
    qs = Tournament.objects.annotate(
        player_count=Count("registrations", filter=Q(registrations__is_substitute=False), distinct=True)
    )
    if user.is_authenticated and user.is_superuser:
        return qs
    if user.is_authenticated:
        return qs.filter(Q(is_public=True) | Q(roles__user=user)).distinct()
    return qs.filter(is_public=True)


def tournament_get_visible(*, slug: str, user) -> Tournament:
    from django.http import Http404

    tournament = get_object_or_404(Tournament, slug=slug)
    if not can_view(user, tournament):
        raise Http404("No such tournament.")
    return tournament


def registration_list(*, tournament: Tournament) -> QuerySet[Registration]:
    return (
        Registration.objects.filter(tournament=tournament)
        .select_related("player")
        .order_by("player__last_name", "player__first_name", "id")
    )


def session_list(*, tournament: Tournament) -> QuerySet[Session]:
    return (
        Session.objects.filter(tournament=tournament).annotate(table_count=Count("tables")).order_by("number")
    )


def next_session(*, tournament: Tournament) -> Session | None:
    return (
        Session.objects.filter(tournament=tournament)
        .exclude(status=Session.Status.FINISHED)
        .order_by("number")
        .first()
    )
