"""Printed seatings (by table, by player, table cards with QR codes) and who may open the seating pages."""

from __future__ import annotations

import html as htmllib
import re

import pytest

from tournaments.models import Table

from .test_workflow_support import seating

pytestmark = pytest.mark.django_db


SCHEDULE = """
p1-p2-p3-p4
p5-p6-p7-p8
p9-p10-p11-p12

p1-p5-p9-p2
p6-p10-p3-p7
p11-p4-p8-p12
"""


@pytest.fixture
def seated(client, make_tournament, director):
    """12 players seated in sessions 1 and 2 (drafts) by the director."""
    tournament = make_tournament(slug="print", director=director, players=12, sessions=2)
    client.force_login(director)
    data = {"sessions": ["1", "2"], "names": "keys", "text": SCHEDULE}
    assert client.post(f"/t/{tournament.slug}/seating/import/", data).status_code == 302
    return tournament


def names(tournament) -> list[str]:
    return [r.player.full_name for r in tournament.registrations.select_related("player")]


def sort_names(tournament) -> dict[str, str]:
    """Each key's name as the entrance list shows it: last name first."""
    return {
        r.key: f"{r.player.last_name}, {r.player.first_name}"
        for r in tournament.registrations.select_related("player")
    }


def get(client, url: str) -> str:
    response = client.get(url)
    assert response.status_code == 200
    return htmllib.unescape(response.content.decode())


def test_seating_by_table_lists_every_table_with_names_by_wind(client, seated):
    html = get(client, f"/t/{seated.slug}/seating/print/tables/")
    assert "<nav" not in html  # a sheet to print: no navigation
    for n in (1, 2):
        assert f"Session {n}</h1>" in html
        for number, table in enumerate(seating(seated, n), start=1):
            cells = "".join(f"<td>{seated.registrations.get(key=k).player.full_name}</td>" for k in table)
            assert f"<tr><td>{number}</td>{cells}</tr>" in html
    one = get(client, f"/t/{seated.slug}/seating/print/tables/?session=2")
    assert "Session 2</h1>" in one and "Session 1</h1>" not in one


def test_seating_by_player_is_alphabetical_with_table_and_wind(client, seated):
    html = get(client, f"/t/{seated.slug}/seating/print/players/?session=1")
    rows = re.findall(r'<tr><td>([^<]+)</td>\s*<td class="seat">(\d+)</td><td class="seat">(\w+)</td>', html)
    by_name = {name: key for key, name in sort_names(seated).items()}
    assert [name for name, _, _ in rows] == sorted(by_name, key=str.casefold)
    winds = {"East": 0, "South": 1, "West": 2, "North": 3}
    tables = seating(seated, 1)
    for name, table, wind in rows:
        assert tables[int(table) - 1][winds[wind]] == by_name[name]

    every = get(client, f"/t/{seated.slug}/seating/print/players/?session=all")
    for name in sort_names(seated).values():
        assert f"<tr><td>{name}</td>" in every
    assert every.count('<td class="seat">') == 12 * 2


def test_table_cards_carry_a_qr_code_of_each_private_result_link(client, seated):
    html = get(client, f"/t/{seated.slug}/seating/print/cards/?session=1")
    tables = list(Table.objects.filter(session__tournament=seated, session__number=1).order_by("number"))
    cards = re.findall(r'<section class="table-card-print.*?</section>', html, re.S)
    assert len(cards) == len(tables) == 3
    for card, table in zip(cards, tables, strict=True):
        assert f"Table {table.number}</p>" in card
        assert card.count("<svg") == 1 and "<path" in card
        assert f"http://testserver/table/{table.private_key}/" in card
        for seat in table.seats.select_related("registration__player"):
            assert seat.registration.player.full_name in card
    assert html.count("page-break") == len(tables) - 1  # one card per page


def test_cards_default_to_the_next_session_and_unknown_sessions_are_404(client, seated):
    html = get(client, f"/t/{seated.slug}/seating/print/cards/")
    assert "Session 1</p>" in html and "Session 2</p>" not in html
    assert client.get(f"/t/{seated.slug}/seating/print/cards/?session=9").status_code == 404


@pytest.mark.parametrize(
    "path",
    [
        "seating/",
        "seating/settings/",
        "seating/print/tables/",
        "seating/print/players/",
        "seating/print/cards/?session=1",
    ],
)
def test_only_directors_open_the_seating_pages(client, seated, referee, scorer, make_user, path):
    url = f"/t/{seated.slug}/{path}"
    for user in (referee, scorer, make_user("player")):
        client.force_login(user)
        assert client.get(url).status_code == 403
    client.logout()
    response = client.get(url)
    assert response.status_code == 302 and "/accounts/login/" in response.url


@pytest.mark.parametrize(
    ("path", "data"),
    [
        ("seating/generate/", {"strategy": "schedule", "sessions": ["1"]}),
        ("seating/import/", {"sessions": ["1"], "text": "p1-p2-p3-p4"}),
        ("seating/replan/", {}),
        ("seating/settings/", {"seed": "1"}),
        ("seating/s/1/swap/", {"a": "p1", "b": "p2"}),
        ("seating/s/1/publish/", {}),
        ("seating/s/1/unpublish/", {}),
    ],
)
def test_only_directors_change_the_seating(client, seated, referee, path, data):
    before = seating(seated, 1)
    client.force_login(referee)
    assert client.post(f"/t/{seated.slug}/{path}", data).status_code == 403
    assert seating(seated, 1) == before
    assert not seated.sessions.get(number=1).seating_published
