"""Headless Chromium at 390 px: what each player needs (the table of every player and a player's own
answers), the what-if of the EMA ranking and a player's page across tournaments: each in English and
Spanish, without sideways scrolling and with no serious or critical axe-core violation. Screenshots go to
test-artifacts/."""

from __future__ import annotations

import pytest

from tests.browser.chromium import ARTIFACTS, no_sideways_scroll, serious_violations, start, wait_for
from tests.ema.test_pages_api import ranked  # noqa: F401  (Ana 04010001: a ranked player)
from tests.rankings.test_needs_pages import SEATING_2
from tests.rankings.test_standings_pages import SESSION_1, play, seat
from tournaments.teams.services import team_save, team_size_set

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def phone(tmp_path):
    driver = start(tmp_path / "profile", 390, 844)
    yield driver
    driver.quit()


def test_the_new_pages_on_a_phone_in_both_languages(phone, live_server, make_tournament, director, ranked):  # noqa: F811
    from tournaments.models import Registration

    tournament = make_tournament(slug="needs-open", director=director)
    play(tournament, director, SESSION_1)
    seat(tournament, 2, SEATING_2, status="seated")
    team_size_set(tournament=tournament, size=2)
    for name, members in (("Aces", ["p1", "p4"]), ("Bamboo", ["p2", "p3"]), ("Circles", ["p5", "p7"])):
        team_save(tournament=tournament, name=name, member_keys=members)
    unseated = make_tournament(slug="needs-unseated", director=director)
    play(unseated, director, SESSION_1)  # session 2 not seated: for any seating
    player = Registration.objects.get(tournament=tournament, key="p1").player
    pages = {
        "needs": (f"/t/{tournament.slug}/standings/needs/?cut=5", "#needs tr[data-player='p1']"),
        "player-needs": (f"/t/{tournament.slug}/p/p1/", "#player-needs dl"),
        "needs-any-seating": (f"/t/{unseated.slug}/standings/needs/", "#needs-any-seating"),
        "what-if": (
            "/ranking/mcr/04010001/what-if/?players=40&place=3&days=2&countries=6",
            "#what-if-answer",
        ),
        "players": (f"/players/{player.pk}/", "#played-here"),
    }
    faults = {}
    for language in ("en", "es"):
        phone.delete_all_cookies()
        phone.get(f"{live_server.url}/")
        phone.add_cookie({"name": "django_language", "value": language, "path": "/"})
        for name, (path, selector) in pages.items():
            phone.get(live_server.url + path)
            found = wait_for(
                lambda selector=selector: (
                    phone.find_elements("css selector", selector)
                    or phone.find_elements("css selector", "main")
                ),
                path,
            )
            assert found
            assert phone.execute_script("return document.documentElement.lang;") == language, path
            if not no_sideways_scroll(phone):
                faults[f"{name}-{language}"] = "sideways scrolling"
            violations = serious_violations(phone)
            if violations:
                faults[f"{name}-{language} axe"] = violations
            phone.save_screenshot(str(ARTIFACTS / f"new-{name}-{language}-390.png"))
    assert faults == {}
    # the figures the player reads are those of the page tests: p1 sure of first with 2.33
    phone.delete_all_cookies()
    phone.get(f"{live_server.url}/t/{tournament.slug}/p/p1/")
    text = phone.find_element("id", "player-needs").text
    assert "sure with 2.33, possible from 1 (place 3)" in text
    phone.get(f"{live_server.url}/t/{tournament.slug}/standings/needs/")
    assert "Aces" in phone.find_element("id", "team-needs").text
