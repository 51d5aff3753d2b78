"""Headless Chromium on a 390 × 844 phone, entering a table through a network outage (CDP network
emulation for the page, and a proxy that refuses every connection so that the service worker is offline
too): hands saved offline wait on the phone and survive a reload, are stored exactly once and in order
when the network is back, a change made meanwhile by another device is shown beside the phone's hands,
a lost answer is retried with its key, and a rule error stops the queue on its hand. Screenshots go to
test-artifacts/."""

from __future__ import annotations

import datetime as dt

import pytest

from idempotency.models import IdempotencyRecord
from scoring import services
from scoring.models import Hand, TableResult
from scoring.services import Actor
from tests.browser.chromium import ARTIFACTS, no_sideways_scroll, wait_for
from tests.browser.netproxy import network
from tests.scoring.test_pages_support import link_url, seat_session
from tournaments.models import Role

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def open_table(driver, proxy, table) -> str:
    """Open the table's private link and let the service worker take the page in its cache."""
    page = link_url(table)
    driver.get(proxy.url + page)
    wait_for(
        lambda: driver.execute_script("return !!navigator.serviceWorker.controller;"), "the service worker"
    )
    driver.refresh()  # now through the worker, which keeps a copy
    wait_for(
        lambda: driver.execute_async_script(
            "const done = arguments[arguments.length - 1];"
            "caches.match(arguments[0]).then(r => done(!!r)).catch(() => done(false));",
            page,
        ),
        "the page in the worker's cache",
    )
    return page


def enter(driver, *, winner: int | None = None, discarder: str = "", fan: int | None = None) -> None:
    """Fill the hand form as a scorer would and tap "Save hand"."""
    if winner is None:
        driver.find_element("css selector", "form.hand-form input[name=result][value=draw]").click()
    else:
        driver.find_element("css selector", "form.hand-form input[name=result][value=win]").click()
        driver.execute_script(
            "const f = document.querySelector('form.hand-form');"
            "f.winner.value = arguments[0]; f.discarder.value = arguments[1]; f.fan.value = arguments[2];",
            str(winner),
            discarder,
            str(fan),
        )
    driver.find_element("css selector", "form.hand-form button[type=submit]").click()


def enter_offline(driver, **hand) -> None:
    """``enter`` with the network off, waiting, as a scorer sees it, for the banner to count the hand kept
    on the phone (its try to send it has failed and the page is drawn again) before filling the next: on a
    busy machine that redraw can come while the next hand is being filled in."""
    before = queued(driver)
    enter(driver, **hand)
    waiting = f"{before + 1} hand{'s' if before else ''} waiting to send"
    wait_for(lambda: queued(driver) == before + 1 and waiting in banner(driver), waiting)


# Read in one script each: the page swaps its content under the test's feet.
def banner(driver) -> str:
    return driver.execute_script(
        "const b = document.getElementById('offline-banner'); return b ? b.innerText : '';"
    )


def queued(driver) -> int:
    return driver.execute_script(
        "const page = document.getElementById('offline-entry').dataset.page;"
        "return JSON.parse(localStorage.getItem('mahjong-entry-queue:' + page) || '[]').length;"
    )


def stored(table) -> list[dict]:
    return list(Hand.objects.filter(result__table=table).order_by("number").values_list("data", flat=True))


def seat_scores(driver) -> list[str]:
    return driver.execute_script(
        "return [...document.querySelectorAll('.seats .score')].map(s => s.innerText);"
    )


def page_fetches(browser, table) -> int:
    """The requests the page's script sent to the table's page (its POSTs and its reads of the page)."""
    return browser.execute_script(
        "return performance.getEntriesByType('resource')"
        ".filter(e => e.initiatorType === 'fetch' && new URL(e.name).pathname === arguments[0]).length",
        link_url(table),
    )


def test_three_hands_entered_offline_survive_a_reload_and_are_stored_once_in_order(
    browser, proxy, tournament
):
    table = seat_session(tournament)[0]
    open_table(browser, proxy, table)
    installable = browser.execute_cdp_cmd("Page.getInstallabilityErrors", {})
    assert installable["installabilityErrors"] == []
    network(browser, proxy, online=False)
    assert browser.execute_script("return navigator.onLine;") is False

    enter_offline(browser, winner=0, discarder="2", fan=8)  # East on West's discard
    enter_offline(browser, winner=1, discarder="self", fan=10)  # South self-drawn
    enter_offline(browser, winner=3, discarder="0", fan=12)  # North on East's discard
    wait_for(lambda: "3 hands waiting to send — they are kept on this phone" in banner(browser), "the banner")
    assert len(browser.find_elements("css selector", "#offline-hands li.waiting")) == 3
    assert browser.find_element("css selector", "form.hand-form button[type=submit]").text == "Save hand 4"
    assert "do not count the 3 hands waiting to send" in browser.find_element("id", "pending-scores").text
    assert no_sideways_scroll(browser, body=False)
    browser.execute_script("window.scrollTo(0, 0);")
    browser.save_screenshot(str(ARTIFACTS / "offline-banner-390.png"))

    browser.refresh()  # still offline: the worker's copy of the page, the queue from the phone
    wait_for(lambda: "3 hands waiting to send" in banner(browser), "the banner after the reload")
    assert queued(browser) == 3
    assert stored(table) == []

    fetched = page_fetches(browser, table)
    network(browser, proxy, online=True)
    wait_for(lambda: queued(browser) == 0 and not banner(browser), "the queue to be sent")
    assert [(h["winner"], h.get("discarder"), h["fan"]) for h in stored(table)] == [
        (0, 2, 8),
        (1, None, 10),
        (3, 0, 12),
    ]
    assert queued(browser) == 0
    assert TableResult.objects.get(table=table).version == 4
    # the server's totals: 32 −18 −16 −8 after hand 1; self-drawn 10: −18 +54 −18 −18; North 12 on East: −20 −8 −8 +36
    wait_for(lambda: seat_scores(browser) == ["−6", "38", "−42", "10"], "the server's totals on the page")
    assert proxy.posts.count(link_url(table)) == 3  # one POST per hand (other POSTs: tile value previews)
    # the answers to hands 2 and 3 drew their own rows only: the page kept the rows it showed after them
    assert page_fetches(browser, table) == fetched + 3  # the three POSTs: no read of the page to redraw it
    assert [td.text for td in browser.find_elements("css selector", "#hands td.hn")] == ["3", "2", "1"]
    assert not browser.find_elements("css selector", "[data-rows-kept]")


def test_a_change_from_another_device_is_shown_beside_the_phones_hands_and_nothing_is_lost(
    browser, proxy, tournament, referee
):
    table = seat_session(tournament)[0]
    open_table(browser, proxy, table)
    network(browser, proxy, online=False)
    enter_offline(browser, winner=0, discarder="2", fan=8)
    enter_offline(browser, winner=2, discarder="self", fan=9)
    wait_for(lambda: "2 hands waiting to send" in banner(browser), "the banner")

    # meanwhile a referee enters a hand on another device
    services.hand_add(
        table=table,
        hand={"result": "win", "winner": 3, "discarder": 1, "fan": 16},
        actor=Actor(user=referee, role=Role.REFEREE),
        expected_version=1,
    )

    network(browser, proxy, online=True)
    wait_for(lambda: browser.find_elements("id", "offline-conflict"), "the conflict view")
    wait_for(
        lambda: "Sending stopped: the hand marked below needs your decision." in banner(browser), "the stop"
    )
    conflict = browser.find_element("id", "offline-conflict")
    assert "Someone else changed this table before this phone's hands were sent." in conflict.text
    server = browser.find_element("id", "conflict-server")
    assert "16" in server.text  # the referee's hand, as stored
    phone = browser.find_element("id", "conflict-phone")
    assert len(phone.find_elements("css selector", "li")) == 2
    assert queued(browser) == 2
    assert len(stored(table)) == 1
    assert no_sideways_scroll(browser, body=False)
    browser.execute_script("document.getElementById('offline-conflict').scrollIntoView();")
    browser.save_screenshot(str(ARTIFACTS / "offline-conflict-390.png"))

    conflict.find_element("xpath", ".//button[contains(., 'Add my hands after these')]").click()
    wait_for(lambda: queued(browser) == 0 and not banner(browser), "the phone's hands to be sent")
    assert [(h["winner"], h["fan"]) for h in stored(table)] == [(3, 16), (0, 8), (2, 9)]
    assert queued(browser) == 0


def test_an_answer_lost_on_the_way_back_is_retried_with_its_key_and_stored_once(browser, proxy, tournament):
    table = seat_session(tournament)[0]
    open_table(browser, proxy, table)
    proxy.drop_only = link_url(table)  # the hand, not a tile value preview
    proxy.drop_post_answers = 1  # the server stores the hand, the phone never hears back
    enter(browser, winner=1, discarder="3", fan=8)
    wait_for(lambda: proxy.posts.count(link_url(table)) >= 2 and queued(browser) == 0, "the retry")
    assert proxy.dropped == [link_url(table)]
    assert len(stored(table)) == 1
    assert IdempotencyRecord.objects.count() == 1
    # South 8 on North's discard: the server's totals replace the page's
    wait_for(lambda: seat_scores(browser) == ["−8", "32", "−8", "−16"], "the server's answer on the page")


def test_a_rule_error_stops_the_queue_on_its_hand(browser, proxy, tournament):
    table = seat_session(tournament)[0]
    open_table(browser, proxy, table)
    network(browser, proxy, online=False)
    enter(browser, winner=0, discarder="2", fan=5)  # under the MCR minimum of 8 fan
    enter(browser, winner=1, discarder="0", fan=8)
    network(browser, proxy, online=True)
    refused = wait_for(
        lambda: browser.find_elements("css selector", "#offline-hands li.refused"), "the refusal"
    )
    assert "Hand 1" in refused[0].text and "8" in refused[0].find_element("css selector", ".field-error").text
    assert queued(browser) == 2  # the second hand waits behind the first
    assert stored(table) == []
    refused[0].find_element("xpath", ".//button[contains(., 'Correct this hand')]").click()
    browser.execute_script("document.querySelector('form.hand-form').fan.value = '8';")
    browser.find_element("css selector", "form.hand-form button[type=submit]").click()
    wait_for(lambda: queued(browser) == 0 and not banner(browser), "both hands")
    assert [(h["winner"], h["fan"]) for h in stored(table)] == [(0, 8), (1, 8)]


def cached_pages(driver) -> list[str]:
    """The paths the service worker keeps, static files and the scripts' catalogues (the same for every
    visitor) left out; ``["unknown"]`` while the page is being
    replaced (a navigation can leave the script without an answer), for the caller to ask again."""
    from selenium.common.exceptions import WebDriverException

    driver.set_script_timeout(5)
    try:
        return driver.execute_async_script(
            "const done = arguments[arguments.length - 1];"
            "caches.keys().then(names => Promise.all(names.map(n => caches.open(n).then(c => c.keys()))))"
            ".then(lists => done(lists.flat().map(r => new URL(r.url).pathname)"
            ".filter(p => !p.startsWith('/static/') && !p.startsWith('/i18n/js/')))).catch(e => done(['error ' + e]));"
        )
    except WebDriverException:
        return ["unknown"]


def test_after_the_referee_signs_out_the_phone_shows_nothing_of_the_private_tournament_offline(
    browser, proxy, make_tournament, director, make_user
):
    from django.conf import settings
    from django.test import Client

    from tests.scoring.test_pages_support import table_url
    from tournaments.services import role_grant

    tournament = make_tournament(slug="closed-cup", director=director, is_public=False)
    table = seat_session(tournament)[0]
    referee = make_user("phone-referee")
    role_grant(tournament=tournament, user=referee, role=Role.REFEREE)
    client = Client()
    client.force_login(referee)
    browser.get(proxy.url + "/")
    browser.add_cookie(
        {
            "name": settings.SESSION_COOKIE_NAME,
            "value": client.cookies[settings.SESSION_COOKIE_NAME].value,
            "path": "/",
        }
    )
    page = table_url(table)
    browser.get(proxy.url + page)
    wait_for(
        lambda: browser.execute_script("return !!navigator.serviceWorker.controller;"), "the service worker"
    )
    browser.refresh()
    wait_for(lambda: page in cached_pages(browser), "the staff's table page in the worker's cache")
    private = table.private_key
    name = table.seats.get(position=0).registration.player.first_name

    # offline while signed in: the referee's page opens (the cache works, so the check below is not vacuous)
    network(browser, proxy, online=False)
    browser.get(proxy.url + page)
    wait_for(lambda: private in browser.page_source, "the page's copy, with the table's private link")
    network(browser, proxy, online=True)

    browser.get(proxy.url + "/")
    browser.find_element("css selector", "form[action='/accounts/logout/'] button").click()
    wait_for(lambda: "/accounts/logout/" not in browser.current_url, "the sign-out")
    wait_for(lambda: cached_pages(browser) == [], "the page copies forgotten")

    network(browser, proxy, online=False)
    browser.get(proxy.url + page)
    source = browser.page_source
    browser.save_screenshot(str(ARTIFACTS / "offline-after-sign-out-390.png"))
    assert private not in source and name not in source and "closed-cup" not in source.replace(page, "")
    assert cached_pages(browser) == []


def closed_panel(driver) -> str:
    return driver.execute_script(
        "const p = document.getElementById('offline-closed'); return p ? p.innerText : '';"
    )


def confirm_as_referee(table, referee) -> None:
    services.result_confirm(
        table=table,
        actor=Actor(user=referee, role=Role.REFEREE),
        expected_version=TableResult.objects.get(table=table).version,
        short_reason="time was up",
    )


def referee_of(tournament, make_user, name: str):
    from tournaments import services as tservices

    user = make_user(name)
    tservices.role_grant(tournament=tournament, user=user, role=Role.REFEREE)
    return user


def test_a_phone_left_open_on_a_table_the_referee_confirms_says_so(
    browser, proxy, make_tournament, director, make_user
):
    """The referee confirms the table while its phone is open on it: the hand entered next is not sent as
    a conflict to be "added after" but kept, numbered as entered, beside what happened and what to do."""
    tournament = make_tournament("phone-confirmed", players=4, sessions=2, director=director)
    referee = referee_of(tournament, make_user, "referee-confirms")
    (table,) = seat_session(tournament)
    open_table(browser, proxy, table)
    enter(browser, winner=0, discarder="2", fan=8)
    wait_for(lambda: len(stored(table)) == 1 and queued(browser) == 0, "hand 1 stored")
    confirm_as_referee(table, referee)

    enter(browser, winner=1, discarder="3", fan=9)  # the phone does not know yet
    text = wait_for(lambda: closed_panel(browser), "the phone to say the table is confirmed")
    assert "A referee confirmed this table" in text and "show them to a referee" in text
    assert "Hand 2" in text and "Hand 3" not in text
    page = browser.execute_script("return document.body.innerText;")
    assert "Add my hands after these" not in page and "Someone else changed" not in page
    assert "400" not in page and "Bad Request" not in page
    assert len(stored(table)) == 1 and queued(browser) == 1  # kept on the phone, for the referee to see
    assert no_sideways_scroll(browser, body=False)
    browser.execute_script("document.getElementById('offline-closed').scrollIntoView();")
    browser.save_screenshot(str(ARTIFACTS / "offline-table-confirmed-390.png"))


def test_a_phone_offline_while_its_session_finished_keeps_its_hand_number_and_its_clock_is_over(
    browser, proxy, make_tournament, director, make_user
):
    from tournaments.sessions import services as session_services

    tournament = make_tournament("phone-finished", players=4, sessions=2, director=director)
    referee = referee_of(tournament, make_user, "referee-finishes")
    (table,) = seat_session(tournament)
    session = tournament.sessions.get(number=1)
    session_services.session_advance(session=session)  # seated
    session_services.session_advance(session=session)  # playing: the clock starts
    open_table(browser, proxy, table)
    enter(browser, winner=0, discarder="2", fan=8)
    wait_for(lambda: len(stored(table)) == 1 and queued(browser) == 0, "hand 1 stored")
    network(browser, proxy, online=False)
    enter(browser, winner=1, discarder="3", fan=9)
    wait_for(lambda: "1 hand waiting to send" in banner(browser), "hand 2 kept on the phone")

    confirm_as_referee(table, referee)
    session_services.session_advance(
        session=session
    )  # finished: its clock ends, the room's clock is session 2's

    network(browser, proxy, online=True)
    text = wait_for(lambda: closed_panel(browser), "the phone to say the table takes no more hands")
    assert "Hand 2" in text and "Hand 3" not in text
    page = browser.execute_script("return document.body.innerText;")
    assert "Add my hands after these" not in page and "Bad Request" not in page
    clock = wait_for(
        lambda: (
            (t := browser.execute_script("return document.getElementById('table-clock').innerText;"))
            and "Session over" in t
            and t
        ),
        "the table's clock to say its session is over",
    )
    assert "Session 1" in clock and "Not started yet" not in clock and "Session 2" not in clock
    assert len(stored(table)) == 1 and queued(browser) == 1
    browser.execute_script("window.scrollTo(0, 0);")
    browser.save_screenshot(str(ARTIFACTS / "offline-session-finished-390.png"))


# -- every way an account's session ends forgets its copies ----------------------------------------------


def referees_copy(browser, proxy, make_tournament, director, make_user, **extra):
    """A referee of a private tournament signed in on the phone, with the staff's table page in the
    worker's cache and shown from it offline (so that the checks after are not vacuous). Returns
    (page, table's private key, a player's name, the referee)."""
    from django.conf import settings
    from django.test import Client

    from tests.scoring.test_pages_support import table_url
    from tournaments.services import role_grant

    tournament = make_tournament(slug="closed-cup", director=director, is_public=False)
    table = seat_session(tournament)[0]
    referee = make_user("phone-referee", **extra)
    role_grant(tournament=tournament, user=referee, role=Role.REFEREE)
    client = Client()
    client.force_login(referee)
    browser.get(proxy.url + "/")
    browser.add_cookie(
        {
            "name": settings.SESSION_COOKIE_NAME,
            "value": client.cookies[settings.SESSION_COOKIE_NAME].value,
            "path": "/",
        }
    )
    page = table_url(table)
    browser.get(proxy.url + page)
    wait_for(
        lambda: browser.execute_script("return !!navigator.serviceWorker.controller;"), "the service worker"
    )
    browser.refresh()
    wait_for(lambda: page in cached_pages(browser), "the staff's table page in the worker's cache")
    private = table.private_key
    network(browser, proxy, online=False)
    browser.get(proxy.url + page)
    wait_for(lambda: private in browser.page_source, "the page's copy, with the table's private link")
    network(browser, proxy, online=True)
    return page, private, table.seats.get(position=0).registration.player.first_name, referee


def nothing_offline(browser, proxy, page: str, private: str, name: str, shot: str) -> None:
    network(browser, proxy, online=False)
    browser.get(proxy.url + page)
    source = browser.page_source
    browser.save_screenshot(str(ARTIFACTS / shot))
    assert private not in source and name not in source and "closed-cup" not in source.replace(page, "")
    network(browser, proxy, online=True)


def test_the_admins_sign_out_forgets_the_copies(browser, proxy, make_tournament, director, make_user):
    page, private, name, _referee = referees_copy(
        browser, proxy, make_tournament, director, make_user, is_staff=True
    )
    browser.get(proxy.url + "/admin/")
    browser.find_element("css selector", "#logout-form button").click()
    wait_for(lambda: cached_pages(browser) == [], "the page copies forgotten")
    nothing_offline(browser, proxy, page, private, name, "offline-after-admin-sign-out-390.png")


def test_the_admins_sign_in_as_another_account_forgets_the_copies(
    browser, proxy, make_tournament, director, make_user
):
    page, private, name, _referee = referees_copy(browser, proxy, make_tournament, director, make_user)
    make_user("site-admin", is_staff=True, is_superuser=True)
    browser.get(proxy.url + "/admin/login/")
    browser.find_element("css selector", "#id_username").send_keys("site-admin")
    browser.find_element("css selector", "#id_password").send_keys("pw-for-tests-123")
    browser.find_element("css selector", "#login-form [type=submit]").click()
    wait_for(lambda: "/admin/login/" not in browser.current_url, "the admin's sign-in")
    wait_for(lambda: cached_pages(browser) == [], "the page copies forgotten")
    nothing_offline(browser, proxy, page, private, name, "offline-after-admin-sign-in-390.png")


def test_a_one_time_sign_in_link_forgets_the_copies(browser, proxy, make_tournament, director, make_user):
    from tournaments.models import Tournament
    from tournaments.staff import services as staff_services

    page, private, name, _referee = referees_copy(browser, proxy, make_tournament, director, make_user)
    helper = staff_services.staff_create(
        tournament=Tournament.objects.get(slug="closed-cup"),
        username="helper",
        role=Role.SCORER,
        with_link=True,
    )
    browser.get(proxy.url + helper.sign_in_path)
    browser.find_element("css selector", "main form button[type=submit]").click()
    wait_for(lambda: "/welcome/" not in browser.current_url, "the sign-in by the link")
    wait_for(lambda: cached_pages(browser) == [], "the page copies forgotten")
    nothing_offline(browser, proxy, page, private, name, "offline-after-sign-in-link-390.png")


def test_a_session_that_ended_on_the_server_forgets_the_copies_at_the_next_page(
    browser, proxy, make_tournament, director, make_user
):
    from django.contrib.sessions.models import Session

    page, private, name, _referee = referees_copy(browser, proxy, make_tournament, director, make_user)
    Session.objects.all().delete()  # the session expired (or was ended) on the server
    browser.get(proxy.url + "/")
    wait_for(lambda: cached_pages(browser) == [], "the page copies forgotten")
    nothing_offline(browser, proxy, page, private, name, "offline-after-session-ended-390.png")


def test_a_copy_is_not_shown_past_the_end_of_its_session_even_offline(
    browser, proxy, make_tournament, director, make_user
):
    """The phone never comes back online: the copy carries its session's end, past which the worker
    forgets it instead of showing it."""
    import datetime as dt

    from django.contrib.sessions.models import Session
    from django.utils import timezone

    page, private, name, _referee = referees_copy(browser, proxy, make_tournament, director, make_user)
    ends = timezone.now() + dt.timedelta(seconds=3)
    Session.objects.update(expire_date=ends)  # the session ends in 3 s
    browser.get(proxy.url + page)  # online: the copy is taken again, with its session's end

    def copy_ends():
        browser.set_script_timeout(5)
        return browser.execute_async_script(
            "const done = arguments[arguments.length - 1];"
            "caches.match(arguments[0]).then(r => done(r ? r.headers.get('X-Offline-Until') : null))"
            ".catch(() => done(null));",
            page,
        )

    wait_for(lambda: copy_ends() == str(int(ends.timestamp() * 1000)), "the copy with its session's end")
    network(browser, proxy, online=False)

    def forgotten():
        browser.get(proxy.url + page)
        return private not in browser.page_source

    wait_for(forgotten, "the copy forgotten once its session ended")
    source = browser.page_source
    browser.save_screenshot(str(ARTIFACTS / "offline-after-session-expired-390.png"))
    assert name not in source and "closed-cup" not in source.replace(page, "")
    network(browser, proxy, online=True)
    assert cached_pages(browser) == []


def test_the_tile_picker_offline_says_the_server_values_the_hand_later(browser, proxy, tournament):
    table = seat_session(tournament)[0]
    open_table(browser, proxy, table)
    network(browser, proxy, online=False)
    browser.find_element("css selector", "form.hand-form input[name=result][value=win]").click()
    tile = browser.find_element("css selector", ".tp-tile[data-tile='1m']")
    browser.execute_script("arguments[0].scrollIntoView({block: 'center'});", tile)
    tile.click()

    def value() -> str:
        return browser.execute_script(
            "const v = document.getElementById('tile-value'); return v ? v.innerText : '';"
        )

    said = wait_for(
        lambda: "No network" in value() and value(), "the value line to say it waits for the network"
    )
    assert "worked out by the server when the hand is sent" in said
    browser.execute_script("document.getElementById('tile-value').scrollIntoView({block: 'center'});")
    browser.save_screenshot(str(ARTIFACTS / "offline-tile-value-390.png"))
    network(browser, proxy, online=True)  # back online: the preview is asked for again
    wait_for(lambda: value() and "No network" not in value(), "the server's preview once online")


def late_rows(driver) -> list[str]:
    """The numbers of the hands whose row carries the "after time" mark."""
    return driver.execute_script(
        "return [...document.querySelectorAll('#hands tr.desc')]"
        ".filter(r => r.querySelector('[data-late-mark] .late-mark')).map(r => r.querySelector('td.hn').innerText)"
    )


def hand_rows(driver) -> list[str]:
    return [td.text for td in driver.find_elements("css selector", "#hands td.hn")]


def test_the_after_time_marks_of_kept_rows_follow_the_tables_time(browser, proxy, tournament, director):
    """Table 1's time ended an hour ago. Hand 2, saved after time, names hand 1 as after time too: a phone
    whose row of hand 1 has no mark draws the page again. Then the director gives the table two more hours:
    the phone's next save draws hand 3 only, and the kept rows of hands 1 and 2 lose their marks."""
    from django.utils import timezone

    from tournaments import lifecycle
    from tournaments.clock import servertime
    from tournaments.clock import services as clock
    from tournaments.models import Session

    table = seat_session(tournament)[0]
    session = table.session
    Session.objects.filter(pk=session.pk).update(seating_published=True)
    lifecycle.session_move(session=Session.objects.get(pk=session.pk), to=Session.Status.SEATED)
    an_hour_ago = timezone.now() - dt.timedelta(hours=1)
    with servertime.override(lambda: an_hour_ago):
        clock.clock_act(tournament=tournament, user=director, action="start", seconds=600)
    director_actor = Actor(user=director, role=Role.DIRECTOR)
    services.hand_add(table=table, hand={"result": "draw"}, actor=director_actor, expected_version=None)
    open_table(browser, proxy, table)
    assert late_rows(browser) == ["1"]
    browser.execute_script("document.getElementById('hands').scrollIntoView();")
    browser.save_screenshot(str(ARTIFACTS / "offline-late-mark-390.png"))

    # a row drawn without the mark the server now gives it: the page is drawn again, whole
    browser.execute_script("document.querySelector('#hands [data-late-mark]').remove();")
    fetched = page_fetches(browser, table)
    enter(browser, winner=1, discarder="3", fan=8)
    wait_for(lambda: hand_rows(browser) == ["2", "1"] and late_rows(browser) == ["2", "1"], "the page again")
    assert page_fetches(browser, table) == fetched + 2  # the save, then the page read again

    clock.clock_act(tournament=tournament, user=director, action="extend", seconds=7200, table=1)
    fetched = page_fetches(browser, table)
    enter(browser, winner=0, discarder="2", fan=8)
    wait_for(lambda: hand_rows(browser) == ["3", "2", "1"], "hand 3")
    assert page_fetches(browser, table) == fetched + 1  # the save's own answer: the rows of 1 and 2 kept
    assert late_rows(browser) == []
    assert not browser.find_elements("css selector", "#hands [data-late], #hands [data-late-mark]")
    assert "after time" not in browser.find_element("id", "hands").text
    first = browser.find_elements("css selector", "#hands tr.desc td[colspan]")[2].text
    assert first.startswith("East round · Draw"), first  # hand 1's row reads as if never marked
    browser.execute_script("document.getElementById('hands').scrollIntoView();")
    browser.save_screenshot(str(ARTIFACTS / "offline-late-mark-removed-390.png"))
