"""The life of a session and of a tournament: the one place that writes their ``status``.

The transition tables below say which steps exist; each step has its guards. The console, the seating's
publish and unpublish, the clock's start, the archive import and the backup restore all come here, so a
status means the same thing whoever changed it. Guards that read the results (tables not confirmed, a player
out with no substitute, results or penalties in a session) live with the domains that know them
(``tournaments.sessions.guards``): this module sits in the tournaments core and knows neither results nor
penalties, so it asks the guards registered with :func:`session_guard_add` when the apps are ready.

Rules kept here:

- a session goes planned → seated → playing → finished and back one step; a later session plays only once
  the earlier ones are finished; a finished session is reopened for a correction whatever the later ones do;
- the tournament goes draft → running (its first session seated) → finished (every session finished) and
  back from finished to running;
- a finished tournament is read-only: its registrations, teams, rules, sessions and tables
  (:func:`tournament_open_check`, called by every service that writes them);
- a finished session, and every session of a finished tournament, is read-only
  (:func:`results_open_check`, called by every service that changes hands, totals, confirmations or
  penalties); reopening one needs a reason, is recorded in ``Tournament.settings["reopened"]`` and makes the
  exports made before it out of date (:func:`last_reopened_at`); reopening the finished tournament opens
  the results of every session to corrections until it is finished again (one reopening, one reason);
- every step sends the domain event (``STATUS``, naming the session): the clock starts with the session
  (unless the tournament's setting ``clock_with_session`` is off) and ends with it.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterable, Mapping, Sequence

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from scoring.rules.base import RuleError
from tournaments.models import Session, Tournament
from tournaments.signals import STATUS, changed_send

PLANNED = Session.Status.PLANNED
SEATED = Session.Status.SEATED
PLAYING = Session.Status.PLAYING
FINISHED = Session.Status.FINISHED

DRAFT = Tournament.Status.DRAFT
RUNNING = Tournament.Status.RUNNING
DONE = Tournament.Status.FINISHED

#: Session steps: forward, then back one step.
SESSION_STEPS: Mapping[str, frozenset[str]] = {
    PLANNED: frozenset({SEATED}),
    SEATED: frozenset({PLAYING, PLANNED}),
    PLAYING: frozenset({FINISHED, SEATED}),
    FINISHED: frozenset({PLAYING}),
}
#: Tournament steps.
TOURNAMENT_STEPS: Mapping[str, frozenset[str]] = {
    DRAFT: frozenset({RUNNING}),
    RUNNING: frozenset({FINISHED}),
    FINISHED: frozenset({RUNNING}),
}
#: A guard of a session's step: the reasons that keep ``session`` from going ``current`` → ``to`` ([] when none).
SessionGuard = Callable[[Session, str, str], list[str]]
_SESSION_GUARDS: list[SessionGuard] = []
REOPENED_SETTING = "reopened"
CLOCK_SETTING = "clock_with_session"
MAX_REASON = 500


class Blocked(ValidationError):
    """A state change refused, with every reason (each a sentence for the director)."""

    def __init__(self, reasons: Sequence[str]):
        super().__init__(list(reasons))
        self.reasons = list(reasons)


def clock_follows_session(tournament: Tournament) -> bool:
    """Whether starting a session starts its clock (the default), or the director starts it."""
    return bool((tournament.settings or {}).get(CLOCK_SETTING, True))


# -- read-only once finished ------------------------------------------------------------------------------


def reopened_after_finish(tournament: Tournament) -> bool:
    """The tournament was finished and the director reopened it (it is running again): every session's
    results may be corrected, the finished ones too, until it is finished again. One reopening, with one
    reason, is enough for any correction."""
    if tournament.status != RUNNING:
        return False
    for entry in (tournament.settings or {}).get(REOPENED_SETTING) or []:
        scope = entry.get("scope")
        if scope is None:  # recorded before the scope was: a session's names its number
            scope = "session" if any(c.isdigit() for c in str(entry.get("what", ""))) else "tournament"
        if scope == "tournament":
            return True
    return False


def results_closed(*, session: Session | None, tournament: Tournament | None = None) -> str:
    """Why the results of ``session`` (or of the whole tournament) cannot change now ("" when they can):
    the tournament is finished, or the session is (and the tournament was not reopened after its finish)."""
    tournament = tournament or session.tournament
    if tournament.status == DONE:
        return _(
            "The tournament is finished: its results can only change after the director reopens it, with a reason."
        )
    if session is not None and session.status == FINISHED and not reopened_after_finish(tournament):
        return _(
            "Session %(n)s is finished: its results can only change after the director reopens it, with a reason."
        ) % {"n": session.number}
    return ""


class TournamentFinished(ValidationError):
    """A change of a finished tournament refused: 400 on ``status``, saying how to reopen it."""

    def __init__(self, slug: str = ""):
        self.slug = slug  # the tournament's, for the page that offers the way back
        super().__init__(
            {
                "status": [
                    _(
                        "The tournament is finished: its players, teams, rules, sessions and tables can only "
                        "change after the director reopens it, with a reason."
                    )
                ]
            }
        )


def tournament_open_check(*, tournament: Tournament | int) -> None:
    """Refuse (:class:`TournamentFinished`) any change of a finished tournament's registrations, teams,
    rules, sessions and tables, whichever door it comes through: the services of those writes call this.
    The status is read from the database, not from the object passed."""
    tournament_id = tournament if isinstance(tournament, int) else tournament.pk
    slug = Tournament.objects.filter(pk=tournament_id, status=DONE).values_list("slug", flat=True).first()
    if slug is not None:
        raise TournamentFinished(slug)


def results_open_check(*, session: Session | None, tournament: Tournament | None = None) -> None:
    """Refuse a change of a finished session's (or finished tournament's) results: hands, totals,
    confirmations, penalties. A ``RuleError`` on ``status`` that says how to reopen it. ``session`` None:
    a change of the whole tournament (a penalty for the tournament). A tournament reopened after its finish
    takes corrections in every session (:func:`reopened_after_finish`)."""
    reason = results_closed(session=session, tournament=tournament)
    if reason:
        raise RuleError(reason, "status")


def last_reopened_at(tournament: Tournament) -> dt.datetime | None:
    """When a finished session or the finished tournament was last reopened (None: never)."""
    entries = (tournament.settings or {}).get(REOPENED_SETTING) or []
    if not entries:
        return None
    try:
        return dt.datetime.fromisoformat(entries[-1]["at"])
    except (KeyError, TypeError, ValueError):
        return None


def reopenings(tournament: Tournament) -> list[dict]:
    """Every reopening, oldest first: ``at`` (ISO time), ``what`` ("tournament" or "session N"), ``reason``,
    ``by`` (the account's name, when known)."""
    return list((tournament.settings or {}).get(REOPENED_SETTING) or [])


def _reason(reason: str) -> str:
    text = (reason or "").strip()
    if not text:
        raise RuleError(_("Reopening needs a reason."), "reason")
    if len(text) > MAX_REASON:
        raise RuleError(_("A reason has at most %(n)s characters.") % {"n": MAX_REASON}, "reason")
    return text


def _record_reopening(tournament: Tournament, what: str, reason: str, user, scope: str) -> None:
    settings = dict(tournament.settings or {})
    entries = list(settings.get(REOPENED_SETTING) or [])
    entries.append(
        {
            "at": timezone.now().isoformat(),
            "what": what,
            "scope": scope,  # "tournament" or "session": what was reopened, whatever the language of ``what``
            "reason": reason,
            "by": getattr(user, "username", "") or "",
        }
    )
    settings[REOPENED_SETTING] = entries
    tournament.settings = settings
    Tournament.objects.filter(pk=tournament.pk).update(settings=settings)


# -- sessions --------------------------------------------------------------------------------------------


def session_guard_add(guard: SessionGuard) -> None:
    """Let :func:`session_move` ask ``guard`` before every step (once, however often it is added)."""
    if guard not in _SESSION_GUARDS:
        _SESSION_GUARDS.append(guard)


def session_step_blockers(*, session: Session, to: str) -> list[str]:
    """What the registered guards say keeps ``session`` from going to ``to`` from its current status."""
    return [reason for guard in _SESSION_GUARDS for reason in guard(session, session.status, to)]


def _lock_session(session: Session) -> Session:
    return Session.objects.select_for_update().select_related("tournament").get(pk=session.pk)


def session_move(*, session: Session, to: str, reason: str = "", user=None) -> Session:
    """Move ``session`` one step to ``to``; ``Blocked`` with every reason when a guard refuses.

    The registered guards (:func:`session_guard_add`) say what the results and penalties keep from the
    step (tables not confirmed, results or penalties that keep a session in play). Reopening a finished
    session needs ``reason``."""
    with transaction.atomic():
        locked = _lock_session(session)
        tournament = locked.tournament
        current = locked.status
        if current == to:
            return locked
        if tournament.status == DONE:
            raise Blocked([_("The tournament is finished: reopen it first.")])
        if to not in SESSION_STEPS[current]:
            raise Blocked([_step_refusal(locked, to)])
        reasons = session_step_blockers(session=locked, to=to)
        if to == SEATED and current == PLANNED and not locked.seating_published:
            reasons.append(_("Session %(n)s has no published seating.") % {"n": locked.number})
        if to == PLAYING and current == SEATED:
            earlier = (
                Session.objects.filter(tournament=tournament, number__lt=locked.number)
                .exclude(status=FINISHED)
                .order_by("number")
                .first()
            )
            if earlier is not None:
                reasons.append(_("Finish session %(n)s first.") % {"n": earlier.number})
        if reasons:
            raise Blocked(reasons)
        if current == FINISHED:
            _record_reopening(
                tournament, _("session %(n)s") % {"n": locked.number}, _reason(reason), user, "session"
            )
        locked.status = to
        if to == PLANNED:
            locked.seating_published = False
        locked.save(update_fields=["status", "seating_published"])
        if to == SEATED and tournament.status == DRAFT:
            _tournament_write(tournament, RUNNING)
        changed_send(tournament_id=tournament.pk, what={STATUS}, sessions=[locked.pk], slug=tournament.slug)
    session.status = locked.status
    session.seating_published = locked.seating_published
    return locked


def _step_refusal(session: Session, to: str) -> str:
    if session.status == FINISHED:
        return _("Session %(n)s is already finished.") % {"n": session.number}
    if session.status == PLANNED and to != SEATED:
        return _("Session %(n)s is not seated: publish its seating first.") % {"n": session.number}
    if to == FINISHED:
        return _("Session %(n)s is not being played.") % {"n": session.number}
    return _("Session %(n)s cannot go from %(from)s to %(to)s.") % {
        "n": session.number,
        "from": Session.Status(session.status).label,
        "to": Session.Status(to).label,
    }


# -- the tournament --------------------------------------------------------------------------------------


def _tournament_write(tournament: Tournament, to: str) -> None:
    Tournament.objects.filter(pk=tournament.pk).update(status=to)
    tournament.status = to


def tournament_blockers(*, tournament: Tournament) -> list[str]:
    sessions = list(Session.objects.filter(tournament=tournament).order_by("number"))
    if not sessions:
        return [_("The tournament has no sessions.")]
    unfinished = [str(s.number) for s in sessions if s.status != FINISHED]
    if unfinished:
        return [_("Sessions not finished: %(list)s.") % {"list": ", ".join(unfinished)}]
    return []


def tournament_move(*, tournament: Tournament, to: str, reason: str = "", user=None) -> Tournament:
    """Finish the tournament (every session finished: it counts for the EMA ranking from now on), or reopen
    a finished one (with a reason: it leaves the EMA ranking and its exports are out of date)."""
    with transaction.atomic():
        locked = Tournament.objects.select_for_update().get(pk=tournament.pk)
        current = locked.status
        if to == DONE and current != DONE:  # what keeps it from finishing says more than the step
            reasons = tournament_blockers(tournament=locked)
            if reasons:
                raise Blocked(reasons)
        if to not in TOURNAMENT_STEPS[current]:
            if to == RUNNING:
                raise Blocked([_("The tournament is not finished.")])
            if current == DONE:
                raise Blocked([_("The tournament is already finished.")])
            raise Blocked(
                [_("The tournament cannot go from %(from)s to %(to)s.") % {"from": current, "to": to}]
            )
        if current == DONE:
            _record_reopening(locked, _("tournament"), _reason(reason), user, "tournament")
        _tournament_write(locked, to)
        changed_send(tournament_id=locked.pk, what={STATUS}, slug=locked.slug)
    tournament.status = locked.status
    tournament.settings = locked.settings
    return locked


# -- statuses as a document says -----------------------------------------------------------------------


def statuses_load(
    *,
    tournament: Tournament,
    sessions: Mapping[int, str],
    also: Iterable[str] = (),
    status: str | None = None,
) -> str:
    """The statuses of an imported or restored tournament, as its document records them: each session's
    (by id) and the tournament's: ``status`` when the document records it (a backup of a running
    tournament), else worked out from the sessions (all finished: finished; any started: running; else
    draft). The one path that sets statuses without stepping: the document was checked as a whole.
    The event names ``STATUS`` and ``also`` (what else the caller wrote: an import writes everything).

    A session's status goes with its seating: "planned" with a published seating is "seated" (its seating
    was shown: the next step is to play it), as publishing it live would have made it."""
    for session_status in sessions.values():
        if session_status not in SESSION_STEPS:
            raise RuleError(f"unknown session status {session_status!r}", "status")
    published = set(
        Session.objects.filter(pk__in=list(sessions), seating_published=True).values_list("pk", flat=True)
    )
    sessions = {
        pk: SEATED if value == PLANNED and pk in published else value for pk, value in sessions.items()
    }
    for session_id, session_status in sessions.items():
        Session.objects.filter(pk=session_id).update(status=session_status)
    values = list(sessions.values())
    if status is not None:
        if status not in TOURNAMENT_STEPS:
            raise RuleError(f"unknown tournament status {status!r}", "tournament.status")
        if status == DONE and not all(s == FINISHED for s in values):
            raise RuleError("a finished tournament has every session finished", "tournament.status")
    elif values and all(s == FINISHED for s in values):
        status = DONE
    elif any(s != PLANNED for s in values):
        status = RUNNING
    else:
        status = DRAFT
    _tournament_write(tournament, status)
    changed_send(
        tournament_id=tournament.pk, what={STATUS, *also}, sessions=list(sessions), slug=tournament.slug
    )
    return status
