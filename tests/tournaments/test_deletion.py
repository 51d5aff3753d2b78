"""Nothing lost: what holds results or penalties cannot be deleted; allowed deletions touch the standings."""

from __future__ import annotations

import pytest

from penalties.services import penalty_record
from rankings.models import StandingsState
from scoring import services as scoring
from scoring.models import SeatSummary, TableResult
from tests.scoring.test_pages_support import seat_session
from tournaments.models import Registration, Role, Seat, Session, Table

pytestmark = pytest.mark.django_db


def confirmed_session(tournament, director):
    tables = seat_session(tournament)
    actor = scoring.Actor(user=director, role=Role.DIRECTOR)
    scoring.totals_set(table=tables[0], scores=[10, -10, 0, 0], actor=actor, expected_version=None)
    scoring.result_confirm(table=tables[0], actor=actor, expected_version=None)
    return tables


def version(tournament) -> int:
    state = StandingsState.objects.filter(tournament=tournament).first()
    return state.input_version if state else 0


def test_a_session_with_confirmed_results_cannot_be_deleted(api_as, tournament, director):
    tables = confirmed_session(tournament, director)
    session = tables[0].session
    response = api_as(director).delete(f"/api/sessions/{session.pk}/")
    assert response.status_code == 409
    assert response.json()["detail"] == "session 1 cannot be deleted: it holds the results of table 1"
    assert Session.objects.filter(pk=session.pk).exists()
    assert SeatSummary.objects.filter(session=session).count() == 4
    assert TableResult.objects.filter(table=tables[0]).exists()


def test_a_table_or_seat_with_a_result_and_a_registration_with_a_penalty_are_kept(
    api_as, tournament, director
):
    tables = confirmed_session(tournament, director)
    client = api_as(director)
    response = client.delete(f"/api/tables/{tables[0].pk}/")
    assert response.status_code == 409
    assert response.json()["held_by"] == ["the results of table 1"]
    seat = Seat.objects.filter(table=tables[0]).first()
    assert client.delete(f"/api/seats/{seat.pk}/").status_code == 409
    actor = scoring.Actor(user=director, role=Role.DIRECTOR)
    p5 = Registration.objects.get(tournament=tournament, key="p5")
    penalty_record(
        tournament=tournament,
        registration=p5,
        kind="foul",
        actor=actor,
        session=tables[1].session,
        reason="x",
    )
    response = client.delete(f"/api/registrations/{p5.pk}/")
    assert response.status_code == 409
    assert response.json()["held_by"] == ["1 penalty", "withdraw the player instead"]
    response = client.delete(f"/api/sessions/{tables[1].session.pk}/")
    assert response.json()["held_by"] == ["the results of table 1", "1 penalty"]
    assert Table.objects.count() == 2 and Registration.objects.filter(pk=p5.pk).exists()


def test_allowed_deletions_touch_the_standings(api_as, tournament, director):
    tables = seat_session(tournament)
    client = api_as(director)
    before = version(tournament)
    assert client.delete(f"/api/tables/{tables[1].pk}/").status_code == 204
    assert version(tournament) > before
    before = version(tournament)
    session = tournament.sessions.get(number=2)
    assert client.delete(f"/api/sessions/{session.pk}/").status_code == 204
    assert version(tournament) > before
    p8 = Registration.objects.get(tournament=tournament, key="p8")
    before = version(tournament)
    assert client.delete(f"/api/registrations/{p8.pk}/").status_code == 204
    assert version(tournament) > before


def test_the_schema_documents_the_409(api):
    schema = api.get("/api/schema/?format=json").json()
    for path in ("/api/sessions/{id}/", "/api/tables/{id}/", "/api/registrations/{id}/", "/api/seats/{id}/"):
        assert "409" in schema["paths"][path]["delete"]["responses"], path
