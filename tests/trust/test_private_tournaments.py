"""A private tournament leaks nothing to anyone without a role in it: every page and every API read,
discovered from the URL resolver and the OpenAPI schema, is swept for its players' names, clubs and
EMA numbers."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from tests.trust.urlmap import api_operations, page_patterns
from tests.trust.world import MARKERS, build_world

pytestmark = pytest.mark.django_db

# Pages that belong to a key holder rather than to the tournament (the key is the permission).
KEY_PAGES = {"player-private", "table-link", "table-link-hand", "table-player-confirm"}


def page_kwargs(world, name: str, route: str) -> dict:
    values = {
        "slug": world.tournament.slug,
        "session": 1,
        "number": 1,
        "hand": 1,
        "key": "p1",
        "player_key": "p1",
        "pk": world.penalty.pk
        if "penalt" in name
        else world.registration.player_id  # a player of the private tournament only
        if name == "player-record"
        else world.job.pk,
        "kind": "late_arrival",
        "family": "mcr",
        "ema_id": "04000001",
        "fmt": "csv",
        "action": "advance",
        "team_id": 1,
        "uid": "MQ",
        "token": "not-a-token",
        "name": "no-such-backup.json",
    }
    return {k: values[k] for k in re.findall(r"<(?:\w+:)?(\w+)>", route)}


def api_kwargs(world, path: str) -> str:
    values = {
        "slug": world.tournament.slug,
        "tournament_slug": world.tournament.slug,
        "table_pk": world.table.pk,
        "number": 1,
        "family": "mcr",
        "ema_id": "04000001",
    }

    def value(match):
        name = match.group(1)
        if name in values:
            return str(values[name])
        if path.startswith(("/api/players/", "/api/player-records/")):
            return str(world.registration.player_id)
        if path.startswith("/api/registrations/"):
            return str(world.registration.pk)
        if path.startswith("/api/sessions/"):
            return str(world.session.pk)
        if path.startswith("/api/tables/"):
            return str(world.table.pk)
        if path.startswith("/api/seats/"):
            return str(world.table.seats.first().pk)
        if path.startswith("/api/penalties/"):
            return str(world.penalty.pk)
        if "/exports/" in path:
            return str(world.job.pk)
        return "1"

    return re.sub(r"\{(\w+)\}", value, path)


def outsiders(world):
    anonymous = APIClient()
    clients = {"anonymous": anonymous}
    for name in ("plain", "other_director"):
        client = APIClient()
        client.force_login(world.users[name])
        clients[name] = client
    return clients


def leaked(content: bytes, url: str = "") -> list[str]:
    """The markers found in an answer; the address asked for (echoed in the language switcher) is not a
    leak: the caller typed it."""
    text = content.decode("utf-8", "replace")
    if url:
        text = text.replace(url, "")
    return [m for m in MARKERS if m in text]


def test_no_page_shows_a_private_tournament_to_outsiders():
    world = build_world(public=False)
    pages = page_patterns()
    swept = 0
    for who, client in outsiders(world).items():
        for name, route in sorted(pages.items()):
            if name in KEY_PAGES:
                continue
            url = reverse(name, kwargs=page_kwargs(world, name, route))
            response = client.get(url)
            assert response.status_code < 500, (who, url, response.status_code)
            assert not leaked(response.content, url), (who, url, leaked(response.content, url))
            if "<slug:slug>" in route:
                assert response.status_code in (302, 403, 404, 405), (who, url, response.status_code)
            swept += 1
    assert swept >= 3 * 30


def test_no_api_read_shows_a_private_tournament_to_outsiders():
    world = build_world(public=False)
    reads = [path for method, path in api_operations() if method == "GET"]
    for who, client in outsiders(world).items():
        for path in reads:
            url = api_kwargs(world, path)
            for query in (
                "",
                "?search=Secretina",
                f"?tournament_slug={world.tournament.slug}",
                f"?tournament={world.tournament.slug}",
            ):
                response = client.get(url + query)
                assert response.status_code < 500, (who, url, response.status_code)
                assert not leaked(response.content), (who, url + query, leaked(response.content))


def test_every_page_answers_a_private_tournament_as_a_missing_one():
    """Outsiders learn nothing from the status either: every page of a tournament answers a private
    slug exactly as it answers a slug that does not exist (404, or the sign-in page for anonymous
    callers on pages that need an account)."""
    world = build_world(public=False)
    pages = page_patterns()
    differ = []
    swept = 0
    for who, client in outsiders(world).items():
        for name, route in sorted(pages.items()):
            if name in KEY_PAGES or "<slug:slug>" not in route:
                continue
            kwargs = page_kwargs(world, name, route)
            for method in ("get", "post"):
                private = getattr(client, method)(reverse(name, kwargs=kwargs))
                missing = getattr(client, method)(reverse(name, kwargs={**kwargs, "slug": "no-such-cup"}))
                if private.status_code != missing.status_code:
                    differ.append(f"{who} {method} {name}: {private.status_code} vs {missing.status_code}")
                swept += 1
    assert swept >= 3 * 2 * 30
    assert not differ, "a private tournament answers unlike a missing one:\n" + "\n".join(differ)


def test_the_same_pages_show_the_tournament_to_its_staff():
    """The sweep is not vacuous: with a role, the same pages show the players."""
    world = build_world(public=False)
    client = APIClient()
    client.force_login(world.users["referee"])
    for name in ("tournament-players", "standings", "session"):
        route = page_patterns()[name]
        response = client.get(reverse(name, kwargs=page_kwargs(world, name, route)))
        assert response.status_code == 200 and leaked(response.content), name
    response = client.get(f"/api/registrations/?tournament_slug={world.tournament.slug}")
    assert leaked(response.content)
