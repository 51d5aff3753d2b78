"""Who the EMA ranking lists: "The Mahjong Europe Ranking System" (EMA), §3 "Requirements for players",
its last paragraph (line 56 of ema-mers-ranking-system.txt): "To be listed in a ranking of a specific rule set, a player must have participated in
at least two certified competitions of this ranking." Read as two results that still count on the
ranking date. The ranking page, the API, the downloads (stored and computed on a date) and the player's
page agree; a player with one result keeps a page saying what is missing."""

from __future__ import annotations

import csv
import datetime as dt
import io
from fractions import Fraction

import pytest
from django.urls import reverse
from django.utils import timezone

from rankings.ema.engine import LISTING_RESULTS, EmaResult, ema_ranking
from rankings.ema.services import ema_ranking_recompute
from rankings.models import EmaRankingEntry
from tests.exports.helpers import ema_player, place_player

ON = dt.date(2026, 6, 1)


def result(days_before: int, base_rank: int = 1000) -> EmaResult:
    return EmaResult(base_rank=base_rank, weight=1, ended_on=ON - dt.timedelta(days=days_before))


def test_the_count_is_two_results_that_still_count():
    """§3: "at least two certified competitions"; a result older than two years no longer counts."""
    assert LISTING_RESULTS == 2
    one = ema_ranking([result(10)], ruleset="mcr", on=ON)
    assert (one.counted, one.listed, one.missing) == (1, False, 1)
    # the ranking of one result is still computed (1000 / 5 and 1000 / 4): only the listing differs
    assert (one.part_a, one.part_b) == (200, 250)
    two = ema_ranking([result(10), result(400, 0)], ruleset="mcr", on=ON)
    assert (two.counted, two.listed, two.missing) == (2, True, 0)
    aged_out = ema_ranking([result(10), result(800)], ruleset="mcr", on=ON)  # 800 days: past two years
    assert (aged_out.counted, aged_out.listed, aged_out.missing) == (1, False, 1)
    assert ema_ranking([], ruleset="mcr", on=ON).missing == 2
    # results of the other rule set do not count towards this one's listing
    riichi = EmaResult(base_rank=1000, weight=1, ended_on=ON, ruleset="riichi")
    assert not ema_ranking([result(10), riichi], ruleset="mcr", on=ON).listed


@pytest.fixture
def two_players(db, make_tournament):
    """Ana: two MCR results (listed); Bo: one MCR result, won (not listed); both recent."""
    today = timezone.localdate()
    ana = ema_player("Ana", "04010001")
    bo = ema_player("Bo", "04010002", country="FRA")
    place_player(make_tournament, "first", ana, place=2, players=4, ends_on=today - dt.timedelta(20))
    place_player(make_tournament, "second", ana, place=3, players=4, ends_on=today - dt.timedelta(10))
    place_player(make_tournament, "bos-win", bo, place=1, players=4, ends_on=today - dt.timedelta(5))
    ema_ranking_recompute(refresh_all=True)
    return ana, bo


@pytest.mark.django_db
@pytest.mark.usefixtures("two_players")
def test_a_player_with_one_result_is_in_no_list(client):
    assert list(EmaRankingEntry.objects.values_list("player__first_name", "position")) == [("Ana", 1)]
    page = client.get(reverse("ema-ranking")).content.decode()
    assert "Ana Ranked" in page and "Bo Ranked" not in page
    assert "A player is listed with at least two results that still count" in page
    spanish = client.get(reverse("ema-ranking"), HTTP_ACCEPT_LANGUAGE="es").content.decode()
    assert "Figura en el ranking quien tiene al menos dos resultados que aún cuentan" in spanish
    api = client.get(reverse("ema-ranking-api-list", args=["mcr"])).json()
    assert [r["ema_id"] for r in api["results"]] == ["04010001"] and api["count"] == 1
    stored = client.get(reverse("ema-ranking-export", kwargs={"family": "mcr", "fmt": "csv"}))
    rows = list(csv.reader(io.StringIO(stored.content.decode("utf-8-sig"))))
    assert [r[4] for r in rows[1:]] == ["04010001"]
    # the ranking as of a date, computed on the spot by the exporter, applies the same rule
    from rankings.exports import RANKING, exporter_get

    on_a_date = exporter_get("ema-ranking", scope=RANKING)(family="mcr", on=timezone.localdate())
    assert [row[4] for row in list(on_a_date.rows())[1:]] == ["04010001"]


@pytest.mark.django_db
def test_a_player_with_one_result_keeps_a_page_saying_what_is_missing(client, two_players):
    url = reverse("ema-ranking-player", kwargs={"family": "mcr", "ema_id": "04010002"})
    page = client.get(url)
    html = page.content.decode()
    assert page.status_code == 200
    assert "Bo Ranked" in html and "Not listed in this ranking" in html
    assert "1 result counts now" in html and "at least 2 results that still count" in html
    assert "Missing: 1 more result in a ranked tournament of these rules." in html
    assert "The Mahjong Europe Ranking System, §3" in html
    assert "Bos-Win" in html or "bos-win" in html.lower()  # the result itself is listed
    assert "Position" not in html  # no position, since not listed
    assert "Not listed yet" in html  # the chart has no point: never listed
    spanish = client.get(url, HTTP_ACCEPT_LANGUAGE="es").content.decode()
    assert "No figura en este ranking" in spanish
    assert "Falta: 1 resultado más en un torneo puntuable de estas reglas." in spanish
    # the listed player's page shows the position and no such notice
    listed = client.get(reverse("ema-ranking-player", kwargs={"family": "mcr", "ema_id": "04010001"}))
    assert "Not listed" not in listed.content.decode() and "Position" in listed.content.decode()
    # no result at all in riichi: no page
    riichi = reverse("ema-ranking-player", kwargs={"family": "riichi", "ema_id": "04010002"})
    assert client.get(riichi).status_code == 404


@pytest.mark.django_db
def test_the_api_says_whether_a_player_is_listed_and_what_is_missing(client, two_players):
    bo = client.get(reverse("ema-ranking-api-detail", args=["mcr", "04010002"])).json()
    assert (bo["ranking"], bo["listed"], bo["counted"], bo["missing"]) == (None, False, 1, 1)
    assert [d["base_rank"] for d in bo["results"] if not d.get("padding")] == [1000]
    assert bo["history"][-1]["ranking"] is None  # not listed on any day
    ana = client.get(reverse("ema-ranking-api-detail", args=["mcr", "04010001"])).json()
    assert (ana["listed"], ana["counted"], ana["missing"]) == (True, 2, 0)
    assert ana["ranking"]["position"] == 1
    # Ana's history: not listed after her first result, listed from her second on
    assert [p["ranking"] is None for p in ana["history"]] == [True, False, False]  # and on the ranking date
    # (667 + 333) / 5 = 200 and / 4 = 250
    assert Fraction(str(ana["ranking"]["ranking"])) == 225


@pytest.mark.django_db
def test_a_second_result_lists_the_player(client, two_players, make_tournament):
    _ana, bo = two_players
    place_player(
        make_tournament, "bos-second", bo, place=4, players=4, ends_on=timezone.localdate() - dt.timedelta(1)
    )
    ema_ranking_recompute(refresh_all=True)
    entry = EmaRankingEntry.objects.get(player=bo)
    # (1000 + 0) / 5 = 200 and / 4 = 250: 225, tied with Ana
    assert (entry.results, entry.ranking, entry.position) == (2, 225, 1)
    html = client.get(reverse("ema-ranking-player", kwargs={"family": "mcr", "ema_id": "04010002"})).content
    assert b"Not listed" not in html
