"""Classical Chinese rules (points and doubles), as in the mah jong article of the rulebook file 001.

Every player's hand is valued in points and doubles (§75, tables 1–3); the form gives each value
after doubles and before the limit. Settlement (§69–70):

1. every other player pays the winner the value of the winner's hand, whatever his own;
2. the losers then pay one another the differences of their hands.

East (the dealer) pays and receives double in both steps. A payment never exceeds the limit,
500, which is double for East (§79); limit hands (§85) score the limit.

The dealer keeps the deal until another player makes mah jong, and also after a drawn hand
(§73, §80); a game is four rounds, East to North (§81–82). A drawn hand pays nothing in the
mixed-hand game (§73). A false mah jong ends the hand: the offender pays East the limit and the
others half of it; a false mah jong by East pays each other player the limit (§71).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Literal

from . import common, numbers
from .base import SEATS, WINDS, Config, Four, GameResult, HandStep, Number, RuleError, Ruleset
from .common import dealer_of_hand
from .text import gettext_noop

RULES_NAME = "classical"

# the penalty has one amount whatever the kind of false mah jong recorded
FALSE_HU_VARIANTS = ("", "false_declaration", "below_minimum", "invalid_hand")


@dataclass(frozen=True)
class ClassicalConfig(Config):
    limit: int = 500  # §79, §85
    east_multiplier: int = 2  # §69–70: East pays and receives double (and his limit is double, §79)
    # §79 says payments never exceed the limit; "payment" caps each payment (a winner's hand or a
    # difference between two losers), "hand" caps every hand's value before the differences.
    limit_applies_to: Literal["payment", "hand"] = "payment"
    draw_settles: bool = False  # §73: only the clean-hand game settles differences after a draw
    dealer_keeps_on_draw: bool = True  # §73, §80
    rounds: int = 4  # §81: East, South, West, North

    def __post_init__(self) -> None:
        if self.limit < 1:
            raise RuleError(gettext_noop("rule 'limit' must be at least 1"), "rules.limit")
        if self.east_multiplier < 1:
            raise RuleError(
                gettext_noop("rule 'east_multiplier' must be at least 1"), "rules.east_multiplier"
            )
        if not 1 <= self.rounds <= 4:
            raise RuleError(gettext_noop("rule 'rounds' must be 1 to 4"), "rules.rounds")


class ClassicalRuleset(common.GamePointsRuleset):
    family = "classical"
    hand_form = "values"
    hand_partial = "scoring/_hand_classical.html"
    false_hu_by_dealer = True
    tile_flags = ("last_tile", "replacement_tile", "robbing_kong", "first_turn", "dealer_first_discard")
    tile_extras = frozenset({"flowers", "own_flowers", "flower_sets", "kongs_in_a_row"})
    config: ClassicalConfig
    rules_name = "Classical"

    def score_bound(self) -> int:
        """A game of every round twice over (§80), each hand the limit (§79) times East's multiplier, from
        three players."""
        return self.config.rounds * 4 * 2 * 3 * self.config.east_multiplier * self.config.limit

    def _values(self, raw: Any, needed: Sequence[int]) -> dict[int, int]:
        if not isinstance(raw, Mapping):
            raise RuleError(
                gettext_noop("values must map each seat to its hand value, not %(raw)s", raw=raw), "values"
            )
        values: dict[int, int] = {}
        for key, value in raw.items():
            s = common.seat_key(key, f"values.{key}")
            if s in values:
                raise RuleError(gettext_noop("seat %(_s)s is given twice", _s=s), f"values.{key}")
            values[s] = common.whole(
                value,
                f"the hand value of seat {s}",
                f"values.{key}",
                minimum=0,
                limit=numbers.HAND_VALUE_LIMIT,
            )
        for s in needed:
            if s not in values:
                raise RuleError(gettext_noop("values has no hand value for seat %(_s)s", _s=s), "values")
        if self.config.limit_applies_to == "hand":
            values = {s: min(v, self.config.limit) for s, v in values.items()}
        return values

    def _pay(self, amount: int, east_involved: bool) -> int:
        amount = min(amount, self.config.limit)
        return amount * self.config.east_multiplier if east_involved else amount

    def _settle_differences(
        self, deltas: list[int], values: Mapping[int, int], seats: Sequence[int], dealer: int
    ):
        for n, a in enumerate(seats):
            for b in seats[n + 1 :]:
                diff = values[a] - values[b]
                if diff == 0:
                    continue
                high, low = (a, b) if diff > 0 else (b, a)
                paid = self._pay(abs(diff), dealer in (a, b))
                deltas[high] += paid
                deltas[low] -= paid

    def hand_deltas(self, hand: Any, dealer: int = 0) -> tuple[Four, int | None, str]:
        """The point changes of one hand with ``dealer`` as East, its winner (None for a draw), and a note."""
        hand = common.hand_mapping(hand)
        common.known_fields(hand, ("result", "winner", "values", "limit_hand", "tiles", "ruling"), RULES_NAME)
        result = common.hand_result(hand, ("win", "draw"), RULES_NAME)
        deltas = [0] * SEATS
        if result == "draw":
            if not self.config.draw_settles:
                return (0, 0, 0, 0), None, "drawn hand, no payments"
            values = self._values(common.field(hand, "values"), range(SEATS))
            self._settle_differences(deltas, values, range(SEATS), dealer)
            return tuple(deltas), None, "drawn hand, differences settled"  # type: ignore[return-value]
        winner = common.seat(common.field(hand, "winner"), "the winner", "winner")
        limit_hand = hand.get("limit_hand", False)
        if limit_hand is None:
            limit_hand = False
        if not isinstance(limit_hand, bool):
            raise RuleError(
                gettext_noop("limit_hand must be true or false, not %(limit_hand)s", limit_hand=limit_hand),
                "limit_hand",
            )
        losers = [s for s in range(SEATS) if s != winner]
        values = self._values(common.field(hand, "values"), losers if limit_hand else range(SEATS))
        won = self.config.limit if limit_hand else values[winner]
        for s in losers:
            paid = self._pay(won, dealer in (s, winner))
            deltas[s] -= paid
            deltas[winner] += paid
        self._settle_differences(deltas, values, losers, dealer)
        note = f"seat {winner} mah jong, {'limit hand' if limit_hand else f'{won} points'}"
        if won > self.config.limit:
            note += f" (limit {self.config.limit})"
        return tuple(deltas), winner, note  # type: ignore[return-value]

    def play_game(self, hands: Sequence[Mapping[str, Any]]) -> GameResult:
        cfg = self.config
        hands = common.hand_list(hands)
        rotation = common.DealerRotation(rounds=cfg.rounds)
        scores: tuple[Number, ...] = (0, 0, 0, 0)
        steps = []
        for i, hand in enumerate(hands):
            if rotation.over:
                raise RuleError(
                    gettext_noop(
                        "the game ended after the %(_value)s round (§81); hand %(_number)s is one too many",
                        _value=common.round_name(WINDS[cfg.rounds - 1]),
                        _number=i + 1,
                    ),
                    f"hands[{i}]",
                )
            dealer = rotation.dealer
            try:
                deltas, winner, note = self.hand_deltas(hand, dealer)
            except RuleError as exc:
                raise exc.within(f"hands[{i}]") from None
            keep = winner == dealer if winner is not None else cfg.dealer_keeps_on_draw
            rotation.advance(keep=keep)
            scores = common.running(scores, deltas)
            steps.append(
                HandStep(
                    deltas=deltas,
                    scores=scores,  # type: ignore[arg-type]
                    dealer=rotation.next_dealer(),
                    round_wind=rotation.round_wind,
                    note=note,
                )
            )
        return GameResult(scores=scores, steps=tuple(steps))  # type: ignore[arg-type]

    def false_hu(self, seat: int, variant: str = "", *, dealer: int = 0) -> Four:
        """§71: a false mah jong pays East the limit and the two others half of it; East pays each the limit.

        ``dealer`` is the seat that was East for that hand (see :func:`dealer_of_hand`).
        """
        offender = common.seat(seat, "the offender", "player")
        east = common.seat(dealer, "the dealer", "dealer")
        if variant is None:
            variant = ""
        if not isinstance(variant, str) or variant not in FALSE_HU_VARIANTS:
            raise RuleError(
                gettext_noop(
                    "false mah jong variant %(variant)s is not one of %(_items)s",
                    variant=variant,
                    _items=", ".join(repr(v) for v in FALSE_HU_VARIANTS),
                ),
                "variant",
            )
        limit = Fraction(self.config.limit)
        deltas = [Fraction(0)] * SEATS
        for s in range(SEATS):
            if s == offender:
                continue
            paid = limit if offender == east or s == east else limit / 2
            deltas[s] += paid
            deltas[offender] -= paid
        return common.exact_all(deltas)  # type: ignore[return-value]


PRESETS: dict[str, Ruleset] = {"classical": ClassicalRuleset("classical", ClassicalConfig())}

__all__ = ["PRESETS", "ClassicalConfig", "ClassicalRuleset", "dealer_of_hand"]
