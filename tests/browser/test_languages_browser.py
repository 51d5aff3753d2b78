"""One short day at the tables in each language of the site, on 390 × 844 phones (headless Chromium): a
player picks the language in the menu and finds their seat, a scorer enters a hand by its tiles on the
table's link, a referee records a late arrival. Every page is axe-clean, nothing is wider than the screen,
and no button, heading, label or badge cuts or overflows its text. Screenshots in
test-artifacts/languages-<language>/.

A language whose catalogue is not in locale/ yet is skipped (its pages would be English throughout);
each language is one short journey, on the one live server of the run."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.test import Client
from selenium.webdriver.support.ui import Select

from penalties.models import Penalty
from scoring.models import Hand
from tests.browser.phone import Journey, wait_for
from tournaments import services
from tournaments.models import Role, Session

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LANGUAGES = [code for code, _name in settings.LANGUAGES]
LOCALE = Path(settings.BASE_DIR) / "locale"
# Text that does not fit its box: a button, heading, label, table header, badge, menu entry or summary whose
# content is wider than the box and is clipped or spills out of it (not a box made to end a long name with
# an ellipsis, such as the players' names over the columns of the hands).
CUT = """
const out = [];
const boxes = 'button, [role=button], h1, h2, h3, label, th, summary, .badge, nav a, select, legend';
for (const el of document.querySelectorAll(boxes)) {
  if (!el.offsetParent || el.clientWidth === 0) continue;
  // a box made to shorten what it holds (a player's name over a column of scores) ends it with "…"
  if (getComputedStyle(el).textOverflow === 'ellipsis' && el.tagName !== 'BUTTON') continue;
  if (el.scrollWidth > el.clientWidth + 1) {
    out.push(el.tagName + ' ' + (el.innerText || el.value || '').trim().slice(0, 50) + ' ' + el.scrollWidth + '>' + el.clientWidth);
  }
}
return out.slice(0, 10);
"""


@pytest.fixture
def day(make_tournament, make_user):
    """An MCR tournament of four players, session 1 seated and published; a referee; table 1."""
    tournament = make_tournament("languages-day", players=4, sessions=1)
    session = tournament.sessions.get(number=1)
    regs = list(tournament.registrations.order_by("key"))
    table = services.session_seat(session=session, tables=[regs])[0]
    Session.objects.filter(pk=session.pk).update(seating_published=True)
    referee = make_user("languages-referee")
    services.role_grant(tournament=tournament, user=referee, role=Role.REFEREE)
    return tournament, table, referee


def choose_language(phone, language: str) -> None:
    """The language menu at the top of the page: the page comes back in that language."""
    menu = phone.find("form.lang select[name=language]")
    assert phone.driver.execute_script("return arguments[0].getBoundingClientRect().right;", menu) <= 390
    Select(menu).select_by_value(language)
    wait_for(lambda: phone.language() == language, f"the page in {language}")
    phone._arrived()


def text_cut(phone) -> list[str]:
    return [f"{phone.page}: {line}" for line in phone.driver.execute_script(CUT)]


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_short_day_at_the_tables_in_each_language(phones, live_server, day, language):
    if language != "en" and not (LOCALE / language / "LC_MESSAGES" / "django.mo").exists():
        pytest.skip(f"no {language} catalogue in locale/ yet")
    tournament, table, referee = day
    journey = Journey(language, live_server.url, folder=f"languages-{language}", axe=True)
    cut: list[str] = []

    # a player opens the site, picks the language, finds their seat
    player = phones("player", journey)
    player.go("/")
    choose_language(player, language)
    player.go(f"/t/{tournament.slug}/?name=Player1")
    assert player.language() == language
    wait_for(lambda: player.finds("#seat-results .seat-found strong"), "the seat")
    cut += text_cut(player)

    # the scorer of table 1, on the table's link: a hand by its tiles (11 fan, robbing the kong)
    scorer = phones("scorer", journey)
    scorer.go("/")
    choose_language(scorer, language)
    scorer.go(f"/table/{table.private_key}/")
    assert scorer.language() == language
    for name, value in (("winner", "0"), ("discarder", "2")):
        scorer.driver.execute_script(
            "const el = document.querySelector(`select[name='${arguments[0]}']`); el.value = arguments[1];"
            "el.dispatchEvent(new Event('change', {bubbles: true}));",
            name,
            value,
        )
    scorer.tap(".tp-mode[data-mode='pung']")
    scorer.tap(".tp-tile[data-tile='7z']")
    scorer.tap(".tp-mode[data-mode='chow']")
    scorer.tap(".tp-tile[data-tile='3s']")
    for code in ("2m", "3m", "5m", "6m", "7m", "9p", "9p", "4m"):
        scorer.tap(f".tp-tile[data-tile='{code}']")
    scorer.tap("input[name='tiles_flags'][value='robbing_kong']")
    wait_for(lambda: "11" in scorer.find("#tile-value").text, "the value of the tiles")
    scorer.shot("tiles")
    cut += text_cut(scorer)
    scorer.tap("form.hand-form button[type=submit]")
    wait_for(lambda: Hand.objects.filter(result__table=table).exists(), "the saved hand")
    wait_for(lambda: not scorer.finds("#entry-sending"), "the page after the hand")
    scorer.shot("saved")
    cut += text_cut(scorer)

    # the referee, signed in, records the late arrival of the player in the North seat
    client = Client()
    client.force_login(get_user_model().objects.get(pk=referee.pk))
    official = phones("referee", journey)
    official.go("/")
    official.driver.add_cookie({"name": "sessionid", "value": client.cookies["sessionid"].value, "path": "/"})
    choose_language(official, language)
    official.go(f"/t/{tournament.slug}/s/1/table/1/")
    assert official.language() == language
    official.open_penalty_kind("late_arrival")
    cut += text_cut(official)
    late = next(
        o.get_attribute("value")
        for o in official.finds("#record select[name=player] option")
        if o.get_attribute("value")
    )
    official.fill("#record", {"player": late, "minutes_late": "5"})
    official.submit("#record")
    assert Penalty.objects.filter(table=table, kind="late_arrival").exists(), official.text()[:400]
    assert official.messages()
    cut += text_cut(official)

    (journey.folder / "pages.txt").write_text(journey.report())
    assert journey.wide == []
    assert journey.axe_found == {}
    assert cut == []
