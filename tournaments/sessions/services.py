"""Writes of a tournament's sessions: their start times, adding and removing the last one, seating one by the
engine, and each step of its life (forward and back), through the lifecycle. Keyword-only, typed, atomic."""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from tournaments import lifecycle
from tournaments import services as base
from tournaments.lifecycle import Blocked
from tournaments.models import Session, Tournament
from tournaments.seating import selectors as seating_read
from tournaments.seating import services as seating
from tournaments.seating.engine import SeatingError
from tournaments.sessions.guards import finish_blockers, step_back_blockers
from tournaments.signals import SCHEDULE, changed_send


def aware(value: dt.datetime | None) -> dt.datetime | None:
    """A start time in the server's time zone when it came without one."""
    if value is None or timezone.is_aware(value):
        return value
    return timezone.make_aware(value)


# -- the schedule ----------------------------------------------------------------------------------------


def session_times_set(*, tournament: Tournament, starts: Mapping[int, dt.datetime | None]) -> None:
    with transaction.atomic():
        for session in Session.objects.select_for_update().filter(tournament=tournament):
            if session.number in starts and session.starts_at != aware(starts[session.number]):
                lifecycle.tournament_open_check(tournament=tournament)
                session.starts_at = aware(starts[session.number])
                session.save(update_fields=["starts_at"])
        changed_send(tournament_id=tournament.pk, what={SCHEDULE})


def session_add(*, tournament: Tournament, starts_at: dt.datetime | None = None) -> Session:
    return base.session_create(tournament=tournament, starts_at=aware(starts_at))


def session_remove_last(*, tournament: Tournament) -> int:
    """Remove the last session while it has no seating."""
    with transaction.atomic():
        lifecycle.tournament_open_check(tournament=tournament)
        last = Session.objects.select_for_update().filter(tournament=tournament).order_by("-number").first()
        if last is None:
            raise Blocked([_("This tournament has no sessions.")])
        if last.tables.exists() or last.status != Session.Status.PLANNED:
            raise Blocked([_("Session %(n)s is seated: it cannot be removed.") % {"n": last.number}])
        number = last.number
        last.delete()
        changed_send(tournament_id=tournament.pk, what={SCHEDULE})
    return number


# -- the life of a session -------------------------------------------------------------------------------


def session_blockers(*, session: Session) -> list[str]:
    """What keeps ``session`` from finishing (the lifecycle asks the same guard)."""
    return finish_blockers(session)


def session_seat(*, session: Session) -> None:
    """Seat ``session`` with the engine (the whole plan's history counts; Swiss order from session 2 on
    when the tournament's seating settings say so)."""
    config = seating_read.seating_config(tournament=session.tournament)
    strategy = seating_read.SCHEDULE
    if getattr(config, "strategy", "") in seating_read.STRATEGIES:
        strategy = config.strategy
    seating.seating_generate(tournament=session.tournament, sessions=[session], strategy=strategy)


def _current(session: Session) -> Session:
    """The session as stored, once it is sure its tournament is not finished."""
    current = Session.objects.select_related("tournament").get(pk=session.pk)
    if current.tournament.status == Tournament.Status.FINISHED:
        raise Blocked([_("The tournament is finished: reopen it first.")])
    return current


def session_advance(*, session: Session) -> Session:
    """Planned → seated (the seating is published) → playing → finished, through the lifecycle (whose
    guards say what keeps it from finishing)."""
    current = _current(session)
    if current.status == Session.Status.PLANNED:
        try:
            return seating.seating_publish(session=current)
        except SeatingError as exc:
            raise Blocked(exc.faults) from None
    if current.status == Session.Status.SEATED:
        return lifecycle.session_move(session=current, to=Session.Status.PLAYING)
    if current.status == Session.Status.PLAYING:
        return lifecycle.session_move(session=current, to=Session.Status.FINISHED)
    raise Blocked([_("Session %(n)s is already finished.") % {"n": current.number}])


def session_reopen(*, session: Session, reason: str = "", user=None) -> Session:
    """One step back where it is safe: finished → playing (with a reason); playing → seated while no table
    has a result or a penalty; seated → planned (seating hidden again) likewise (the lifecycle's guards)."""
    current = _current(session)
    status = current.status
    if status == Session.Status.FINISHED:
        return lifecycle.session_move(session=current, to=Session.Status.PLAYING, reason=reason, user=user)
    if status == Session.Status.PLAYING:  # the lifecycle's guard keeps it in play with results or penalties
        return lifecycle.session_move(session=current, to=Session.Status.SEATED)
    if status == Session.Status.SEATED:
        blockers = step_back_blockers(current)
        if blockers:
            raise Blocked(blockers)
        return lifecycle.session_move(session=current, to=Session.Status.PLANNED)
    raise Blocked([_("Session %(n)s has not started.") % {"n": current.number}])
