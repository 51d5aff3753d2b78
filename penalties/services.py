"""Recording, cancelling and appealing penalties; their effect on a table's result.

Amounts come from the tournament's ruleset: late arrival from the minutes late, the ladder step from the
player's fouls so far, false Hu transfers at the table. Referee decisions carry their own amount within
the ruleset's bounds and need a reason.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext as _

from penalties import tables
from penalties.kinds import (
    KINDS,
    Draft,
    Foul,
    PenaltyKind,
    Tally,
    kind_of,
    small_check,
    table_of,
    unknown_kind,
)
from penalties.models import Penalty, Scope, Variant
from scoring.rules.base import GameResult, RuleError, Ruleset
from scoring.rules.numbers import read_text
from scoring.rules.text import gettext_noop
from tournaments.lifecycle import results_open_check
from tournaments.models import Registration, Session, Table, Tournament
from tournaments.permissions import Actor
from tournaments.signals import RESULTS, changed_send


@dataclass(frozen=True)
class TableEffects:
    """What the active penalties of a session do to one table."""

    transfers: tuple[Fraction, ...]
    deductions: tuple[Fraction, ...]
    chombos: tuple[int, ...]
    excluded: frozenset[int]
    credited: list[Registration]  # who is credited with each seat (a substitute after a replacement)
    substitutes: frozenset[int] = frozenset()  # the seats a substitute plays


@transaction.atomic
def penalty_record(
    *,
    tournament: Tournament,
    registration: Registration,
    kind: str,
    actor: Actor,
    session: Session | None = None,
    table: Table | None = None,
    hand_number: int | None = None,
    variant: str = "",
    minutes_late: int | None = None,
    persists: bool = False,
    scope: str = "",
    substitute: Registration | None = None,
    during: bool = False,
    reason: str = "",
    points: Any = None,
    table_points: Any = None,
) -> Penalty:
    """Record a penalty: the common checks here, the kind's own checks and its amount from the kind, which
    asks the ruleset (referee decisions and table points deductions carry their own)."""
    if not actor.is_referee:
        raise PermissionDenied(_("Only a referee or a director records penalties."))
    locked = Tournament.objects.select_for_update().get(pk=tournament.pk)  # serialise the recording order
    penalty_kind = _common_check(
        tournament=locked, registration=registration, kind=kind, session=session, variant=variant, scope=scope
    )
    rules = tournament.get_rules()
    penalty = Penalty(
        tournament=tournament,
        registration=registration,
        session=session,
        table=table,
        hand_number=hand_number,
        kind=kind,
        variant=variant or "",
        minutes_late=minutes_late,
        persists=bool(persists),
        scope=scope or "",
        substitute=substitute,
        during=bool(during),
        reason=read_text(reason, field="reason"),
        recorded_by=actor.db_user,
    )
    _place_check(penalty, penalty_kind, rules)
    penalty_kind.check(Draft(penalty=penalty, rules=rules, points=points, table_points=table_points))
    penalty.sequence = (
        Penalty.objects.filter(tournament=tournament).aggregate(m=Max("sequence"))["m"] or 0
    ) + 1
    penalty._history_user = actor.db_user
    penalty._change_reason = "recorded"
    penalty.save()
    if penalty_kind.ladder:
        fouls_recount(registration=registration, rules=rules, actor=actor)
    _after_change(penalty)
    return penalty


def _common_check(
    *,
    tournament: Tournament,
    registration: Registration,
    kind: str,
    session: Session | None,
    variant: str,
    scope: str,
) -> PenaltyKind:
    """What every kind needs: the player and session of this tournament, results still open, a known kind,
    variant and scope."""
    if registration.tournament_id != tournament.pk:
        raise RuleError(
            gettext_noop("%(_key)s is not registered in this tournament", _key=str(registration.key)),
            "player",
        )
    if kind not in KINDS:
        raise unknown_kind(kind)
    if session is not None and session.tournament_id != tournament.pk:
        raise RuleError(gettext_noop("that session belongs to another tournament"), "session")
    results_open_check(session=session, tournament=tournament)
    if variant and variant not in Variant.values:
        raise RuleError(
            gettext_noop(
                "unknown variant %(_variant)s (variants: %(_variants)s)",
                _variant=repr(variant),
                _variants=", ".join(Variant.values),
            ),
            "variant",
        )
    if scope and scope not in Scope.values:
        raise RuleError(gettext_noop("a disqualification is for the session or for the tournament"), "scope")
    return kind_of(kind)


def _place_check(penalty: Penalty, penalty_kind: PenaltyKind, rules: Ruleset) -> None:
    """The hand, the session and the table: a hand of the player's table, a session the kind needs, the
    table where the player sits."""
    registration, session, table, hand_number = (
        penalty.registration,
        penalty.session,
        penalty.table,
        penalty.hand_number,
    )
    if hand_number is not None:
        small_check(hand_number, "hand", gettext_noop("the hand number"))
        if hand_number < 1:
            raise RuleError(
                gettext_noop("the hand number must be at least 1, not %(hand)s", hand=hand_number), "hand"
            )
        played = (table or table_of(registration, session)) if session is not None else None
        if played is not None:
            hand_number_check(table=played, hand_number=hand_number, rules=rules)
    if penalty_kind.session_needed(penalty.scope) and session is None:
        raise RuleError(
            gettext_noop("a %(_kind)s penalty needs the session", _kind=penalty_kind.label.lower()), "session"
        )
    if table is not None:
        if session is None or table.session_id != session.pk:
            raise RuleError(
                gettext_noop(
                    "table %(table)s is not in session %(session)s",
                    table=table.number,
                    session=session.number,
                )
                if session is not None
                else gettext_noop("table %(table)s is not in the penalty's session", table=table.number),
                "table",
            )
        played = table_of(registration, session)
        if played is None or played.pk != table.pk:
            raise RuleError(
                gettext_noop(
                    "%(_key)s is not seated at table %(table)s",
                    _key=str(registration.key),
                    table=table.number,
                ),
                "player",
            )


def hand_number_check(*, table: Table, hand_number: int, rules: Ruleset) -> None:
    """The hand of a penalty at ``table``, as ARCHIVE.md allows it, for live entry and import alike: a
    recorded hand or the hand in play (one more than those recorded); on a table entered as game totals,
    any hand up to the ruleset's most hands in a session."""
    entry = tables.entry(table=table)  # the results layer sits above this one: it answers
    where = {"table": table.number, "session": table.session.number}
    if entry.mode == "totals" and entry.totals:
        limit = rules.session_hand_limit()
        if hand_number > limit:
            raise RuleError(
                gettext_noop(
                    "table %(table)s of session %(session)s is entered as game totals: its hands are 1 to "
                    "%(most)s, not %(hand)s",
                    most=limit,
                    hand=hand_number,
                    **where,
                ),
                "hand",
            )
        return
    if hand_number > entry.hands + 1:
        raise RuleError(
            gettext_noop(
                "table %(table)s of session %(session)s has %(recorded)s hands recorded: the hand is one of "
                "them or the hand in play (%(next)s), not %(hand)s",
                recorded=entry.hands,
                next=entry.hands + 1,
                hand=hand_number,
                **where,
            ),
            "hand",
        )


@transaction.atomic
def penalty_cancel(*, penalty: Penalty, actor: Actor, reason: str) -> Penalty:
    if not actor.is_referee:
        raise PermissionDenied(_("Only a referee or a director cancels penalties."))
    reason = read_text(reason, field="reason")
    if not reason:
        raise RuleError(gettext_noop("cancelling a penalty needs a reason"), "reason")
    penalty = (
        Penalty.objects.select_for_update(of=("self",))
        .select_related("session", "tournament")
        .get(pk=penalty.pk)
    )
    results_open_check(session=penalty.session, tournament=penalty.tournament)
    if penalty.cancelled_at is not None:
        raise RuleError(gettext_noop("this penalty is already cancelled"), "status")
    penalty.cancelled_at = timezone.now()
    penalty.cancelled_by = actor.db_user
    penalty.cancel_reason = reason.strip()
    penalty._history_user = actor.db_user
    penalty._change_reason = f"cancelled: {reason.strip()}"
    penalty.save()
    if kind_of(penalty.kind).ladder:
        fouls_recount(registration=penalty.registration, rules=penalty.tournament.get_rules(), actor=actor)
    _after_change(penalty)
    return penalty


@transaction.atomic
def penalty_appeal(*, penalty: Penalty, actor: Actor, appeal: str, decision: str = "") -> Penalty:
    """Record an appeal against a penalty and, when heard, its decision (MERS 2.1)."""
    if not actor.is_referee:
        raise PermissionDenied(_("Only a referee or a director records appeals."))
    appeal, decision = read_text(appeal, field="appeal"), read_text(decision, field="decision")
    if not appeal:
        raise RuleError(gettext_noop("describe the appeal"), "appeal")
    penalty = (
        Penalty.objects.select_for_update(of=("self",))
        .select_related("session", "tournament")
        .get(pk=penalty.pk)
    )
    results_open_check(session=penalty.session, tournament=penalty.tournament)
    penalty.appeal = appeal.strip()
    if decision.strip():
        penalty.appeal_decision = decision.strip()
        penalty.appeal_decided_at = timezone.now()
        penalty.appeal_decided_by = actor.db_user
    penalty._history_user = actor.db_user
    penalty._change_reason = "appeal decided" if decision.strip() else "appeal recorded"
    penalty.save()
    changed_send(
        tournament_id=penalty.tournament_id,
        what={RESULTS},
        sessions=[penalty.session_id] if penalty.session_id else [],
    )
    return penalty


def fouls_recount(*, registration: Registration, rules: Ruleset, actor: Actor | None = None) -> None:
    """Re-derive the ladder step of every active foul of a player, in recorded order (MERS 3.1, 3.6).

    A foul whose amount changes (an earlier one was cancelled, or one was recorded late for an earlier
    session) is saved with its own history entry.
    """
    fouls = list(
        Penalty.objects.filter(registration=registration, kind=Foul.value, cancelled_at__isnull=True)
        .select_related("session")
        .order_by("sequence")
    )
    amounts = Foul.amounts([(f.session.number, f.persists) for f in fouls], rules)
    for foul, amount in zip(fouls, amounts, strict=True):
        if foul.points != amount:
            foul.points = amount
            foul._history_user = actor.db_user if actor is not None else None
            foul._change_reason = "foul ladder recounted"
            foul.save(update_fields=["points"])
            _after_change(foul)


def _after_change(penalty: Penalty) -> None:
    """Rewrite the confirmed tables the penalty touches, and queue the standings recompute."""
    touched: list[int] = []
    if penalty.session_id is not None:
        touched = tables.touched(
            session_id=penalty.session_id, registration_id=penalty.registration_id, table_id=penalty.table_id
        )
    changed_send(
        tournament_id=penalty.tournament_id,
        what={RESULTS},
        sessions=[penalty.session_id] if penalty.session_id else [],
        tables=touched,
        rewrite=touched,
    )


def active_penalties(*, session: Session) -> list[Penalty]:
    return list(
        Penalty.objects.filter(session=session, cancelled_at__isnull=True)
        .select_related("registration__player", "substitute__player")
        .order_by("sequence")
    )


def table_penalty_effects(
    *,
    table: Table,
    registrations: Sequence[Registration],
    rules: Ruleset,
    game: GameResult | None = None,
    penalties: Sequence[Penalty] | None = None,
    mode: str | None = None,
) -> TableEffects:
    """Transfers, offender-only deductions, chombos, exclusions and credited players of one table.

    ``game`` (the table's replayed game) tells who was East at a false Hu's hand, which the classical
    rules need (§71: East pays and receives double); without hands East is taken to be the first seat.
    ``penalties`` (the session's active penalties in order, as ``active_penalties`` reads them) and
    ``mode`` (the result's) when the caller has read them.
    """
    if mode is None:
        mode = tables.entry(table=table).mode or "hands"
    if penalties is None:
        penalties = active_penalties(session=table.session)
    tally = Tally(
        table=table,
        rules=rules,
        game=game,
        mode=mode,
        seat_of={r.pk: position for position, r in enumerate(registrations)},
        credited=list(registrations),
        # a substitute seated by the draw plays from the start (a player absent at check-in)
        substitutes={position for position, r in enumerate(registrations) if r.is_substitute},
    )
    for p in penalties:  # substitutions first: later penalties may concern the substitute
        kind_of(p.kind).seat_taken(p, tally)
    for p in penalties:
        kind = kind_of(p.kind)
        position = tally.seat_of.get(p.registration_id)
        if position is None:
            position = kind.seat_left(p, tally)
        if position is not None:
            kind.on_table(p, position, tally)
    return TableEffects(
        transfers=tuple(tally.transfers),
        deductions=tuple(tally.deductions),
        chombos=tuple(tally.chombos),
        excluded=frozenset(tally.excluded),
        credited=tally.credited,
        substitutes=frozenset(tally.substitutes),
    )


def penalty_transfers(*, penalty: Penalty, rules: Ruleset) -> tuple[Fraction, Fraction] | None:
    """What a false Hu moves at the table: what the offender pays in all and what each other player gets
    (MCR 2.9.2: 30 and 10, or 60 and 20). None for the other kinds."""
    return kind_of(penalty.kind).transfers(penalty, rules)
