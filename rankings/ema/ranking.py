"""Reads of the EMA ranking over every counted result: finished local tournaments and imported ones.

Both kinds count alike: a result is a base rank, the tournament's MERS weight and its last day, in MCR or
riichi. The whole ranking is computed from two queries (local results, imported results), each limited
to the results that can still count on the ranking date (two years and a day back), so neither the
number of queries nor the rows read grow with the length of the history. A player's full history (for
the chart of the ranking over time) is read for that one player only.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from datetime import date, timedelta
from fractions import Fraction
from typing import Any

from rankings.ema.engine import (
    MINIMUM_RESULTS,
    PART_B_RESULTS,
    RULESETS,
    EmaRanking,
    EmaResult,
    ageing,
    anniversary,
    ema_ranking,
    shared_places,
)
from rankings.ema.models import ImportedResult, TournamentResult

RANKED_FAMILIES: tuple[str, ...] = RULESETS


@dataclass(frozen=True)
class ResultFact:
    """A result as the ranking and the player page need it, from either source."""

    player_id: int
    family: str
    base_rank: int
    weight: Fraction
    ended_on: date
    place: int
    players: int
    tournament: str
    link: str  # "local:<slug>" or "imported:<id>"
    city: str = ""
    country: str = ""

    def as_result(self) -> EmaResult:
        return EmaResult(
            base_rank=self.base_rank,
            weight=self.weight,
            ended_on=self.ended_on,
            ruleset=self.family,
            tournament=self.link,
        )


@dataclass(frozen=True)
class RankedPlayer:
    """What the ranking needs of a player (read with the results, no model instance)."""

    pk: int
    first_name: str
    last_name: str
    ema_id: str
    country: str

    @property
    def id(self) -> int:
        return self.pk

    @property
    def full_name(self) -> str:
        return f"{self.first_name} {self.last_name}".strip()


@dataclass
class RankingLine:
    """A player's EMA ranking in one family, with the results it comes from (not yet stored)."""

    family: str
    player: RankedPlayer
    ranking: EmaRanking
    position: int = 0


def window_start(on: date) -> date:
    """The earliest last day of a tournament whose results can still count on ``on`` (with a margin)."""
    return anniversary(on, -2) - timedelta(days=2)


_LOCAL_FIELDS = (
    "player_id",
    "place",
    "base_rank",
    "tournament__name",
    "tournament__slug",
    "tournament__city",
    "tournament__country",
    "tournament__ema_state__family",
    "tournament__ema_state__weight",
    "tournament__ema_state__ended_on",
    "tournament__ema_state__players",
)
_IMPORTED_FIELDS = (
    "player_id",
    "place",
    "base_rank",
    "tournament_id",
    "tournament__name",
    "tournament__city",
    "tournament__country",
    "tournament__family",
    "tournament__weight",
    "tournament__ends_on",
    "tournament__players",
)
_PLAYER_FIELDS = ("player__first_name", "player__last_name", "player__ema_id", "player__country")


def result_facts(
    *,
    since: date | None = None,
    until: date | None = None,
    player_id: int | None = None,
    with_players: bool = False,
) -> tuple[list[ResultFact], dict[int, RankedPlayer]]:
    """Every counted result of a ranked family (players with an EMA number), from both sources.

    Two queries. ``since``/``until`` bound the tournaments' last days; ``player_id`` reads one player.
    With ``with_players`` the players come along (unsaved-looking instances carrying pk and names).
    """
    local = TournamentResult.objects.filter(
        tournament__ema_state__counted=True,
        tournament__ema_state__family__in=RANKED_FAMILIES,
        player__ema_id__isnull=False,
    )
    imported = ImportedResult.objects.filter(
        tournament__family__in=RANKED_FAMILIES, player__isnull=False, player__ema_id__isnull=False
    )
    if since is not None:
        local = local.filter(tournament__ema_state__ended_on__gte=since)
        imported = imported.filter(tournament__ends_on__gte=since)
    if until is not None:
        local = local.filter(tournament__ema_state__ended_on__lte=until)
        imported = imported.filter(tournament__ends_on__lte=until)
    if player_id is not None:
        local = local.filter(player_id=player_id)
        imported = imported.filter(player_id=player_id)
    extra = _PLAYER_FIELDS if with_players else ()
    facts: list[ResultFact] = []
    players: dict[int, RankedPlayer] = {}
    # the two sources differ in where the tournament's name and link stand in a row
    sources = ((local, _LOCAL_FIELDS, 3, 4, "local"), (imported, _IMPORTED_FIELDS, 4, 3, "imported"))
    for rows, fields, name_at, link_at, kind in sources:
        for row in rows.values_list(*fields, *extra).iterator(chunk_size=5000):
            facts.append(
                ResultFact(
                    player_id=row[0],
                    family=row[7],
                    base_rank=row[2],
                    weight=row[8],
                    ended_on=row[9],
                    place=row[1],
                    players=row[10],
                    tournament=row[name_at],
                    link=f"{kind}:{row[link_at]}",
                    city=row[5],
                    country=row[6],
                )
            )
            if extra and row[0] not in players:
                players[row[0]] = _player(row[0], row[11:])
    return facts, players


def _player(pk: int, values: tuple) -> RankedPlayer:
    first, last, ema_id, country = values
    return RankedPlayer(pk, first, last, ema_id or "", country)


def result_detail(fact: ResultFact, on: date, in_a: bool, in_b: bool) -> dict[str, Any]:
    share = ageing(fact.ended_on, on)
    kind, _, key = fact.link.partition(":")
    return {
        "tournament": fact.tournament,
        "slug": key if kind == "local" else "",
        "imported": int(key) if kind == "imported" else None,
        "city": fact.city,
        "country": fact.country,
        "ended_on": fact.ended_on.isoformat(),
        "place": fact.place,
        "players": fact.players,
        "base_rank": fact.base_rank,
        "weight": str(fact.weight),
        "ageing": str(share),
        "aged_weight": str(fact.weight * share),
        "part_a": in_a,
        "part_b": in_b,
    }


def padding_details(ranking: EmaRanking) -> list[dict[str, Any]]:
    in_a = sum(1 for c in ranking.part_a_results if c.dummy)
    in_b = sum(1 for c in ranking.part_b_results if c.dummy)
    return [
        {
            "padding": True,
            "base_rank": 0,
            "weight": "1",
            "ageing": "1",
            "aged_weight": "1",
            "part_a": True,
            "part_b": i < in_b,
        }
        for i in range(in_a)
    ]


def player_ranking(
    facts: list[ResultFact], *, family: str, on: date
) -> tuple[EmaRanking, list[dict[str, Any]]]:
    """A player's ranking from their results of ``family``, with every result's detail (best first)."""
    inputs = [(f.as_result(), f) for f in facts if f.family == family]
    ranking = ema_ranking([result for result, _ in inputs], ruleset=family, on=on)
    # the ranking refers to the very result objects it was given: identify them by id()
    part_a = {id(c.result) for c in ranking.part_a_results if c.result is not None}
    part_b = {id(c.result) for c in ranking.part_b_results if c.result is not None}
    order = {id(c.result): i for i, c in enumerate(ranking.part_a_results) if c.result is not None}
    inputs.sort(key=lambda pair: (order.get(id(pair[0]), len(order)), -pair[1].ended_on.toordinal()))
    details = [result_detail(f, on, id(r) in part_a, id(r) in part_b) for r, f in inputs]
    return ranking, details + padding_details(ranking)


def _part_a_size(results: int) -> int:
    """:func:`rankings.ema.engine.part_a_size` on integers: 5 + ceil(4 (n − 5) / 5) results."""
    return MINIMUM_RESULTS + -(-4 * max(results - MINIMUM_RESULTS, 0) // 5)


_SHARES: dict[date, dict[tuple[date, Fraction], int]] = {}  # 4 × aged weight per (last day, weight)


def quick_ranking(facts: list[ResultFact], *, family: str, on: date) -> EmaRanking | None:
    """The ranking of :func:`rankings.ema.engine.ema_ranking` on whole numbers, for the full recompute.

    Tournament weights are whole or halves and ageing is 1 or ½, so four times an aged weight is a whole
    number: the sums are exact integers and only Parts A and B become fractions. Same order of results
    (base rank, then aged weight, then the more recent), same padding, same Part A size. ``None`` when a
    weight is not a multiple of ¼ (then the engine itself is used). The result lists are left empty.
    """
    items: list[tuple[int, int, int]] = []
    shares = _SHARES.setdefault(on, {}) if len(_SHARES) < 8 else {}
    for fact in facts:
        if fact.family != family:
            continue
        key = (fact.ended_on, fact.weight)
        quarters = shares.get(key)
        if quarters is None:
            aged = fact.weight * ageing(fact.ended_on, on) * 4
            quarters = shares[key] = int(aged) if aged.denominator == 1 else -1
        if quarters == 0:
            continue
        if quarters < 0 or not 0 <= fact.base_rank <= 1000:
            return None
        items.append((fact.base_rank, quarters, fact.ended_on.toordinal()))
    real = len(items)
    items.sort(key=lambda item: (-item[0], -item[1], -item[2]))
    items.extend((0, 4, 0) for _ in range(MINIMUM_RESULTS - real))

    def average(chosen: list[tuple[int, int, int]]) -> Fraction:
        return Fraction(sum(r * w for r, w, _ in chosen), sum(w for _, w, _ in chosen))

    part_a = average(items[: _part_a_size(real)])
    part_b = average(items[:PART_B_RESULTS])
    return EmaRanking(
        ruleset=family,
        on=on,
        ranking=(part_a + part_b) / 2,
        part_a=part_a,
        part_b=part_b,
        counted=real,
        part_a_results=(),
        part_b_results=(),
    )


def ranking_compute(*, on: date) -> dict[str, list[RankingLine]]:
    """The EMA ranking on ``on`` of every player with an EMA number, per ranked family (two queries).

    Players with fewer than ``LISTING_RESULTS`` (2) results that still count on ``on`` are left out (the
    ranking system's §3). Equal rankings share the best
    position; among them players are listed by name. The lines carry no per-result details: a player's
    page computes them (:func:`player_details`).
    """
    facts, players = result_facts(since=window_start(on), until=on, with_players=True)
    grouped: dict[tuple[str, int], list[ResultFact]] = defaultdict(list)
    for fact in facts:
        grouped[(fact.family, fact.player_id)].append(fact)
    lines: dict[str, list[RankingLine]] = {family: [] for family in RANKED_FAMILIES}
    for (family, player_id), own in grouped.items():
        ranking = quick_ranking(own, family=family, on=on)
        if ranking is None:
            ranking = ema_ranking([f.as_result() for f in own], ruleset=family, on=on)
        if not ranking.listed:  # MERS ranking system §3: two results that still count
            continue
        lines[family].append(RankingLine(family, players[player_id], ranking))
    for family_lines in lines.values():
        family_lines.sort(
            key=lambda line: (
                -line.ranking.ranking,
                line.player.last_name.casefold(),
                line.player.first_name.casefold(),
                line.player.ema_id,
            )
        )
        for line, position in zip(
            family_lines, shared_places([line.ranking.ranking for line in family_lines]), strict=True
        ):
            line.position = position
    return lines


def player_details(
    *, player_id: int, family: str, on: date, facts: list[ResultFact] | None = None
) -> tuple[EmaRanking, list[dict[str, Any]]]:
    """A player's ranking on ``on`` with the detail of every result that can count (padding included).

    Reads the player's results (two queries) unless ``facts`` (e.g. the player's whole history) are given.
    """
    if facts is None:
        facts, _ = result_facts(since=window_start(on), until=on, player_id=player_id)
    start = window_start(on)
    return player_ranking([f for f in facts if start <= f.ended_on <= on], family=family, on=on)


def player_history_facts(*, player_id: int, family: str, until: date) -> list[ResultFact]:
    """Every result of one player in ``family`` up to ``until`` (two queries), for the history chart."""
    facts, _ = result_facts(until=until, player_id=player_id)
    return [f for f in facts if f.family == family]
