"""The table phone with a thumb, a keyboard and a screen reader, in headless Chromium: every state of the
score entry page (empty, with tiles, a value that differs from the tiles, a held hand, hands waiting with
no network, a conflict with another device, and each phase of the clock in the light and the dark colour
scheme), the referee's table page, the standings' ☆ and every public page of a tournament.

On each: axe-core finds no serious or critical violation (contrast of 4.5:1 included), nothing scrolls
sideways at 360 px, every control is at least 44 × 44 px, or is a link inside a sentence (WCAG 2.5.8's
inline exception: its height is the line's), and (on the entry page, with the tile picker, and the
referee's page) the keyboard's focus shows on every control. Screenshots of each entry state at 390 × 844 and 360 × 740 go
to test-artifacts/phone-<state>-<width>.png. One browser does it all, to keep the suite's time.

A riichi hand refused by the server is corrected in place: the form gets it back with its fu, the button
names that hand, and the server ends with the corrected hand in its place."""

from __future__ import annotations

import datetime as dt

import pytest
from django.conf import settings
from django.test import Client
from django.utils import timezone

from scoring import services as scoring
from scoring.models import TableResult
from scoring.services import Actor
from tests.browser.chromium import ARTIFACTS, serious_violations, start, wait_for
from tests.browser.netproxy import network
from tests.browser.test_entry_session_browser import (
    choose,
    mcr_tiles_hand,
    save,
    stored,
    table_for,
    tap,
    tiles_in_hand,
    win,
)
from tests.browser.test_offline_entry_browser import banner, queued
from tests.scoring.test_pages_support import link_url
from tournaments.clock import servertime
from tournaments.clock import services as clock
from tournaments.models import Role

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SIZES = ((390, 844), (360, 740))

# Every control a finger or a keyboard reaches; a radio button or a checkbox is measured by its label,
# the skip link while it has the focus (it is off screen until then).
TARGETS = """
const opened = [...document.querySelectorAll('details:not([open])')];
opened.forEach(d => { d.open = true; });
const skip = document.querySelector('.skip-link');
if (skip) skip.focus();
const name = el => (el.tagName.toLowerCase() + (el.id ? '#' + el.id : '')
  + (el.getAttribute('name') ? '[name=' + el.getAttribute('name') + ']' : '')
  + (el.className && typeof el.className === 'string' ? '.' + el.className.trim().split(/\\s+/).join('.') : '')
  + ' "' + (el.innerText || el.value || el.getAttribute('aria-label') || '').trim().slice(0, 24) + '"');
// WCAG 2.5.8, inline: a link in a sentence, whose height is that of the line of text around it
const inSentence = el => {
  if (el.tagName !== 'A' || el.closest('nav, table, .actions')) return false;
  const block = el.closest('p, li, dd');
  return !!block && block.innerText.replace(el.innerText, '').trim().length > 3;
};
const seen = new Set(), small = [], inline = [];
const selector = 'a[href], button, input:not([type=hidden]), select, textarea, summary, [role=button],'
  + ' [tabindex]:not([tabindex="-1"])';
for (const el of document.querySelectorAll(selector)) {
  if (!el.checkVisibility({visibilityProperty: true}) || el.closest('[hidden], [inert]')) continue;
  let target = el;
  if (el.matches('input[type=radio], input[type=checkbox]')) {
    target = el.closest('label') || (el.id && document.querySelector(`label[for="${el.id}"]`)) || el;
  }
  if (seen.has(target)) continue;
  seen.add(target);
  const r = target.getBoundingClientRect();
  if (r.width >= 44 && r.height >= 44) continue;
  if (inSentence(el)) inline.push(el.closest('p, li, dd').className + ' > ' + name(el));
  else small.push(name(target) + ' ' + Math.round(r.width) + 'x' + Math.round(r.height));
}
if (skip) skip.blur();
opened.forEach(d => { d.open = false; });
return [small, inline];
"""


# The focus shows on every control reached by the keyboard: an outline or Pico's ring (a box shadow).
# One real Tab first: the focus moved by a script afterwards is then a keyboard's focus (:focus-visible).
FOCUS = """
const unseen = [];
let checked = 0;
const selector = 'a[href], button, input:not([type=hidden]), select, textarea, summary';
for (const el of document.querySelectorAll(selector)) {
  if (!el.checkVisibility({visibilityProperty: true}) || el.closest('[hidden], [inert], details:not([open])')) continue;
  el.focus({preventScroll: true});
  if (document.activeElement !== el) continue;
  checked += 1;
  const cs = getComputedStyle(el);
  const outline = cs.outlineStyle !== 'none' && parseFloat(cs.outlineWidth) > 0;
  if (!el.matches(':focus-visible') || !(outline || cs.boxShadow !== 'none')) {
    unseen.push(el.tagName.toLowerCase() + (el.name ? '[name=' + el.name + ']' : '') + ' "'
      + (el.innerText || el.value || '').trim().slice(0, 24) + '"');
  }
}
document.activeElement.blur();
return checked ? unseen : ['nothing focusable'];
"""


def focus_unseen(driver) -> list[str]:
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.keys import Keys

    driver.execute_script("window.scrollTo(0, 0); document.activeElement.blur();")
    ActionChains(driver).send_keys(Keys.TAB).perform()
    return driver.execute_script(FOCUS)


def viewport(driver, width: int, height: int) -> None:
    driver.execute_cdp_cmd(
        "Emulation.setDeviceMetricsOverride",
        {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": True},
    )


def scheme(driver, value: str) -> None:
    """The light or the dark colour scheme, its transitions finished (no colour half-way for axe to read)."""
    driver.execute_cdp_cmd(
        "Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": value}]}
    )
    driver.execute_script(
        "getComputedStyle(document.body).color; document.getAnimations().forEach(a => a.finish());"
    )


def sideways(driver, width: int) -> bool:
    """Wider than the phone: a phone's browser zooms out to show it all, so the page is compared with the
    screen's width, not with the (zoomed out) window's."""
    return driver.execute_script(
        "return Math.max(document.documentElement.scrollWidth, window.innerWidth) > arguments[0];", width
    )


class Audit:
    """What is wrong, state by state: one list, so that one run shows every fault."""

    def __init__(self, driver):
        self.driver = driver
        self.faults: dict[str, list[str]] = {}
        self.inline: dict[str, list[str]] = {}

    def check(
        self,
        state: str,
        *,
        show: str | None = None,
        targets: bool = True,
        shots: bool = True,
        rules: tuple[str, ...] = (),
        focus: bool = False,
    ) -> None:
        """axe (every rule, or ``rules``), sideways scrolling and (with ``targets``) the controls' sizes at
        390 and 360 px, (with ``focus``) the focus shown on every control; a screenshot at each size,
        scrolled to ``show``."""
        driver, faults = self.driver, []
        found = serious_violations(driver, rules)
        faults += [f"axe {v}" for v in found]
        if focus:
            faults += [f"no visible focus on {e}" for e in focus_unseen(driver)]
        for width, height in SIZES:
            viewport(driver, width, height)
            if sideways(driver, width):
                faults.append(f"sideways scroll at {width} px")
            if targets:
                small, inline = driver.execute_script(TARGETS)
                faults += [f"{width} px: small {s}" for s in small]
                self.inline.setdefault(state, [])
                self.inline[state] += [i for i in inline if i not in self.inline[state]]
            if shots:
                if show:
                    driver.execute_script(
                        "const e = document.querySelector(arguments[0]);"
                        "if (e) e.scrollIntoView({block: 'start'}); else window.scrollTo(0, 0);",
                        show,
                    )
                else:
                    driver.execute_script("window.scrollTo(0, 0);")
                driver.save_screenshot(str(ARTIFACTS / f"phone-{state}-{width}.png"))
        viewport(driver, *SIZES[0])
        if faults:
            self.faults[state] = faults


class ShiftedNow:
    """The server's time: the real time moved by ``shift``, so that the clock reaches each phase."""

    def __init__(self):
        self.shift = dt.timedelta()

    def __call__(self) -> dt.datetime:
        return timezone.now() + self.shift


def login(driver, base: str, user) -> None:
    client = Client()
    client.force_login(user)
    driver.get(base + "/accounts/login/")
    driver.add_cookie(
        {
            "name": settings.SESSION_COOKIE_NAME,
            "value": client.cookies[settings.SESSION_COOKIE_NAME].value,
            "path": "/",
        }
    )


def phase(driver, page: str, expected: str) -> None:
    driver.get(page)
    wait_for(
        lambda: (
            driver.execute_script(
                "const c = document.getElementById('table-clock'); return c && c.dataset.phase + '/' + c.dataset.state;"
            )
            == expected
        ),
        f"the clock {expected}",
    )


def test_every_state_of_the_table_phone_and_every_public_page(
    tmp_path, proxy, make_tournament, director, make_user
):
    tournament, table = table_for(make_tournament, director, "phone-access")
    referee = make_user("phone-access-referee")
    from tournaments.services import role_grant

    role_grant(tournament=tournament, user=referee, role=Role.REFEREE)
    now = ShiftedNow()
    driver = start(tmp_path / "profile")
    audit = Audit(driver)
    try:
        with servertime.override(now):
            clock.clock_act(tournament=tournament, user=director, action="start", seconds=3600)
            driver.execute_cdp_cmd("Network.enable", {})
            page = proxy.url + link_url(table)
            proxy.drop_only = link_url(table)
            phase(driver, page, "normal/running")
            audit.check("empty-light", focus=True)
            scheme(driver, "dark")
            audit.check("empty-dark", targets=False, rules=("color-contrast",))
            scheme(driver, "light")

            mcr_tiles_hand(driver)
            audit.check("tiles", show="[data-tile-picker]", focus=True)
            driver.execute_script("document.querySelector('form.hand-form').fan.value = '20';")
            driver.execute_script(
                "document.querySelector('form.hand-form').fan.dispatchEvent(new Event('change', {bubbles: true}));"
            )
            wait_for(
                lambda: "will be held for a referee" in driver.find_element("id", "tile-value").text,
                "the value that differs from the tiles",
            )
            audit.check("mismatch", show="#tile-value")
            save(driver)
            wait_for(lambda: driver.find_elements("css selector", "#hands .held"), "the held hand")
            audit.check("held", show="#hands")

            network(driver, proxy, online=False)
            win(driver, winner="0", discarder="2", fan="8")
            save(driver)
            wait_for(lambda: "1 hand waiting to send" in banner(driver), "the queue")
            audit.check("offline-queue", show="#offline-banner")

            scoring.hand_add(
                table=table,
                hand={"result": "win", "winner": 3, "discarder": 1, "fan": 16},
                actor=Actor(user=referee, role=Role.REFEREE),
                expected_version=TableResult.objects.get(table=table).version,
            )
            network(driver, proxy, online=True)
            wait_for(lambda: driver.find_elements("id", "offline-conflict"), "the conflict")
            audit.check("conflict", show="#offline-conflict")
            # the queue's panel is drawn again as the script works: find and click in one try, again if the
            # button found was replaced before the click
            wait_for(
                lambda: (
                    driver.find_element("xpath", "//button[contains(., 'Add my hands after these')]").click()
                    or True
                ),
                "the click on 'Add my hands after these'",
            )
            wait_for(lambda: queued(driver) == 0 and not banner(driver), "the phone's hand sent")

            for state, advance, expected in (
                ("signal", 2900, "signal/running"),
                ("red", 500, "red/running"),
                ("paused", 0, "red/paused"),
                ("over", 400, "over/ended"),
            ):
                if state == "paused":
                    clock.clock_act(tournament=tournament, user=director, action="pause")
                elif state == "over":
                    clock.clock_act(tournament=tournament, user=director, action="resume")
                now.shift += dt.timedelta(seconds=advance)
                phase(driver, page, expected)
                audit.check(f"{state}-light", show="#table-clock")
                scheme(driver, "dark")  # the colours change, the controls do not
                audit.check(f"{state}-dark", show="#table-clock", targets=False, rules=("color-contrast",))
                scheme(driver, "light")

            # the referee's table page, every section open
            base = proxy.url
            login(driver, base, referee)
            driver.get(f"{base}/t/{tournament.slug}/s/1/table/1/")
            wait_for(lambda: driver.find_elements("css selector", "#hands"), "the referee's table page")
            audit.check("referee", show="#hands", focus=True)
            # the rules as the director sets them (the tournament's rules have no other page)
            login(driver, base, director)
            driver.get(f"{base}/t/{tournament.slug}/console/rules/")
            wait_for(lambda: driver.find_elements("id", "rules-form"), "the rules page")
            audit.check("rules", targets=False, shots=False)

            # the standings' ☆ and every public page
            driver.delete_all_cookies()
            slug = tournament.slug
            key = tournament.registrations.order_by("key").first().key
            driver.get(f"{base}/t/{slug}/standings/")
            wait_for(lambda: driver.find_elements("css selector", ".me-toggle"), "the ☆")
            stars = driver.execute_script(
                "return [...document.querySelectorAll('.me-toggle')].map(b => b.getBoundingClientRect())"
                ".filter(r => r.width < 44 || r.height < 44).map(r => r.width + 'x' + r.height);"
            )
            if stars:
                audit.faults["standings ☆"] = stars
            public = {
                "home": "/",
                "tournament": f"/t/{slug}/",
                "find-my-seat": f"/t/{slug}/?name=Player",
                "standings": f"/t/{slug}/standings/",
                "sessions": f"/t/{slug}/s/1/",
                "players": f"/t/{slug}/players/",
                "player": f"/t/{slug}/p/{key}/",
                "statistics": f"/t/{slug}/statistics/",
                "clock": f"/t/{slug}/clock/",
                "session-clock": f"/t/{slug}/s/1/clock/",
                "venue-screen": f"/t/{slug}/screen/",
            }
            for name, path in public.items():
                driver.get(base + path)
                wait_for(lambda: driver.execute_script("return document.readyState") == "complete", path)
                audit.check(f"public-{name}", targets=False, shots=name == "standings")
    finally:
        driver.quit()
    assert audit.faults == {}
    # the only control under 44 px is a link in a sentence: the referee's copy of the table's private link
    inline = [
        (state, found.split(" > ")[0]) for state, all_found in audit.inline.items() for found in all_found
    ]
    assert inline == [("referee", "copy muted no-print")]


def ron(driver, *, winner: str, loser: str, han: str, fu: str) -> None:
    """A riichi ron: the fu select is redrawn for the han chosen before the fu is set."""
    driver.find_element("css selector", "form.hand-form input[name=result][value=ron]").click()
    choose(driver, "winner", winner)
    choose(driver, "loser", loser)
    choose(driver, "han", han)
    # the fu select is drawn again by the server (htmx) after each change: the fu is chosen once no
    # request is in flight, so that no late redraw takes it away
    wait_for(
        lambda: driver.execute_script(
            "const s = document.querySelector('form.hand-form select[name=fu]');"
            "return !document.querySelector('form.hand-form .htmx-request') && !!s"
            " && [...s.options].some(o => o.value === arguments[0]);",
            fu,
        ),
        f"the fu select for {han} han",
    )
    choose(driver, "fu", fu)
    assert (
        driver.execute_script("return document.querySelector('form.hand-form select[name=fu]').value;") == fu
    )


def test_correcting_a_refused_riichi_hand_keeps_its_fu_and_names_the_hand(
    browser, proxy, make_tournament, director
):
    """Hand 2 of three is refused by the server (its winner is also its loser): "Correct this hand" puts
    it back in the form with its han and fu, the button names hand 2, and the corrected hand is stored as
    hand 2 with hand 3 after it; the picker still works."""
    _, table = table_for(make_tournament, director, "phone-correct", ruleset="ema-riichi-2025")
    page = link_url(table)
    browser.get(proxy.url + page)
    proxy.drop_only = page
    ron(browser, winner="0", loser="2", han="2", fu="30")
    save(browser)
    # the phone has the server's answer (hand 1 no longer kept, the form on hand 2) before the network
    # goes: cut while the answer is on its way, the phone would keep hand 1 to send again
    wait_for(
        lambda: (
            len(stored(table)) == 1
            and queued(browser) == 0
            and browser.execute_script(
                "const b = document.querySelector('form.hand-form button[type=submit]'); return b && b.innerText;"
            )
            == "Save hand 2"
        ),
        "hand 1 on the server and the phone on hand 2",
    )
    network(browser, proxy, online=False)
    ron(browser, winner="1", loser="1", han="3", fu="40")  # the winner cannot pay himself
    save(browser)
    wait_for(
        lambda: queued(browser) == 1 and "1 hand waiting to send" in banner(browser),
        "hand 2 kept on the phone",
    )
    ron(browser, winner="3", loser="0", han="1", fu="30")
    save(browser)
    wait_for(lambda: queued(browser) == 2, "hand 3 kept on the phone")
    network(browser, proxy, online=True)
    refused = wait_for(
        lambda: browser.find_elements("css selector", "#offline-hands li.refused"), "the refusal"
    )
    assert "Hand 2" in refused[0].text
    assert "No network" not in banner(browser)  # the network is back: the server said no
    assert queued(browser) == 2 and len(stored(table)) == 1
    audit = Audit(browser)  # the riichi form's controls too (han, fu, riichi sticks, a double ron)
    audit.check("riichi-refused", show="#offline-queue")
    browser.execute_script(  # in one script: the queue is drawn again under the test's feet
        "[...document.querySelectorAll('#offline-hands li.refused button')]"
        ".find(b => b.textContent.includes('Correct this hand')).click();"
    )

    form = "document.querySelector('form.hand-form')"
    wait_for(
        lambda: browser.execute_script(f"return {form}.querySelector('select[name=fu]')?.value;") == "40",
        "the fu field back, filled with 40",
    )
    assert browser.execute_script(f"return [{form}.winner.value, {form}.loser.value, {form}.han.value];") == [
        "1",
        "1",
        "3",
    ]
    assert browser.find_element("css selector", "form.hand-form button[type=submit]").text == (
        "Save the corrected hand 2"
    )
    assert browser.find_element("css selector", "#hand > h2").text == "Hand 2"
    audit.check("riichi-correcting", show="#hand", focus=True)
    assert audit.faults == {}

    choose(browser, "loser", "2")
    save(browser)
    wait_for(lambda: queued(browser) == 0 and len(stored(table)) == 3, "the corrected hand and hand 3")
    hands = stored(table)
    assert (hands[1]["loser"], hands[1]["winners"]) == (2, [{"player": 1, "han": 3, "fu": 40}])
    assert (hands[2]["loser"], hands[2]["winners"]) == (0, [{"player": 3, "han": 1, "fu": 30}])
    wait_for(
        lambda: (
            browser.find_element("css selector", "form.hand-form button[type=submit]").text == "Save hand 4"
        ),
        "the form on hand 4",
    )
    assert tiles_in_hand(browser) == 0
    tap(browser, "1m")
    assert tiles_in_hand(browser) == 1  # the picker still works
    browser.find_element("css selector", "[data-tp-hand] .tp-in").click()
    assert tiles_in_hand(browser) == 0
