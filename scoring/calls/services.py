"""Writes of referee calls: a table calls, a referee acknowledges ("on my way"), a referee resolves.

A table has at most one call that is not resolved: calling again while one is open answers with the open
call. Every write checks the caller's role in the call's own tournament and sends one event after commit."""

from __future__ import annotations

import datetime as dt

from django.core.exceptions import PermissionDenied
from django.db import IntegrityError, transaction
from django.utils import timezone

from penalties.models import Penalty
from scoring.models import Hand, RefereeCall
from scoring.rules.base import RuleError
from scoring.rules.numbers import read_text
from scoring.rules.text import gettext_noop
from tournaments import lifecycle
from tournaments.models import Role, Table
from tournaments.permissions import Actor, user_roles
from tournaments.signals import ATTENTION, ENTRY, changed_send

NOTE_LIMIT = 500
REASONS = tuple(RefereeCall.Reason.values)


def _display_name(user) -> str:
    if user is None:
        return ""
    full = (user.get_full_name() or "").strip()
    return (full or user.get_username())[:150]


def _roles_check(actor: Actor, table: Table, allowed: set[str]) -> None:
    """The actor's role is checked again in the table's own tournament (nothing crosses tournaments)."""
    if actor.role == "table":
        if "table" not in allowed or actor.table_id != table.pk:
            raise PermissionDenied("Only this table's private link calls a referee for it.")
        return
    roles = user_roles(actor.user, table.session.tournament)
    if actor.role not in roles or actor.role not in allowed:
        raise PermissionDenied("You need a role in this tournament for this.")


def _sent(call: RefereeCall) -> None:
    changed_send(
        tournament_id=call.tournament_id,
        what={ENTRY, ATTENTION},
        sessions=[call.session_id],
        tables=[call.table_id],
        slug=call.tournament.slug,
    )


def open_call(*, table: Table) -> RefereeCall | None:
    return RefereeCall.objects.filter(table=table).exclude(status=RefereeCall.Status.RESOLVED).first()


def calls_closed(*, table: Table) -> bool:
    """A referee is no longer called from a table whose session or tournament is finished."""
    session = table.session
    return (
        session.status == session.Status.FINISHED
        or session.tournament.status == session.tournament.Status.FINISHED
    )


@transaction.atomic
def call_create(*, table: Table, actor: Actor, reason: str) -> tuple[RefereeCall, bool]:
    """The table calls a referee for ``reason``. Returns the call and whether it is new: while the table has
    a call that is not resolved, that call is the answer (a table cannot flood the queue)."""
    _roles_check(actor, table, {"table", Role.SCORER, Role.REFEREE, Role.DIRECTOR})
    if reason not in REASONS:
        raise RuleError(
            gettext_noop(
                "reason must be one of %(_choices)s, not %(value)s",
                _choices=", ".join(REASONS),
                value=str(reason)[:40],
            ),
            "reason",
        )
    # the table row is the lock: two phones of one table calling at once make one call
    table = (
        Table.objects.select_for_update(of=("self",)).select_related("session__tournament").get(pk=table.pk)
    )
    session, tournament = table.session, table.session.tournament
    if calls_closed(table=table):
        raise RuleError(
            gettext_noop("this session is finished: a referee is no longer called from here"), "status"
        )
    existing = open_call(table=table)
    if existing is not None:
        return existing, False
    call = RefereeCall(
        tournament=tournament,
        session=session,
        table=table,
        reason=reason,
        called_at=timezone.now(),
        called_by=actor.db_user,
    )
    call._history_user = actor.db_user
    call._history_table_link = table.number if actor.role == "table" else None
    try:
        with transaction.atomic():
            call.save()
    except IntegrityError:  # another transaction made the open call first
        return open_call(table=table), False
    _sent(call)
    return call, True


def _locked(call: RefereeCall) -> RefereeCall:
    return (
        RefereeCall.objects.select_for_update(of=("self",))
        .select_related("tournament", "session", "table")
        .get(pk=call.pk)
    )


@transaction.atomic
def call_acknowledge(*, call: RefereeCall, actor: Actor) -> RefereeCall:
    """A referee (or director) of the call's tournament is on the way; acknowledging again by another
    referee takes the call over."""
    call = _locked(call)
    _roles_check(actor, call.table, {Role.REFEREE, Role.DIRECTOR})
    lifecycle.tournament_open_check(tournament=call.tournament)
    if call.status == RefereeCall.Status.RESOLVED:
        raise RuleError(gettext_noop("this call is already resolved"), "status")
    if call.status == RefereeCall.Status.ACKNOWLEDGED and call.acknowledged_by_id == getattr(
        actor.db_user, "pk", None
    ):
        return call
    call.status = RefereeCall.Status.ACKNOWLEDGED
    call.acknowledged_at = timezone.now()
    call.acknowledged_by = actor.db_user
    call.acknowledged_name = _display_name(actor.db_user)
    call._history_user = actor.db_user
    call.save()
    _sent(call)
    return call


def linkable_penalties(*, call: RefereeCall):
    """Penalties recorded at the call's table since it was made, not cancelled: what a resolution may link."""
    return Penalty.objects.filter(
        tournament_id=call.tournament_id,
        table_id=call.table_id,
        recorded_at__gte=call.called_at,
        cancelled_at__isnull=True,
    ).order_by("recorded_at", "pk")


@transaction.atomic
def call_resolve(
    *,
    call: RefereeCall,
    actor: Actor,
    note: str = "",
    penalty_id: int | None = None,
    hand_number: int | None = None,
) -> RefereeCall:
    """A referee resolves the call with a note, a penalty recorded at the table since the call, or a hand
    of the table that was corrected. At least one of them is given."""
    call = _locked(call)
    _roles_check(actor, call.table, {Role.REFEREE, Role.DIRECTOR})
    lifecycle.tournament_open_check(tournament=call.tournament)
    if call.status == RefereeCall.Status.RESOLVED:
        raise RuleError(gettext_noop("this call is already resolved"), "status")
    note = read_text(note, field="note", limit=NOTE_LIMIT)
    penalty = None
    if penalty_id is not None:
        if isinstance(penalty_id, bool) or not isinstance(penalty_id, int):
            raise RuleError(gettext_noop("penalty must be the number of a penalty"), "penalty")
        penalty = linkable_penalties(call=call).filter(pk=penalty_id).first()
        if penalty is None:
            raise RuleError(
                gettext_noop("penalty must be one recorded at this table since the call, and not cancelled"),
                "penalty",
            )
    if hand_number is not None:
        if isinstance(hand_number, bool) or not isinstance(hand_number, int) or not 1 <= hand_number <= 999:
            raise RuleError(gettext_noop("hand must be a hand number from 1"), "hand_number")
        if not Hand.objects.filter(result__table_id=call.table_id, number=hand_number).exists():
            raise RuleError(
                gettext_noop("hand %(n)s is not a hand of this table", n=hand_number), "hand_number"
            )
    if not note and penalty is None and hand_number is None:
        raise RuleError(gettext_noop("resolving a call needs a note, a penalty or a corrected hand"), "note")
    now = timezone.now()
    if call.acknowledged_at is None:  # resolved on the spot: the referee was there
        call.acknowledged_at = now
        call.acknowledged_by = actor.db_user
        call.acknowledged_name = _display_name(actor.db_user)
    call.status = RefereeCall.Status.RESOLVED
    call.resolved_at = now
    call.resolved_by = actor.db_user
    call.resolved_name = _display_name(actor.db_user)
    call.note = note
    call.penalty = penalty
    call.hand_number = hand_number
    call._history_user = actor.db_user
    call.save()
    _sent(call)
    return call


@transaction.atomic
def call_load(
    *,
    table: Table,
    actor: Actor,
    reason: str,
    called_at: dt.datetime,
    acknowledged_at: dt.datetime | None = None,
    acknowledged_name: str = "",
    resolved_at: dt.datetime | None = None,
    resolved_name: str = "",
    note: str = "",
    penalty: Penalty | None = None,
    hand_number: int | None = None,
) -> RefereeCall:
    """A call kept in a tournament's archive, written back as it was (a director's import): its status
    follows its times; a table has at most one call not resolved. Faults name the call's field."""
    if actor.role != Role.DIRECTOR:  # an import is the director's (the importer made its user one)
        raise PermissionDenied("Only a director imports a tournament's calls.")
    if reason not in REASONS:
        raise RuleError(
            gettext_noop(
                "reason must be one of %(_choices)s, not %(value)s",
                _choices=", ".join(REASONS),
                value=str(reason)[:40],
            ),
            "reason",
        )
    if acknowledged_at is not None and acknowledged_at < called_at:
        raise RuleError(gettext_noop("acknowledged_at comes before called_at"), "acknowledged_at")
    if resolved_at is not None:
        if resolved_at < (acknowledged_at or called_at):
            raise RuleError(gettext_noop("resolved_at comes before the call was acknowledged"), "resolved_at")
        acknowledged_at = acknowledged_at or resolved_at
    names = {"acknowledged_by": acknowledged_name, "resolved_by": resolved_name}
    for field, value in names.items():
        names[field] = read_text(value, field=field, limit=150)
    note = read_text(note, field="note", limit=NOTE_LIMIT)
    if penalty is not None and (
        penalty.tournament_id != table.session.tournament_id or penalty.table_id != table.pk
    ):
        raise RuleError(gettext_noop("penalty must be one recorded at this call's table"), "penalty")
    if hand_number is not None and not Hand.objects.filter(result__table=table, number=hand_number).exists():
        raise RuleError(gettext_noop("hand %(n)s is not a hand of this table", n=hand_number), "hand")
    status = (
        RefereeCall.Status.RESOLVED
        if resolved_at is not None
        else RefereeCall.Status.ACKNOWLEDGED
        if acknowledged_at is not None
        else RefereeCall.Status.OPEN
    )
    if status != RefereeCall.Status.RESOLVED and open_call(table=table) is not None:
        raise RuleError(
            gettext_noop("table %(n)s already has a call that is not resolved", n=table.number), "resolved_at"
        )
    call = RefereeCall(
        tournament=table.session.tournament,
        session=table.session,
        table=table,
        reason=reason,
        status=status,
        called_at=called_at,
        acknowledged_at=acknowledged_at,
        acknowledged_name=names["acknowledged_by"],
        resolved_at=resolved_at,
        resolved_name=names["resolved_by"],
        note=note,
        penalty=penalty,
        hand_number=hand_number,
    )
    call._history_user = actor.db_user
    call._change_reason = "imported from a tournament archive"
    call.save()
    _sent(call)
    return call
