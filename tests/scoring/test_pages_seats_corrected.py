"""The referee's "Seats were wrong" form on the table page: who really sat at each wind, and why."""

from __future__ import annotations

import pytest
from django.utils import translation

from scoring import services
from scoring.models import Hand
from tests.scoring.test_pages_support import post, seat_session, table_url, text
from tests.scoring.test_seats_corrected import REAL, SHORT, WHY, enter_mcr
from tournaments.models import Role, Seat
from tournaments.permissions import Actor

pytestmark = pytest.mark.django_db


def order_fields(order):
    return {f"seat{i}": key for i, key in enumerate(order)}


def test_a_referee_corrects_the_seats_from_the_table_page(client, tournament, referee):
    table = seat_session(tournament)[0]
    enter_mcr(table, Actor(user=referee, role=Role.REFEREE))
    client.force_login(referee)
    url = table_url(table)
    page = text(client.get(url))
    assert "Seats were wrong" in page
    assert "Player3 open-2026 (recorded: West)" in page  # each player with the wind recorded now
    response = post(client, url, "seats", table, reason=WHY, **order_fields(REAL))
    assert response.status_code == 302
    assert "the hands follow the players" in text(client.get(response.url))
    assert [s.registration.key for s in Seat.objects.filter(table=table).order_by("position")] == REAL
    # hand 1, p1 on p3's discard: p1 now sits South (1), p3 East (0)
    assert Hand.objects.get(result__table=table, number=1).data["winner"] == 1
    assert Hand.objects.get(result__table=table, number=1).data["discarder"] == 0


def test_the_form_names_the_wind_named_twice_and_keeps_the_seats(client, tournament, referee):
    table = seat_session(tournament)[0]
    enter_mcr(table, Actor(user=referee, role=Role.REFEREE))
    client.force_login(referee)
    response = post(
        client, table_url(table), "seats", table, reason=WHY, **order_fields(["p3", "p3", "p2", "p4"])
    )
    assert response.status_code == 400
    assert "p3 is named twice." in text(response)
    assert [s.registration.key for s in Seat.objects.filter(table=table).order_by("position")] == [
        "p1",
        "p2",
        "p3",
        "p4",
    ]


def test_scorers_do_not_see_the_form_and_cannot_post_it(client, tournament, scorer, referee):
    table = seat_session(tournament)[0]
    enter_mcr(table, Actor(user=referee, role=Role.REFEREE))
    client.force_login(scorer)
    url = table_url(table)
    assert "Seats were wrong" not in text(client.get(url))
    assert post(client, url, "seats", table, reason=WHY, **order_fields(REAL)).status_code == 403


def test_a_confirmed_table_does_not_offer_the_form(client, tournament, referee):
    table = seat_session(tournament)[0]
    actor = Actor(user=referee, role=Role.REFEREE)
    version = enter_mcr(table, actor)
    services.result_confirm(table=table, actor=actor, expected_version=version, short_reason=SHORT)
    client.force_login(referee)
    assert "Seats were wrong" not in text(client.get(table_url(table)))


def test_the_form_in_spanish(client, tournament, referee):
    table = seat_session(tournament)[0]
    client.force_login(referee)
    with translation.override("es"):
        page = text(client.get(table_url(table), HTTP_ACCEPT_LANGUAGE="es"))
    assert "Los asientos estaban mal" in page
    assert "Corregir los asientos" in page
    assert "Player1 open-2026 (anotado: Este)" in page
