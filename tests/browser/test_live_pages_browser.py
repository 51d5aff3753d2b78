"""A player's page keeps itself current like the standings: a table confirmed while it is open shows
without a reload; with the network cut the page says since when it is showing old data, and the notice
goes when the network is back (a phone behind the tests' network proxy). "Find my seat" on the
tournament's page answers again when the seating is published. Screenshots go to test-artifacts/."""

from __future__ import annotations

import re

import pytest
from django.core.cache import cache
from django.test import override_settings

from tests.browser.chromium import ARTIFACTS, wait_for
from tests.rankings.test_standings_pages import confirm, seat
from tournaments import pagecache
from tournaments.seating.services import seating_publish

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def shown(driver, selector: str) -> str:
    return driver.execute_script(
        "const e = document.querySelector(arguments[0]); return e && !e.hidden ? e.innerText : '';", selector
    )


@override_settings(STANDINGS_POLL_SECONDS=1)
def test_a_players_page_follows_a_confirmation_and_says_when_it_is_offline(
    browser, proxy, make_tournament, director
):
    cache.clear()
    pagecache.local.clear()
    tournament = make_tournament(slug="live-open", director=director, players=8, sessions=2)
    tables = seat(tournament, 1, [["p1", "p2", "p3", "p4"], ["p5", "p6", "p7", "p8"]])
    browser.get(f"{proxy.url}/t/{tournament.slug}/p/p1/")
    wait_for(lambda: "playing" in shown(browser, "#live-player"), "p1's table being played", 20)
    browser.execute_script("window.notReloaded = true;")

    confirm(tables[0], [10, 5, -5, -10], director)  # the referee confirms p1's table
    wait_for(lambda: "confirmed" in shown(browser, "#live-player"), "the confirmed table on p1's page", 20)
    assert browser.execute_script("return window.notReloaded === true;")
    mine = shown(browser, "#live-player tr.me")
    assert "10" in mine.split(), mine  # p1's score at that table
    assert shown(browser, "#live-notice") == ""
    browser.save_screenshot(str(ARTIFACTS / "live-player-confirmed-390.png"))

    proxy.offline = True  # the venue's network goes down
    wait_for(lambda: shown(browser, "#live-notice"), "the notice of old data", 20)
    notice = shown(browser, "#live-notice")
    assert re.fullmatch(r"No connection since \d{2}:\d{2}:\d{2} — showing what we had\.", notice), notice
    assert "confirmed" in shown(browser, "#live-player")  # what the page had stays
    browser.save_screenshot(str(ARTIFACTS / "live-player-offline-390.png"))

    proxy.offline = False
    confirm(tables[1], [20, 0, -10, -10], director)
    wait_for(lambda: shown(browser, "#live-notice") == "", "the notice gone once back online", 20)
    assert browser.execute_script("return window.notReloaded === true;")

    # the standings say it the same way (one script for every page)
    browser.get(f"{proxy.url}/t/{tournament.slug}/standings/")
    wait_for(lambda: "Last updated at" in shown(browser, "#standings-freshness"), "the standings", 20)
    proxy.offline = True
    wait_for(
        lambda: shown(browser, "#live-notice").startswith("No connection since"), "the standings' notice", 20
    )
    browser.save_screenshot(str(ARTIFACTS / "live-standings-offline-390.png"))
    proxy.offline = False


@override_settings(STANDINGS_POLL_SECONDS=1)
def test_the_offline_notice_tells_the_time_as_the_page_does(browser, proxy, make_tournament, director):
    """A phone set to another time zone and a 12-hour clock: the notice says the time of the last answer
    in the tournament's zone, 24-hour with seconds, beside "Last updated at" told the same way."""
    import datetime as dt

    from django.utils import timezone

    cache.clear()
    pagecache.local.clear()
    browser.execute_cdp_cmd("Emulation.setTimezoneOverride", {"timezoneId": "America/New_York"})
    browser.execute_cdp_cmd("Emulation.setLocaleOverride", {"locale": "en-US"})
    tournament = make_tournament(slug="clock-open", director=director, players=8, sessions=2)
    tables = seat(tournament, 1, [["p1", "p2", "p3", "p4"], ["p5", "p6", "p7", "p8"]])
    confirm(tables[0], [10, 5, -5, -10], director)
    browser.get(f"{proxy.url}/t/{tournament.slug}/standings/")
    wait_for(lambda: "Last updated at" in shown(browser, "#standings-freshness"), "the standings", 20)
    proxy.offline = True
    notice = wait_for(lambda: shown(browser, "#live-notice"), "the standings' notice", 20)
    proxy.offline = False
    found = re.fullmatch(r"No connection since (\d{2}):(\d{2}):(\d{2}) — showing what we had\.", notice)
    assert found, notice
    said = dt.timedelta(hours=int(found[1]), minutes=int(found[2]), seconds=int(found[3]))
    here = timezone.localtime()  # the tournament's zone
    now = dt.timedelta(hours=here.hour, minutes=here.minute, seconds=here.second)
    assert (
        abs((now - said).total_seconds()) % 86400 < 120 or abs((now - said).total_seconds()) % 86400 > 86280
    )
    freshness = shown(browser, "#standings-freshness")
    assert re.search(r"Last updated at \d{2}:\d{2}:\d{2}", freshness), freshness


@override_settings(STANDINGS_POLL_SECONDS=1)
def test_find_my_seat_answers_again_when_the_seating_is_published(browser, proxy, make_tournament, director):
    cache.clear()
    pagecache.local.clear()
    tournament = make_tournament(slug="seat-open", director=director, players=8, sessions=2)
    browser.get(f"{proxy.url}/t/{tournament.slug}/")
    search = browser.find_element("css selector", "form[data-live-resubmit] input[type=search]")
    search.send_keys("Player5")
    wait_for(lambda: "not published yet" in shown(browser, "#seat-results"), "the search's first answer", 20)
    browser.execute_script("window.notReloaded = true;")

    seat(tournament, 1, [["p1", "p2", "p3", "p4"], ["p5", "p6", "p7", "p8"]], publish=False, status="planned")
    seating_publish(session=tournament.sessions.get(number=1))  # the director publishes the seating
    wait_for(lambda: "table 2, seat" in shown(browser, "#seat-results"), "Player5 seat", 20)
    assert browser.execute_script("return window.notReloaded === true;")
    # the panel of the next session is a region of its own, answered by its own request
    wait_for(lambda: "Seating of session 1" in shown(browser, "#live-next"), "the next session's seating", 20)
    assert browser.execute_script("return window.notReloaded === true;")
    browser.save_screenshot(str(ARTIFACTS / "live-find-my-seat-390.png"))


@override_settings(STANDINGS_POLL_SECONDS=1)
def test_the_hidden_standings_turn_into_the_standings_at_the_reveal(
    browser, make_tournament, director, live_server
):
    from tournaments.organising import services as organising_services

    cache.clear()
    pagecache.local.clear()
    tournament = make_tournament(
        slug="reveal-open", director=director, players=4, sessions=2, settings={"hide_last_sessions": 1}
    )
    (t1,) = seat(tournament, 1, [["p1", "p2", "p3", "p4"]])
    confirm(t1, [10, 5, -5, -10], director)
    (t2,) = seat(tournament, 2, [["p1", "p2", "p3", "p4"]])
    confirm(t2, [-40, -30, 40, 30], director)
    browser.get(f"{live_server.url}/t/{tournament.slug}/standings/")
    wait_for(lambda: "After session 1." in shown(browser, "#hidden-note"), "the hidden standings", 20)
    organising_services.standings_reveal(tournament=tournament)  # the prize-giving
    wait_for(lambda: shown(browser, "#standings-rows"), "the whole standings, without a reload by hand", 20)
    assert not shown(browser, "#hidden-note")
    first = browser.find_element("css selector", "#standings-rows tr").get_attribute("data-player")
    assert first == "p3"  # 40 - 5 = 35 after both sessions: first at the reveal
    browser.save_screenshot(str(ARTIFACTS / "live-standings-revealed-390.png"))
