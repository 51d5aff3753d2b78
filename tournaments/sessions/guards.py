"""What keeps a session from a step of its life that only its tables' results and its penalties know:
finishing while a table is not confirmed or a player is out whom nobody replaced; going back from playing
to seated while it has results or penalties. The lifecycle asks these guards, whoever moves the session
(:func:`tournaments.lifecycle.session_guard_add`, registered when the apps are ready). A seated session
going back to planned is not guarded here: the seating's unpublish has its own refusal, and the console's
reopen asks :func:`step_back_blockers` itself."""

from __future__ import annotations

from collections.abc import Iterable

from django.utils.translation import gettext as _

from penalties.kinds import Replaced
from penalties.models import Penalty
from scoring.models import TableResult
from tournaments.models import Session, Table

SEATED = Session.Status.SEATED
PLAYING = Session.Status.PLAYING
FINISHED = Session.Status.FINISHED


def out_without_substitute(session: Session, tables: Iterable[Table] | None = None) -> list[str]:
    """Seated players put out of the session (late past the limit) whom no substitute replaced."""
    penalties = Penalty.objects.filter(session=session, cancelled_at__isnull=True)
    replaced = set(penalties.filter(kind=Replaced.value).values_list("registration_id", flat=True))
    out = (
        penalties.filter(disqualifies=True)
        .exclude(registration_id__in=replaced)
        .select_related("registration__player")
    )
    if tables is not None:
        seated = set(session.seats.filter(table__in=list(tables)).values_list("registration_id", flat=True))
        out = [p for p in out if p.registration_id in seated]
    return [
        _("%(name)s is out of session %(n)s and nobody replaced them.")
        % {"name": p.registration.player.full_name, "n": session.number}
        for p in out
    ]


def finish_blockers(session: Session) -> list[str]:
    """What keeps ``session`` from finishing."""
    tables = list(session.tables.order_by("number"))
    if not tables:
        return [_("Session %(n)s is not seated.") % {"n": session.number}]
    confirmed = set(
        TableResult.objects.filter(table__in=tables, status=TableResult.Status.CONFIRMED).values_list(
            "table_id", flat=True
        )
    )
    open_tables = [str(t.number) for t in tables if t.pk not in confirmed]
    reasons = []
    if open_tables:
        reasons.append(_("Tables not confirmed: %(list)s.") % {"list": ", ".join(open_tables)})
    reasons += out_without_substitute(session)
    return reasons


def step_back_blockers(session: Session) -> list[str]:
    """What keeps ``session`` in play when it would go back a step: its results or penalties."""
    if (
        TableResult.objects.filter(table__session=session).exists()
        or Penalty.objects.filter(session=session).exists()
    ):
        return [_("Session %(n)s has results or penalties: it stays in play.") % {"n": session.number}]
    return []


def session_guard(session: Session, current: str, to: str) -> list[str]:
    """The lifecycle's question: what keeps ``session`` from going ``current`` → ``to``."""
    if current == PLAYING and to == FINISHED:
        return finish_blockers(session)
    if current == PLAYING and to == SEATED:
        return step_back_blockers(session)
    return []
