"""The director's team forms: the team size, and one team (name, country or club, members)."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from tournaments.models import Registration, Tournament
from tournaments.teams.services import MAX_TEAM_SIZE


class TeamSizeForm(forms.Form):
    team_size = forms.IntegerField(
        label=_("Players per team"), required=False, min_value=2, max_value=MAX_TEAM_SIZE
    )


class TeamForm(forms.Form):
    name = forms.CharField(label=_("Team name"), max_length=100)
    country = forms.CharField(label=_("Country (ISO code)"), max_length=3, required=False)
    club = forms.CharField(label=_("Club"), max_length=150, required=False)
    members = forms.MultipleChoiceField(
        label=_("Members"), required=False, widget=forms.CheckboxSelectMultiple
    )

    def __init__(self, *args, tournament: Tournament, team=None, **kwargs):
        super().__init__(*args, **kwargs)
        registrations = (
            Registration.objects.filter(tournament=tournament).select_related("player", "team").order_by("id")
        )
        self.fields["members"].choices = [
            (
                r.key,
                f"{r.key} · {r.player.full_name}"
                + (f" ({r.team.name})" if r.team and r.team != team else ""),
            )
            for r in registrations
        ]
