"""The public pages that keep themselves current (standings, a player's page and private link, a session)
ask /live/ whether their tournaments changed: 204 while not, the new value when they did; bounded input
refused with a 400 naming the field; a private tournament's stamp is never shown to outsiders; the notice
of old data is in English and Spanish."""

from __future__ import annotations

import json
import re

import pytest

from tests.rankings.test_standings_pages import confirm, seat

pytestmark = pytest.mark.django_db

PAGES = ("/t/open-2026/standings/", "/t/open-2026/p/p1/", "/t/open-2026/s/1/", "/t/open-2026/")


def live_of(html: str) -> tuple[str, str]:
    url = re.search(r'data-live-url="([^"]+)"', html).group(1).replace("&amp;", "&")
    stamp = re.search(r'data-live-stamp="([^"]*)"', html).group(1)
    return url, stamp


@pytest.mark.parametrize("path", PAGES)
def test_a_page_hears_of_a_confirmation_and_its_new_copy_shows_it(client, tournament, director, path):
    tables = seat(tournament, 1, [["p1", "p2", "p3", "p4"], ["p5", "p6", "p7", "p8"]])
    html = client.get(path).content.decode()
    url, stamp = live_of(html)
    assert url == "/live/?t=open-2026"
    assert "data-live-region" in html and "js/live-page.js" in html
    assert client.get(f"{url}&v={stamp}").status_code == 204  # nothing changed
    confirm(tables[0], [10, 5, -5, -10], director)
    answer = client.get(f"{url}&v={stamp}")
    assert answer.status_code == 200 and answer["Cache-Control"] == "no-store"
    new = answer.json()["v"]
    assert new != stamp
    page = client.get(path).content.decode()
    assert live_of(page)[1] == new  # the page fetched again carries the value it answers to
    assert client.get(f"{url}&v={new}").status_code == 204


def test_the_private_link_follows_every_tournament_of_its_player(client, make_tournament, director):
    first = make_tournament(slug="first-open", director=director)
    second = make_tournament(slug="second-open", director=director)
    player = first.registrations.get(key="p1").player
    from tournaments import services

    services.registration_create(tournament=second, player=player, key="px")
    html = client.get(f"/me/{player.private_key}/").content.decode()
    url, stamp = live_of(html)
    assert url == "/live/?t=second-open&t=first-open" or url == "/live/?t=first-open&t=second-open"
    assert client.get(f"{url}&v={stamp}").status_code == 204
    assert 'id="live-entries" data-live-region' in html


def test_a_private_tournament_shows_outsiders_no_stamp(client, make_tournament, director):
    make_tournament(slug="hidden-open", director=director, is_public=False)
    answer = client.get("/live/?t=hidden-open&t=no-such-open")
    assert answer.json() == {"v": "-.-"}  # the same as a tournament that does not exist
    client.force_login(director)
    assert client.get("/live/?t=hidden-open").json()["v"] != "-"


@pytest.mark.parametrize("query", ["", "?t=", "?" + "&".join(f"t=s{i}" for i in range(21)), "?t=" + "x" * 81])
def test_bad_questions_get_a_400_naming_the_field(client, query):
    answer = client.get(f"/live/{query}")
    if query == "?t=":
        assert answer.status_code == 200 and answer.json() == {"v": ""}
        return
    assert answer.status_code == 400 and "t" in answer.json()


def test_the_notice_of_old_data_in_spanish(client, tournament):
    """The notice is written by static/js/live-page.js with the scripts' catalogue of the page's language."""
    html = client.get("/t/open-2026/p/p1/", headers={"Accept-Language": "es"}).content.decode()
    assert '<script src="/i18n/js/es.js">' in html and 'id="live-notice"' in html
    script = client.get("/i18n/js/es.js").content.decode()
    start = script.index("const newcatalog = ") + len("const newcatalog = ")
    catalogue = json.loads(script[start : script.index("};", start) + 1])
    assert catalogue["No connection since %(time)s — showing what we had."] == (
        "Sin conexión desde %(time)s: se muestra lo que teníamos."
    )
    english = client.get("/t/open-2026/p/p1/", headers={"Accept-Language": "en"}).content.decode()
    assert '<script src="/i18n/js/en.js">' in english
