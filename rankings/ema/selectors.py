"""Reads for the EMA ranking: a finished tournament's places and base ranks, and the ranking itself."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from datetime import date, timedelta
from fractions import Fraction
from typing import Any

from django.db.models import Q, QuerySet

from rankings.ema.engine import (
    RULESETS,
    EmaRanking,
    EmaResult,
    ageing,
    base_ranks,
    ema_ranking,
    shared_places,
    tournament_weight,
)
from rankings.models import EmaRankingEntry, EmaRankingState, TournamentResult
from tournaments.models import Player, Registration, Tournament
from tournaments.search import fold

RANKED_FAMILIES: tuple[str, ...] = RULESETS  # MCR and riichi; Salamanca and classical are not EMA-ranked


def tournament_ended_on(tournament: Tournament) -> date:
    """The last day of a tournament (the date its results age from)."""
    return tournament.starts_on + timedelta(days=max(tournament.days, 1) - 1)


@dataclass(frozen=True)
class PlaceRow:
    registration: Registration
    place: int
    base_rank: int
    table_points: Fraction | None
    score: Fraction


@dataclass(frozen=True)
class TournamentPlaces:
    """A tournament's ranked players with place and base rank, and what its MERS weight needs."""

    family: str
    rows: tuple[PlaceRow, ...]
    countries: int
    ended_on: date

    @property
    def players(self) -> int:
        return len(self.rows)

    def weight(self, *, days: int, european_qualifier: bool) -> Fraction | None:
        if not self.rows:
            return None
        return tournament_weight(
            days=days,
            players=self.players,
            countries=max(self.countries, 1),
            european_qualifier=european_qualifier,
        )


def tournament_places(*, tournament: Tournament) -> TournamentPlaces:
    """Every ranked player's place and EMA base rank in ``tournament``, from its standings.

    Tied players share the best place and its base rank; substitutes have no place and do not count
    in N; players without an EMA number and disqualified players (MERS §4.4) do.
    """
    from rankings.standings.selectors import standings_compute

    standings = standings_compute(tournament=tournament)
    ranks = base_ranks(standings)
    places = dict(
        zip(
            (r.player for r in standings.rows),
            shared_places([r.rank for r in standings.rows]),
            strict=True,
        )
    )
    registrations = {
        r.key: r for r in Registration.objects.filter(tournament=tournament).select_related("player")
    }
    rows = tuple(
        PlaceRow(
            registration=registrations[row.player],
            place=places[row.player],
            base_rank=ranks[row.player],
            table_points=row.table_points,
            score=row.score,
        )
        for row in standings.rows
    )
    countries = {r.registration.player.country for r in rows if r.registration.player.country}
    return TournamentPlaces(
        family=tournament.family,
        rows=rows,
        countries=len(countries),
        ended_on=tournament_ended_on(tournament),
    )


# -- the ranking ------------------------------------------------------------------------------------


@dataclass
class RankingLine:
    """A player's EMA ranking in one family, with the results it comes from (not yet stored)."""

    family: str
    player: Player
    ranking: EmaRanking
    details: list[dict[str, Any]] = field(default_factory=list)
    position: int = 0


def _detail(result: TournamentResult, on: date, in_a: bool, in_b: bool) -> dict:
    state = result.tournament.ema_state
    share = ageing(state.ended_on, on)
    return {
        "tournament": result.tournament.name,
        "slug": result.tournament.slug,
        "ended_on": state.ended_on.isoformat(),
        "place": result.place,
        "players": state.players,
        "base_rank": result.base_rank,
        "weight": str(state.weight),
        "ageing": str(share),
        "aged_weight": str(state.weight * share),
        "part_a": in_a,
        "part_b": in_b,
    }


def _padding(ranking: EmaRanking) -> list[dict]:
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


def ema_ranking_compute(*, on: date) -> dict[str, list[RankingLine]]:
    """The EMA ranking on the date ``on`` of every player with an EMA number, per ranked family.

    Reads the stored results of the counted tournaments (one query). Players with no result that
    still counts on ``on`` are left out. Equal rankings share the best position.
    """
    results = (
        TournamentResult.objects.filter(
            tournament__ema_state__counted=True,
            tournament__ema_state__family__in=RANKED_FAMILIES,
            player__ema_id__isnull=False,
        )
        .select_related("player", "tournament__ema_state")
        .order_by("player_id", "-tournament__ema_state__ended_on", "tournament_id")
    )
    grouped: dict[tuple[str, int], list[TournamentResult]] = defaultdict(list)
    players: dict[int, Player] = {}
    for r in results:
        grouped[(r.tournament.ema_state.family, r.player_id)].append(r)
        players[r.player_id] = r.player

    lines: dict[str, list[RankingLine]] = {family: [] for family in RANKED_FAMILIES}
    for (family, player_id), rows in grouped.items():
        inputs = [
            (
                EmaResult(
                    base_rank=tr.base_rank,
                    weight=tr.tournament.ema_state.weight,
                    ended_on=tr.tournament.ema_state.ended_on,
                    ruleset=family,
                    tournament=str(tr.pk),
                ),
                tr,
            )
            for tr in rows
        ]
        ranking = ema_ranking([result for result, _ in inputs], ruleset=family, on=on)
        if ranking.counted == 0:
            continue
        # the ranking refers to the very result objects it was given: identify them by id()
        part_a = {id(c.result) for c in ranking.part_a_results if c.result is not None}
        part_b = {id(c.result) for c in ranking.part_b_results if c.result is not None}
        details = [_detail(tr, on, id(result) in part_a, id(result) in part_b) for result, tr in inputs]
        details += _padding(ranking)
        lines[family].append(RankingLine(family, players[player_id], ranking, details))

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


def ema_ranking_state() -> EmaRankingState:
    state, _ = EmaRankingState.objects.get_or_create(pk=1)
    return state


def ema_ranking_entries(*, family: str, query: str = "") -> QuerySet[EmaRankingEntry]:
    """The stored ranking of ``family`` in order; ``query`` matches names, EMA numbers and countries."""
    entries = EmaRankingEntry.objects.filter(family=family).select_related("player")
    for word in query[:100].split()[:6]:
        entries = entries.filter(
            Q(player__search_name__contains=fold(word))
            | Q(ema_id__startswith=word)
            | Q(player__country__iexact=word)
        )
    return entries.order_by("position", "player__last_name", "player__first_name", "id")


def ema_ranking_entry(*, family: str, ema_id: str) -> EmaRankingEntry | None:
    return EmaRankingEntry.objects.filter(family=family, ema_id=ema_id).select_related("player").first()
