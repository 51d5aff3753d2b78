"""Reads of referee calls: a table's current call, a session's queue, a tournament's calls and their waits."""

from __future__ import annotations

from dataclasses import dataclass

from django.utils import timezone

from scoring.models import RefereeCall
from tournaments.models import Session, Table, Tournament
from tournaments.prepared import Prepared

# a resolved call stays on the table page for this long, so the table sees how it ended
RESOLVED_SHOWN_SECONDS = 15 * 60


# the table page's read of its call, compiled once per process (``tournaments.prepared``)
_LAST_CALL = Prepared(
    lambda table_id: (
        RefereeCall.objects.filter(table_id=table_id)
        .select_related("penalty")
        .order_by("-called_at", "-pk")[:1]
    ),
    table_id=int,
)


def table_call(*, table: Table) -> RefereeCall | None:
    """The table's call to show on its page: the open one, else the last one resolved a moment ago."""
    last = next(iter(_LAST_CALL(table_id=table.pk)), None)
    if last is None:
        return None
    resolved = last.status == RefereeCall.Status.RESOLVED
    if resolved and (timezone.now() - last.resolved_at).total_seconds() > RESOLVED_SHOWN_SECONDS:
        return None
    return last


def session_queue(*, session: Session) -> list[RefereeCall]:
    """The calls of a session waiting for a referee, open ones first, the longest waiting first."""
    calls = list(
        RefereeCall.objects.filter(session=session)
        .exclude(status=RefereeCall.Status.RESOLVED)
        .select_related("table", "session", "tournament")
    )
    calls.sort(key=lambda c: (c.status != RefereeCall.Status.OPEN, c.called_at, c.pk))
    return calls


def tournament_open_calls(*, tournament: Tournament) -> list[RefereeCall]:
    calls = list(
        RefereeCall.objects.filter(tournament=tournament)
        .exclude(status=RefereeCall.Status.RESOLVED)
        .select_related("table", "session", "tournament")
    )
    calls.sort(key=lambda c: (c.status != RefereeCall.Status.OPEN, c.called_at, c.pk))
    return calls


def recent_resolved(*, tournament: Tournament, limit: int = 5) -> list[RefereeCall]:
    """The calls resolved last, the latest first, with what resolved them (the director's dashboard)."""
    return list(
        RefereeCall.objects.filter(tournament=tournament, status=RefereeCall.Status.RESOLVED)
        .select_related("table", "session", "penalty")
        .order_by("-resolved_at", "-pk")[:limit]
    )


def tournament_calls(*, tournament: Tournament):
    return RefereeCall.objects.filter(tournament=tournament).select_related("table", "session", "penalty")


@dataclass(frozen=True)
class CallFigures:
    """How many calls a tournament had and how long tables waited (seconds, whole)."""

    calls: int
    resolved: int
    average_wait_acknowledged: int | None
    longest_wait_acknowledged: int | None
    average_wait_resolved: int | None
    longest_wait_resolved: int | None


def _seconds(pairs) -> tuple[int | None, int | None]:
    waits = [max(0, round((end - start).total_seconds())) for start, end in pairs if end is not None]
    if not waits:
        return None, None
    return round(sum(waits) / len(waits)), max(waits)


def call_figures(*, tournament: Tournament) -> CallFigures:
    rows = list(
        RefereeCall.objects.filter(tournament=tournament).values_list(
            "called_at", "acknowledged_at", "resolved_at", "status"
        )
    )
    ack_avg, ack_max = _seconds((c, a) for c, a, _r, _s in rows)
    res_avg, res_max = _seconds((c, r) for c, _a, r, _s in rows)
    return CallFigures(
        calls=len(rows),
        resolved=sum(1 for *_x, s in rows if s == RefereeCall.Status.RESOLVED),
        average_wait_acknowledged=ack_avg,
        longest_wait_acknowledged=ack_max,
        average_wait_resolved=res_avg,
        longest_wait_resolved=res_max,
    )
