"""Headless Chromium on a 390 × 844 phone: under EMA 2025 the riichi hand form asks for the liable player
(pao) of a tsumo; once tiles are tapped it keeps asking only while they hold big three dragons with the
three dragon sets called. The saved hand is listed as paid by the liable player. Screenshots go to
test-artifacts/."""

from __future__ import annotations

import pytest

from scoring.models import Hand
from tests.browser.chromium import ARTIFACTS, click, no_sideways_scroll, start, wait_for
from tests.browser.test_tiles_browser import choose, table_for, tap

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def browser(tmp_path):
    driver = start(tmp_path / "profile")
    yield driver
    driver.quit()


def liability_shown(browser) -> bool:
    """Read in one script: the form is redrawn under the test's feet as the tiles are valued."""
    return browser.execute_script(
        "const l = document.getElementById('liability'); return !!l && l.getClientRects().length > 0;"
    )


def test_the_liable_player_of_big_three_dragons(browser, live_server, make_tournament):
    table = table_for(make_tournament, "pao-browser", "ema-riichi-2025")
    browser.get(f"{live_server.url}/table/{table.private_key}/")
    click(browser, "input[name='result'][value='tsumo']")
    choose(browser, "winner", "1")
    assert liability_shown(browser)  # no tiles yet: the field is there for a yakuman claimed by han
    tap(browser, "1m", "2m", "3m", "4p")
    wait_for(lambda: not liability_shown(browser), "the field hidden for tiles without the yakuman")
    click(browser, "[data-tp-hand] .tp-in[data-tile='4p']")
    tap(browser, "5z", mode="pung")
    tap(browser, "6z", mode="pung")
    tap(browser, "7z", mode="pung")
    tap(browser, "5p", "5p")
    assert (
        browser.execute_script("return document.querySelector('[name=tiles_melds]').value;")
        == "pung 555z, pung 666z, pung 777z"
    )
    wait_for(
        lambda: (
            "yakuman"
            in browser.execute_script("return document.getElementById('tile-value').innerText;").lower()
        ),
        "the yakuman",
    )
    wait_for(lambda: liability_shown(browser), "the field shown for big three dragons")
    choose(browser, "liable", "2")
    assert no_sideways_scroll(browser, body=False)
    browser.execute_script("document.getElementById('liability').scrollIntoView({block: 'center'});")
    browser.save_screenshot(str(ARTIFACTS / "liability-390.png"))
    click(browser, "form.hand-form button[type=submit]")
    wait_for(lambda: Hand.objects.filter(result__table=table).exists(), "the saved hand")
    hand = Hand.objects.get(result__table=table)
    assert (hand.data["han"], hand.data["liable"]) == (13, 2)
    wait_for(lambda: "paid by Player3" in browser.page_source, "the hand listed as paid by the liable player")
    browser.save_screenshot(str(ARTIFACTS / "liability-listed-390.png"))
