"""The referees' overviews of a session (its tables, and every table's time) flag what waits for a referee:
held hands first, then tables waiting for confirmation; and a referee's "My tournaments" card leads to the
tables of the session being played."""

from __future__ import annotations

import pytest
from django.urls import reverse

from scoring.models import TableResult
from tournaments import lifecycle
from tournaments import services as tournament_services
from tournaments.models import Role, Session

pytestmark = pytest.mark.django_db

# Robbing the Kong 8 + Dragon Pung 2 + Short Straight 1 = 11 fan; claimed as 16, the hand is held
MCR_TILES = {
    "hand": "234m567m99p",
    "melds": ["pung 7z", "chow 345s"],
    "winning_tile": "4m",
    "robbing_kong": True,
}


def seat_all(tournament, number=1):
    regs = list(tournament.registrations.order_by("pk"))
    return tournament_services.session_seat(
        session=tournament.sessions.get(number=number),
        tables=[regs[i : i + 4] for i in range(0, len(regs), 4)],
    )


def publish(tournament, number):
    session = tournament.sessions.get(number=number)
    session.seating_published = True
    session.save()
    lifecycle.session_move(session=session, to=Session.Status.SEATED)


def hand(client, table, version, **values):
    response = client.post(
        f"/api/tables/{table.pk}/result/hands/", {"version": version, **values}, format="json"
    )
    assert response.status_code == 201, response.content
    return response.json()["version"]


@pytest.fixture
def session_with_work(tournament, scorer, api_as):
    """Table 1 has a held hand; table 2 is submitted; tables 3 and 4 have not started."""
    tables = seat_all(tournament)
    client = api_as(scorer)
    hand(client, tables[0], 1, result="win", winner="p1", discarder="p3", fan=16, tiles=MCR_TILES)
    version = hand(client, tables[1], 1, result="draw")
    submitted = client.post(f"/api/tables/{tables[1].pk}/result/submit/", {"version": version}, format="json")
    assert submitted.status_code == 200, submitted.content
    return tables


@pytest.fixture
def tournament(make_tournament, director):
    return make_tournament(director=director, players=16)


@pytest.mark.parametrize("page", ["session-tables", "clock-tables"])
def test_the_overviews_flag_a_held_hand_and_a_table_waiting_for_confirmation(
    client, referee, session_with_work, tournament, page
):
    client.force_login(referee)
    html = client.get(reverse(page, args=[tournament.slug, 1])).content.decode()
    box = html.split('id="needs-referee"', 1)[1].split("</article>", 1)[0]
    assert "Needs a referee" in box
    held, waiting = box.split('<li data-table="')[1:]
    assert held.startswith("1") and "1 hand held" in held and "waiting for confirmation" not in held
    assert waiting.startswith("2") and "waiting for confirmation" in waiting and "held" not in waiting
    assert 'data-table="3"' not in box and 'data-table="4"' not in box
    # the held hand is flagged on its table's line too
    assert html.count("1 hand held") == 2
    spanish = client.get(reverse(page, args=[tournament.slug, 1]), headers={"Accept-Language": "es"})
    text = spanish.content.decode()
    assert "Necesita un árbitro" in text and "1 mano retenida" in text and "pendiente de confirmar" in text


def test_nothing_is_flagged_when_nothing_waits(client, referee, tournament):
    seat_all(tournament)
    client.force_login(referee)
    for page in ("session-tables", "clock-tables"):
        html = client.get(reverse(page, args=[tournament.slug, 1])).content.decode()
        assert 'id="needs-referee"' not in html


def test_a_resolved_hand_is_no_longer_flagged(client, referee, session_with_work, tournament, api_as):
    table = session_with_work[0]
    version = TableResult.objects.get(table=table).version
    resolved = api_as(referee).post(
        f"/api/tables/{table.pk}/tiles/hands/1/resolve/",
        {"version": version, "decision": "computed"},
        format="json",
    )
    assert resolved.status_code == 200, resolved.content
    client.force_login(referee)
    html = client.get(reverse("session-tables", args=[tournament.slug, 1])).content.decode()
    assert "hand held" not in html


def tables_link(html: str, slug: str) -> str | None:
    for chunk in html.split("<article>")[1:]:
        if f"/t/{slug}/" in chunk and "data-tables-link" in chunk:
            return chunk.split("data-tables-link", 1)[1].split('href="', 1)[1].split('"', 1)[0]
    return None


def test_a_referee_lands_on_the_tables_of_the_session_being_played(
    client, referee, tournament, director, monkeypatch
):
    # session 1 ends with no results entered: the lifecycle's guards of the tables' results
    # (tests/tournaments/test_lifecycle.py) are not what is checked here
    monkeypatch.setattr(lifecycle, "_SESSION_GUARDS", [])
    client.force_login(referee)
    mine = reverse("my-tournaments")
    # nothing seated yet: no tables to go to
    assert tables_link(client.get(mine).content.decode(), tournament.slug) is None
    seat_all(tournament, 1)
    publish(tournament, 1)
    html = client.get(mine).content.decode()
    assert tables_link(html, tournament.slug) == reverse("session-tables", args=[tournament.slug, 1])
    assert "Session 1 tables" in html
    # session 1 over, session 2 being played: the card follows
    seat_all(tournament, 2)
    lifecycle.session_move(session=tournament.sessions.get(number=1), to=Session.Status.PLAYING)
    lifecycle.session_move(session=tournament.sessions.get(number=1), to=Session.Status.FINISHED)
    publish(tournament, 2)
    lifecycle.session_move(session=tournament.sessions.get(number=2), to=Session.Status.PLAYING)
    html = client.get(mine).content.decode()
    assert tables_link(html, tournament.slug) == reverse("session-tables", args=[tournament.slug, 2])
    assert client.get(tables_link(html, tournament.slug)).status_code == 200


def test_a_director_alone_keeps_run_it_first(client, tournament, director, make_user):
    seat_all(tournament, 1)
    publish(tournament, 1)
    client.force_login(director)
    html = client.get(reverse("my-tournaments")).content.decode()
    assert tables_link(html, tournament.slug) is None and "Run it" in html
    scorer = make_user("table-scorer")
    tournament_services.role_grant(tournament=tournament, user=scorer, role=Role.SCORER)
    client.force_login(scorer)
    html = client.get(reverse("my-tournaments")).content.decode()
    assert tables_link(html, tournament.slug) == reverse("session-tables", args=[tournament.slug, 1])


@pytest.mark.parametrize("page", ["director-dashboard", "console-session"])
def test_the_director_sees_a_held_hand_with_a_link_to_resolve_it(
    client, director, session_with_work, tournament, page
):
    publish(tournament, 1)
    client.force_login(director)
    args = [tournament.slug] if page == "director-dashboard" else [tournament.slug, 1]
    html = client.get(reverse(page, args=args)).content.decode()
    box = html.split('id="needs-referee"', 1)[1].split("</article>", 1)[0]
    held = box.split('<li data-table="')[1]
    assert held.startswith("1") and "1 hand held" in held
    resolve = reverse("tiles-hand-resolve", args=[tournament.slug, 1, 1, 1])
    assert f'href="{resolve}"' in held and "Resolve hand 1" in held
    assert html.count("1 hand held") == 2  # on table 1's line too, not only "playing"
    # the link leads to the hand's resolution, which the director may decide
    assert client.get(resolve).status_code == 200
    spanish = client.get(reverse(page, args=args), headers={"Accept-Language": "es"}).content.decode()
    assert "Necesita un árbitro" in spanish and "1 mano retenida" in spanish
