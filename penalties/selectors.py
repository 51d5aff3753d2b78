"""Reads of penalties: a table's, a player's, a tournament's, and who may substitute in a session."""

from __future__ import annotations

from django.db.models import Q

from penalties.kinds import Replaced
from penalties.models import Penalty
from tournaments.models import Registration, Seat, Session, Table, Tournament
from tournaments.names import person_key


def _penalty_queryset():
    return Penalty.objects.select_related(
        "registration__player", "substitute__player", "session", "table", "recorded_by", "cancelled_by"
    )


def table_penalties(*, table: Table) -> list[Penalty]:
    """The penalties of the players of a table in its session (and those recorded at the table)."""
    registrations = Seat.objects.filter(table=table).values("registration_id")
    return list(
        _penalty_queryset()
        .filter(Q(table=table) | Q(session_id=table.session_id, registration_id__in=registrations))
        .order_by("sequence")
    )


def tournament_penalties(
    *, tournament: Tournament, session_number: int | None = None, kind: str | None = None
) -> list[Penalty]:
    qs = _penalty_queryset().filter(tournament=tournament)
    if session_number:
        qs = qs.filter(session__number=session_number)
    if kind:
        qs = qs.filter(kind=kind)
    return list(qs.order_by("-sequence"))


def player_penalties(*, registration: Registration) -> list[Penalty]:
    return list(_penalty_queryset().filter(registration=registration).order_by("sequence"))


def recent_penalties(*, tournament: Tournament, limit: int = 10) -> list[Penalty]:
    return list(_penalty_queryset().filter(tournament=tournament).order_by("-sequence")[:limit])


def substitutes_free(*, tournament: Tournament, session: Session) -> list[Registration]:
    """Registrations that may take a seat in ``session``: substitutes first, then players without a seat,
    leaving out whoever already sits or already substitutes in that session."""
    seated = Seat.objects.filter(session=session).values("registration_id")
    substituting = Penalty.objects.filter(
        session=session, kind=Replaced.value, cancelled_at__isnull=True
    ).values("substitute_id")
    qs = (
        Registration.objects.filter(tournament=tournament)
        .exclude(pk__in=seated)
        .exclude(pk__in=substituting)
        .select_related("player")
    )
    return sorted(qs, key=lambda r: (not r.is_substitute, person_key(r.player), r.pk))


def replacements(*, sessions) -> dict[tuple[int, int], Registration]:
    """Who plays a seat instead of the player seated there: (session id, replaced registration id) → the
    substitute, from the active ``replaced`` penalties of ``sessions`` (one query). The pages that show
    where people sit (venue screen, seating, tables) show the substitute there."""
    rows = Penalty.objects.filter(
        session__in=sessions, kind=Replaced.value, cancelled_at__isnull=True, substitute__isnull=False
    ).select_related("substitute__player")
    return {(p.session_id, p.registration_id): p.substitute for p in rows.order_by("sequence")}
