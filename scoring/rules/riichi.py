"""Riichi (Japanese) mahjong: hand values, game replay and the table's session result.

Sources, cited by section below:
- rulebook 002: EMA Riichi rules 2008 (Spanish), with the payment tables "Este/Otros, Tsumo/Ron" and the
  limit table ("Manos limite");
- rulebook 003: Japanese mahjong scoring rules (han and fu, counters, chombo, oka and uma).

Points are raw game points (not thousands). Seats are 0..3, seat 0 being East at the start of the game.
Where this module and RULES.md part ways, docs/rules-notes-riichi.md says why.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any, Literal

from . import common, numbers
from .base import (
    SEATS,
    WINDS,
    Config,
    EngineError,
    Four,
    GameResult,
    HandStep,
    LateArrival,
    Number,
    ReplacementResult,
    RuleError,
    Ruleset,
    SeatResult,
    TableResult,
)
from .text import gettext_noop

WIND_NAMES = {"E": "East", "S": "South", "W": "West", "N": "North"}
RESULTS = ("ron", "tsumo", "draw", "chombo")
#: fu a hand can have (002 §4.1: rounded up to tens; seven pairs 25; 003: 110 is the most for 1 or 2 han).
FU_VALUES = (20, 25, *range(30, 111, 10))
FU_RULE = "fu must be 20, 25 or a multiple of 10 up to 110"
MANGAN_BASE = 2000
#: (least han, limit name, base points): 002 "Manos limite" (mangan 5, haneman 6-7, baiman 8-10,
#: sanbaiman 11-12, yakuman 13+); the base is what each non-dealer pays on a self-draw.
LIMITS = (
    (13, "yakuman", 8000),
    (11, "sanbaiman", 6000),
    (8, "baiman", 4000),
    (6, "haneman", 3000),
    (5, "mangan", MANGAN_BASE),
)


_NON_NEGATIVE = ("start_points", "riichi_stick", "honba_ron", "honba_tsumo", "noten_total", "chombo_points")
#: the most minutes a late-arrival step or limit may name (the penalty forms take up to 600 minutes late)
LATE_MINUTES_MAX = 600


# -- the preset -----------------------------------------------------------------------------------
@dataclass(frozen=True)
class RiichiConfig(Config):
    """Every figure of a riichi preset, overridable one by one per tournament."""

    start_points: int = 30000  # each player's points at the start of a game
    target_points: int = 30000  # "objetivo" of 003's final score formula
    oka: int = 0  # bonus for first place (shared when tied), 003's formula
    uma: tuple[int, int, int, int] = (15000, 5000, -5000, -15000)  # by place, 1st..4th
    chombo_policy: Literal["final", "table"] = "final"  # deduction after uma, or mangan paid at the table
    chombo_points: int = 20000  # deducted from the final score per chombo ("final" policy)
    multiple_ron: bool = True  # False: head bump, only the first claimant after the discarder wins
    kiriage_mangan: bool = False  # 4 han 30 fu and 3 han 60 fu count as mangan
    # A hand the text makes worth two yakuman (002: big four winds; the thirteen-wait orphans, nine-wait
    # gates and single-wait four concealed pungs add one): ``yakuman: 2`` is accepted. Two different
    # yakuman in one hand never add up under any preset ("yakuman are not cumulative", 002 and 2025 §4.2).
    double_yakuman: bool = False
    # 13 han or more from yaku and dora count as a yakuman (002 "Manos límite": Yakuman 13+); off, such a
    # hand is a sanbaiman (2025 §4.1.2: "11 or more Sanbaiman") and only a yakuman yaku pays a yakuman.
    counted_yakuman: bool = False
    open_tanyao: bool = True  # All Simples counts in an open hand (off: concealed only, 002 preface)
    # Renhō, a win on a discard before one's first draw in an uninterrupted first go-around: "mangan"
    # (2025 §4.2.4: five han, not combined with other yaku or dora), "yakuman" (002 §4.2.5), or "none".
    renhou: Literal["none", "mangan", "yakuman"] = "mangan"
    # Minipoints of a pair of a wind that is both the seat and the round wind: 4 (two value pairs, 002
    # §4.1.1 and EMA 2016) or 2 (2025 §4.1.1, "treated as 2 minipoints instead of 4").
    double_wind_pair_fu: int = 4
    red_fives: int = 0  # red fives in the set, one per suit (0: none, as in the EMA and WRC rules)
    # Liability (pao): the player who fed the third called dragon set (big three dragons) or the fourth
    # called wind set (big four winds) pays the whole hand on a self-draw and half of it on a discard by
    # another player (2025 §3.3.7, 002 §3.3.6). ``liability_counters`` says who pays the counters of
    # such a ron: "discarder" alone (2025 §3.3.7 "only the discarder pays for any counters") or "shared"
    # with the liable player as the rest of the payment (002 §3.3.6 "comparte el pago").
    liability: bool = True
    liability_counters: Literal["discarder", "shared"] = "discarder"
    # Abortive draws (002 §3.4.3): a draw with no noten payments, a counter added, the riichi bets kept
    # on the table; the dealer stays when tenpai (002 §3.4.12). Off: a hand ends by exhaustive draw or by
    # a win (2025 §3.4), and a draw marked abortive is refused.
    abortive_draws: bool = False
    honba_ron: int = 300  # per counter, paid by the discarder (002 §3.4.10)
    honba_tsumo: int = 100  # per counter, paid by each payer on a self-draw
    riichi_stick: int = 1000  # the riichi bet (002 §3.3.12)
    noten_total: int = 3000  # noten penalty shared by the tenpai players (002 §3.4.2)
    leftover_sticks_to_first: bool = True  # sticks left at the end go to first place (002 §3.6)
    # Sticks shared by tied first places: "exact" keeps a fraction of a point (RULES.md), "round_down"
    # gives each whole points (2025 §3.7: "the points are split in case of a tie (any decimals are
    # rounded down)")
    sticks_split: Literal["exact", "round_down"] = "exact"
    ties: Literal["share", "seat"] = "share"  # tied players share places, or the earlier seat ranks first
    two_yaku_counters: int | None = None  # from this many counters a win needs 2 yaku (002 §3.4.11)
    rounds: int = 2  # rounds in a game: 2 = hanchan, East and South (002 §3.1)
    referee_limit: int = 100000  # largest deduction a referee decision may carry, in points
    # A referee decision's points must be a multiple of this; no preset default (no published source
    # found, see docs/rules-notes-riichi.md): None accepts any amount within the limit.
    referee_step: int | None = None
    # The smallest deduction of a referee decision other than 0 (a warning); no preset default either
    # (Pantheon's presets take 100 to 20000 in steps of 100; docs/rules-notes-riichi.md).
    referee_minimum: int | None = None
    # A player replaced by a substitute carries this fixed session result (points against the target,
    # plus ``replacement_uma``) for the session missed: -15000 and -15000 under 2025 §7.3 ("will score
    # -15,000 points and -15,000 uma at each session"); the other presets' texts give none.
    replacement_points: int | None = None
    replacement_uma: int | None = None
    # A substitute who took the seat after the game at the table began does not count for the others'
    # uma: the substitute gets the last place's uma, the other three the first three places' by their
    # own order (2025 §7.3); off, the substitute is a full player at the table.
    substitute_outside_uma: bool = False
    # Late arrival: late by ``late_arrival_minutes[i]`` minutes or more (and less than the next step),
    # ``late_arrival_points[i]`` points are deducted from the final score, like a chombo under the "final"
    # policy; later than ``late_arrival_limit`` minutes the player is out of the session and a substitute
    # takes the seat. 2025 §7.2 sets 1000 points a minute up to 10 minutes and §7.3 the substitute past
    # them; the other presets' texts give no figures: until a tournament sets them a late arrival is refused.
    late_arrival_minutes: tuple[int, ...] = ()
    late_arrival_points: tuple[int, ...] = ()
    late_arrival_limit: int | None = None
    # A started minute counts as a whole one (2025 §7.2 "rounded up": 9 minutes 30 seconds is 10)
    late_minutes_rounded_up: bool = False
    session_minutes: int = 90  # WRC 2015 §8.2: the recommended time limit of a hanchan

    def __post_init__(self) -> None:
        if sum(self.uma) != 0:
            raise RuleError(
                gettext_noop("uma must sum to 0, not %(_value)s", _value=sum(self.uma)), "rules.uma"
            )
        if not 1 <= self.rounds <= 4:
            raise RuleError(
                gettext_noop("rounds must be 1 to 4, not %(_rounds)s", _rounds=self.rounds), "rules.rounds"
            )
        if self.double_wind_pair_fu not in (2, 4):
            raise RuleError(
                gettext_noop(
                    "double_wind_pair_fu must be 2 or 4, not %(_value)s", _value=self.double_wind_pair_fu
                ),
                "rules.double_wind_pair_fu",
            )
        if self.renhou not in ("none", "mangan", "yakuman"):
            raise RuleError(
                gettext_noop("renhou must be none, mangan or yakuman, not %(_value)s", _value=self.renhou),
                "rules.renhou",
            )
        if not 0 <= self.red_fives <= 3:
            raise RuleError(
                gettext_noop("red_fives must be 0 to 3, not %(_red_fives)s", _red_fives=self.red_fives),
                "rules.red_fives",
            )
        for key in _NON_NEGATIVE:
            if getattr(self, key) < 0:
                raise RuleError(gettext_noop("rule '%(_key)s' cannot be negative", _key=key), f"rules.{key}")
        if self.referee_step is not None and not 1 <= self.referee_step <= max(1, self.referee_limit):
            raise RuleError(
                gettext_noop(
                    "referee_step must be from 1 to referee_limit (%(limit)s), not %(step)s",
                    limit=self.referee_limit,
                    step=self.referee_step,
                ),
                "rules.referee_step",
            )
        if self.referee_minimum is not None and not 1 <= self.referee_minimum <= max(1, self.referee_limit):
            raise RuleError(
                gettext_noop(
                    "referee_minimum must be from 1 to referee_limit (%(limit)s), not %(minimum)s",
                    limit=self.referee_limit,
                    minimum=self.referee_minimum,
                ),
                "rules.referee_minimum",
            )
        self._check_late_arrival()

    def _check_late_arrival(self) -> None:
        steps, amounts, limit = self.late_arrival_minutes, self.late_arrival_points, self.late_arrival_limit
        if len(steps) != len(amounts):
            raise RuleError(
                gettext_noop(
                    "rules 'late_arrival_minutes' and 'late_arrival_points' must list as many values, "
                    "not %(_steps)s and %(_amounts)s",
                    _steps=len(steps),
                    _amounts=len(amounts),
                ),
                "rules.late_arrival_points",
            )
        if any(not 0 <= m <= LATE_MINUTES_MAX for m in steps) or list(steps) != sorted(set(steps)):
            raise RuleError(
                gettext_noop(
                    "rule 'late_arrival_minutes' must list minutes from 0 to %(_max)s, each step later "
                    "than the one before",
                    _max=LATE_MINUTES_MAX,
                ),
                "rules.late_arrival_minutes",
            )
        if any(not 0 <= p <= numbers.POINTS_LIMIT for p in amounts):
            raise RuleError(
                gettext_noop(
                    "rule 'late_arrival_points' must list points from 0 to %(_max)s (the points deducted)",
                    _max=numbers.POINTS_LIMIT,
                ),
                "rules.late_arrival_points",
            )
        if limit is not None and not max((0, *steps)) <= limit <= LATE_MINUTES_MAX:
            raise RuleError(
                gettext_noop(
                    "rule 'late_arrival_limit' must be from the last step of 'late_arrival_minutes' "
                    "(%(_last)s) to %(_max)s minutes, not %(_limit)s",
                    _last=max((0, *steps)),
                    _max=LATE_MINUTES_MAX,
                    _limit=limit,
                ),
                "rules.late_arrival_limit",
            )


#: The presets; docs/rules-notes-riichi.md gives each value with the article it comes from.
EMA_2016 = RiichiConfig()
PRESET_CONFIGS: dict[str, RiichiConfig] = {
    "ema-riichi-2016": EMA_2016,
    # 2025 revision notes: kiriage mangan; a double wind pair is 2 minipoints instead of 4
    # and the tournament rules of §7: lateness (§7.2), substitutes (§7.3), the session's end (§7.4)
    "ema-riichi-2025": replace(
        EMA_2016,
        kiriage_mangan=True,
        double_wind_pair_fu=2,
        sticks_split="round_down",
        late_arrival_minutes=tuple(range(1, 11)),
        late_arrival_points=tuple(1000 * m for m in range(1, 11)),
        late_arrival_limit=10,
        late_minutes_rounded_up=True,
        replacement_points=-15000,
        replacement_uma=-15000,
        substitute_outside_uma=True,
        end_of_time="after_signal",
    ),
    # WRC: head bump (RULES.md); the WRC 2015 rule book lists an abortive draw (its §5.7.3)
    "wrc-riichi": replace(EMA_2016, multiple_ron=False, abortive_draws=True),
    # rulebook 002: uma 9/3, chombo paid at the table (§3.4.6), two yaku from five counters (§3.4.11),
    # three red fives (§1.1), All Simples concealed only (preface), 13+ han and renhō are yakuman, and
    # big four winds (or the thirteen-, nine- and pair-wait yakuman) count twice (§4.2.5)
    "ema-riichi-2008": replace(
        EMA_2016,
        uma=(9000, 3000, -3000, -9000),
        chombo_policy="table",
        two_yaku_counters=5,
        red_fives=3,
        open_tanyao=False,
        counted_yakuman=True,
        double_yakuman=True,
        renhou="yakuman",
        liability_counters="shared",
        abortive_draws=True,
    ),
}


# -- numbers ---------------------------------------------------------------------------------------
def exact(value: Number) -> Number:
    """An int when the value is whole, else the Fraction."""
    if isinstance(value, Fraction) and value.denominator == 1:
        return int(value)
    return value


def share(amount: Number, ways: int) -> Number:
    return exact(Fraction(amount) / ways)


def round_up_100(points: int) -> int:
    """002 §4.1.2: every payment is rounded up to the next hundred."""
    return -(-points // 100) * 100


# -- the value of a hand ---------------------------------------------------------------------------
def fu_problem(han: int, fu: int, win: str) -> str | None:
    """Why ``han``/``fu`` cannot be won by ``win`` ("ron" or "tsumo"), or None when it can.

    The cells left empty in 002's tables: 1 han 20 fu (on a discard or self-drawn: pinfu tsumo is
    already 2 han, 003 "Tabla de puntuación"); seven pairs (25 fu) is 2 han, 3 with menzen tsumo.
    002's Ron tables have no 20 fu row at all, but published EMA hand logs record 20 fu wins on a
    discard from 2 han up and pay them by the formula (3 han 20 fu: 20 × 2^5 × 4 → 2600); refusing
    them would make those records unimportable, so from 2 han they are accepted and paid that way
    (docs/rules-notes-riichi.md).
    """
    if fu not in FU_VALUES:
        return FU_RULE
    if win == "ron":
        if fu == 20 and han < 2:
            return f"{han} han 20 fu cannot be won on a discard"
        if fu == 25 and han < 2:
            return "25 fu needs at least 2 han (seven pairs)"
    else:
        if fu == 20 and han < 2:
            return f"{han} han 20 fu cannot be won by self-draw (pinfu with menzen tsumo is 2 han)"
        if fu == 25 and han < 3:
            return "25 fu needs at least 3 han on a self-draw (seven pairs with menzen tsumo)"
    return None


def valid_fu(han: int, win: str, dealer: bool = False) -> list[int]:
    """The fu values that exist for ``han`` won by ``win`` ("ron" or "tsumo").

    Empty from 5 han up, where fu do not count (002 §4.1). The dealer's tables have the same empty
    cells as the others' (002 §4.1.3), so ``dealer`` changes nothing; it is taken for the entry form.
    """
    if win not in ("ron", "tsumo"):
        raise EngineError(f"win must be 'ron' or 'tsumo', not {win!r}")
    if not 1 <= han < 5:
        return []
    return [fu for fu in FU_VALUES if fu_problem(han, fu, win) is None]


def base_points(han: int, fu: int | None, *, kiriage: bool = False, yakuman: int = 1) -> tuple[int, str]:
    """Base points and limit name of a hand (002 §4.1.2; 003 "Cálculo de puntos básicos").

    Below the limits, base = fu × 2^(han+2), capped at mangan (2000); with kiriage, 1920 (4 han 30 fu,
    3 han 60 fu) is raised to mangan too. ``yakuman`` 2 doubles a yakuman.
    """
    for least, name, base in LIMITS:
        if han >= least:
            if name == "yakuman":
                return base * yakuman, "double yakuman" if yakuman == 2 else name
            return base, name
    if fu is None:
        raise EngineError(f"{han} han needs fu")
    base = fu * 2 ** (han + 2)
    if base >= MANGAN_BASE or (kiriage and base == 1920):
        return MANGAN_BASE, "mangan"
    return base, ""


@dataclass(frozen=True)
class HandValue:
    """What a hand is worth before counters and sticks."""

    base: int
    limit: str  # "", "mangan", ..., "yakuman", "double yakuman"
    ron: int  # paid by the discarder
    tsumo_dealer: int  # paid by the dealer on a self-draw (by each payer when the winner deals)
    tsumo_other: int  # paid by each non-dealer on a self-draw

    @property
    def tsumo_total(self) -> int:
        return self.tsumo_dealer + 2 * self.tsumo_other


def hand_value(
    han: int, fu: int | None, *, dealer: bool, kiriage: bool = False, yakuman: int = 1
) -> HandValue:
    """Payments of a hand: ron 4×base (dealer 6×base); tsumo 2×base from the dealer and 1×base from
    the others (dealer winner: 2×base from each); each payment rounded up to 100 (002 §4.1.2)."""
    base, limit = base_points(han, fu, kiriage=kiriage, yakuman=yakuman)
    if dealer:
        each = round_up_100(2 * base)
        return HandValue(base, limit, round_up_100(6 * base), each, each)
    return HandValue(base, limit, round_up_100(4 * base), round_up_100(2 * base), round_up_100(base))


def noten_payments(tenpai: Sequence[int], total: int = 3000) -> Four:
    """002 §3.4.2: the noten players pay ``total`` to the tenpai players; nothing when all or none."""
    if len(tenpai) in (0, SEATS):
        return (0, 0, 0, 0)
    gain = share(total, len(tenpai))
    loss = share(total, SEATS - len(tenpai))
    return tuple(gain if seat in tenpai else -loss for seat in range(SEATS))  # type: ignore[return-value]


def turn_order_after(seat: int) -> list[int]:
    """The other seats in turn order from ``seat`` (002 §2.1: South sits on East's right)."""
    return [(seat + k) % SEATS for k in range(1, SEATS)]


# -- hands -----------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Win:
    player: int
    han: int
    fu: int | None
    yakuman: int = 1
    liable: int | None = None  # the player liable for the yakuman (pao), 2025 §3.3.7, 002 §3.3.6


@dataclass(frozen=True)
class Hand:
    """One validated hand; winners of a ron in turn order after the discarder."""

    result: str
    winners: tuple[Win, ...] = ()
    loser: int | None = None
    riichi: tuple[int, ...] = ()
    tenpai: tuple[int, ...] = ()
    player: int | None = None  # the offender of a chombo
    abortive: bool = False  # an abortive draw (002 §3.4.3)


_KEYS = {
    "ron": {"result", "loser", "winners", "riichi"},
    "tsumo": {"result", "winner", "han", "fu", "yakuman", "liable", "riichi", "tiles", "ruling"},
    "draw": {"result", "tenpai", "riichi", "abortive"},
    "chombo": {"result", "player"},
}
_WIN_KEYS = {"player", "han", "fu", "yakuman", "liable", "tiles", "ruling"}
#: the yakuman whose feeder is liable (2025 §3.3.7, 002 §3.3.6), as the rules name them
LIABLE_YAKUMAN = ("big three dragons", "big four winds")


def _check_keys(data: Mapping[str, Any], allowed: set[str], what: str) -> None:
    for key in data:
        if key not in allowed:
            known = ", ".join(sorted(allowed))
            raise RuleError(
                gettext_noop(
                    "unknown field '%(_key)s' in %(_what)s (known fields: %(_known)s)",
                    _key=key,
                    _what=what,
                    _known=known,
                ),
                str(key),
            )


def _seat(value: Any, path: str) -> int:
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < SEATS:
        return value
    raise RuleError(gettext_noop("a player must be given as a seat 0..3, not %(value)s", value=value), path)


def _seats(value: Any, path: str) -> tuple[int, ...]:
    if value is None:
        return ()
    if not isinstance(value, (list, tuple)):
        raise RuleError(
            gettext_noop("%(_path)s must be a list of seats, not %(value)s", _path=path, value=value), path
        )
    seats = tuple(_seat(v, f"{path}[{i}]") for i, v in enumerate(value))
    for i, seat in enumerate(seats):
        if seat in seats[:i]:
            raise RuleError(
                gettext_noop("seat %(_seat)s is listed twice in %(_path)s", _seat=seat, _path=path),
                f"{path}[{i}]",
            )
    return seats


def _win(data: Mapping[str, Any], player: int, win: str, config: RiichiConfig) -> Win:
    han = data.get("han")
    if not isinstance(han, int) or isinstance(han, bool):
        raise RuleError(gettext_noop("han must be a whole number, not %(han)s", han=han), "han")
    if han < 1:
        raise RuleError(
            gettext_noop("han must be at least 1 (a win needs a yaku), not %(_han)s", _han=han), "han"
        )
    if han > numbers.FAN_LIMIT:
        raise RuleError(
            gettext_noop("han is too large: at most %(_limit)s", _limit=f"{numbers.FAN_LIMIT:,}"), "han"
        )
    fu = data.get("fu")
    if fu is not None and (not isinstance(fu, int) or isinstance(fu, bool) or fu not in FU_VALUES):
        raise RuleError(FU_RULE, "fu")
    if han < 5:  # from 5 han up fu do not count (002 §4.1)
        if fu is None:
            raise RuleError(gettext_noop("a %(_han)s han hand needs its fu", _han=han), "fu")
        problem = fu_problem(han, fu, win)
        if problem:
            raise RuleError(problem, "fu")
    yakuman = data.get("yakuman", 1)
    if yakuman != 1:
        if yakuman != 2 or isinstance(yakuman, bool):
            raise RuleError(
                gettext_noop("yakuman must be 1 or 2, not %(yakuman)s", yakuman=yakuman), "yakuman"
            )
        if han < 13:
            raise RuleError(
                gettext_noop("a double yakuman needs 13 han or more, not %(_han)s", _han=han), "yakuman"
            )
        if not config.double_yakuman:
            raise RuleError(
                gettext_noop("a double yakuman is not allowed by these rules (rule 'double_yakuman')"),
                "yakuman",
            )
    return Win(player, han, fu, yakuman, _liable(data, player, han, config))


def _liable(data: Mapping[str, Any], player: int, han: int, config: RiichiConfig) -> int | None:
    """The liable player of a win (``liable``), checked: the preset has liability, the hand is a yakuman
    (big three dragons or big four winds; their tiles, when given, are checked by ``scoring.rules.tiles``)
    and the liable player is not the winner (2025 §3.3.7, 002 §3.3.6)."""
    value = data.get("liable")
    if value is None:
        return None
    if not config.liability:
        raise RuleError(
            gettext_noop("liability (pao) is not part of these rules (rule 'liability')"), "liable"
        )
    liable = _seat(value, "liable")
    if liable == player:
        raise RuleError(gettext_noop("the liable player cannot be the winner"), "liable")
    if han < 13:
        raise RuleError(
            gettext_noop(
                "liability applies only to a yakuman (big three dragons, big four winds): "
                "han must be 13, not %(_han)s (2025 §3.3.7, rulebook 002 §3.3.6)",
                _han=han,
            ),
            "liable",
        )
    return liable


def parse_hand(data: Any, config: RiichiConfig = EMA_2016) -> Hand:
    """Validate one hand shaped as in ARCHIVE.md with seats for players; paths are relative to it."""
    if not isinstance(data, Mapping):
        raise RuleError(gettext_noop("a hand must be an object, not %(data)s", data=data))
    result = data.get("result")
    if result not in RESULTS:
        raise RuleError(
            gettext_noop(
                "unknown hand result %(result)s (known results: %(_items)s)",
                result=result,
                _items=", ".join(RESULTS),
            ),
            "result",
        )
    _check_keys(data, _KEYS[result], f"a {result} hand")
    riichi = _seats(data.get("riichi"), "riichi")
    if result == "chombo":
        return Hand(result, player=_seat(data.get("player"), "player"))
    if result == "draw":
        abortive = data.get("abortive", False)
        if not isinstance(abortive, bool):
            raise RuleError(
                gettext_noop("abortive must be true or false, not %(abortive)s", abortive=abortive),
                "abortive",
            )
        if abortive and not config.abortive_draws:
            raise RuleError(
                gettext_noop(
                    "these rules have no abortive draw: a hand ends by exhaustive draw or by a win "
                    "(rule 'abortive_draws'; EMA 2025 §3.4)"
                ),
                "abortive",
            )
        return Hand(result, riichi=riichi, tenpai=_seats(data.get("tenpai"), "tenpai"), abortive=abortive)
    if result == "tsumo":
        winner = _seat(data.get("winner"), "winner")
        return Hand(result, winners=(_win(data, winner, "tsumo", config),), riichi=riichi)
    loser = _seat(data.get("loser"), "loser")
    raw_winners = data.get("winners")
    if not isinstance(raw_winners, (list, tuple)) or not 1 <= len(raw_winners) <= SEATS - 1:
        raise RuleError(
            gettext_noop(
                "winners must be a list of 1 to 3 winners, not %(raw_winners)s", raw_winners=raw_winners
            ),
            "winners",
        )
    winners: dict[int, Win] = {}
    for i, raw in enumerate(raw_winners):
        path = f"winners[{i}]"
        if not isinstance(raw, Mapping):
            raise RuleError(gettext_noop("a winner must be an object, not %(raw)s", raw=raw), path)
        try:
            _check_keys(raw, _WIN_KEYS, "a winner")
            player = _seat(raw.get("player"), "player")
            if player == loser:
                raise RuleError(gettext_noop("the discarder cannot be the winner"), "player")
            if player in winners:
                raise RuleError(
                    gettext_noop("seat %(_player)s is listed twice among the winners", _player=player),
                    "player",
                )
            winners[player] = _win(raw, player, "ron", config)
        except RuleError as exc:
            raise exc.within(path) from None
    ordered = tuple(winners[s] for s in turn_order_after(loser) if s in winners)
    return Hand(result, winners=ordered, loser=loser, riichi=riichi)


def seat_hands(hands: Sequence[Mapping[str, Any]], seats: Sequence[str]) -> list[dict[str, Any]]:
    """Archive hands with player keys turned into seat numbers (``seats`` lists the keys by seat)."""
    index = {key: seat for seat, key in enumerate(seats)}

    def seat_of(key: Any, path: str) -> Any:
        if key not in index:
            raise RuleError(gettext_noop("player %(key)s does not sit at this table", key=key), path)
        return index[key]

    converted = []
    for i, hand in enumerate(hands):
        if not isinstance(hand, Mapping):
            raise RuleError(gettext_noop("a hand must be an object, not %(hand)s", hand=hand), f"hands[{i}]")
        out = dict(hand)
        for key in ("loser", "winner", "player", "liable"):
            if key in out:
                out[key] = seat_of(out[key], f"hands[{i}].{key}")
        for key in ("riichi", "tenpai"):
            if isinstance(out.get(key), (list, tuple)):
                out[key] = [seat_of(p, f"hands[{i}].{key}[{j}]") for j, p in enumerate(out[key])]
        if isinstance(out.get("winners"), (list, tuple)):
            out["winners"] = [
                {
                    **w,
                    "player": seat_of(w.get("player"), f"hands[{i}].winners[{j}].player"),
                    **(
                        {"liable": seat_of(w["liable"], f"hands[{i}].winners[{j}].liable")}
                        if "liable" in w
                        else {}
                    ),
                }
                if isinstance(w, Mapping)
                else w
                for j, w in enumerate(out["winners"])
            ]
        converted.append(out)
    return converted


# -- a game ----------------------------------------------------------------------------------------
@dataclass(frozen=True)
class _Table:
    """The state before a hand: dealer passes so far, counters and sticks on the table."""

    scores: tuple[Number, ...]
    passes: int = 0  # dealer changes so far: dealer = passes % 4, round = passes // 4
    honba: int = 0
    sticks: int = 0

    @property
    def dealer(self) -> int:
        return self.passes % SEATS

    @property
    def wind(self) -> str:
        return WINDS[self.passes // SEATS]

    def label(self) -> str:
        counters = f", {self.honba} counter{'s' if self.honba != 1 else ''}" if self.honba else ""
        return f"{WIND_NAMES[self.wind]} {self.dealer + 1}{counters}"


def _describe(win: Win, value: HandValue) -> str:
    if value.limit.endswith("yakuman"):
        return value.limit
    return f"{win.han} han {value.limit or f'{win.fu} fu'}"


def _settle(hand: Hand, table: _Table, config: RiichiConfig) -> tuple[list[Number], int, bool, str]:
    """Deltas, sticks left on the table, whether the dealer keeps the deal, and a note.

    Riichi bets are paid to the table first (002 §3.3.12); the winner takes every stick; on a multiple
    ron each riichi winner takes back their own bet and the other sticks go to the winner first in turn
    order after the discarder (002 §3.4.3, §4.1). Counters: ron +honba_ron each from the discarder (to
    every winner of a multiple ron, 002 §4.1), tsumo +honba_tsumo from each payer (002 §3.4.10).
    """
    deltas: list[Number] = [0] * SEATS
    for seat in hand.riichi:
        deltas[seat] -= config.riichi_stick
    sticks = table.sticks + len(hand.riichi)
    dealer = table.dealer

    def value(win: Win) -> HandValue:
        return hand_value(
            win.han, win.fu, dealer=win.player == dealer, kiriage=config.kiriage_mangan, yakuman=win.yakuman
        )

    if hand.result == "draw":
        # an abortive draw moves no noten payment (002 §3.4.3); the counter, the sticks kept and the
        # dealer staying when tenpai (002 §3.4.12, "tras un empate") are those of any draw
        if not hand.abortive:
            for seat, amount in enumerate(noten_payments(hand.tenpai, config.noten_total)):
                deltas[seat] += amount
        tenpai = ", ".join(f"seat {s}" for s in hand.tenpai) or "nobody"
        kind = "abortive draw" if hand.abortive else "draw"
        return deltas, sticks, dealer in hand.tenpai, f"{kind}, tenpai: {tenpai}"

    if hand.result == "tsumo":
        win = hand.winners[0]
        val = value(win)
        for seat in range(SEATS):
            if seat != win.player:
                pay = val.tsumo_dealer if seat == dealer else val.tsumo_other
                pay += table.honba * config.honba_tsumo
                # liability: the liable player alone pays the whole hand, the counters with it, "los
                # otros dos oponentes no deben pagar nada" (002 §3.3.6; 2025 §3.3.7 "alone pays")
                deltas[seat if win.liable is None else win.liable] -= pay
                deltas[win.player] += pay
        deltas[win.player] += sticks * config.riichi_stick
        paid = f"{val.tsumo_dealer}" if win.player == dealer else f"{val.tsumo_other}/{val.tsumo_dealer}"
        note = f"seat {win.player} tsumo {_describe(win, val)}, {paid}"
        if win.liable is not None:
            note += f", all paid by seat {win.liable} (liability)"
        return deltas, 0, win.player == dealer, note

    # ron
    winners = hand.winners if config.multiple_ron else hand.winners[:1]
    loser: int = hand.loser  # type: ignore[assignment]
    parts = []
    for win in winners:
        val = value(win)
        counters = table.honba * config.honba_ron
        if win.liable is None or win.liable == loser:
            deltas[loser] -= val.ron + counters
            extra = ""
        else:
            # liability on a discard by another player: the two share the hand equally (2025 §3.3.7,
            # 002 §3.3.6); the counters are the discarder's alone (2025) or shared too (002)
            half, shared = val.ron // 2, counters // 2 if config.liability_counters == "shared" else 0
            deltas[win.liable] -= half + shared
            deltas[loser] -= val.ron - half + counters - shared
            extra = f", shared with seat {win.liable} (liability)"
        deltas[win.player] += val.ron + counters
        parts.append((f"seat {win.player}", _describe(win, val), f"{val.ron}{extra}"))
        if win is not winners[0] and win.player in hand.riichi:
            deltas[win.player] += config.riichi_stick
            sticks -= 1
    head = winners[0].player
    deltas[head] += sticks * config.riichi_stick
    if len(winners) == 1:
        who, what, paid = parts[0]
        note = f"{who} ron {what} from seat {loser}, {paid}"
    else:
        listed = "; ".join(f"{who} {what}, {paid}" for who, what, paid in parts)
        note = f"{('double', 'triple')[len(winners) - 2]} ron from seat {loser}: {listed}"
    if len(winners) < len(hand.winners):
        note += f" (head bump: only seat {head} wins)"
    return deltas, 0, any(w.player == dealer for w in winners), note


def _chombo(hand: Hand, table: _Table, config: RiichiConfig) -> tuple[list[Number], str]:
    """002 §3.4.6: a mangan payment at the table (4000 to the dealer, 2000 to the others; a dealer
    pays 4000 each) under the "table" policy; nothing at the table under "final" (deducted later)."""
    deltas: list[Number] = [0] * SEATS
    note = f"chombo by seat {hand.player}, hand replayed"
    if config.chombo_policy == "table":
        val = hand_value(5, None, dealer=hand.player == table.dealer)
        for seat in range(SEATS):
            if seat != hand.player:
                pay = val.tsumo_dealer if seat == table.dealer else val.tsumo_other
                deltas[seat] += pay
                deltas[hand.player] -= pay  # type: ignore[index]
        note += f", pays {-deltas[hand.player]}"  # type: ignore[index]
    return deltas, note


def _first_place(scores: Sequence[Number], ties: str) -> list[int]:
    best = max(scores)
    tied = [seat for seat in range(SEATS) if scores[seat] == best]
    return tied if ties == "share" else tied[:1]


def _give_sticks(
    scores: Sequence[Number], points: int, ties: str, split: str = "exact"
) -> tuple[Number, ...]:
    """Leftover sticks to first place, split between tied players (002 §3.6; RULES.md); with
    ``split`` "round_down" each tied player gets whole points (2025 §3.7)."""
    firsts = _first_place(scores, ties)
    each = points // len(firsts) if split == "round_down" else share(points, len(firsts))
    return tuple(exact(s + each) if seat in firsts else s for seat, s in enumerate(scores))


def replay(hands: Sequence[Mapping[str, Any]], config: RiichiConfig = EMA_2016) -> GameResult:
    """Replay a game hand by hand (see :meth:`RiichiRuleset.play_game`)."""
    if isinstance(hands, (str, bytes)) or not isinstance(hands, Sequence):
        raise RuleError(gettext_noop("hands must be a list, not %(hands)s", hands=hands), "hands")
    table = _Table(scores=(config.start_points,) * SEATS)
    chombos = [0] * SEATS
    steps: list[HandStep] = []
    last_pass = SEATS * config.rounds
    for i, data in enumerate(hands):
        path = f"hands[{i}]"
        if table.passes >= last_pass:
            raise RuleError(
                gettext_noop(
                    "the game is over after %(_count)s hands: a game has %(_rounds)s rounds and no extension (rulebook 002 §3.5)",
                    _count=len(steps),
                    _rounds=config.rounds,
                ),
                path,
            )
        try:
            hand = parse_hand(data, config)
        except RuleError as exc:
            raise exc.within(path) from None
        limit = config.two_yaku_counters
        if limit is not None and table.honba >= limit:
            for k, win in enumerate(hand.winners):
                if win.han < 2:
                    where = f"{path}.winners[{k}].han" if hand.result == "ron" else f"{path}.han"
                    raise RuleError(
                        gettext_noop(
                            "with %(_honba)s counters on the table a win needs 2 yaku, so at least 2 han, not %(_han)s (rulebook 002 §3.4.11)",
                            _honba=table.honba,
                            _han=win.han,
                        ),
                        where,
                    )
        if hand.result == "chombo":
            deltas, note = _chombo(hand, table, config)
            if config.chombo_policy == "final":
                chombos[hand.player] += 1  # type: ignore[index]
            after, replayed = replace(table, scores=_add(table.scores, deltas)), True
        else:
            deltas, sticks, dealer_stays, note = _settle(hand, table, config)
            draw_or_dealer = hand.result == "draw" or dealer_stays
            after = _Table(
                scores=_add(table.scores, deltas),
                passes=table.passes + (0 if dealer_stays else 1),
                honba=table.honba + 1 if draw_or_dealer else 0,
                sticks=sticks,
            )
            replayed = False
        over = after.passes >= last_pass
        steps.append(
            HandStep(
                deltas=tuple(exact(d) for d in deltas),  # type: ignore[arg-type]
                scores=after.scores,  # type: ignore[arg-type]
                dealer=None if over else after.dealer,
                round_wind=None if over else after.wind,
                honba=after.honba,
                sticks=after.sticks,
                replayed=replayed,
                note=f"{table.label()}: {note}" + (" (game over)" if over else ""),
            )
        )
        table = after
    scores = table.scores
    if table.sticks and config.leftover_sticks_to_first:
        scores = _give_sticks(scores, table.sticks * config.riichi_stick, config.ties, config.sticks_split)
    return GameResult(
        scores=scores,  # type: ignore[arg-type]
        steps=tuple(steps),
        chombos=tuple(chombos),  # type: ignore[arg-type]
        leftover_sticks=table.sticks,
    )


def _add(scores: Sequence[Number], deltas: Sequence[Number]) -> tuple[Number, ...]:
    return tuple(exact(s + d) for s, d in zip(scores, deltas, strict=True))


# -- totals and the session result -----------------------------------------------------------------
def from_totals(
    scores: Sequence[Any], config: RiichiConfig = EMA_2016, *, imbalance_reason: str = ""
) -> GameResult:
    """A game from the four raw totals of a score sheet (see :meth:`RiichiRuleset.game_from_totals`)."""
    if isinstance(scores, (str, bytes)) or not isinstance(scores, Sequence) or len(scores) != SEATS:
        raise RuleError(
            gettext_noop("scores must be a list of 4 raw totals, not %(scores)s", scores=scores), "scores"
        )
    for seat, value in enumerate(scores):
        if not isinstance(value, int) or isinstance(value, bool) or value % 100:
            raise RuleError(
                gettext_noop(
                    "a riichi total is a whole number of hundreds of points, not %(value)s", value=value
                ),
                f"scores[{seat}]",
            )
        if abs(value) > numbers.SCORE_LIMIT:
            raise RuleError(
                f"scores[{seat}] is too large: at most {numbers.SCORE_LIMIT:,} in magnitude",
                f"scores[{seat}]",
            )
    total, expected = sum(scores), SEATS * config.start_points
    short = expected - total
    stick = config.riichi_stick
    if short == 0 or imbalance_reason:
        return GameResult(scores=tuple(scores), imbalance_reason=imbalance_reason)  # type: ignore[arg-type]
    if short < 0 or not stick or short % stick:
        raise RuleError(
            gettext_noop(
                "riichi totals sum to %(_total)s, which is not %(_expected)s less whole riichi sticks",
                _total=total,
                _expected=expected,
            ),
            "scores",
        )
    sticks = short // stick
    result = tuple(scores)
    if config.leftover_sticks_to_first:
        result = _give_sticks(scores, short, config.ties, config.sticks_split)
    return GameResult(scores=result, leftover_sticks=sticks)  # type: ignore[arg-type]


def places(scores: Sequence[Number], ties: str = "share") -> list[list[int]]:
    """Seats grouped by place, best first; tied seats share a group unless ties are broken by seat."""
    order = sorted(range(SEATS), key=lambda seat: (-scores[seat], seat))
    if ties != "share":
        return [[seat] for seat in order]
    groups: list[list[int]] = []
    for seat in order:
        if groups and scores[groups[-1][0]] == scores[seat]:
            groups[-1].append(seat)
        else:
            groups.append([seat])
    return groups


def uma_shares(scores: Sequence[Number], config: RiichiConfig = EMA_2016) -> Four:
    """Uma plus oka of each seat: tied players share the uma of the places they occupy and, tied for
    first, the oka (002 §3.6.1; 003 "Puntos finales y lugar")."""
    result: list[Number] = [0] * SEATS
    place = 0
    for group in places(scores, config.ties):
        pool = sum(config.uma[place : place + len(group)]) + (config.oka if place == 0 else 0)
        for seat in group:
            result[seat] = share(pool, len(group))
        place += len(group)
    return tuple(result)  # type: ignore[return-value]


def uma_without(scores: Sequence[Number], outside: frozenset[int], config: RiichiConfig = EMA_2016) -> Four:
    """Uma when the seats ``outside`` do not count for the others' (2025 §7.3, a substitute who took the
    seat after the game began): "they will always receive -15,000 points uma, and the other players will
    receive 15,000, 5,000 and -5,000 points". Each seat outside gets the last place's uma; the others share
    the first places' uma (and the oka) by their own order, ties as everywhere."""
    result: list[Number] = [0] * SEATS
    inside = [s for s in range(SEATS) if s not in outside]
    place = 0
    for group in places(scores, config.ties):
        group = [s for s in group if s in inside]
        if not group:
            continue
        pool = sum(config.uma[place : place + len(group)]) + (config.oka if place == 0 else 0)
        for seat in group:
            result[seat] = share(pool, len(group))
        place += len(group)
    for seat in outside:
        result[seat] = config.uma[-1]
    return tuple(result)  # type: ignore[return-value]


def session_result(
    game: GameResult,
    config: RiichiConfig = EMA_2016,
    *,
    transfers: Sequence[Number] = (0, 0, 0, 0),
    deductions: Sequence[Number] = (0, 0, 0, 0),
    chombos: Sequence[int] = (0, 0, 0, 0),
    excluded: frozenset[int] = frozenset(),
    substitutes: frozenset[int] = frozenset(),
) -> TableResult:
    """See :meth:`RiichiRuleset.table_result`."""
    for name, values in (("transfers", transfers), ("deductions", deductions), ("chombos", chombos)):
        if len(values) != SEATS:
            raise EngineError(f"{name} must have {SEATS} values, got {len(values)}")
    if any(d > 0 for d in deductions) or any(c < 0 for c in chombos):
        raise EngineError("deductions must be 0 or negative and chombo counts 0 or more")
    if any(seat not in range(SEATS) for seat in excluded):
        raise EngineError(f"excluded seats must be 0..3, not {sorted(excluded)}")
    ranked = [exact(game.scores[s] + transfers[s]) for s in range(SEATS)]
    if any(seat not in range(SEATS) for seat in substitutes):
        raise EngineError(f"substitutes' seats must be 0..3, not {sorted(substitutes)}")
    fixed = (excluded | substitutes) if config.substitute_outside_uma else frozenset()
    outside = excluded if config.substitute_outside_uma else frozenset()
    uma = list(uma_shares(ranked, config) if not outside else uma_without(ranked, outside, config))
    for seat in fixed:  # 2025 §7.3: a substitute "will receive -15,000 points uma", before or after
        uma[seat] = config.uma[-1]
    per_chombo = -config.chombo_points if config.chombo_policy == "final" else 0
    seats = []
    for s in range(SEATS):
        chombo = per_chombo * (game.chombos[s] + chombos[s])
        final = exact(ranked[s] - config.target_points + uma[s] + chombo + deductions[s])
        seats.append(
            SeatResult(
                game_score=game.scores[s],
                table_points=None,
                uma=uma[s],
                transfers=transfers[s],
                chombo=chombo,
                penalties=deductions[s],
                final=final,
            )
        )
    return TableResult(seats=tuple(seats))  # type: ignore[arg-type]


# -- the ruleset -----------------------------------------------------------------------------------
class RiichiRuleset(Ruleset):
    """A riichi preset: EMA 2016/2025, WRC, EMA 2008."""

    family = "riichi"
    hand_form = "han_fu"
    hand_partial = "scoring/_hand_riichi.html"
    raw_scores = True
    numbered_rounds = True
    counters_and_sticks = True
    late_arrival_scale = "riichi"
    session_value = "uma"
    has_chombo = True
    tile_flags = (
        "last_tile",
        "replacement_tile",
        "robbing_kong",
        "double_riichi",
        "ippatsu",
        "first_turn",
        "first_turn_discard",
    )
    outcome_columns = ("game_score", "uma", "chombo", "penalties", "final")
    score_sheet_partial = "clock/_sheet_han_fu.html"

    def score_sheet_rows(self) -> int:
        return 20

    def start_scores(self) -> Four:
        return (self.config.start_points,) * 4

    config: RiichiConfig

    @property  # type: ignore[override]
    def tile_extras(self) -> frozenset[str]:  # type: ignore[override]
        """Dora indicators always; red fives only where the set has them (2025 §1.3: "Red fives are not
        used"; 002 §1.1: three)."""
        return frozenset({"dora", "red_fives"} if self.config.red_fives else {"dora"})

    def liable_yakuman(self) -> tuple[str, ...]:
        """2025 §3.3.7, 002 §3.3.6: the feeder of the third called dragon set or the fourth called wind set."""
        return LIABLE_YAKUMAN if self.config.liability else ()

    def abortive_draws(self) -> bool:
        return self.config.abortive_draws

    def settings_not_offered(self) -> frozenset[str]:
        return frozenset() if self.config.red_fives else frozenset({"red_fives"})

    def check_hand(self, hand: Mapping[str, Any]) -> Hand:
        """Validate one hand (seats for players); RuleError paths are relative to the hand."""
        return parse_hand(hand, self.config)

    def valid_fu(self, han: int, win: str, dealer: bool = False) -> list[int]:
        return valid_fu(han, win, dealer)

    def hand_value(self, han: int, fu: int | None, *, dealer: bool, yakuman: int = 1) -> HandValue:
        return hand_value(han, fu, dealer=dealer, kiriage=self.config.kiriage_mangan, yakuman=yakuman)

    def play_game(self, hands: Sequence[Mapping[str, Any]]) -> GameResult:
        """Replay a game: dealer rotation, counters, riichi sticks, noten payments, multiple ron or head
        bump, chombo per preset; leftover sticks go to first place at the end. A game ends after the
        South round (002 §3.5); a hand after that is refused. It may stop earlier (time limit)."""
        return replay(hands, self.config)

    def game_from_totals(self, scores: Sequence[Any], *, imbalance_reason: str = "") -> GameResult:
        """Totals must sum to 4 × start points, or fall short by whole riichi sticks, which then go to
        first place (split when tied); ``imbalance_reason`` accepts other totals as they are."""
        return from_totals(scores, self.config, imbalance_reason=imbalance_reason)

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
        """final = raw + transfers − target + uma (with the oka share) − chombos + deductions.

        Chombos (``game.chombos`` plus ``chombos``) cost ``chombo_points`` each under the "final"
        policy; under the "table" policy the mangan was paid at the table and is in the scores, so they
        deduct nothing. Where the preset has ``substitute_outside_uma`` (2025 §7.3) a seat a substitute
        plays (``substitutes``) gets the last place's uma, whatever its place; the seats ``excluded`` (a
        substitute after the game began, a seat put out of the session) get it too and do not count for
        the others, who take the first places' uma by their own order. Elsewhere both change nothing.
        """
        return session_result(
            game,
            self.config,
            transfers=transfers,
            deductions=deductions,
            chombos=chombos,
            excluded=excluded,
            substitutes=substitutes,
        )

    def session_places(self, ranking: Sequence[Number]) -> tuple[Number, ...]:
        """Uma and the oka by place, shared as the preset's ``ties`` says."""
        return uma_shares(ranking, self.config)

    def session_spread(self) -> int:
        """Raw points within ``score_bound`` either way, counted from the target."""
        return self.score_bound() + abs(self.config.target_points)

    def score_bound(self) -> int:
        """Raw points: no player ends with more than the whole table's points twice over, or owes as much."""
        return 8 * self.config.start_points

    def chombo_points(self) -> int:
        return -self.config.chombo_points if self.config.chombo_policy == "final" else 0

    def referee_bounds(self) -> tuple[int, int]:
        return (-self.config.referee_limit, 0)

    def referee_step(self) -> int | None:
        return self.config.referee_step

    def referee_minimum(self) -> int | None:
        return self.config.referee_minimum

    def counted_yakuman(self) -> bool:
        return self.config.counted_yakuman

    def replacement_result(self) -> ReplacementResult | None:
        """``replacement_points`` (plus ``replacement_uma``) when the preset or the tournament sets them:
        2025 §7.3 "will score -15,000 points and -15,000 uma at each session, i.e. a total of -30,000
        points"; the other presets' texts set none."""
        points = self.config.replacement_points
        if points is None:
            return None
        uma = self.config.replacement_uma or 0
        return ReplacementResult(game_score=self.config.target_points + points, uma=uma, final=points + uma)

    def substitution_exclusions(self, seat: Any, reason: Any, *, during: Any = False) -> frozenset[int]:
        """The seat of a substitute who took it after the game at the table began, where the preset puts
        such a substitute outside the uma (2025 §7.3: "the score of the substitute player is not
        relevant"); before the game began the substitute counts like any player. None elsewhere."""
        s = common.seat(seat, "the replaced player's seat", "player")
        if not isinstance(during, bool):
            raise RuleError(
                gettext_noop("'during' must be true or false, not %(during)s", during=during), "during"
            )
        return frozenset({s}) if during and self.config.substitute_outside_uma else frozenset()

    def substitute_outside_uma(self) -> bool:
        """Whether a substitute who took the seat after the game began is left out of the uma (2025 §7.3)."""
        return self.config.substitute_outside_uma

    def late_minutes_rounded_up(self) -> bool:
        return self.config.late_minutes_rounded_up

    def late_arrival(self, minutes_late: int) -> LateArrival:
        """The tournament's late-arrival scale (``late_arrival_minutes``, ``late_arrival_points``,
        ``late_arrival_limit``); ``minutes_late`` is whole minutes on the referee's clock. Within the limit
        the points of the last step reached are deducted (none before the first step); past the limit the
        player is out of the session, no points deducted, and a substitute takes the seat (the replaced
        player then carries ``replacement_points`` and ``replacement_uma`` when set). No preset sets the
        scale: without it a late arrival is refused, naming the settings."""
        cfg = self.config
        if not cfg.late_arrival_minutes and cfg.late_arrival_limit is None:
            raise RuleError(
                gettext_noop(
                    "late arrival has no amount under the %(_key)s rules until the tournament sets "
                    "'late_arrival_minutes' and 'late_arrival_points' (or 'late_arrival_limit')",
                    _key=self.key,
                ),
                "minutes_late",
            )
        minutes = common.whole(minutes_late, "minutes late", "minutes_late", minimum=0)
        if cfg.late_arrival_limit is not None and minutes > cfg.late_arrival_limit:
            return LateArrival(points=0, disqualified=True)
        points = 0
        for start, amount in zip(cfg.late_arrival_minutes, cfg.late_arrival_points, strict=True):
            if minutes >= start:
                points = amount
        return LateArrival(points=-points, disqualified=False)

    def false_hu(self, seat: int, variant: str) -> Four:
        raise RuleError(
            gettext_noop(
                "a false win declaration is a chombo under the %(_key)s rules; record a chombo", _key=self.key
            ),
            "kind",
        )


PRESETS: dict[str, RiichiRuleset] = {
    key: RiichiRuleset(key, config) for key, config in PRESET_CONFIGS.items()
}
