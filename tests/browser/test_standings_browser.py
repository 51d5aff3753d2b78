"""Headless Chromium on a 360 × 740 phone screen: the standings and a player page render without
sideways scrolling, the search filters, a player marks themself, and the standings refresh by themselves
when another table is confirmed. Screenshots go to test-artifacts/."""

from __future__ import annotations

import pytest
from django.test import override_settings

from rankings.standings import services
from tests.browser.chromium import ARTIFACTS, no_sideways_scroll, start, wait_for
from tests.rankings.test_standings_pages import confirm, reg, seat
from tournaments import services as tservices

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def browser(tmp_path):
    driver = start(tmp_path / "profile", 360, 740)  # a phone's viewport
    yield driver
    driver.quit()


def cell(driver, key: str, column: int) -> str:
    return driver.execute_script(
        "const r = document.querySelector(`#standings tr[data-player='${arguments[0]}']`);"
        "return r ? r.cells[arguments[1]].textContent.trim() : null;",
        key,
        column,
    )


@override_settings(STANDINGS_POLL_SECONDS=2)
def test_standings_and_player_page_on_a_phone(browser, live_server, make_tournament, director):
    tournament = make_tournament(slug="phone-open", director=director, players=40, sessions=2)
    keys = [f"p{i}" for i in range(1, 41)]
    tables = seat(tournament, 1, [keys[i : i + 4] for i in range(0, 40, 4)])
    for n, table in enumerate(tables):
        confirm(table, [10 + n, 5, -5, -10 - n], director)
    services.standings_refresh(tournament_id=tournament.pk)

    browser.get(f"{live_server.url}/t/{tournament.slug}/standings/")
    assert browser.execute_script("return window.innerWidth;") == 360
    rows = browser.find_elements("css selector", "#standings tbody tr[data-player]")
    assert len(rows) == 40
    assert no_sideways_scroll(browser)
    assert cell(browser, "p1", 3) == "10"  # p1 won table 1 by 10 points
    browser.save_screenshot(str(ARTIFACTS / "standings-360.png"))

    # The search filters as you type.
    search = browser.find_element("id", "standings-search")
    search.send_keys("Player7 ")
    visible = browser.execute_script(
        "return [...document.querySelectorAll('#standings tbody tr')].filter(r => !r.hidden).length;"
    )
    assert visible == 1
    search.clear()
    browser.execute_script("document.getElementById('standings-search').dispatchEvent(new Event('input'));")

    # A player marks themself; the mark is kept for the next visit.
    browser.find_element("css selector", "#standings tr[data-player='p1'] .me-toggle").click()
    browser.refresh()
    marked = browser.find_elements("css selector", "#standings tr.me")
    assert [r.get_attribute("data-player") for r in marked] == ["p1"]

    # Another table is confirmed while the page is open: the row changes without a reload.
    token = browser.find_element("id", "standings-freshness").get_attribute("data-token")
    browser.execute_script("window.scrollTo(0, 400); window.notReloaded = true;")
    scrolled = browser.execute_script("return window.scrollY;")
    later = seat(tournament, 2, [keys[i : i + 4] for i in range(0, 40, 4)])
    confirm(later[0], [-30, 10, 10, 10], director)
    services.standings_recompute(tournament_id=tournament.pk)  # what the worker does (see test_worker.py)
    wait_for(lambda: cell(browser, "p1", 3) == "-20", "p1's new score on the open page")
    assert browser.execute_script("return window.notReloaded === true;")
    assert browser.execute_script("return window.scrollY;") == scrolled
    assert browser.find_element("css selector", "#standings tr.me").get_attribute("data-player") == "p1"
    freshness = browser.find_element("id", "standings-freshness")
    assert "Last updated at" in freshness.text
    assert freshness.get_attribute("data-token") != token  # the freshness line was swapped in too
    browser.save_screenshot(str(ARTIFACTS / "standings-refreshed-360.png"))

    browser.get(f"{live_server.url}/t/{tournament.slug}/p/p1/")
    assert "Session 1 · table 1" in browser.page_source
    assert "Your seat in session 2" in browser.page_source
    assert no_sideways_scroll(browser)
    browser.save_screenshot(str(ARTIFACTS / "player-360.png"))


@pytest.fixture
def phone390(tmp_path):
    driver = start(tmp_path / "profile390", 390, 844)
    yield driver
    driver.quit()


def test_a_withdrawn_player_leaves_the_numbers_on_a_phone_screen(
    phone390, live_server, make_tournament, director
):
    """The heading of the withdrawn players' rows is a sentence: it wraps, and the table keeps the width of
    the screen, so the points stay in sight."""
    tournament = make_tournament(slug="phone-withdrawn", director=director, players=8, sessions=2)
    tables = seat(tournament, 1, [["p1", "p2", "p3", "p4"], ["p5", "p6", "p7", "p8"]])
    confirm(tables[0], [10, 5, -5, -10], director)
    confirm(tables[1], [12, 4, -6, -10], director)
    tservices.registration_withdraw(registration=reg(tournament, "p8"), from_session=2)
    services.standings_refresh(tournament_id=tournament.pk)

    browser = phone390
    browser.get(f"{live_server.url}/t/{tournament.slug}/standings/")
    wait_for(lambda: browser.find_elements("id", "withdrawn-apart"), "the withdrawn players' heading")
    assert "Withdrawn: not ranked" in browser.find_element("id", "withdrawn-apart").text
    assert no_sideways_scroll(browser)
    width = browser.execute_script(
        "return [document.querySelector('table.standings').getBoundingClientRect().right,"
        " document.documentElement.clientWidth];"
    )
    assert width[0] <= width[1]  # the whole table is on the screen, its last column too
    assert cell(browser, "p5", 3) == "12"  # the points are read on the phone
    assert cell(browser, "p8", 0) == "—"  # the withdrawn player is not ranked
    browser.save_screenshot(str(ARTIFACTS / "standings-withdrawn-390.png"))
