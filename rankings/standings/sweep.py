"""The standings sweep: no recompute stays lost.

A recompute can be lost between the write and the snapshot: the worker was killed mid-task, the broker was
down when the result was confirmed, the process running an in-process task died. The sweep finds every
tournament whose snapshot is older than its input and whose last queueing is older than
``STANDINGS_SWEEP_STALE_SECONDS`` (so a run that is merely queued is not queued twice), and queues its
recompute again. Celery beat runs it every ``STANDINGS_SWEEP_SECONDS``; with no broker (the embedded
default) the server's own scheduler does (``config/scheduler.py``), never a page view.
"""

from __future__ import annotations

import datetime as dt
import logging

from django.conf import settings
from django.db.models import F, Q
from django.utils import timezone

from rankings.standings.models import StandingsState
from rankings.standings.services import standings_enqueue

log = logging.getLogger(__name__)


def stale_tournament_ids() -> list[int]:
    """Tournaments whose snapshot is older than their input, not queued within the stale period."""
    before = timezone.now() - dt.timedelta(seconds=settings.STANDINGS_SWEEP_STALE_SECONDS)
    behind = Q(computed_version__lt=F("input_version")) | Q(document__isnull=True)
    not_waiting = Q(queued_at__isnull=True) | Q(queued_at__lt=before)
    return list(
        StandingsState.objects.filter(behind, not_waiting)
        .order_by("tournament_id")
        .values_list("tournament_id", flat=True)
    )


def standings_sweep() -> list[int]:
    """Queue the recompute of every stale tournament; the ids queued (or recomputed in-process)."""
    queued = []
    for tournament_id in stale_tournament_ids():
        if standings_enqueue(tournament_id=tournament_id, force=True):
            queued.append(tournament_id)
    if queued:
        log.info("standings sweep re-queued tournaments %s", queued)
    return queued
