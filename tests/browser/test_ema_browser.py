"""Headless Chromium on a 390 × 844 phone screen: a player's EMA ranking page (results with Part A/B marks
and the chart of the ranking over time) and the ranking page with its filters, without sideways scrolling.
Screenshots go to test-artifacts/."""

from __future__ import annotations

import datetime as dt

import pytest
from django.utils import timezone

from rankings.ema.imports import TournamentFacts, results_import
from rankings.ema.services import ema_ranking_recompute
from tests.browser.chromium import ARTIFACTS, no_sideways_scroll, start, wait_for
from tests.ema.files import csv_bytes

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WIDTH, HEIGHT = 390, 844


@pytest.fixture
def phone(tmp_path):
    driver = start(tmp_path / "profile", WIDTH, HEIGHT)
    yield driver
    driver.quit()


def history():
    """Ana Alba plays 9 imported tournaments over four years, with places from 1st to 9th of 12."""
    today = timezone.localdate()
    for n in range(9):
        ends_on = today - dt.timedelta(days=30 + 160 * n)
        ana_place = [2, 1, 5, 3, 9, 4, 1, 7, 6][n]
        rows, others = [], iter(range(100))
        for place in range(1, 13):
            if place == ana_place:
                rows.append([place, "04010001", "Alba", "Ana", "ESP", "Yes", 20 - place, 100 - place])
            else:
                k = next(others)
                rows.append(
                    [
                        place,
                        f"0420{k:04d}",  # the same players in every tournament: listed
                        f"Player{k}",
                        "Other",
                        ["FRA", "NLD", "DEU"][k % 3],
                        "Yes",
                        20 - place,
                        100 - place + n,  # no two files alike
                    ]
                )
        results_import(
            data=csv_bytes(rows),
            facts=TournamentFacts(
                name=f"Copa de Primavera {2026 - n}", family="mcr", starts_on=ends_on - dt.timedelta(1), days=2,
                city="Salamanca", country="ESP",
            ),
        )  # fmt: skip
    # Bo Solo plays one tournament: not listed (two results that still count are needed)
    results_import(
        data=csv_bytes([[1, "04990001", "Solo", "Bo", "ESP", "Yes", 8, 60], [2, "", "Uno", "Ugo", "ESP", "No", 0, -60]]),
        facts=TournamentFacts(name="Torneo de Otoño", family="mcr", starts_on=today - dt.timedelta(5), city="León"),
    )  # fmt: skip
    ema_ranking_recompute()


def test_a_players_ranking_page_on_a_phone(phone, live_server):
    history()
    phone.get(f"{live_server.url}/ranking/mcr/04010001/")
    assert phone.execute_script("return window.innerWidth;") == WIDTH
    assert no_sideways_scroll(phone)
    chart = phone.find_element("css selector", "svg.ranking-chart")
    box = phone.execute_script(
        "const r = arguments[0].getBoundingClientRect(); return [r.width, r.height];", chart
    )
    assert 300 <= box[0] <= WIDTH and box[1] > 150  # the chart fills the phone's width, tall enough to read
    labels = phone.execute_script(
        "return [...arguments[0].querySelectorAll('text')].map(t => t.getBoundingClientRect().height);", chart
    )
    assert min(labels) >= 10  # axis labels at least 10 px high on the phone
    rows = phone.find_elements("css selector", "table.results-table tr.result")
    assert len(rows) == 5  # the results of the last two years; older ones no longer count
    marks = [r.find_elements("css selector", "td")[3].text for r in rows]
    assert "A+B" in marks
    phone.save_screenshot(str(ARTIFACTS / "ema-player-390.png"))
    phone.execute_script("window.scrollTo(0, document.body.scrollHeight);")
    phone.save_screenshot(str(ARTIFACTS / "ema-player-390-results.png"))

    phone.get(f"{live_server.url}/ranking/mcr/?country=FRA")
    assert no_sideways_scroll(phone)
    names = [e.text for e in phone.find_elements("css selector", "#ranking-results td.name a")]
    assert names and all("Other" in n for n in names)
    phone.get(f"{live_server.url}/ranking/mcr/?q=alba")
    assert [e.text for e in phone.find_elements("css selector", "#ranking-results td.name a")] == ["Ana Alba"]
    phone.save_screenshot(str(ARTIFACTS / "ema-ranking-390.png"))

    # a player with one result: no line in the ranking, a page that says what is missing
    phone.get(f"{live_server.url}/ranking/mcr/?q=solo")
    assert phone.find_elements("css selector", "#ranking-results td.name a") == []
    phone.get(f"{live_server.url}/ranking/mcr/04990001/")
    assert no_sideways_scroll(phone)
    notice = phone.find_element("css selector", "#not-listed").text
    assert "Not listed in this ranking" in notice and "Missing: 1 more result" in notice
    assert len(phone.find_elements("css selector", "table.results-table tr.result")) == 1
    phone.save_screenshot(str(ARTIFACTS / "ema-player-not-listed-390.png"))


def test_checking_a_faulty_file_on_a_phone_lists_every_fault(phone, live_server, django_user_model, tmp_path):
    django_user_model.objects.create_user(username="office", password="pw-for-tests-123", is_staff=True)
    phone.get(f"{live_server.url}/accounts/login/?next=/ranking/imports/new/")
    phone.find_element("name", "username").send_keys("office")
    phone.find_element("name", "password").send_keys("pw-for-tests-123")
    phone.find_element("css selector", "main form button[type=submit]").click()
    wait_for(lambda: phone.find_elements("name", "file"), "the import page after logging in")
    bad = tmp_path / "open.csv"
    bad.write_bytes(
        csv_bytes(
            [
                [1, "04010001", "Alba", "Ana", "ESP", "Yes", 20, 100],
                [3, "0401", "Bravo", "Bea", "Atlantis", "Yes", 18, 90],
                [3, "04010003", "Conde", "Cid", "ESP", "maybe", 16, "x"],
            ]
        )
    )
    phone.find_element("name", "file").send_keys(str(bad))
    phone.find_element("name", "name").send_keys("Open de Vigo")
    day = (timezone.localdate() - dt.timedelta(days=3)).isoformat()
    phone.execute_script("document.querySelector('[name=starts_on]').value = arguments[0];", day)
    phone.find_element("css selector", "button[name=check]").click()
    faults = wait_for(lambda: phone.find_elements("css selector", "article.faults tbody tr"), "the faults")
    assert len(faults) == 5  # place, EMA number, country of line 3; EMA member and score of line 4
    assert no_sideways_scroll(phone)
    phone.save_screenshot(str(ARTIFACTS / "ema-import-faults-390.png"))
