"""The director's team pages: the team size, the teams with their members, a form per team."""

from __future__ import annotations

from django.contrib import messages
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from tournaments.models import Team
from tournaments.permissions import tournament_for_director, user_roles
from tournaments.teams import selectors as sel
from tournaments.teams import services as svc
from tournaments.teams.forms import TeamForm, TeamSizeForm


def _save(request, form: TeamForm, tournament, team=None) -> Team | None:
    if not form.is_valid():
        return None
    data = form.cleaned_data
    try:
        return svc.team_save(
            tournament=tournament,
            team=team,
            name=data["name"],
            country=data["country"],
            club=data["club"],
            member_keys=data["members"],
        )
    except svc.TeamError as exc:
        form.add_error(exc.field if exc.field in form.fields else None, str(exc))
        return None


def teams_page(request, slug: str):
    tournament = tournament_for_director(user=request.user, slug=slug)
    size_form = TeamSizeForm(initial={"team_size": tournament.team_size})
    form = TeamForm(tournament=tournament)
    if request.method == "POST" and "team_size" in request.POST:
        size_form = TeamSizeForm(request.POST)
        if size_form.is_valid():
            try:
                svc.team_size_set(tournament=tournament, size=size_form.cleaned_data["team_size"])
            except svc.TeamError as exc:
                size_form.add_error("team_size", str(exc))
            else:
                messages.success(request, _("The team size is saved."))
                return redirect("teams", slug=slug)
    elif request.method == "POST":
        form = TeamForm(request.POST, tournament=tournament)
        if _save(request, form, tournament):
            messages.success(request, _("The team is saved."))
            return redirect("teams", slug=slug)
    return render(
        request,
        "tournaments/teams/teams.html",
        {
            "tournament": tournament,
            "roles": user_roles(request.user, tournament),
            "teams": sel.tournament_teams(tournament=tournament),
            "size_form": size_form,
            "form": form,
        },
    )


def team_edit(request, slug: str, team_id: int):
    tournament = tournament_for_director(user=request.user, slug=slug)
    team = get_object_or_404(Team, pk=team_id, tournament=tournament)
    keys = list(team.members.values_list("key", flat=True))
    form = TeamForm(
        request.POST or None,
        tournament=tournament,
        team=team,
        initial={"name": team.name, "country": team.country, "club": team.club, "members": keys},
    )
    if request.method == "POST" and _save(request, form, tournament, team):
        messages.success(request, _("The team is saved."))
        return redirect("teams", slug=slug)
    return render(
        request,
        "tournaments/teams/team_edit.html",
        {"tournament": tournament, "roles": user_roles(request.user, tournament), "team": team, "form": form},
    )


@require_POST
def team_remove(request, slug: str, team_id: int):
    tournament = tournament_for_director(user=request.user, slug=slug)
    team = get_object_or_404(Team, pk=team_id, tournament=tournament)
    try:
        svc.team_delete(team=team)
    except svc.TeamError as exc:
        messages.error(request, str(exc))
    else:
        messages.success(request, _("The team is deleted; its players stay registered."))
    return redirect("teams", slug=slug)
