"""The read-only standings API: the archive's standings document and its freshness."""

import pytest

from rankings.models import StandingsState
from rankings.standings.services import standings_refresh
from tests.rankings.test_standings_pages import SESSION_1, _clean_cache, play  # noqa: F401

pytestmark = pytest.mark.django_db


def test_anyone_reads_the_standings_of_a_public_tournament(api, tournament, referee):
    play(tournament, referee, SESSION_1)
    body = api.get(f"/api/tournaments/{tournament.slug}/standings/").json()
    assert body["tournament"] == tournament.slug and body["ruleset"] == "mcr"
    assert body["complete_sessions"] == 1
    first = body["standings"][0]
    assert first == {
        "rank": 1, "player": "p1", "name": "Player1 open-2026", "table_points": 4, "score": 10,
        "penalties": 0, "sessions": 1, "disqualified": False,
    }  # fmt: skip
    assert body["standings"][4]["table_points"] == 1.75
    assert body["freshness"]["fresh"] is True and body["freshness"]["delayed"] is False
    assert body["freshness"]["computed_version"] == body["freshness"]["input_version"]


def test_the_api_says_when_the_standings_are_delayed(api, tournament, referee):
    play(tournament, referee, SESSION_1)
    StandingsState.objects.filter(tournament=tournament).update(
        input_version=99, queue_failed_at="2026-05-01T10:00Z", queue_error="OperationalError: refused"
    )
    freshness = api.get(f"/api/tournaments/{tournament.slug}/standings/").json()["freshness"]
    assert freshness["fresh"] is False and freshness["delayed"] is True
    assert freshness["queue_error"] == "OperationalError: refused"


def test_a_private_tournament_is_hidden_except_from_its_staff(api, api_as, make_tournament, make_user):
    director = make_user("closed-director")
    hidden = make_tournament(slug="closed", director=director, is_public=False)
    standings_refresh(tournament_id=hidden.pk)
    assert api.get(f"/api/tournaments/{hidden.slug}/standings/").status_code == 404
    assert api_as(director).get(f"/api/tournaments/{hidden.slug}/standings/").status_code == 200
    assert api.get("/api/tournaments/no-such-cup/standings/").status_code == 404


def test_the_standings_endpoint_is_in_the_schema(api):
    schema = api.get("/api/schema/", HTTP_ACCEPT="application/json").content.decode()
    assert "/api/tournaments/{tournament_slug}/standings/" in schema
