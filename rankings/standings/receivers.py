"""The standings listen to the domain event (``tournaments.signals``): a change of what the standings read
(results, roster, settings, a status) moves the input version in the transaction of the change
(``standings_follow``, on ``changing``), and queues a recompute once it commits (``standings_queue``, on
``changed``); a recompute that is not queued is caught up by the sweep, since the version moved. A change of
players with no tournament (a name) does so for each of their tournaments."""

from __future__ import annotations

from rankings.standings.services import standings_bump, standings_enqueue
from tournaments.models import Registration
from tournaments.signals import RESULTS, ROSTER, SETTINGS, STATUS, Change

STANDINGS_INPUT = frozenset({RESULTS, ROSTER, SETTINGS, STATUS})


def _tournaments(change: Change) -> list[int]:
    if not change.what & STANDINGS_INPUT:
        return []
    if change.tournament_id is not None:
        return [change.tournament_id]
    return sorted(
        set(Registration.objects.filter(player_id__in=change.players).values_list("tournament_id", flat=True))
    )


def standings_follow(sender, *, change: Change, **kwargs) -> None:
    for tournament_id in _tournaments(change):
        standings_bump(tournament_id=tournament_id)


def standings_queue(sender, *, change: Change, **kwargs) -> None:
    for tournament_id in _tournaments(change):
        slug = change.slug if tournament_id == change.tournament_id else ""
        standings_enqueue(tournament_id=tournament_id, slug=slug, bumped=True)
