"""The table entry pages as an installable web app: manifest, service worker, and what the page gives its
script (version, next hand, translated strings)."""

from __future__ import annotations

import json
import re

import pytest
from django.contrib.staticfiles import finders

from tests.scoring.test_pages_support import link_url, seat_session, table_url

pytestmark = pytest.mark.django_db


def test_both_table_pages_link_the_manifest_and_the_queue_script(client, tournament, referee):
    table = seat_session(tournament)[0]
    client.force_login(referee)
    for url in (table_url(table), link_url(table)):
        html = client.get(url).content.decode()
        assert f'rel="manifest" href="/entry.webmanifest?start={url}"' in html
        anchor = re.search(r'<div id="offline-entry"[^>]*>', html).group(0)
        assert f'data-page="{url}"' in anchor and 'data-version="1"' in anchor and 'data-next="1"' in anchor
        assert 'data-sw="/entry-sw.js"' in anchor and 'data-cache="entry-' in anchor
        assert "js/offline-entry.js" in html
        assert '<script src="/i18n/js/en.js">' in html  # the script's strings: the scripts' catalogue


def test_the_strings_are_translated(client, tournament):
    table = seat_session(tournament)[0]
    html = client.get(link_url(table), HTTP_ACCEPT_LANGUAGE="es").content.decode()
    assert '<script src="/i18n/js/es.js">' in html
    catalogue = client.get("/i18n/js/es.js").content.decode()
    assert (
        "%(n)s manos pendientes de env\\u00edo" in catalogue or "%(n)s manos pendientes de envío" in catalogue
    )
    assert "Otra persona cambi" in catalogue


def test_the_service_worker_covers_the_table_pages_from_the_root(client, tournament):
    response = client.get("/entry-sw.js")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("application/javascript")
    assert response["Service-Worker-Allowed"] == "/"
    assert response["Cache-Control"] == "no-cache"
    body = response.content.decode()
    for static in ("/static/vendor/pico-2.1.1.min.css", "/static/css/app.css", "/static/js/offline-entry.js"):
        assert static in body
    pattern = re.search(r"const TABLE_PAGE = new RegExp\((.*)\);", body).group(1)
    page = re.compile(json.loads(pattern))
    table = seat_session(tournament)[0]
    assert page.match(link_url(table)) and page.match(table_url(table))
    assert not page.match(link_url(table) + "hand/1/") and not page.match("/t/open-2026/standings/")
    assert client.post("/entry-sw.js").status_code == 405
    # a sign-in or sign-out on the phone forgets the page copies (the browser test proves it offline)
    paths = json.loads(re.search(r"const ACCOUNT_PATHS = (.*);", body).group(1))
    assert paths == [
        "/accounts/login/",
        "/accounts/logout/",
        "/admin/login/",
        "/admin/logout/",
        "/first-organiser/",
    ]
    link = re.compile(json.loads(re.search(r"const SIGN_IN_LINK = new RegExp\((.*)\);", body).group(1)))
    assert link.match("/welcome/MQ/abc-123/") and not link.match("/welcome/MQ/abc-123/x/")


def test_a_table_page_says_whose_copy_it_is_and_when_its_session_ends(client, tournament, referee):
    """The worker keeps these headers with its copy: another account's page, or the session's end,
    makes it forget the copy (tests/browser/test_offline_entry_browser.py)."""
    table = seat_session(tournament)[0]
    anonymous = client.get(link_url(table))
    assert anonymous["X-Offline-Account"] == "" and "X-Offline-Until" not in anonymous
    assert '<meta name="offline-account" content="">' in anonymous.content.decode()
    client.force_login(referee)
    signed_in = client.get(table_url(table))
    tag = signed_in["X-Offline-Account"]
    assert len(tag) == 20 and str(referee.pk) != tag
    assert f'<meta name="offline-account" content="{tag}">' in signed_in.content.decode()
    assert f'<meta name="offline-account" content="{tag}">' in client.get("/").content.decode()
    from django.contrib.sessions.models import Session

    ends = Session.objects.get(session_key=client.session.session_key).expire_date
    assert signed_in["X-Offline-Until"] == str(int(ends.timestamp() * 1000))


def test_the_manifest_starts_on_the_table_page_and_nowhere_else(client, tournament):
    table = seat_session(tournament)[0]
    manifest = client.get("/entry.webmanifest", {"start": link_url(table)})
    assert manifest["Content-Type"] == "application/manifest+json"
    data = manifest.json()
    assert data["start_url"] == link_url(table) and data["scope"] == "/" and data["display"] == "standalone"
    assert {i["sizes"] for i in data["icons"]} == {"192x192", "512x512"}
    for icon in data["icons"]:
        assert finders.find(icon["src"].removeprefix("/static/"))
    assert (
        client.get("/entry.webmanifest", {"start": "https://elsewhere.example/"}).json()["start_url"] == "/"
    )
    assert (
        client.get("/entry.webmanifest", HTTP_ACCEPT_LANGUAGE="es").json()["name"]
        == "Anotación de mesa de mahjong"
    )


def test_the_worker_precaches_every_file_the_table_page_uses(client, tournament):
    """A reload with no network after one visit gives the full, styled page: every stylesheet, script and
    icon the page links is in the worker's list."""
    table = seat_session(tournament)[0]
    html = client.get(link_url(table)).content.decode()
    linked = set(re.findall(r'(?:href|src)="(/static/[^"?]+)"', html))
    body = client.get("/entry-sw.js").content.decode()
    urls = set(json.loads(re.search(r"const STATIC_URLS = (.*);", body).group(1)))
    assert linked and linked <= urls, linked - urls
    anchor = re.search(r'<div id="offline-entry"[^>]*>', html).group(0)
    assert "data-precache" in anchor  # the private link's page goes into the cache on the first visit


def test_a_hand_saved_by_the_script_answers_with_what_changed_not_the_hand_form(client, tournament):
    table = seat_session(tournament)[0]
    page = client.get(link_url(table)).content.decode()
    key = re.search(r'name="idempotency_key" value="([^"]+)"', page).group(1)
    hand = {"action": "hand", "version": "1", "idempotency_key": key, "result": "win", "winner": "0"}
    hand |= {"discarder": "2", "fan": "8"}
    response = client.post(
        link_url(table), hand, follow=True, HTTP_X_ENTRY_FRAGMENTS="1", HTTP_ACCEPT_ENCODING="gzip"
    )
    assert response.status_code == 200
    assert response["Content-Encoding"] == "gzip"
    assert "X-Entry-Fragments" in response["Vary"]
    import gzip

    html = gzip.decompress(response.content).decode()
    assert html.startswith('<div id="entry-fragments">')
    assert "Hand 1 saved." in html
    assert 'data-version="2"' in html and 'data-next="2"' in html  # the page's script reads these
    assert 'data-heading="Hand 2"' in html and 'data-submit="Save hand 2"' in html
    assert "data-tile-picker" not in html and "<form" in html  # the hand form stays the phone's own
    assert "<html" not in html
    assert "main content" not in html and "{#" not in html  # template comments stay in the template
    full = client.get(link_url(table), HTTP_ACCEPT_ENCODING="gzip")
    assert full["Content-Encoding"] == "gzip"
    full_html = gzip.decompress(full.content).decode()
    assert "data-tile-picker" in full_html and "main content" not in full_html


def test_the_next_hand_saved_by_the_script_draws_the_new_hand_only(client, tournament):
    """A hand added on top of what the phone shows answers with the new hand's rows only, marked with how
    many hands the phone keeps after them: the answer does not grow with the table. The full page, and a
    write that is not a hand added, still draw every hand."""
    table = seat_session(tournament)[0]
    sizes = []
    for number in range(1, 5):
        hand = {"action": "hand", "version": str(number), "idempotency_key": f"k{number}", "result": "win"}
        hand |= {"winner": str(number % 4), "discarder": str((number + 1) % 4), "fan": str(8 + number)}
        html = client.post(link_url(table), hand, HTTP_X_ENTRY_FRAGMENTS="1").content.decode()
        rows = re.findall(r'<td rowspan="2" class="hn">(\d+)</td>', html)
        assert rows == [str(number)], rows
        kept = re.search(r"<tbody([^>]*)>", html).group(1)
        assert kept == ("" if number == 1 else f' data-rows-kept="{number - 1}"')  # no clock: no data-late
        sizes.append(len(html))
    assert sizes[3] - sizes[2] < 200  # constant but for the digits of the scores
    page = client.get(link_url(table)).content.decode()
    assert re.findall(r'<td rowspan="2" class="hn">(\d+)</td>', page) == ["4", "3", "2", "1"]
    assert "data-rows-kept" not in page
    undo = {"action": "undo", "version": "5", "idempotency_key": "u1"}
    html = client.post(link_url(table), undo, HTTP_X_ENTRY_FRAGMENTS="1").content.decode()
    assert re.findall(r'<td rowspan="2" class="hn">(\d+)</td>', html) == ["3", "2", "1"]
    assert "data-rows-kept" not in html


def closed_of(html: str) -> str:
    found = re.search(r'<div id="offline-entry"[^>]*?data-closed="([^"]*)"', html)
    return found.group(1) if found else ""


@pytest.mark.django_db
def test_a_table_that_takes_no_more_hands_tells_its_phone_why(client, tournament, referee, scorer):
    """The table page says, for the phone's queue, why it takes no more hands: nothing while it does, then
    that a referee confirmed it (in the reader's language); a hand sent to it then is refused in words."""
    from scoring import services
    from scoring.models import TableResult
    from scoring.services import Actor
    from tournaments.models import Role

    table = seat_session(tournament)[0]
    page = link_url(table)
    assert closed_of(client.get(page).content.decode()) == ""
    services.hand_add(
        table=table,
        hand={"result": "win", "winner": 0, "discarder": 2, "fan": 8},
        actor=Actor(user=referee, role=Role.REFEREE),
        expected_version=1,
    )
    services.result_confirm(
        table=table,
        actor=Actor(user=referee, role=Role.REFEREE),
        expected_version=TableResult.objects.get(table=table).version,
        short_reason="time",
    )
    said = closed_of(client.get(page).content.decode())
    assert said.startswith("A referee confirmed this table") and "show them to a referee" in said
    spanish = closed_of(client.get(page, headers={"Accept-Language": "es"}).content.decode())
    assert spanish.startswith("Un árbitro confirmó esta mesa")
    # a phone that had the page open sends its hand at the old version: the answer names what happened
    response = client.post(
        page, {"action": "hand", "version": 1, "result": "draw"}, headers={"X-Entry-Fragments": "1"}
    )
    assert response.status_code in (400, 409)
    html = response.content.decode()
    assert closed_of(html).startswith("A referee confirmed this table")
    if response.status_code == 409:
        assert "A referee confirmed this table while you were entering." in html
