"""Large archives are imported in the background, with progress: no request holds a worker for the import."""

from __future__ import annotations

import io
import json
from unittest import mock

import pytest
from django.test import override_settings

from rankings.archive import jobs
from rankings.models import ArchiveImportJob
from tests.archive.conftest import load
from tests.scoring.test_pages_support import text
from tournaments.models import Registration, Tournament

pytestmark = pytest.mark.django_db


def many_players(count: int = 20_000) -> dict:
    """The MCR fixture with ``count`` more players (the probe's archive: 1.2 MB, 20,000 players)."""
    doc = load("mcr")
    doc["players"] += [
        {"key": f"x{i}", "first_name": f"Extra{i}", "last_name": "Player", "country": "ESP"}
        for i in range(count)
    ]
    return doc


@pytest.fixture
def run_on_commit(django_capture_on_commit_callbacks):
    """The job's task is queued when the request's write commits: run it (in-process) then."""
    return lambda: django_capture_on_commit_callbacks(execute=True)


@pytest.fixture
def admin(make_user):
    return make_user("admin", is_staff=True)


def test_a_large_archive_is_a_job_the_requester_follows_to_its_tournament(api_as, admin, run_on_commit):
    body = json.dumps(many_players())
    assert len(body) > 1_000_000
    seen = []
    real = jobs.ArchiveImport.run

    def spy(self):
        self.progress = (lambda inner: lambda done, steps: (seen.append((done, steps)), inner(done, steps)))(
            self.progress
        )
        return real(self)

    with mock.patch.object(jobs.ArchiveImport, "run", spy), run_on_commit():
        response = api_as(admin).post("/api/archives/", body, content_type="application/json")
    assert response.status_code == 202 and response.json()["status"] == "queued"  # the request ends here
    follow = api_as(admin).get(response.json()["url"])
    state = follow.json()
    assert follow.status_code == 200 and state["status"] == "done" and state["progress"] == 100
    assert state["slug"] == load("mcr")["tournament"]["slug"]
    tournament = Tournament.objects.get(slug=state["slug"])
    assert Registration.objects.filter(tournament=tournament).count() == len(load("mcr")["players"]) + 20_000
    sessions = len(load("mcr")["sessions"])
    assert seen[0] == (1, 2 + sessions) and seen[-1] == (
        1 + sessions,
        2 + sessions,
    )  # players, then each session
    assert api_as(ArchiveImportJob.objects.get().requested_by).get(state["url"]).status_code == 200


@override_settings(ARCHIVE_INLINE_BYTES=1000)
def test_a_refused_background_import_names_the_path_and_writes_nothing(
    api_as, admin, make_user, run_on_commit
):
    doc = load("mcr")
    doc["sessions"][0]["tables"][0]["hands"][0]["fan"] = 10**6
    with run_on_commit():
        response = api_as(admin).post("/api/archives/", json.dumps(doc), content_type="application/json")
    assert response.status_code == 202
    state = api_as(admin).get(response.json()["url"]).json()
    assert state["status"] == "failed" and state["path"] == "sessions[0].tables[0].hands[0].fan"
    assert "fan is too large" in state["message"]
    assert not Tournament.objects.exists()
    assert (
        api_as(make_user("other", is_staff=True)).get(response.json()["url"]).status_code == 404
    )  # not theirs


@override_settings(ARCHIVE_INLINE_BYTES=1000)
def test_the_import_page_sends_a_large_file_to_the_background_and_shows_the_outcome(
    client, admin, run_on_commit
):
    client.force_login(admin)
    upload = io.BytesIO(json.dumps(load("mcr")).encode())
    upload.name = "archive.json"
    with run_on_commit():
        response = client.post("/archive/import/", {"file": upload})
    job = ArchiveImportJob.objects.get()
    assert response.status_code == 302 and response["Location"] == f"/archive/import/{job.pk}/"
    page = client.get(response["Location"])
    assert "was imported from its archive" in text(page) and "Open the tournament" in text(page)
    assert client.get(response["Location"], HTTP_HX_REQUEST="true").status_code == 200


@override_settings(ARCHIVE_INLINE_BYTES=1000)
def test_a_director_of_another_tournament_cannot_replace_this_one_through_a_job(
    api_as, make_tournament, make_user, run_on_commit
):
    owner, intruder = make_user("owner"), make_user("intruder")
    doc = load("mcr")
    make_tournament(slug=doc["tournament"]["slug"], director=owner)
    make_tournament(slug="theirs", director=intruder)
    with run_on_commit():
        response = api_as(intruder).post(
            "/api/archives/?replace=true", json.dumps(doc), content_type="application/json"
        )
    state = api_as(intruder).get(response.json()["url"]).json()
    assert response.status_code == 202 and state["status"] == "failed"
    assert "you may not create tournaments, or replace this one" in state["message"]
    assert Tournament.objects.get(slug=doc["tournament"]["slug"]).roles.filter(user=owner).exists()


def _abandoned_job(admin, *, started_seconds_ago: int) -> ArchiveImportJob:
    """A job a worker took and died with, ``started_seconds_ago`` (well under the old 15 minutes)."""
    from django.utils import timezone

    job = jobs.archive_import_job_create(
        upload=io.BytesIO(json.dumps(load("mcr")).encode()), replace=False, user=admin
    )
    ArchiveImportJob.objects.filter(pk=job.pk).update(
        status=ArchiveImportJob.Status.RUNNING,
        started_at=timezone.now() - timezone.timedelta(seconds=started_seconds_ago),
    )
    return job


@override_settings(JOB_LEASE_SECONDS=30)
def test_a_job_whose_worker_died_is_taken_over_when_its_message_comes_back(admin):
    """The dead worker's lease lapsed (nothing renews it): the redelivered message imports the archive,
    47 s after the start, instead of answering "skipped" for 15 minutes and leaving the job running."""
    from rankings.archive.tasks import archive_import_job_run

    job = _abandoned_job(admin, started_seconds_ago=47)
    assert archive_import_job_run.apply(args=[job.pk]).get() == "done"
    job.refresh_from_db()
    assert job.status == "done" and job.progress == 100
    assert job.tournament.slug == load("mcr")["tournament"]["slug"]
    assert archive_import_job_run.apply(args=[job.pk]).get() == "done"  # a later delivery does nothing
    assert ArchiveImportJob.objects.get(pk=job.pk).finished_at == job.finished_at


@override_settings(JOB_LEASE_SECONDS=30)
def test_a_job_whose_worker_is_alive_is_not_run_twice(admin):
    """A long import outlives the broker's visibility timeout: the message comes back while the worker
    still holds the lease (renewed by its heartbeat); the second delivery leaves the job alone and looks
    again later, and takes it over once the lease lapses."""
    from rankings.archive.tasks import archive_import_job_run
    from rankings.jobs.leases import Lease

    job = _abandoned_job(admin, started_seconds_ago=120)
    with Lease(jobs.lease_name(job.pk)):  # the first worker, alive
        assert archive_import_job_run.apply(args=[job.pk]).get() == "busy"
        job.refresh_from_db()
        assert job.status == "running" and not Tournament.objects.exists()
    # the first worker is gone (its lease ended with it): the next look takes the job over
    assert archive_import_job_run.apply(args=[job.pk]).get() == "done"


def test_the_heartbeat_keeps_a_lease_alive_past_its_length(settings):
    """The lease lives JOB_LEASE_SECONDS and the heartbeat renews it: a run longer than a lease keeps it."""
    from unittest import mock as _mock

    from rankings.jobs import leases

    settings.JOB_LEASE_SECONDS = 3
    renewals = []
    with _mock.patch.object(leases.Lease, "_renew", lambda self: renewals.append(self.token)):
        lease = leases.Lease("probe")
        with _mock.patch.object(lease._stop, "wait", side_effect=[False, False, True]) as waited:
            lease.__enter__()
            lease._thread.join(timeout=5)
            lease.__exit__(None, None, None)
    assert len(renewals) == 3  # taken once, then renewed at each beat until the run ends
    assert [c.args for c in waited.call_args_list] == [(1.0,)] * 3  # every third of the lease
