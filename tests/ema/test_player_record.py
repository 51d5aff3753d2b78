"""A player across the tournaments of this server: search by folded name or EMA number, every tournament
played here with the place and the base rank, the EMA ranking; private tournaments and their players never
show to anybody without a role in them."""

from __future__ import annotations

import datetime as dt

import pytest

from rankings.ema.services import ema_ranking_recompute
from tests.exports.helpers import ema_player, place_player
from tournaments import lifecycle
from tournaments import services as tservices
from tournaments.models import Role, Session

pytestmark = pytest.mark.django_db


@pytest.fixture
def ana(make_tournament, make_user):
    """Ana Ranked (04010001): 3rd of 8 in a public open, 1st of 8 in a private club league; Zoë plays
    only in the private league."""
    ana = tservices.player_create(first_name="Ána", last_name="Ødegård", ema_id="04010001", country="NOR")
    place_player(make_tournament, "open-2026", ana, place=3, players=8, ends_on=dt.date(2026, 3, 1))
    league = place_player(
        make_tournament,
        "club-league",
        ana,
        place=1,
        players=8,
        ends_on=dt.date(2026, 4, 1),
        is_public=False,
        finish=False,
    )
    zoe = tservices.player_create(first_name="Zoë", last_name="Hidden", country="ESP")
    tservices.registration_create(tournament=league, player=zoe, key="zoe")  # registered while it runs
    lifecycle.statuses_load(
        tournament=league, sessions={s.pk: Session.Status.FINISHED for s in league.sessions.all()}
    )
    ema_player("Bea", "04010002")
    ema_ranking_recompute(on=dt.date(2026, 6, 1))
    return ana, zoe, league


def test_search_by_folded_name_or_ema_number_and_the_players_page(client, ana):
    player, _, _ = ana
    html = client.get("/players/", {"q": "ana odegard"}).content.decode()
    assert f"/players/{player.pk}/" in html and "Ána Ødegård" in html
    assert f"/players/{player.pk}/" in client.get("/players/", {"q": "04010001"}).content.decode()
    page = client.get(f"/players/{player.pk}/")
    assert page.status_code == 200
    html = page.content.decode()
    assert "Open 2026" in html and "3 of 8" in html and ">714<" in html  # 1000 × 5/7, rounded
    assert "Club League" not in html  # private: not for the public
    assert "/t/open-2026/p/" in html


def test_private_tournaments_and_their_players_never_show(client, ana, make_user):
    player, zoe, league = ana
    assert "Zoë" not in client.get("/players/", {"q": "zoe"}).content.decode()
    assert client.get(f"/players/{zoe.pk}/").status_code == 404
    assert client.get(f"/api/player-records/{zoe.pk}/").status_code == 404
    assert client.get("/api/player-records/", {"q": "hidden"}).json() == []
    body = client.get(f"/api/player-records/{player.pk}/").json()
    assert [t["slug"] for t in body["tournaments"]] == ["open-2026"]
    assert body["tournaments"][0]["place"] == 3 and body["tournaments"][0]["base_rank"] == 714
    # the league's director sees it, and Zoë
    director = make_user("league-director")
    tservices.role_grant(tournament=league, user=director, role=Role.DIRECTOR)
    client.force_login(director)
    assert "Club League" in client.get(f"/players/{player.pk}/").content.decode()
    assert client.get(f"/players/{zoe.pk}/").status_code == 200


def test_the_players_page_in_spanish(client, ana):
    player, _, _ = ana
    html = client.get(f"/players/{player.pk}/", HTTP_ACCEPT_LANGUAGE="es").content.decode()
    assert "Torneos jugados aquí" in html and "3 de 8" in html
    html = client.get("/players/", {"q": "nadie"}, HTTP_ACCEPT_LANGUAGE="es").content.decode()
    assert "Nadie con ese nombre juega aquí." in html
