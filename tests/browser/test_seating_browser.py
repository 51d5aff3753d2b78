"""Headless Chromium on a 390 × 844 phone: a director's seating page after planning 32 players of four
countries over 10 sessions, the most they can play without a repeat. The quality report says nobody
meets twice and that the compatriot meetings left are the least possible. Screenshot in
test-artifacts/."""

from __future__ import annotations

import pytest

from tests.browser.chromium import ARTIFACTS, no_sideways_scroll, start, wait_for
from tournaments.seating.selectors import SCHEDULE
from tournaments.seating.services import seating_generate

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def browser(tmp_path):
    driver = start(tmp_path / "profile")  # a 390 x 844 phone
    yield driver
    driver.quit()


def test_quality_report_of_a_repeat_free_ten_session_plan_on_a_phone(
    browser,
    live_server,
    client,
    make_tournament,
    director,
):
    tournament = make_tournament("golf-32", director=director, sessions=10, players=32)
    seating_generate(
        tournament=tournament, sessions=list(tournament.sessions.order_by("number")), strategy=SCHEDULE
    )
    client.force_login(director)
    browser.get(f"{live_server.url}/")
    browser.add_cookie({"name": "sessionid", "value": client.cookies["sessionid"].value, "path": "/"})
    browser.get(f"{live_server.url}/t/{tournament.slug}/seating/")
    report = wait_for(lambda: browser.find_elements("id", "quality"), "the quality report")[0]
    text = report.text
    assert "nobody meets twice" in text
    # Four countries of eight: each player meets 6 of their 7 compatriots at the least.
    least = report.find_element("css selector", "[data-metric='same_country_least']")
    assert least.text == "the least possible" and least.get_attribute("data-least") == "96"
    assert report.find_element("css selector", "[data-metric='same_country_meetings']").text == "96"
    assert no_sideways_scroll(browser)
    browser.execute_script("document.getElementById('quality').scrollIntoView()")
    browser.save_screenshot(str(ARTIFACTS / "seating-quality-390.png"))
