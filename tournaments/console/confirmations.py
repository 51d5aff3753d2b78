"""What a director's one-tap action will do, in numbers, for the confirmation step shown before it (finish the
tournament, remove the last session, start a session). Read only: the actions themselves stay in services."""

from __future__ import annotations

from dataclasses import dataclass, field

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from scoring.models import TableResult
from tournaments.models import Registration, Seat, Session, Table, Tournament


@dataclass
class Confirmation:
    title: str
    lines: list[str]
    button: str
    blockers: list[str] = field(default_factory=list)


def _tables_confirmed(*, tournament: Tournament) -> tuple[int, int]:

    tables = Table.objects.filter(session__tournament=tournament).count()
    confirmed = TableResult.objects.filter(
        table__session__tournament=tournament, status=TableResult.Status.CONFIRMED
    ).count()
    return tables, confirmed


def tournament_finish(*, tournament: Tournament, blockers: list[str]) -> Confirmation:
    sessions = Session.objects.filter(tournament=tournament)
    finished = sessions.filter(status=Session.Status.FINISHED).count()
    players = Registration.objects.filter(tournament=tournament, is_substitute=False).count()
    tables, confirmed = _tables_confirmed(tournament=tournament)
    return Confirmation(
        title=_("Finish the tournament?"),
        lines=[
            _("%(finished)s of %(sessions)s sessions finished; %(confirmed)s of %(tables)s tables confirmed.")
            % {"finished": finished, "sessions": sessions.count(), "confirmed": confirmed, "tables": tables},
            ngettext(
                "The final standings of %(n)s player are fixed and the tournament counts for the EMA ranking.",
                "The final standings of %(n)s players are fixed and the tournament counts for the EMA ranking.",
                players,
            )
            % {"n": players},
            _("You can reopen it later; it then leaves the EMA ranking until you finish it again."),
        ],
        button=_("Yes, finish the tournament"),
        blockers=blockers,
    )


def session_remove(*, tournament: Tournament) -> Confirmation:
    sessions = Session.objects.filter(tournament=tournament)
    count = sessions.count()
    last = sessions.order_by("-number").first()
    if last is None:
        return Confirmation(_("Remove the last session?"), [], "", [_("This tournament has no sessions.")])
    blockers = []
    if last.status != Session.Status.PLANNED or last.tables.exists():
        blockers = [_("Session %(n)s is seated: it cannot be removed.") % {"n": last.number}]
    return Confirmation(
        title=_("Remove session %(n)s?") % {"n": last.number},
        lines=[
            ngettext(
                "The tournament goes from %(before)s session to %(after)s.",
                "The tournament goes from %(before)s sessions to %(after)s.",
                count,
            )
            % {"before": count, "after": count - 1},
            _("Session %(n)s has no seating yet: nothing played is lost.") % {"n": last.number},
        ],
        button=_("Yes, remove session %(n)s") % {"n": last.number},
        blockers=blockers,
    )


def session_start(*, session: Session) -> Confirmation:
    tables = session.tables.count()
    players = Seat.objects.filter(session=session).count()
    earlier = (
        Session.objects.filter(tournament=session.tournament_id, number__lt=session.number)
        .exclude(status=Session.Status.FINISHED)
        .order_by("number")
        .first()
    )
    blockers = [_("Finish session %(n)s first.") % {"n": earlier.number}] if earlier else []
    return Confirmation(
        title=_("Start session %(n)s?") % {"n": session.number},
        lines=[
            ngettext(
                "%(tables)s table, %(players)s players seated.",
                "%(tables)s tables, %(players)s players seated.",
                tables,
            )
            % {"tables": tables, "players": players},
            _("From then on the session is being played; you finish it once its tables are confirmed."),
        ],
        button=_("Yes, start session %(n)s") % {"n": session.number},
        blockers=blockers,
    )
