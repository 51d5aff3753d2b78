"""Malformed requests found by probing the API: each gets a 4xx that names the field and the rule."""

from __future__ import annotations

import pytest

from scoring.models import TableResult
from tournaments import services
from tournaments.models import Player, Registration, Seat, Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def seated(tournament):
    regs = {r.key: r for r in tournament.registrations.all()}
    return services.session_seat(
        session=tournament.sessions.get(number=1),
        tables=[[regs[k] for k in ("p1", "p2", "p3", "p4")], [regs[k] for k in ("p5", "p6", "p7", "p8")]],
    )


LISTS = ["tournaments", "players", "registrations", "sessions", "tables", "seats", "penalties"]


@pytest.mark.parametrize("name", LISTS)
@pytest.mark.parametrize("param", ["limit", "offset"])
def test_a_page_size_beyond_64_bits_is_refused_by_name(api, tournament, name, param):
    response = api.get(f"/api/{name}/", {param: str(2**70)})
    assert response.status_code == 400, response.content
    assert param in response.json()


@pytest.mark.parametrize("name", LISTS)
def test_a_nul_byte_in_a_filter_is_refused_by_name(api, tournament, name):
    response = api.get(f"/api/{name}/?search=%00&tournament_slug=a%00b")
    assert response.status_code == 400, response.content
    assert "search" in response.json()


def test_a_nul_byte_in_a_page_query_is_refused(client, tournament):
    response = client.get(f"/t/{tournament.slug}/players/?q=%00")
    assert response.status_code == 400


@pytest.mark.parametrize("name", ["registrations", "sessions", "tables", "seats", "tournaments", "players"])
def test_a_json_array_instead_of_an_object_is_refused(api_as, director, tournament, name):
    director.is_staff = True
    director.save()
    response = api_as(director).post(f"/api/{name}/", [{"tournament": tournament.pk}], format="json")
    assert response.status_code == 400, response.content
    assert "non_field_errors" in response.json()


@pytest.mark.parametrize("field", ["rules", "settings"])
def test_null_rules_or_settings_in_a_multipart_update_are_refused(api_as, director, tournament, field):
    response = api_as(director).patch(
        f"/api/tournaments/{tournament.slug}/", {field: "null"}, format="multipart"
    )
    assert response.status_code == 400, response.content
    assert field in response.json()
    tournament.refresh_from_db()
    assert tournament.rules == {} and tournament.settings == {}


@pytest.mark.parametrize("value", ["tiebreaks", ["a"], 3, {"tiebreaks": "points"}, {"tiebreaks": ["nope"]}])
def test_settings_that_are_not_an_object_of_known_values_are_refused(api_as, director, tournament, value):
    response = api_as(director).patch(
        f"/api/tournaments/{tournament.slug}/", {"settings": value}, format="json"
    )
    assert response.status_code == 400, response.content
    assert "settings" in response.json()
    tournament.refresh_from_db()
    assert tournament.settings == {}
    # the standings still compute
    assert api_as(director).get(f"/api/tournaments/{tournament.slug}/standings/").status_code == 200


def test_known_settings_are_kept(api_as, director, tournament):
    settings = {"tiebreaks": ["first_places"], "players_confirm": True}
    response = api_as(director).patch(
        f"/api/tournaments/{tournament.slug}/", {"settings": settings}, format="json"
    )
    assert response.status_code == 200, response.content
    tournament.refresh_from_db()
    assert tournament.settings == settings


def test_deleting_a_player_still_registered_is_a_conflict_naming_what_holds_it(api_as, director, tournament):
    player = tournament.registrations.get(key="p1").player
    director.is_staff = True
    director.save()
    response = api_as(director).delete(f"/api/players/{player.pk}/")
    assert response.status_code == 409, response.content
    assert "registration" in response.json()["detail"].lower()
    assert Player.objects.filter(pk=player.pk).exists()


def test_deleting_a_registration_held_by_results_is_a_conflict_naming_what_holds_it(api_as, director, seated):
    client = api_as(director)
    table = seated[0]
    version = client.get(f"/api/tables/{table.pk}/result/").json()["version"]
    response = client.put(
        f"/api/tables/{table.pk}/result/totals/",
        {"scores": [100, -20, -30, -50], "version": version},
        format="json",
    )
    assert response.status_code == 200, response.content
    registration = Registration.objects.get(tournament=seated[0].session.tournament, key="p1")
    response = client.delete(f"/api/registrations/{registration.pk}/")
    assert response.status_code == 409, response.content
    assert "results" in response.json()["detail"].lower()
    assert Registration.objects.filter(pk=registration.pk).exists()


def test_a_seated_registration_with_no_results_is_deleted_with_its_seat(api_as, director, seated):
    registration = Registration.objects.get(tournament=seated[0].session.tournament, key="p1")
    response = api_as(director).delete(f"/api/registrations/{registration.pk}/")
    assert response.status_code == 204, response.content
    assert not Registration.objects.filter(pk=registration.pk).exists()
    assert not Seat.objects.filter(registration_id=registration.pk).exists()


def test_deleting_a_tournament_with_results_is_a_conflict_naming_what_holds_it(
    api_as, director, tournament, seated
):
    client = api_as(director)
    table = seated[0]
    version = client.get(f"/api/tables/{table.pk}/result/").json()["version"]
    response = client.put(
        f"/api/tables/{table.pk}/result/totals/",
        {"scores": [100, -20, -30, -50], "version": version},
        format="json",
    )
    assert response.status_code == 200, response.content
    response = client.delete(f"/api/tournaments/{tournament.slug}/")
    assert response.status_code == 409, response.content
    assert response.json()["detail"]
    assert Tournament.objects.filter(pk=tournament.pk).exists()
    assert TableResult.objects.filter(table=table).exists()


def test_a_colliding_registration_key_is_refused_by_name(api_as, director, tournament):
    player = services.player_create(first_name="New", last_name="Comer")
    # the key the service would give next is taken by hand
    Registration.objects.filter(key="p8").update(key="p9")
    response = api_as(director).post(
        "/api/registrations/", {"tournament": tournament.pk, "player": player.pk, "key": "p9"}, format="json"
    )
    assert response.status_code == 400, response.content
    assert "key" in response.json()
    response = api_as(director).post(
        "/api/registrations/", {"tournament": tournament.pk, "player": player.pk}, format="json"
    )
    assert response.status_code == 201, response.content
    assert response.json()["key"] not in {"p9"}


def test_an_unexpected_failure_is_a_json_500_with_no_details(api, monkeypatch, tournament):
    from tournaments import api as tournaments_api

    def boom(self):
        raise RuntimeError("secret internals")

    monkeypatch.setattr(tournaments_api.TournamentViewSet, "get_queryset", boom)
    from rest_framework.test import APIClient

    client = APIClient(raise_request_exception=False)
    response = client.get("/api/tournaments/")
    assert response.status_code == 500
    assert response["Content-Type"].startswith("application/json")
    assert "secret" not in response.content.decode()
    assert response.json()["detail"]


def test_no_write_answers_5xx_to_a_body_of_the_wrong_json_type(api_as):
    """Every write operation of the schema, sent an array, a string, null or a number instead of an object."""
    import re

    from django.db import transaction

    from tests.trust.urlmap import api_operations
    from tests.trust.world import build_world

    world = build_world(prefix="wt-")
    client = api_as(world.users["director"])
    ids = {"table_pk": world.free_table.pk, "number": 1, "slug": world.tournament.slug}
    ids["tournament_slug"] = world.tournament.slug
    faults = []
    for method, path in api_operations():
        if method not in ("POST", "PUT", "PATCH"):
            continue
        url = re.sub(r"\{(\w+)\}", lambda m: str(ids.get(m.group(1), 1)), path)
        for body in ([{"tournament": world.tournament.pk}], "text", None, 7):
            with transaction.atomic():
                response = getattr(client, method.lower())(url, body, format="json")
                transaction.set_rollback(True)
            if response.status_code >= 500:
                faults.append(f"{method} {path} with {body!r}: {response.status_code}")
            elif response.status_code == 400 and not isinstance(response.json(), dict):
                faults.append(f"{method} {path} with {body!r}: 400 that is not an object")
    assert not faults, "\n".join(faults)
