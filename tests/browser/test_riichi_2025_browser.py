"""A riichi 2025 session through the pages on a 390 × 844 phone, as a referee plays it: the EMA rules 2025
§7.2 (ema-riichi-rules-2025.txt, lines 1322-1325) and §7.3 (lines 1326-1337) with the preset's own figures.

At table 1 Player1 is 6 minutes late (−6,000 after uma). At table 2 Player5 is 12 minutes late: the form
goes straight to the substitution, Sub1 takes the seat before the game began. The referee enters both
tables' totals and confirms them; the standings, Player5's page and the rules page say the figures of
§7.2 and §7.3. Screenshots go to test-artifacts/riichi-2025/."""

from __future__ import annotations

import pytest

from tests.browser.phone import Journey, Phone, wait_for
from tournaments import services
from tournaments.models import Session

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SLUG = "riichi-2025-browser"
MINUS = "\u2212"


@pytest.fixture
def seated(make_tournament, make_user):
    director = make_user("boss")
    tournament = make_tournament(
        SLUG, ruleset="ema-riichi-2025", director=director, sessions=2, substitutes=1
    )
    regs = {r.key: r for r in tournament.registrations.all()}
    for number in (1, 2):
        services.session_seat(
            session=tournament.sessions.get(number=number),
            tables=[[regs[k] for k in t.split()] for t in ("p1 p2 p3 p4", "p5 p6 p7 p8")],
        )
    Session.objects.filter(tournament=tournament).update(seating_published=True)
    return tournament


def record(phone: Phone, kind: str, player: str, values: dict) -> None:
    phone.open_penalty_kind(kind)
    phone.fill("#record", {"player": player, **values})
    phone.submit("#record")


def totals_and_confirm(phone: Phone, table: int, scores: list[int]) -> None:
    phone.go(f"/t/{SLUG}/s/1/table/{table}/")
    phone.tap(phone.find("#totals summary"))
    phone.fill("#totals form", {f"score{i}": v for i, v in enumerate(scores)})
    phone.submit("#totals form")
    if phone.finds("#confirm [name=short_reason]"):
        phone.fill("#confirm", {"short_reason": "Time limit"})
    phone.submit("#confirm")
    assert f"Table {table} confirmed." in phone.messages(), phone.text()[:600]


def test_a_late_player_and_a_substitute_through_the_pages(live_server, phones, seated):
    journey = Journey("riichi-2025", live_server.url, folder="riichi-2025")
    referee = phones("referee", journey)
    referee.go("/accounts/login/")
    referee.fill("main form", {"username": "boss", "password": "pw-for-tests-123"})
    referee.submit("main form")

    # §7.2: 6 minutes late at table 1, the form states the scale and the rounding
    referee.go(f"/t/{SLUG}/s/1/table/1/")
    referee.open_penalty_kind("late_arrival")
    assert "a started minute counted whole (9 min 30 s late: 10)" in referee.text()
    referee.fill("#record", {"player": "p1", "minutes_late": 6})
    referee.submit("#record")
    assert f"{MINUS}6000" in referee.messages() or "-6000" in referee.messages(), referee.messages()

    # §7.3: 12 minutes late at table 2: out, and straight to the substitution (before the game began)
    referee.go(f"/t/{SLUG}/s/1/table/2/")
    record(referee, "late_arrival", "p5", {"minutes_late": 12})
    assert "/penalty/replaced/" in referee.driver.current_url
    assert "out of this session (late past the limit)" in referee.messages()
    assert "After the game at the table began" in referee.text()
    referee.fill("#record", {"substitute": "s1"})
    referee.submit("#record")

    totals_and_confirm(referee, 1, [45000, 32000, 25000, 18000])
    totals_and_confirm(referee, 2, [45000, 32000, 25000, 18000])  # Sub1 first in Player5's seat

    referee.go(f"/t/{SLUG}/standings/")
    standings = wait_for(lambda: "Player5" in referee.text() and referee.text(), "the standings")
    lines = {
        line.split("\t")[1]: line for line in standings.splitlines() if "\t" in line and "Player" in line
    }
    # Player1: +15,000 + 15,000 uma − 6,000 = 24,000; Player5: substituted, −30,000; Player6: Sub1's
    # score counts (before the game began): 2,000 + 5,000 = 7,000
    shown = {name.split()[0]: line for name, line in lines.items()}
    assert "24000" in shown["Player1"] and "30000" in shown["Player5"] and "7000" in shown["Player6"], (
        standings
    )
    assert "Sub1" not in shown  # a substitute has no place

    referee.go(f"/t/{SLUG}/p/p5/")
    page = referee.text()
    assert "Replaced by Sub1" in page and "15000" in page and "30000" in page, page

    referee.go(f"/t/{SLUG}/console/rules/")
    rules = referee.text("#rule-summary")
    assert "scores −15000 points and −15000 uma for that session (−30000 in all)" in rules, rules
    assert "nothing sounds at the end" in rules
    (journey.folder / "pages.txt").write_text(journey.report())
