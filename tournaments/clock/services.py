"""Writes of the session clock and the venue screen's announcements: keyword-only, typed, atomic."""

from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.utils.translation import gettext as _

from tournaments import lifecycle
from tournaments.clock import engine, selectors, servertime
from tournaments.models import Announcement, Session, SessionClock, Table, Tournament
from tournaments.permissions import can_manage, can_referee
from tournaments.signals import CLOCK, changed_send

MAX_ANNOUNCEMENT = 280


def _changed(tournament: Tournament, sessions=()) -> None:
    changed_send(tournament_id=tournament.pk, what={CLOCK}, sessions=sessions)


def _target_session(tournament: Tournament, action: str, session_number: int | None) -> Session:
    if session_number is not None:
        if not isinstance(session_number, int) or isinstance(session_number, bool):
            raise engine.ClockError(_("session must be a session number"), "session")
        session = Session.objects.filter(tournament=tournament, number=session_number).first()
        if session is None:
            raise engine.ClockError(
                _("session %(n)s does not exist in this tournament") % {"n": session_number}, "session"
            )
        return session
    session = selectors.current_session(tournament=tournament)
    if session is None:
        raise engine.ClockError(_("this tournament has no session yet"), "session")
    return session


def clock_act(
    *,
    tournament: Tournament,
    user,
    action: str,
    seconds: int | None = None,
    table: int | None = None,
    session_number: int | None = None,
) -> SessionClock:
    """Apply a clock action (start, pause, resume, extend, end) to the current session (or
    ``session_number``). Directors and referees only. ClockError for a value or a state that does not
    fit; nothing is saved then."""
    if not can_referee(user, tournament):
        raise PermissionDenied("You need the director or referee role in this tournament.")
    now = servertime.now()
    with transaction.atomic():
        session = _target_session(tournament, action, session_number)
        session = Session.objects.select_for_update().select_related("tournament").get(pk=session.pk)
        if action == "start":
            _startable(session)
        if table is not None and not Table.objects.filter(session=session, number=table).exists():
            raise engine.ClockError(
                _("table %(table)s is not a table of session %(n)s") % {"table": table, "n": session.number},
                "table",
            )
        stored = _apply(session, action, now, seconds=seconds, table=table)
        if action == "start" and session.status == Session.Status.SEATED:
            try:  # starting the clock starts the session (the lifecycle's guards apply)
                lifecycle.session_move(session=session, to=Session.Status.PLAYING)
            except lifecycle.Blocked as exc:
                raise engine.ClockError(" ".join(exc.reasons), "session", conflict=True) from None
        _changed(tournament, [session.pk])
    return stored


def _startable(session: Session) -> None:
    """A clock starts only for a session that is seated (it starts the session) or being played."""
    if session.tournament.status == Tournament.Status.FINISHED:
        raise engine.ClockError(_("The tournament is finished: no clock runs."), "session", conflict=True)
    if session.status == Session.Status.PLANNED:
        raise engine.ClockError(
            _("Session %(n)s is not seated: publish its seating before starting the clock.")
            % {"n": session.number},
            "session",
            conflict=True,
        )
    if session.status == Session.Status.FINISHED:
        raise engine.ClockError(
            _("Session %(n)s is finished: reopen it before starting its clock.") % {"n": session.number},
            "session",
            conflict=True,
        )


def _apply(
    session: Session, action: str, now, *, seconds: int | None = None, table: int | None = None
) -> SessionClock:
    stored = SessionClock.objects.select_for_update().filter(session=session).first()
    if stored is None:
        stored = SessionClock(
            session=session, length_seconds=selectors.default_length_seconds(session.tournament)
        )
    after = selectors.clock_of(session, stored).apply(action, now, seconds=seconds, table=table)
    stored.state = after.state
    stored.length_seconds = after.length_seconds
    stored.ends_at = after.ends_at
    stored.remaining_ms = after.remaining_ms
    stored.extra_seconds = after.extra_seconds
    stored.table_extra = {str(k): v for k, v in sorted(after.table_extra.items())}
    stored.table_ended = {str(k): v.isoformat() for k, v in sorted(after.table_ended.items())}
    stored.started_at = after.started_at
    stored.ended_at = after.ended_at
    stored.version = (stored.version or 0) + (1 if stored.pk else 0)
    stored.save()
    return stored


def clock_follow_session(*, session: Session) -> SessionClock | None:
    """The clock follows the session's status (the lifecycle's event): a session being played gets its
    clock started (unless the tournament leaves that to the director, or it already runs); a finished
    session, or any session of a finished tournament, has its clock ended. The clock's own event follows."""
    session = Session.objects.select_related("tournament").get(pk=session.pk)
    stored = SessionClock.objects.filter(session=session).first()
    state = stored.state if stored is not None else engine.STOPPED
    action = None
    if session.tournament.status == Tournament.Status.FINISHED or session.status == Session.Status.FINISHED:
        if state in (engine.RUNNING, engine.PAUSED):
            action = "end"
    elif (
        session.status == Session.Status.PLAYING
        and state == engine.STOPPED
        and lifecycle.clock_follows_session(session.tournament)
    ):
        action = "start"
    if action is None:
        return None
    stored = _apply(session, action, servertime.now())
    _changed(session.tournament, [session.pk])
    return stored


def clock_length_set(*, tournament: Tournament, user, session_number: int, minutes: int) -> SessionClock:
    """The length of one session before its clock starts (the tournament's default otherwise)."""
    if not can_referee(user, tournament):
        raise PermissionDenied("You need the director or referee role in this tournament.")
    if not isinstance(minutes, int) or isinstance(minutes, bool) or not 1 <= minutes <= 480:
        raise engine.ClockError(_("minutes must be a whole number from 1 to 480"), "minutes")
    with transaction.atomic():
        session = _target_session(tournament, "start", session_number)
        stored = SessionClock.objects.select_for_update().filter(session=session).first()
        if stored is not None and stored.state != engine.STOPPED:
            raise engine.ClockError(
                _("The clock of this session already started: add or remove time instead."), conflict=True
            )
        if stored is None:
            stored = SessionClock(session=session, length_seconds=minutes * 60)
        stored.length_seconds = minutes * 60
        stored.save()
        _changed(tournament, [session.pk])
    return stored


def announcement_add(*, tournament: Tournament, user, text: str) -> Announcement:
    if not can_manage(user, tournament):
        raise PermissionDenied("You need the director role in this tournament.")
    text = (text or "").strip()
    if not text:
        raise engine.ClockError(_("text cannot be empty"), "text")
    if len(text) > MAX_ANNOUNCEMENT:
        raise engine.ClockError(
            _("text has at most %(most)s characters, not %(count)s")
            % {"most": MAX_ANNOUNCEMENT, "count": len(text)},
            "text",
        )
    with transaction.atomic():
        announcement = Announcement.objects.create(tournament=tournament, text=text, created_by=user)
        _changed(tournament)
    return announcement


def announcement_hide(*, announcement: Announcement, user) -> Announcement:
    tournament = announcement.tournament
    if not can_manage(user, tournament):
        raise PermissionDenied("You need the director role in this tournament.")
    with transaction.atomic():
        Announcement.objects.filter(pk=announcement.pk).update(is_active=False)
        announcement.is_active = False
        _changed(tournament)
    return announcement
