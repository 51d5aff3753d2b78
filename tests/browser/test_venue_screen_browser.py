"""The venue screen at 1920 × 1080, 1280 × 720 and on a phone (390 × 844), with 40 and 200 players and a
two-hour session: the clock's digits, every page of the seating, the standings and the announcements stay
inside their panel; every player is on one page of the seating, substitutes where they play; the title is
readable on the phone; axe-core finds nothing serious. Screenshots go to test-artifacts/."""

from __future__ import annotations

import pytest
from django.core.cache import cache
from django.db import transaction
from django.test import override_settings

from penalties import services as penalty_services
from penalties.models import Kind
from tests.browser import chromium
from tests.browser.chromium import ARTIFACTS, serious_violations, start
from tournaments import lifecycle, pagecache
from tournaments import services as tservices
from tournaments.clock import services as clock
from tournaments.models import Session
from tournaments.permissions import Actor, Role

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SIZES = ((1920, 1080), (1280, 720), (390, 844))

# Everything of the shown panel, and every line of text in it, within the panel; every line of a paged list
# within the list's own box; the panel, the bar and the foot within the window; nothing scrolled inside an
# element that hides its overflow.
OVERFLOWS = """
const out = [], win = {left: 0, top: 0, right: innerWidth, bottom: innerHeight};
const panel = document.querySelector('.panel.active'), box = panel.getBoundingClientRect();
const outside = (r, b) => r.left < b.left - 1 || r.right > b.right + 1 || r.top < b.top - 1 || r.bottom > b.bottom + 1;
const name = el => el.tagName.toLowerCase() + (el.className ? '.' + String(el.className).split(' ')[0] : '');
for (const el of [panel, document.querySelector('.screen-bar'), document.querySelector('.screen-foot')]) {
  if (outside(el.getBoundingClientRect(), win)) out.push('window: ' + name(el));
}
for (const el of panel.querySelectorAll('*')) {
  const r = el.getBoundingClientRect();
  if (!r.width && !r.height) continue;
  if (outside(r, box)) out.push(name(el) + ': ' + el.textContent.trim().slice(0, 40));
  const s = getComputedStyle(el);
  if (s.overflowX !== 'visible' && el.scrollWidth > el.clientWidth + 1) out.push('clipped ' + name(el));
}
const pages = panel.querySelector('.pages');
if (pages) {  // the list hides its overflow: a line below its foot would be cut, though inside the panel
  const room = pages.getBoundingClientRect();
  for (const li of pages.querySelectorAll('li')) {
    if (outside(li.getBoundingClientRect(), room)) out.push('cut: ' + li.textContent.trim().slice(0, 40));
  }
}
const walker = document.createTreeWalker(panel, NodeFilter.SHOW_TEXT);
while (walker.nextNode()) {
  const node = walker.currentNode;
  if (!node.textContent.trim() || !node.parentElement.offsetParent) continue;
  const range = document.createRange(); range.selectNodeContents(node);
  const r = range.getBoundingClientRect();
  if (r.width && outside(r, box)) out.push('text: ' + node.textContent.trim().slice(0, 40));
}
return out;
"""


@pytest.fixture
def chrome(tmp_path):
    driver = start(tmp_path / "profile", 1920, 1080, mobile=False)
    yield driver
    driver.quit()


def size(driver, width: int, height: int) -> None:
    driver.execute_cdp_cmd(
        "Emulation.setDeviceMetricsOverride",
        {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": width < 600},
    )


def tournament_of(make_tournament, director, slug: str, players: int):
    """A tournament of ``players`` whose two-hour session 1 is running and whose session 2 is published;
    in session 2 a substitute plays for the first player; two announcements. Made in one transaction."""
    with transaction.atomic():  # one commit: the standings are computed once, not once per registration
        return _tournament_of(make_tournament, director, slug, players)


def _tournament_of(make_tournament, director, slug: str, players: int):
    tournament = make_tournament(slug=slug, director=director, players=players, substitutes=1, sessions=2)
    regs = list(tournament.registrations.filter(is_substitute=False).order_by("id"))
    for number in (1, 2):
        session = tournament.sessions.get(number=number)
        order = regs if number == 1 else regs[2:] + regs[:2]
        tservices.session_seat(session=session, tables=[order[i : i + 4] for i in range(0, players, 4)])
        session.seating_published = True
        session.save()
        lifecycle.session_move(session=session, to=Session.Status.SEATED)
    clock.clock_act(tournament=tournament, user=director, action="start", seconds=7200)
    penalty_services.penalty_record(
        tournament=tournament,
        registration=regs[0],
        kind=Kind.REPLACED,
        actor=Actor(user=director, role=Role.DIRECTOR),
        session=tournament.sessions.get(number=2),
        substitute=tournament.registrations.get(key="s1"),
        reason="illness",
    )
    tournament.announcements.create(text="Prize giving at 18:00 in the main hall, with the photos after it")
    tournament.announcements.create(text="Lunch is served next door")
    pagecache.changed(slug)
    return tournament, regs


def text(driver, script: str, *args):
    return driver.execute_script(script, *args)


@override_settings(CLOCK_POLL_SECONDS=60)
@pytest.mark.parametrize("players", [40, 200])
def test_the_venue_screen_fits_every_size(chrome, live_server, make_tournament, director, players):
    cache.clear()
    pagecache.local.clear()
    slug = f"screen-{players}"
    tournament, regs = tournament_of(make_tournament, director, slug, players)
    expected = sorted(f"{r.player.last_name.upper()}, {r.player.first_name}" for r in regs[1:])
    chrome.get(f"{live_server.url}/t/{slug}/screen/")
    chromium.wait_for(
        lambda: text(chrome, "return document.getElementById('clock').dataset.state") == "running",
        "the clock",
        20,
    )
    panels = text(chrome, "return window.venueScreen.panels()")
    assert panels == ["clock", "seating", "standings", "announcements"]
    for width, height in SIZES:
        size(chrome, width, height)
        laid_out = f"return document.getElementById('screen').dataset.laidOut === '{width}x{height}'"
        chromium.wait_for(lambda script=laid_out: text(chrome, script), "the new size laid out", 10)
        # the clock: a two-hour session's digits ("1:59:58") whole inside the panel
        text(chrome, "window.venueScreen.show(0)")
        shown = text(chrome, "return document.querySelector('.panel-clock .digits').textContent")
        assert shown == "2:00:00" or shown.startswith("1:59:"), shown
        assert text(chrome, "return document.getElementById('clock').dataset.clockLongest") == "2:00:00"
        assert text(chrome, OVERFLOWS) == []
        big = text(
            chrome,
            "return parseFloat(getComputedStyle(document.querySelector('.panel-clock .digits')).fontSize)",
        )
        assert big >= min(width, height) * 0.18  # as large as fits, readable across the hall
        chrome.save_screenshot(str(ARTIFACTS / f"venue-{players}-clock-{width}x{height}.png"))
        # the seating: every page inside the panel, every player on exactly one page
        text(chrome, "window.venueScreen.show(1)")
        pages = int(text(chrome, "return document.querySelector('.panel.active').dataset.pages"))
        seen = []
        for n in range(pages):
            text(chrome, "window.venueScreen.show(1, arguments[0])", n)
            assert text(chrome, OVERFLOWS) == [], (width, height, n)
            lines = text(
                chrome, "return [...document.querySelectorAll('.panel.active li')].map(li => li.innerText)"
            )
            seen += lines
            pager = text(chrome, "return document.querySelector('.panel.active .pager').textContent")
            assert pager == (f"page {n + 1} of {pages}" if pages > 1 else "")
            if n in (0, pages - 1):
                chrome.save_screenshot(
                    str(ARTIFACTS / f"venue-{players}-seating-{n + 1}-{width}x{height}.png")
                )
        names = sorted(line.split("\n")[0].strip() for line in seen if "substitute for" not in line)
        assert names == expected
        substitute = [line for line in seen if "substitute for" in line]
        first = regs[0].player
        assert (
            len(substitute) == 1
            and f"substitute for {first.last_name.upper()}, {first.first_name}" in substitute[0]
        )
        assert "SCREEN-" in substitute[0] and "Sub1" in substitute[0]
        if players == 40 and width == 1920:
            assert pages == 1  # forty players: one page on a projector
        # the standings (every page) and the announcements inside their panel
        for panel in panels[2:]:
            text(chrome, "window.venueScreen.show(arguments[0])", panels.index(panel))
            pages = int(text(chrome, "return document.querySelector('.panel.active').dataset.pages"))
            for n in range(pages):
                text(chrome, "window.venueScreen.show(arguments[0], arguments[1])", panels.index(panel), n)
                assert text(chrome, OVERFLOWS) == [], (width, height, panel, n)
            if panel == "standings":
                chrome.save_screenshot(str(ARTIFACTS / f"venue-{players}-standings-{width}x{height}.png"))
        bullets = text(
            chrome,
            "return [...document.querySelectorAll('.announce-list li')].map(li => getComputedStyle(li).listStyleType)",
        )
        assert set(bullets) == {"none"}
        chrome.save_screenshot(str(ARTIFACTS / f"venue-{players}-announcements-{width}x{height}.png"))
        # the title whole on every size (the tournament's name is short)
        title = text(
            chrome,
            "const t = document.querySelector('.screen-bar .title'); return [t.scrollWidth <= t.clientWidth, t.innerText]",
        )
        assert title[0] and title[1].startswith(tournament.name), title
        if players == 40 and width != 1280:
            text(chrome, "window.venueScreen.show(1)")
            assert serious_violations(chrome) == [], (width, height)

    # the clock page itself: the same two-hour digits, whole in the window at every size
    if players != 40:
        return
    chrome.get(f"{live_server.url}/t/{slug}/clock/")
    chromium.wait_for(
        lambda: text(chrome, "return document.getElementById('clock').dataset.state") == "running",
        "the clock",
        20,
    )
    for width, height in SIZES:
        size(chrome, width, height)
        whole = (
            "const e = document.querySelector('#clock .big'), r = document.createRange(); r.selectNodeContents(e);"
            "const b = r.getBoundingClientRect(); return b.left >= 0 && b.right <= innerWidth && innerWidth === "
            + str(width)
            + " && e.textContent.length === 7;"
        )
        chromium.wait_for(
            lambda script=whole: text(chrome, script), f"whole digits at {width} × {height}", 10
        )
        chrome.save_screenshot(str(ARTIFACTS / f"clock-2h-{width}x{height}.png"))


@override_settings(CLOCK_POLL_SECONDS=60)
def test_no_phone_height_cuts_the_last_line_when_the_pager_wraps(
    chrome, live_server, make_tournament, director
):
    """On a phone "page 1 of 3" wraps under the heading and takes a line's room from the list: the lines of a
    page are counted with the pager as it will read, the first time the list is shown as every other."""
    cache.clear()
    pagecache.local.clear()
    tournament_of(make_tournament, director, "screen-heights", 40)
    chrome.get(f"{live_server.url}/t/screen-heights/screen/")
    chromium.wait_for(
        lambda: text(chrome, "return document.getElementById('clock').dataset.state") == "running",
        "the clock",
        20,
    )
    cut = {}
    for height in range(780, 861, 4):
        size(chrome, 390, height)
        laid_out = f"return document.getElementById('screen').dataset.laidOut === '390x{height}'"
        chromium.wait_for(lambda script=laid_out: text(chrome, script), "the new size laid out", 10)
        text(
            chrome, "document.querySelectorAll('.pager').forEach(p => { p.textContent = ''; })"
        )  # a first show
        text(chrome, "window.venueScreen.show(1)")
        faults = text(chrome, OVERFLOWS)
        if faults:
            cut[height] = faults
    assert cut == {}
