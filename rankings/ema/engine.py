"""EMA ranking arithmetic (Mahjong European Ranking System, MERS).

Pure Python: no Django import. Every quantity is exact (``int`` or ``Fraction``); rounding happens
only where the EMA rounds (the base rank) or where a value is shown (:func:`shown`).

Decisions where the rules leave a choice:

- Base rank: ``1000 × (N − place) / (N − 1)`` rounded to the nearest whole number, halves up
  (62.5 → 63), computed on integers so no float error can move a value across a half. A tournament
  of one player gives that player 1000.
- Ageing is counted from the last day of the tournament, like a birthday: a result counts fully up
  to and including its first anniversary, half up to and including its second anniversary, and not
  at all afterwards. The anniversary of 29 February is 28 February in a year without one. A result
  dated after the ranking date does not count (this allows rankings as they stood on a past date).
- Results that no longer count (ageing 0) are left out before anything else: they are not in the
  number of results ``n`` and do not prevent padding.
- Among results with the same base rank, the one with the larger aged weight is the better one,
  then the more recent one.
- Tournament weight: a tournament of more than three days counts three days.
- Listing: a player is listed with at least ``LISTING_RESULTS`` (2) results that still count (the
  ranking system's §3); the ranking of a player with fewer is computed the same way but not listed.
- Results file, rulesets without table points (riichi): the "Table points" cell is left empty; the
  EMA publishes riichi results with a score only. "Score" is the standings' score in points (not
  thousands), a whole number when it is one.
"""

from __future__ import annotations

import math
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import date
from fractions import Fraction
from typing import Any

from rankings.standings.engine import Number, Standings, printable, round_half_away
from scoring.rules.base import EngineError, RuleError
from scoring.rules.text import gettext_noop

RULESETS: tuple[str, ...] = ("mcr", "riichi")
PART_B_RESULTS = 4
MINIMUM_RESULTS = 5  # fewer results are padded with dummy results (base rank 0, weight 1)
#: Who is listed. "The Mahjong Europe Ranking System" (EMA), §3 "Requirements for players", its last
#: paragraph: "To be listed in a ranking of a specific rule set, a player must have participated in at
#: least two certified competitions of this ranking." Read, as the EMA's published rankings are, as two
#: results of the rule set that still count on the ranking date (ageing above 0). A player with fewer
#: still has a ranking (and a page saying what is missing) but no position.
LISTING_RESULTS = 2

RESULTS_HEADER: tuple[str, ...] = (
    "Place",
    "First name",
    "Last name",
    "EMA number",
    "Table points",
    "Score",
    "EMA member",
    "Country",
)


# -- one tournament ---------------------------------------------------------------------------------


def base_rank(place: int, players: int) -> int:
    """The base rank of ``place`` in a tournament of ``players`` players (1000 first, 0 last)."""
    if players < 1:
        raise RuleError(
            gettext_noop("a tournament needs at least one player, not %(_players)s", _players=players),
            "players",
        )
    if not 1 <= place <= players:
        raise RuleError(
            gettext_noop("place %(_place)s is outside 1..%(_players)s", _place=place, _players=players),
            "place",
        )
    if players == 1:
        return 1000
    numerator = 1000 * (players - place)
    denominator = players - 1
    return (2 * numerator + denominator) // (2 * denominator)  # nearest whole number, halves up


def shared_places(values: Sequence[Any]) -> list[int]:
    """Places of results listed best first: equal neighbouring values share the best place.

    ``[30, 20, 20, 10]`` → ``[1, 2, 2, 4]``.
    """
    places: list[int] = []
    for i, value in enumerate(values):
        places.append(places[-1] if i and value == values[i - 1] else i + 1)
    return places


def base_ranks(standings: Standings, *, removed: Collection[str] = ()) -> dict[str, int]:
    """The base rank of every listed player; tied players get the base rank of the best tied place.

    Every listed player counts in N, with or without an EMA number, disqualified players included
    (MERS §4.4). ``removed`` players (MERS §4.3: illness, removed from the final results by the
    organiser) are left out and the others move up.
    """
    places = _places(standings, removed)
    return {player: base_rank(place, len(places)) for player, place in places.items()}


def _places(standings: Standings, removed: Collection[str]) -> dict[str, int]:
    kept = [row for row in standings.listed if row.player not in removed]
    return dict(zip((r.player for r in kept), shared_places([r.rank for r in kept]), strict=True))


def tournament_weight(
    *, days: int, players: int, countries: int, european_qualifier: bool = False
) -> Fraction:
    """The MERS weight of a tournament.

    days (1, 2, 3; longer counts 3) + players (≤40: 0, 41–80: 0.5, >80: 1)
    + countries (≤5: 0, 6–9: 0.5, ≥10: 1) + 1 if it qualifies for a European championship.
    """
    if days < 1:
        raise RuleError(
            gettext_noop("a tournament lasts at least one day, not %(_days)s", _days=days), "days"
        )
    if players < 1:
        raise RuleError(
            gettext_noop("a tournament needs at least one player, not %(_players)s", _players=players),
            "players",
        )
    if countries < 1:
        raise RuleError(
            gettext_noop(
                "a tournament has players from at least one country, not %(_countries)s", _countries=countries
            ),
            "countries",
        )
    weight = Fraction(min(days, 3))
    weight += 0 if players <= 40 else Fraction(1, 2) if players <= 80 else 1
    weight += 0 if countries <= 5 else Fraction(1, 2) if countries <= 9 else 1
    if european_qualifier:
        weight += 1
    return weight


# -- ageing -----------------------------------------------------------------------------------------


def anniversary(day: date, years: int) -> date:
    """``day`` moved ``years`` years on; 29 February falls on 28 February in a year without one."""
    try:
        return day.replace(year=day.year + years)
    except ValueError:
        return date(day.year + years, 2, 28)


def ageing(ended_on: date, on: date) -> Fraction:
    """The share of a result that counts on the date ``on``: 1, 1/2 or 0.

    Full up to and including the first anniversary of the tournament's last day, half up to and
    including the second, nothing later; nothing for a tournament that ends after ``on``.
    """
    if ended_on > on:
        return Fraction(0)
    if on <= anniversary(ended_on, 1):
        return Fraction(1)
    if on <= anniversary(ended_on, 2):
        return Fraction(1, 2)
    return Fraction(0)


# -- a player's ranking -----------------------------------------------------------------------------


@dataclass(frozen=True)
class EmaResult:
    """One tournament result of a player."""

    base_rank: int
    weight: Number  # the tournament's MERS weight
    ended_on: date  # last day of the tournament
    ruleset: str = "mcr"  # "mcr" or "riichi": ranked separately
    tournament: str = ""  # a label for display


@dataclass(frozen=True)
class CountedResult:
    """A result as the ranking uses it; ``result`` is None for a dummy result (padding)."""

    result: EmaResult | None
    base_rank: int
    weight: Fraction  # tournament weight × ageing

    @property
    def dummy(self) -> bool:
        return self.result is None


@dataclass(frozen=True)
class EmaRanking:
    ruleset: str
    on: date
    ranking: Fraction  # 0.5 A + 0.5 B
    part_a: Fraction
    part_b: Fraction
    counted: int  # real results that still count (ageing above 0)
    part_a_results: tuple[CountedResult, ...]
    part_b_results: tuple[CountedResult, ...]

    @property
    def listed(self) -> bool:
        """Whether the player is listed in the ranking (MERS ranking system §3: two counting results)."""
        return self.counted >= LISTING_RESULTS

    @property
    def missing(self) -> int:
        """How many more counting results the player needs to be listed (0 when listed)."""
        return max(LISTING_RESULTS - self.counted, 0)


def part_a_size(results: int) -> int:
    """How many of a player's best results Part A averages: ceil(5 + 0.8 × max(n − 5, 0))."""
    return math.ceil(MINIMUM_RESULTS + Fraction(4, 5) * max(results - MINIMUM_RESULTS, 0))


def weighted_average(results: Iterable[CountedResult]) -> Fraction:
    """sum(base rank × aged weight) / sum(aged weight)."""
    items = list(results)
    total = sum((r.weight for r in items), Fraction(0))
    if total == 0:
        raise EngineError("a weighted average of nothing")
    return sum((r.base_rank * r.weight for r in items), Fraction(0)) / total


def ema_ranking(results: Iterable[EmaResult], *, ruleset: str, on: date) -> EmaRanking:
    """A player's EMA ranking in ``ruleset`` on the date ``on``, from all their results.

    Results of the other ruleset are ignored. With fewer than 5 results that still count, dummy
    results (base rank 0, weight 1) fill the list up to 5. Part A is the weighted average of the best
    ceil(5 + 0.8 × max(n − 5, 0)) results, Part B that of the best 4; the ranking is 0.5 A + 0.5 B.
    """
    if ruleset not in RULESETS:
        raise RuleError(
            gettext_noop(
                "the EMA ranks %(_items)s, not '%(_ruleset)s'",
                _items=" and ".join(RULESETS),
                _ruleset=ruleset,
            ),
            "ruleset",
        )
    counted: list[CountedResult] = []
    for result in results:
        if result.ruleset not in RULESETS:
            raise RuleError(
                gettext_noop(
                    "the EMA ranks %(_items)s, not '%(_ruleset)s'",
                    _items=" and ".join(RULESETS),
                    _ruleset=result.ruleset,
                ),
                "ruleset",
            )
        if result.ruleset != ruleset:
            continue
        if not 0 <= result.base_rank <= 1000:
            raise RuleError(
                gettext_noop("base rank %(_base_rank)s is outside 0..1000", _base_rank=result.base_rank),
                "base_rank",
            )
        if result.weight <= 0:
            raise RuleError(
                gettext_noop("tournament weight %(_weight)s is not positive", _weight=result.weight), "weight"
            )
        share = ageing(result.ended_on, on)
        if share:
            counted.append(CountedResult(result, result.base_rank, Fraction(result.weight) * share))
    real = len(counted)
    counted.sort(key=_better_first)
    counted.extend(CountedResult(None, 0, Fraction(1)) for _ in range(MINIMUM_RESULTS - real))
    part_a_results = tuple(counted[: part_a_size(real)])
    part_b_results = tuple(counted[:PART_B_RESULTS])
    part_a = weighted_average(part_a_results)
    part_b = weighted_average(part_b_results)
    return EmaRanking(
        ruleset=ruleset,
        on=on,
        ranking=(part_a + part_b) / 2,
        part_a=part_a,
        part_b=part_b,
        counted=real,
        part_a_results=part_a_results,
        part_b_results=part_b_results,
    )


def _better_first(item: CountedResult) -> tuple[Any, ...]:
    ended = item.result.ended_on.toordinal() if item.result else 0
    return (-item.base_rank, -item.weight, -ended)


def shown(value: Number) -> Fraction:
    """A ranking figure as the EMA shows it: 2 decimals, halves up (658.9666… → 658.97)."""
    return round_half_away(value, 2)


# -- results file -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class EmaPlayer:
    """What the results file says about a player besides the standings."""

    player: str
    first_name: str
    last_name: str = ""
    ema_id: str = ""  # 8 digits, leading zeros kept; empty without an EMA number
    ema_member: bool | None = None  # None: not known (no EMA player list to tell), an empty cell
    country: str = ""  # 3-letter code


def normalize_ema_id(ema_id: str) -> str:
    """An EMA number as 8 digits of text.

    A 7-digit number gets back the leading zero a spreadsheet dropped; anything else that is not
    8 digits is refused.
    """
    digits = (ema_id or "").strip()
    if not digits:
        return ""
    if not digits.isascii() or not digits.isdigit() or len(digits) not in (7, 8):
        raise RuleError(gettext_noop("EMA number '%(_ema_id)s' is not 8 digits", _ema_id=ema_id), "ema_id")
    return digits.zfill(8)


def ema_results_rows(
    standings: Standings,
    players: Mapping[str, EmaPlayer],
    *,
    removed: Collection[str] = (),
) -> list[list[str | int | float]]:
    """The EMA results file: a header row, then one row per player in standings order.

    Every listed player has a row, with or without an EMA number (all count in N). Tied players
    share the best place. ``removed`` players (MERS §4.3) are left out and the others move up.
    "Table points" is empty when the ranking has none (riichi); numbers are printed like the
    standings document (whole numbers as ``int``, others with at most 2 decimals).
    """
    places = _places(standings, removed)
    table: list[list[str | int | float]] = [list(RESULTS_HEADER)]
    for row in standings.listed:
        if row.player in removed:
            continue
        try:
            person = players[row.player]
        except KeyError:
            raise EngineError(f"no results-file details for player '{row.player}'") from None
        try:
            ema_id = normalize_ema_id(person.ema_id)
        except RuleError as exc:
            raise RuleError(
                gettext_noop("%(_message)s (%(_name)s)", _message=exc.message, _name=row.name),
                f"players.{row.player}.ema_id",
            ) from None
        table.append(
            [
                places[row.player],
                person.first_name,
                person.last_name,
                ema_id,
                "" if row.table_points is None else printable(row.table_points),
                printable(row.score),
                "" if person.ema_member is None else "Yes" if person.ema_member else "No",
                person.country.strip().upper(),
            ]
        )
    return table
