"""A file of more players than ``PLAYER_IMPORT_INLINE_ROWS`` is imported in the background: the page and
the API answer at once and follow the job's progress; the checks are those of the import in the request,
and nothing is written on a fault."""

from __future__ import annotations

import datetime as dt

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.utils import timezone, translation

from rankings import tasks
from rankings.jobs.leases import Lease
from rankings.models import PlayerImportJob
from rankings.player_jobs import lease_name, player_import_job_run
from tournaments.models import Registration
from tournaments.player_import import players_import_csv

pytestmark = pytest.mark.django_db

LONG = "first_name,last_name,ema_id\n" + "".join(f"Name{i},Long,{10000000 + i}\n" for i in range(5))


@pytest.fixture(autouse=True)
def inline_two(settings):
    settings.PLAYER_IMPORT_INLINE_ROWS = 2


@pytest.fixture
def send(django_capture_on_commit_callbacks):
    """POST, then run what the request queued on commit (the task; no broker in tests)."""

    def post(client, url, data, **extra):
        with django_capture_on_commit_callbacks(execute=True):
            return client.post(url, data, **extra)

    return post


def upload(text: str) -> SimpleUploadedFile:
    return SimpleUploadedFile("players.csv", text.encode("utf-8"), content_type="text/csv")


def test_the_api_answers_202_with_the_job_and_the_job_tells_the_outcome(api_as, tournament, director, send):
    before = tournament.registrations.count()
    response = send(
        api_as(director),
        f"/api/tournaments/{tournament.slug}/import-players/",
        {"file": upload(LONG)},
        format="multipart",
    )
    assert response.status_code == 202
    body = response.json()
    assert (
        response["Location"]
        == body["url"]
        == (f"/api/tournaments/{tournament.slug}/player-imports/{body['id']}/")
    )
    assert body["players"] == 5
    job = api_as(director).get(body["url"]).json()  # the task ran at once (no broker in tests)
    assert job["status"] == "done" and job["progress"] == 100 and job["faults"] == []
    assert job["summary"].startswith("5 players registered (5 new")
    assert tournament.registrations.count() == before + 5


def test_a_short_file_is_still_imported_in_the_request(api_as, tournament, director):
    response = api_as(director).post(
        f"/api/tournaments/{tournament.slug}/import-players/",
        {"file": upload("first_name\nAna\nEva\n")},
        format="multipart",
    )
    assert response.status_code == 201 and len(response.json()["registered"]) == 2
    assert not PlayerImportJob.objects.exists()


def test_a_long_faulty_file_is_refused_at_once_naming_line_and_column(api_as, tournament, director):
    faulty = LONG + "Bad,Line,1234567\nNul,\x00x,\n"
    response = api_as(director).post(
        f"/api/tournaments/{tournament.slug}/import-players/", {"file": upload(faulty)}, format="multipart"
    )
    assert response.status_code == 400
    faults = response.json()["file"]
    assert any(f.startswith("line 7, ema_id") for f in faults)
    assert any(f.startswith("line 8, last_name: U+0000 NULL at character 1") for f in faults)
    assert not PlayerImportJob.objects.exists()
    assert not Registration.objects.filter(player__last_name="Long").exists()


def test_the_job_is_for_the_tournaments_directors_only(
    api_as, api, tournament, director, make_user, make_tournament, send
):
    url = (
        api_as(director)
        .post(
            f"/api/tournaments/{tournament.slug}/import-players/", {"file": upload(LONG)}, format="multipart"
        )
        .json()["url"]
    )
    assert api.get(url).status_code in (401, 403)
    assert api_as(make_user("someone")).get(url).status_code == 403
    other = make_user("other-director")
    elsewhere = make_tournament(slug="elsewhere", director=other, players=0)
    job = PlayerImportJob.objects.get()
    stranger = f"/api/tournaments/{elsewhere.slug}/player-imports/{job.pk}/"
    assert api_as(other).get(stranger).status_code == 404  # a job of another tournament is not found
    assert api_as(other).get(url).status_code == 403


def test_a_fault_found_in_the_job_writes_nothing_and_is_kept(tournament, director):
    """The job checks its file again when it runs: one faulty line and not one player is registered."""
    job = PlayerImportJob.objects.create(
        tournament=tournament,
        data=(LONG + "Eva,Long,1234\n").encode(),
        rows=6,
        requested_by=director,
    )
    before = tournament.registrations.count()
    done = player_import_job_run(job_id=job.pk)
    assert done.status == PlayerImportJob.Status.FAILED
    assert done.faults == [
        "line 7, ema_id: “1234” is not an EMA number of exactly 8 digits (leading zeros lost? keep the "
        "column as text)"
    ]
    assert tournament.registrations.count() == before


def test_the_progress_goes_up_as_the_players_are_written(tournament):
    seen: list[int] = []
    players_import_csv(tournament=tournament, data=LONG, progress=seen.append)
    assert seen == [0, 20, 40, 60, 80]


def test_a_job_under_a_live_lease_is_not_run_twice_and_an_abandoned_one_is_taken_over(tournament, director):
    job = PlayerImportJob.objects.create(
        tournament=tournament,
        data=LONG.encode(),
        rows=5,
        status=PlayerImportJob.Status.RUNNING,
        started_at=timezone.now() - dt.timedelta(hours=1),
        requested_by=director,
    )
    with Lease(lease_name(job.pk)):
        assert tasks.player_import_job_run.apply(args=[job.pk]).get() == "busy"
    assert not Registration.objects.filter(player__last_name="Long").exists()
    assert tasks.player_import_job_run.apply(args=[job.pk]).get() == "done"  # the lease lapsed: taken over
    assert Registration.objects.filter(tournament=tournament, player__last_name="Long").count() == 5
    assert tasks.player_import_job_run.apply(args=[job.pk]).get() == "done"  # delivered again: nothing more
    assert Registration.objects.filter(tournament=tournament, player__last_name="Long").count() == 5


def test_the_page_answers_at_once_and_follows_the_job(client, tournament, director, send):
    client.force_login(director)
    response = send(client, f"/t/{tournament.slug}/director/players/", {"file": upload(LONG)})
    job = PlayerImportJob.objects.get()
    assert response.status_code == 302
    assert response["Location"] == f"/t/{tournament.slug}/director/players/import/{job.pk}/"
    page = client.get(response["Location"]).content.decode()
    assert "5 players registered (5 new" in page
    job.status = PlayerImportJob.Status.QUEUED
    job.save(update_fields=["status"])
    polled = client.get(response["Location"], headers={"HX-Request": "true"}).content.decode()
    assert polled.startswith('<article id="player-import-job" hx-get=') and "every 1s" in polled
    assert "<html" not in polled


def test_the_job_page_speaks_spanish_and_is_refused_to_others(client, tournament, director, make_user, send):
    client.force_login(director)
    send(
        client,
        f"/t/{tournament.slug}/director/players/",
        {"file": upload(LONG)},
        headers={"Accept-Language": "es"},
    )
    job = PlayerImportJob.objects.get()
    url = f"/t/{tournament.slug}/director/players/import/{job.pk}/"
    with translation.override("es"):
        page = client.get(url, headers={"Accept-Language": "es"}).content.decode()
    assert "Un archivo de 5 jugadores" in page
    client.force_login(make_user("someone"))
    assert client.get(url).status_code == 403
