"""Headless Chromium on a 390 × 844 phone: a scorer enters hand after hand on the table's private link.
The tile picker and the table clock keep working after every save, saving on a good network says "saved"
(no waiting banner), the form says what is missing before a hand is queued, a request that never gets an
answer is abandoned and sent again with its key, and after a single visit the page reloads with no network,
styled, from the service worker's cache with the browser's ordinary cache cleared. Screenshots go to
test-artifacts/ (390 × 844 and 360 × 740)."""

from __future__ import annotations

import pytest

from idempotency.models import IdempotencyRecord
from scoring.models import Hand, TableResult
from tests.browser.chromium import ARTIFACTS, click, no_sideways_scroll, start, wait_for
from tests.browser.netproxy import network
from tests.browser.test_offline_entry_browser import banner, queued
from tests.scoring.test_pages_support import link_url
from tournaments import services as tournament_services
from tournaments.clock import services as clock
from tournaments.seating.services import seating_publish

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def table_for(make_tournament, director, slug, ruleset="mcr"):
    tournament = make_tournament(slug, ruleset=ruleset, players=4, sessions=1, director=director)
    regs = list(tournament.registrations.order_by("key"))
    session = tournament.sessions.get(number=1)
    table = tournament_services.session_seat(session=session, tables=[regs])[0]
    seating_publish(session=session)  # seated: the clock may start (and starts the session)
    return tournament, table


def stored(table) -> list[dict]:
    return list(Hand.objects.filter(result__table=table).order_by("number").values_list("data", flat=True))


def clock_text(driver) -> str:
    return driver.execute_script(
        "const d = document.querySelector('#table-clock [data-clock-text]'); return d ? d.textContent : '';"
    )


def tiles_in_hand(driver) -> int:
    return driver.execute_script("return document.querySelectorAll('[data-tp-hand] .tp-in').length;")


def tap(driver, *codes, mode=None):
    """Tap a meld mode, then tiles of the palette: each found as the page shows it at the tap."""
    if mode:
        click(driver, f".tp-mode[data-mode='{mode}']")
    for code in codes:
        click(driver, f".tp-tile[data-tile='{code}']")


def choose(driver, name, value):
    driver.execute_script(
        "const el = document.querySelector(`form.hand-form [name='${arguments[0]}']`); el.value = arguments[1];"
        "el.dispatchEvent(new Event('change', {bubbles: true}));",
        name,
        value,
    )


def win(driver, *, winner: str, discarder: str, fan: str = "") -> None:
    click(driver, "form.hand-form input[name=result][value=win]")
    choose(driver, "winner", winner)
    choose(driver, "discarder", discarder)
    if fan:
        driver.execute_script("document.querySelector('form.hand-form').fan.value = arguments[0];", fan)


def save(driver) -> None:
    click(driver, "form.hand-form button[type=submit]")


def the_picker_and_the_clock_work(driver) -> None:
    """Taps add a tile and take it out again, a meld mode turns on, and the clock counts down."""
    before = clock_text(driver)
    wait_for(lambda: clock_text(driver) not in ("", before), "the clock to count down")
    assert tiles_in_hand(driver) == 0
    tap(driver, "1m")
    assert tiles_in_hand(driver) == 1
    driver.find_element("css selector", "[data-tp-hand] .tp-in").click()
    assert tiles_in_hand(driver) == 0
    pung = driver.find_element("css selector", ".tp-mode[data-mode='pung']")
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'});", pung)
    pung.click()
    assert pung.get_attribute("aria-pressed") == "true"
    driver.find_element("css selector", ".tp-mode[data-mode='tile']").click()
    assert driver.find_element("name", "tiles_hand").get_attribute("value") == ""


def test_three_hands_in_a_row_keep_the_picker_and_the_clock_working(
    browser, live_server, make_tournament, director
):
    tournament, table = table_for(make_tournament, director, "phone-three")
    clock.clock_act(tournament=tournament, user=director, action="start", seconds=3600)
    browser.get(live_server.url + link_url(table))
    hands = [
        lambda: win(browser, winner="0", discarder="2", fan="8"),
        lambda: (
            win(browser, winner="1", discarder="3"),
            tap(browser, "7z", mode="pung"),
            tap(browser, "3s", mode="chow"),
            tap(browser, "2m", "3m", "5m", "6m", "7m", "9p", "9p", "4m"),
            browser.execute_script(
                "const f = document.querySelector(\"input[name='tiles_flags'][value='robbing_kong']\");"
                "f.scrollIntoView({block: 'center'}); f.click();"
            ),
            wait_for(lambda: "11 fan" in browser.find_element("id", "tile-value").text, "the tiles' value"),
        ),
        lambda: win(browser, winner="3", discarder="self", fan="9"),
    ]
    for number, enter in enumerate(hands, start=1):
        the_picker_and_the_clock_work(browser)
        enter()
        save(browser)
        wait_for(lambda n=number: len(stored(table)) == n, f"hand {number} on the server")
        wait_for(
            lambda n=number: (
                f"Hand {n} saved."
                in browser.execute_script("return document.querySelector('main').innerText;")
            ),
            f"hand {number} saved on the page",
        )
        assert banner(browser) == ""  # a good network: no "waiting to send"
        assert browser.find_element("css selector", "#hand > h2").text == f"Hand {number + 1}"
        assert browser.execute_script("return document.activeElement.name;") == "result"
        if number == 2:
            browser.execute_script("window.scrollTo(0, 0);")
            browser.save_screenshot(str(ARTIFACTS / "entry-saved-390.png"))
    the_picker_and_the_clock_work(browser)
    assert [(h["winner"], h.get("discarder"), h["fan"]) for h in stored(table)] == [
        (0, 2, 8),
        (1, 3, 11),
        (3, None, 9),
    ]
    assert no_sideways_scroll(browser, body=False)


def test_the_form_says_what_is_missing_before_the_hand_is_queued(
    browser, live_server, make_tournament, director
):
    _, table = table_for(make_tournament, director, "phone-checks", ruleset="ema-riichi-2025")
    browser.get(live_server.url + link_url(table))
    browser.find_element("css selector", "form.hand-form input[name=result][value=ron]").click()
    choose(browser, "loser", "2")
    save(browser)
    error = browser.find_element("css selector", "form.hand-form .entry-check")
    assert error.text == "Choose the winner."
    assert queued(browser) == 0
    choose(browser, "winner", "1")
    choose(browser, "han", "2")
    wait_for(lambda: browser.find_elements("css selector", "select[name=fu]"), "the fu select")
    save(browser)
    wait_for(
        lambda: (
            [e.text for e in browser.find_elements("css selector", "form.hand-form .entry-check")]
            == ["Give the fu (needed below 5 han)."]
        ),
        "the fu error",
    )
    assert queued(browser) == 0 and stored(table) == []
    browser.execute_script("document.querySelector('.entry-check').scrollIntoView({block: 'center'});")
    browser.save_screenshot(str(ARTIFACTS / "entry-check-390.png"))
    choose(browser, "fu", "30")
    save(browser)
    wait_for(lambda: len(stored(table)) == 1, "the hand on the server")
    assert stored(table)[0]["winners"] == [{"player": 1, "han": 2, "fu": 30}]


def test_a_stalled_request_is_abandoned_and_sent_again_with_its_key(
    browser, proxy, make_tournament, director
):
    _, table = table_for(make_tournament, director, "phone-stall")
    page = link_url(table)
    browser.get(proxy.url + page)
    proxy.drop_only = page
    proxy.stall_posts = 1  # the first POST of the hand is taken and never answered
    win(browser, winner="2", discarder="0", fan="8")
    save(browser)
    wait_for(lambda: "The server did not answer: trying again." in banner(browser), "the stalled request")
    assert "1 hand waiting to send" in banner(browser)
    assert browser.find_element("css selector", "p.state-line").text == (
        "Next: hand 2, after the hands waiting to send."
    )
    browser.execute_script("window.scrollTo(0, 0);")
    browser.save_screenshot(str(ARTIFACTS / "entry-stalled-390.png"))
    wait_for(lambda: queued(browser) == 0 and len(stored(table)) == 1, "the hand sent again")
    assert proxy.stalled == [page]
    assert IdempotencyRecord.objects.count() == 1
    assert stored(table)[0]["winner"] == 2


@pytest.mark.parametrize(("width", "height"), [(390, 844), (360, 740)])
def test_after_one_visit_the_page_reloads_offline_styled_with_the_ordinary_cache_cleared(
    tmp_path, proxy, make_tournament, director, width, height
):
    _, table = table_for(make_tournament, director, f"phone-offline-{width}")
    page = link_url(table)
    driver = start(tmp_path / "profile", width, height)
    try:
        driver.execute_cdp_cmd("Network.enable", {})
        driver.get(proxy.url + page)  # a single visit
        wait_for(
            lambda: driver.execute_async_script(
                "const done = arguments[arguments.length - 1];"
                "caches.keys().then(ks => Promise.all(ks.map(k => caches.open(k).then(c => c.match(arguments[0])))))"
                ".then(rs => done(rs.some(Boolean))).catch(() => done(false));",
                page,
            ),
            "the page in the worker's cache",
        )
        driver.execute_cdp_cmd("Network.clearBrowserCache", {})
        network(driver, proxy, online=False)
        driver.refresh()
        wait_for(lambda: driver.find_elements("css selector", "form.hand-form"), "the page with no network")
        styled = driver.execute_script(
            "return [...document.styleSheets].filter(s => { try { return s.cssRules.length > 0; }"
            " catch (e) { return false; } }).map(s => s.href.split('/').pop());"
        )
        for sheet in ("pico-2.1.1.min.css", "app.css", "scoring.css", "tiles.css", "clock.css"):
            assert sheet in styled, styled
        assert no_sideways_scroll(driver, body=False)
        tap(driver, "5p")
        assert tiles_in_hand(driver) == 1  # the picker works offline too
        driver.execute_script(
            "document.querySelector('[data-tile-picker]').scrollIntoView({block: 'start'});"
        )
        driver.save_screenshot(str(ARTIFACTS / f"entry-offline-reload-{width}.png"))
    finally:
        driver.quit()


def test_entry_controls_are_thumb_sized_and_the_keyboard_skips_to_the_form(
    tmp_path, live_server, make_tournament, director
):
    from selenium.webdriver.common.keys import Keys

    _, table = table_for(make_tournament, director, "phone-thumb")
    driver = start(tmp_path / "profile", 360, 740)
    try:
        driver.get(live_server.url + link_url(table))
        win(driver, winner="0", discarder="2", fan="8")
        tap(driver, "1m", "2m")
        small = driver.execute_script(
            "return [...document.querySelectorAll('.tp-tile, .tp-mode, .tp-in, .tp-typed > summary,"
            " form.hand-form button[type=submit]')].map(e => [e.className || e.tagName, e.getBoundingClientRect()])"
            ".filter(([, r]) => r.width < 44 || r.height < 44).map(([n, r]) => `${n} ${r.width}x${r.height}`);"
        )
        assert small == []
        assert no_sideways_scroll(driver, body=False)
        driver.execute_script(
            "document.querySelector('[data-tile-picker]').scrollIntoView({block: 'start'});"
        )
        driver.save_screenshot(str(ARTIFACTS / "entry-picker-360.png"))

        # the keyboard: a few Tabs from the top reach "Skip to the hand form", which leads into the form
        driver.get(live_server.url + link_url(table))
        body = driver.find_element("tag name", "body")
        for _ in range(8):
            body.send_keys(Keys.TAB) if _ == 0 else driver.switch_to.active_element.send_keys(Keys.TAB)
            if driver.switch_to.active_element.get_attribute("class") == "skip-link":
                break
        skip = driver.switch_to.active_element
        assert skip.text == "Skip to the hand form"
        outline = driver.execute_script("return getComputedStyle(document.activeElement).outlineStyle;")
        assert outline != "none"  # the focus shows
        skip.send_keys(Keys.ENTER)
        driver.switch_to.active_element.send_keys(Keys.TAB)
        inside = driver.execute_script("return !!document.activeElement.closest('#hand');")
        assert inside
        tile = driver.find_element("css selector", ".tp-tile[data-tile='5p']")
        driver.execute_script("arguments[0].focus();", tile)
        tile.send_keys(Keys.SHIFT, Keys.TAB)
        driver.switch_to.active_element.send_keys(Keys.TAB)  # a keyboard focus, not a script's
        shown = driver.execute_script(
            "const e = document.activeElement; return [e.matches(':focus-visible'), getComputedStyle(e).outlineStyle];"
        )
        assert shown == [True, "solid"]
    finally:
        driver.quit()


def mcr_tiles_hand(driver) -> None:
    """South wins on North's discard with 11 fan of tiles (Robbing the Kong, Dragon Pung, Short Straight)."""
    win(driver, winner="1", discarder="3")
    tap(driver, "7z", mode="pung")
    tap(driver, "3s", mode="chow")
    tap(driver, "2m", "3m", "5m", "6m", "7m", "9p", "9p", "4m")
    driver.execute_script(
        "const f = document.querySelector(\"input[name='tiles_flags'][value='robbing_kong']\");"
        "f.scrollIntoView({block: 'center'}); f.click();"
    )
    wait_for(lambda: "11 fan" in driver.find_element("id", "tile-value").text, "the tiles' value")


def test_a_table_of_sixteen_hands_on_a_phone_whatever_the_network_does(
    browser, proxy, make_tournament, director
):
    """One MCR table, 16 hands: tiles for some, values for others, a draw now and then; the picker and
    the clock used after every save; the network cut twice and stalled twice; a reload with no network
    after the ordinary cache was cleared. The server ends with the 16 hands, each once, in order, and the
    page shows what the server has."""
    tournament, table = table_for(make_tournament, director, "phone-sixteen")
    clock.clock_act(tournament=tournament, user=director, action="start", seconds=3 * 3600)
    page = link_url(table)
    browser.get(proxy.url + page)  # the one visit with a network before the outages
    proxy.drop_only = page
    expected = []
    tiles_hands, draws, offline_hands, stalled_hands = {3, 9, 14}, {5, 10, 15}, {4, 11}, {6, 13}
    for number in range(1, 17):
        the_picker_and_the_clock_work(browser)
        if number == 8:  # a reload with no network, the browser's ordinary cache cleared
            network(browser, proxy, online=False)
            browser.execute_cdp_cmd("Network.clearBrowserCache", {})
            browser.refresh()
            wait_for(lambda: browser.find_elements("css selector", "form.hand-form"), "the page offline")
            assert browser.find_element("css selector", "#hand > h2").text == "Hand 8"
            the_picker_and_the_clock_work(browser)
        if number in offline_hands:
            network(browser, proxy, online=False)
        if number in stalled_hands:
            proxy.stall_posts = 1
        if number in tiles_hands:
            mcr_tiles_hand(browser)
            expected.append((1, 3, 11))
        elif number in draws:
            browser.find_element("css selector", "form.hand-form input[name=result][value=draw]").click()
            expected.append(None)
        else:
            winner, discarder, fan = number % 4, (number + 2) % 4, 8 + number
            win(browser, winner=str(winner), discarder=str(discarder), fan=str(fan))
            expected.append((winner, discarder, fan))
        save(browser)
        if number in offline_hands or number == 8:
            wait_for(lambda: "1 hand waiting to send" in banner(browser), "the hand kept on the phone")
            assert "No network" in banner(browser)
            network(browser, proxy, online=True)
        if number in stalled_hands:
            wait_for(lambda: "The server did not answer" in banner(browser), "the stalled request")
        wait_for(lambda n=number: queued(browser) == 0 and len(stored(table)) == n, f"hand {number} stored")
        wait_for(
            lambda n=number: (
                f"Hand {n} saved."
                in browser.execute_script("return document.querySelector('main').innerText;")
            ),
            f"hand {number} saved on the page",
        )
    assert len(proxy.stalled) == 2
    hands = [
        None if h["result"] == "draw" else (h["winner"], h.get("discarder"), h["fan"]) for h in stored(table)
    ]
    assert hands == expected
    assert Hand.objects.filter(result__table=table).count() == 16
    numbers = list(
        Hand.objects.filter(result__table=table).order_by("number").values_list("number", flat=True)
    )
    assert numbers == list(range(1, 17))
    # the page shows what the server has: its version, 16 hands, the totals of a fresh load
    shown = "return [document.getElementById('offline-entry').dataset.version, document.querySelector('.seats').innerText, document.querySelector('#hands').innerText];"
    before = browser.execute_script(shown)
    assert before[0] == str(TableResult.objects.get(table=table).version)
    browser.refresh()
    wait_for(lambda: browser.find_elements("css selector", ".seats .score"), "a fresh page")
    assert browser.execute_script(shown) == before
    browser.execute_script("window.scrollTo(0, 0);")
    browser.save_screenshot(str(ARTIFACTS / "entry-sixteen-390.png"))


def test_back_after_a_correction_and_saving_again_is_not_a_refusal(
    browser, live_server, make_tournament, director
):
    """A scorer corrects hand 1, presses Back and saves the form again with other values: the phone sends
    it as a new request (a fresh key), and the page says what happened in words, with a way back to the
    table; never a header name, a path or a status line."""
    _, table = table_for(make_tournament, director, "phone-back")
    page = link_url(table)
    browser.get(live_server.url + page)
    win(browser, winner="2", discarder="0", fan="8")
    save(browser)
    wait_for(lambda: len(stored(table)) == 1 and queued(browser) == 0, "hand 1 stored")
    browser.get(live_server.url + page + "hand/1/")
    wait_for(
        lambda: browser.find_elements("css selector", "form.hand-form [name=reason]"), "the correction form"
    )

    def correct(fan: str, reason: str) -> None:
        form = browser.find_element("css selector", "form.hand-form")
        browser.execute_script(
            "const f = arguments[0]; f.fan.value = arguments[1]; f.reason.value = arguments[2];",
            form,
            fan,
            reason,
        )
        button = form.find_element("css selector", "button[type=submit]")
        browser.execute_script("arguments[0].scrollIntoView({block: 'center'});", button)
        button.click()

    correct("9", "one fan forgotten")
    wait_for(
        lambda: "Hand 1 corrected." in browser.execute_script("return document.body.innerText;"),
        "the correction saved",
    )
    assert stored(table)[0]["fan"] == 9
    browser.back()
    wait_for(
        lambda: browser.find_elements("css selector", "form.hand-form [name=reason]"),
        "the correction form again",
    )
    correct("10", "two fans forgotten")

    def answer() -> str:
        text = browser.execute_script("return document.body ? document.body.innerText : '';")
        return (
            text if any(w in text for w in ("Hand 1 corrected.", "Nothing was saved", "already sent")) else ""
        )

    body = wait_for(answer, "the answer to the second correction")
    assert "Idempotency-Key" not in body and "/hand/1/" not in body and "422" not in body
    assert "already sent" not in body
    browser.save_screenshot(str(ARTIFACTS / "entry-back-after-correction-390.png"))
    # the table is one tap away whatever the answer
    assert browser.find_elements("css selector", f"a[href$='{page}'], a[href$='{page}#hands']")


def test_a_used_key_with_other_data_gets_a_page_in_words_with_a_way_back(
    browser, live_server, make_tournament, director
):
    """A browser that cannot remember what it sent (no storage) sends a used key with other data: the page
    says what happened and what to do, in the reader's words, with a link back to the form."""
    _, table = table_for(make_tournament, director, "phone-used-key")
    page = link_url(table)
    browser.get(live_server.url + page)
    win(browser, winner="2", discarder="0", fan="8")
    save(browser)
    wait_for(lambda: len(stored(table)) == 1 and queued(browser) == 0, "hand 1 stored")

    def correct(fan: str) -> None:
        browser.get(live_server.url + page + "hand/1/")
        browser.execute_script(
            "sessionStorage.clear(); const f = document.querySelector('form.hand-form');"
            "f.idempotency_key.value = 'the-same-key-twice'; f.fan.value = arguments[0];"
            "f.reason.value = 'fan miscounted'; f.requestSubmit();",
            fan,
        )

    correct("9")
    wait_for(
        lambda: "Hand 1 corrected." in browser.execute_script("return document.body.innerText;"), "saved"
    )
    correct("10")
    text = wait_for(
        lambda: browser.execute_script(
            "const a = document.getElementById('idempotency-refused'); return a ? a.innerText : '';"
        ),
        "the refusal",
    )
    assert "already sent, with other data: nothing was saved" in text and "Open the page again" in text
    assert "Idempotency-Key" not in text and "/hand/1/" not in text and "POST" not in text
    assert no_sideways_scroll(browser)
    browser.save_screenshot(str(ARTIFACTS / "entry-used-key-390.png"))
    click(browser, "#idempotency-back")
    wait_for(lambda: browser.find_elements("css selector", "form.hand-form [name=reason]"), "the form again")
    assert stored(table)[0]["fan"] == 9
