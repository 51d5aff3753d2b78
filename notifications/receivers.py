"""The domain event's listener for Web Push (connected in config.receivers): after the commit, it queues
what the change may tell (notifications.tasks.push_event); nothing is read in the write's request."""

from __future__ import annotations

from notifications.jobs import dispatch
from tournaments.signals import ATTENTION, CLOCK, RESULTS, SCHEDULE, STATUS, Change

# what a change may tell someone; hands entered at a table tell nobody unless it asks for a referee
# (``ATTENTION``), so an ordinary hand queues nothing
TOLD = frozenset({SCHEDULE, STATUS, RESULTS, CLOCK, ATTENTION})


def push_follow(sender, *, change: Change, **kwargs) -> None:
    what = change.what & TOLD
    if change.tournament_id is None or not what:
        return
    dispatch(
        "notifications.tasks.push_event",
        (change.tournament_id, sorted(what), list(change.sessions), list(change.tables)),
    )
