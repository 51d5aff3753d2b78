"""A second thought before the acts that are hard to undo: finishing the tournament, removing a session,
starting a session, reopening a table. Each shows what it will do, in numbers, on a page that needs no
JavaScript; only its button acts."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from scoring.models import TableResult
from tests.rankings.test_standings_pages import confirm
from tournaments.models import Session

pytestmark = pytest.mark.django_db


def login(client, user):
    client.force_login(user)
    return client


def buttons_lead_to(html: str, url: str) -> bool:
    """The console's button is a plain GET form to the confirmation step (no JavaScript needed)."""
    return re.search(rf'<form method="get" action="{re.escape(url)}"', html) is not None


def confirm_form(html: str, url: str) -> bool:
    return (
        re.search(rf'<form method="post" action="{re.escape(url)}">', html) is not None
        and "confirm-action" in html
    )


def test_starting_a_session_asks_first_with_its_tables_and_players(client, make_tournament, director):
    tournament = make_tournament(director=director, players=8, sessions=2)
    login(client, director)
    url = reverse("console-session-action", args=[tournament.slug, 1, "advance"])
    client.post(reverse("console-session-action", args=[tournament.slug, 1, "seat"]))
    client.post(url)  # publish
    session = Session.objects.get(tournament=tournament, number=1)
    assert session.status == "seated"
    console = client.get(reverse("console-session", args=[tournament.slug, 1])).content.decode()
    assert buttons_lead_to(console, url)
    page = client.get(url)
    html = page.content.decode()
    assert page.status_code == 200 and "Start session 1?" in html
    assert "2 tables, 8 players seated." in html and confirm_form(html, url)
    session.refresh_from_db()
    assert session.status == "seated"  # looking at the step changes nothing
    client.post(url)
    session.refresh_from_db()
    assert session.status == "playing"
    # a GET of any other step goes back to the session, acting on nothing
    assert client.get(url).status_code == 302
    session.refresh_from_db()
    assert session.status == "playing"


def test_removing_a_session_asks_first_with_the_count(client, make_tournament, director):
    tournament = make_tournament(director=director, players=8, sessions=3)
    login(client, director)
    url = reverse("console-session-remove", args=[tournament.slug])
    edit = client.get(reverse("console-edit", args=[tournament.slug])).content.decode()
    assert buttons_lead_to(edit, url)
    html = client.get(url).content.decode()
    assert "Remove session 3?" in html and "from 3 sessions to 2" in html and confirm_form(html, url)
    assert tournament.sessions.count() == 3
    client.post(url)
    assert tournament.sessions.count() == 2


def test_finishing_the_tournament_asks_first_and_says_what_blocks_it(client, make_tournament, director):
    tournament = make_tournament(director=director, players=8, sessions=1)
    login(client, director)
    url = reverse("console-tournament-action", args=[tournament.slug, "finish"])
    home = client.get(reverse("console-home", args=[tournament.slug])).content.decode()
    assert buttons_lead_to(home, url)
    blocked = client.get(url).content.decode()
    assert "Sessions not finished: 1." in blocked and "confirm-action" not in blocked

    def act(action):
        client.post(reverse("console-session-action", args=[tournament.slug, 1, action]))

    act("seat")
    act("advance")
    act("advance")
    for table in Session.objects.get(tournament=tournament, number=1).tables.all():
        confirm(table, [10, 5, -5, -10], director)
    act("advance")
    html = client.get(url).content.decode()
    assert "Finish the tournament?" in html and confirm_form(html, url)
    assert "1 of 1 sessions finished; 2 of 2 tables confirmed." in html
    assert "The final standings of 8 players are fixed" in html
    tournament.refresh_from_db()
    assert tournament.status == "running"
    client.post(url)
    tournament.refresh_from_db()
    assert tournament.status == "finished"


def test_reopening_a_table_asks_first_with_what_stops_counting(client, make_tournament, director, make_user):
    from tournaments import services
    from tournaments.models import Role

    tournament = make_tournament(director=director, players=4, sessions=1)
    referee = make_user("referee")
    services.role_grant(tournament=tournament, user=referee, role=Role.REFEREE)
    login(client, director)
    client.post(reverse("console-session-action", args=[tournament.slug, 1, "seat"]))
    table = Session.objects.get(tournament=tournament, number=1).tables.get()
    confirm(table, [10, 5, -5, -10], director)
    login(client, referee)
    page_url = reverse("table-page", args=[tournament.slug, 1, table.number])
    page = client.get(page_url).content.decode()
    assert re.search(
        r'<form method="get" action="[^"]*#reopen-confirm"><input type="hidden" name="confirm"', page
    )
    step = client.get(page_url, {"confirm": "reopen", "reason": "wrong winner in hand 1"}).content.decode()
    assert "Reopen table 1?" in step and "stops counting in the standings" in step
    assert 'name="reason" value="wrong winner in hand 1"' in step and 'id="reopen-yes"' in step
    result = TableResult.objects.get(table=table)
    assert result.status == TableResult.Status.CONFIRMED
    version = result.version
    done = client.post(page_url, {"action": "reopen", "version": version, "reason": "wrong winner in hand 1"})
    assert done.status_code == 302
    assert TableResult.objects.get(table=table).status == TableResult.Status.SUBMITTED


def test_the_steps_speak_spanish(client, make_tournament, director):
    tournament = make_tournament(director=director, players=8, sessions=3)
    login(client, director)
    html = client.get(
        reverse("console-session-remove", args=[tournament.slug]), HTTP_ACCEPT_LANGUAGE="es"
    ).content.decode()
    assert "¿Eliminar la sesión 3?" in html and "de 3 sesiones a 2" in html
