"""Headless Chromium on a 390 × 844 phone: the team standings under the individual ones and the
director's team page render without sideways scrolling. Screenshots go to test-artifacts/."""

from __future__ import annotations

import pytest

from rankings.archive import archive_export, archive_import
from rankings.standings import services
from tests.archive.conftest import load
from tests.browser.chromium import ARTIFACTS, no_sideways_scroll, start, wait_for
from tournaments.models import Role
from tournaments.services import role_grant

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def browser(tmp_path):
    driver = start(tmp_path / "profile")  # a 390 x 844 phone
    yield driver
    driver.quit()


def _team_tournament():
    doc = load("mcr")
    doc["tournament"] = {**doc["tournament"], "team_size": 4}
    for p in doc["players"]:
        if p["key"] in ("p1", "p2", "p3", "p4"):
            p["team"] = "Dragones de Salamanca"
        elif p["key"] in ("p5", "p6", "p7", "p8"):
            p["team"] = "Tigres"
    doc["teams"] = [
        {"name": "Dragones de Salamanca", "country": "ESP", "club": "Club Mahjong Salamanca"},
        {"name": "Tigres", "country": "FRA", "club": ""},
    ]
    tournament = archive_import(document=doc)
    assert archive_export(tournament=tournament)["teams"] == doc["teams"]
    services.standings_recompute(tournament_id=tournament.pk)
    return tournament


def test_team_standings_and_team_page_on_a_phone(browser, live_server, client, make_user):
    tournament = _team_tournament()
    browser.get(f"{live_server.url}/t/{tournament.slug}/standings/")
    table = wait_for(lambda: browser.find_elements("id", "team-standings"), "the team standings")[0]
    rows = table.find_elements("css selector", "tbody tr")
    assert len(rows) == 2
    assert "Dragones de Salamanca" in table.text and "Tigres" in table.text
    assert no_sideways_scroll(browser)
    browser.execute_script("document.getElementById('teams').scrollIntoView()")
    browser.save_screenshot(str(ARTIFACTS / "team-standings-390.png"))

    director = make_user("team-director")
    role_grant(tournament=tournament, user=director, role=Role.DIRECTOR)
    client.force_login(director)
    cookie = client.cookies["sessionid"]
    browser.get(f"{live_server.url}/")
    browser.add_cookie({"name": "sessionid", "value": cookie.value, "path": "/"})
    browser.get(f"{live_server.url}/t/{tournament.slug}/teams/")
    wait_for(lambda: "Club Mahjong Salamanca" in browser.page_source, "the team page")
    assert no_sideways_scroll(browser)
    browser.save_screenshot(str(ARTIFACTS / "teams-page-390.png"))
