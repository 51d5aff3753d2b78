"""Pages of the tournaments app: thin views over selectors and services."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _

from tournaments import selectors
from tournaments.forms import PlayerImportForm
from tournaments.models import Player, Tournament
from tournaments.permissions import can_manage, user_roles
from tournaments.player_import import PlayerImportError, players_import_csv


def home(request):
    tournaments = selectors.tournament_list_visible(user=request.user).order_by("-starts_on")
    return render(request, "tournaments/home.html", {"tournaments": tournaments})


def tournament_home(request, slug: str):
    tournament = selectors.tournament_get_visible(slug=slug, user=request.user)
    context = {
        "tournament": tournament,
        "sessions": selectors.session_list(tournament=tournament),
        "next_session": selectors.next_session(tournament=tournament),
        "player_count": tournament.registrations.filter(is_substitute=False).count(),
        "roles": user_roles(request.user, tournament),
    }
    return render(request, "tournaments/tournament_home.html", context)


def tournament_players(request, slug: str):
    tournament = selectors.tournament_get_visible(slug=slug, user=request.user)
    registrations = selectors.registration_list(tournament=tournament)
    return render(
        request, "tournaments/players.html", {"tournament": tournament, "registrations": registrations}
    )


def _director_tournament(request, slug: str) -> Tournament:
    tournament = get_object_or_404(Tournament, slug=slug)
    if not can_manage(request.user, tournament):
        raise PermissionDenied(_("You need the director role in this tournament."))
    return tournament


@login_required
def director_players(request, slug: str):
    tournament = _director_tournament(request, slug)
    faults: list[str] = []
    if request.method == "POST":
        form = PlayerImportForm(request.POST, request.FILES)
        if form.is_valid():
            try:
                report = players_import_csv(
                    tournament=tournament,
                    data=form.cleaned_data["file"].read(),
                    substitutes=form.cleaned_data["substitutes"],
                )
            except PlayerImportError as exc:
                faults = exc.faults
            else:
                messages.success(request, report.summary())
                return redirect("director-players", slug=tournament.slug)
    else:
        form = PlayerImportForm()
    return render(
        request,
        "tournaments/director_players.html",
        {
            "tournament": tournament,
            "form": form,
            "faults": faults,
            "registrations": selectors.registration_list(tournament=tournament),
        },
    )


def player_private(request, key: str):
    """A player's own page, reached by the private link (no account needed)."""
    player = get_object_or_404(Player, private_key=key)
    registrations = player.registrations.select_related("tournament").order_by("-tournament__starts_on")
    return render(
        request, "tournaments/player_private.html", {"player": player, "registrations": registrations}
    )
