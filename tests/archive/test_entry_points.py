"""The archive from the command line, the director's pages and the API."""

from __future__ import annotations

import io
import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import CommandError, call_command
from django.urls import reverse

from rankings.archive import archive_import
from rankings.standings.selectors import standings_view
from tests.archive.conftest import fixture_path, load
from tournaments.models import Role, Tournament, TournamentRole
from tournaments.services import role_grant

pytestmark = pytest.mark.django_db


def run(*args) -> str:
    out = io.StringIO()
    call_command(*args, stdout=out)
    return out.getvalue()


def upload(document: dict, name: str = "archive.json") -> SimpleUploadedFile:
    return SimpleUploadedFile(name, json.dumps(document).encode(), content_type="application/json")


# -- commands -------------------------------------------------------------------------------------


def test_import_export_and_standings_commands(make_user):
    director = make_user("carmen")
    out = run("import_tournament", str(fixture_path("wrc-riichi")), "--director", "carmen")
    assert "Imported wrc-qualifier-lisboa-2026: 9 players, 2 sessions (finished)" in out
    tournament = Tournament.objects.get(slug="wrc-qualifier-lisboa-2026")
    assert TournamentRole.objects.filter(tournament=tournament, user=director, role=Role.DIRECTOR).exists()

    assert json.loads(run("export_tournament", "wrc-qualifier-lisboa-2026")) == load("wrc-riichi")

    document = json.loads(run("standings", "wrc-qualifier-lisboa-2026", "--json"))
    assert document == standings_view(tournament=tournament).to_document(tournament.slug, "wrc-riichi")
    assert document["ruleset"] == "wrc-riichi" and len(document["standings"]) == 8

    table = run("standings", "wrc-qualifier-lisboa-2026")
    first = document["standings"][0]
    assert f"{first['name']}" in table and "Table points" not in table  # riichi has none
    assert "Matthias Groß (disqualified)" in table


def test_the_standings_table_of_mcr_shows_table_points():
    archive_import(document=fixture_path("mcr"))
    table = run("standings", "open-salamanca-2026").splitlines()
    assert table[0] == "open-salamanca-2026 (mcr), 3 complete session(s)"
    assert table[1].split()[:4] == ["Rank", "Player", "Name", "Table"]
    assert table[2].split()[:4] == ["1", "p1", "Ana", "García"]


def test_the_import_command_refuses_with_the_path_and_replaces_on_request(tmp_path, monkeypatch):
    document = load("classical")
    document["sessions"][0]["tables"][1]["scores"] = [1240, -380, -100, -700]
    broken = tmp_path / "broken.json"
    broken.write_text(json.dumps(document), encoding="utf-8")
    with pytest.raises(CommandError, match=r"sessions\[0\]\.tables\[1\]\.scores: Classical totals sum to 60"):
        run("import_tournament", str(broken))
    assert not Tournament.objects.exists()

    run("import_tournament", str(fixture_path("classical")))
    with pytest.raises(CommandError, match="already exists"):
        run("import_tournament", str(fixture_path("classical")))
    out = run("import_tournament", str(fixture_path("classical")), "--replace")
    assert "Imported mahjong-donostia-2026" in out
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(fixture_path("mcr").read_bytes())))
    assert "Imported open-salamanca-2026: 10 players, 4 sessions (running)" in run("import_tournament", "-")
    with pytest.raises(CommandError, match="no such file"):
        run("import_tournament", str(tmp_path / "missing.json"))
    with pytest.raises(CommandError, match="no tournament with slug 'nope'"):
        run("export_tournament", "nope")


# -- director's pages -------------------------------------------------------------------------------


def test_the_import_page_imports_a_file_or_shows_the_fault(client, make_user):
    url = reverse("archive-import")
    assert client.get(url).status_code == 302  # login first
    client.force_login(make_user("player"))
    assert client.get(url).status_code == 403  # may not create tournaments
    staff = make_user("organiser", is_staff=True)
    client.force_login(staff)
    assert client.get(url).status_code == 200

    document = load("salamanca")
    document["sessions"][1]["tables"][1]["hands"][0]["winner"] = "p1"
    response = client.post(url, {"file": upload(document)})
    assert response.status_code == 400
    page = response.content.decode()
    assert "nothing was imported" in page
    assert "sessions[1].tables[1].hands[0].winner" in page and "p1 is not seated at table 2" in page
    assert not Tournament.objects.exists()

    response = client.post(url, {"file": upload(load("salamanca"))})
    tournament = Tournament.objects.get(slug="mayon-primavera-2026")
    assert response.status_code == 302 and response["Location"] == tournament.get_absolute_url()
    assert TournamentRole.objects.filter(tournament=tournament, user=staff, role=Role.DIRECTOR).exists()


def test_a_director_downloads_the_archive_and_replaces_the_tournament(client, make_user):
    tournament = archive_import(document=fixture_path("ema-riichi-2025"))
    director = make_user("iñaki")
    role_grant(tournament=tournament, user=director, role=Role.DIRECTOR)
    page = reverse("director-archive", args=[tournament.slug])
    download = reverse("director-archive-download", args=[tournament.slug])

    client.force_login(make_user("visitor"))
    assert client.get(page).status_code == 403
    assert client.get(download).status_code == 403

    client.force_login(director)
    assert client.get(page).status_code == 200
    response = client.get(download)
    assert response["Content-Disposition"] == 'attachment; filename="riichi-bilbao-2026.json"'
    assert json.loads(response.content) == load("ema-riichi-2025")

    other = load("wrc-riichi")  # another tournament's file is not this one's archive
    response = client.post(page, {"file": upload(other), "replace": "on"})
    assert response.status_code == 400 and "tournament.slug" in response.content.decode()
    assert not Tournament.objects.filter(slug="wrc-qualifier-lisboa-2026").exists()

    corrected = load("ema-riichi-2025")
    corrected["tournament"]["name"] = "Riichi Open Bilbao 2026 (final)"
    response = client.post(page, {"file": upload(corrected), "replace": "on"})
    assert response.status_code == 302
    assert Tournament.objects.get(slug="riichi-bilbao-2026").name == "Riichi Open Bilbao 2026 (final)"


# -- API --------------------------------------------------------------------------------------------


def test_the_api_imports_a_document(api, api_as, make_user):
    url = "/api/archives/"
    document = load("ema-riichi-2008")
    assert api.post(url, document, format="json").status_code in (401, 403)
    assert api_as(make_user("someone")).post(url, document, format="json").status_code == 403

    client = api_as(make_user("organiser", is_staff=True))
    broken = load("ema-riichi-2008")
    broken["players"][4]["ema_id"] = "5000003"
    response = client.post(url, broken, format="json")
    assert response.status_code == 400
    assert response.json()["path"] == "players[4].ema_id"
    assert "8 digits" in response.json()["message"]

    response = client.post(url, document, format="json")
    assert response.status_code == 201
    assert response.json()["slug"] == "riichi-granada-2009"
    assert response.json()["url"].endswith("/t/riichi-granada-2009/")

    response = client.post(url, document, format="json")
    assert response.status_code == 400 and response.json()["path"] == "tournament.slug"
    # a file upload works too, and replace is asked for explicitly
    response = client.post(f"{url}?replace=true", {"file": upload(document)}, format="multipart")
    assert response.status_code == 201


def test_the_api_serves_the_archive_to_the_directors_only(api, api_as, make_user):
    tournament = archive_import(document=fixture_path("mcr"))
    director = make_user("ana")
    role_grant(tournament=tournament, user=director, role=Role.DIRECTOR)
    url = f"/api/archives/{tournament.slug}/"
    assert api.get(url).status_code in (401, 403)
    assert api_as(make_user("referee-of-nothing")).get(url).status_code == 403
    response = api_as(director).get(url)
    assert response.status_code == 200
    assert response.json() == load("mcr")
    assert api_as(director).get("/api/archives/no-such-tournament/").status_code == 404

    # a director (not staff) may replace their own tournament, not create another one
    client = api_as(director)
    assert client.post("/api/archives/?replace=true", load("mcr"), format="json").status_code == 201
    assert client.post("/api/archives/", load("salamanca"), format="json").status_code == 403


def test_the_schema_documents_the_archive_routes(api):
    schema = api.get("/api/schema/", HTTP_ACCEPT="application/json").content.decode()
    assert "/api/archives/" in schema and "/api/archives/{slug}/" in schema
