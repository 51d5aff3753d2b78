"""Who may do what in a tournament. Checked on the server for every write."""

from __future__ import annotations

from rest_framework import permissions

from tournaments.models import Role, Tournament, TournamentRole


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
