"""Mahjong Competition Rules (MCR) under the MERS tournament regulations (v1.1, August 2010).

Hands: a win needs ``min_fan`` fan (flowers excluded; the form gives the total). On a discard
the discarder pays ``base + F`` and the two others ``base``; self-drawn, each loser pays
``base + F``. An exhaustive draw pays nothing. The dealer has no effect on the scores.

Table points (per session): 4/2/1/0 by the rank of the game score plus in-game transfers
(false Hu); tied players share the points of the places they occupy. Offender-only deductions do
not change the ranking unless ``deductions_before_ranking`` is set.

Penalties (MERS): late arrival (2.2), forgotten winning tile (2.8.7), false Hu (2.9.2, 3.3),
the foul ladder (3.1) with its per-session restart (3.6), and the table points after a
substitution (4).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Literal

from . import common, numbers
from .base import (
    SEATS,
    WINDS,
    Config,
    Four,
    GameResult,
    HandStep,
    LateArrival,
    Number,
    RuleError,
    Ruleset,
    SeatResult,
    TableResult,
)
from .text import gettext_noop

RULES_NAME = "MCR"

FALSE_HU_VARIANTS = ("below_minimum", "invalid_hand")
SUBSTITUTION_REASONS = ("late_arrival", "illness", "disqualified")


@dataclass(frozen=True)
class MCRConfig(Config):
    # Green Book §3.5.6: "When the time has run out, all players cease playing immediately. Any hand in play
    # at that moment ends immediately, with no players earning points for that hand."
    end_of_time: Literal["last_hand", "one_more_hand", "at_once", "after_signal"] = "at_once"
    min_fan: int = 8  # fan needed to win, flowers excluded
    base_points: int = 8  # what every loser pays on top of the fan owed by the discarder/self-draw payers
    max_hands: int | None = 16  # hands in a full session (fewer when time runs out)
    hands_per_round: int = 4  # the prevailing wind changes every this many hands
    table_points: tuple[int, int, int, int] = (4, 2, 1, 0)  # by rank
    deductions_before_ranking: bool = False  # offender-only penalties count when ranking the table
    # MERS 2.2: late by fewer than late_short_minutes -> late_short_penalty; up to and including
    # late_grace_minutes -> late_long_penalty; beyond -> out of the session, a substitute plays.
    late_short_minutes: int = 10
    late_short_penalty: int = 10
    late_grace_minutes: int = 15
    late_long_penalty: int = 20
    # MERS 3.1: warning -> 5 -> 10 -> 20 -> 30 -> ... ; past the listed steps each foul costs
    # foul_increment more than the one before.
    foul_ladder: tuple[int, ...] = (0, 5, 10, 20, 30)
    foul_increment: int = 10
    forgot_winning_tile_penalty: int = 10  # MERS 2.8.7
    false_hu_below_minimum: int = 10  # MERS 2.9.2: paid to each other player
    false_hu_invalid_hand: int = 20  # MERS 2.9.2: paid to each other player
    referee_max_penalty: int = 1000  # largest deduction a referee decision may carry (3.4)

    def __post_init__(self) -> None:
        for name in (
            "min_fan",
            "base_points",
            "hands_per_round",
            "late_short_minutes",
            "late_short_penalty",
            "late_grace_minutes",
            "late_long_penalty",
            "foul_increment",
            "forgot_winning_tile_penalty",
            "false_hu_below_minimum",
            "false_hu_invalid_hand",
            "referee_max_penalty",
        ):
            if getattr(self, name) < 0:
                raise RuleError(
                    gettext_noop("rule '%(_name)s' cannot be negative", _name=name), f"rules.{name}"
                )
        if self.hands_per_round < 1:
            raise RuleError(
                gettext_noop("rule 'hands_per_round' must be at least 1"), "rules.hands_per_round"
            )
        if self.max_hands is not None and self.max_hands < 1:
            raise RuleError(gettext_noop("rule 'max_hands' must be at least 1 or null"), "rules.max_hands")
        if list(self.table_points) != sorted(self.table_points, reverse=True):
            raise RuleError(
                gettext_noop("rule 'table_points' must go from first place down to fourth"),
                "rules.table_points",
            )
        if self.late_grace_minutes < self.late_short_minutes:
            raise RuleError(
                gettext_noop("rule 'late_grace_minutes' cannot be shorter than 'late_short_minutes'"),
                "rules.late_grace_minutes",
            )
        if not self.foul_ladder or any(p < 0 for p in self.foul_ladder):
            raise RuleError(
                gettext_noop("rule 'foul_ladder' must list at least one amount, none negative"),
                "rules.foul_ladder",
            )


# -- the foul ladder across sessions (MERS 3.1, 3.6) ----------------------------------------


@dataclass(frozen=True)
class Foul:
    """One foul of a player, in the order the referee recorded it."""

    session: int
    persists: bool = False  # obstruction or time-wasting: the count does not restart afterwards


@dataclass(frozen=True)
class FoulCharge:
    step: int  # 1 = the first foul counted (a warning)
    points: int  # 0 or negative


# -- MERS 4: who gets no table points after a substitution ---------------------------------


def substitution_exclusions(seat: Any, reason: Any, *, during: Any = False) -> frozenset[int]:
    """The seats that get 0 table points when the player in ``seat`` is replaced for the session.

    - ``late_arrival`` (MERS 4.1.1): the substitute plays from the start; normal sharing, the
      substitute can take 4.
    - ``illness`` before the session (4.1.2): as above; ``during`` the session: the seat gets 0
      and the other three share 4, 2, 1 by rank.
    - ``disqualified`` for the session (4.2): the seat gets 0; the other three 4, 2, 1.

    The replaced player gets 0 table points for the session either way, and a substitute never
    has a place in the standings: both are standings matters, outside the table result.
    """
    s = common.seat(seat, "the replaced player's seat", "player")
    if not isinstance(reason, str) or reason not in SUBSTITUTION_REASONS:
        raise RuleError(
            gettext_noop(
                "substitution reason %(reason)s is not one of %(_items)s (MERS 4)",
                reason=reason,
                _items=", ".join(SUBSTITUTION_REASONS),
            ),
            "reason",
        )
    if not isinstance(during, bool):
        raise RuleError(
            gettext_noop("'during' must be true or false, not %(during)s", during=during), "during"
        )
    if reason == "late_arrival":
        if during:
            raise RuleError(
                gettext_noop(
                    "a late player is replaced from the start of the session, not during it (MERS 4.1.1)"
                ),
                "during",
            )
        return frozenset()
    if reason == "illness":
        return frozenset({s}) if during else frozenset()
    return frozenset({s})


# -- the ruleset ------------------------------------------------------------------------------


class MCRRuleset(Ruleset):
    family = "mcr"
    hand_form = "fan"
    hand_partial = "scoring/_hand_mcr.html"
    shows_dealer = False
    outcome_columns = ("game_score", "transfers", "penalties", "final", "table_points")
    score_sheet_partial = "clock/_sheet_fan.html"
    table_points_deductions = True
    ranks_by = "table_points"
    session_value = "table_points"
    false_hu_default = "below_minimum"
    false_hu_variants = True
    late_arrival_scale = "mers"
    tile_flags = ("last_tile", "replacement_tile", "robbing_kong", "fourth_tile")
    tile_extras = frozenset({"flowers"})
    config: MCRConfig

    # -- hands and games -----------------------------------------------------------------
    def hand_deltas(self, hand: Any, dealer: int = 0) -> tuple[Four, int | None, str]:
        """The point changes of one hand, its winner (None for a draw) and a short description.

        The dealer has no effect on MCR scores; the argument is there for a common signature.
        Error paths are relative to the hand.
        """
        hand = common.hand_mapping(hand)
        common.known_fields(hand, ("result", "winner", "discarder", "fan", "tiles", "ruling"), RULES_NAME)
        result = common.hand_result(hand, ("win", "draw"), RULES_NAME)
        if result == "draw":
            return (0, 0, 0, 0), None, "exhaustive draw"
        cfg = self.config
        winner, discarder = common.win_parties(hand)
        fan = common.whole(common.field(hand, "fan"), "fan", "fan", limit=numbers.FAN_LIMIT)
        if fan < cfg.min_fan:
            raise RuleError(
                gettext_noop(
                    "fan %(_fan)s is below the MCR minimum of %(_min_fan)s (flowers do not count)",
                    _fan=fan,
                    _min_fan=cfg.min_fan,
                ),
                "fan",
            )
        deltas = [0] * SEATS
        if discarder is None:
            for s in range(SEATS):
                if s != winner:
                    deltas[s] = -(cfg.base_points + fan)
            note = f"seat {winner} self-drawn, {fan} fan"
        else:
            for s in range(SEATS):
                if s != winner:
                    deltas[s] = -cfg.base_points
            deltas[discarder] -= fan
            note = f"seat {winner} wins on seat {discarder}'s discard, {fan} fan"
        deltas[winner] = -sum(deltas)
        return tuple(deltas), winner, note  # type: ignore[return-value]

    def session_hand_limit(self) -> int:
        return self.config.max_hands or super().session_hand_limit()

    def play_game(self, hands: Sequence[Mapping[str, Any]]) -> GameResult:
        cfg = self.config
        hands = common.hand_list(hands)
        if cfg.max_hands is not None and len(hands) > cfg.max_hands:
            raise RuleError(
                gettext_noop(
                    "hand %(_number)s is one too many: an MCR session has at most %(_max_hands)s hands",
                    _number=cfg.max_hands + 1,
                    _max_hands=cfg.max_hands,
                ),
                f"hands[{cfg.max_hands}]",
            )
        scores: tuple[Number, ...] = (0, 0, 0, 0)
        steps = []
        for i, hand in enumerate(hands):
            try:
                deltas, _, note = self.hand_deltas(hand)
            except RuleError as exc:
                raise exc.within(f"hands[{i}]") from None
            scores = common.running(scores, deltas)
            played = i + 1
            next_round = played // cfg.hands_per_round
            finished = cfg.max_hands is not None and played >= cfg.max_hands
            wind = None if finished or next_round >= len(WINDS) else WINDS[next_round]
            steps.append(HandStep(deltas=deltas, scores=scores, round_wind=wind, note=note))  # type: ignore[arg-type]
        return GameResult(scores=scores, steps=tuple(steps))  # type: ignore[arg-type]

    def game_from_totals(self, scores: Sequence[Any], *, imbalance_reason: str = "") -> GameResult:
        return common.game_from_totals(
            scores, imbalance_reason=imbalance_reason, rules_name=RULES_NAME, whole_numbers=True
        )

    # -- the table's session result -----------------------------------------------------
    def table_points(
        self, values: Sequence[Number], excluded: Iterable[int] = frozenset()
    ) -> tuple[Fraction, ...]:
        """Table points of the four seats ranked by ``values``; excluded seats get 0 and the others
        share the top places among themselves."""
        out = frozenset(excluded)
        ranked = [s for s in range(SEATS) if s not in out]
        shared = common.share_by_rank([values[s] for s in ranked], self.config.table_points)
        points = [Fraction(0)] * SEATS
        for s, p in zip(ranked, shared, strict=True):
            points[s] = p
        return tuple(points)

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
        inputs = common.table_inputs(game, transfers, deductions, chombos, excluded, RULES_NAME)
        totals = [Fraction(game.scores[s]) + Fraction(inputs.transfers[s]) for s in range(SEATS)]
        if self.config.deductions_before_ranking:
            totals = [t + Fraction(inputs.deductions[s]) for s, t in enumerate(totals)]
        points = self.table_points(totals, inputs.excluded)
        seats = []
        for s in range(SEATS):
            score, transfer, penalty = game.scores[s], inputs.transfers[s], inputs.deductions[s]
            seats.append(
                SeatResult(
                    game_score=score,
                    table_points=points[s],
                    uma=None,
                    transfers=transfer,
                    chombo=0,
                    penalties=penalty,
                    final=common.exact(Fraction(score) + Fraction(transfer) + Fraction(penalty)),
                )
            )
        return TableResult(seats=tuple(seats))  # type: ignore[arg-type]

    # -- penalties ------------------------------------------------------------------------
    def late_arrival(self, minutes_late: int) -> LateArrival:
        """MERS 2.2. ``minutes_late`` is whole minutes on the referee's clock."""
        cfg = self.config
        minutes = common.whole(minutes_late, "minutes late", "minutes_late", minimum=0)
        if minutes < cfg.late_short_minutes:
            return LateArrival(points=-cfg.late_short_penalty, disqualified=False)
        if minutes <= cfg.late_grace_minutes:
            return LateArrival(points=-cfg.late_long_penalty, disqualified=False)
        return LateArrival(points=0, disqualified=True)

    def foul(self, step: int) -> int:
        """MERS 3.1: the points of a player's ``step``-th counted foul (1 = warning)."""
        ladder = self.config.foul_ladder
        step = common.whole(step, "the foul count", "step", minimum=1)
        if step <= len(ladder):
            return -ladder[step - 1]
        return -(ladder[-1] + (step - len(ladder)) * self.config.foul_increment)

    def foul_charges(self, fouls: Sequence[Foul | Mapping[str, Any]]) -> tuple[FoulCharge, ...]:
        """Step and points of each foul of one player, given in the order they were recorded.

        The count restarts at each session (MERS 3.6), except once the player has been warned or
        penalised for obstruction or time-wasting (``persists``): from then on it carries on across
        sessions. Fouls are counted session by session, in recorded order within a session.
        """
        parsed = []
        for i, foul in enumerate(fouls):
            if isinstance(foul, Foul):
                session, persists = foul.session, foul.persists
            elif isinstance(foul, Mapping):
                try:
                    session = common.whole(common.field(foul, "session"), "session", "session", minimum=1)
                except RuleError as exc:
                    raise exc.within(f"fouls[{i}]") from None
                persists = foul.get("persists", False)
                if persists is None:
                    persists = False
            else:
                raise RuleError(
                    gettext_noop("a foul must be an object with a session, not %(foul)s", foul=foul),
                    f"fouls[{i}]",
                )
            if isinstance(foul, Foul):
                common.whole(session, "session", f"fouls[{i}].session", minimum=1)
            if not isinstance(persists, bool):
                raise RuleError(
                    gettext_noop("'persists' must be true or false, not %(persists)s", persists=persists),
                    f"fouls[{i}].persists",
                )
            parsed.append((session, persists, i))
        charges: list[FoulCharge | None] = [None] * len(parsed)
        count = 0
        carries = False
        current_session = None
        for session, persists, index in sorted(parsed, key=lambda item: (item[0], item[2])):
            if session != current_session:
                if not carries:
                    count = 0
                current_session = session
            count += 1
            charges[index] = FoulCharge(step=count, points=self.foul(count))
            carries = carries or persists
        return tuple(c for c in charges if c is not None)

    def forgot_winning_tile(self) -> int:
        """MERS 2.8.7: deducted from the winner's total only."""
        return -self.config.forgot_winning_tile_penalty

    def false_hu(self, seat: int, variant: str) -> Four:
        """MERS 2.9.2: the offender pays each other player 10 (under the minimum) or 20 (invalid hand)."""
        offender = common.seat(seat, "the offender", "player")
        if variant == "below_minimum":
            each = self.config.false_hu_below_minimum
        elif variant == "invalid_hand":
            each = self.config.false_hu_invalid_hand
        else:
            raise RuleError(
                gettext_noop(
                    "false Hu variant %(variant)s is not one of %(_items)s (MERS 2.9.2)",
                    variant=variant,
                    _items=", ".join(FALSE_HU_VARIANTS),
                ),
                "variant",
            )
        return tuple(-each * (SEATS - 1) if s == offender else each for s in range(SEATS))  # type: ignore[return-value]

    def session_places(self, ranking: Sequence[Number]) -> tuple[Number, ...]:
        """Table points by place, tied seats sharing the points of the places they occupy."""
        return self.table_points(ranking)

    def score_bound(self) -> int:
        """Every hand a self-drawn 88 fan: the winner takes 88 + base from each of three players."""
        return (self.config.max_hands or 16) * 3 * (88 + self.config.base_points)

    def referee_bounds(self) -> tuple[int, int]:
        return (-self.config.referee_max_penalty, 0)

    def substitution_exclusions(self, seat: Any, reason: Any, *, during: Any = False) -> frozenset[int]:
        return substitution_exclusions(seat, reason, during=during)

    def usual_hands(self) -> int | None:
        return self.config.max_hands

    def score_sheet_rows(self) -> int:
        return self.config.max_hands or 16


PRESETS: dict[str, Ruleset] = {"mcr": MCRRuleset("mcr", MCRConfig())}

__all__ = [
    "FALSE_HU_VARIANTS",
    "PRESETS",
    "SUBSTITUTION_REASONS",
    "Foul",
    "FoulCharge",
    "MCRConfig",
    "MCRRuleset",
    "substitution_exclusions",
]
