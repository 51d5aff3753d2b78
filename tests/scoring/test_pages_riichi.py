"""A riichi game entered through the table page: riichi sticks, a draw with tenpai, a double ron, the fu
that exist for each han, and the final score after uma (EMA 2016)."""

import re

import pytest
from django.urls import reverse

from scoring.models import SeatSummary, TableResult
from tests.scoring.test_pages_support import (
    m,
    post,
    seat_scores,
    seat_session,
    table_url,
    text,
)


@pytest.fixture
def riichi(make_tournament, director):
    return make_tournament(slug="riichi-open", ruleset="ema-riichi-2016", director=director, players=4)


@pytest.fixture
def riichi_scorer(make_user, riichi):
    from tournaments import services

    user = make_user("riichi-scorer")
    services.role_grant(tournament=riichi, user=user, role="scorer")
    return user


@pytest.mark.django_db
def test_a_riichi_game_with_a_double_ron_and_draws_is_scored_as_the_rules_say(
    client, riichi, riichi_scorer, director
):
    table = seat_session(riichi)[0]
    url = table_url(table)
    client.force_login(riichi_scorer)
    steps = [
        # East 1: East declares riichi; South wins 3 han 30 fu on West's discard: 3900 + East's stick
        (
            {"result": "ron", "loser": 2, "winner": 1, "han": 3, "fu": 30, "riichi": [0]},
            [29000, 34900, 26100, 30000],
        ),
        # East 2: draw, South (dealer) and North tenpai, North declared riichi: noten pay 1500 each
        ({"result": "draw", "tenpai": [1, 3], "riichi": [3]}, [27500, 36400, 24600, 30500]),
        # East 2, 1 counter: double ron from East: West 2 han 30 fu (2000) and North mangan (8000), +300 each
        # for the counter; the stick on the table goes to West, first in turn after the discarder
        (
            {"result": "ron", "loser": 0, "winner": 2, "han": 2, "fu": 30, "winner2": 3, "han2": 5},
            [16900, 36400, 27900, 38800],
        ),
        # East 3: East tsumo 1 han 30 fu: 500 from the dealer (West), 300 from each other
        ({"result": "tsumo", "winner": 0, "han": 1, "fu": 30}, [18000, 36100, 27400, 38500]),
        # East 4: nobody tenpai, the deal passes
        ({"result": "draw"}, [18000, 36100, 27400, 38500]),
    ]
    for number, (fields, scores) in enumerate(steps, start=1):
        response = post(client, url, "hand", table, **fields)
        assert response.status_code == 302, text(response)
        page = client.get(url)
        assert seat_scores(page) == [str(s) for s in scores], f"after hand {number}"
    page = text(client.get(url))
    assert "Double ron from Player1 r.: Player3 r. 2 han 30 fu; Player4 r. mangan" in page
    assert "East 2, 1 counter" in page  # the third hand was played with a counter
    assert "Next: hand 6 · South 1, 1 counter" in page
    assert "Draw, tenpai: Player2 r., Player4 r." in page
    post(client, url, "submit", table)
    client.force_login(director)
    assert post(client, url, "confirm", table).status_code == 302
    finals = [r.final for r in SeatSummary.objects.filter(table=table).order_by("position")]
    # raw − 30000 + uma (+15000/+5000/−5000/−15000)
    assert finals == [-27000, 11100, -7600, 23500]
    assert sum(finals) == 0
    page = text(client.get(url))
    assert m(-27000) in page and "+23500" in page


@pytest.mark.django_db
def test_the_fu_select_offers_only_the_fu_that_exist_for_the_han_and_the_win(client, riichi):
    url = reverse("riichi-fu-options")
    ron_1 = client.get(url, {"block": "", "result": "ron", "han": "1"}).content.decode()
    options = re.findall(r'<option value="(\d+)"', ron_1)
    assert "20" not in options and "25" not in options and options[0] == "30" and options[-1] == "110"
    tsumo_2 = re.findall(
        r'<option value="(\d+)"', client.get(url, {"result": "tsumo", "han": "2"}).content.decode()
    )
    assert "20" in tsumo_2 and "25" not in tsumo_2  # pinfu tsumo yes, seven pairs self-drawn needs 3 han
    tsumo_3 = re.findall(
        r'<option value="(\d+)"', client.get(url, {"result": "tsumo", "han": "3"}).content.decode()
    )
    assert "25" in tsumo_3
    mangan = client.get(url, {"result": "ron", "han": "5"}).content.decode()
    assert "<select" not in mangan and "No fu from 5 han up." in mangan
    # a second winner's block is always a ron, and keeps its own field name
    second = client.get(url, {"block": "2", "result": "tsumo", "han2": "1", "fu2": "40"}).content.decode()
    assert 'name="fu2"' in second and 'value="40" selected' in second
    assert "20" not in re.findall(r'<option value="(\d+)"', second)


@pytest.mark.django_db
def test_fu_that_cannot_exist_is_refused_beside_the_fu_and_nothing_is_saved(client, riichi, riichi_scorer):
    table = seat_session(riichi)[0]
    url = table_url(table)
    client.force_login(riichi_scorer)
    response = post(client, url, "hand", table, result="ron", loser=2, winner=1, han=1, fu=20)
    assert response.status_code == 400
    html = response.content.decode()
    message = "1 han 20 fu cannot be won on a discard"
    assert message in html
    assert 0 < html.rindex(message) - html.index('name="fu"') < 800
    assert not TableResult.objects.filter(table=table, hands__isnull=False).exists()
    # below 5 han the fu are required; from 5 han they are not asked
    response = post(client, url, "hand", table, result="tsumo", winner=1, han=2)
    assert response.status_code == 400 and "Give the fu (needed below 5 han)." in text(response)
    assert post(client, url, "hand", table, result="tsumo", winner=1, han=6).status_code == 302
    assert TableResult.objects.get(table=table).hands.get().data == {
        "result": "tsumo",
        "winner": 1,
        "han": 6,
        "riichi": [],
    }


@pytest.mark.django_db
def test_a_chombo_hand_is_replayed_and_costs_twenty_thousand_after_uma(
    client, riichi, riichi_scorer, director
):
    table = seat_session(riichi)[0]
    url = table_url(table)
    client.force_login(riichi_scorer)
    assert post(client, url, "hand", table, result="chombo", offender=2).status_code == 302
    page = text(client.get(url))
    assert "Chombo by Player3 r. (hand replayed)" in page
    assert "Next: hand 2 · East 1" in page  # same dealer, no counter
    post(client, url, "hand", table, result="tsumo", winner=0, han=1, fu=30)
    post(client, url, "submit", table)
    client.force_login(director)
    post(client, url, "confirm", table)
    rows = list(SeatSummary.objects.filter(table=table).order_by("position"))
    assert rows[2].chombo == -20000
    # East (dealer) tsumo 1 han 30 fu: 500 from each; 31500, 29500 × 3; ties share the uma of 2nd–4th
    assert [r.game_score for r in rows] == [31500, 29500, 29500, 29500]
    assert rows[2].final == -500 + -5000 + -20000


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("ruleset", "twelve", "thirteen"),
    [
        ("ema-riichi-2008", "12 · sanbaiman", "13+ · yakuman"),
        ("ema-riichi-2025", "12 or more · sanbaiman", "yakuman"),
    ],
)
def test_the_han_choices_follow_the_preset_limits(
    client, make_tournament, director, ruleset, twelve, thirteen
):
    """002 "Manos límite": "Yakuman 13+" (13 han of yaku and dora are a yakuman); 2025 §4.1.2: "11 or
    more Sanbaiman" (only a yakuman yaku is a yakuman): the han select of the hand form says which."""
    tournament = make_tournament(slug=f"han-{ruleset}", ruleset=ruleset, director=director, players=4)
    table = seat_session(tournament)[0]
    client.force_login(director)
    page = client.get(table_url(table)).content.decode()
    assert f'value="12">{twelve}</option>' in page
    assert f'value="13">{thirteen}</option>' in page
