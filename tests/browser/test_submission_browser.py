"""Headless Chromium: the EMA checks panel on the director's dashboard, the checks page and the observer's
report, on a 390 px phone and on a 1280 px desktop, without sideways scrolling. Screenshots go to
test-artifacts/ (ema-submission-*.png)."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.test import Client

from tests.browser.chromium import ARTIFACTS, no_sideways_scroll, start, wait_for
from tests.submission.builders import failing_tournament

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SIZES = {"phone": (390, 844, True), "desktop": (1280, 900, False)}


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


@pytest.mark.parametrize("size", list(SIZES))
def test_the_checks_panel_and_the_report_on_a_phone_and_a_desktop(size, tmp_path, live_server, director):
    width, height, mobile = SIZES[size]
    tournament = failing_tournament(director)
    driver = start(tmp_path / "profile", width, height, mobile=mobile)
    try:
        login(driver, live_server, director)
        driver.get(f"{live_server.url}/t/{tournament.slug}/director/")
        panel = wait_for(
            lambda: driver.find_elements("css selector", "#ema-checks .ema-checks > li"),
            "the EMA checks panel",
        )
        assert len(panel) == 12
        statuses = {li.get_attribute("id"): li.get_attribute("data-status") for li in panel}
        # the substitute who never played waits for an answer while the tournament runs; every other fails
        assert statuses.pop("check-substitutes") == "pending"
        assert set(statuses.values()) == {"fail"}
        first = driver.find_element("id", "check-schedule")
        assert "1 day(s) need at least 4 sessions; 2 are planned." in first.text
        assert "ERGMT §3.6" in first.text
        color = driver.execute_script("return getComputedStyle(arguments[0]).borderLeftColor;", first)
        assert color == "rgb(198, 40, 40)"  # red: not met
        driver.execute_script("document.getElementById('ema-checks').scrollIntoView();")
        driver.save_screenshot(str(ARTIFACTS / f"ema-submission-panel-{size}.png"))
        assert no_sideways_scroll(driver)

        driver.get(f"{live_server.url}/t/{tournament.slug}/ema-submission/")
        assert driver.find_element("css selector", ".ema-weight").text.startswith("1.5")
        preview = driver.find_element("css selector", "table.ema-preview tbody tr").text
        assert "Lars Odegard" in preview and "0.00 → 303.03" in preview
        driver.save_screenshot(str(ARTIFACTS / f"ema-submission-checks-{size}.png"))
        assert no_sideways_scroll(driver)
        right = driver.execute_script(
            "return document.querySelector('table.ema-preview').getBoundingClientRect().right;"
        )
        assert right <= width  # the preview's three columns fit, with no scrolling inside the table
        driver.execute_script("document.getElementById('weight').scrollIntoView();")
        driver.save_screenshot(str(ARTIFACTS / f"ema-submission-weight-{size}.png"))

        driver.get(f"{live_server.url}/t/{tournament.slug}/ema-submission/report/")
        report = driver.find_element("id", "report").text
        assert "Marta Garcia: Referee decision. Showed tiles to a neighbour" in report
        driver.find_element("id", "id_observer").send_keys("Ingrid Ødegaard")
        driver.find_element("id", "id_referees_playing").send_keys("Núria Árbitra")
        driver.find_element("css selector", "#observer-form button[type=submit]").click()
        wait_for(lambda: _report_says(driver, "Ingrid Ødegaard"), "the saved observer")
        assert "Núria Árbitra: playing" in driver.find_element("id", "report").text
        driver.save_screenshot(str(ARTIFACTS / f"ema-submission-report-{size}.png"))
        assert no_sideways_scroll(driver)
        client = Client()
        client.force_login(director)
        pdf = client.get(f"/t/{tournament.slug}/ema-submission/report.pdf")
        assert pdf["Content-Type"] == "application/pdf"
        (ARTIFACTS / "ema-observer-report.pdf").write_bytes(pdf.content)

        driver.get(f"{live_server.url}/t/{tournament.slug}/director/")
        observer = wait_for(lambda: driver.find_elements("id", "check-observer"), "the panel again")[0]
        assert observer.get_attribute("data-status") == "ok"  # the panel turns green item by item
    finally:
        driver.quit()


def _report_says(driver, text: str) -> bool:
    """Whether the report shows ``text``; False while the page is being replaced (no report yet, or the
    element found belongs to the page that is going)."""
    from selenium.common.exceptions import StaleElementReferenceException

    try:
        return any(text in e.text for e in driver.find_elements("id", "report"))
    except StaleElementReferenceException:
        return False
