"""Liability (pao), abortive draws and red fives on the table page and through the API, as each preset's
text has them (figures: tests/rules/test_riichi_liability.py; the texts: docs/rules-notes-riichi.md)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from scoring.models import TableResult
from tests.scoring.test_pages_support import m, post, seat_scores, seat_session, table_url, text
from tournaments.console.rules_form import RulesForm

pytestmark = pytest.mark.django_db

DRAGONS = {"tiles_hand": "123m55p", "tiles_melds": "pung 5z, pung 6z, pung 7z", "tiles_winning": "5p"}
NOT_LIABLE = {"tiles_hand": "123m456p789s55p", "tiles_melds": "pung 5z", "tiles_winning": "5p"}


@pytest.fixture
def tournament(make_tournament, director):
    return make_tournament(slug="pao-open", ruleset="ema-riichi-2025", director=director, players=4)


def test_the_hand_form_asks_for_the_liable_player_and_not_for_red_fives_or_abortive_draws(
    client, tournament, director
):
    table = seat_session(tournament)[0]
    client.force_login(director)
    page = client.get(table_url(table)).content.decode()
    assert 'name="liable"' in page and "Liable player (pao)" in page
    assert "big three dragons, big four winds" in page
    assert 'name="tiles_red_fives"' not in page  # 2025 §1.3: "Red fives are not used"
    assert 'name="abortive"' not in page  # 2025 §3.4: a hand ends by exhaustive draw or a win


def test_under_2008_the_form_offers_red_fives_and_abortive_draws(client, make_tournament, director):
    tournament = make_tournament(slug="pao-2008", ruleset="ema-riichi-2008", director=director, players=4)
    client.force_login(director)
    page = client.get(table_url(seat_session(tournament)[0])).content.decode()
    assert 'name="tiles_red_fives"' in page and 'name="abortive"' in page and 'name="liable"' in page


def test_a_liable_tsumo_and_ron_are_paid_and_listed_as_the_text_says(client, tournament, director):
    table = seat_session(tournament)[0]
    url = table_url(table)
    client.force_login(director)
    # East 1: South (seat 1) big three dragons by self-draw; West fed the third dragon set and pays all
    response = post(client, url, "hand", table, result="tsumo", winner=1, han=13, liable=2)
    assert response.status_code == 302, text(response)
    assert seat_scores(client.get(url)) == ["30000", "62000", m(-2000), "30000"]
    # East 2 (South deals): South big four winds on North's discard, East fed the fourth wind set: 48000
    # shared equally (2025 §3.3.7)
    response = post(client, url, "hand", table, result="ron", loser=3, winner=1, han=13, liable=0)
    assert response.status_code == 302, text(response)
    page = client.get(url)
    assert seat_scores(page) == ["6000", "110000", m(-2000), "6000"]
    page = text(page)
    assert "Tsumo: Player2 p. yakuman · paid by Player3 p. (liability)" in page
    assert "Ron: Player2 p. yakuman from Player4 p. · half paid by Player1 p. (liability)" in page


def test_the_liable_player_is_refused_beside_the_field(client, tournament, director):
    table = seat_session(tournament)[0]
    url = table_url(table)
    client.force_login(director)
    response = post(client, url, "hand", table, result="tsumo", winner=1, han=13, liable=1)
    assert response.status_code == 400
    html = response.content.decode()
    assert 0 < html.rindex("the liable player cannot be the winner") - html.index('name="liable"') < 800
    response = post(client, url, "hand", table, result="tsumo", winner=1, han=6, liable=2)
    assert response.status_code == 400 and "liability applies only to a yakuman" in text(response)
    assert not TableResult.objects.filter(table=table, hands__isnull=False).exists()


def test_with_tiles_the_liable_player_is_taken_only_for_those_yakuman(client, tournament, director):
    table = seat_session(tournament)[0]
    url = table_url(table)
    client.force_login(director)
    response = post(client, url, "hand", table, result="tsumo", winner=1, liable=2, **NOT_LIABLE)
    assert response.status_code == 400
    assert "these tiles have neither" in text(response)
    response = post(client, url, "hand", table, result="tsumo", winner=1, liable=2, **DRAGONS)
    assert response.status_code == 302, text(response)
    stored = TableResult.objects.get(table=table).hands.get().data
    assert (stored["han"], stored["liable"]) == (13, 2)
    assert seat_scores(client.get(url)) == ["30000", "62000", m(-2000), "30000"]


def test_the_value_preview_hides_the_liable_player_unless_the_tiles_hold_the_yakuman(
    client, tournament, director
):
    table = seat_session(tournament)[0]
    client.force_login(director)
    session = table.session
    url = reverse("tiles-value", args=[tournament.slug, session.number, table.number])
    base = {"result": "tsumo", "winner": "1", "version": "1"}
    shown = client.post(url, {**base, **DRAGONS}).content.decode()
    assert 'id="liability" data-show="ron tsumo" hx-swap-oob="true">' in shown
    hidden = client.post(url, {**base, **NOT_LIABLE}).content.decode()
    assert 'hx-swap-oob="true" hidden>' in hidden


def test_an_abortive_draw_is_entered_under_2008(client, make_tournament, director):
    tournament = make_tournament(slug="pao-abort", ruleset="ema-riichi-2008", director=director, players=4)
    table = seat_session(tournament)[0]
    url = table_url(table)
    client.force_login(director)
    # four riichi: all show tenpai, no payment, the four sticks stay, a counter, the dealer repeats
    four = [0, 1, 2, 3]
    response = post(client, url, "hand", table, result="draw", abortive="on", tenpai=four, riichi=four)
    assert response.status_code == 302, text(response)
    page = client.get(url)
    assert seat_scores(page) == ["29000"] * 4
    page = text(page)
    assert "Abortive draw, tenpai:" in page
    assert "East 1, 1 counter" in page
    assert TableResult.objects.get(table=table).hands.get().data["abortive"] is True


def test_the_rules_form_offers_red_fives_only_where_the_set_has_them():
    assert "red_fives" not in RulesForm(ruleset="ema-riichi-2025").fields
    assert "red_fives" in RulesForm(ruleset="ema-riichi-2025", current={"red_fives": 3}).fields
    assert "red_fives" in RulesForm(ruleset="ema-riichi-2008").fields
    form = RulesForm(ruleset="ema-riichi-2025")
    assert form.fields["liability"].initial is True
    assert form.fields["abortive_draws"].initial is False


# -- the API ------------------------------------------------------------------------------------------
def test_the_api_takes_a_liable_player_key_and_gives_it_back(api_as, tournament, director):
    table = seat_session(tournament)[0]
    client = api_as(director)
    hand = {
        "result": "ron",
        "loser": "p4",
        "winners": [{"player": "p2", "han": 13, "liable": "p1"}],
        "riichi": [],
        "version": 1,
    }
    response = client.post(f"/api/tables/{table.pk}/result/hands/", hand, format="json")
    assert response.status_code == 201, response.content
    body = response.json()
    assert body["hands"][0]["after"]["deltas"] == [-16000, 32000, 0, -16000]
    assert body["hands"][0]["hand"]["winners"][0]["liable"] == "p1"
    bad = {"result": "tsumo", "winner": "p2", "han": 13, "liable": "p2", "riichi": [], "version": 2}
    response = client.post(f"/api/tables/{table.pk}/result/hands/", bad, format="json")
    assert response.status_code == 400
    assert response.json()["liable"] == ["the liable player cannot be the winner"]
    stranger = {**bad, "liable": "p9"}
    response = client.post(f"/api/tables/{table.pk}/result/hands/", stranger, format="json")
    assert response.status_code == 400 and "p9 is not seated" in response.json()["liable"][0]


def test_liability_reads_in_spanish(client, tournament, director):
    table = seat_session(tournament)[0]
    url = table_url(table)
    client.force_login(director)
    post(client, url, "hand", table, result="tsumo", winner=1, han=13, liable=2)
    page = text(client.get(url, HTTP_ACCEPT_LANGUAGE="es"))
    assert "Jugador responsable (pao)" in page
    assert "tres grandes dragones, cuatro grandes vientos" in page
    assert "pagado por Player3 p. (responsabilidad)" in page
    response = client.post(
        url,
        {"action": "hand", "version": 2, "result": "tsumo", "winner": 0, "han": 13, "liable": 0},
        HTTP_ACCEPT_LANGUAGE="es",
    )
    assert "el jugador responsable no puede ser el ganador" in text(response)


def test_the_correction_page_shows_the_liable_player_and_changes_it(client, tournament, director):
    table = seat_session(tournament)[0]
    url = table_url(table)
    client.force_login(director)
    post(client, url, "hand", table, result="ron", loser=3, winner=1, han=13, liable=0)
    edit = reverse("table-hand", args=[tournament.slug, 1, table.number, 1])
    page = client.get(edit).content.decode()
    assert '<option value="0" selected>E · Player1 p.</option>' in page
    response = client.post(
        edit,
        {
            "version": 2,
            "result": "ron",
            "loser": 3,
            "winner": 1,
            "han": 13,
            "liable": 2,
            "reason": "West fed",
        },
    )
    assert response.status_code == 302, text(response)
    assert TableResult.objects.get(table=table).hands.get().data["winners"][0]["liable"] == 2
    assert seat_scores(client.get(url)) == ["30000", "62000", "14000", "14000"]
