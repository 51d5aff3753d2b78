"""Headless Chromium on a 390 × 844 phone: a referee opens "Seats were wrong" on the table page of a table
with eight hands, says who really sat at each wind and why, and the page comes back with the corrected seats.
The form's controls are at least 44 px high, nothing scrolls sideways, axe-core finds nothing serious."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.test import Client
from selenium.webdriver.support.ui import Select

from tests.browser.chromium import ARTIFACTS, click, no_sideways_scroll, serious_violations, start, wait_for
from tests.scoring.test_pages_support import seat_session, table_url
from tests.scoring.test_seats_corrected import REAL, WHY, enter_mcr
from tournaments.models import Role, Seat
from tournaments.permissions import Actor

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def browser(tmp_path):
    driver = start(tmp_path / "profile")
    yield driver
    driver.quit()


def test_a_referee_corrects_the_seats_on_a_phone(browser, live_server, tournament, referee):
    table = seat_session(tournament)[0]
    enter_mcr(table, Actor(user=referee, role=Role.REFEREE))
    client = Client()
    client.force_login(referee)
    browser.get(live_server.url + "/accounts/login/")
    browser.add_cookie(
        {
            "name": settings.SESSION_COOKIE_NAME,
            "value": client.cookies[settings.SESSION_COOKIE_NAME].value,
            "path": "/",
        }
    )
    browser.get(live_server.url + table_url(table))
    click(browser, "#seats summary")
    wait_for(
        lambda: browser.find_element("css selector", "#seats select[name=seat0]").is_displayed(), "the form"
    )
    small = browser.execute_script(
        "return [...document.querySelectorAll('#seats summary, #seats select, #seats input:not([type=hidden]),"
        " #seats button')].map(e => e.getBoundingClientRect()).filter(r => r.height < 44).length;"
    )
    assert small == 0
    assert no_sideways_scroll(browser)
    assert serious_violations(browser) == []
    for i, key in enumerate(REAL):
        Select(browser.find_element("css selector", f"#seats select[name=seat{i}]")).select_by_value(key)
    browser.find_element("css selector", "#seats [name=reason]").send_keys(WHY)
    browser.execute_script("document.getElementById('seats').scrollIntoView({block: 'center'});")
    browser.save_screenshot(str(ARTIFACTS / "seats-390.png"))
    click(browser, "#seats button[type=submit]")
    wait_for(
        lambda: "the hands follow the players" in browser.execute_script("return document.body.innerText;"),
        "the correction saved",
    )
    assert [s.registration.key for s in Seat.objects.filter(table=table).order_by("position")] == REAL
