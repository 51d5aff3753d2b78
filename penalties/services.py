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

from django.core.exceptions import ObjectDoesNotExist, PermissionDenied
from django.db import transaction
from django.db.models import Max, Q
from django.utils import timezone

from penalties.models import Kind, Penalty, Scope, Variant
from scoring.rules.base import GameResult, RuleError, Ruleset
from scoring.rules.common import dealer_of_hand
from scoring.rules.numbers import POINTS_LIMIT, read_number, read_text
from tournaments.lifecycle import results_open_check
from tournaments.models import Registration, Seat, Session, Table, Tournament
from tournaments.permissions import Actor
from tournaments.signals import RESULTS, changed_send

OFFENDER_ONLY = (Kind.LATE_ARRIVAL, Kind.FOUL, Kind.FORGOT_WINNING_TILE, Kind.REFEREE)
SUBSTITUTION_REASONS = ("late_arrival", "illness", "disqualified")
SMALL_MAX = 32767  # the largest hand number or minutes late the columns hold


@dataclass(frozen=True)
class TableEffects:
    """What the active penalties of a session do to one table."""

    transfers: tuple[Fraction, ...]
    deductions: tuple[Fraction, ...]
    chombos: tuple[int, ...]
    excluded: frozenset[int]
    credited: list[Registration]  # who is credited with each seat (a substitute after a replacement)
    substitutes: frozenset[int] = frozenset()  # the seats a substitute plays


def _seat_of(registration: Registration, session: Session) -> Seat | None:
    return Seat.objects.filter(registration=registration, session=session).select_related("table").first()


def _replacement_by(substitute: Registration, session: Session) -> Penalty | None:
    """The active substitution in which ``substitute`` took a seat in ``session``."""
    return (
        Penalty.objects.filter(
            substitute=substitute, session=session, kind=Kind.REPLACED, cancelled_at__isnull=True
        )
        .select_related("registration")
        .first()
    )


def _small(value: Any, field: str, what: str) -> None:
    if value is not None and (isinstance(value, bool) or not isinstance(value, int) or value > SMALL_MAX):
        raise RuleError(f"{what} must be a whole number up to {SMALL_MAX}, not {value!r}", field)


def _need(value: Any, field: str, message: str) -> None:
    if value in (None, ""):
        raise RuleError(message, field)


def _rules_call(fn, *args, **kwargs):
    try:
        return fn(*args, **kwargs)
    except RuleError as exc:
        raise RuleError(exc.message, exc.path or "kind") from exc


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
    """Record a penalty; the amount is computed by the ruleset (referee decisions carry their own)."""
    if not actor.is_referee:
        raise PermissionDenied("Only a referee or a director records penalties.")
    locked = Tournament.objects.select_for_update().get(pk=tournament.pk)  # serialise the recording order
    if registration.tournament_id != tournament.pk:
        raise RuleError(f"{registration.key} is not registered in this tournament", "player")
    if kind not in Kind.values:
        raise RuleError(f"unknown penalty kind {kind!r} (kinds: {', '.join(Kind.values)})", "kind")
    if session is not None and session.tournament_id != tournament.pk:
        raise RuleError("that session belongs to another tournament", "session")
    results_open_check(session=session, tournament=locked)
    if variant and variant not in Variant.values:
        raise RuleError(f"unknown variant {variant!r} (variants: {', '.join(Variant.values)})", "variant")
    if scope and scope not in Scope.values:
        raise RuleError("a disqualification is for the session or for the tournament", "scope")
    if hand_number is not None:
        _small(hand_number, "hand", "the hand number")
        if hand_number < 1:
            raise RuleError(f"the hand number must be at least 1, not {hand_number}", "hand")
    rules = tournament.get_rules()
    if hand_number is not None and session is not None:
        played = table or _table_of(registration, session)
        if played is not None:
            hand_number_check(table=played, hand_number=hand_number, rules=rules)
    reason = read_text(reason, field="reason")
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
        reason=reason,
        recorded_by=actor.db_user,
    )
    if kind != Kind.DISQUALIFIED or scope != Scope.TOURNAMENT:
        _need(session, "session", f"a {Kind(kind).label.lower()} penalty needs the session")
    if table is not None:
        if session is None or table.session_id != session.pk:
            where = f"session {session.number}" if session is not None else "the penalty's session"
            raise RuleError(f"table {table.number} is not in {where}", "table")
        played = _table_of(registration, session)
        if played is None or played.pk != table.pk:
            raise RuleError(f"{registration.key} is not seated at table {table.number}", "player")

    if kind == Kind.LATE_ARRIVAL:
        _need(minutes_late, "minutes_late", "a late arrival needs the minutes late")
        late = _rules_call(rules.late_arrival, minutes_late)
        _small(minutes_late, "minutes_late", "minutes late")
        penalty.points = late.points
        penalty.disqualifies = late.disqualified
    elif kind == Kind.FALSE_HU:
        penalty.table = table or _table_of(registration, session)
        if penalty.table is None:
            raise RuleError(f"{registration.key} has no seat in session {session.number}", "player")
        if rules.false_hu_variants and variant not in ("below_minimum", "invalid_hand"):
            raise RuleError(
                "a false Hu is either below_minimum (pays 10 to each) or invalid_hand (pays 20 to each), MERS 2.9.2",
                "variant",
            )
        _rules_call(rules.false_hu, 0, variant)  # the ruleset defines it
    elif kind == Kind.CHOMBO:
        penalty.points = _rules_call(rules.chombo_points)
        chombo_table = table or _table_of(registration, session)
        result = getattr(chombo_table, "result", None) if chombo_table else None
        if result is not None and result.mode == "hands" and result.hands.exists():
            raise RuleError(
                f"table {chombo_table.number} is entered hand by hand: record the chombo as a hand", "kind"
            )
    elif kind == Kind.FOUL:
        _rules_call(rules.foul, 1)
        earlier = Penalty.objects.filter(
            registration=registration, kind=Kind.FOUL, cancelled_at__isnull=True
        ).order_by("sequence")
        fouls = [(f.session.number, f.persists) for f in earlier.select_related("session")]
        penalty.points = _foul_amounts([*fouls, (session.number, bool(persists))], rules)[-1]
    elif kind == Kind.FORGOT_WINNING_TILE:
        penalty.points = _rules_call(rules.forgot_winning_tile)
    elif kind == Kind.REFEREE:
        if not reason:
            raise RuleError("a referee decision needs a reason", "reason")
        _need(points, "points", "a referee decision needs its points")
        low, high = rules.referee_bounds()
        value = Fraction(read_number(points, field="points", limit=POINTS_LIMIT))
        if not low <= value <= high:
            raise RuleError(f"points {points} is outside the ruleset's bounds {low} to {high}", "points")
        minimum = rules.referee_minimum()
        if minimum and value and -value < minimum:
            raise RuleError(
                f"points {points} is less than the ruleset's smallest deduction of {minimum} points "
                "(0 records a warning)",
                "points",
            )
        step = rules.referee_step()
        if step and value % step:
            raise RuleError(
                f"points {points} is not a multiple of the ruleset's step of {step} points", "points"
            )
        penalty.points = value
    elif kind == Kind.DISQUALIFIED:
        if scope not in Scope.values:
            raise RuleError("a disqualification is for the session or for the tournament", "scope")
        if scope == Scope.TOURNAMENT:
            penalty.session = None
    elif kind == Kind.REPLACED:
        _need(substitute, "by", "a substitution needs the substitute")
        if substitute.tournament_id != tournament.pk:
            raise RuleError(f"{substitute.key} is not registered in this tournament", "by")
        if substitute.pk == registration.pk:
            raise RuleError("a player cannot replace themself", "by")
        if _seat_of(substitute, session) is not None:
            raise RuleError(f"{substitute.key} already plays in session {session.number}", "by")
        already = _replacement_by(substitute, session)
        if already is not None:
            raise RuleError(
                f"{substitute.key} already replaces {already.registration.key} in session {session.number}",
                "by",
            )
        if reason not in SUBSTITUTION_REASONS:
            raise RuleError(
                f"the reason of a substitution is one of {', '.join(SUBSTITUTION_REASONS)}", "reason"
            )
        if _seat_of(registration, session) is None:
            raise RuleError(f"{registration.key} has no seat in session {session.number}", "player")
        _rules_call(rules.substitution_exclusions, 0, reason, during=bool(during))
        if Penalty.objects.filter(
            registration=registration, session=session, kind=Kind.REPLACED, cancelled_at__isnull=True
        ).exists():
            raise RuleError(f"{registration.key} is already replaced in session {session.number}", "player")
    elif kind == Kind.TABLE_POINTS:
        if not rules.table_points_deductions:
            raise RuleError("table points deductions exist only under MCR", "kind")
        _need(
            table_points if table_points is not None else points, "points", "give the table points to deduct"
        )
        raw = table_points if table_points is not None else points
        value = Fraction(read_number(raw, field="points", limit=POINTS_LIMIT))
        if value > 0:
            raise RuleError("a table points deduction is 0 or negative", "points")
        penalty.table_points = value

    penalty.sequence = (
        Penalty.objects.filter(tournament=tournament).aggregate(m=Max("sequence"))["m"] or 0
    ) + 1
    penalty._history_user = actor.db_user
    penalty._change_reason = "recorded"
    penalty.save()
    if kind == Kind.FOUL:
        fouls_recount(registration=registration, rules=rules, actor=actor)
    _after_change(penalty)
    return penalty


def hand_number_check(*, table: Table, hand_number: int, rules: Ruleset) -> None:
    """The hand of a penalty at ``table``, as ARCHIVE.md allows it, for live entry and import alike: a
    recorded hand or the hand in play (one more than those recorded); on a table entered as game totals,
    any hand up to the ruleset's most hands in a session."""
    try:
        result = table.result  # the results layer sits above this one: read through the relation
    except ObjectDoesNotExist:
        result = None
    where = f"table {table.number} of session {table.session.number}"
    if result is not None and result.mode == "totals" and result.scores is not None:
        limit = rules.session_hand_limit()
        if hand_number > limit:
            raise RuleError(
                f"{where} is entered as game totals: its hands are 1 to {limit}, not {hand_number}", "hand"
            )
        return
    recorded = result.hands.count() if result is not None else 0
    if hand_number > recorded + 1:
        raise RuleError(
            f"{where} has {recorded} hands recorded: the hand is one of them or the hand in play "
            f"({recorded + 1}), not {hand_number}",
            "hand",
        )


def _table_of(registration: Registration, session: Session | None) -> Table | None:
    """The table where ``registration`` sits in ``session``, or where it substitutes for a seated player."""
    if session is None:
        return None
    seat = _seat_of(registration, session)
    if seat is None:
        replacement = _replacement_by(registration, session)
        seat = _seat_of(replacement.registration, session) if replacement is not None else None
    return seat.table if seat else None


@transaction.atomic
def penalty_cancel(*, penalty: Penalty, actor: Actor, reason: str) -> Penalty:
    if not actor.is_referee:
        raise PermissionDenied("Only a referee or a director cancels penalties.")
    reason = read_text(reason, field="reason")
    if not reason:
        raise RuleError("cancelling a penalty needs a reason", "reason")
    penalty = (
        Penalty.objects.select_for_update(of=("self",))
        .select_related("session", "tournament")
        .get(pk=penalty.pk)
    )
    results_open_check(session=penalty.session, tournament=penalty.tournament)
    if penalty.cancelled_at is not None:
        raise RuleError("this penalty is already cancelled", "status")
    penalty.cancelled_at = timezone.now()
    penalty.cancelled_by = actor.db_user
    penalty.cancel_reason = reason.strip()
    penalty._history_user = actor.db_user
    penalty._change_reason = f"cancelled: {reason.strip()}"
    penalty.save()
    if penalty.kind == Kind.FOUL:
        fouls_recount(registration=penalty.registration, rules=penalty.tournament.get_rules(), actor=actor)
    _after_change(penalty)
    return penalty


@transaction.atomic
def penalty_appeal(*, penalty: Penalty, actor: Actor, appeal: str, decision: str = "") -> Penalty:
    """Record an appeal against a penalty and, when heard, its decision (MERS 2.1)."""
    if not actor.is_referee:
        raise PermissionDenied("Only a referee or a director records appeals.")
    appeal, decision = read_text(appeal, field="appeal"), read_text(decision, field="decision")
    if not appeal:
        raise RuleError("describe the appeal", "appeal")
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


def _foul_amounts(fouls: Sequence[tuple[int, bool]], rules: Ruleset) -> list[int]:
    """The ladder amount of each foul, given as (session number, persists) in recorded order."""
    charges = rules.foul_charges([{"session": s, "persists": p} for s, p in fouls])
    if charges is not None:
        return [c.points for c in charges]
    amounts, count, last, carries = [], 0, None, False
    for number, persists in fouls:
        if number != last and not carries:
            count = 0
        last = number
        count += 1
        amounts.append(_rules_call(rules.foul, count))
        carries = carries or persists
    return amounts


def fouls_recount(*, registration: Registration, rules: Ruleset, actor: Actor | None = None) -> None:
    """Re-derive the ladder step of every active foul of a player, in recorded order (MERS 3.1, 3.6).

    A foul whose amount changes (an earlier one was cancelled, or one was recorded late for an earlier
    session) is saved with its own history entry.
    """
    fouls = list(
        Penalty.objects.filter(registration=registration, kind=Kind.FOUL, cancelled_at__isnull=True)
        .select_related("session")
        .order_by("sequence")
    )
    amounts = _foul_amounts([(f.session.number, f.persists) for f in fouls], rules)
    for foul, amount in zip(fouls, amounts, strict=True):
        if foul.points != amount:
            foul.points = amount
            foul._history_user = actor.db_user if actor is not None else None
            foul._change_reason = "foul ladder recounted"
            foul.save(update_fields=["points"])
            _after_change(foul)


def _after_change(penalty: Penalty) -> None:
    """Rewrite the confirmed tables the penalty touches, and queue the standings recompute."""
    tables: list[int] = []
    if penalty.session_id is not None:
        tables = list(
            Table.objects.filter(session_id=penalty.session_id)
            .filter(
                Q(seats__registration=penalty.registration_id)
                | Q(summaries__registration=penalty.registration_id)
                | Q(pk=penalty.table_id)
            )
            .distinct()
            .values_list("pk", flat=True)
        )
    changed_send(
        tournament_id=penalty.tournament_id,
        what={RESULTS},
        sessions=[penalty.session_id] if penalty.session_id else [],
        tables=tables,
        rewrite=tables,
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
    seat_of = {r.pk: position for position, r in enumerate(registrations)}
    transfers = [Fraction(0)] * 4
    deductions = [Fraction(0)] * 4
    chombos = [0] * 4
    excluded: set[int] = set()
    credited = list(registrations)
    if mode is None:
        mode = getattr(getattr(table, "result", None), "mode", "hands")
    if penalties is None:
        penalties = active_penalties(session=table.session)
    replaced: dict[int, int] = {}  # replaced registration -> the seat it left
    # a substitute seated by the draw plays from the start (a player absent at check-in)
    substituted = {position for position, r in enumerate(registrations) if r.is_substitute}
    for p in penalties:  # substitutions first: later penalties may concern the substitute
        if p.kind == Kind.REPLACED and p.registration_id in seat_of:
            position = seat_of.pop(p.registration_id)  # the replaced player's own penalties stay off the seat
            replaced[p.registration_id] = position
            credited[position] = p.substitute
            seat_of[p.substitute_id] = position
            substituted.add(position)
            excluded |= rules.substitution_exclusions(position, p.reason, during=p.during)
    for p in penalties:
        position = seat_of.get(p.registration_id)
        if p.kind == Kind.FALSE_HU and position is None:
            # A false Hu is a payment made during the game: it stays with the seat, like the hands
            # the replaced player played there (illness during the session).
            position = replaced.get(p.registration_id)
        if position is None:
            continue
        if p.kind == Kind.FALSE_HU and p.table_id == table.pk:
            for seat, amount in enumerate(_false_hu(rules, position, p, game)):
                transfers[seat] += amount
        elif p.kind == Kind.CHOMBO and mode == "totals":
            chombos[position] += 1
        elif p.kind in OFFENDER_ONLY:
            deductions[position] += p.points
        elif p.kind == Kind.DISQUALIFIED and p.scope == Scope.SESSION:
            excluded.add(position)
    return TableEffects(
        transfers=tuple(transfers),
        deductions=tuple(deductions),
        chombos=tuple(chombos),
        excluded=frozenset(excluded),
        credited=credited,
        substitutes=frozenset(substituted),
    )


def _false_hu(rules: Ruleset, position: int, penalty: Penalty, game: GameResult | None):
    if not rules.false_hu_by_dealer:
        return rules.false_hu(position, penalty.variant)
    dealer = 0
    if game is not None and game.steps and penalty.hand_number:
        try:
            dealer = dealer_of_hand(game, penalty.hand_number - 1)
        except RuleError:
            dealer = 0  # a hand number beyond the game: the entry forms refuse it; keep the table readable
    return rules.false_hu(position, penalty.variant, dealer=dealer)


def penalty_transfers(*, penalty: Penalty, rules: Ruleset) -> tuple[Fraction, Fraction] | None:
    """What a false Hu moves at the table: what the offender pays in all and what each other player gets
    (MCR 2.9.2: 30 and 10, or 60 and 20). None for the other kinds."""
    if penalty.kind != Kind.FALSE_HU:
        return None
    try:
        paid = rules.false_hu(0, penalty.variant)
    except RuleError:
        return None
    return Fraction(paid[0]), Fraction(paid[1])
