"""Headless Chromium on a 390 × 844 phone: a scorer enters an MCR hand and a riichi hand with the tile
picker, sees the value and the fan or yaku computed by the server as the tiles are tapped, and saves them.
Screenshots go to test-artifacts/."""

from __future__ import annotations

import pytest

from scoring.models import Hand
from tests.browser.chromium import ARTIFACTS, click, no_sideways_scroll, start, wait_for
from tournaments import services as tournament_services

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def browser(tmp_path):
    driver = start(tmp_path / "profile")
    yield driver
    driver.quit()


def table_for(make_tournament, slug, ruleset):
    tournament = make_tournament(slug, ruleset=ruleset, players=4, sessions=1)
    regs = list(tournament.registrations.order_by("key"))
    return tournament_services.session_seat(session=tournament.sessions.get(number=1), tables=[regs])[0]


def choose(browser, name, value):
    browser.execute_script(
        "const el = document.querySelector(`select[name='${arguments[0]}']`); el.value = arguments[1];"
        "el.dispatchEvent(new Event('change', {bubbles: true}));",
        name,
        value,
    )


def tap(browser, *codes, mode=None):
    """Tap a meld mode, then tiles of the palette: each found as the page shows it at the tap."""
    if mode:
        click(browser, f".tp-mode[data-mode='{mode}']")
    for code in codes:
        click(browser, f".tp-tile[data-tile='{code}']")


def value_text(browser) -> str:
    return browser.find_element("id", "tile-value").text


def test_mcr_hand_with_the_tile_picker(browser, live_server, make_tournament):
    table = table_for(make_tournament, "tiles-mcr", "mcr")
    browser.get(f"{live_server.url}/table/{table.private_key}/")
    assert browser.execute_script("return window.innerWidth;") == 390
    choose(browser, "winner", "0")
    choose(browser, "discarder", "2")
    tap(browser, "7z", mode="pung")
    tap(browser, "3s", mode="chow")
    tap(browser, "2m", "3m", "5m", "6m", "7m", "9p", "9p", "4m")
    # the notation fields follow the taps, sorted
    assert browser.find_element("name", "tiles_hand").get_attribute("value") == "234567m99p"
    assert browser.find_element("name", "tiles_melds").get_attribute("value") == "pung 777z, chow 345s"
    assert browser.find_element("name", "tiles_winning").get_attribute("value") == "4m"
    wait_for(lambda: "Not a complete" in value_text(browser) or "fan" in value_text(browser), "a value")
    # without the robbing flag the hand has 3 fan: the server says it is below the minimum
    wait_for(lambda: "below the MCR minimum of 8" in value_text(browser), "the minimum refusal")
    flag = browser.find_element("css selector", "input[name='tiles_flags'][value='robbing_kong']")
    browser.execute_script("arguments[0].scrollIntoView({block: 'center'});", flag)
    flag.click()
    wait_for(lambda: "11 fan" in value_text(browser), "11 fan")
    text = value_text(browser)
    assert "Robbing The Kong" in text and "Dragon Pung" in text and "Short Straight" in text
    assert no_sideways_scroll(browser, body=False)
    browser.execute_script("document.getElementById('tile-value').scrollIntoView({block: 'end'});")
    browser.save_screenshot(str(ARTIFACTS / "tiles-mcr-390.png"))
    browser.execute_script("document.querySelector('[data-tile-picker]').scrollIntoView({block: 'start'});")
    browser.save_screenshot(str(ARTIFACTS / "tiles-mcr-picker-390.png"))
    browser.find_element("css selector", "form.hand-form button[type=submit]").click()
    wait_for(lambda: Hand.objects.filter(result__table=table).exists(), "the saved hand")
    hand = Hand.objects.get(result__table=table)
    assert hand.data["fan"] == 11 and hand.valuation["status"] == "filled"
    assert hand.data["tiles"]["melds"] == ["pung 777z", "chow 345s"]
    # the table page shows the saved hand once the server's answer has replaced it
    wait_for(lambda: "Tiles: 11 fan" in browser.page_source, "the saved hand on the page")


def test_riichi_hand_with_the_tile_picker(browser, live_server, make_tournament):
    table = table_for(make_tournament, "tiles-riichi", "ema-riichi-2016")
    browser.get(f"{live_server.url}/table/{table.private_key}/")
    choose(browser, "loser", "2")
    choose(browser, "winner", "0")
    riichi = browser.find_element("css selector", "input[name='riichi'][value='0']")
    browser.execute_script("arguments[0].click();", riichi)
    tap(browser, "2m", "3m", "4m", "5m", "6m", "7m", "2p", "3p", "5p", "5p", "6s", "7s", "8s", "4p")
    assert browser.find_element("name", "tiles_hand").get_attribute("value") == "234567m23455p678s"
    # the dealer's ron with riichi, pinfu and tanyao: 3 han 30 fu, 5800
    wait_for(lambda: "3 han 30 fu" in value_text(browser), "3 han 30 fu")
    text = value_text(browser)
    assert "Riichi" in text and "Pinfu" in text and "Tanyao" in text and "ron 5800" in text
    # a tap on a tile of the hand takes it out again, and the value says the hand is not complete
    browser.find_element("css selector", "[data-tp-hand] .tp-in[data-tile='8s']").click()
    wait_for(lambda: "Not a complete" in value_text(browser), "the incomplete hand")
    tap(browser, "8s")
    browser.find_element("css selector", ".tp-mode[data-mode='winning']").click()
    browser.find_element("css selector", "[data-tp-hand] .tp-in[data-tile='4p']").click()
    wait_for(lambda: "3 han 30 fu" in value_text(browser), "3 han 30 fu again")
    assert no_sideways_scroll(browser, body=False)
    browser.execute_script("document.getElementById('tile-value').scrollIntoView({block: 'end'});")
    browser.save_screenshot(str(ARTIFACTS / "tiles-riichi-390.png"))
    browser.execute_script("document.querySelector('[data-tile-picker]').scrollIntoView({block: 'start'});")
    browser.save_screenshot(str(ARTIFACTS / "tiles-riichi-picker-390.png"))
    submit = browser.find_element("css selector", "form.hand-form button[type=submit]")
    browser.execute_script("arguments[0].scrollIntoView({block: 'center'});", submit)
    submit.click()
    wait_for(lambda: Hand.objects.filter(result__table=table).exists(), "the saved hand")
    hand = Hand.objects.get(result__table=table)
    assert hand.data["winners"][0]["han"] == 3 and hand.data["winners"][0]["fu"] == 30
    assert hand.data["winners"][0]["tiles"]["winning_tile"] == "4p"


def test_a_director_describes_the_colours_of_a_salamanca_tile_set(
    browser, live_server, make_tournament, make_user
):
    """Art. 32 played with colours: the rules page's table of tiles, one row of checkboxes per tile."""
    from django.test import Client

    director = make_user("colours-director")
    tournament = make_tournament("colours", ruleset="salamanca", director=director)
    client = Client()
    client.force_login(director)
    browser.get(f"{live_server.url}/")
    browser.add_cookie({"name": "sessionid", "value": client.cookies["sessionid"].value, "path": "/"})
    browser.get(f"{live_server.url}/t/{tournament.slug}/console/rules/")
    details = browser.find_element("id", "colours")
    browser.execute_script(
        "arguments[0].open = true; arguments[0].scrollIntoView({block: 'start'});", details
    )
    rows = browser.find_elements("css selector", "#colours tbody tr")
    assert len(rows) == 16 and len(browser.find_elements("css selector", "#colours tbody svg")) == 16
    for tile in [f"{n}s" for n in range(2, 10)] + [f"{n}p" for n in range(2, 10)]:
        for colour in ("g",) if tile.endswith("s") else ("r", "g"):
            box = browser.find_element("css selector", f"input[name='colour_{tile}'][value='{colour}']")
            browser.execute_script("arguments[0].click();", box)
    assert no_sideways_scroll(browser, body=False)
    browser.save_screenshot(str(ARTIFACTS / "rules-salamanca-colours-390.png"))
    submit = browser.find_element("css selector", "#rules-form button[type=submit]")
    browser.execute_script("arguments[0].scrollIntoView({block: 'center'});", submit)
    submit.click()
    wait_for(lambda: "The rules are saved." in browser.page_source, "the saved rules")
    tournament.refresh_from_db()
    assert tournament.rules["colours"] == " ".join(
        [f"{n}s:g" for n in range(2, 10)] + [f"{n}p:rg" for n in range(2, 10)]
    )
