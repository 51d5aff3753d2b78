"""The EMA ranking: stored results of finished tournaments, and the ranking computed from them.

How it flows:

- When a tournament is finished, or a finished tournament (its results, penalties, players, dates,
  weight) changes, :func:`ema_ranking_touch` marks it changed and, once the transaction commits,
  queues one ``rankings.exports.tasks.ema_ranking_recompute`` task. ``rankings/ema/receivers.py`` calls
  it when the domain event names such a change; imports of results held elsewhere call it too.
- The task (:func:`ema_ranking_recompute`) first stores again the results of every changed tournament
  (:func:`tournament_results_store`: each ranked player's place and base rank, and the MERS weight),
  then computes the ranking of every player with an EMA number and two counting results (the listing rule) and
  replaces the stored ranking. A run holds the row lock of the ranking state, so two runs never
  interleave; a run that finds nothing changed since the last one does nothing.
- Ageing depends on the date: the stored ranking is as of the day it was computed. The ranking page
  queues a recompute when it finds a ranking of an earlier day (:func:`ema_ranking_refresh_if_stale`).

Which tournaments count: every finished tournament in the database whose ruleset family is MCR or
riichi (the two rankings are separate). Salamanca and classical tournaments get their places and
base ranks stored, but the EMA does not rank those rules, so they never count.
"""

from __future__ import annotations

import logging
from datetime import date

from django.conf import settings
from django.core.cache import cache
from django.db import connection, transaction
from django.db.models import F
from django.utils import timezone

from rankings.ema.models import EmaRankingEntry, EmaRankingState, EmaTournament, TournamentResult
from rankings.ema.selectors import (
    RANKED_FAMILIES,
    ema_ranking_compute,
    ema_ranking_state,
    tournament_places,
)
from rankings.jobs.queue import task_named
from tournaments import pagecache
from tournaments.models import Tournament
from tournaments.selectors import hidden_after

log = logging.getLogger(__name__)

RECOMPUTE_TASK = "rankings.exports.tasks.ema_ranking_recompute"
QUEUE_KEY = "ema-ranking:queued"
QUEUE_TTL_SECONDS = 60


def ema_ranking_touch(*, tournament_id: int | None = None) -> None:
    """A finished tournament (or a player with results) changed: the input versions move now, in the
    transaction of the change, and the recompute is queued once it commits (a failure to queue is logged
    and never fails the change: ``robust``).

    With ``tournament_id`` the tournament's results are stored again first. Cheap: call it freely.
    """
    if tournament_id is not None:
        EmaTournament.objects.get_or_create(tournament_id=tournament_id)
        EmaTournament.objects.filter(tournament_id=tournament_id).update(input_version=F("input_version") + 1)
    ema_ranking_state()
    EmaRankingState.objects.filter(pk=1).update(input_version=F("input_version") + 1)
    transaction.on_commit(ema_ranking_enqueue, robust=True)


def _is_fresh(today: date) -> bool:
    return EmaRankingState.objects.filter(
        pk=1, computed_version__gte=F("input_version"), computed_on=today
    ).exists()


def ema_ranking_enqueue(*, force: bool = False) -> bool:
    """Queue a recompute unless the stored ranking is current or one is queued already.

    True when a recompute was queued (or, with no broker, run). Never raises: a failure is logged and
    recorded on the ranking state, and the next change or page visit tries again.
    """
    if not force and _is_fresh(timezone.localdate()):
        return False
    if settings.CELERY_TASK_ALWAYS_EAGER:
        try:
            task_named(RECOMPUTE_TASK).apply(args=[None], throw=True)
        except Exception as exc:  # the results of the request that got us here are saved: keep them
            log.exception("EMA ranking recompute failed")
            _record_queue_failure(exc)
            return False
        return True
    if not force and not cache.add(QUEUE_KEY, "1", QUEUE_TTL_SECONDS):
        return False
    try:
        task_named(RECOMPUTE_TASK).apply_async(args=[None], countdown=1)
    except Exception as exc:  # the broker is down
        cache.delete(QUEUE_KEY)
        log.warning("EMA ranking recompute not queued: %s", exc)
        _record_queue_failure(exc)
        return False
    EmaRankingState.objects.filter(pk=1).update(
        queued_at=timezone.now(), queue_failed_at=None, queue_error=""
    )
    return True


def _record_queue_failure(exc: Exception) -> None:
    EmaRankingState.objects.filter(pk=1).update(
        queue_failed_at=timezone.now(), queue_error=f"{type(exc).__name__}: {exc}"[:500]
    )


def ema_ranking_refresh_if_stale() -> bool:
    """Queue a recompute when the stored ranking is behind its input or of an earlier day."""
    return ema_ranking_enqueue()


@transaction.atomic
def tournament_results_store(*, tournament: Tournament) -> EmaTournament:
    """Store (again) the places, base ranks and MERS weight of a finished tournament.

    A tournament that is not finished keeps no results and does not count, nor does a private one: the
    ranking is public and would show its players and places; nor one whose last sessions are hidden for
    the prize-giving, until the director reveals them (the places would tell the hidden results).
    """
    state, _ = EmaTournament.objects.select_for_update().get_or_create(tournament=tournament)
    version = state.input_version
    TournamentResult.objects.filter(tournament=tournament).delete()
    changes: dict = {"computed_version": version, "computed_at": timezone.now(), "error": ""}
    if (
        tournament.status != Tournament.Status.FINISHED
        or not tournament.is_public
        or hidden_after(tournament=tournament) is not None
    ):
        changes.update(counted=False, players=0, countries=0, weight=None, ended_on=None, family="")
    else:
        places = tournament_places(tournament=tournament)
        TournamentResult.objects.bulk_create(
            TournamentResult(
                tournament=tournament,
                registration=row.registration,
                player=row.registration.player,
                place=row.place,
                base_rank=row.base_rank,
                table_points=row.table_points,
                score=row.score,
            )
            for row in places.rows
        )
        changes.update(
            family=places.family,
            players=places.players,
            countries=places.countries,
            weight=places.weight(
                days=tournament.days, european_qualifier=tournament.qualifies_for_championship
            ),
            ended_on=places.ended_on,
            counted=bool(places.rows),
        )
    for name, value in changes.items():
        setattr(state, name, value)
    state.save()
    return state


def ema_ranking_recompute(*, on: date | None = None, refresh_all: bool = False) -> EmaRankingState:
    """Store the results of changed tournaments, then compute and store the EMA ranking as of ``on``.

    ``on`` defaults to today. ``refresh_all`` stores the results of every finished tournament again
    (after an upgrade, or to repair). Safe to run twice or concurrently.
    """
    today = timezone.localdate()
    on = on or today
    cache.delete(QUEUE_KEY)  # changes from now on queue another run
    ema_ranking_state()
    if refresh_all:
        for tournament_id in Tournament.objects.filter(status=Tournament.Status.FINISHED).values_list(
            "pk", flat=True
        ):
            EmaTournament.objects.get_or_create(tournament_id=tournament_id)
        EmaTournament.objects.update(input_version=F("input_version") + 1)
        EmaRankingState.objects.filter(pk=1).update(input_version=F("input_version") + 1)
    with transaction.atomic():
        state = EmaRankingState.objects.select_for_update().get(pk=1)
        version = state.input_version
        if on == today and state.computed_on == today and state.computed_version >= version:
            return state  # an earlier run of the same burst did it
        for changed in EmaTournament.objects.filter(computed_version__lt=F("input_version")).select_related(
            "tournament"
        ):
            _store_or_record(changed)
        lines = ema_ranking_compute(on=on)
        now = timezone.now()
        previous = {
            (family, player_id): (position, ranking)
            for family, player_id, position, ranking in EmaRankingEntry.objects.values_list(
                "family", "player_id", "position", "ranking"
            )
        }
        EmaRankingEntry.objects.all().delete()
        ranking_entries_insert(
            rows=[
                (
                    family,
                    line.player.pk,
                    line.player.ema_id,
                    line.position,
                    line.ranking.ranking,
                    line.ranking.part_a,
                    line.ranking.part_b,
                    line.ranking.counted,
                    line.player.country,
                    *previous.get((family, line.player.pk), (None, None)),
                )
                for family in RANKED_FAMILIES
                for line in lines[family]
            ],
            on=on,
            computed_at=now,
        )
        state.computed_version = version
        state.computed_on = on
        state.computed_at = now
        state.queue_failed_at = None
        state.queue_error = ""
        state.save()
        pagecache.changed(pagecache.EMA_RANKING)  # the public ranking pages show the new computation
    return state


def _store_or_record(changed: EmaTournament) -> None:
    """Store a tournament's results; a tournament whose results cannot be read keeps its old ones."""
    try:
        with transaction.atomic():
            tournament_results_store(tournament=changed.tournament)
    except Exception as exc:
        log.exception("EMA results of tournament %s not stored", changed.tournament_id)
        EmaTournament.objects.filter(pk=changed.pk).update(
            computed_version=F("input_version"), error=f"{type(exc).__name__}: {exc}"[:500]
        )


_ENTRY_COLUMNS = (
    "family",
    "player_id",
    "ema_id",
    "position",
    "ranking",
    "part_a",
    "part_b",
    "results",
    "country",
    "previous_position",
    "previous_ranking",
    "on",
    "computed_at",
)


def ranking_entries_insert(*, rows: list[tuple], on: date, computed_at) -> None:
    """Write the ranking's rows with one ``executemany``: thousands of rows without the per-field work of
    ``bulk_create`` (the values are already checked; fractions are stored as the text of FractionField)."""
    table = connection.ops.quote_name(EmaRankingEntry._meta.db_table)
    columns = ", ".join(connection.ops.quote_name(c) for c in _ENTRY_COLUMNS)
    marks = ", ".join(["%s"] * len(_ENTRY_COLUMNS))
    on_value = connection.ops.adapt_datefield_value(on)
    at_value = connection.ops.adapt_datetimefield_value(computed_at)
    values = [
        (
            family,
            player_id,
            ema_id,
            position,
            str(ranking),
            str(part_a),
            str(part_b),
            results,
            country,
            previous_position,
            None if previous_ranking is None else str(previous_ranking),
            on_value,
            at_value,
        )
        for (
            family,
            player_id,
            ema_id,
            position,
            ranking,
            part_a,
            part_b,
            results,
            country,
            previous_position,
            previous_ranking,
        ) in rows
    ]
    if values:
        with connection.cursor() as cursor:
            cursor.executemany(f"INSERT INTO {table} ({columns}) VALUES ({marks})", values)
