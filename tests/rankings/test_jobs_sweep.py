"""The jobs sweep: an export or an import whose message the broker lost (Redis restarted empty, as it does
without persistence) is queued again by the periodic sweep, like the standings, instead of staying
"queued" for good; a job queued moments ago, or running under a live lease, is left to its message."""

from __future__ import annotations

import datetime as dt
import io
import json

import pytest
from django.conf import settings as django_settings
from django.utils import timezone

from rankings.archive import jobs as archive_jobs
from rankings.exports.jobs import lease_name as export_lease
from rankings.exports.tasks import export_job_run as export_task
from rankings.jobs.leases import Lease
from rankings.models import ArchiveImportJob, ExportJob, PlayerImportJob
from rankings.sweep import jobs_sweep, lost_jobs
from tests.archive.conftest import load
from tournaments.models import Registration, Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def media(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"
    settings.JOBS_SWEEP_STALE_SECONDS = 60
    settings.JOB_LEASE_SECONDS = 30


@pytest.fixture(autouse=True)
def fresh_cache():
    from django.core.cache import caches

    caches["default"].clear()
    yield
    caches["default"].clear()


def queued_ago(model, job, seconds: int):
    model.objects.filter(pk=job.pk).update(created_at=timezone.now() - dt.timedelta(seconds=seconds))
    return job


def lost_export(tournament, seconds: int = 90) -> ExportJob:
    """An export queued while the worker was down, its message gone with the broker's queue."""
    job = ExportJob.objects.create(tournament=tournament, exporter="standings", format="csv")
    return queued_ago(ExportJob, job, seconds)


def test_an_export_whose_message_was_lost_is_queued_again_and_done(tournament):
    job = lost_export(tournament)
    assert lost_jobs() == [("export", job.pk)]
    assert jobs_sweep() == [("export", job.pk)]  # in-process here: no broker in tests
    job.refresh_from_db()
    assert job.status == "done" and job.file
    assert lost_jobs() == []


def test_a_job_queued_moments_ago_is_left_to_its_message(tournament):
    job = lost_export(tournament, seconds=10)
    assert lost_jobs() == [] and jobs_sweep() == []
    job.refresh_from_db()
    assert job.status == "queued"


def test_a_job_queued_again_is_not_queued_a_second_time_within_the_minute(tournament, settings, monkeypatch):
    settings.CELERY_TASK_ALWAYS_EAGER = False
    sent = []
    monkeypatch.setattr(export_task, "apply_async", lambda args: sent.append(args))
    job = lost_export(tournament)
    assert jobs_sweep() == [("export", job.pk)]
    assert jobs_sweep() == []  # its new message is in the queue: not sent twice
    assert sent == [[job.pk]]


def test_a_running_job_is_queued_again_only_once_its_worker_is_gone(tournament):
    job = ExportJob.objects.create(
        tournament=tournament,
        exporter="standings",
        format="csv",
        status=ExportJob.Status.RUNNING,
        started_at=timezone.now() - dt.timedelta(minutes=2),
    )
    with Lease(export_lease(job.pk)):
        assert lost_jobs() == []  # its worker is alive and renews the lease
    assert jobs_sweep() == [("export", job.pk)]
    job.refresh_from_db()
    assert job.status == "done"


def test_a_lost_player_import_is_queued_again_and_registers_the_players(tournament):
    data = b"first_name,last_name\nLost,One\nLost,Two\nLost,Three\n"
    job = PlayerImportJob.objects.create(tournament=tournament, data=data, rows=3)
    queued_ago(PlayerImportJob, job, 90)
    assert jobs_sweep() == [("player-import", job.pk)]
    job.refresh_from_db()
    assert job.status == "done"
    assert Registration.objects.filter(tournament=tournament, player__first_name="Lost").count() == 3


def test_a_lost_archive_import_is_queued_again_and_imports_the_tournament(
    make_user, django_capture_on_commit_callbacks
):
    admin = make_user("sweeper", is_superuser=True, is_staff=True)
    with django_capture_on_commit_callbacks(execute=False):  # its message never reaches a worker
        job = archive_jobs.archive_import_job_create(
            upload=io.BytesIO(json.dumps(load("mcr")).encode()), replace=False, user=admin
        )
    queued_ago(ArchiveImportJob, job, 90)
    assert jobs_sweep() == [("archive-import", job.pk)]
    job.refresh_from_db()
    assert job.status == "done"
    assert Tournament.objects.filter(slug=load("mcr")["tournament"]["slug"]).exists()


def test_beat_runs_the_jobs_sweep_every_minute():
    from config.celery import app

    entry = django_settings.CELERY_BEAT_SCHEDULE["jobs-sweep"]
    assert entry["schedule"] == 60.0
    assert entry["task"] in app.tasks
