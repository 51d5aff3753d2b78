"""Statistics from recorded hands, the best-hand ranking, and the register of notable hands: pages, API and
exports."""

from __future__ import annotations

import datetime as dt

import pytest

from rankings.exports import exporter_get
from scoring.models import Hand, NotableHand
from scoring.rules.tiles import stats
from tournaments import services as tournament_services

KEYS = ("p1", "p2", "p3", "p4")
MCR_TILES = {
    "hand": "234m567m99p",
    "melds": ["pung 7z", "chow 345s"],
    "winning_tile": "4m",
    "robbing_kong": True,
}


def test_statistics_from_plain_hands():
    check = {
        "wins": [
            {"winner": 0, "computed": {"items": [{"name": "Robbing The Kong"}, {"name": "Dragon Pung"}]}}
        ]
    }
    hands = [
        (1, {"result": "win", "winner": 0, "discarder": 2, "fan": 11}, check),
        (2, {"result": "win", "winner": 1, "discarder": None, "fan": 9}, None),
        (3, {"result": "draw"}, None),
        (4, {"result": "win", "winner": 0, "discarder": 1, "fan": 8}, None),
    ]
    result = stats.compute("mcr", {"p1": "Ana"}, [(1, 1, KEYS, hands)])
    p1, p2, p3, p4 = result.players
    assert (p1.wins, p1.discard_wins, p1.self_drawn, p1.draws, p1.hands) == (2, 2, 0, 1, 4)
    assert p1.average == 9.5 and p1.biggest.label == "11 fan" and p1.name == "Ana"
    assert (p2.wins, p2.self_drawn, p2.deal_ins) == (1, 1, 1)
    assert p3.deal_ins == 1 and p4.wins == 0
    assert result.items == [("Dragon Pung", 1), ("Robbing The Kong", 1)]
    assert [p.key for p in result.best_hand_ranking()] == ["p1", "p2"]
    assert [(b.key, b.win.label, b.hand) for b in result.biggest] == [
        ("p1", "11 fan", 1),
        ("p2", "9 fan", 2),
        ("p1", "8 fan", 4),
    ]
    assert result.hands == 4 and result.with_tiles == 1


def test_riichi_statistics_compare_by_payment_and_count_riichi():
    hands = [
        (
            1,
            {"result": "ron", "loser": 1, "winners": [{"player": 0, "han": 3, "fu": 30}], "riichi": [0, 2]},
            None,
        ),
        (2, {"result": "tsumo", "winner": 2, "han": 5, "riichi": [2]}, None),
        (3, {"result": "draw", "tenpai": [], "riichi": []}, None),
    ]
    result = stats.compute("riichi", {}, [(1, 1, KEYS, hands)])
    p1, p2, p3, _ = result.players
    assert p1.riichi_rate == round(1 / 3, 3) and p3.riichi == 2
    assert p2.deal_ins == 1 and p3.self_drawn == 1
    assert [p.biggest.label for p in result.best_hand_ranking()] == ["mangan", "3 han 30 fu"]


@pytest.fixture
def played(db, tournament, api_as, scorer):
    regs = {r.key: r for r in tournament.registrations.all()}
    table = tournament_services.session_seat(
        session=tournament.sessions.get(number=1), tables=[[regs[k] for k in KEYS]]
    )[0]
    client = api_as(scorer)
    url = f"/api/tables/{table.pk}/result/hands/"
    assert (
        client.post(
            url,
            {"version": 1, "result": "win", "winner": "p1", "discarder": "p3", "tiles": MCR_TILES},
            format="json",
        ).status_code
        == 201
    )
    assert (
        client.post(
            url, {"version": 2, "result": "win", "winner": "p2", "discarder": None, "fan": 9}, format="json"
        ).status_code
        == 201
    )
    return table


@pytest.mark.django_db
def test_statistics_page_api_and_exports(client, api, tournament, played):
    page = client.get(f"/t/{tournament.slug}/statistics/")
    assert page.status_code == 200
    html = page.content.decode()
    assert "Robbing The Kong" in html and "11 fan" in html and "Best-hand ranking" in html
    body = api.get(f"/api/tournaments/{tournament.slug}/statistics/").json()
    assert body["best_hand_ranking"][0] == {
        "rank": 1,
        "player": "p1",
        "name": "Player1 open-2026",
        "hand": "11 fan",
    }
    assert ["Dragon Pung", 1] in body["items"]
    p3 = next(p for p in body["players"] if p["player"] == "p3")
    assert p3["deal_ins"] == 1
    csv_text = exporter_get("hand-statistics")(tournament=tournament).render("csv").data.decode("utf-8-sig")
    assert csv_text.splitlines()[0].startswith("Player,Name,Hands,Wins")
    assert "p1,Player1 open-2026,2,1,0,1,0,0,11.0,11 fan," in csv_text
    xlsx = exporter_get("best-hands")(tournament=tournament).render("xlsx")
    assert xlsx.data[:2] == b"PK"


@pytest.mark.django_db
def test_a_referee_registers_a_hand_and_the_register_is_public(client, tournament, referee, played, director):
    hand = Hand.objects.get(result__table=played, number=1)
    url = f"/t/{tournament.slug}/s/1/table/{played.number}/hand/1/register/"
    assert client.post(url, {"title": "Robbing the kong"}).status_code == 302  # to the login page
    assert not NotableHand.objects.exists()
    client.force_login(referee)
    client.post(url, {"title": "Robbing the kong"})
    entry = NotableHand.objects.get()
    assert (entry.person, entry.value, entry.unit, entry.source) == ("Player1 open-2026", 11, "fan", hand)
    assert entry.opponents == "Player2 open-2026, Player3 open-2026, Player4 open-2026"
    assert entry.tiles == MCR_TILES and entry.date == tournament.starts_on
    # twice is refused
    client.post(url, {"title": "Again"})
    assert NotableHand.objects.count() == 1
    client.logout()
    public = client.get("/notable-hands/").content.decode()
    assert "Robbing the kong" in public and "Player1 open-2026" in public
    rows = list(exporter_get("notable-hands")(tournament=tournament).rows())
    assert rows[1][1:4] == ["Player1 open-2026", "Robbing the kong", 11]


@pytest.mark.django_db
def test_entries_by_hand_are_for_directors(client, api_as, director, scorer, tournament):
    entry = {
        "person": "Luis",
        "title": "Nueve puertas",
        "value": 12,
        "unit": "fan",
        "date": "2019-11-09",
        "hand_text": "11123455678999p",
        "opponents": "Ana, Eva, Iker",
    }
    assert api_as(scorer).post("/api/notable-hands/", entry, format="json").status_code == 403
    created = api_as(director).post("/api/notable-hands/", entry, format="json")
    assert created.status_code == 201, created.content
    assert created.json()["title"] == "Nueve puertas"
    bad = api_as(director).post("/api/notable-hands/", {**entry, "tiles": {"hand": "123m"}}, format="json")
    assert bad.status_code == 400 and "tiles.hand" in bad.json()
    client.force_login(director)
    page = client.post("/notable-hands/", {**entry, "title": "Trece huérfanos", "date": "2020-01-02"})
    assert page.status_code == 302
    listed = client.get("/notable-hands/").content.decode()
    assert "Trece huérfanos" in listed and "Nueve puertas" in listed
    assert NotableHand.objects.filter(date=dt.date(2020, 1, 2)).exists()
