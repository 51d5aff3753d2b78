"""The standings listen to the domain event (``tournaments.signals.changed``): a change of what the
standings read (results, roster, settings, a status) bumps the input version and queues a recompute once
the transaction commits. A change of players with no tournament (a name) does so for each of their
tournaments."""

from __future__ import annotations

from rankings.standings.services import standings_touch
from tournaments.models import Registration
from tournaments.signals import RESULTS, ROSTER, SETTINGS, STATUS, Change

STANDINGS_INPUT = frozenset({RESULTS, ROSTER, SETTINGS, STATUS})


def standings_follow(sender, *, change: Change, **kwargs) -> None:
    if not change.what & STANDINGS_INPUT:
        return
    if change.tournament_id is not None:
        tournaments = {change.tournament_id}
    else:
        tournaments = set(
            Registration.objects.filter(player_id__in=change.players).values_list("tournament_id", flat=True)
        )
    for tournament_id in sorted(tournaments):
        slug = change.slug if tournament_id == change.tournament_id else ""
        standings_touch(tournament_id=tournament_id, slug=slug)
