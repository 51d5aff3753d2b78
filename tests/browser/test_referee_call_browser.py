"""Headless Chromium on 390 × 844 phones: a table calls a referee from its page, the referee sees the call
first on the session's overview, says "on my way", and the table's phone shows it without a reload; the
referee resolves the call and the table's phone shows that too. A call made with no connection is kept on
the phone and made when the connection comes back. Screenshots go to test-artifacts/ (referee-call-*.png)."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.test import Client

from scoring.models import RefereeCall
from tests.browser.chromium import ARTIFACTS, no_sideways_scroll, serious_violations, start, wait_for
from tournaments import services as tournament_services
from tournaments.models import Role

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def login(driver, live_server, user) -> None:
    client = Client()
    client.force_login(user)
    driver.get(f"{live_server.url}/")
    driver.add_cookie(
        {
            "name": settings.SESSION_COOKIE_NAME,
            "value": client.cookies[settings.SESSION_COOKIE_NAME].value,
            "path": "/",
        }
    )


def body(driver) -> str:
    return driver.execute_script("return document.body.innerText;")


def tap(driver, css: str):
    element = driver.find_element("css selector", css)
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'});", element)
    element.click()
    return element


def height(driver, css: str) -> float:
    return driver.execute_script(
        "return document.querySelector(arguments[0]).getBoundingClientRect().height;", css
    )


def test_a_table_calls_a_referee_who_comes_and_resolves(tmp_path, live_server, make_tournament, make_user):
    director = make_user("director")
    tournament = make_tournament("call-browser", director=director, players=8, sessions=1)
    regs = list(tournament.registrations.order_by("key"))
    tables = tournament_services.session_seat(
        session=tournament.sessions.get(number=1), tables=[regs[:4], regs[4:]]
    )
    referee = make_user("ana", first_name="Ana", last_name="Ruiz")
    tournament_services.role_grant(tournament=tournament, user=referee, role=Role.REFEREE)
    table = tables[0]
    phone = start(tmp_path / "table")
    staff = start(tmp_path / "referee")
    try:
        # the referee watches the session's overview: no call yet
        login(staff, live_server, referee)
        staff.get(f"{live_server.url}/t/{tournament.slug}/s/1/clock/")
        assert not staff.find_elements("id", "referee-calls")
        staff.execute_script("window.__same = true;")

        # the table calls
        phone.get(f"{live_server.url}/table/{table.private_key}/")
        tap(phone, "#referee-call summary")
        assert height(phone, "#referee-call summary") >= 44
        assert all(
            label.size["height"] >= 44
            for label in phone.find_elements("css selector", "#referee-call-form label.check")
        )
        tap(phone, "#referee-call-form input[value='foul']")
        assert height(phone, "#referee-call-form button[type=submit]") >= 44
        assert no_sideways_scroll(phone, body=False)
        phone.save_screenshot(str(ARTIFACTS / "referee-call-form-390.png"))
        tap(phone, "#referee-call-form button[type=submit]")
        wait_for(lambda: "A referee has been called." in body(phone), "the call made")
        assert RefereeCall.objects.get(table=table).reason == "foul"
        assert serious_violations(phone) == []
        phone.save_screenshot(str(ARTIFACTS / "referee-call-open-390.png"))

        # the referee sees it first on the session's overview, without reloading it, and goes
        calls = wait_for(lambda: staff.find_elements("id", "referee-calls"), "the calls on the overview")[0]
        assert staff.execute_script("return window.__same === true;")
        assert "1 table calls a referee" in calls.text and "A foul" in calls.text
        assert serious_violations(staff) == []
        assert no_sideways_scroll(staff, body=False)
        staff.save_screenshot(str(ARTIFACTS / "referee-call-overview-390.png"))
        tap(staff, "#referee-calls a")
        wait_for(lambda: staff.find_elements("id", "call-acknowledge"), "the call's page")
        assert height(staff, "#call-acknowledge") >= 44
        assert height(staff, "#call-record-penalty") >= 44 and height(staff, "#call-correct-hand") >= 44
        assert serious_violations(staff) == []
        assert no_sideways_scroll(staff, body=False)
        tap(staff, "#call-acknowledge")
        wait_for(lambda: "The table sees that you are on your way." in body(staff), "on my way recorded")

        # the table phone shows it without being reloaded
        phone.execute_script("window.__same = true;")
        wait_for(lambda: "On my way: Ana Ruiz" in body(phone), "on my way on the table's phone")
        assert phone.execute_script("return window.__same === true;")
        phone.save_screenshot(str(ARTIFACTS / "referee-call-on-my-way-390.png"))

        # resolved with a note
        staff.find_element("id", "call-note").send_keys("The discard was legal; play on.")
        staff.save_screenshot(str(ARTIFACTS / "referee-call-resolve-390.png"))
        tap(staff, "#call-resolve-button")
        wait_for(lambda: staff.find_elements("id", "call-resolution"), "the call resolved")
        wait_for(lambda: "Call resolved." in body(phone), "the resolution on the table's phone")
        assert "The discard was legal; play on." in body(phone)
        assert phone.execute_script("return window.__same === true;")
        call = RefereeCall.objects.get(table=table)
        assert call.status == "resolved" and call.acknowledged_name == "Ana Ruiz"

        # with no connection the call is kept on the phone, and made when the connection comes back
        phone.execute_cdp_cmd("Network.enable", {})
        offline = {"offline": True, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1}
        phone.execute_cdp_cmd("Network.emulateNetworkConditions", offline)
        tap(phone, "#referee-call summary")
        tap(phone, "#referee-call-form input[value='question']")
        tap(phone, "#referee-call-form button[type=submit]")
        wait_for(lambda: "Your call is kept on this phone" in body(phone), "the call kept on the phone")
        assert RefereeCall.objects.filter(table=table).count() == 1
        phone.save_screenshot(str(ARTIFACTS / "referee-call-offline-390.png"))
        phone.execute_cdp_cmd("Network.emulateNetworkConditions", {**offline, "offline": False})
        wait_for(
            lambda: RefereeCall.objects.filter(table=table, status="open").exists(), "the kept call made"
        )
        wait_for(lambda: "A referee has been called." in body(phone), "the kept call shown as made")
        assert RefereeCall.objects.get(table=table, status="open").reason == "question"
    finally:
        phone.quit()
        staff.quit()
