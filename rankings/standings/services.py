"""Standings recompute: touched by every result or penalty change, computed by a Celery task.

- ``standings_bump`` moves the tournament's input version, in the transaction of the change (the domain
  event's ``changing``); once it commits, the event's listener queues one recompute
  (``standings_enqueue``); ``standings_touch`` does both. A burst of touches coalesces: while a recompute is queued and not started, no other
  is queued (a short-lived cache key), and the task always reads the newest input when it starts.
- ``standings_recompute`` reads the input version *before* the input, computes, and stores the snapshot
  only if no snapshot of the same or a newer version was stored meanwhile (one conditional UPDATE), so an
  older computation that finishes late never replaces a newer snapshot, and two workers running at once
  leave the snapshot of the newest input. A run that finds the snapshot already fresh does nothing: the
  task is safe to run twice.
- With no broker configured the recompute runs in-process right after the commit.
- With the broker down, results are still saved; the state records that the update is delayed (the pages
  say so), a director can run the recompute by hand (``standings_refresh``: the dashboard button and
  ``manage.py recompute_standings``), and the next change queues it again.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from fractions import Fraction

from django.conf import settings
from django.core.cache import cache
from django.db import transaction
from django.db.models import F
from django.utils import timezone

from rankings.jobs.queue import task_named
from rankings.standings import selectors
from rankings.standings.engine import Standings, check_tiebreaks, printable
from rankings.standings.models import StandingsState
from scoring.rules.base import RuleError
from tournaments import pagecache
from tournaments.models import Tournament
from tournaments.signals import SETTINGS, changed_send

log = logging.getLogger(__name__)

QUEUE_KEY = "standings:queued:{}"
QUEUE_TTL_SECONDS = 30  # a queued run that never starts (lost message) blocks new ones for this long at most
RECOMPUTE_TASK = "rankings.standings.tasks.standings_recompute"
COUNTDOWN_SECONDS = 0.5  # a queued run waits this long, so that a burst of confirmations ends up in one run


def standings_state(*, tournament_id: int) -> StandingsState:
    state, _ = StandingsState.objects.get_or_create(tournament_id=tournament_id)
    return state


def _ensure_state(tournament_id: int) -> None:
    """Create the state row if missing, without loading the (large) snapshot it holds."""
    if not StandingsState.objects.filter(tournament_id=tournament_id).exists():
        StandingsState.objects.get_or_create(tournament_id=tournament_id)


def _bump(tournament_id: int) -> None:
    """A new input version (the public pages' stamp is the domain event's listener's business): one
    statement when the state row exists, as it does after the first change."""
    bumped = StandingsState.objects.filter(tournament_id=tournament_id).update(
        input_version=F("input_version") + 1
    )
    if not bumped:
        StandingsState.objects.get_or_create(tournament_id=tournament_id)
        StandingsState.objects.filter(tournament_id=tournament_id).update(
            input_version=F("input_version") + 1
        )


def standings_bump(*, tournament_id: int) -> None:
    """The tournament's standings input changed: a new input version, in the transaction of the change, so
    the sweep finds the standings behind whatever happens after the commit."""
    _bump(tournament_id)


def standings_touch(*, tournament_id: int, slug: str = "") -> None:
    """The tournament's standings input changed: bump its version and queue a recompute on commit (a
    failure to queue never fails the change itself: ``robust``)."""
    _bump(tournament_id)
    transaction.on_commit(
        lambda: standings_enqueue(tournament_id=tournament_id, slug=slug, bumped=True), robust=True
    )


def _cache_delete(key: str) -> None:
    try:
        cache.delete(key)
    except Exception as exc:  # a cache outage only weakens the coalescing
        log.warning("cache unavailable: %s", exc)


def standings_enqueue(
    *, tournament_id: int, force: bool = False, slug: str = "", bumped: bool = False
) -> bool:
    """Queue a recompute unless one is already queued and not started. True when queued (or run) now.

    ``bumped``: the input version was just bumped, so the standings are not fresh (no need to ask);
    ``slug``: the tournament's, when the caller has it (the public pages' stamp is renewed by slug)."""
    key = QUEUE_KEY.format(tournament_id)
    fresh = StandingsState.objects.filter(
        tournament_id=tournament_id, computed_version__gte=F("input_version"), document__isnull=False
    )
    if not force and not bumped and fresh.exists():  # an earlier callback of the burst already recomputed
        return False
    if settings.CELERY_TASK_ALWAYS_EAGER:
        return _recompute_in_process(tournament_id)
    try:
        added = cache.add(key, "1", QUEUE_TTL_SECONDS)
    except Exception as exc:
        log.warning("cache unavailable, queueing without coalescing: %s", exc)
        added = None
    if added is False and not force:  # a run is queued and has not started: it will read this change
        return False
    try:
        _publish(tournament_id)
    except Exception as exc:  # the broker is down: keep the results, say the standings are late
        _cache_delete(key)
        log.warning("standings recompute for tournament %s not queued: %s", tournament_id, exc)
        standings_failed(tournament_id=tournament_id, error=f"{type(exc).__name__}: {exc}")
        return False
    StandingsState.objects.filter(tournament_id=tournament_id).update(
        queued_at=timezone.now(), queue_failed_at=None, queue_error=""
    )
    if slug:
        pagecache.changed(slug)
    else:
        pagecache.changed_by_id(tournament_id)
    return True


def _publish(tournament_id: int) -> None:
    """Send the task to the broker named in the settings (a fresh connection, so a broker that went away
    is noticed at once and never hangs the request that confirmed a result)."""
    task = task_named(RECOMPUTE_TASK)
    with task.app.connection_for_write(url=settings.CELERY_BROKER_URL or None) as connection:
        task.apply_async(args=[tournament_id], countdown=COUNTDOWN_SECONDS, connection=connection)


def _recompute_in_process(tournament_id: int) -> bool:
    try:
        standings_recompute(tournament_id=tournament_id)
    except Exception as exc:  # wrong data never breaks the request that saved it
        log.exception("standings recompute for tournament %s failed", tournament_id)
        standings_failed(tournament_id=tournament_id, error=f"{type(exc).__name__}: {exc}")
        return False
    return True


def standings_failed(*, tournament_id: int, error: str) -> None:
    """Record that the standings could not be brought up to date (queueing or computing failed)."""
    StandingsState.objects.filter(tournament_id=tournament_id).update(
        queue_failed_at=timezone.now(), queue_error=error[:500]
    )
    pagecache.changed_by_id(tournament_id)


def _plain(value) -> int | float:
    """``printable`` with a fast path for whole numbers (most of the values of a breakdown)."""
    if type(value) is int:
        return value
    if isinstance(value, Fraction) and value.denominator == 1:
        return int(value.numerator)
    return printable(value)


def _breakdown(standings: Standings) -> dict:
    return {
        row.player: [
            {
                "session": r.session,
                "table": r.table,
                "wind": r.seat_wind,
                "opponents": list(r.opponents),
                "game_score": _plain(r.game_score),
                "table_points": None if r.table_points is None else _plain(r.table_points),
                "uma": None if r.uma is None else _plain(r.uma),
                "transfers": _plain(r.transfers),
                "chombo": _plain(r.chombo),
                "penalties": _plain(r.penalties),
                "final": _plain(r.final),
            }
            for r in row.breakdown
        ]
        for row in standings.rows
    }


def standings_store(*, tournament_id: int, version: int, document: dict, breakdown: dict) -> bool:
    """Store a snapshot computed from input ``version``, unless one of that version or newer is stored.

    One conditional UPDATE: of two computations racing, the newer input wins whatever the finishing order.
    """
    stored = StandingsState.objects.filter(tournament_id=tournament_id, computed_version__lt=version).update(
        document=document,
        breakdown=breakdown,
        computed_version=version,
        computed_at=timezone.now(),
        queue_failed_at=None,
        queue_error="",
    )
    if stored:
        pagecache.changed_by_id(tournament_id)
    return bool(stored)


def standings_recompute(*, tournament_id: int) -> StandingsState | None:
    """Compute the standings from the newest input and store them unless a newer snapshot exists.

    Returns the state after the run (None when the tournament no longer exists).
    """
    _cache_delete(QUEUE_KEY.format(tournament_id))  # changes from now on queue another run
    tournament = Tournament.objects.filter(pk=tournament_id).first()
    if tournament is None:
        log.info("standings recompute skipped: tournament %s no longer exists", tournament_id)
        return None
    _ensure_state(tournament_id)
    # The version is read before the input: the snapshot is never labelled newer than what it saw.
    version, computed, computed_at = StandingsState.objects.values_list(
        "input_version", "computed_version", "computed_at"
    ).get(tournament_id=tournament_id)
    if computed_at is not None and computed >= version:
        log.info("standings of tournament %s already at version %s", tournament_id, version)
        return _state_without_breakdown(tournament_id)
    standings = selectors.standings_view(tournament=tournament)
    stored = standings_store(
        tournament_id=tournament_id,
        version=version,
        document=standings.to_document(tournament.slug, tournament.ruleset),
        breakdown=_breakdown(standings),
    )
    log.info(
        "standings of tournament %s recomputed for version %s: %s",
        tournament_id,
        version,
        "stored" if stored else "a newer snapshot was already stored",
    )
    return _state_without_breakdown(tournament_id)


def _state_without_breakdown(tournament_id: int) -> StandingsState:
    return StandingsState.objects.defer("breakdown").get(tournament_id=tournament_id)


def standings_refresh(*, tournament_id: int) -> StandingsState | None:
    """Recompute now, in this process, whatever the state says (the director's button and the command).

    The input version is bumped first, so the run stores even when nothing that bumps it changed (a
    renamed player), and a run already queued finds the new snapshot and does nothing.
    """
    with transaction.atomic():
        _bump(tournament_id)
        pagecache.changed_by_id(tournament_id)
    return standings_recompute(tournament_id=tournament_id)


@transaction.atomic
def standings_tiebreaks_set(*, tournament: Tournament, tiebreaks: Sequence[str]) -> Tournament:
    """The director's order of tie-breaks (keys of ``TIEBREAKS``); the standings are recomputed."""
    keys = check_tiebreaks([k for k in tiebreaks if k])
    if len(set(keys)) != len(keys):
        raise RuleError("a tie-break is listed twice", "tiebreaks")
    locked = Tournament.objects.select_for_update().get(pk=tournament.pk)
    locked.settings = {**(locked.settings or {}), "tiebreaks": list(keys)}
    locked.save(update_fields=["settings"])
    tournament.settings = locked.settings
    changed_send(tournament_id=tournament.pk, what={SETTINGS})  # the standings follow
    return tournament


def standings_current(*, tournament: Tournament) -> StandingsState:
    """The stored snapshot, computed now if there is none yet."""
    state = standings_state(tournament_id=tournament.pk)
    if state.document is None:
        state = standings_recompute(tournament_id=tournament.pk) or state
    return state
