"""List endpoints narrow by tournament, session and table (django-filter), and refuse a bad filter value
with a 400 naming the parameter."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from tournaments import services
from tournaments.models import Registration


@pytest.fixture
def two(make_tournament, director):
    first = make_tournament("first-open", director=director, players=8, sessions=2)
    second = make_tournament("second-open", director=director, players=4, sessions=1)
    for tournament in (first, second):
        regs = list(Registration.objects.filter(tournament=tournament).order_by("key"))
        session = tournament.sessions.get(number=1)
        services.session_seat(session=session, tables=[regs[i : i + 4] for i in range(0, len(regs), 4)])
    return first, second


def results(path: str, **params) -> list[dict]:
    response = APIClient().get(path, params)
    assert response.status_code == 200, response.content
    return response.json()["results"]


def test_tables_registrations_sessions_and_seats_filter_by_tournament(two):
    assert len(results("/api/tables/")) == 3
    assert len(results("/api/tables/", tournament="first-open")) == 2
    assert len(results("/api/tables/", tournament="second-open", session=1)) == 1
    assert results("/api/tables/", tournament="first-open", session=2) == []
    assert len(results("/api/registrations/", tournament="second-open")) == 4
    assert len(results("/api/registrations/", tournament_slug="first-open")) == 8
    assert len(results("/api/sessions/", tournament="first-open")) == 2
    assert len(results("/api/seats/", tournament="first-open", table=2)) == 4


def test_a_bad_filter_value_is_a_400_naming_the_parameter(two):
    response = APIClient().get("/api/tables/", {"session": "abc"})
    assert response.status_code == 400 and "session" in response.json()
    response = APIClient().get("/api/tables/", {"number": "0"})
    assert response.status_code == 400 and "number" in response.json()
