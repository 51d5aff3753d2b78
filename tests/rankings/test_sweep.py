"""The standings sweep: a recompute that was lost is queued again without any new write, by beat or, with
no broker, by the server's own scheduler; the standings pages never write."""

from __future__ import annotations

import datetime as dt
import fcntl

import pytest
from django.conf import settings
from django.db import connection
from django.test import override_settings
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from config import scheduler
from rankings.models import StandingsState
from rankings.standings.selectors import standings_view
from rankings.standings.sweep import stale_tournament_ids, standings_sweep
from tests.rankings.test_standings_pages import SESSION_1, _clean_cache, confirm, seat  # noqa: F401
from tests.rankings.test_standings_recompute import CLOSED_PORT_BROKER
from tournaments.models import Tournament

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


WRITES = ("INSERT", "UPDATE", "DELETE", "REPLACE")


def test_the_standings_pages_only_read(client, tournament, referee, django_capture_on_commit_callbacks):
    """A lost recompute stays lost for the pages: they show the stored standings as late and write
    nothing (neither the recompute, nor the sweep, nor the backups run from a page view)."""
    before = lose_a_recompute(tournament, referee, django_capture_on_commit_callbacks)
    Tournament.objects.filter(pk=tournament.pk).update(status=Tournament.Status.RUNNING)
    with CaptureQueriesContext(connection) as queries:
        page = client.get(f"/t/{tournament.slug}/standings/").content.decode()
        polled = client.get(f"/t/{tournament.slug}/standings/rows/")
        api = client.get(f"/api/tournaments/{tournament.slug}/standings/").json()
    writes = [q["sql"] for q in queries.captured_queries if q["sql"].lstrip().upper().startswith(WRITES)]
    assert writes == []
    assert "updating delayed" in page and polled.status_code == 200
    assert api["freshness"]["fresh"] is False
    after = StandingsState.objects.get(tournament=tournament)
    assert (after.computed_version, after.input_version) == (before.computed_version, before.input_version)
    assert not (settings.BACKUP_ROOT / f"tournament.{tournament.pk}").exists()


def test_a_tournament_with_no_snapshot_yet_shows_its_standings_without_storing_them(
    client, tournament, referee
):
    tables = seat(tournament, 1, [keys for keys, _ in SESSION_1])
    confirm(tables[0], SESSION_1[0][1], referee)
    expected = [
        row["player"] for row in standings_view(tournament=tournament).to_document("x", "mcr")["standings"]
    ]
    StandingsState.objects.filter(tournament=tournament).update(document=None, computed_at=None)
    api = client.get(f"/api/tournaments/{tournament.slug}/standings/").json()
    assert [row["player"] for row in api["standings"]] == expected
    assert StandingsState.objects.get(tournament=tournament).document is None


def test_a_new_tournament_shows_empty_standings_as_up_to_date_and_stores_nothing(
    client, make_tournament, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):  # as in production: the writes commit
        tournament = make_tournament(slug="new-cup", players=0)
    stored = list(
        StandingsState.objects.filter(tournament=tournament).values_list("computed_version", "document")
    )
    page = client.get(f"/t/{tournament.slug}/standings/").content.decode()
    assert "updating" not in page
    assert client.get(f"/api/tournaments/{tournament.slug}/standings/").json()["freshness"]["fresh"] is True
    # the pages read: what the writes stored is as it was
    assert (
        list(StandingsState.objects.filter(tournament=tournament).values_list("computed_version", "document"))
        == stored
    )


@pytest.fixture
def schedule_file(settings, tmp_path):
    settings.EMBEDDED_SCHEDULE_FILE = tmp_path / "schedule.json"
    return settings.EMBEDDED_SCHEDULE_FILE


def test_the_embedded_scheduler_runs_the_sweep_and_the_backups_once_per_period(
    tournament, referee, django_capture_on_commit_callbacks, schedule_file
):
    lose_a_recompute(tournament, referee, django_capture_on_commit_callbacks)
    Tournament.objects.filter(pk=tournament.pk).update(status=Tournament.Status.RUNNING)
    now = 1_000_000.0
    ran = scheduler.run_due(now=now)
    assert set(ran) == {entry["task"] for entry in settings.CELERY_BEAT_SCHEDULE.values()}
    assert StandingsState.objects.get(tournament=tournament).is_fresh
    assert len(list((settings.BACKUP_ROOT / f"tournament.{tournament.pk}").glob("*.json"))) == 1
    assert scheduler.run_due(now=now + 1) == []  # another process (or tick) a second later: nothing due
    sweep = settings.CELERY_BEAT_SCHEDULE["standings-sweep"]
    every_minute = [
        e["task"] for e in settings.CELERY_BEAT_SCHEDULE.values() if e["schedule"] <= sweep["schedule"]
    ]
    assert sweep["task"] in every_minute
    assert scheduler.run_due(now=now + sweep["schedule"]) == every_minute


def test_a_tick_is_skipped_while_another_process_holds_the_schedule(schedule_file):
    schedule_file.parent.mkdir(parents=True, exist_ok=True)
    ran = []
    with schedule_file.open("a+") as other:  # another open file: the lock another process would hold
        fcntl.flock(other, fcntl.LOCK_EX | fcntl.LOCK_NB)
        assert scheduler.run_due(run=ran.append) is None
        fcntl.flock(other, fcntl.LOCK_UN)
    assert ran == []
    assert scheduler.run_due(run=ran.append) == ran != []


def test_the_embedded_scheduler_starts_only_without_a_broker(settings):
    settings.CELERY_TASK_ALWAYS_EAGER = False
    assert not scheduler.enabled() and not scheduler.start()
    settings.CELERY_TASK_ALWAYS_EAGER, settings.EMBEDDED_SCHEDULER = True, False
    assert not scheduler.enabled()
    settings.EMBEDDED_SCHEDULER = True
    assert scheduler.enabled()


def test_beat_runs_the_sweep_and_a_dead_workers_messages_come_back_within_a_minute():
    assert (
        settings.CELERY_BEAT_SCHEDULE["standings-sweep"]["task"] == "rankings.standings.tasks.standings_sweep"
    )
    assert settings.CELERY_BEAT_SCHEDULE["standings-sweep"]["schedule"] <= 60
    assert settings.CELERY_BROKER_TRANSPORT_OPTIONS["visibility_timeout"] <= 60
    assert settings.CELERY_TASK_ACKS_LATE and settings.CELERY_TASK_REJECT_ON_WORKER_LOST
