"""Background exports: the job, its progress page, its file, and who may see them."""

from __future__ import annotations

import csv
import io
from pathlib import Path

import pytest
from django.urls import reverse
from openpyxl import load_workbook

from rankings.exports import Exporter, registry
from rankings.exports.jobs import export_job_create, export_job_enqueue, export_job_run
from rankings.exports.tasks import export_job_run as export_task
from rankings.models import ExportJob
from scoring.rules.base import RuleError
from tests.exports.helpers import play_totals
from tournaments.models import Player
from tournaments.services import role_grant

pytestmark = pytest.mark.django_db


@pytest.fixture
def played(tournament, director):
    """The conftest tournament (MCR, 8 players) with session 1 played; Player1 has an EMA number."""
    Player.objects.filter(registrations__tournament=tournament, first_name="Player1").update(
        ema_id="00123456"
    )
    play_totals(
        tournament,
        1,
        [(["p1", "p2", "p3", "p4"], [60, 60, -20, -100]), (["p5", "p6", "p7", "p8"], [32, -16, -8, -8])],
        director,
    )
    return tournament


def exports_url(tournament) -> str:
    return reverse("export-list", kwargs={"slug": tournament.slug})


def body(data: bytes) -> list[list[str]]:
    return list(csv.reader(io.StringIO(data.decode("utf-8-sig"))))


def test_a_job_goes_from_queued_to_done_with_its_file_under_media_exports(
    played, director, media, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        job = export_job_create(tournament=played, exporter="ema-results", fmt="xlsx", user=director)
    assert (job.status, job.progress, bool(job.file)) == ("queued", 0, False)
    assert len(callbacks) == 1  # queued once the request's transaction commits, not before
    callbacks[0]()
    job.refresh_from_db()
    assert (job.status, job.progress, job.error) == ("done", 100, "")
    assert job.started_at <= job.finished_at
    path = Path(job.file.path)
    assert path.is_relative_to(Path(media) / "exports" / f"tournament.{played.pk}")  # its id, not its slug
    assert job.filename == "open-2026-ema-results.xlsx"
    sheet = load_workbook(path).active
    # Player5 won (+32, 4 table points); Player1 shares second place with Player2
    assert [c.value for c in sheet[2]][:2] == [1, "Player5"]
    player1 = list(sheet[3])
    assert [c.value for c in player1][:4] == [2, "Player1", "open-2026", "00123456"]
    assert player1[3].data_type == "s"


def test_progress_is_written_to_the_job_while_it_runs(played, director, media, monkeypatch):
    """What the progress page reads while the rows are being gathered."""
    seen: list[tuple[str, int]] = []

    class Probe(Exporter):
        identifier = "probe"
        name = "Probe"

        def rows(self):
            yield ["n"]
            for i in range(10):
                self.report(i, 10)
                seen.append(ExportJob.objects.values_list("status", "progress").get(pk=job.pk))
                yield [i]

    monkeypatch.setitem(registry._REGISTRY, "probe", Probe)
    job = ExportJob.objects.create(tournament=played, exporter="probe", format="xlsx", requested_by=director)
    export_job_run(job_id=job.pk)
    assert {status for status, _ in seen} == {"running"}
    progress = [p for _, p in seen]
    assert progress == sorted(progress) and progress[0] == 0 and progress[-1] >= 80
    job.refresh_from_db()
    assert (job.status, job.progress) == ("done", 100)


def test_running_a_job_twice_keeps_one_file(played, director, media):
    job = ExportJob.objects.create(tournament=played, exporter="seating", format="csv", requested_by=director)
    export_task.apply(args=[job.pk])
    job.refresh_from_db()
    first = job.file.name
    assert export_task.apply(args=[job.pk]).get() == "done"
    job.refresh_from_db()
    assert job.file.name == first
    assert len(list((Path(media) / "exports").rglob("*.csv"))) == 1


def test_a_job_that_cannot_be_made_fails_with_the_reason(played, director, media):
    # queued for an MCR tournament (say, its ruleset was changed after the request): no chombo list
    job = ExportJob.objects.create(tournament=played, exporter="chombos", format="csv", requested_by=director)
    export_job_run(job_id=job.pk)
    job.refresh_from_db()
    assert job.status == "failed"
    assert job.error == "the chombo list exists for riichi tournaments only"
    assert not job.file and job.finished_at is not None


def test_the_exports_page_starts_a_job_and_shows_its_progress_then_the_download(
    client, played, director, media, django_capture_on_commit_callbacks
):
    client.force_login(director)
    page = client.get(exports_url(played))
    assert page.status_code == 200
    assert "EMA results file" in page.content.decode() and "Chombos" not in page.content.decode()

    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        response = client.post(exports_url(played), {"exporter": "standings", "format": "csv"})
    assert response.status_code == 302
    job = ExportJob.objects.get()
    assert (job.exporter, job.format, job.requested_by) == ("standings", "csv", director)

    queued = client.get(exports_url(played)).content.decode()
    job_url = reverse("export-job", kwargs={"slug": played.slug, "pk": job.pk})
    assert f'hx-get="{job_url}"' in queued and 'hx-trigger="every 1s"' in queued
    assert '<progress value="0" max="100"' in queued

    callbacks[0]()  # the worker runs the job
    partial = client.get(job_url, HTTP_HX_REQUEST="true")
    html = partial.content.decode()
    assert "<html" not in html  # htmx gets the job's card only
    assert "hx-trigger" not in html  # done: the polling stops
    download_url = reverse("export-download", kwargs={"slug": played.slug, "pk": job.pk})
    assert download_url in html and "open-2026-standings.csv" in html

    download = client.get(download_url)
    assert download.status_code == 200
    assert download["Content-Disposition"].startswith('attachment; filename="open-2026-standings.csv"')
    rows = body(b"".join(download.streaming_content))
    assert rows[0][:2] == ["Rank", "Name"] and len(rows) == 9


def test_the_archive_is_made_as_json_whatever_format_was_ticked(
    client, played, director, media, django_capture_on_commit_callbacks
):
    client.force_login(director)
    with django_capture_on_commit_callbacks(execute=True):
        client.post(exports_url(played), {"exporter": "archive", "format": "xlsx"})
    job = ExportJob.objects.get()
    assert job.format == "json"


def test_past_files_are_kept_and_listed(client, played, director, media, django_capture_on_commit_callbacks):
    client.force_login(director)
    for exporter in ("seating", "ema-results"):
        with django_capture_on_commit_callbacks(execute=True):
            client.post(exports_url(played), {"exporter": exporter, "format": "csv"})
    html = client.get(exports_url(played)).content.decode()
    assert "open-2026-seating.csv" in html and "open-2026-ema-results.csv" in html
    assert html.index("open-2026-ema-results.csv") < html.index("open-2026-seating.csv")  # newest first


def test_only_the_tournaments_directors_see_exports_and_download_files(
    client, played, director, referee, make_user, make_tournament, media, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        job = export_job_create(tournament=played, exporter="ema-results", fmt="csv", user=director)
    download_url = reverse("export-download", kwargs={"slug": played.slug, "pk": job.pk})
    job_url = reverse("export-job", kwargs={"slug": played.slug, "pk": job.pk})

    anonymous = client.get(download_url)
    assert anonymous.status_code == 302 and anonymous["Location"].startswith(reverse("login"))
    assert client.get(exports_url(played)).status_code == 302

    client.force_login(referee)
    assert client.get(download_url).status_code == 403
    assert client.get(exports_url(played)).status_code == 403
    assert client.post(exports_url(played), {"exporter": "standings"}).status_code == 403
    assert ExportJob.objects.count() == 1

    # the director of another tournament cannot reach this one's files through their own tournament
    other_director = make_user("other-director")
    other = make_tournament("other-2026", director=other_director)
    client.force_login(other_director)
    assert client.get(download_url).status_code == 403
    wrong_place = reverse("export-download", kwargs={"slug": other.slug, "pk": job.pk})
    assert client.get(wrong_place).status_code == 404
    assert client.get(reverse("export-job", kwargs={"slug": other.slug, "pk": job.pk})).status_code == 404

    client.force_login(director)
    assert client.get(job_url).status_code == 200
    assert client.get(download_url).status_code == 200
    assert (
        client.get(reverse("export-download", kwargs={"slug": played.slug, "pk": job.pk + 99})).status_code
        == 404
    )


def test_a_file_is_not_downloadable_before_it_is_made(client, played, director, media):
    job = ExportJob.objects.create(tournament=played, exporter="seating", format="csv", requested_by=director)
    client.force_login(director)
    assert (
        client.get(reverse("export-download", kwargs={"slug": played.slug, "pk": job.pk})).status_code == 404
    )


# -- API ----------------------------------------------------------------------------------------------


def test_api_starts_an_export_reports_its_status_and_serves_the_file(
    api_as, played, director, media, django_capture_on_commit_callbacks
):
    client = api_as(director)
    url = f"/api/tournaments/{played.slug}/exports/"
    with django_capture_on_commit_callbacks(execute=True):
        created = client.post(url, {"exporter": "ema-results", "format": "csv"}, format="json")
    assert created.status_code == 201, created.content
    job_id = created.json()["id"]
    status = client.get(f"{url}{job_id}/").json()
    assert (status["status"], status["progress"], status["format"]) == ("done", 100, "csv")
    assert status["download"].endswith(f"{url}{job_id}/download/")
    download = client.get(f"{url}{job_id}/download/")
    assert download.status_code == 200
    rows = body(b"".join(download.streaming_content))
    assert rows[0][0] == "Place"
    assert ["2", "Player1", "open-2026", "00123456"] in [r[:4] for r in rows]
    assert [j["id"] for j in client.get(url).json()] == [job_id]
    exporters = {e["identifier"]: e["formats"] for e in client.get(f"{url}exporters/").json()}
    assert exporters["archive"] == ["json"] and "chombos" not in exporters


def test_api_refuses_an_unknown_exporter_or_format_naming_the_choices(api_as, played, director):
    client = api_as(director)
    url = f"/api/tournaments/{played.slug}/exports/"
    unknown = client.post(url, {"exporter": "results"}, format="json")
    assert unknown.status_code == 400
    assert "ema-results" in unknown.json()["exporter"][0]
    wrong = client.post(url, {"exporter": "archive", "format": "csv"}, format="json")
    assert wrong.status_code == 400 and "json" in wrong.json()["format"][0]
    assert not ExportJob.objects.exists()


def test_api_exports_need_the_director_role(api, api_as, played, referee, make_user):
    url = f"/api/tournaments/{played.slug}/exports/"
    assert api.post(url, {"exporter": "standings"}, format="json").status_code in (401, 403)
    assert api.get(url).status_code in (401, 403)
    assert api_as(referee).post(url, {"exporter": "standings"}, format="json").status_code == 403
    assert api_as(referee).get(url).status_code == 403
    assert api_as(referee).get("/api/tournaments/nowhere/exports/").status_code == 404
    scorer = make_user("someone")
    role_grant(tournament=played, user=scorer, role="scorer")
    assert api_as(scorer).get(url).status_code == 403
    assert not ExportJob.objects.exists()


def test_a_ranking_export_job_needs_no_tournament(director, media, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        job = export_job_create(
            exporter="ema-ranking", fmt="xlsx", params={"family": "riichi"}, user=director
        )
    job.refresh_from_db()
    assert job.status == "done" and job.filename == "ema-ranking-riichi.xlsx"
    assert Path(job.file.path).is_relative_to(Path(media) / "exports" / "ranking")
    with pytest.raises(RuleError, match="mcr or riichi"):
        export_job_create(exporter="ema-ranking", params={"family": "salamanca"}, user=director)
    with pytest.raises(RuleError, match="unknown exporter 'standings'"):
        export_job_create(exporter="standings", user=director)  # needs a tournament


def test_with_the_broker_down_the_job_fails_and_says_why(played, director, media, settings, monkeypatch):
    settings.CELERY_TASK_ALWAYS_EAGER = False

    def down(*args, **kwargs):
        raise ConnectionError("Error 111 connecting to redis:6379. Connection refused.")

    monkeypatch.setattr(export_task, "apply_async", down)
    job = ExportJob.objects.create(tournament=played, exporter="seating", format="csv", requested_by=director)
    export_job_enqueue(job_id=job.pk)
    job.refresh_from_db()
    assert job.status == "failed"
    assert "background worker is not reachable" in job.error


def test_an_export_running_under_a_live_lease_is_not_run_twice_and_a_dead_ones_is_taken_over(
    played, director, media, settings
):
    """A long export outlives the broker's visibility timeout: while its worker holds the lease the
    redelivered message leaves it alone; once the worker is gone (the lease lapsed) the job is done by
    the next delivery instead of staying "running"."""
    from datetime import timedelta

    from django.utils import timezone

    from rankings.exports.jobs import lease_name
    from rankings.jobs.leases import Lease

    settings.JOB_LEASE_SECONDS = 30
    job = ExportJob.objects.create(
        tournament=played,
        exporter="standings",
        format="csv",
        status=ExportJob.Status.RUNNING,
        started_at=timezone.now() - timedelta(minutes=2),
    )
    with Lease(lease_name(job.pk)):
        assert export_task.apply(args=[job.pk]).get() == "busy"
        job.refresh_from_db()
        assert job.status == "running" and not job.file
    assert export_task.apply(args=[job.pk]).get() == "done"
    job.refresh_from_db()
    assert job.progress == 100 and Path(job.file.path).is_file()
