"""Headless Chromium on a 390 × 844 phone: the "Notify me on this phone" panel of the private link's page
in English and Spanish (axe-clean, 44 px targets, nothing wider than the screen); where the browser cannot
push (an iPhone outside a home-screen app, notifications refused) the panel says why; and the site's
service worker, handed a push message through DevTools (``ServiceWorker.deliverPushMessage``), shows the
notification the product wrote, with the page a tap opens. Screenshots go to test-artifacts/ (push-*.png).

A tap on the notification cannot be made through DevTools (no command clicks a notification): the worker's
``notificationclick`` handler is not exercised here."""

from __future__ import annotations

import json

import pytest

from notifications import vapid
from notifications.messages import Notice, render
from tests.browser.chromium import ARTIFACTS, no_sideways_scroll, serious_violations, start, wait_for

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PAIR = vapid.new_pair()


@pytest.fixture
def keys(settings):
    settings.VAPID_PUBLIC_KEY, settings.VAPID_PRIVATE_KEY = PAIR


def heights(driver, css: str) -> list[float]:
    return driver.execute_script(
        "return Array.from(document.querySelectorAll(arguments[0])).filter(e => e.offsetParent)"
        ".map(e => e.getBoundingClientRect().height);",
        css,
    )


def check_page(driver, name: str) -> None:
    panel = driver.find_element("css selector", "[data-push-panel]")
    driver.execute_script("arguments[0].scrollIntoView({block: 'start'});", panel)
    assert no_sideways_scroll(driver, body=False)
    sizes = heights(driver, ".push-panel label.push-topic") + heights(driver, ".push-panel button")
    assert sizes and min(sizes) >= 44, sizes
    assert serious_violations(driver) == []
    driver.save_screenshot(str(ARTIFACTS / f"push-{name}-390.png"))


def test_the_panel_in_english_and_spanish_and_a_push_shown_by_the_worker(
    tmp_path, live_server, make_tournament, keys
):
    tournament = make_tournament("push-browser", players=8, sessions=1)
    player = tournament.registrations.get(key="p1").player
    page = f"{live_server.url}/me/{player.private_key}/"
    driver = start(tmp_path / "phone")
    try:
        driver.get(page)
        driver.execute_cdp_cmd(
            "Browser.grantPermissions", {"origin": live_server.url, "permissions": ["notifications"]}
        )
        wait_for(lambda: driver.find_element("css selector", "[data-push-status]").text, "the panel's state")
        assert "Notify me on this phone" in driver.find_element("css selector", ".push-panel h2").text
        assert driver.find_element("css selector", "[data-push-why]").get_attribute("hidden")
        check_page(driver, "en")

        driver.add_cookie({"name": "django_language", "value": "es", "path": "/"})
        driver.get(page)
        wait_for(lambda: driver.find_element("css selector", "[data-push-status]").text, "el estado")
        assert driver.find_element("css selector", ".push-panel h2").text == "Avisarme en este teléfono"
        check_page(driver, "es")

        # the site's worker (the one the panel registers) shows what the product sends
        driver.execute_cdp_cmd("ServiceWorker.enable", {})
        state = driver.execute_async_script(
            "const done = arguments[arguments.length - 1];"
            "navigator.serviceWorker.register(arguments[0], {scope: '/'})"
            ".then(() => navigator.serviceWorker.ready).then(r => done(r.active ? 'active' : 'none'))"
            ".catch(e => done('error ' + e));",
            "/entry-sw.js",
        )
        assert state == "active"
        facts = {"session": 1, "table": 3, "wind": 2, "opponents": ["Ana", "Bo", "Cy"]}
        notice = Notice("seat", facts, f"/me/{player.private_key}/")
        payload = render(notice, language="es", tournament=tournament.name).decode()
        for registration in range(
            30
        ):  # the worker's registration id is not exposed; a fresh profile's is low
            driver.execute_cdp_cmd(
                "ServiceWorker.deliverPushMessage",
                {"origin": live_server.url, "registrationId": str(registration), "data": payload},
            )
        shown = wait_for(
            lambda: driver.execute_async_script(
                "const done = arguments[arguments.length - 1];"
                "navigator.serviceWorker.ready.then(r => r.getNotifications())"
                ".then(n => done(n.map(x => ({title: x.title, body: x.body, tag: x.tag, url: x.data.url}))));"
            ),
            "the notification",
        )
        assert shown[0] == {
            "title": "Sesión 1: mesa 3, Oeste",
            "body": "Rivales: Ana, Bo, Cy.",
            "tag": "seat",
            "url": f"/me/{player.private_key}/",
        }
        assert json.loads(payload)["lang"] == "es"
    finally:
        driver.quit()


def test_the_panel_says_why_a_phone_cannot_be_notified(tmp_path, live_server, make_tournament, keys):
    tournament = make_tournament("push-why", players=4, sessions=1)
    page = f"{live_server.url}/me/{tournament.registrations.get(key='p1').player.private_key}/"
    driver = start(tmp_path / "iphone")
    try:
        # an iPhone's Safari outside a home-screen app: no push at all
        driver.execute_cdp_cmd(
            "Emulation.setUserAgentOverride",
            {
                "userAgent": "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 "
                "(KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1"
            },
        )
        driver.execute_cdp_cmd(
            "Page.addScriptToEvaluateOnNewDocument", {"source": "delete window.PushManager;"}
        )
        driver.get(page)
        why = wait_for(lambda: driver.find_element("css selector", "[data-push-why]").text, "the reason")
        assert "home screen" in why
        assert driver.find_element("css selector", "[data-push-subscribe]").get_attribute("disabled")
        check_page(driver, "iphone")
    finally:
        driver.quit()
    driver = start(tmp_path / "refused")
    try:
        driver.get(page)
        driver.execute_cdp_cmd(
            "Browser.setPermission",
            {"origin": live_server.url, "permission": {"name": "notifications"}, "setting": "denied"},
        )
        driver.get(page)
        why = wait_for(lambda: driver.find_element("css selector", "[data-push-why]").text, "the reason")
        assert "blocked" in why
        check_page(driver, "refused")
    finally:
        driver.quit()
