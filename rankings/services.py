"""Standings recompute: touched by every result or penalty change, computed by a Celery task.

- ``standings_touch`` bumps the tournament's input version and, once the transaction commits, queues
  one recompute. A burst of touches coalesces: while a recompute is queued and not started, no other
  is queued (a short-lived cache key), and the task always reads the newest input when it starts.
- ``standings_recompute`` stores a snapshot only if no newer one was stored meanwhile.
- With the broker down, results are still saved; the state records that the update is delayed and a
  director can run the recompute by hand (and the next change queues it again).
"""

from __future__ import annotations

import logging

from django.conf import settings
from django.core.cache import cache
from django.db import transaction
from django.db.models import F
from django.utils import timezone

from rankings.engine.standings import Standings, printable
from rankings.models import StandingsState
from tournaments.models import Tournament

log = logging.getLogger(__name__)

QUEUE_KEY = "standings:queued:{}"
QUEUE_TTL_SECONDS = 30


def standings_state(*, tournament_id: int) -> StandingsState:
    state, _ = StandingsState.objects.get_or_create(tournament_id=tournament_id)
    return state


def standings_touch(*, tournament_id: int) -> None:
    """The tournament's standings input changed: bump its version and queue a recompute on commit."""
    standings_state(tournament_id=tournament_id)
    StandingsState.objects.filter(tournament_id=tournament_id).update(input_version=F("input_version") + 1)
    transaction.on_commit(lambda: standings_enqueue(tournament_id=tournament_id))


def standings_enqueue(*, tournament_id: int, force: bool = False) -> bool:
    """Queue a recompute unless one is already queued and not started. True when queued now."""
    from rankings.tasks import recompute_standings

    key = QUEUE_KEY.format(tournament_id)
    fresh = StandingsState.objects.filter(
        tournament_id=tournament_id, computed_version__gte=F("input_version")
    )
    if not force and fresh.exists():  # an earlier callback of the same burst already recomputed
        return False
    if settings.CELERY_TASK_ALWAYS_EAGER:
        recompute_standings.apply(args=[tournament_id])
        return True
    if not force and not cache.add(key, "1", QUEUE_TTL_SECONDS):
        return False
    try:
        recompute_standings.apply_async(args=[tournament_id], countdown=0.5)
    except Exception as exc:  # the broker is down: keep the results, say the standings are late
        cache.delete(key)
        log.warning("standings recompute for tournament %s not queued: %s", tournament_id, exc)
        StandingsState.objects.filter(tournament_id=tournament_id).update(
            queue_failed_at=timezone.now(), queue_error=f"{type(exc).__name__}: {exc}"[:500]
        )
        return False
    StandingsState.objects.filter(tournament_id=tournament_id).update(
        queued_at=timezone.now(), queue_failed_at=None, queue_error=""
    )
    return True


def _breakdown(standings: Standings) -> dict:
    return {
        row.player: [
            {
                "session": r.session,
                "table": r.table,
                "wind": r.seat_wind,
                "opponents": list(r.opponents),
                "game_score": printable(r.game_score),
                "table_points": None if r.table_points is None else printable(r.table_points),
                "uma": None if r.uma is None else printable(r.uma),
                "transfers": printable(r.transfers),
                "chombo": printable(r.chombo),
                "penalties": printable(r.penalties),
                "final": printable(r.final),
            }
            for r in row.breakdown
        ]
        for row in standings.rows
    }


def standings_recompute(*, tournament_id: int) -> StandingsState:
    """Compute the standings from the newest input and store them unless a newer snapshot exists."""
    from rankings.selectors import standings_compute

    cache.delete(QUEUE_KEY.format(tournament_id))  # touches from now on queue another run
    state = standings_state(tournament_id=tournament_id)
    version = StandingsState.objects.values_list("input_version", flat=True).get(pk=state.pk)
    tournament = Tournament.objects.get(pk=tournament_id)
    standings = standings_compute(tournament=tournament)
    document = standings.to_document(tournament.slug, tournament.ruleset)
    StandingsState.objects.filter(pk=state.pk, computed_version__lt=version).update(
        document=document,
        breakdown=_breakdown(standings),
        computed_version=version,
        computed_at=timezone.now(),
        queue_failed_at=None,
        queue_error="",
    )
    state.refresh_from_db()
    return state


def standings_current(*, tournament: Tournament) -> StandingsState:
    """The stored snapshot, computed now if there is none yet."""
    state = standings_state(tournament_id=tournament.pk)
    if state.document is None:
        state = standings_recompute(tournament_id=tournament.pk)
    return state
