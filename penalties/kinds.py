"""The kinds of penalty, each answering for itself: one class per kind, found in the registry by its stored
value (``Penalty.kind``, the model's choices).

A kind holds what the referee gives for it and the checks on it, its amount under the tournament's
ruleset (the ruleset answers: no kind asks which ruleset it is), what it does to the result of its table,
what it adds outside the table (the standings' rows), its cells in the exports and the archive, and how
the pages describe it. The services record and cancel; the kind decides.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, ClassVar

from django.utils.translation import gettext as _

from penalties import tables
from penalties.models import Kind, Penalty, Scope
from scoring.rules.base import GameResult, RuleError, Ruleset
from scoring.rules.common import dealer_of_hand
from scoring.rules.numbers import POINTS_LIMIT, read_number
from scoring.rules.text import gettext_noop
from tournaments.models import Registration, Seat, Session, Table, Tournament
from tournaments.presenters import num, signed

SUBSTITUTION_REASONS = ("late_arrival", "illness", "disqualified")
SMALL_MAX = 32767  # the largest hand number or minutes late the columns hold


# -- reads and checks the kinds share ------------------------------------------------------------------


def seat_of(registration: Registration, session: Session) -> Seat | None:
    return Seat.objects.filter(registration=registration, session=session).select_related("table").first()


def replacement_by(substitute: Registration, session: Session) -> Penalty | None:
    """The active substitution in which ``substitute`` took a seat in ``session``."""
    return (
        Penalty.objects.filter(
            substitute=substitute, session=session, kind=Replaced.value, cancelled_at__isnull=True
        )
        .select_related("registration")
        .first()
    )


def table_of(registration: Registration, session: Session | None) -> Table | None:
    """The table where ``registration`` sits in ``session``, or where it substitutes for a seated player."""
    if session is None:
        return None
    seat = seat_of(registration, session)
    if seat is None:
        replacement = replacement_by(registration, session)
        seat = seat_of(replacement.registration, session) if replacement is not None else None
    return seat.table if seat else None


def small_check(value: Any, path: str, what: Any) -> None:
    """A whole number the columns hold (a hand number, minutes late)."""
    if value is not None and (isinstance(value, bool) or not isinstance(value, int) or value > SMALL_MAX):
        raise RuleError(
            gettext_noop(
                "%(_what)s must be a whole number up to %(most)s, not %(_value)s",
                _what=what,
                most=SMALL_MAX,
                _value=repr(value),
            ),
            path,
        )


def _need(value: Any, path: str, message) -> None:
    if value in (None, ""):
        raise RuleError(message, path)


def _rules_call(fn, *args, **kwargs):
    try:
        return fn(*args, **kwargs)
    except RuleError as exc:
        raise RuleError(exc.text, exc.path or "kind") from exc


def _registered_check(registration: Registration, tournament: Tournament, path: str) -> None:
    if registration.tournament_id != tournament.pk:
        raise RuleError(
            gettext_noop("%(_key)s is not registered in this tournament", _key=str(registration.key)), path
        )


def _no_seat(registration: Registration, session: Session) -> RuleError:
    return RuleError(
        gettext_noop(
            "%(_key)s has no seat in session %(session)s", _key=str(registration.key), session=session.number
        ),
        "player",
    )


# -- what a kind works on ------------------------------------------------------------------------------


@dataclass
class Draft:
    """A penalty being recorded: the unsaved row, the ruleset, and the amounts the referee typed (only the
    kinds that carry their own amount read them)."""

    penalty: Penalty
    rules: Ruleset
    points: Any = None
    table_points: Any = None


@dataclass
class Tally:
    """What the active penalties of a session do to one table, as the kinds add to it."""

    table: Table
    rules: Ruleset
    game: GameResult | None
    mode: str
    seat_of: dict[int, int]  # registration id -> the seat it plays (a substitute after a replacement)
    credited: list[Registration]
    substitutes: set[int]
    transfers: list[Fraction] = field(default_factory=lambda: [Fraction(0)] * 4)
    deductions: list[Fraction] = field(default_factory=lambda: [Fraction(0)] * 4)
    chombos: list[int] = field(default_factory=lambda: [0] * 4)
    excluded: set[int] = field(default_factory=set)
    left: dict[int, int] = field(default_factory=dict)  # replaced registration id -> the seat it left


Cell = Any


class PenaltyKind:
    """A kind of penalty. The defaults are those of a kind with no amount and no effect (a dead hand)."""

    value: ClassVar[str]
    #: the points are deducted from the offender alone (their session score), the others are untouched
    offender_only: ClassVar[bool] = False
    #: recorded at a hand of the game: the form asks for the hand number
    at_hand: ClassVar[bool] = False
    #: what the referee gives for this kind beyond the player, session, table, hand and reason
    fields: ClassVar[tuple[str, ...]] = ()
    #: the form asks for the reason, not as an option
    reason_asked: ClassVar[bool] = False
    #: an irregularity whatever its points (the EMA's list of irregularities)
    irregular: ClassVar[bool] = False
    #: a ladder: every active one of the player is re-priced after any of them changes
    ladder: ClassVar[bool] = False
    #: a substitute takes the offender's seat
    replaces: ClassVar[bool] = False

    @property
    def label(self) -> str:
        return str(Kind(self.value).label)

    # -- the ruleset ----------------------------------------------------------------------------------
    def supported(self, rules: Ruleset) -> bool:
        """The ruleset has an amount (or a meaning) for this kind."""
        return True

    # -- fields and checks ----------------------------------------------------------------------------
    def session_needed(self, scope: str) -> bool:
        return True

    @property
    def session_required(self) -> bool:
        """The form requires the session (a kind that may be for the whole tournament does not)."""
        return True

    def check(self, draft: Draft) -> None:
        """Check what was given and set the amount of ``draft.penalty`` from the ruleset."""

    # -- the table ------------------------------------------------------------------------------------
    def seat_taken(self, penalty: Penalty, tally: Tally) -> None:
        """Before the other penalties: a substitution changes who plays a seat."""

    def seat_left(self, penalty: Penalty, tally: Tally) -> int | None:
        """The seat of a penalty whose player no longer plays at the table (replaced), if it stays there."""
        return None

    def on_table(self, penalty: Penalty, position: int, tally: Tally) -> None:
        if self.offender_only:
            tally.deductions[position] += penalty.points

    def transfers(self, penalty: Penalty, rules: Ruleset) -> tuple[Fraction, Fraction] | None:
        """What it moves at the table: what the offender pays in all and what each other player gets."""
        return None

    # -- outside the table ----------------------------------------------------------------------------
    def out_of_tournament(self, penalty: Penalty) -> bool:
        return False

    def score_points(self, penalty: Penalty) -> Fraction | None:
        """Points off the offender's score that the standings carry outside the table's rows."""
        return penalty.points if self.offender_only and penalty.points else None

    def table_points_off(self, penalty: Penalty) -> Fraction | None:
        """Table points off the offender that the standings carry."""
        return None

    # -- the exports and the archive ------------------------------------------------------------------
    def export_amount(self, penalty: Penalty, rules: Ruleset) -> Cell:
        return penalty.points

    def export_details(self, penalty: Penalty) -> str:
        return ""

    def archive_session(self, penalty: Penalty) -> bool:
        return penalty.session_id is not None

    def archive_fields(self, penalty: Penalty, key_of: Mapping[int, str], plain: Callable) -> dict[str, Any]:
        return {}

    # -- the description ------------------------------------------------------------------------------
    def amount(self, penalty: Penalty, rules: Ruleset, position: int | None = None) -> tuple[str, str]:
        """What it costs, as the ruleset computes it, and a note on how it is paid."""
        if self.offender_only:
            return signed(penalty.points), ""
        return "", ""

    def shown_points(self, penalty: Any) -> Any:
        """The amount a history line shows (``penalty`` may be a historical record)."""
        return penalty.points or None

    def details(self, penalty: Penalty) -> list[str]:
        parts = []
        if penalty.variant:
            parts.append(str(penalty.get_variant_display()))
        parts += self.reason_details(penalty)
        if penalty.persists:
            parts.append(_("obstruction or time-wasting: the count carries on"))
        return parts

    def reason_details(self, penalty: Penalty) -> list[str]:
        return [penalty.reason] if penalty.reason else []


class LateArrival(PenaltyKind):
    value = Kind.LATE_ARRIVAL.value
    offender_only = True
    fields = ("minutes_late",)

    def supported(self, rules: Ruleset) -> bool:
        return _probe(lambda: rules.late_arrival(0))

    def check(self, draft: Draft) -> None:
        penalty = draft.penalty
        _need(penalty.minutes_late, "minutes_late", gettext_noop("a late arrival needs the minutes late"))
        late = _rules_call(draft.rules.late_arrival, penalty.minutes_late)
        small_check(penalty.minutes_late, "minutes_late", gettext_noop("minutes late"))
        penalty.points = late.points
        penalty.disqualifies = late.disqualified

    def export_details(self, penalty: Penalty) -> str:
        if penalty.minutes_late is None:
            return ""
        details = _("%(minutes)s minutes late") % {"minutes": penalty.minutes_late}
        return details + (", " + _("out of the session") if penalty.disqualifies else "")

    def archive_fields(self, penalty, key_of, plain):
        return {"minutes_late": penalty.minutes_late}

    def amount(self, penalty, rules, position=None):
        if penalty.disqualifies:
            return _("out"), _("out of the session: a substitute takes the seat")
        return super().amount(penalty, rules, position)

    def details(self, penalty: Penalty) -> list[str]:
        parts = (
            [] if penalty.minutes_late is None else [_("%(n)s minutes late") % {"n": penalty.minutes_late}]
        )
        return parts + super().details(penalty)


class FalseHu(PenaltyKind):
    value = Kind.FALSE_HU.value
    at_hand = True
    fields = ("variant",)
    irregular = True

    def supported(self, rules: Ruleset) -> bool:
        return _probe(lambda: rules.false_hu(0, rules.false_hu_default))

    def check(self, draft: Draft) -> None:
        penalty, rules = draft.penalty, draft.rules
        penalty.table = penalty.table or table_of(penalty.registration, penalty.session)
        if penalty.table is None:
            raise _no_seat(penalty.registration, penalty.session)
        if rules.false_hu_variants and penalty.variant not in ("below_minimum", "invalid_hand"):
            raise RuleError(
                gettext_noop(
                    "a false Hu is either below_minimum (pays 10 to each) or invalid_hand (pays 20 to each), "
                    "MERS 2.9.2"
                ),
                "variant",
            )
        _rules_call(rules.false_hu, 0, penalty.variant)  # the ruleset defines it

    def seat_left(self, penalty: Penalty, tally: Tally) -> int | None:
        # A false Hu is a payment made during the game: it stays with the seat, like the hands the
        # replaced player played there (illness during the session).
        return tally.left.get(penalty.registration_id)

    def on_table(self, penalty: Penalty, position: int, tally: Tally) -> None:
        if penalty.table_id != tally.table.pk:
            return
        for seat, amount in enumerate(self._paid(tally.rules, position, penalty, tally.game)):
            tally.transfers[seat] += amount

    @staticmethod
    def _paid(rules: Ruleset, position: int, penalty: Penalty, game: GameResult | None):
        if not rules.false_hu_by_dealer:
            return rules.false_hu(position, penalty.variant)
        dealer = 0
        if game is not None and game.steps and penalty.hand_number:
            try:
                dealer = dealer_of_hand(game, penalty.hand_number - 1)
            except RuleError:
                dealer = (
                    0  # a hand number beyond the game: the entry forms refuse it; keep the table readable
                )
        return rules.false_hu(position, penalty.variant, dealer=dealer)

    def transfers(self, penalty: Penalty, rules: Ruleset) -> tuple[Fraction, Fraction] | None:
        try:
            paid = rules.false_hu(0, penalty.variant)
        except RuleError:
            return None
        return Fraction(paid[0]), Fraction(paid[1])

    def export_amount(self, penalty: Penalty, rules: Ruleset) -> Cell:
        try:
            return Fraction(rules.false_hu(0, penalty.variant)[0])  # what the offender pays in all
        except RuleError:
            return None

    def export_details(self, penalty: Penalty) -> str:
        return str(penalty.get_variant_display()) if penalty.variant else ""

    def archive_fields(self, penalty, key_of, plain):
        return {"variant": penalty.variant} if penalty.variant else {}

    def amount(self, penalty, rules, position=None):
        try:
            paid = rules.false_hu(position or 0, penalty.variant)
        except RuleError:
            return "—", ""
        own = paid[position or 0]
        others = sorted({t for i, t in enumerate(paid) if i != (position or 0)})
        if len(others) == 1:
            return signed(own), _("pays %(each)s to each other player") % {"each": num(others[0])}
        return signed(own), _("paid to the other players")


class DeadHand(PenaltyKind):
    value = Kind.DEAD_HAND.value
    at_hand = True
    irregular = True

    def export_amount(self, penalty: Penalty, rules: Ruleset) -> Cell:
        return None


class Chombo(PenaltyKind):
    value = Kind.CHOMBO.value
    irregular = True

    def supported(self, rules: Ruleset) -> bool:
        return _probe(rules.chombo_points)

    def check(self, draft: Draft) -> None:
        penalty = draft.penalty
        penalty.points = _rules_call(draft.rules.chombo_points)
        at = penalty.table or table_of(penalty.registration, penalty.session)
        if at is not None:
            entry = tables.entry(table=at)
            if entry.mode == "hands" and entry.hands:
                raise RuleError(
                    gettext_noop(
                        "table %(table)s is entered hand by hand: record the chombo as a hand",
                        table=at.number,
                    ),
                    "kind",
                )

    def on_table(self, penalty: Penalty, position: int, tally: Tally) -> None:
        if tally.mode == "totals":
            tally.chombos[position] += 1

    def amount(self, penalty, rules, position=None):
        return signed(penalty.points), ""


class Foul(PenaltyKind):
    value = Kind.FOUL.value
    offender_only = True
    fields = ("persists",)
    ladder = True

    def supported(self, rules: Ruleset) -> bool:
        return _probe(lambda: rules.foul(1))

    def check(self, draft: Draft) -> None:
        penalty = draft.penalty
        _rules_call(draft.rules.foul, 1)
        earlier = Penalty.objects.filter(
            registration=penalty.registration, kind=self.value, cancelled_at__isnull=True
        ).order_by("sequence")
        fouls = [(f.session.number, f.persists) for f in earlier.select_related("session")]
        penalty.points = self.amounts(
            [*fouls, (penalty.session.number, bool(penalty.persists))], draft.rules
        )[-1]

    @staticmethod
    def amounts(fouls: Sequence[tuple[int, bool]], rules: Ruleset) -> list[int]:
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

    def export_details(self, penalty: Penalty) -> str:
        return _("obstruction or time-wasting") if penalty.persists else ""

    def archive_fields(self, penalty, key_of, plain):
        return {"persists": True} if penalty.persists else {}

    def amount(self, penalty, rules, position=None):
        if not penalty.points:
            return _("warning"), ""
        return super().amount(penalty, rules, position)


class ForgotWinningTile(PenaltyKind):
    value = Kind.FORGOT_WINNING_TILE.value
    offender_only = True
    at_hand = True

    def supported(self, rules: Ruleset) -> bool:
        return _probe(rules.forgot_winning_tile)

    def check(self, draft: Draft) -> None:
        draft.penalty.points = _rules_call(draft.rules.forgot_winning_tile)


class Referee(PenaltyKind):
    value = Kind.REFEREE.value
    offender_only = True
    fields = ("points",)
    reason_asked = True

    def check(self, draft: Draft) -> None:
        penalty, rules, points = draft.penalty, draft.rules, draft.points
        if not penalty.reason:
            raise RuleError(gettext_noop("a referee decision needs a reason"), "reason")
        _need(points, "points", gettext_noop("a referee decision needs its points"))
        low, high = rules.referee_bounds()
        value = Fraction(read_number(points, field="points", limit=POINTS_LIMIT))
        if not low <= value <= high:
            raise RuleError(
                gettext_noop(
                    "points %(_points)s is outside the ruleset's bounds %(low)s to %(high)s",
                    _points=str(points),
                    low=Fraction(low),
                    high=Fraction(high),
                ),
                "points",
            )
        minimum = rules.referee_minimum()
        if minimum and value and -value < minimum:
            raise RuleError(
                gettext_noop(
                    "points %(_points)s is less than the ruleset's smallest deduction of %(least)s points "
                    "(0 records a warning)",
                    _points=str(points),
                    least=Fraction(minimum),
                ),
                "points",
            )
        step = rules.referee_step()
        if step and value % step:
            raise RuleError(
                gettext_noop(
                    "points %(_points)s is not a multiple of the ruleset's step of %(step)s points",
                    _points=str(points),
                    step=Fraction(step),
                ),
                "points",
            )
        penalty.points = value

    def archive_fields(self, penalty, key_of, plain):
        return {"points": plain(penalty.points)}


class Disqualified(PenaltyKind):
    value = Kind.DISQUALIFIED.value
    fields = ("scope",)
    reason_asked = True
    irregular = True

    def session_needed(self, scope: str) -> bool:
        return scope != Scope.TOURNAMENT

    @property
    def session_required(self) -> bool:
        return False  # the form asks; a disqualification for the whole tournament has none

    def check(self, draft: Draft) -> None:
        penalty = draft.penalty
        if penalty.scope not in Scope.values:
            raise RuleError(
                gettext_noop("a disqualification is for the session or for the tournament"), "scope"
            )
        if penalty.scope == Scope.TOURNAMENT:
            penalty.session = None

    def on_table(self, penalty: Penalty, position: int, tally: Tally) -> None:
        if penalty.scope == Scope.SESSION:
            tally.excluded.add(position)

    def out_of_tournament(self, penalty: Penalty) -> bool:
        return penalty.scope == Scope.TOURNAMENT

    def export_amount(self, penalty: Penalty, rules: Ruleset) -> Cell:
        return None

    def export_details(self, penalty: Penalty) -> str:
        return str(penalty.get_scope_display()) if penalty.scope else ""

    def archive_session(self, penalty: Penalty) -> bool:
        return penalty.session_id is not None and not self.out_of_tournament(penalty)

    def archive_fields(self, penalty, key_of, plain):
        return {"scope": penalty.scope}

    def reason_details(self, penalty: Penalty) -> list[str]:
        scope = _("for the tournament") if penalty.scope == Scope.TOURNAMENT else _("for the session")
        return [scope, *super().reason_details(penalty)]


class Replaced(PenaltyKind):
    value = Kind.REPLACED.value
    fields = ("substitute", "reason", "during")
    replaces = True

    def check(self, draft: Draft) -> None:
        penalty, substitute = draft.penalty, draft.penalty.substitute
        registration, session = penalty.registration, penalty.session
        _need(substitute, "by", gettext_noop("a substitution needs the substitute"))
        _registered_check(substitute, penalty.tournament, "by")
        if substitute.pk == registration.pk:
            raise RuleError(gettext_noop("a player cannot replace themself"), "by")
        where = {"_key": str(substitute.key), "session": session.number}
        if seat_of(substitute, session) is not None:
            raise RuleError(gettext_noop("%(_key)s already plays in session %(session)s", **where), "by")
        already = replacement_by(substitute, session)
        if already is not None:
            raise RuleError(
                gettext_noop(
                    "%(_key)s already replaces %(_other)s in session %(session)s",
                    _other=str(already.registration.key),
                    **where,
                ),
                "by",
            )
        if penalty.reason not in SUBSTITUTION_REASONS:
            raise RuleError(
                gettext_noop(
                    "the reason of a substitution is one of %(_reasons)s",
                    _reasons=", ".join(SUBSTITUTION_REASONS),
                ),
                "reason",
            )
        if seat_of(registration, session) is None:
            raise _no_seat(registration, session)
        _rules_call(draft.rules.substitution_exclusions, 0, penalty.reason, during=bool(penalty.during))
        if Penalty.objects.filter(
            registration=registration, session=session, kind=self.value, cancelled_at__isnull=True
        ).exists():
            raise RuleError(
                gettext_noop(
                    "%(_key)s is already replaced in session %(session)s",
                    _key=str(registration.key),
                    session=session.number,
                ),
                "player",
            )

    def seat_taken(self, penalty: Penalty, tally: Tally) -> None:
        if penalty.registration_id not in tally.seat_of:
            return
        position = tally.seat_of.pop(penalty.registration_id)  # the replaced player's own penalties stay off
        tally.left[penalty.registration_id] = position
        tally.credited[position] = penalty.substitute
        tally.seat_of[penalty.substitute_id] = position
        tally.substitutes.add(position)
        tally.excluded |= tally.rules.substitution_exclusions(position, penalty.reason, during=penalty.during)

    def on_table(self, penalty: Penalty, position: int, tally: Tally) -> None:
        return None

    def export_amount(self, penalty: Penalty, rules: Ruleset) -> Cell:
        return None

    def export_details(self, penalty: Penalty) -> str:
        if not penalty.substitute_id:
            return ""
        details = _("replaced by %(name)s") % {"name": penalty.substitute.player.full_name}
        return details + (", " + _("during the session") if penalty.during else "")

    def archive_fields(self, penalty, key_of, plain):
        fields: dict[str, Any] = {"by": key_of[penalty.substitute_id] if penalty.substitute_id else None}
        if penalty.during:
            fields["during"] = True
        return fields

    def reason_details(self, penalty: Penalty) -> list[str]:
        parts = []
        if penalty.substitute_id:
            parts.append(_("replaced by %(name)s") % {"name": penalty.substitute.player.full_name})
        reasons = {
            "late_arrival": _("late arrival"),
            "illness": _("illness"),
            "disqualified": _("disqualified"),
        }
        parts.append(str(reasons.get(penalty.reason, penalty.reason)))
        if penalty.during:
            parts.append(_("during the session"))
        return parts


class TablePoints(PenaltyKind):
    value = Kind.TABLE_POINTS.value
    fields = ("table_points",)
    reason_asked = True

    def supported(self, rules: Ruleset) -> bool:
        return bool(rules.table_points_deductions)

    def check(self, draft: Draft) -> None:
        if not draft.rules.table_points_deductions:
            raise RuleError(gettext_noop("table points deductions exist only under MCR"), "kind")
        raw = draft.table_points if draft.table_points is not None else draft.points
        _need(raw, "points", gettext_noop("give the table points to deduct"))
        value = Fraction(read_number(raw, field="points", limit=POINTS_LIMIT))
        if value > 0:
            raise RuleError(gettext_noop("a table points deduction is 0 or negative"), "points")
        draft.penalty.table_points = value

    def table_points_off(self, penalty: Penalty) -> Fraction | None:
        return penalty.table_points or None

    def export_amount(self, penalty: Penalty, rules: Ruleset) -> Cell:
        return None

    def archive_fields(self, penalty, key_of, plain):
        return {"points": plain(penalty.table_points)}

    def amount(self, penalty, rules, position=None):
        return signed(penalty.table_points), _("table points")

    def shown_points(self, penalty: Any) -> Any:
        if penalty.table_points is not None:
            return penalty.table_points
        return super().shown_points(penalty)


def _probe(ask: Callable[[], Any]) -> bool:
    try:
        ask()
    except RuleError:
        return False
    return True


#: every kind, in the order the pages offer them
KINDS: dict[str, PenaltyKind] = {
    kind.value: kind
    for kind in (
        LateArrival(),
        Foul(),
        FalseHu(),
        DeadHand(),
        ForgotWinningTile(),
        Chombo(),
        Referee(),
        TablePoints(),
        Replaced(),
        Disqualified(),
    )
}


def kind_of(value: str) -> PenaltyKind:
    """The kind stored as ``value`` (``Penalty.kind``)."""
    return KINDS[value]


def unknown_kind(value: Any) -> RuleError:
    return RuleError(
        gettext_noop(
            "unknown penalty kind %(_kind)s (kinds: %(_kinds)s)",
            _kind=repr(value),
            _kinds=", ".join(Kind.values),
        ),
        "kind",
    )
