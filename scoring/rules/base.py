"""Shared types of the rule engines.

Pure Python: no Django import anywhere under ``scoring/rules``. Engines take plain data and
return plain, immutable data. Seats are numbered 0..3: East, South, West, North at the start
of the session (the order of ``seats`` in the archive). Point values are ``int`` where exact and
``fractions.Fraction`` otherwise, never ``float``.
"""

from __future__ import annotations

import dataclasses
import types
import typing
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, ClassVar, Literal

from .text import Text, gettext_noop

SEATS = 4
WINDS = ("E", "S", "W", "N")

Number = int | Fraction
Four = tuple[Any, Any, Any, Any]


class RuleError(ValueError):
    """A fault in user input, with a message that names the value and the rule.

    ``path`` says where the fault is in the input, e.g. ``hands[7].fan``; callers that nest the
    input deeper prefix it with :meth:`within`.
    """

    def __init__(self, message: str | Text, path: str = ""):
        super().__init__(message)
        self.text = message  # a Text is rendered in the reader's language each time it is read
        self.path = path

    @property
    def message(self) -> str:
        return str(self.text)

    def within(self, prefix: str) -> RuleError:
        if not self.path:
            return RuleError(self.text, prefix)
        sep = "" if self.path.startswith("[") else "."
        return RuleError(self.text, f"{prefix}{sep}{self.path}")

    def __str__(self) -> str:
        return f"{self.path}: {self.message}" if self.path else self.message


class EngineError(RuntimeError):
    """An internal fault (misuse by calling code); never shown to users as is."""


def seat_tuple(values: Sequence[Any]) -> Four:
    if len(values) != SEATS:
        raise EngineError(f"expected {SEATS} values, got {len(values)}")
    return tuple(values)  # type: ignore[return-value]


@dataclass(frozen=True)
class HandStep:
    """What one hand did, and the state of the table after it (that is, for the next hand)."""

    deltas: Four  # each seat's point change from this hand, sticks and counters included
    scores: Four  # running game scores after the hand
    dealer: int | None = None  # seat that deals the next hand (riichi, Salamanca)
    round_wind: str | None = None  # prevailing wind of the next hand ("E", "S", ...)
    honba: int = 0  # counters on the next hand (riichi)
    sticks: int = 0  # riichi sticks left on the table after this hand
    replayed: bool = False  # the hand is played again (e.g. chombo under EMA 2008)
    note: str = ""  # short human description ("East 3 han 30 fu ron from West")


@dataclass(frozen=True)
class GameResult:
    """The outcome of one game at one table."""

    scores: Four  # final game scores: riichi raw points (leftover sticks given out); others: game points
    steps: tuple[HandStep, ...] = ()
    chombos: Four = (0, 0, 0, 0)  # chombos charged against the final score (riichi presets that do so)
    leftover_sticks: int = 0  # riichi sticks given to first place at the end
    imbalance_reason: str = ""  # totals accepted although they do not sum as the rules say


@dataclass(frozen=True)
class SeatResult:
    """One seat's session result: what the standings add up."""

    game_score: Number  # the game score at the table (riichi: raw end points)
    table_points: Fraction | None  # MCR table points (None for rulesets without them)
    uma: Number | None  # riichi: uma plus oka share, in points (None elsewhere)
    transfers: Number  # in-game penalty transfers (false Hu, false declaration); count for ranking
    chombo: Number  # riichi chombo deduction from the final score (0 or negative)
    penalties: Number  # offender-only deductions (0 or negative)
    final: Number  # the session value added to the standings' score


@dataclass(frozen=True)
class TableResult:
    seats: tuple[SeatResult, SeatResult, SeatResult, SeatResult]


#: every finishing order of a table, ties included, as ranking values of the four seats (the 75 weak
#: orders of four; equal values are tied)
WEAK_ORDERS: tuple[tuple[int, int, int, int], ...] = tuple(
    sorted(
        {
            (a, b, c, d)
            for a in range(4)
            for b in range(4)
            for c in range(4)
            for d in range(4)
            if set(range(len({a, b, c, d}))) == {a, b, c, d}
        }
    )
)


@dataclass(frozen=True)
class SessionOutcomes:
    """The range of one table's session for the standings (:meth:`Ruleset.session_outcomes`)."""

    places: tuple[Four, ...]  # every sharing of the places, each the four seats' values best first
    spread: int  # the most a seat's score moves beyond its place's value, up or down


@dataclass(frozen=True)
class LateArrival:
    points: int  # offender-only deduction (0 or negative)
    disqualified: bool  # past the limit: out of the session, a substitute takes the seat


@dataclass(frozen=True)
class SessionEnd:
    """How a session ends on the clock: its length, the signal before the end, and what is played once
    time is up (``END_OF_TIME_RULES``)."""

    minutes: int
    signal_minutes: int
    red_zone_minutes: int
    end_of_time: str


@dataclass(frozen=True)
class ReplacementResult:
    """The fixed result a player carries for a session a substitute played in his place."""

    game_score: int  # the raw score written for the session
    uma: Number
    final: Number  # what the session adds to the player's total


END_OF_TIME_RULES = ("last_hand", "one_more_hand", "at_once", "after_signal")


@dataclass(frozen=True)
class Config:
    """Base of every preset: plain data, overridable key by key per tournament.

    The session clock's settings are shared by every family (presets change the defaults): the length
    of a session, what happens when time is up (finish the hand in play, that hand and one more, or stop at
    once), and
    how long before the end the warning signal and the red zone come.
    """

    session_minutes: int = 120
    # "last_hand": the hand in play is finished; "one_more_hand": it and one more; "at_once": play stops and
    # the hand in play scores nothing (the Green Book's rule for MCR, §3.5.6); "after_signal": from the
    # signal the hand in play and one more are played, whatever the time, and no sound marks the end
    # (riichi 2025 §7.4)
    end_of_time: Literal["last_hand", "one_more_hand", "at_once", "after_signal"] = "last_hand"
    signal_minutes: int = 15
    red_zone_minutes: int = 5

    def check_clock(self) -> None:
        if not 1 <= self.session_minutes <= 480:
            raise RuleError("rule 'session_minutes' must be 1 to 480", "rules.session_minutes")
        if not 0 <= self.red_zone_minutes <= self.signal_minutes <= self.session_minutes:
            raise RuleError(
                "rules 'red_zone_minutes' ≤ 'signal_minutes' ≤ 'session_minutes', none negative",
                "rules.signal_minutes",
            )

    def with_overrides(self, overrides: Mapping[str, Any] | None) -> Config:
        """A copy with single values replaced; an unknown key or a wrong type is refused."""
        if not overrides:
            return self
        if not isinstance(overrides, Mapping):
            raise RuleError(gettext_noop("rule overrides must be an object of key: value"), "rules")
        fields = {f.name: f for f in dataclasses.fields(self)}
        hints = typing.get_type_hints(type(self))
        changes = {}
        for key, value in overrides.items():
            if key not in fields:
                known = ", ".join(sorted(fields))
                raise RuleError(
                    gettext_noop("unknown rule '%(_key)s' (known rules: %(_known)s)", _key=key, _known=known),
                    f"rules.{key}",
                )
            changes[key] = _coerce(key, value, hints[key], getattr(self, key))
        try:
            changed = dataclasses.replace(self, **changes)
            changed.check_clock()
            return changed
        except RuleError:
            raise
        except (TypeError, ValueError) as exc:
            raise RuleError(str(exc), "rules") from exc

    def as_dict(self) -> dict[str, Any]:
        return {f.name: _plain(getattr(self, f.name)) for f in dataclasses.fields(self)}


def _plain(value: Any) -> Any:
    if isinstance(value, tuple):
        return [_plain(v) for v in value]
    if isinstance(value, Fraction):
        return str(value)
    return value


def _type_name(hint: Any) -> str:
    return getattr(hint, "__name__", None) or str(hint).replace("typing.", "")


def _coerce(key: str, value: Any, hint: Any, current: Any) -> Any:
    """Check ``value`` against the field's type hint; lists become tuples."""
    path = f"rules.{key}"
    origin = typing.get_origin(hint)
    if origin in (typing.Union, types.UnionType):
        return _coerce_union(key, value, hint, current)
    if hint is type(None):
        if value is None:
            return None
        raise RuleError(
            gettext_noop("rule '%(_key)s' must be null, not %(value)s", _key=key, value=value), path
        )
    if origin is tuple:
        return _coerce_tuple(key, value, hint)
    if hint in (bool, int, Fraction, str):
        return _coerce_scalar(key, value, hint)
    if origin is typing.Literal:
        return _coerce_literal(key, value, hint)
    raise EngineError(f"rule '{key}' has a type the override checker does not know: {hint!r}")


def _coerce_union(key: str, value: Any, hint: Any, current: Any) -> Any:
    """The first option of the union that takes the value."""
    path = f"rules.{key}"
    errors = []
    for option in typing.get_args(hint):
        try:
            return _coerce(key, value, option, current)
        except RuleError as exc:
            errors.append(exc)
    raise RuleError(
        gettext_noop(
            "rule '%(_key)s' must be %(_value)s, not %(value2)s",
            _key=key,
            _value=_type_name(hint),
            value2=value,
        ),
        path,
    )


def _coerce_tuple(key: str, value: Any, hint: Any) -> tuple:
    """A list of the hinted values (any number of one kind, or one of each kind given)."""
    path = f"rules.{key}"
    args = typing.get_args(hint)
    if not isinstance(value, (list, tuple)):
        raise RuleError(
            gettext_noop("rule '%(_key)s' must be a list, not %(value)s", _key=key, value=value), path
        )
    if len(args) == 2 and args[1] is Ellipsis:
        item_hints = [args[0]] * len(value)
    else:
        item_hints = list(args)
        if len(value) != len(item_hints):
            raise RuleError(
                gettext_noop(
                    "rule '%(_key)s' must have %(_count)s values, not %(_count2)s",
                    _key=key,
                    _count=len(item_hints),
                    _count2=len(value),
                ),
                path,
            )
    return tuple(_coerce(key, v, h, None) for v, h in zip(value, item_hints, strict=True))


def _coerce_scalar(key: str, value: Any, hint: Any) -> Any:
    """True or false, a whole number, a number (a fraction as text too), or text."""
    path = f"rules.{key}"
    if hint is bool:
        if isinstance(value, bool):
            return value
        raise RuleError(
            gettext_noop("rule '%(_key)s' must be true or false, not %(value)s", _key=key, value=value), path
        )
    if hint is int:
        if isinstance(value, int) and not isinstance(value, bool):
            return value
        raise RuleError(
            gettext_noop("rule '%(_key)s' must be a whole number, not %(value)s", _key=key, value=value), path
        )
    if hint is Fraction:
        if isinstance(value, (int, Fraction)) and not isinstance(value, bool):
            return Fraction(value)
        if isinstance(value, str):
            try:
                return Fraction(value)
            except ValueError:
                pass
        raise RuleError(
            gettext_noop("rule '%(_key)s' must be a number, not %(value)s", _key=key, value=value), path
        )
    if hint is str:
        if isinstance(value, str):
            return value
        raise RuleError(
            gettext_noop("rule '%(_key)s' must be text, not %(value)s", _key=key, value=value), path
        )
    raise AssertionError(hint)


def _coerce_literal(key: str, value: Any, hint: Any) -> Any:
    path = f"rules.{key}"
    allowed = typing.get_args(hint)
    if value in allowed:
        return value
    raise RuleError(
        gettext_noop(
            "rule '%(_key)s' must be one of %(_items)s, not %(value)s",
            _key=key,
            _items=", ".join(map(str, allowed)),
            value=value,
        ),
        path,
    )


class Ruleset:
    """One ruleset: a family engine bound to a preset (``config``).

    Every family implements the methods below. ``hands`` are mappings shaped as in ARCHIVE.md,
    with players given as seat numbers 0..3 instead of player keys.
    """

    family: ClassVar[str] = ""

    # -- what the pages, the API and the penalties show or allow differently per ruleset -----------
    # Code outside ``scoring.rules`` reads these and never tests the family by name
    # (tests/rules/test_contract.py runs every part over every ruleset and checks that).
    hand_form: ClassVar[str] = ""  # the hand entry form: a key of ``scoring.forms.HAND_FORMS``
    hand_partial: ClassVar[str] = ""  # the template partial that draws that form
    shows_dealer: ClassVar[bool] = True  # whether the table shows who deals (MCR has no dealer)
    numbered_rounds: ClassVar[bool] = False  # hands are named by round and dealer ("East 2", riichi)
    counters_and_sticks: ClassVar[bool] = False  # counters (honba) and riichi sticks stay on the table
    raw_scores: ClassVar[bool] = False  # scores are points held (riichi), not gains and losses
    # the session result's columns, in order, of "game_score", "table_points", "uma", "transfers",
    # "chombo", "penalties", "final"
    outcome_columns: ClassVar[tuple[str, ...]] = ("game_score", "transfers", "penalties", "final")
    score_sheet_partial: ClassVar[str] = "clock/_sheet_points.html"  # the printed score sheet's hands
    ranks_by: ClassVar[str] = "score"  # the standings rank by "table_points" (MERS) or by "score"
    # a session's value in the exports beside the game score: "table_points", "uma" or "final"
    session_value: ClassVar[str] = "final"
    has_chombo: ClassVar[bool] = False  # chombos are recorded and exported (riichi)
    table_points_deductions: ClassVar[bool] = False  # a referee may deduct table points (MERS)
    late_arrival_scale: ClassVar[str] = "minutes"  # how late arrival is charged: "minutes", "mers", "riichi"
    false_hu_default: ClassVar[str] = ""  # the false Hu variant a form offers first ("": none)
    false_hu_variants: ClassVar[bool] = False  # a false Hu names its variant (MCR 2.9.2)
    false_hu_by_dealer: ClassVar[bool] = False  # a false Hu's amounts depend on who dealt the hand
    # how a hand valued from its tiles was won: the flags a form offers, of "last_tile",
    # "replacement_tile", "robbing_kong", "fourth_tile", "double_riichi", "ippatsu", "first_turn",
    # "dealer_first_discard"
    tile_flags: ClassVar[tuple[str, ...]] = ("last_tile", "replacement_tile", "robbing_kong")
    # what else a hand's tiles carry, of "flowers", "own_flowers", "flower_sets", "kongs_in_a_row",
    # "dora" (dora and ura dora indicators), "red_fives" (only where the set has red fives)
    tile_extras: ClassVar[frozenset[str]] = frozenset()

    def __init__(self, key: str, config: Config):
        self.key = key
        self.config = config

    def with_overrides(self, overrides: Mapping[str, Any] | None) -> Ruleset:
        return type(self)(self.key, self.config.with_overrides(overrides))

    def liable_yakuman(self) -> tuple[str, ...]:
        """The hands whose win may name one liable player (``liable``) who pays for it (riichi's pao: big
        three dragons, big four winds); empty: none. Salamanca's shares of liability are its own form."""
        return ()

    def abortive_draws(self) -> bool:
        """Whether a draw may be marked abortive (``abortive``: no payments at the draw)."""
        return False

    def settings_not_offered(self) -> frozenset[str]:
        """Settings of the preset that the rules form leaves out because the preset's text rules them out
        (riichi: red fives where the set has none); a tournament that already changed one still sees it."""
        return frozenset()

    # -- hands and games -------------------------------------------------------------------
    def play_game(self, hands: Sequence[Mapping[str, Any]]) -> GameResult:
        """Replay a game hand by hand. Faults raise RuleError with path ``hands[i].field``."""
        raise EngineError(f"{type(self).__name__} does not score hands")

    def game_from_totals(self, scores: Sequence[Any], *, imbalance_reason: str = "") -> GameResult:
        """The game result from the four totals of the table's score sheet (path ``scores``)."""
        raise EngineError(f"{type(self).__name__} does not take totals")

    # -- the table's session result -------------------------------------------------------
    def table_result(
        self,
        game: GameResult,
        *,
        transfers: Sequence[Number] = (0, 0, 0, 0),
        deductions: Sequence[Number] = (0, 0, 0, 0),
        chombos: Sequence[int] = (0, 0, 0, 0),
        excluded: frozenset[int] = frozenset(),
        substitutes: frozenset[int] = frozenset(),
    ) -> TableResult:
        """Session result of each seat.

        transfers: in-game penalty transfers per seat (zero-sum; they count for the ranking).
        deductions: offender-only penalty points per seat (0 or negative).
        chombos: chombos recorded as penalties (totals mode), added to ``game.chombos``.
        excluded: seats whose occupant gets no table points (MERS 4.1.2 during the session, 4.2);
            the other three share 4, 2, 1 by rank (riichi 2025 §7.3: outside the others' uma).
        substitutes: seats a substitute plays, whenever he took them (riichi 2025 §7.3: a substitute's
            uma is fixed); the other rulesets ignore it.
        """
        raise EngineError(f"{type(self).__name__} has no table result")

    def start_scores(self) -> Four:
        """Each seat's score before the first hand (game points start at 0)."""
        return (0, 0, 0, 0)

    def score_sheet_rows(self) -> int:
        """Rows of hands on the printed score sheet."""
        return self.usual_hands() or 24

    def usual_hands(self) -> int | None:
        """The hands of a full session, when the rules set a count (a table confirmed with fewer says
        why); None: the rules set none."""
        return None

    def session_end(self) -> SessionEnd:
        """The session's length and end of time (the clock's settings of the preset and the tournament)."""
        c = self.config
        return SessionEnd(c.session_minutes, c.signal_minutes, c.red_zone_minutes, c.end_of_time)

    def substitution_exclusions(self, seat: int, reason: str, *, during: bool = False) -> frozenset[int]:
        """Seats left out of the places after a substitution: no table points (MERS §4), or outside the
        others' uma (riichi 2025 §7.3, a substitute after the game began); none elsewhere."""
        return frozenset()

    def substitute_outside_uma(self) -> bool:
        """Whether a substitute who takes a seat after the game began is left out of the others' uma
        (riichi 2025 §7.3)."""
        return False

    def late_minutes_rounded_up(self) -> bool:
        """Whether a started minute of lateness counts as a whole one (riichi 2025 §7.2 "rounded up");
        False: whole minutes only (MERS: "under 10 minutes" is 9 minutes 59 seconds too)."""
        return False

    def foul_charges(self, fouls: Sequence[Any]) -> tuple[Any, ...] | None:
        """What each foul of a player in a session costs when the rules charge fouls as a ladder with
        restarts (MCR); None: each foul is charged by ``foul(step)``."""
        return None

    # -- penalties ----------------------------------------------------------------------------
    def score_bound(self) -> int | None:
        """The largest score, up or down, one player's session can end on under these rules; totals beyond
        it are a typing slip far more often than a real game, so a referee confirms them. None: no bound."""
        return None

    def session_places(self, ranking: Sequence[Number]) -> tuple[Number, ...]:
        """What each of the four seats gets, by its place alone, in what ranks the standings first (MCR:
        table points; riichi: uma and oka; nothing elsewhere), when the table finishes in the order of
        ``ranking`` (higher is better; equal values are tied). The rest of a seat's session is its score."""
        return (0, 0, 0, 0)

    def session_outcomes(self) -> SessionOutcomes | None:
        """The range of one table's session: every way the places can fall (each as the values the four
        seats get, best first) and the most a seat's score moves beyond them, up or down. None: the rules
        set no bound on a session's score."""
        bound = self.score_bound()
        if bound is None:
            return None
        vectors = {tuple(sorted(self.session_places(order), reverse=True)) for order in WEAK_ORDERS}
        return SessionOutcomes(
            places=tuple(sorted(vectors, reverse=True)),  # type: ignore[arg-type]
            spread=self.session_spread(),
        )

    def session_spread(self) -> int:
        """The most a seat's session score moves beyond its place's value, up or down (``score_bound``
        unless the score counts from a target, as riichi's raw points do)."""
        return self.score_bound() or 0

    def session_hand_limit(self) -> int:
        """The most hands a session can have: the highest hand number a penalty on a table entered as
        totals may name (ARCHIVE.md). Rulesets with a fixed number of hands say it; the others have none
        short of this bound, far beyond any real session."""
        return 99

    def late_arrival(self, minutes_late: int) -> LateArrival:
        raise RuleError(
            gettext_noop("late arrival has no amount under the %(_key)s rules", _key=self.key), "minutes_late"
        )

    def foul(self, step: int) -> int:
        """Points of the ``step``-th foul of a player in a session (1 = first); 0 = warning."""
        raise RuleError(gettext_noop("the %(_key)s rules have no foul ladder", _key=self.key), "kind")

    def forgot_winning_tile(self) -> int:
        raise RuleError(
            gettext_noop("a forgotten winning tile has no amount under the %(_key)s rules", _key=self.key),
            "kind",
        )

    def false_hu(self, seat: int, variant: str) -> Four:
        """In-game transfers for a false Hu / false declaration by ``seat``."""
        raise RuleError(
            gettext_noop("false Hu has no amount under the %(_key)s rules", _key=self.key), "kind"
        )

    def chombo_points(self) -> int:
        """Deduction of one chombo from the final score (0 or negative)."""
        raise RuleError(gettext_noop("chombo has no amount under the %(_key)s rules", _key=self.key), "kind")

    def referee_bounds(self) -> tuple[int, int]:
        """The smallest and largest points a referee decision may carry."""
        return (-1000, 0)

    def referee_step(self) -> int | None:
        """The points of a referee decision are a multiple of this (None: any amount)."""
        return None

    def referee_minimum(self) -> int | None:
        """The smallest deduction of a referee decision that is not 0 (None: any amount)."""
        return None

    def counted_yakuman(self) -> bool:
        """Whether 13 han or more of yaku and dora make a yakuman (riichi; False where the rules have no
        such limit)."""
        return False

    def replacement_result(self) -> ReplacementResult | None:
        """The result a player replaced by a substitute (at his table, or absent at check-in) carries for
        that session; None: the session missed adds nothing (MERS-R §4.3)."""
        return None
