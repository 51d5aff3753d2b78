"""Every public page (standings, session, player, clock, venue screen) is rendered once per publication
stamp and then served from the cache with no database query, compressed (Brotli or gzip) when the
client accepts it, 304 when the client's copy is current (its ETag); a
change to what it shows gives a new page at once."""

from __future__ import annotations

import gzip

import brotli
import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from rankings.standings.services import standings_refresh
from tests.clock.conftest import seat_session
from tests.rankings.test_standings_pages import confirm
from tournaments.models import Session

pytestmark = pytest.mark.django_db

PAGES = [
    "/t/open-2026/standings/",
    "/t/open-2026/s/1/",
    "/t/open-2026/p/p1/",
    "/t/open-2026/clock/",
    "/t/open-2026/screen/",
]


@pytest.fixture
def played(tournament, referee):
    tables = seat_session(tournament, 1)
    Session.objects.filter(tournament=tournament, number=1).update(seating_published=True)
    confirm(tables[0], [30, 10, -10, -30], referee)
    standings_refresh(tournament_id=tournament.pk)
    return tournament


@pytest.mark.parametrize("path", PAGES)
def test_second_visit_costs_no_query_and_is_gzipped(path, played):
    client = Client()
    first = client.get(path, HTTP_ACCEPT_ENCODING="gzip")
    assert first.status_code == 200
    with CaptureQueriesContext(connection) as queries:
        again = Client().get(path, HTTP_ACCEPT_ENCODING="gzip, deflate")
    assert again.status_code == 200
    assert len(queries) == 0, [q["sql"] for q in queries.captured_queries]
    assert again["Content-Encoding"] == "gzip"
    html = gzip.decompress(again.content).decode()
    assert "</html>" in html
    plain = Client().get(path)
    assert "Content-Encoding" not in plain and plain.content.decode() == html
    assert len(again.content) < len(plain.content)
    squeezed = Client().get(path, HTTP_ACCEPT_ENCODING="gzip, deflate, br")
    assert squeezed["Content-Encoding"] == "br"
    assert brotli.decompress(squeezed.content).decode() == html
    assert len(squeezed.content) < len(again.content)


@pytest.mark.parametrize("path", PAGES)
def test_a_reload_with_the_current_copy_gets_a_304_with_no_query(path, played):
    first = Client().get(path, HTTP_ACCEPT_ENCODING="gzip")
    tag = first["ETag"]
    assert tag.startswith('"') and not tag.startswith("W/")  # a strong validator
    with CaptureQueriesContext(connection) as queries:
        again = Client().get(path, HTTP_ACCEPT_ENCODING="gzip", HTTP_IF_NONE_MATCH=tag)
    assert again.status_code == 304 and again.content == b""
    assert again["ETag"] == tag
    assert len(queries) == 0, [q["sql"] for q in queries.captured_queries]
    # another encoding is other bytes: its own tag, and the gzip copy's tag does not stand for it
    plain = Client().get(path, HTTP_IF_NONE_MATCH=tag)
    assert plain.status_code == 200 and plain["ETag"] != tag


def test_a_copy_older_than_the_last_result_gets_the_new_page(played, referee):
    first = Client().get("/t/open-2026/standings/")
    tables = list(played.sessions.get(number=1).tables.order_by("number"))
    confirm(tables[1], [40, 0, 0, -40], referee)
    standings_refresh(tournament_id=played.pk)
    again = Client().get("/t/open-2026/standings/", HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 200
    assert again["ETag"] != first["ETag"] and again.content != first.content


def test_a_new_result_gives_a_new_standings_page(played, referee):
    client = Client()
    before = client.get("/t/open-2026/standings/").content.decode()
    assert 'data-player="p1"' in before
    tables = list(played.sessions.get(number=1).tables.order_by("number"))
    confirm(tables[1], [40, 0, 0, -40], referee)
    standings_refresh(tournament_id=played.pk)
    after = client.get("/t/open-2026/standings/")
    assert after["X-Page-Cache"] == "miss"
    assert after.content.decode() != before


def test_staff_get_their_own_page(played, director):
    client = Client()
    client.force_login(director)
    response = client.get("/t/open-2026/standings/")
    assert "X-Page-Cache" not in response
    assert "Director" in response.content.decode()


def test_private_tournament_pages_are_never_cached(make_tournament, director):
    make_tournament(slug="closed-cup", director=director, is_public=False)
    assert Client().get("/t/closed-cup/clock/").status_code == 404
    owner = Client()
    owner.force_login(director)
    assert owner.get("/t/closed-cup/clock/").status_code == 200
    assert Client().get("/t/closed-cup/clock/").status_code == 404


def test_cached_pages_fill_the_csrf_token_from_the_cookie(played):
    response = Client().get("/t/open-2026/standings/")
    html = response.content.decode()
    assert "js/csrf-fill.js" in html
    assert 'name="csrfmiddlewaretoken" value=""' in html
    assert response.cookies["csrftoken"].value
    # the language switch works with the cookie's token
    client = Client(enforce_csrf_checks=True)
    client.get("/t/open-2026/standings/")
    token = client.cookies["csrftoken"].value
    switched = client.post("/i18n/setlang/", {"language": "es", "next": "/", "csrfmiddlewaretoken": token})
    assert switched.status_code == 302


def test_with_the_stamp_memo_a_change_in_this_process_shows_at_once(played, director, settings):
    from tournaments.clock import services as clock

    settings.PUBLIC_STAMP_MEMO_SECONDS = 1
    client = Client()
    client.get("/t/open-2026/screen/")
    assert client.get("/t/open-2026/screen/")["X-Page-Cache"] == "hit"
    clock.announcement_add(tournament=played, user=director, text="Photo at 17:00")
    response = client.get("/t/open-2026/screen/")
    assert response["X-Page-Cache"] == "miss" and "Photo at 17:00" in response.content.decode()
