"""Writes of teams: the team size, creating, changing and deleting teams and their members.

Every write runs in one transaction, locks the tournament row (two directors editing teams at once
cannot put one player in two teams or a team over its size) and tells the standings that the teams
changed. A refusal raises :class:`TeamError` naming the field and the rule; nothing is written.
"""

from __future__ import annotations

from collections.abc import Sequence

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from tournaments import lifecycle
from tournaments.countries import validate_country
from tournaments.models import Registration, Team, Tournament
from tournaments.signals import ROSTER, SETTINGS, changed_send

MAX_TEAM_SIZE = 12
MAX_TEAMS = 500


class TeamError(ValueError):
    """A refused team change: ``field`` is the input at fault, the message the rule."""

    def __init__(self, field: str, message: str):
        self.field = field
        super().__init__(message)


def _locked(tournament: Tournament) -> Tournament:
    """The tournament locked for a change of its teams: refused (on ``status``) once it is finished."""
    locked = Tournament.objects.select_for_update().get(pk=tournament.pk)
    try:
        lifecycle.tournament_open_check(tournament=locked)
    except lifecycle.TournamentFinished as exc:
        raise TeamError("status", exc.messages[0]) from None
    return locked


def team_size_set(*, tournament: Tournament, size: int | None) -> Tournament:
    """Set (or clear, with ``None``) the number of players per team; existing teams must fit."""
    if size is not None and (
        isinstance(size, bool) or not isinstance(size, int) or not 2 <= size <= MAX_TEAM_SIZE
    ):
        raise TeamError(
            "team_size", _("The team size must be a whole number from 2 to %(max)d.") % {"max": MAX_TEAM_SIZE}
        )
    with transaction.atomic():
        locked = _locked(tournament)
        if size is not None:
            largest = max((len(members) for members in _members_by_team(locked).values()), default=0)
            if largest > size:
                raise TeamError(
                    "team_size",
                    _("A team already has %(n)d members: the team size cannot be smaller.") % {"n": largest},
                )
        locked.team_size = size
        locked.save(update_fields=["team_size"])
        changed_send(tournament_id=locked.pk, what={ROSTER, SETTINGS})
        tournament.team_size = size
    return tournament


def _members_by_team(tournament: Tournament) -> dict[int, list[int]]:
    out: dict[int, list[int]] = {}
    for reg_id, team_id in Registration.objects.filter(tournament=tournament, team__isnull=False).values_list(
        "id", "team_id"
    ):
        out.setdefault(team_id, []).append(reg_id)
    return out


def _clean_text(field: str, value: str, limit: int, required: bool) -> str:
    if not isinstance(value, str):
        raise TeamError(field, _("This must be text."))
    value = value.strip()
    if required and not value:
        raise TeamError(field, _("This field is required."))
    if len(value) > limit:
        raise TeamError(field, _("At most %(n)d characters.") % {"n": limit})
    return value


def team_save(
    *,
    tournament: Tournament,
    name: str,
    country: str = "",
    club: str = "",
    member_keys: Sequence[str] = (),
    team: Team | None = None,
) -> Team:
    """Create a team (``team`` None) or change one: name, country or club, and its members by
    registration key (the list replaces the members). A member may belong to one team only and a
    team holds at most the tournament's team size."""
    name = _clean_text("name", name, 100, True)
    club = _clean_text("club", club, 150, False)
    country = _clean_text("country", country, 3, False).upper()
    if country:
        try:
            validate_country(country)
        except ValidationError as exc:
            raise TeamError("country", " ".join(exc.messages)) from exc
    if isinstance(member_keys, str) or len(member_keys) > MAX_TEAM_SIZE:
        raise TeamError("members", _("A team has at most %(n)d members.") % {"n": MAX_TEAM_SIZE})
    keys = [str(k).strip() for k in member_keys if str(k).strip()]
    if len(set(keys)) != len(keys):
        raise TeamError("members", _("A player is listed twice."))
    with transaction.atomic():
        locked = _locked(tournament)
        if team is not None:
            team = Team.objects.select_for_update().get(pk=team.pk, tournament=locked)
        elif Team.objects.filter(tournament=locked).count() >= MAX_TEAMS:
            raise TeamError("name", _("A tournament has at most %(n)d teams.") % {"n": MAX_TEAMS})
        if locked.team_size is not None and len(keys) > locked.team_size:
            raise TeamError(
                "members",
                _("A team of this tournament has at most %(n)d players.") % {"n": locked.team_size},
            )
        clash = Team.objects.filter(tournament=locked, name__iexact=name)
        if team is not None:
            clash = clash.exclude(pk=team.pk)
        if clash.exists():
            raise TeamError("name", _("Another team of this tournament has this name."))
        registrations = {r.key: r for r in Registration.objects.filter(tournament=locked, key__in=keys)}
        unknown = [k for k in keys if k not in registrations]
        if unknown:
            raise TeamError(
                "members", _("Not registered in this tournament: %(keys)s.") % {"keys": ", ".join(unknown)}
            )
        for key in keys:
            other = registrations[key].team_id
            if other is not None and (team is None or other != team.pk):
                raise TeamError("members", _("%(key)s already plays for another team.") % {"key": key})
        if team is None:
            team = Team.objects.create(tournament=locked, name=name, country=country, club=club)
        else:
            team.name, team.country, team.club = name, country, club
            team.save(update_fields=["name", "country", "club"])
            Registration.objects.filter(team=team).exclude(key__in=keys).update(team=None)
        Registration.objects.filter(tournament=locked, key__in=keys).update(team=team)
        changed_send(tournament_id=locked.pk, what={ROSTER})
    return team


def team_delete(*, team: Team) -> None:
    """Delete a team; its members stay registered, without a team."""
    with transaction.atomic():
        _locked(team.tournament)
        Registration.objects.filter(team=team).update(team=None)
        tournament_id = team.tournament_id
        team.delete()
        changed_send(tournament_id=tournament_id, what={ROSTER})


def teams_assign(*, tournament: Tournament, names_by_key: dict[str, str]) -> list[Team]:
    """Put registrations into teams by team name, creating the teams that do not exist yet (the CSV
    import and the archive use this). Sizes are checked against the team size."""
    created: list[Team] = []
    with transaction.atomic():
        locked = _locked(tournament)
        teams = {t.name.casefold(): t for t in Team.objects.filter(tournament=locked)}
        for key, name in names_by_key.items():
            name = _clean_text("team", name, 100, True)
            team = teams.get(name.casefold())
            if team is None:
                if len(teams) >= MAX_TEAMS:
                    raise TeamError("team", _("A tournament has at most %(n)d teams.") % {"n": MAX_TEAMS})
                team = Team.objects.create(tournament=locked, name=name)
                teams[name.casefold()] = team
                created.append(team)
            Registration.objects.filter(tournament=locked, key=key).update(team=team)
        limit = locked.team_size or MAX_TEAM_SIZE
        for team_id, members in _members_by_team(locked).items():
            if len(members) > limit:
                name = next(t.name for t in teams.values() if t.pk == team_id)
                raise TeamError(
                    "team",
                    _("Team %(name)s would have %(n)d players, more than %(max)d.")
                    % {"name": name, "n": len(members), "max": limit},
                )
        changed_send(tournament_id=locked.pk, what={ROSTER})
    return created
