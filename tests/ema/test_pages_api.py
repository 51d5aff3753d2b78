"""Import pages, API and command; the ranking page's filters, search and change; the player's page."""

from __future__ import annotations

import csv
import datetime as dt
import io

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.core.management.base import CommandError
from django.urls import reverse
from django.utils import timezone

from rankings.ema.imports import TournamentFacts, imported_tournament_delete, results_import
from rankings.ema.services import ema_ranking_recompute
from rankings.models import EmaRankingEntry, ImportedTournament
from tests.ema.files import csv_bytes, xlsx_bytes
from tests.ema.test_imports import A, B

pytestmark = pytest.mark.django_db

TODAY = timezone.localdate()


def facts_post(name="Open A", ends_on=None, **extra) -> dict:
    ends_on = ends_on or TODAY - dt.timedelta(days=30)
    data = {"name": name, "family": "mcr", "starts_on": ends_on.isoformat(), "days": "1", "country": "ESP"}
    data.update(extra)
    return data


@pytest.fixture
def office(make_user):
    user = make_user("office")
    user.user_permissions.add(
        *Permission.objects.filter(codename__in=["add_importedtournament", "change_importedtournament"])
    )
    return user


@pytest.fixture
def ranked():
    """A imported 30 days ago and B 500 days ago, the ranking as of today; Bea plays for France."""
    a = [row[:] for row in A]
    a[1][4] = "FRA"
    results_import(
        data=csv_bytes(a),
        facts=TournamentFacts(name="Open A", family="mcr", starts_on=TODAY - dt.timedelta(30), country="ESP"),
    )
    results_import(
        data=csv_bytes(B),
        facts=TournamentFacts(name="Open B", family="mcr", starts_on=TODAY - dt.timedelta(501), days=2),
    )
    ema_ranking_recompute()


# -- pages ------------------------------------------------------------------------------------------


def test_importing_needs_the_permission(client, make_user):
    url = reverse("ema-import-new")
    assert client.get(url).status_code == 302  # to the login page
    client.force_login(make_user("someone"))
    assert client.get(url).status_code == 403
    assert client.post(url, facts_post(file=SimpleUploadedFile("a.csv", csv_bytes(A)))).status_code == 403
    assert not ImportedTournament.objects.exists()


def test_check_then_import_from_the_page(client, office):
    client.force_login(office)
    url = reverse("ema-import-new")
    checked = client.post(
        url, {**facts_post(), "check": "1", "file": SimpleUploadedFile("a.csv", csv_bytes(A))}
    )
    html = checked.content.decode()
    assert checked.status_code == 200 and "The file is good." in html
    assert "6 players (5 with an EMA number) from 1 countries" in html
    assert not ImportedTournament.objects.exists()
    done = client.post(
        url, {**facts_post(), "import": "1", "file": SimpleUploadedFile("a.csv", csv_bytes(A))}
    )
    imported = ImportedTournament.objects.get()
    assert done.status_code == 302 and done["Location"] == reverse("ema-import-detail", args=[imported.pk])
    detail = client.get(done["Location"]).content.decode()
    assert "Open A" in detail and "no EMA number: not ranked" in detail
    assert client.get(reverse("ema-imports")).content.decode().count("Open A") == 1
    # the same file again is refused and the page lists why
    again = client.post(url, {**facts_post("Other"), "file": SimpleUploadedFile("a.xlsx", _as_xlsx(A))})
    assert again.status_code == 400 and "imported already" in again.content.decode()


def _as_xlsx(rows):
    from tests.ema.files import PRODUCT_HEADER

    return xlsx_bytes([[r[0], r[3], r[2], r[1], r[6], r[7], r[5], r[4]] for r in rows], header=PRODUCT_HEADER)


def test_a_faulty_file_lists_every_faulty_line_on_the_page(client, office):
    client.force_login(office)
    bad = [row[:] for row in A]
    bad[1][1] = "123"
    bad[3][5] = "perhaps"
    response = client.post(
        reverse("ema-import-new"), {**facts_post(), "file": SimpleUploadedFile("bad.csv", csv_bytes(bad))}
    )
    html = response.content.decode()
    assert response.status_code == 400
    assert "2 faults" in html and "EMA member" in html and "“123” is not an EMA number" in html
    assert not ImportedTournament.objects.exists()


def test_correct_and_remove_from_the_pages(client, office, make_user, ranked):
    a = ImportedTournament.objects.get(name="Open A")
    client.force_login(office)
    response = client.post(
        reverse("ema-import-correct", args=[a.pk]), facts_post(ends_on=a.starts_on, days="1", city="Vigo")
    )
    assert response.status_code == 302
    a.refresh_from_db()
    assert a.city == "Vigo"
    assert client.post(reverse("ema-import-delete", args=[a.pk])).status_code == 403  # no delete permission
    staff = make_user("staff", is_staff=True)
    client.force_login(staff)
    assert client.post(reverse("ema-import-delete", args=[a.pk])).status_code == 302
    assert not ImportedTournament.objects.filter(pk=a.pk).exists()


def test_the_ranking_filters_by_country_searches_without_accents_and_shows_the_change(client, ranked):
    url = reverse("ema-ranking")
    html = client.get(url).content.decode()
    assert "Ivo Íñiguez" in html and "Bea Bravo" in html
    assert '<option value="FRA">FRA · France</option>' in html
    by_accent = client.get(url, {"q": "iniguez"}).content.decode()
    assert "Ivo Íñiguez" in by_accent and "Bea Bravo" not in by_accent
    assert "Ivo Íñiguez" in client.get(url, {"q": "ÍÑIGUEZ"}).content.decode()
    france = client.get(url, {"country": "FRA"}).content.decode()
    assert "Bea Bravo" in france and "Ana Alba" not in france
    assert "change change-new" in html and "change change-up" not in html  # first computation: all new
    # Bea drops when B no longer counts: a later computation shows the move
    imported_tournament_delete(tournament=ImportedTournament.objects.get(name="Open B"))
    ema_ranking_recompute()
    html = client.get(url).content.decode()
    assert "change change-down" in html and "change change-up" in html
    rows = list(
        csv.reader(
            io.StringIO(
                client.get(
                    reverse("ema-ranking-export", args=["mcr", "csv"]), {"country": "ESP"}
                ).content.decode("utf-8-sig")
            )
        )
    )
    assert rows[0] == [
        "Position",
        "Change",
        "First name",
        "Last name",
        "EMA number",
        "Country",
        "Ranking",
        "Part A",
        "Part B",
        "Results",
    ]
    assert {r[5] for r in rows[1:]} == {"ESP"} and rows[1][1] == "▲1"


def test_a_players_page_lists_every_counted_result_and_draws_the_chart(client, ranked):
    page = client.get(reverse("ema-ranking-player", args=["mcr", "04010001"]))
    html = page.content.decode()
    assert page.status_code == 200
    assert "Open A" in html and "Open B" in html
    assert "1 of 6" in html and "2 of 4" in html  # place of N
    assert "× 100%" in html and "× 50% = 1" in html  # ageing factor
    assert "<svg" in html and 'class="ranking-chart"' in html and "Ranking of Ana Alba over time" in html
    assert "3 made-up results" in html


# -- API --------------------------------------------------------------------------------------------


def test_the_api_checks_imports_refuses_corrects_and_removes(client, office, make_user):
    url = reverse("ranking-import-list")
    body = {**facts_post(), "file": SimpleUploadedFile("a.csv", csv_bytes(A))}
    assert client.post(url, body).status_code == 403
    client.force_login(office)
    checked = client.post(
        f"{url}?check=true", {**facts_post(), "file": SimpleUploadedFile("a.csv", csv_bytes(A))}
    )
    assert checked.status_code == 200 and checked.json()["players"] == 6 and checked.json()["ranked"] == 5
    bad = [row[:] for row in A]
    bad[2][0] = 7
    refused = client.post(url, {**facts_post(days="0"), "file": SimpleUploadedFile("b.csv", csv_bytes(bad))})
    assert refused.status_code == 400
    assert {
        "line": 0,
        "column": "days",
        "message": "Ensure this value is greater than or equal to 1.",
    } in refused.json()["faults"]
    refused = client.post(url, {**facts_post(), "file": SimpleUploadedFile("b.csv", csv_bytes(bad))})
    assert refused.status_code == 400 and refused.json()["faults"][0]["line"] == 4
    created = client.post(url, {**facts_post(), "file": SimpleUploadedFile("a.csv", csv_bytes(A))})
    assert created.status_code == 201
    pk = created.json()["id"]
    detail = client.get(reverse("ranking-import-detail", args=[pk])).json()
    assert (
        detail["weight"] == "1" and len(detail["results"]) == 6 and detail["results"][1]["base_rank"] == 800
    )
    patched = client.patch(
        reverse("ranking-import-detail", args=[pk]),
        {"days": 2, "ends_on": (TODAY - dt.timedelta(29)).isoformat()},
        content_type="application/json",
    )
    assert patched.status_code == 200 and patched.json()["weight"] == "2"
    replaced = client.post(
        reverse("ranking-import-replace", args=[pk]),
        {**facts_post(), "file": SimpleUploadedFile("a.xlsx", _as_xlsx(B))},
    )
    assert replaced.status_code == 200 and replaced.json()["players"] == 4
    assert client.delete(reverse("ranking-import-detail", args=[pk])).status_code == 403
    client.force_login(make_user("boss", is_staff=True))
    assert client.delete(reverse("ranking-import-detail", args=[pk])).status_code == 204


def test_the_ranking_api_lists_filters_and_gives_a_players_history(client, ranked):
    body = client.get(reverse("ema-ranking-api-list", args=["mcr"]), {"q": "íñi"}).json()
    assert [r["last_name"] for r in body["results"]] == ["Íñiguez"]
    player = client.get(reverse("ema-ranking-api-detail", args=["mcr", "04010001"])).json()
    assert (
        player["ranking"]["position"] >= 1
        and player["history"][-1]["ranking"] == player["ranking"]["ranking"]
    )
    assert client.get(reverse("ema-ranking-api-list", args=["salamanca"])).status_code == 404


# -- command ----------------------------------------------------------------------------------------


def test_the_import_results_command(tmp_path):
    path = tmp_path / "a.csv"
    path.write_bytes(csv_bytes(A))
    start = (TODAY - dt.timedelta(30)).isoformat()
    out = io.StringIO()
    call_command(
        "import_results",
        str(path),
        "--name",
        "Open A",
        "--rules",
        "mcr",
        "--start",
        start,
        "--check",
        stdout=out,
    )
    assert "The file is good: 6 players (5 with an EMA number)" in out.getvalue()
    assert not ImportedTournament.objects.exists()
    call_command(
        "import_results", str(path), "--name", "Open A", "--rules", "mcr", "--start", start, stdout=out
    )
    assert ImportedTournament.objects.count() == 1
    bad = tmp_path / "bad.csv"
    rows = [row[:] for row in A]
    rows[0][1], rows[3][4] = "x", "Atlantis"
    bad.write_bytes(csv_bytes(rows))
    with pytest.raises(CommandError) as refused:
        call_command("import_results", str(bad), "--name", "B", "--rules", "mcr", "--start", start)
    assert "line 2, EMA number" in str(refused.value) and "line 5, Country" in str(refused.value)
    assert EmaRankingEntry.objects.count() >= 0


def test_the_pages_speak_spanish(client, office, ranked):
    client.force_login(office)
    headers = {"HTTP_ACCEPT_LANGUAGE": "es"}
    page = client.get(reverse("ema-import-new"), **headers).content.decode()
    assert "Importar un archivo de resultados" in page and "Solo comprobar" in page
    ranking = client.get(reverse("ema-ranking"), **headers).content.decode()
    assert "Todos los países" in ranking and "Torneos celebrados en otros lugares" in ranking
    player = client.get(reverse("ema-ranking-player", args=["mcr", "04010001"]), **headers).content.decode()
    assert "Ranking de Ana Alba a lo largo del tiempo" in player and "× antigüedad" in player


def test_an_anonymous_visit_is_served_from_the_page_cache_with_no_query(
    client, ranked, django_assert_num_queries
):
    url = reverse("ema-ranking-family", args=["mcr"])
    first = client.get(url, {"country": "ESP"})
    assert first["X-Page-Cache"] == "miss" and "Ana Alba" in first.content.decode()
    with django_assert_num_queries(0):
        again = client.get(url, {"country": "ESP"})
    assert again["X-Page-Cache"] == "hit" and again.content == first.content
    # a query string other than the page's own form is rendered for its visitor alone, never stored:
    # an unknown parameter, a page number padded with spaces (which the view reads as page 1), a
    # lower-case country, a repeated parameter
    for odd in (
        "country=ESP&unknown=x",
        "page=%20%20%20%20%20%202",
        "country=esp",
        "country=ESP&country=NLD",
    ):
        response = client.get(f"{url}?{odd}")
        assert response.status_code == 200 and "X-Page-Cache" not in response, odd
        assert client.get(f"{url}?{odd}").get("X-Page-Cache") is None
    assert "unknown=x" not in client.get(url, {"country": "ESP"}).content.decode()
    # another filter is another page; a name search with spaces and accents has its own
    other = client.get(url, {"country": "NLD"})
    assert other["X-Page-Cache"] == "miss" and "Ana Alba" not in other.content.decode()
    client.get(url, {"q": "alba  ana"})
    with django_assert_num_queries(0):
        assert "Ana Alba" in client.get(url, {"q": "alba  ana"}).content.decode()
    player = reverse("ema-ranking-player", args=["mcr", "04010001"])
    client.get(player)
    with django_assert_num_queries(0):
        assert "Ana Alba" in client.get(player).content.decode()
    assert "X-Page-Cache" not in client.get(player, {"q": "anything"})  # a player's page reads no parameter
    # a new computation of the ranking is shown at once, never hidden by the cached page
    ema_ranking_recompute(refresh_all=True)
    assert client.get(url, {"country": "ESP"})["X-Page-Cache"] == "miss"
    # a signed-in visitor gets the page rendered for them
    client.force_login(get_user_model().objects.create_user("someone", password="pw-for-tests-123"))
    assert "X-Page-Cache" not in client.get(url, {"country": "ESP"})


def test_a_request_larger_than_a_results_file_is_refused_before_it_is_read(client, office):
    client.force_login(office)
    big = b"x" * (2 * 1024 * 1024 + 100 * 1024)
    page = client.post(
        reverse("ema-import-new"), {**facts_post(), "file": SimpleUploadedFile("big.csv", big)}
    )
    assert page.status_code == 413
    refused = client.post(
        reverse("ranking-import-list"), {**facts_post(), "file": SimpleUploadedFile("big.csv", big)}
    )
    assert refused.status_code == 400 and refused.json()["faults"][0]["column"] == "file"
    assert not ImportedTournament.objects.exists()
