"""Headless Chromium on 390 × 844 phones: a table calls a referee ("Call a referee", a wrong claim), the call
reaches the queue pages of the two referees on duty, one of them says "on my way" from his phone, the
table's phone shows who is coming without a reload, the referee records a penalty from the call (a false Hu),
the penalty resolves the call, the table's phone shows how it ended, and the director's dashboard shows the
call with its waits, in English and in Spanish. Every page is axe-clean with 44 px targets; screenshots go
to test-artifacts/call-journey-*.png."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.test import Client
from selenium.webdriver.support.ui import Select

from penalties.models import Penalty
from scoring.models import RefereeCall
from tests.browser.chromium import ARTIFACTS, click, no_sideways_scroll, serious_violations, start, wait_for
from tests.scoring.test_referee_overview import publish
from tournaments import services as tournament_services
from tournaments.models import Role

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def login(driver, live_server, user, language: str = "en") -> None:
    client = Client()
    client.force_login(user)
    driver.get(f"{live_server.url}/")
    driver.delete_all_cookies()
    driver.add_cookie(
        {"name": settings.SESSION_COOKIE_NAME, "value": client.cookies[settings.SESSION_COOKIE_NAME].value}
    )
    driver.add_cookie({"name": "django_language", "value": language, "path": "/"})


def body(driver) -> str:
    return driver.execute_script("return document.body.innerText;")


def height(driver, css: str) -> float:
    return driver.execute_script(
        "return document.querySelector(arguments[0]).getBoundingClientRect().height;", css
    )


def small_targets(driver, scope: str) -> list[str]:
    """Links, buttons, summaries and fields in ``scope`` shorter than 44 px (what a thumb misses); a radio
    or a checkbox is measured with its label, which takes the tap."""
    return driver.execute_script(
        "return [...document.querySelectorAll(arguments[0])]"
        ".map(e => (e.type === 'radio' || e.type === 'checkbox') && e.closest('label') ? e.closest('label') : e)"
        ".filter(e => e.offsetParent !== null && e.getBoundingClientRect().height < 44)"
        ".map(e => e.tagName + ' ' + (e.id || e.name || e.textContent.trim().slice(0, 30)));",
        ", ".join(
            f"{scope} {what}"
            for what in ("a", "button", "summary", "select", "textarea", "input:not([type=hidden])")
        ),
    )


def map_row(driver, number: int) -> str:
    return driver.find_element("id", f"table-{number}").text


def clean(driver, what: str) -> None:
    assert serious_violations(driver) == [], what
    assert no_sideways_scroll(driver, body=False), what
    driver.save_screenshot(str(ARTIFACTS / f"call-journey-{what}-390.png"))


def test_a_table_calls_two_referees_one_comes_and_resolves_it_with_a_penalty(
    tmp_path, live_server, make_tournament, make_user
):
    director = make_user("director", first_name="Dora", last_name="Vidal")
    tournament = make_tournament("call-journey", director=director, players=8, sessions=1)
    regs = list(tournament.registrations.order_by("key"))
    tables = tournament_services.session_seat(
        session=tournament.sessions.get(number=1), tables=[regs[:4], regs[4:]]
    )
    publish(tournament, 1)
    ana = make_user("ana", first_name="Ana", last_name="Ruiz")
    bruno = make_user("bruno", first_name="Bruno", last_name="Keller")
    for referee in (ana, bruno):
        tournament_services.role_grant(tournament=tournament, user=referee, role=Role.REFEREE)
    table = tables[0]
    overview = f"{live_server.url}/t/{tournament.slug}/s/1/clock/"
    phone = start(tmp_path / "table")
    staff = start(tmp_path / "ana")
    try:
        login(staff, live_server, ana)
        staff.get(overview)
        assert not staff.find_elements("id", "referee-calls")

        # the table calls: a wrong claim
        phone.get(f"{live_server.url}/table/{table.private_key}/")
        click(phone, "#referee-call summary")
        click(phone, "#referee-call-form input[value='wrong_claim']")
        assert small_targets(phone, "#referee-call") == []
        clean(phone, "1-table-calls")
        click(phone, "#referee-call-form button[type=submit]")
        wait_for(lambda: "A referee has been called." in body(phone), "the call made")
        phone.execute_script("window.__same = true;")
        clean(phone, "2-table-waits")

        # both referees have it on their queue pages: Ana's overview without a reload, Bruno's page too
        calls = wait_for(lambda: staff.find_elements("id", "referee-calls"), "the call on Ana's overview")[0]
        assert "1 table calls a referee" in calls.text and "A wrong claim" in calls.text
        staff.execute_script("window.__same = true;")
        wait_for(lambda: "calls a referee" in map_row(staff, 1), "the call on the table map")
        assert "calls a referee" not in map_row(staff, 2)
        bruno_phone = Client()
        bruno_phone.force_login(bruno)
        assert (
            "1 table calls a referee" in bruno_phone.get(f"/t/{tournament.slug}/s/1/clock/").content.decode()
        )
        assert small_targets(staff, "#referee-calls") == []
        clean(staff, "3-referee-queue")

        # Ana goes: "on my way"
        assert staff.execute_script("return window.__same === true;")  # no reload
        click(staff, "#referee-calls a")
        wait_for(lambda: staff.find_elements("id", "call-acknowledge"), "the call's page")
        assert small_targets(staff, "main") == []
        clean(staff, "4-call-page")
        click(staff, "#call-acknowledge")
        wait_for(lambda: "The table sees that you are on your way." in body(staff), "on my way recorded")

        # the table's phone names her, without a reload
        wait_for(lambda: "On my way: Ana Ruiz" in body(phone), "on my way on the table's phone")
        assert phone.execute_script("return window.__same === true;")
        clean(phone, "5-table-on-my-way")

        # Bruno's overview (Ana's phone shows it too) names who went, on the list and on the table map
        assert "On my way: Ana Ruiz" in bruno_phone.get(f"/t/{tournament.slug}/s/1/clock/").content.decode()
        call_page = staff.current_url
        staff.get(overview)
        staff.execute_script("window.__same = true;")
        assert "On my way: Ana Ruiz" in map_row(staff, 1)
        staff.get(call_page)

        # she records a false Hu from the call's page, and is back on the call with it chosen
        click(staff, "#call-record-penalty")
        click(staff, ".call-penalty-kinds a[href*='/penalty/false_hu/']")
        wait_for(lambda: staff.find_elements("id", "penalty-for-call"), "the penalty form for the call")
        north = table.seats.get(position=3).registration
        Select(staff.find_element("css selector", "#record select[name=player]")).select_by_value(north.key)
        staff.find_element("css selector", "#record input[name=hand_number]").send_keys("1")
        click(staff, "#record input[name=variant][value=invalid_hand]")
        assert small_targets(staff, "#record") == []
        clean(staff, "6-penalty-for-the-call")
        click(staff, "#record button[type=submit]")
        wait_for(lambda: staff.find_elements("id", "call-resolve-button"), "back on the call")
        penalty = Penalty.objects.get(table=table)
        chosen = Select(staff.find_element("id", "call-penalty")).first_selected_option
        assert chosen.get_attribute("value") == str(penalty.pk)
        clean(staff, "7-call-with-the-penalty")
        click(staff, "#call-resolve-button")
        wait_for(lambda: staff.find_elements("id", "call-resolution"), "the call resolved")
        assert "Penalty recorded: False Hu" in body(staff)
        call = RefereeCall.objects.get(table=table)
        assert (call.status, call.penalty_id, call.acknowledged_name) == ("resolved", penalty.pk, "Ana Ruiz")

        # the table's phone shows how it ended
        wait_for(lambda: "Call resolved." in body(phone), "the resolution on the table's phone")
        assert "A penalty was recorded." in body(phone) and "By Ana Ruiz" in body(phone)
        assert phone.execute_script("return window.__same === true;")
        clean(phone, "8-table-resolved")

        # the director's dashboard, in English and in Spanish
        for language, title, line in (
            ("en", "Calls of a referee", "resolved after"),
            ("es", "Llamadas a un árbitro", "resuelta tras"),
        ):
            login(staff, live_server, director, language)
            staff.get(f"{live_server.url}/t/{tournament.slug}/director/")
            box = wait_for(lambda: staff.find_elements("id", "calls-resolved"), "the dashboard's calls")[0]
            assert title in box.text and line in box.text and "Ana Ruiz" in box.text
            assert small_targets(staff, "#calls-resolved") == []
            staff.execute_script("document.getElementById('calls-resolved').scrollIntoView();")
            clean(staff, f"9-dashboard-{language}")
    finally:
        phone.quit()
        staff.quit()
