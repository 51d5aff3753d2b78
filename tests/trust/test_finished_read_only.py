"""A finished tournament is read-only until its director reopens it with a reason.

The write matrix (test_write_matrix.py) runs every write as the director after the finish; these tests
follow one director's day: after the finish a registration, a session, a table, a team and the rules are
refused (400 naming the status, in English and Spanish; the pages say so too), and the same writes go
through once the tournament is reopened with a reason.
"""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from tests.trust.world import World, build_world
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def world() -> World:
    world = build_world(prefix="fin-")
    Tournament.objects.filter(pk=world.tournament.pk).update(status=Tournament.Status.FINISHED)
    return world


def director(world: World) -> APIClient:
    client = APIClient()
    client.force_authenticate(world.users["director"])
    return client


def writes(world: World):
    slug = world.tournament.slug
    return [
        ("post", "/api/registrations/", {"tournament": world.tournament.pk, "player": world.lone_player.pk}),
        ("post", f"/api/tournaments/{slug}/console/players/", {"first_name": "Late", "last_name": "Comer"}),
        ("delete", f"/api/registrations/{world.spare_registration.pk}/", None),
        ("post", "/api/sessions/", {"tournament": world.tournament.pk, "number": 5}),
        ("patch", f"/api/sessions/{world.spare_session.pk}/", {"number": 7}),
        ("post", "/api/tables/", {"session": world.spare_session.pk, "number": 2}),
        ("patch", f"/api/tables/{world.table.pk}/", {"number": 9}),
        ("post", f"/api/tournaments/{slug}/teams/size/", {"team_size": 4}),
        ("patch", f"/api/tournaments/{slug}/", {"rules": {"min_fan": 10}}),
    ]


def test_every_change_is_refused_naming_the_status_until_a_reopening(world):
    client = director(world)
    players = world.tournament.registrations.count()
    for method, url, body in writes(world):
        response = getattr(client, method)(url, body, format="json")
        assert response.status_code == 400, (url, response.content)
        assert "status" in response.json(), (url, response.content)
    assert world.tournament.registrations.count() == players
    world.tournament.refresh_from_db()
    assert world.tournament.rules.get("min_fan") != 10

    response = client.post(
        f"/api/tournaments/{world.tournament.slug}/console/reopen/",
        {"reason": "a late appeal"},
        format="json",
    )
    assert response.status_code == 200, response.content
    for method, url, body in writes(world):
        if url.startswith("/api/tables/") and method == "patch":
            continue  # a confirmed table is renumbered only while nothing else holds the number
        response = getattr(client, method)(url, body, format="json")
        assert response.status_code < 300, (url, response.content)


def test_the_refusal_speaks_spanish(world):
    response = director(world).post(
        "/api/sessions/",
        {"tournament": world.tournament.pk, "number": 5},
        format="json",
        HTTP_ACCEPT_LANGUAGE="es",
    )
    assert response.status_code == 400
    assert "El torneo ha terminado" in response.json()["status"][0]


def test_a_page_says_why_and_links_to_the_console(world):
    client = Client()
    client.force_login(world.users["director"])
    response = client.post(reverse("console-session-add", args=[world.tournament.slug]))
    assert response.status_code == 400
    text = response.content.decode()
    assert "can only change after the director reopens it" in text
    assert reverse("console-home", args=[world.tournament.slug]) in text
    assert world.tournament.sessions.count() == 4
    response = client.post(
        reverse("console-session-add", args=[world.tournament.slug]), HTTP_ACCEPT_LANGUAGE="es"
    )
    assert "El torneo ha terminado" in response.content.decode()


def test_a_rules_change_through_the_api_rewrites_the_confirmed_tables_as_the_console_does():
    """One path for the rules: PATCH on the tournament recomputes the confirmed tables' rows, so the
    standings and the rules page agree (the console's rules form does the same, through the same service)."""
    from scoring.models import SeatSummary

    world = build_world(prefix="rules-")
    rows = SeatSummary.objects.filter(table=world.table).order_by("position")
    assert [r.table_points for r in rows] == [4, 2, 1, 0]
    response = director(world).patch(
        f"/api/tournaments/{world.tournament.slug}/", {"rules": {"table_points": [8, 4, 2, 0]}}, format="json"
    )
    assert response.status_code == 200, response.content
    assert [r.table_points for r in rows.all()] == [8, 4, 2, 0]
    # rules the ruleset refuses are refused, and the rows stay as they are
    response = director(world).patch(
        f"/api/tournaments/{world.tournament.slug}/", {"rules": {"table_points": [1, 2, 3, 4]}}, format="json"
    )
    assert response.status_code == 400 and "rules" in str(response.json())
    assert [r.table_points for r in rows.all()] == [8, 4, 2, 0]


def test_the_ruleset_changes_only_while_no_table_has_results():
    """Hands of one ruleset mean nothing under another: once a table has results the ruleset is refused
    (400 on ``ruleset``), through the API as through the console's form, and nothing changes."""
    world = build_world(prefix="rs-")
    slug = world.tournament.slug
    response = director(world).patch(f"/api/tournaments/{slug}/", {"ruleset": "wrc-riichi"}, format="json")
    assert response.status_code == 400 and "ruleset" in response.json(), response.content
    client = Client()
    client.force_login(world.users["director"])
    data = {
        "t-name": "Open Cup",
        "t-starts_on": "2026-05-01",
        "t-days": "1",
        "t-is_public": "on",
        "t-hide_last_sessions": "0",
    }
    data["t-ruleset"] = "wrc-riichi"
    response = client.post(reverse("console-edit", args=[slug]), data, HTTP_ACCEPT_LANGUAGE="es")
    assert "El reglamento no puede cambiar" in response.content.decode()
    world.tournament.refresh_from_db()
    assert world.tournament.ruleset == "mcr"
