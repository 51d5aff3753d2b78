"""The standings sweep: a recompute that was lost is queued again without any new write."""

from __future__ import annotations

import datetime as dt

import pytest
from django.conf import settings
from django.test import override_settings
from django.utils import timezone

from rankings.models import StandingsState
from rankings.standings.sweep import stale_tournament_ids, standings_sweep
from tests.rankings.test_standings_pages import SESSION_1, _clean_cache, confirm, seat  # noqa: F401
from tests.rankings.test_standings_recompute import CLOSED_PORT_BROKER

pytestmark = pytest.mark.django_db


def lose_a_recompute(tournament, referee, django_capture_on_commit_callbacks):
    """Confirm a table while the broker is down: saved, but the standings are behind."""
    tables = seat(tournament, 1, [keys for keys, _ in SESSION_1])
    with (
        override_settings(CELERY_TASK_ALWAYS_EAGER=False, CELERY_BROKER_URL=CLOSED_PORT_BROKER),
        django_capture_on_commit_callbacks(execute=True),
    ):
        confirm(tables[0], SESSION_1[0][1], referee)
    state = StandingsState.objects.get(tournament=tournament)
    assert state.computed_version < state.input_version
    return state


def test_the_sweep_brings_a_lost_recompute_back(tournament, referee, django_capture_on_commit_callbacks):
    lose_a_recompute(tournament, referee, django_capture_on_commit_callbacks)
    assert stale_tournament_ids() == [tournament.pk]
    assert standings_sweep() == [tournament.pk]  # in-process here: no broker in tests
    state = StandingsState.objects.get(tournament=tournament)
    assert state.is_fresh and not state.delayed
    assert stale_tournament_ids() == []


def test_a_recompute_queued_moments_ago_is_not_queued_twice(
    tournament, referee, django_capture_on_commit_callbacks
):
    lose_a_recompute(tournament, referee, django_capture_on_commit_callbacks)
    StandingsState.objects.filter(tournament=tournament).update(queued_at=timezone.now())
    assert stale_tournament_ids() == []
    earlier = timezone.now() - dt.timedelta(seconds=settings.STANDINGS_SWEEP_STALE_SECONDS + 1)
    StandingsState.objects.filter(tournament=tournament).update(queued_at=earlier)
    assert stale_tournament_ids() == [tournament.pk]


def test_in_the_embedded_default_the_standings_page_runs_the_sweep(
    client, tournament, referee, django_capture_on_commit_callbacks
):
    lose_a_recompute(tournament, referee, django_capture_on_commit_callbacks)
    page = client.get(f"/t/{tournament.slug}/standings/").content.decode()
    assert StandingsState.objects.get(tournament=tournament).is_fresh
    assert "updating delayed" not in page


def test_beat_runs_the_sweep_and_a_dead_workers_messages_come_back_within_a_minute():
    assert (
        settings.CELERY_BEAT_SCHEDULE["standings-sweep"]["task"] == "rankings.standings.tasks.sweep_standings"
    )
    assert settings.CELERY_BEAT_SCHEDULE["standings-sweep"]["schedule"] <= 60
    assert settings.CELERY_BROKER_TRANSPORT_OPTIONS["visibility_timeout"] <= 60
    assert settings.CELERY_TASK_ACKS_LATE and settings.CELERY_TASK_REJECT_ON_WORKER_LOST
