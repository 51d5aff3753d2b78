"""The public EMA ranking pages: tabs, search, a player's counted results, downloads."""

from __future__ import annotations

import csv
import datetime as dt
import io

import pytest
from django.urls import reverse
from django.utils import timezone
from openpyxl import load_workbook

from rankings.ema.services import ema_ranking_recompute
from rankings.models import EmaRankingEntry, EmaRankingState
from tests.exports.helpers import ema_player, place_player

pytestmark = pytest.mark.django_db


@pytest.fixture
def ranked(make_tournament):
    """The worked example of RULES.md, dated back from today, and a riichi player."""
    today = timezone.localdate()
    ana = ema_player("Ana", "04010001")
    for slug, place, players, age in (
        ("t750", 2, 5, 90),
        ("t703", 12, 38, 200),
        ("t650", 8, 21, 270),
        ("t600", 17, 41, 150),  # 41 players: weight 1.5
        ("t500", 3, 5, 480),  # more than a year old: counts half
    ):
        place_player(
            make_tournament, slug, ana, place=place, players=players, ends_on=today - dt.timedelta(age)
        )
    zed = ema_player("Zed", "09999999", country="JPN")
    for slug, place in (("riichi-cup", 1), ("riichi-open", 4)):  # two results: listed
        place_player(
            make_tournament,
            slug,
            zed,
            place=place,
            players=4,
            ends_on=today - dt.timedelta(10),
            ruleset="wrc-riichi",
        )
    ema_ranking_recompute(refresh_all=True)
    return ana, zed


def test_the_ranking_page_shows_parts_a_and_b_and_the_ranking(client, ranked):
    html = client.get(reverse("ema-ranking")).content.decode()
    assert "Ana Ranked" in html and "04010001" in html
    assert "658.97" in html and "650.60" in html and "667.33" in html
    assert "Zed" not in html  # riichi is another tab
    ana_detail = reverse("ema-ranking-player", kwargs={"family": "mcr", "ema_id": "04010001"})
    assert f'href="{ana_detail}"' in html
    riichi = client.get(reverse("ema-ranking-family", kwargs={"family": "riichi"})).content.decode()
    assert "Zed Ranked" in riichi and "Ana Ranked" not in riichi
    assert 'aria-current="page">Riichi' in riichi


def test_the_ranking_is_searchable_by_name_ema_number_or_country(client, ranked, make_tournament):
    other = ema_player("Other", "05555555", country="FRA")
    place_player(make_tournament, "small", other, place=1, players=4, ends_on=timezone.localdate())
    place_player(make_tournament, "small-2", other, place=1, players=4, ends_on=timezone.localdate())
    ema_ranking_recompute(refresh_all=True)
    url = reverse("ema-ranking")
    assert "Other Ranked" in client.get(url).content.decode()
    by_name = client.get(url, {"q": "ana"}).content.decode()
    assert "Ana Ranked" in by_name and "Other Ranked" not in by_name
    by_number = client.get(url, {"q": "0555"}).content.decode()
    assert "Other Ranked" in by_number and "Ana Ranked" not in by_number
    assert "Other Ranked" in client.get(url, {"q": "fra"}).content.decode()
    nobody = client.get(url, {"q": "nobody"}).content.decode()
    assert "No ranked player matches" in nobody
    # htmx swaps only the results
    partial = client.get(url, {"q": "ana"}, HTTP_HX_REQUEST="true", HTTP_HX_TARGET="ranking-results")
    assert partial.content.decode().startswith('<div id="ranking-results">')


def test_a_players_page_lists_the_results_with_weights_and_ageing(client, ranked):
    page = client.get(reverse("ema-ranking-player", kwargs={"family": "mcr", "ema_id": "04010001"}))
    html = page.content.decode()
    assert page.status_code == 200
    for slug in ("T750", "T703", "T650", "T600", "T500"):  # tournament names from their slugs
        assert slug in html
    assert "2 of 5" in html and "17 of 41" in html  # place out of N
    assert "1.50" in html  # the 41-player tournament's weight
    assert "× 50% = 0.50" in html  # the result more than a year old counts half of its weight 1
    assert "made-up" not in html  # five results: no padding
    zed = client.get(reverse("ema-ranking-player", kwargs={"family": "riichi", "ema_id": "09999999"}))
    assert "3 made-up results (fewer than five results)" in zed.content.decode()
    assert "658.97" in html


def test_unknown_rankings_and_players_are_404(client, ranked):
    assert client.get(reverse("ema-ranking-family", kwargs={"family": "salamanca"})).status_code == 404
    assert (
        client.get(
            reverse("ema-ranking-player", kwargs={"family": "riichi", "ema_id": "04010001"})
        ).status_code
        == 404
    )


def test_the_ranking_downloads_as_csv_and_xlsx(client, ranked):
    response = client.get(reverse("ema-ranking-export", kwargs={"family": "mcr", "fmt": "csv"}))
    assert response["Content-Disposition"] == 'attachment; filename="ema-ranking-mcr.csv"'
    rows = list(csv.reader(io.StringIO(response.content.decode("utf-8-sig"))))
    assert rows[0][:3] == ["Position", "Change", "First name"]
    assert rows[1] == ["1", "new", "Ana", "Ranked", "04010001", "ESP", "658.97", "650.6", "667.33", "5"]
    xlsx = client.get(reverse("ema-ranking-export", kwargs={"family": "riichi", "fmt": "xlsx"}))
    sheet = load_workbook(io.BytesIO(xlsx.content)).active
    assert [c.value for c in sheet[2]][:5] == [1, "new", "Zed", "Ranked", "09999999"]
    assert (
        client.get(reverse("ema-ranking-export", kwargs={"family": "mcr", "fmt": "pdf"})).status_code == 404
    )


def test_a_ranking_of_an_earlier_day_is_brought_to_today_by_the_page(client, ranked):
    ema_ranking_recompute(on=timezone.localdate() - dt.timedelta(days=100))  # four results counted then
    assert EmaRankingEntry.objects.get(family="mcr").on != timezone.localdate()
    html = client.get(reverse("ema-ranking")).content.decode()
    assert "658.97" in html
    assert EmaRankingState.objects.get().computed_on == timezone.localdate()


def test_the_ranking_page_fits_a_phone_and_writes_numbers_the_readers_way(client, ranked):
    html = client.get(reverse("ema-ranking"), HTTP_ACCEPT_LANGUAGE="es").content.decode()
    assert '<html lang="es">' in html and 'name="viewport"' in html
    assert 'class="num hide-narrow"' in html  # Parts A and B give way on narrow screens
    assert "658,97" in html  # Spanish decimal comma
