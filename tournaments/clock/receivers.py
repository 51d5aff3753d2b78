"""The public pages and the clock listen to the domain event (``tournaments.signals``).

In the transaction of the change (``changing``):

- every change gives the tournament's public pages a new publication stamp (now and again after the
  commit: see ``tournaments.pagecache.changed``); a change that names players and no tournament (a
  player's name) does so for every tournament of those players;
- a status change moves the clocks with it: a session being played starts its clock (unless the tournament
  leaves that to the director), a finished session ends it, and a finished tournament has no running clock.

After the commit (``changed``): the clock document is written again when the clock, the schedule, the
roster, the settings or a status changed (entering hands does not change it).
"""

from __future__ import annotations

from django.db import transaction

from tournaments import pagecache
from tournaments.clock import selectors
from tournaments.clock.services import clock_follow_session
from tournaments.models import Registration, Session, Tournament
from tournaments.signals import CLOCK, ROSTER, SCHEDULE, SETTINGS, STATUS, Change

CLOCK_DOCUMENT = frozenset({CLOCK, SCHEDULE, ROSTER, SETTINGS, STATUS})


def _slugs(change: Change) -> set[str]:
    if change.tournament_id is not None and change.slug:
        return {change.slug}
    if change.tournament_id is not None:
        slug = Tournament.objects.filter(pk=change.tournament_id).values_list("slug", flat=True).first()
        return {slug} if slug else set()
    if change.players:
        return set(
            Registration.objects.filter(player_id__in=change.players).values_list(
                "tournament__slug", flat=True
            )
        )
    return set()


def pages_follow(sender, *, change: Change, **kwargs) -> None:
    for slug in sorted(_slugs(change)):
        pagecache.changed(slug)


def clock_document_follow(sender, *, change: Change, **kwargs) -> None:

    if change.what & CLOCK_DOCUMENT:
        for slug in sorted(_slugs(change)):
            selectors.refresh(slug)


def clocks_follow_status(sender, *, change: Change, **kwargs) -> None:

    if STATUS not in change.what or change.tournament_id is None:
        return
    sessions = Session.objects.filter(tournament_id=change.tournament_id)
    tournament_finished = Tournament.objects.filter(
        pk=change.tournament_id, status=Tournament.Status.FINISHED
    ).exists()
    if not tournament_finished:
        sessions = sessions.filter(pk__in=change.sessions)
    with transaction.atomic(
        savepoint=False
    ):  # the change's transaction: the clocks are locked while they follow
        for session in sessions.order_by("number"):
            clock_follow_session(session=session)
