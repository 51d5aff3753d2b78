"""Helpers shared by the rule engines: input checks, ranking with ties, dealer rotation.

Pure Python, no Django import. Every check raises :class:`RuleError` with a path relative to
the value it looks at; callers prefix the path with :meth:`RuleError.within`.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, ClassVar

from . import numbers
from .base import SEATS, WINDS, EngineError, GameResult, Number, RuleError, Ruleset, SeatResult, TableResult
from .text import gettext_noop

# -- numbers ---------------------------------------------------------------------------------


def exact(value: Number) -> Number:
    """``value`` as an ``int`` when it is whole, else as a ``Fraction``."""
    if isinstance(value, Fraction) and value.denominator == 1:
        return int(value.numerator)
    return value


def exact_all(values: Iterable[Number]) -> tuple[Number, ...]:
    return tuple(exact(v) for v in values)


def whole(
    value: Any, what: str, path: str = "", *, minimum: int | None = None, limit: int = numbers.SCORE_LIMIT
) -> int:
    """A whole number (``bool`` is not one), at least ``minimum`` when given, at most ``limit`` in
    magnitude (see :mod:`numbers`)."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise RuleError(
            gettext_noop("%(_what)s must be a whole number, not %(value)s", _what=what, value=value), path
        )
    if abs(value) > limit:
        raise RuleError(
            gettext_noop(
                "%(_what)s is too large: at most %(_limit)s in magnitude", _what=what, _limit=f"{limit:,}"
            ),
            path,
        )
    if minimum is not None and value < minimum:
        raise RuleError(
            gettext_noop(
                "%(_what)s must be at least %(_minimum)s, not %(_value)s",
                _what=what,
                _minimum=minimum,
                _value=value,
            ),
            path,
        )
    return value


def number(value: Any, what: str, path: str = "", *, limit: int = numbers.SCORE_LIMIT) -> Number:
    """An exact number: ``int``, ``Fraction``, or a finite ``float`` read as its decimal text; at most
    ``limit`` in magnitude (see :mod:`numbers`)."""
    if isinstance(value, bool) or not isinstance(value, (int, Fraction, float)):
        raise RuleError(
            gettext_noop("%(_what)s must be a number, not %(value)s", _what=what, value=value), path
        )
    if isinstance(value, float) and not math.isfinite(value):
        raise RuleError(
            gettext_noop("%(_what)s must be a finite number, not %(value)s", _what=what, value=value), path
        )
    if abs(value) > limit:
        raise RuleError(
            gettext_noop(
                "%(_what)s is too large: at most %(_limit)s in magnitude", _what=what, _limit=f"{limit:,}"
            ),
            path,
        )
    return exact(Fraction(repr(value)) if isinstance(value, float) else value)


def fmt(value: Number) -> str:
    """A point value for messages: ``12``, ``-3/2``."""
    return str(exact(value))


def signed(value: Number) -> str:
    value = exact(value)
    return f"+{value}" if value > 0 else str(value)


# -- seats and hands ------------------------------------------------------------------------


def seat(value: Any, what: str, path: str = "") -> int:
    """A seat number 0..3."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise RuleError(
            gettext_noop("%(_what)s must be a seat number 0 to 3, not %(value)s", _what=what, value=value),
            path,
        )
    if not 0 <= value < SEATS:
        raise RuleError(
            gettext_noop("seat %(_value)s is not at this table (seats are 0 to 3)", _value=value), path
        )
    return value


def seat_key(key: Any, path: str) -> int:
    """A seat given as a mapping key: ``2`` or ``"2"``."""
    if isinstance(key, str) and key.strip().lstrip("-").isdigit():
        key = int(key.strip())
    return seat(key, gettext_noop("a seat"), path)


def field(hand: Mapping[str, Any], key: str, what: str = "") -> Any:
    """``hand[key]``, or a RuleError naming the missing key."""
    if key not in hand:
        raise RuleError(gettext_noop("%(_what)s is missing", _what=what or key), key)
    return hand[key]


def hand_mapping(hand: Any) -> Mapping[str, Any]:
    if not isinstance(hand, Mapping):
        raise RuleError(gettext_noop("a hand must be an object with a 'result', not %(hand)s", hand=hand))
    return hand


def known_fields(hand: Mapping[str, Any], known: Sequence[str], rules_name: str) -> None:
    """Refuse a field the ruleset does not know: a misspelt key must not be stored as sent."""
    for key in hand:
        if key not in known:
            raise RuleError(
                gettext_noop(
                    "unknown field '%(_key)s' in a %(_rules)s hand (known fields: %(_known)s)",
                    _key=key,
                    _rules=rules_name,
                    _known=", ".join(known),
                ),
                str(key),
            )


def hand_result(hand: Mapping[str, Any], allowed: Sequence[str], rules_name: str) -> str:
    result = field(hand, "result")
    if not isinstance(result, str) or result not in allowed:
        raise RuleError(
            gettext_noop(
                "result %(result)s is not one of the %(_rules_name)s results (%(_items)s)",
                result=result,
                _rules_name=rules_name,
                _items=", ".join(allowed),
            ),
            "result",
        )
    return result


def hand_list(hands: Any) -> Sequence[Any]:
    if isinstance(hands, (str, bytes, Mapping)) or not isinstance(hands, Sequence):
        raise RuleError(
            gettext_noop("hands must be a list of hands, not %(_type)s", _type=type(hands).__name__), "hands"
        )
    return hands


def four(values: Any, what: str, path: str) -> Sequence[Any]:
    """A list of exactly four values."""
    if isinstance(values, (str, bytes, Mapping)) or not isinstance(values, Sequence):
        raise RuleError(
            gettext_noop("%(_what)s must be a list of 4 values, not %(values)s", _what=what, values=values),
            path,
        )
    if len(values) != SEATS:
        raise RuleError(
            gettext_noop(
                "%(_what)s must list 4 values, one per seat, not %(_count)s", _what=what, _count=len(values)
            ),
            path,
        )
    return values


# -- ranking ---------------------------------------------------------------------------------


def places(values: Sequence[Number]) -> tuple[int, ...]:
    """The place (1 = best) of each value, highest first; tied values share the best place of their group.

    ``places([60, 60, -20, -100]) == (1, 1, 3, 4)``.
    """
    return tuple(1 + sum(1 for other in values if other > value) for value in values)


def share_by_rank(values: Sequence[Number], points: Sequence[Number]) -> tuple[Fraction, ...]:
    """Give ``points[k]`` to the (k+1)-th best value; tied values share the points of the places they occupy.

    ``share_by_rank([50, -10, -10, -30], [4, 2, 1, 0]) == (4, 3/2, 3/2, 0)``. The result does not depend
    on the order in which tied values are listed, and always sums to ``sum(points[:len(values)])``.
    """
    if len(points) < len(values):
        raise EngineError(f"{len(values)} values to rank but only {len(points)} places of points")
    result = []
    for value in values:
        better = sum(1 for other in values if other > value)
        tied = sum(1 for other in values if other == value)
        occupied = points[better : better + tied]
        result.append(Fraction(sum(Fraction(p) for p in occupied), tied))
    return tuple(result)


# -- dealer and rounds ----------------------------------------------------------------------


@dataclass
class DealerRotation:
    """Dealer and prevailing wind through a game of ``rounds`` rounds.

    Seat 0 deals the first hand. When the deal passes it goes to the next seat (East to South,
    that is seat ``d`` to ``d + 1``); a round ends when the deal has passed four times and seat 0
    deals again; the game is over after the last round.
    """

    rounds: int = 4
    dealer: int = 0
    round_index: int = 0
    passes: int = 0

    @property
    def over(self) -> bool:
        return self.round_index >= self.rounds

    @property
    def round_wind(self) -> str | None:
        return None if self.over else WINDS[self.round_index]

    def advance(self, *, keep: bool) -> None:
        if self.over:
            raise EngineError("the game is already over")
        if keep:
            return
        self.dealer = (self.dealer + 1) % SEATS
        self.passes += 1
        if self.passes == SEATS:
            self.passes = 0
            self.round_index += 1

    def next_dealer(self) -> int | None:
        return None if self.over else self.dealer


def dealer_of_hand(game: GameResult, index: int) -> int:
    """The seat that was East for hand ``index`` (0-based) of a game replayed with ``play_game``."""
    if index < 0 or index > len(game.steps):
        raise RuleError(gettext_noop("hand %(_number)s is not in this game", _number=index + 1), "hand")
    if index == 0:
        return 0
    dealer = game.steps[index - 1].dealer
    if dealer is None:
        raise RuleError(
            gettext_noop("hand %(_number)s comes after the end of the game", _number=index + 1), "hand"
        )
    return dealer


def round_name(wind: str) -> str:
    return {"E": "East", "S": "South", "W": "West", "N": "North"}[wind]


# -- games from totals and table results ---------------------------------------------------


def game_from_totals(
    scores: Any, *, imbalance_reason: Any, rules_name: str, whole_numbers: bool = False
) -> GameResult:
    """Four game totals that must sum to 0 unless a referee's ``imbalance_reason`` is given."""
    values = four(scores, gettext_noop("scores"), "scores")
    if whole_numbers:
        checked = tuple(
            whole(v, gettext_noop("the score of seat %(_i)s", _i=i), f"scores[{i}]")
            for i, v in enumerate(values)
        )
    else:
        checked = tuple(
            number(v, gettext_noop("the score of seat %(_i)s", _i=i), f"scores[{i}]")
            for i, v in enumerate(values)
        )
    if imbalance_reason is None:
        imbalance_reason = ""
    if not isinstance(imbalance_reason, str):
        raise RuleError(
            gettext_noop(
                "the imbalance reason must be text, not %(imbalance_reason)s",
                imbalance_reason=imbalance_reason,
            ),
            "imbalance_reason",
        )
    reason = imbalance_reason.strip()
    total = exact(sum(checked, Fraction(0)))
    if total != 0 and not reason:
        raise RuleError(
            gettext_noop(
                "%(_rules_name)s totals sum to %(_amount)s, not 0 (a referee may accept the sheet by stating the reason for the imbalance)",
                _rules_name=rules_name,
                _amount=fmt(total),
            ),
            "scores",
        )
    return GameResult(scores=checked, imbalance_reason=reason)  # type: ignore[arg-type]


@dataclass(frozen=True)
class TableInputs:
    transfers: tuple[Number, ...]
    deductions: tuple[Number, ...]
    excluded: frozenset[int]


def table_inputs(
    game: GameResult,
    transfers: Sequence[Number],
    deductions: Sequence[Number],
    chombos: Sequence[int],
    excluded: Iterable[int],
    rules_name: str,
) -> TableInputs:
    """Check the arguments of ``table_result`` common to the rulesets without chombo."""
    if not isinstance(game, GameResult) or len(game.scores) != SEATS:
        raise EngineError("table_result needs the GameResult of a four-seat game")
    checked_transfers = tuple(
        number(v, gettext_noop("the transfer of seat %(_i)s", _i=i), f"transfers[{i}]")
        for i, v in enumerate(four(transfers, gettext_noop("transfers"), "transfers"))
    )
    if sum(checked_transfers) != 0:
        raise EngineError(f"in-game transfers must sum to 0, not {fmt(sum(checked_transfers))}")
    checked_deductions = []
    for i, v in enumerate(four(deductions, gettext_noop("deductions"), "deductions")):
        d = number(v, gettext_noop("the penalty of seat %(_i)s", _i=i), f"deductions[{i}]")
        if d > 0:
            raise RuleError(
                gettext_noop(
                    "penalty %(_amount)s of seat %(_i)s is positive; penalties can only lower a score",
                    _amount=signed(d),
                    _i=i,
                ),
                f"deductions[{i}]",
            )
        checked_deductions.append(d)
    for i, c in enumerate(four(chombos, gettext_noop("chombos"), "chombos")):
        if c:
            raise RuleError(
                gettext_noop("the %(_rules_name)s rules have no chombo", _rules_name=rules_name),
                f"chombos[{i}]",
            )
    if any(game.chombos):
        raise RuleError(
            gettext_noop("the %(_rules_name)s rules have no chombo", _rules_name=rules_name), "chombos"
        )
    excluded_seats = frozenset(seat(s, gettext_noop("an excluded seat"), "excluded") for s in excluded)
    return TableInputs(checked_transfers, tuple(checked_deductions), excluded_seats)


def points_table_result(game: GameResult, inputs: TableInputs) -> TableResult:
    """Session result for rulesets without table points: game points + transfers + penalties."""
    seats = []
    for i in range(SEATS):
        score = game.scores[i]
        transfer = inputs.transfers[i]
        penalty = inputs.deductions[i]
        seats.append(
            SeatResult(
                game_score=score,
                table_points=None,
                uma=None,
                transfers=transfer,
                chombo=0,
                penalties=penalty,
                final=exact(Fraction(score) + Fraction(transfer) + Fraction(penalty)),
            )
        )
    return TableResult(seats=tuple(seats))  # type: ignore[arg-type]


def running(scores: Sequence[Number], deltas: Sequence[Number]) -> tuple[Number, ...]:
    """The scores after a hand: whole numbers added as they are (the common case, and the quick one), any
    other through ``Fraction``."""
    return tuple(
        a + b if type(a) is int and type(b) is int else exact(Fraction(a) + Fraction(b))
        for a, b in zip(scores, deltas, strict=True)
    )


def win_parties(hand: Mapping[str, Any]) -> tuple[int, int | None]:
    """The winner's seat and the discarder's (None for a self-drawn win) of a ``win`` hand."""
    winner = seat(field(hand, "winner"), gettext_noop("the winner"), "winner")
    discarder = field(hand, "discarder", gettext_noop("discarder (null for a self-drawn win)"))
    if discarder is not None:
        discarder = seat(discarder, gettext_noop("the discarder"), "discarder")
        if discarder == winner:
            raise RuleError(gettext_noop("the discarder cannot be the winner"), "discarder")
    return winner, discarder


class GamePointsRuleset(Ruleset):
    """A ruleset whose session value is the game points: no table points and no chombo."""

    rules_name: ClassVar[str] = ""

    def game_from_totals(self, scores: Sequence[Any], *, imbalance_reason: str = "") -> GameResult:
        return game_from_totals(scores, imbalance_reason=imbalance_reason, rules_name=self.rules_name)

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
        """Game points + transfers + penalties; there are no table points, so ``excluded`` changes nothing."""
        inputs = table_inputs(game, transfers, deductions, chombos, excluded, self.rules_name)
        return points_table_result(game, inputs)
