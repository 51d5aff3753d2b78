"""Tiles on a recorded hand: compute each win's value, fill what was not claimed, compare what was.

A hand (archive shape, players as seats) may carry ``tiles`` on its win: on an MCR, Salamanca or
classical ``win``, on a riichi ``tsumo``, and on each winner of a riichi ``ron``. The game state the
product knows gives the rest: self-drawn or not, the dealer and the winds, riichi. A claim that
differs from the computed value stands only with a ``ruling`` (the referee's reason) on the hand.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..base import WINDS, GameResult, RuleError, Ruleset
from ..riichi import hand_value
from ..text import gettext_noop
from . import classical, mcr, riichi, salamanca
from .notation import parse_tiles
from .result import Valuation, WinContext

RULING_MAX = 500  # characters of a ruling's reason


@dataclass(frozen=True)
class WinCheck:
    path: str  # where the tiles sit in the hand: "tiles" or "winners[1].tiles"
    winner: int
    valuation: Valuation
    claimed: dict[str, Any] | None  # None: nothing claimed, the computed value fills the hand
    agrees: bool

    def as_dict(self) -> dict[str, Any]:
        return {
            "path": self.path,
            "winner": self.winner,
            "computed": self.valuation.as_dict(),
            "claimed": self.claimed,
            "agrees": self.agrees,
        }


def value_tiles(ruleset: Ruleset, tiles: Any, context: WinContext) -> Valuation:
    """The value of one win's tiles under ``ruleset``; faults are RuleErrors with paths in ``tiles``."""
    parsed = parse_tiles(tiles)
    family = ruleset.family
    if family in ("mcr", "riichi") and isinstance(tiles, Mapping) and tiles.get("kongs_in_a_row"):
        raise RuleError(
            gettext_noop("kongs_in_a_row counts under the Salamanca and classical rules only"),
            "kongs_in_a_row",
        )
    if family != "riichi" and isinstance(tiles, Mapping) and tiles.get("first_turn_discard"):
        raise RuleError(
            gettext_noop("first_turn_discard (renhō) counts under the riichi rules only"),
            "first_turn_discard",
        )
    if family == "mcr":
        return mcr.value(parsed, context, min_fan=ruleset.config.min_fan)
    if family == "riichi":
        return riichi.value(parsed, context, ruleset.config)
    if family == "salamanca":
        return salamanca.value(parsed, context, ruleset.config)
    if family == "classical":
        return classical.value(parsed, context, ruleset.config)
    raise RuleError(
        gettext_noop("the %(_key)s rules have no valuation from tiles", _key=ruleset.key), "tiles"
    )


def _wind_index(wind: str | None) -> int:
    return WINDS.index(wind) if wind in WINDS else 0


def hand_state(ruleset: Ruleset, previous: GameResult | None, index: int) -> tuple[int, int, int]:
    """(dealer seat, round wind 0..3, counters) before hand ``index`` (0-based) of a game whose earlier
    hands replay to ``previous``."""
    steps = previous.steps if previous is not None else ()
    if ruleset.family == "mcr":
        per_round = ruleset.config.hands_per_round
        return index % 4, (index // per_round) % 4, 0
    if not steps or index == 0:
        return 0, 0, 0
    last = steps[min(index, len(steps)) - 1]
    dealer = last.dealer if last.dealer is not None else 0
    return dealer, _wind_index(last.round_wind), last.honba


def _claim_of(family: str, hand: Mapping[str, Any], win: Mapping[str, Any], winner: int) -> dict | None:
    if family in ("mcr", "salamanca"):
        return {"fan": hand["fan"]} if hand.get("fan") is not None else None
    if family == "classical":
        values = hand.get("values")
        if isinstance(values, Mapping):
            for key, v in values.items():
                if str(key) == str(winner):
                    return {"value": v}
        return None
    if win.get("han") is None:
        return None
    return {"han": win.get("han"), "fu": win.get("fu"), "yakuman": win.get("yakuman", 1)}


def _agrees(ruleset: Ruleset, claimed: dict, computed: Valuation, dealer: bool) -> bool:
    if ruleset.family != "riichi":
        return all(claimed.get(k) == v for k, v in computed.claim.items())
    try:
        paid = hand_value(
            int(claimed["han"]),
            claimed.get("fu"),
            dealer=dealer,
            kiriage=ruleset.config.kiriage_mangan,
            yakuman=int(claimed.get("yakuman") or 1),
        )
    except (TypeError, ValueError, KeyError, RuleError, Exception):  # an invalid claim never agrees
        return False
    return (paid.ron, paid.tsumo_dealer, paid.tsumo_other) == (
        computed.payment["ron"],
        computed.payment["tsumo_dealer"],
        computed.payment["tsumo_other"],
    )


def _seat(value: Any, path: str) -> int:
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < 4:
        return value
    raise RuleError(gettext_noop("a player must be given as a seat 0..3, not %(value)s", value=value), path)


def _ruling(hand: Mapping[str, Any], win: Mapping[str, Any], path: str) -> str:
    for where, source in (("", hand), (path.rsplit(".tiles", 1)[0] + ".", win)):
        value = source.get("ruling")
        if value is None:
            continue
        if not isinstance(value, str) or not value.strip() or len(value) > RULING_MAX:
            raise RuleError(
                gettext_noop(
                    "ruling must be a referee's reason of 1 to %(_RULING_MAX)s characters",
                    _RULING_MAX=RULING_MAX,
                ),
                f"{where}ruling".lstrip("."),
            )
        return value
    return ""


def liable_yakuman_of(ruleset: Ruleset, tiles: Any) -> str | None:
    """Which of the ruleset's :meth:`~scoring.rules.base.Ruleset.liable_yakuman` a win's ``tiles`` hold
    with their sets called from discards; None when the rules make no one liable, or the tiles hold none
    or cannot be read. (The tiles build on the rules, so the rules ask here, not the other way round.)"""
    if not ruleset.liable_yakuman():
        return None
    try:
        return riichi.liable_yakuman_of(parse_tiles(tiles))
    except RuleError:
        return None


def _check_liable(ruleset: Ruleset, win: Mapping[str, Any], path: str) -> None:
    """A liable player named on a win with tiles: the tiles must hold a yakuman the rules make someone
    liable for, with its sets called (2025 §3.3.7, 002 §3.3.6)."""
    allowed = ruleset.liable_yakuman()
    if not allowed:
        return  # the rule engine refuses the field with the rule's name
    found = riichi.liable_yakuman_of(parse_tiles(win["tiles"]))
    if found not in allowed:
        raise RuleError(
            gettext_noop(
                "a liable player pays only for big three dragons or big four winds with those sets "
                "called from discards; these tiles have neither (EMA 2025 §3.3.7, rulebook 002 §3.3.6)"
            ),
            path.rsplit("tiles", 1)[0] + "liable",
        )


def hand_checks(
    ruleset: Ruleset, hand: Mapping[str, Any], *, state: tuple[int, int, int] = (0, 0, 0)
) -> list[WinCheck]:
    """The check of every win with tiles in one hand; paths of faults are relative to the hand."""
    if not isinstance(hand, Mapping):
        return []
    dealer, round_wind, honba = state
    family = ruleset.family
    wins: list[tuple[str, Mapping[str, Any], int, bool]] = []  # path, win mapping, winner, self-drawn
    result = hand.get("result")
    if family == "riichi":
        if result == "tsumo" and "tiles" in hand:
            wins.append(("tiles", hand, _seat(hand.get("winner"), "winner"), True))
        elif result == "ron" and isinstance(hand.get("winners"), (list, tuple)):
            for i, w in enumerate(hand["winners"]):
                if isinstance(w, Mapping) and "tiles" in w:
                    wins.append(
                        (f"winners[{i}].tiles", w, _seat(w.get("player"), f"winners[{i}].player"), False)
                    )
    elif result == "win" and "tiles" in hand:
        wins.append(("tiles", hand, _seat(hand.get("winner"), "winner"), hand.get("discarder") is None))
    elif "tiles" in hand:
        raise RuleError(
            gettext_noop("tiles belong to a win, not to a %(result)s hand", result=result), "tiles"
        )
    riichi_seats = hand.get("riichi") if isinstance(hand.get("riichi"), (list, tuple)) else ()
    checks = []
    for path, win, winner, self_drawn in wins:
        context = WinContext(
            self_drawn=self_drawn,
            seat_wind=(winner - dealer) % 4,
            round_wind=round_wind,
            riichi=winner in riichi_seats,
            honba=honba,
        )
        try:
            computed = value_tiles(ruleset, win["tiles"], context)
        except RuleError as exc:
            raise exc.within(path) from None
        if win.get("liable") is not None:
            _check_liable(ruleset, win, path)
        claimed = _claim_of(family, hand, win, winner)
        agrees = claimed is None or _agrees(ruleset, claimed, computed, winner == dealer)
        checks.append(WinCheck(path, winner, computed, claimed, agrees))
        _ruling(hand, win, path)
    return checks


def held(hand: Mapping[str, Any], checks: list[WinCheck]) -> list[WinCheck]:
    """The checks whose claim differs from the tiles and carries no ruling: the entry is held."""
    out = []
    for c in checks:
        win = hand
        if c.path.startswith("winners["):
            win = hand["winners"][int(c.path[8 : c.path.index("]")])]
        if not c.agrees and not _ruling(hand, win, c.path):
            out.append(c)
    return out


def fill(hand: Mapping[str, Any], checks: list[WinCheck], *, take_computed: bool = False) -> dict[str, Any]:
    """A copy of ``hand`` with the computed values written where nothing was claimed (or everywhere
    with ``take_computed``, which also drops a ruling)."""
    out = dict(hand)
    if "winners" in out and isinstance(out["winners"], list):
        out["winners"] = [dict(w) if isinstance(w, Mapping) else w for w in out["winners"]]
    for c in checks:
        if c.claimed is not None and not take_computed:
            continue
        if c.valuation.family in ("mcr", "salamanca"):
            out["fan"] = c.valuation.claim["fan"]
            if take_computed:
                out.pop("ruling", None)
        elif c.valuation.family == "classical":
            values = dict(out.get("values") or {})
            values = {k: v for k, v in values.items() if str(k) != str(c.winner)}
            values[str(c.winner)] = c.valuation.claim["value"]
            out["values"] = values
            if take_computed:
                out.pop("ruling", None)
        else:
            target = out if c.path == "tiles" else out["winners"][int(c.path[8 : c.path.index("]")])]
            claim = c.valuation.claim
            target["han"] = claim["han"]
            if claim["fu"] is None:
                target.pop("fu", None)
            else:
                target["fu"] = claim["fu"]
            if claim["yakuman"] != 1:
                target["yakuman"] = claim["yakuman"]
            else:
                target.pop("yakuman", None)
            if take_computed:
                target.pop("ruling", None)
    return out


def wins_with_tiles(rules: Ruleset, hand: Mapping[str, Any]) -> list[tuple[str, Mapping[str, Any]]]:
    """(path, mapping that may hold ``tiles``) of every win of a hand under ``rules``."""
    result = hand.get("result")
    if rules.family == "riichi":
        if result == "tsumo":
            return [("tiles", hand)]
        if result == "ron" and isinstance(hand.get("winners"), list):
            return [
                (f"winners[{i}].tiles", w) for i, w in enumerate(hand["winners"]) if isinstance(w, Mapping)
            ]
        return []
    return [("tiles", hand)] if result == "win" else []


def claim_value(family: str, claim: Mapping[str, Any]) -> tuple[Any, str]:
    """A claimed value and its unit as the family counts it: han (riichi), points (classical), fan."""
    if family == "riichi":
        return claim.get("han"), "han"
    if family == "classical":
        return claim.get("value"), "points"
    return claim.get("fan"), "fan"
