"""Headless Chromium on a 390 × 844 phone, in Spanish: the seating pages (the quality report's longer
labels and badges) and the pages around them fit 390 px with no sideways scroll, for a tournament of each
ruleset (the demo). The width is checked against the phone's 390 px: a mobile viewport widens itself to
content that is too wide, so comparing with the window's own width would never fail. Screenshots in
test-artifacts/."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from tests.browser.chromium import ARTIFACTS, start, wait_for
from tournaments.demo import DEMO_SLUG, MAYON_SLUG, RIICHI_SLUG, load_demo

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = 390
WIDER = """
const out = [];
for (const el of document.querySelectorAll('body *')) {
  const r = el.getBoundingClientRect();
  if (r.right > arguments[0] + 0.5 && getComputedStyle(el).position !== 'fixed') {
    out.push(el.tagName + '.' + el.className + ' ' + Math.round(r.right) + ' ' + (el.textContent || '').trim().slice(0, 40));
  }
}
return out.slice(0, 8);
"""
PAGES = ("seating/", "seating/settings/", "s/1/", "standings/", "director/", "console/", "p/p1/")


@pytest.fixture
def browser(tmp_path):
    driver = start(tmp_path / "profile", PHONE)
    yield driver
    driver.quit()


def test_the_spanish_seating_pages_fit_a_phone(browser, live_server, client):
    load_demo()
    client.force_login(get_user_model().objects.get(username="admin"))
    browser.get(f"{live_server.url}/")
    browser.add_cookie({"name": "sessionid", "value": client.cookies["sessionid"].value, "path": "/"})
    browser.add_cookie({"name": "django_language", "value": "es", "path": "/"})
    too_wide = []
    for slug in (DEMO_SLUG, RIICHI_SLUG, MAYON_SLUG):
        for page in PAGES:
            browser.get(f"{live_server.url}/t/{slug}/{page}")
            wait_for(lambda: browser.find_elements("tag name", "h1"), "the page")
            assert browser.find_element("tag name", "html").get_attribute("lang") == "es"
            width = browser.execute_script("return document.documentElement.scrollWidth")
            if width > PHONE:
                too_wide.append((slug, page, width, browser.execute_script(WIDER, PHONE)))
    browser.get(f"{live_server.url}/t/{RIICHI_SLUG}/seating/")
    browser.execute_script("document.getElementById('quality').scrollIntoView()")
    browser.save_screenshot(str(ARTIFACTS / "es-seating-quality-390.png"))
    assert too_wide == []
