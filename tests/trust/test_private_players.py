"""A private tournament's player stays private through every door that registers a player.

The tournament ``T`` of the world is private: its players (Secretina…, EMA numbers 0400000N) are seen
by its staff only. The director of another tournament tries to register one of them in his own
tournament by EMA number, by id, by name, through a CSV file, an archive and the EMA player list: each
is refused (400 naming the field, or the line and the field) and nothing of ``T``'s player changes: no
registration elsewhere, the same name, and his own director can still change him.
"""

from __future__ import annotations

import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from rankings.archive import archive_export
from tests.trust.world import World, build_world
from tournaments.models import EMAPlayer, Player, Registration
from tournaments.player_import import PlayerImportError, players_import_csv

pytestmark = pytest.mark.django_db

HIDDEN_EMA = "04000001"


@pytest.fixture
def world() -> World:
    return build_world(public=False, prefix="pp-")


def hidden(world: World) -> Player:
    return Player.objects.get(ema_id=HIDDEN_EMA)


def api(world: World, who: str = "other_director") -> APIClient:
    client = APIClient()
    client.force_authenticate(world.users[who])
    return client


def page(world: World, who: str = "other_director") -> Client:
    client = Client()
    client.force_login(world.users[who])
    return client


def assert_untouched(world: World) -> None:
    """The private player is where he was, as he was, and his own director still changes him."""
    player = hidden(world)
    assert list(Registration.objects.filter(player=player).values_list("tournament_id", flat=True)) == [
        world.tournament.pk
    ]
    assert (player.first_name, player.last_name) == ("Secretina1", "Vega")
    assert not world.other.registrations.filter(player__first_name__startswith="Secretina").exists()
    response = api(world, "director").patch(f"/api/players/{player.pk}/", {"club": "Own club"}, format="json")
    assert response.status_code == 200, response.content


def test_the_console_api_refuses_a_private_players_ema_number(world):
    response = api(world).post(
        f"/api/tournaments/{world.other.slug}/console/players/",
        {"first_name": "Any", "last_name": "Body", "ema_id": HIDDEN_EMA, "same_player": 0},
        format="json",
    )
    assert response.status_code == 400, response.content
    assert "ema_id" in response.json()
    assert b"Secretina" not in response.content
    assert_untouched(world)


def test_the_console_api_lists_no_private_player_as_a_possible_duplicate(world):
    """Neither the EMA number nor the name answers 409 with the private player's name."""
    for body in (
        {"first_name": "Any", "last_name": "Body", "ema_id": HIDDEN_EMA},
        {"first_name": "Secretina1", "last_name": "Vega"},
    ):
        response = api(world).post(
            f"/api/tournaments/{world.other.slug}/console/players/", body, format="json"
        )
        assert response.status_code in (201, 400), response.content
        assert b"04000001" not in response.content or response.status_code == 400
        assert b"possible_duplicates" not in response.content
    # the name alone made a new player, not the private one
    assert (
        world.other.registrations.filter(player__first_name="Secretina1")
        .exclude(player=hidden(world))
        .exists()
    )
    assert Registration.objects.filter(player=hidden(world)).count() == 1


def test_the_console_api_refuses_a_private_player_chosen_by_id(world):
    for choice in (hidden(world).pk, 10**6):  # hidden and missing: the same answer
        response = api(world).post(
            f"/api/tournaments/{world.other.slug}/console/players/",
            {"first_name": "Any", "last_name": "Body", "same_player": choice},
            format="json",
        )
        assert response.status_code == 400, response.content
        assert "same_player" in response.json()
        assert b"Secretina" not in response.content
    assert_untouched(world)


def test_the_console_page_refuses_a_private_players_ema_number(world):
    response = page(world).post(
        reverse("console-players", args=[world.other.slug]),
        {"first_name": "Any", "last_name": "Body", "ema_id": HIDDEN_EMA, "country": ""},
    )
    assert response.status_code == 400
    assert "ema_id" in response.context["form"].errors
    assert b"Secretina" not in response.content
    assert_untouched(world)


def test_the_console_page_in_spanish_says_why(world):
    response = page(world).post(
        reverse("console-players", args=[world.other.slug]),
        {"first_name": "Any", "last_name": "Body", "ema_id": HIDDEN_EMA, "country": ""},
        HTTP_ACCEPT_LANGUAGE="es",
    )
    assert response.status_code == 400
    assert "pertenece a un jugador" in " ".join(response.context["form"].errors["ema_id"])


def csv_file() -> SimpleUploadedFile:
    data = f"first_name,last_name,ema_id\nAny,Body,{HIDDEN_EMA}\nNew,Person,\n".encode()
    return SimpleUploadedFile("players.csv", data, "text/csv")


def test_the_csv_import_refuses_a_private_players_ema_number(world):
    response = api(world).post(
        f"/api/tournaments/{world.other.slug}/import-players/", {"file": csv_file()}, format="multipart"
    )
    assert response.status_code == 400, response.content
    assert "line 2, ema_id" in response.content.decode()
    assert not world.other.registrations.filter(player__first_name="New").exists()  # all or nothing
    assert_untouched(world)


def test_the_csv_import_page_refuses_a_private_players_ema_number(world):
    response = page(world).post(reverse("director-players", args=[world.other.slug]), {"file": csv_file()})
    assert response.status_code in (200, 400)
    assert "line 2, ema_id" in response.content.decode()
    assert_untouched(world)


def test_a_background_csv_import_refuses_as_its_requester(world, settings):
    from rankings.models import PlayerImportJob
    from rankings.player_jobs import player_import_job_run

    settings.PLAYER_IMPORT_INLINE_ROWS = 0
    response = api(world).post(
        f"/api/tournaments/{world.other.slug}/import-players/", {"file": csv_file()}, format="multipart"
    )
    assert response.status_code == 202, response.content
    job = player_import_job_run(job_id=PlayerImportJob.objects.get().pk)  # as the worker runs it
    assert job.status == PlayerImportJob.Status.FAILED
    assert any("line 2, ema_id" in fault for fault in job.faults)
    assert_untouched(world)


def test_the_operator_may_reuse_him(world):
    """The command line (no user) sees every player: reused."""
    data = f"first_name,ema_id\nX,{HIDDEN_EMA}\n"
    with pytest.raises(PlayerImportError):
        players_import_csv(tournament=world.other, data=data, user=world.users["other_director"])
    assert players_import_csv(tournament=world.other, data=data).reused == [hidden(world)]


def test_the_players_own_director_may_reuse_him(world):
    world.other.roles.create(user=world.users["director"], role="director")
    data = f"first_name,ema_id\nX,{HIDDEN_EMA}\n"
    report = players_import_csv(tournament=world.other, data=data, user=world.users["director"])
    assert report.reused == [hidden(world)]


def test_the_archive_import_refuses_a_private_players_ema_number(world):
    doc = archive_export(tournament=world.other)
    doc["players"][0]["ema_id"] = HIDDEN_EMA
    response = api(world).post("/api/archives/?replace=true", doc, format="json")
    assert response.status_code == 400, response.content
    assert response.json()["path"] == "players[0].ema_id"
    assert b"Secretina" not in response.content
    assert world.other.registrations.count() == 4  # the replaced tournament is as it was
    assert_untouched(world)


def test_the_archive_upload_page_refuses_a_private_players_ema_number(world):
    doc = archive_export(tournament=world.other)
    doc["players"][0]["ema_id"] = HIDDEN_EMA
    upload = SimpleUploadedFile("a.json", json.dumps(doc).encode(), "application/json")
    response = page(world).post(
        reverse("director-archive", args=[world.other.slug]), {"file": upload, "replace": "on"}
    )
    assert "players[0].ema_id" in response.content.decode()
    assert_untouched(world)


def test_the_ema_list_refuses_a_private_players_number(world):
    EMAPlayer.objects.create(ema_id=HIDDEN_EMA, first_name="Listed", last_name="Name", country="ESP")
    response = page(world).post(
        reverse("console-ema-register", args=[world.other.slug]), {"ema_id": HIDDEN_EMA}, follow=True
    )
    text = response.content.decode()
    assert HIDDEN_EMA in text and "belongs to a player of a tournament you cannot see" in text
    assert_untouched(world)


def test_a_public_tournaments_player_is_still_reused_by_ema_number():
    """What anyone may see is matched as before: one player, not a duplicate."""
    world = build_world(public=True, prefix="pq-")
    response = api(world).post(
        f"/api/tournaments/{world.other.slug}/console/players/",
        {"first_name": "Any", "last_name": "Body", "ema_id": HIDDEN_EMA, "same_player": 0},
        format="json",
    )
    assert response.status_code == 201, response.content
    assert response.json()["player"] == Player.objects.get(ema_id=HIDDEN_EMA).pk
