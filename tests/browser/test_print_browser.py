"""Chromium prints the score sheets and the players' schedules to PDF at A4 and Letter: one table (or one
player) a page, the paper size the page asks for. The PDFs go to test-artifacts/."""

from __future__ import annotations

import base64
import re

import pytest
from django.conf import settings
from django.test import Client

from tests.browser.test_clock_browser import ARTIFACTS, chrome  # noqa: F401  (the fixture)
from tournaments import services as tservices

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

POINTS_PER_MM = 72 / 25.4


def pdf_pages(data: bytes) -> list[tuple[float, float]]:
    """Each page's size in millimetres, read from the MediaBox of its page object."""
    sizes = []
    for match in re.finditer(
        rb"/Type\s*/Page[^s].*?/MediaBox\s*\[\s*([\d.]+)\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)", data, re.S
    ):
        x0, y0, x1, y1 = (float(v) for v in match.groups())
        sizes.append((round((x1 - x0) / POINTS_PER_MM), round((y1 - y0) / POINTS_PER_MM)))
    return sizes


def print_pdf(driver, url: str) -> bytes:
    driver.get(url)
    result = driver.execute_cdp_cmd("Page.printToPDF", {"preferCSSPageSize": True, "printBackground": True})
    return base64.b64decode(result["data"])


def login(driver, live_server, user) -> None:
    client = Client()
    client.force_login(user)
    driver.get(f"{live_server.url}/")
    driver.add_cookie(
        {
            "name": settings.SESSION_COOKIE_NAME,
            "value": client.cookies[settings.SESSION_COOKIE_NAME].value,
            "path": "/",
        }
    )


def test_score_sheets_and_schedules_print_at_a4_and_letter(chrome, live_server, make_tournament, director):  # noqa: F811
    tournament = make_tournament(slug="print-open", director=director, players=12, sessions=2)
    regs = list(tournament.registrations.order_by("id"))
    for number in (1, 2):
        session = tournament.sessions.get(number=number)
        tservices.session_seat(session=session, tables=[regs[i : i + 4] for i in range(0, 12, 4)])
        session.seating_published = True
        session.save()
    login(chrome, live_server, director)

    a4 = print_pdf(chrome, f"{live_server.url}/t/print-open/s/1/print/sheets/?paper=a4")
    (ARTIFACTS / "score-sheets-mcr-a4.pdf").write_bytes(a4)
    assert pdf_pages(a4) == [(210, 297)] * 3  # one sheet per table
    letter = print_pdf(chrome, f"{live_server.url}/t/print-open/s/1/print/sheets/?paper=letter")
    (ARTIFACTS / "score-sheets-mcr-letter.pdf").write_bytes(letter)
    assert pdf_pages(letter) == [(216, 279)] * 3

    schedules = print_pdf(chrome, f"{live_server.url}/t/print-open/print/schedules/?per=4&paper=a4")
    (ARTIFACTS / "schedules-4-per-sheet-a4.pdf").write_bytes(schedules)
    assert pdf_pages(schedules) == [(210, 297)] * 3  # twelve players, four a sheet

    riichi = make_tournament(slug="print-riichi", ruleset="ema-riichi-2016", director=director, players=4)
    tservices.session_seat(session=riichi.sessions.get(number=1), tables=[list(riichi.registrations.all())])
    sheet = print_pdf(chrome, f"{live_server.url}/t/print-riichi/s/1/print/sheets/?paper=letter")
    (ARTIFACTS / "score-sheet-riichi-letter.pdf").write_bytes(sheet)
    assert pdf_pages(sheet) == [(216, 279)]
