"""Every name search ignores case and accents, on SQLite and PostgreSQL alike: "Lucia" finds Lucía,
"FERNANDEZ" finds Fernández, "elodie" finds Élodie."""

from __future__ import annotations

import pytest

from tournaments import services
from tournaments.models import Player
from tournaments.search import fold, name_query


def test_folding_drops_case_accents_and_extra_spaces():
    assert fold("  Élodie   NÚÑEZ-Çelik ") == "elodie nunez-celik"
    assert fold("Lucía Fernández") == fold("LUCIA fernandez") == "lucia fernandez"
    assert name_query("   ") is None and name_query("\x00") is None


@pytest.fixture
def accented(make_tournament, director):
    tournament = make_tournament("accents", director=director, players=0, sessions=1)
    for key, first, last in [
        ("p1", "Lucía", "Fernández"),
        ("p2", "Élodie", "Nuñez"),
        ("p3", "Lucas", "Martin"),
    ]:
        player = services.player_create(first_name=first, last_name=last, country="ESP")
        services.registration_create(tournament=tournament, player=player, key=key)
    return tournament


@pytest.mark.parametrize(
    ("query", "found"),
    [
        ("Lucia", ["Lucía Fernández"]),
        ("fernandez", ["Lucía Fernández"]),
        ("ELODIE", ["Élodie Nuñez"]),
        ("nunez elo", ["Élodie Nuñez"]),
        ("luc", ["Lucas Martin", "Lucía Fernández"]),
        ("zzz", []),
    ],
)
def test_find_my_seat_ignores_case_and_accents(client, accented, query, found):
    page = client.get(f"/t/{accented.slug}/", {"name": query}, HTTP_HX_REQUEST="true")
    assert page.status_code == 200
    html = page.content.decode()
    for name in ["Lucía Fernández", "Élodie Nuñez", "Lucas Martin"]:
        assert (name in html) == (name in found), (query, name)


def test_the_players_api_search_ignores_accents(client, accented):
    names = {p["last_name"] for p in client.get("/api/players/", {"search": "fernandez"}).json()["results"]}
    assert names == {"Fernández"}


def test_a_renamed_player_is_found_by_the_new_name(accented):
    player = Player.objects.get(last_name="Martin")
    player.last_name = "Ibáñez"
    player.save(update_fields=["last_name"])
    assert Player.objects.filter(name_query("ibanez")).get() == player
