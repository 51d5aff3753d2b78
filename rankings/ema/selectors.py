"""Reads for the EMA ranking: a finished tournament's places and base ranks, and the ranking itself."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, timedelta
from fractions import Fraction

from django.db.models import Q, QuerySet
from django.utils import timezone

from rankings.ema.engine import (
    RULESETS,
    base_ranks,
    shared_places,
    tournament_weight,
)
from rankings.ema.models import EmaRankingEntry, EmaRankingState, ImportedTournament, TournamentResult
from rankings.ema.ranking import RankingLine, ranking_compute
from rankings.standings.selectors import standings_document_shown, standings_view
from tournaments.models import Player, Registration, Tournament
from tournaments.search import fold
from tournaments.selectors import tournament_list_visible

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
    standings = standings_view(tournament=tournament)
    ranks = base_ranks(standings)
    places = dict(
        zip(
            (r.player for r in standings.listed),
            shared_places([r.rank for r in standings.listed]),
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
        for row in standings.listed
    )
    countries = {r.registration.player.country for r in rows if r.registration.player.country}
    return TournamentPlaces(
        family=tournament.family,
        rows=rows,
        countries=len(countries),
        ended_on=tournament_ended_on(tournament),
    )


# -- the ranking ------------------------------------------------------------------------------------


def ema_ranking_compute(*, on: date) -> dict[str, list[RankingLine]]:
    """The EMA ranking on ``on``, from finished local and imported tournaments alike."""
    return ranking_compute(on=on)


def ema_ranking_state() -> EmaRankingState:
    state, _ = EmaRankingState.objects.get_or_create(pk=1)
    return state


def ema_ranking_entries(*, family: str, query: str = "", country: str = "") -> QuerySet[EmaRankingEntry]:
    """The stored ranking of ``family`` in order.

    ``query`` matches names without regard to case or accents ("nunez" finds "Núñez", on SQLite and
    PostgreSQL alike: the player's folded ``search_name``), EMA numbers and country codes; ``country``
    keeps one country.
    """
    entries = EmaRankingEntry.objects.filter(family=family).select_related("player")
    if country:
        entries = entries.filter(country=country.upper())
    for word in query[:100].split()[:6]:
        condition = Q(player__search_name__contains=fold(word)) | Q(ema_id__startswith=word)
        if len(word) == 3 and word.isalpha():
            condition |= Q(country=word.upper())
        entries = entries.filter(condition)
    return entries.order_by("position", "player__last_name", "player__first_name", "id")


def ema_ranking_entry(*, family: str, ema_id: str) -> EmaRankingEntry | None:
    return EmaRankingEntry.objects.filter(family=family, ema_id=ema_id).select_related("player").first()


def ema_player_by_number(*, ema_id: str) -> Player | None:
    """The player holding an EMA number, listed in the ranking or not."""
    return Player.objects.filter(ema_id=ema_id).first()


def ema_position_of(*, family: str, ranking, player_id: int) -> int:
    """The position a ranking of ``family`` would take among the stored ones of every other player (equal
    rankings share the best position)."""
    values = (
        EmaRankingEntry.objects.filter(family=family)
        .exclude(player_id=player_id)
        .values_list("ranking", flat=True)
    )
    return 1 + sum(1 for value in values if value > ranking)


def imported_corrections(*, links) -> dict[str, date]:
    """The day each imported tournament among ``links`` ("imported:<id>") was corrected, when it was
    (changed a minute or more after its import)."""
    ids = [int(link.partition(":")[2]) for link in links if link.startswith("imported:")]
    found = {}
    for pk, imported_at, updated_at in ImportedTournament.objects.filter(pk__in=ids).values_list(
        "pk", "imported_at", "updated_at"
    ):
        if (updated_at - imported_at).total_seconds() >= 60:
            found[f"imported:{pk}"] = timezone.localdate(updated_at)
    return found


# -- a player across the tournaments of this server ----------------------------------------------------

PLAYER_SEARCH_LIMIT = 50


def _visible_tournaments(user):
    return tournament_list_visible(user=user).values("pk")


def players_found(*, query: str, user) -> list[Player]:
    """Players whose folded name holds the folded ``query`` (or whose EMA number is it), among those who
    play in a tournament ``user`` may see; at most :data:`PLAYER_SEARCH_LIMIT`, by name."""
    text = fold(query)[:100]
    if not text:
        return []
    found = Player.objects.filter(registrations__tournament__in=_visible_tournaments(user))
    if text.isdigit():
        found = found.filter(Q(ema_id=text) | Q(search_name__contains=text))
    else:
        found = found.filter(search_name__contains=text)
    return list(found.distinct().order_by("last_name", "first_name", "pk")[:PLAYER_SEARCH_LIMIT])


@dataclass(frozen=True)
class PlayedHere:
    tournament: Tournament
    key: str  # the registration's key: the player's page in the tournament
    substitute: bool
    place: int | None  # finished and counted: the place and the EMA base rank
    players: int | None
    base_rank: int | None


def player_across(*, player_id: int, user) -> tuple[Player, list[PlayedHere], list[EmaRankingEntry]]:
    """A player, every tournament of this server ``user`` may see that he played (latest first, with his
    place and base rank once finished) and his EMA ranking entries. A player who plays in no tournament
    ``user`` may see is unknown (``Player.DoesNotExist``): neither his name nor his existence shows."""
    registrations = list(
        Registration.objects.filter(player_id=player_id, tournament__in=_visible_tournaments(user))
        .select_related("tournament", "player")
        .order_by("-tournament__starts_on", "tournament__name")
    )
    if not registrations:
        raise Player.DoesNotExist(player_id)
    player = registrations[0].player
    results = {
        r.registration_id: r
        for r in TournamentResult.objects.filter(
            registration__in=[r.pk for r in registrations]
        ).select_related("tournament__ema_state")
    }
    lines = []
    for registration in registrations:
        result = results.get(registration.pk)
        state = getattr(result.tournament, "ema_state", None) if result else None
        lines.append(
            PlayedHere(
                tournament=registration.tournament,
                key=registration.key,
                substitute=registration.is_substitute,
                place=result.place if result else None,
                players=state.players if state else None,
                base_rank=result.base_rank if result else None,
            )
        )
    entries = list(EmaRankingEntry.objects.filter(player_id=player_id).order_by("family"))
    return player, lines, entries


@dataclass(frozen=True)
class PlayingNow:
    """A public tournament of this server the player is playing, as a what-if offers it: his place in the
    standings the public sees, its players (substitutes apart), days and countries."""

    name: str
    place: int
    players: int
    days: int
    countries: int


def playing_now(*, player_id: int, family: str) -> list[PlayingNow]:
    """The public tournaments of ``family`` still playing in which the player is ranked now."""
    found = []
    registrations = Registration.objects.filter(
        player_id=player_id,
        is_substitute=False,
        tournament__is_public=True,
        tournament__status=Tournament.Status.RUNNING,
    ).select_related("tournament")
    for registration in registrations:
        tournament = registration.tournament
        if tournament.family != family:
            continue
        document = standings_document_shown(tournament=tournament) or {}
        row = next((r for r in document.get("standings", []) if r.get("player") == registration.key), None)
        if row is None or row.get("rank") is None:
            continue
        players = Registration.objects.filter(tournament=tournament, is_substitute=False)
        found.append(
            PlayingNow(
                name=tournament.name,
                place=row["rank"],
                players=players.count(),
                days=tournament.days,
                countries=max(
                    players.exclude(player__country="").values("player__country").distinct().count(), 1
                ),
            )
        )
    return found
