"""Deleting sessions, tables, seats and registrations without losing a result.

What holds a record: a table's result (hands or totals entered, confirmed or not), the summary rows of a
confirmed table, penalties (active or cancelled: both are the tournament's record) and the tables' calls of a
referee (the tournament's history of how long tables waited). A record that is
held cannot be deleted: :class:`DeletionRefused` names what holds it (the API answers 409); a player
withdraws (``withdrawn_from``) and a penalty is cancelled instead. A deletion that is allowed touches the
standings, so they never show a deleted session as fresh.
"""

from __future__ import annotations

from django.db import transaction
from django.db.models import Q, QuerySet

from tournaments.lifecycle import tournament_open_check
from tournaments.models import Registration, Seat, Session, Table
from tournaments.signals import RESULTS, ROSTER, SCHEDULE, changed_send


class DeletionRefused(Exception):
    """The record is held by results or penalties; ``holders`` says which."""

    def __init__(self, what: str, holders: list[str]):
        self.what = what
        self.holders = holders
        super().__init__(f"{what} cannot be deleted: it holds {'; '.join(holders)}")


def _played(tables: QuerySet[Table]) -> list[int]:
    with_results = tables.filter(Q(result__hands__isnull=False) | Q(result__scores__isnull=False))
    return sorted(set(with_results.values_list("number", flat=True)))


def _tables_text(numbers: list[int]) -> str:
    return f"the results of table{'s' if len(numbers) > 1 else ''} {', '.join(map(str, numbers))}"


def _penalties_text(count: int) -> str:
    return f"{count} penalt{'ies' if count > 1 else 'y'}"


def _calls_text(count: int) -> str:
    return f"{count} call{'s' if count > 1 else ''} of a referee"


def session_holders(session: Session) -> list[str]:
    holders = []
    if played := _played(session.tables.all()):
        holders.append(_tables_text(played))
    if count := session.penalties.count():
        holders.append(_penalties_text(count))
    if count := session.referee_calls.count():
        holders.append(_calls_text(count))
    return holders


def table_holders(table: Table) -> list[str]:
    holders = []
    if _played(Table.objects.filter(pk=table.pk)):
        holders.append(_tables_text([table.number]))
    if count := table.penalties.count():
        holders.append(_penalties_text(count))
    if count := table.referee_calls.count():
        holders.append(_calls_text(count))
    return holders


def seating_holders(session: Session) -> list[str]:
    """What seating ``session`` again would delete with its tables: their results, the penalties recorded at
    them and their calls of a referee (the tournament's record)."""
    holders = []
    if played := _played(session.tables.all()):
        holders.append(_tables_text(played))
    if count := session.penalties.filter(table__isnull=False).count():
        holders.append(_penalties_text(count))
    if count := session.referee_calls.count():
        holders.append(_calls_text(count))
    return holders


def registration_holders(registration: Registration) -> list[str]:
    holders = []
    seats = registration.seats.select_related("table", "session").order_by("session__number")
    played = [s for s in seats if _played(Table.objects.filter(pk=s.table_id))]
    if played:
        holders.append(
            "results at " + ", ".join(f"session {s.session.number} table {s.table.number}" for s in played)
        )
    if count := registration.penalties.count():
        holders.append(_penalties_text(count))
    if (count := registration.summaries.count()) and not played:
        holders.append(f"{count} session result{'s' if count > 1 else ''}")
    return holders


@transaction.atomic
def session_delete(*, session: Session) -> None:
    session = Session.objects.select_for_update().get(pk=session.pk)
    tournament_open_check(tournament=session.tournament_id)
    if holders := session_holders(session):
        raise DeletionRefused(f"session {session.number}", holders)
    tournament_id = session.tournament_id
    session.delete()
    changed_send(tournament_id=tournament_id, what={SCHEDULE, RESULTS})


@transaction.atomic
def table_delete(*, table: Table) -> None:
    table = Table.objects.select_for_update().select_related("session").get(pk=table.pk)
    tournament_open_check(tournament=table.session.tournament_id)
    if holders := table_holders(table):
        raise DeletionRefused(f"table {table.number} of session {table.session.number}", holders)
    tournament_id = table.session.tournament_id
    session_id = table.session_id
    table.delete()
    changed_send(tournament_id=tournament_id, what={SCHEDULE, RESULTS}, sessions=[session_id])


@transaction.atomic
def seat_delete(*, seat: Seat) -> None:
    seat = Seat.objects.select_for_update().select_related("table__session").get(pk=seat.pk)
    tournament_open_check(tournament=seat.table.session.tournament_id)
    if _played(Table.objects.filter(pk=seat.table_id)):
        raise DeletionRefused(
            f"a seat of table {seat.table.number} of session {seat.table.session.number}",
            [_tables_text([seat.table.number])],
        )
    tournament_id = seat.table.session.tournament_id
    seat.delete()
    changed_send(
        tournament_id=tournament_id,
        what={SCHEDULE, RESULTS},
        sessions=[seat.session_id],
        tables=[seat.table_id],
    )


@transaction.atomic
def registration_delete(*, registration: Registration) -> None:
    registration = Registration.objects.select_for_update().get(pk=registration.pk)
    tournament_open_check(tournament=registration.tournament_id)
    if holders := registration_holders(registration):
        raise DeletionRefused(
            f"the registration of {registration.key}", [*holders, "withdraw the player instead"]
        )
    tournament_id = registration.tournament_id
    registration.seats.all().delete()
    registration.delete()
    changed_send(tournament_id=tournament_id, what={ROSTER})
