"""Who may do what in a tournament. Checked on the server for every write."""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from typing import Any

from django.core.exceptions import PermissionDenied
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from rest_framework import permissions

from tournaments.models import Role, Table, Tournament, TournamentRole


def user_roles(user, tournament: Tournament) -> set[str]:
    if not user or not user.is_authenticated:
        return set()
    cache = getattr(user, "_tournament_roles", None)
    if cache is None:
        cache = {}
        user._tournament_roles = cache
    if tournament.pk not in cache:
        cache[tournament.pk] = set(
            TournamentRole.objects.filter(user=user, tournament=tournament).values_list("role", flat=True)
        )
    roles = set(cache[tournament.pk])
    if user.is_superuser:
        roles.add(Role.DIRECTOR)
    return roles


def can_manage(user, tournament: Tournament) -> bool:
    """Directors manage everything of their tournament."""
    return Role.DIRECTOR in user_roles(user, tournament)


def can_referee(user, tournament: Tournament) -> bool:
    """Referees (and directors) enter results and penalties and confirm tables."""
    return bool(user_roles(user, tournament) & {Role.DIRECTOR, Role.REFEREE})


def can_score(user, tournament: Tournament) -> bool:
    """Scorers (and referees and directors) enter results."""
    return bool(user_roles(user, tournament) & {Role.DIRECTOR, Role.REFEREE, Role.SCORER})


ORGANISE_PERMISSION = "tournaments.organise_tournaments"


def can_create_tournament(user) -> bool:
    """Organisers (granted by a site admin) create tournaments and become their directors."""
    return bool(
        user
        and user.is_authenticated
        and (
            user.is_staff or user.has_perm(ORGANISE_PERMISSION) or user.has_perm("tournaments.add_tournament")
        )
    )


def can_view(user, tournament: Tournament) -> bool:
    return tournament.is_public or bool(user_roles(user, tournament))


def is_any_director(user) -> bool:
    if not user or not user.is_authenticated:
        return False
    return user.is_superuser or TournamentRole.objects.filter(user=user, role=Role.DIRECTOR).exists()


class TournamentWritePermission(permissions.BasePermission):
    """Public read; writes by the directors of the object's tournament.

    The view provides ``get_permission_tournament(obj)`` for objects and, for creation,
    ``get_create_tournament(request)`` (None: only users who may create tournaments).
    """

    message = "You need the director role in this tournament."

    def has_permission(self, request, view):
        if request.method in permissions.SAFE_METHODS:
            return True
        if not request.user or not request.user.is_authenticated:
            return False
        if view.action == "create":
            tournament = view.get_create_tournament(request)
            if tournament is None:
                return can_create_tournament(request.user)
            return can_manage(request.user, tournament)
        return True

    def has_object_permission(self, request, view, obj):
        tournament = view.get_permission_tournament(obj)
        if request.method in permissions.SAFE_METHODS:
            return tournament is None or can_view(request.user, tournament)
        if tournament is None:
            return request.user.is_staff
        return can_manage(request.user, tournament)


@dataclass(frozen=True)
class Actor:
    """Who is writing: a user with a role in the tournament, or the table's private link."""

    user: Any = None
    role: str = ""  # director, referee, scorer, or "table" for the private table link
    table_id: int | None = None  # the table a private link opens

    @property
    def is_referee(self) -> bool:
        return self.role in (Role.DIRECTOR, Role.REFEREE)

    @property
    def db_user(self):
        return self.user if self.user is not None and self.user.is_authenticated else None


def actor_for(*, user, table: Table, table_key: str | None = None) -> Actor:
    """The actor writing to ``table``: a role in its tournament, or its own private link."""
    roles = user_roles(user, table.session.tournament)
    for role in (Role.DIRECTOR, Role.REFEREE, Role.SCORER):
        if role in roles:
            return Actor(user=user, role=role)
    if table_key and secrets.compare_digest(str(table_key).encode(), table.private_key.encode()):
        return Actor(user=user, role="table", table_id=table.pk)
    raise PermissionDenied("You cannot enter results at this table.")


def tournament_for_director(*, user, slug: str) -> Tournament:
    """The tournament ``slug`` for a page of its director: 404 when there is none, 403 for anyone else."""
    tournament = get_object_or_404(Tournament, slug=slug)
    if not can_manage(user, tournament):
        raise PermissionDenied(_("You need the director role in this tournament."))
    return tournament
