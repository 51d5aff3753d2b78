"""Headless Chromium with the server's time injected: the clock page (1920 × 1080 and 390 × 844), the
venue screen and a table page count down, show the signal, the red zone and the end, a table's extra
time, a pause and its resumption, and keep counting through a network blip. Screenshots go to
test-artifacts/."""

from __future__ import annotations

import datetime as dt
import time

import pytest
from django.core.cache import cache
from django.test import override_settings
from django.utils import timezone

from tests.browser import chromium
from tests.browser.chromium import ARTIFACTS, start
from tournaments import lifecycle, pagecache
from tournaments import services as tservices
from tournaments.clock import servertime
from tournaments.clock import services as clock
from tournaments.models import Session

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WAIT_SECONDS = 30


class ShiftedNow:
    """The server's time: the real time moved by ``shift`` seconds, so it flows while the test waits."""

    def __init__(self):
        self.shift = dt.timedelta()

    def __call__(self) -> dt.datetime:
        return timezone.now() + self.shift

    def advance(self, seconds: float) -> None:
        self.shift += dt.timedelta(seconds=seconds)


@pytest.fixture
def server_time():
    fake = ShiftedNow()
    with servertime.override(fake):
        yield fake


@pytest.fixture
def chrome(tmp_path):
    driver = start(
        tmp_path / "profile", 1920, 1080, mobile=False, flags=("--autoplay-policy=no-user-gesture-required",)
    )
    yield driver
    driver.quit()


def screen(driver, width: int, height: int, mobile: bool = False) -> None:
    driver.execute_cdp_cmd(
        "Emulation.setDeviceMetricsOverride",
        {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": mobile},
    )


def wait_for(condition, what: str):
    return chromium.wait_for(condition, what, seconds=WAIT_SECONDS)


def attr(driver, selector: str, name: str) -> str | None:
    return driver.execute_script(
        "const e = document.querySelector(arguments[0]); return e ? e.getAttribute(arguments[1]) : null;",
        selector,
        name,
    )


def digits(driver, selector: str = "#clock .big") -> str:
    return driver.execute_script("return document.querySelector(arguments[0]).textContent.trim();", selector)


def seconds_of(text: str) -> int:
    parts = [int(p) for p in text.split(":")]
    total = 0
    for p in parts:
        total = total * 60 + p
    return total


def visible_message(driver, root: str = "#clock") -> str:
    return driver.execute_script(
        "return [...document.querySelectorAll(arguments[0] + ' [data-clock-show]')]"
        ".filter(e => !e.hidden).map(e => e.textContent.trim()).join(' ');",
        root,
    )


def near(text: str, expected: int, slack: int = 2) -> bool:
    return abs(seconds_of(text) - expected) <= slack


def server_left(tournament, table: int | None = None) -> int:
    """What the server says is left now (the session's time, or one table's)."""
    from tournaments.clock import selectors

    view = selectors.clock_view(selectors.build_document(tournament=tournament))
    if table is None:
        return view["remaining_seconds"]
    return next(t["remaining_seconds"] for t in view["tables"] if t["table"] == table)


@override_settings(CLOCK_POLL_SECONDS=1, PUBLIC_PAGE_CACHE_SECONDS=60)
def test_clock_venue_screen_and_table_page_with_an_injected_server_time(
    chrome, live_server, make_tournament, director, server_time, monkeypatch
):
    cache.clear()
    pagecache.local.clear()
    tournament = make_tournament(slug="clock-open", director=director, players=40, sessions=2)
    regs = list(tournament.registrations.order_by("id"))
    for number in (1, 2):
        session = tournament.sessions.get(number=number)
        order = regs if number == 1 else regs[1:] + regs[:1]
        tservices.session_seat(session=session, tables=[order[i : i + 4] for i in range(0, 40, 4)])
        session.seating_published = True
        session.save()
        lifecycle.session_move(session=session, to=Session.Status.SEATED)  # published: seated
    table1 = tournament.sessions.get(number=1).tables.get(number=1)
    table2 = tournament.sessions.get(number=1).tables.get(number=2)

    clock.clock_act(tournament=tournament, user=director, action="start", seconds=3600)

    # -- the clock page on a projector ---------------------------------------------------------
    screen(chrome, 1920, 1080)
    chrome.get(f"{live_server.url}/t/clock-open/clock/")
    wait_for(lambda: attr(chrome, "#clock", "data-state") == "running", "a running clock")
    assert near(digits(chrome), server_left(tournament))
    assert attr(chrome, "#clock", "data-phase") == "normal"
    assert attr(chrome, "#clock", "data-session") == "1"
    first = seconds_of(digits(chrome))
    wait_for(lambda: seconds_of(digits(chrome)) < first, "the countdown to move")
    assert chrome.execute_script("return window.innerWidth;") == 1920
    assert chrome.execute_script("return document.documentElement.scrollWidth <= window.innerWidth;")
    chrome.save_screenshot(str(ARTIFACTS / "clock-1920x1080.png"))

    # ten minutes left: the signal (15 minutes before the end, MCR's default)
    server_time.advance(3000)
    wait_for(lambda: attr(chrome, "#clock", "data-phase") == "signal", "the signal")
    assert near(digits(chrome), server_left(tournament))
    wait_for(lambda: "Signal" in visible_message(chrome), "the signal's message")
    chrome.save_screenshot(str(ARTIFACTS / "clock-signal-1920x1080.png"))

    # a pause: the digits stop, server time goes on; the resumed clock goes on from where it stopped
    clock.clock_act(tournament=tournament, user=director, action="pause")
    wait_for(lambda: attr(chrome, "#clock", "data-state") == "paused", "the pause")
    paused_at = seconds_of(digits(chrome))
    server_time.advance(900)
    time.sleep(2.5)  # two polls
    assert seconds_of(digits(chrome)) == paused_at
    wait_for(lambda: "Paused" in visible_message(chrome), "the pause's message")
    clock.clock_act(tournament=tournament, user=director, action="resume")
    wait_for(lambda: attr(chrome, "#clock", "data-state") == "running", "the resumed clock")
    assert abs(seconds_of(digits(chrome)) - paused_at) <= 3

    # the red zone, then a network blip: the page keeps counting and says it is offline
    server_time.advance(seconds_of(digits(chrome)) - 240)
    wait_for(lambda: attr(chrome, "#clock", "data-phase") == "red", "the red zone")
    chrome.execute_cdp_cmd("Network.enable", {})
    chrome.execute_cdp_cmd(
        "Network.emulateNetworkConditions",
        {"offline": True, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1},
    )
    wait_for(lambda: attr(chrome, "#clock", "data-offline") == "1", "the offline mark")
    before = seconds_of(digits(chrome))
    wait_for(lambda: seconds_of(digits(chrome)) <= before - 2, "counting while offline")
    chrome.execute_cdp_cmd(
        "Network.emulateNetworkConditions",
        {"offline": False, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1},
    )
    wait_for(lambda: attr(chrome, "#clock", "data-offline") is None, "back online")
    chrome.save_screenshot(str(ARTIFACTS / "clock-red-1920x1080.png"))

    # table 2 gets five more minutes; then the session's time is up
    clock.clock_act(tournament=tournament, user=director, action="extend", seconds=300, table=2)
    left = seconds_of(digits(chrome))
    server_time.advance(left + 2)
    wait_for(lambda: attr(chrome, "#clock", "data-phase") == "over", "the end")
    assert digits(chrome) == "0:00"
    assert attr(chrome, "#clock", "data-state") == "ended"
    # MCR: the Green Book §3.5.6, play stops at once and the hand in play scores nothing
    wait_for(
        lambda: (
            "Time is up. Stop playing: the hand in play ends and scores nothing." in visible_message(chrome)
        ),
        "the end's message",
    )
    chrome.save_screenshot(str(ARTIFACTS / "clock-end-1920x1080.png"))

    # -- a table page (the table's private link, as its scorer opens it) --------------------------
    chrome.get(f"{live_server.url}/table/{table2.private_key}/")
    wait_for(lambda: attr(chrome, "#table-clock", "data-state") == "running", "table 2 still playing")
    assert near(digits(chrome, "#table-clock .digits"), server_left(tournament, 2))
    assert attr(chrome, "#table-clock", "data-phase") == "red"
    # the table's own time is said as such, by the page's script as by the server
    assert chrome.find_element("css selector", "#table-clock [data-clock-extra]").text == "this table: +5:00"
    chrome.get(f"{live_server.url}/table/{table1.private_key}/")
    wait_for(lambda: attr(chrome, "#table-clock", "data-phase") == "over", "table 1 over")
    wait_for(lambda: "Stop playing" in visible_message(chrome, "#table-clock"), "table 1's end message")
    server_time.advance(305)  # table 2's extra time runs out too
    chrome.get(f"{live_server.url}/table/{table2.private_key}/")
    wait_for(lambda: attr(chrome, "#table-clock", "data-phase") == "over", "table 2 over")

    # -- the venue screen --------------------------------------------------------------------------
    tournament.announcements.create(text="Prize giving at 18:00 in the main hall")
    pagecache.changed("clock-open")
    chrome.get(f"{live_server.url}/t/clock-open/screen/")
    wait_for(lambda: attr(chrome, "#clock", "data-phase") == "over", "the screen's clock")
    assert chrome.execute_script("return document.querySelector('.screen-bar .digits').textContent") == "0:00"
    chrome.execute_script("window.venueScreen.show(1)")  # the seating of session 2, by name
    seating = chrome.execute_script("return document.querySelector('.panel.active').innerText")
    assert "Session 2: where you sit" in seating and "CLOCK-OPEN, Player1" in seating
    font = chrome.execute_script(
        "return parseFloat(getComputedStyle(document.querySelector('.panel.active .seat-list')).fontSize)"
    )
    assert font >= 36  # 3.6 % of 1080 px: a name readable from a few metres
    chrome.save_screenshot(str(ARTIFACTS / "venue-screen-seating-1920x1080.png"))
    chrome.execute_script("window.venueScreen.show(0)")
    chrome.save_screenshot(str(ARTIFACTS / "venue-screen-clock-1920x1080.png"))
    panels = chrome.execute_script(
        "return [...document.querySelectorAll('.panel')].map(p => p.getAttribute('data-panel'))"
    )
    assert "announcements" in panels

    # -- a new session on a phone ---------------------------------------------------------------------
    clock.clock_act(tournament=tournament, user=director, action="end")
    # session 2's clock starts session 2, once session 1 is finished; no result was entered here, so the
    # lifecycle's guards of the tables' results (tests/tournaments/test_lifecycle.py) are left out
    monkeypatch.setattr(lifecycle, "_SESSION_GUARDS", [])
    lifecycle.session_move(session=tournament.sessions.get(number=1), to=Session.Status.FINISHED)
    clock.clock_act(tournament=tournament, user=director, action="start", seconds=5400)
    screen(chrome, 390, 844, mobile=True)
    chrome.get(f"{live_server.url}/t/clock-open/clock/")
    wait_for(lambda: attr(chrome, "#clock", "data-session") == "2", "session 2 on the phone")
    assert near(digits(chrome), server_left(tournament))
    assert chrome.execute_script("return window.innerWidth;") == 390
    assert chrome.execute_script("return document.documentElement.scrollWidth <= window.innerWidth;")
    chrome.save_screenshot(str(ARTIFACTS / "clock-390x844.png"))

    # -- the referees' overview on a phone: the extra-time buttons reached sideways, the table still named
    from django.conf import settings
    from django.test import Client

    signed = Client()
    signed.force_login(director)
    chrome.add_cookie(
        {
            "name": settings.SESSION_COOKIE_NAME,
            "value": signed.cookies[settings.SESSION_COOKIE_NAME].value,
            "path": "/",
        }
    )
    chrome.get(f"{live_server.url}/t/clock-open/s/2/clock/")
    wait_for(
        lambda: chrome.find_elements("css selector", "#table-3 .adjust button"), "the extra-time buttons"
    )
    chrome.execute_script("document.querySelector('.table-wrap').scrollLeft = 10000;")
    number, button = (
        chrome.find_element("css selector", "#table-3 td:first-child"),
        chrome.find_element("css selector", "#table-3 .adjust button"),
    )
    wrap = chrome.execute_script("return document.querySelector('.table-wrap').getBoundingClientRect().left;")
    assert chrome.execute_script("return arguments[0].getBoundingClientRect().left;", number) >= wrap - 1
    assert button.is_displayed() and button.size["height"] >= 44  # a finger's size
    assert not chromium.serious_violations(chrome)
    chrome.save_screenshot(str(ARTIFACTS / "clock-overview-scrolled-390x844.png"))
    chrome.execute_script("arguments[0].click();", button)
    wait_for(lambda: "Session 2, table 3: time changed." in chrome.page_source, "the table's confirmation")
