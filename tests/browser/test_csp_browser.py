"""Every page under the Content-Security-Policy, in headless Chromium on a phone screen: no violation in
the console, and what the pages do with scripts still works (htmx swaps, the search filters, the language
menu, the print button's page, the API documentation). Screenshots go to test-artifacts/."""

from __future__ import annotations

import time

import pytest

from rankings.backups.services import backup_write
from scoring.services import Actor, totals_set
from tests.browser.chromium import ARTIFACTS, start, wait_for
from tests.rankings.test_standings_pages import seat
from tournaments.models import Role

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def browser(tmp_path):
    driver = start(tmp_path / "profile", console_log=True)
    yield driver
    driver.quit()


def violations(driver) -> list[str]:
    return [
        entry["message"]
        for entry in driver.get_log("browser")
        if "Content Security Policy" in entry["message"] or "Refused to" in entry["message"]
    ]


def visit(driver, url: str, shot: str | None = None) -> None:
    driver.get(url)
    wait_for(lambda: driver.execute_script("return document.readyState") == "complete", f"{url} to load")
    time.sleep(0.3)  # deferred scripts run and report
    if shot:
        driver.save_screenshot(str(ARTIFACTS / f"csp-{shot}.png"))


def test_every_page_works_under_the_policy(browser, live_server, make_tournament, make_user):
    director = make_user("csp-director", is_staff=True, is_superuser=True)
    tournament = make_tournament(slug="csp-open", ruleset="ema-riichi-2016", director=director, players=8)
    tables = seat(tournament, 1, [["p1", "p2", "p3", "p4"], ["p5", "p6", "p7", "p8"]])
    totals_set(
        table=tables[1],
        scores=[40000, 30000, 30000, 20000],
        actor=Actor(user=director, role=Role.DIRECTOR),
        expected_version=None,
    )
    backup_write(tournament=tournament)
    base = live_server.url
    visit(browser, f"{base}/accounts/login/")
    browser.find_element("name", "username").send_keys("csp-director")
    browser.find_element("name", "password").send_keys("pw-for-tests-123")
    browser.find_element("css selector", "form [type=submit]").click()
    wait_for(lambda: "/accounts/login/" not in browser.current_url, "the login")

    slug = tournament.slug
    pages = {
        "home": "/",
        "tournament": f"/t/{slug}/",
        "players": f"/t/{slug}/players/",
        "standings": f"/t/{slug}/standings/",
        "player": f"/t/{slug}/p/p1/",
        "session": f"/t/{slug}/s/1/",
        "session-tables": f"/t/{slug}/s/1/tables/",
        "dashboard": f"/t/{slug}/director/",
        "seating": f"/t/{slug}/seating/",
        "print-tables": f"/t/{slug}/seating/print/tables/",
        "print-cards": f"/t/{slug}/seating/print/cards/",
        "penalties": f"/t/{slug}/penalties/",
        "archive": f"/t/{slug}/director/archive/",
        "exports": f"/t/{slug}/director/exports/",
        "backups": f"/t/{slug}/director/backups/",
        "api-docs": "/api/docs/",
    }
    seen = {}
    for name, path in pages.items():
        visit(browser, base + path, name)
        seen[name] = violations(browser)
    assert {name: found for name, found in seen.items() if found} == {}

    # The players' search filters with the shared script (no inline handler).
    visit(browser, f"{base}/t/{slug}/players/")
    search = browser.find_element("css selector", "input[data-filter]")
    search.send_keys("Player3 ")
    search.send_keys("\b")
    shown = browser.execute_script(
        "return [...document.querySelectorAll('#players tbody tr')].filter(r => !r.hidden).length"
    )
    assert shown == 1

    # htmx still swaps: 5 han on the riichi table page replaces the fu menu.
    visit(browser, f"{base}/t/{slug}/s/1/table/1/")
    from selenium.webdriver.support.ui import Select

    browser.find_element("css selector", "label[for=id_result_1]").click()  # tsumo
    Select(browser.find_element("id", "id_han")).select_by_value("5")
    wait_for(
        lambda: "No fu from 5 han up." in browser.find_element("id", "fu-wrap").get_attribute("innerHTML"),
        "the htmx swap",
    )
    browser.save_screenshot(str(ARTIFACTS / "csp-table-htmx.png"))

    # The language menu submits itself.
    visit(browser, f"{base}/t/{slug}/standings/")
    browser.execute_script(
        "const s = document.querySelector('select[data-autosubmit]'); s.value = 'es';"
        "s.dispatchEvent(new Event('change', {bubbles: true}));"
    )
    wait_for(lambda: browser.execute_script("return document.documentElement.lang") == "es", "Spanish")
    browser.save_screenshot(str(ARTIFACTS / "csp-standings-es.png"))
    assert violations(browser) == []
