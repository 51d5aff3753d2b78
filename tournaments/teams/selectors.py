"""Reads of teams: each team with its members, in name order."""

from __future__ import annotations

from dataclasses import dataclass

from tournaments.models import Registration, Team, Tournament


@dataclass(frozen=True)
class TeamView:
    team: Team
    members: list[Registration]

    @property
    def member_keys(self) -> list[str]:
        return [r.key for r in self.members]


def tournament_teams(*, tournament: Tournament) -> list[TeamView]:
    """Every team of the tournament with its members (two queries)."""
    teams = list(Team.objects.filter(tournament=tournament).order_by("name"))
    members: dict[int, list[Registration]] = {t.pk: [] for t in teams}
    for r in (
        Registration.objects.filter(tournament=tournament, team__isnull=False)
        .select_related("player")
        .order_by("id")
    ):
        members.setdefault(r.team_id, []).append(r)
    return [TeamView(team=t, members=members[t.pk]) for t in teams]
