"""The clock API: every action and every refusal, against the contract of GET/POST /clock/."""

from __future__ import annotations

import datetime as dt

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tests.clock.conftest import T0, seat_session
from tournaments import services
from tournaments.models import Role, SessionClock

pytestmark = pytest.mark.django_db

URL = "/api/tournaments/open-2026/clock/"


def iso(seconds: float) -> str:
    return (T0 + dt.timedelta(seconds=seconds)).isoformat()


@pytest.fixture
def seated(tournament):
    seat_session(tournament, 1)
    seat_session(tournament, 2)
    return tournament


def post(client, **data):
    return client.post(URL, data, format="json")


def test_get_before_any_start(api, seated, fake_now):
    body = api.get(URL).json()
    assert body["session"] == 1
    assert body["state"] == "stopped"
    assert body["ends_at"] is None
    assert body["remaining_seconds"] == 120 * 60  # MCR's default session length
    assert body["server_time"] == T0.isoformat()
    assert [t["table"] for t in body["tables"]] == [1, 2]
    assert body["signal_at"] is None
    # MCR: the Green Book §3.5.6, "all players cease playing immediately" (mcr-competition-rules-en.txt,
    # lines 233-234): the hand in play ends and scores nothing
    assert body["end_of_time"] == "at_once"


def test_start_pause_resume_extend_end_as_a_director(api_as, director, seated, fake_now):
    client = api_as(director)
    r = post(client, action="start", seconds=5400)
    assert r.status_code == 200, r.json()
    body = r.json()
    assert body["state"] == "running"
    assert body["ends_at"] == iso(5400)
    assert body["remaining_seconds"] == 5400
    assert body["signal_at"] == iso(5400 - 15 * 60)

    fake_now.advance(600)
    body = post(client, action="pause").json()
    assert body["state"] == "paused" and body["ends_at"] is None and body["remaining_seconds"] == 4800
    fake_now.advance(300)
    assert client.get(URL).json()["remaining_seconds"] == 4800  # paused: nothing runs
    body = post(client, action="resume").json()
    assert body["state"] == "running" and body["ends_at"] == iso(900 + 4800)

    body = post(client, action="extend", seconds=120).json()
    assert body["ends_at"] == iso(900 + 4800 + 120) and body["extra_seconds"] == 120
    body = post(client, action="extend", seconds=300, table=2).json()
    table2 = next(t for t in body["tables"] if t["table"] == 2)
    assert table2 == {
        "table": 2,
        "extra_seconds": 300,
        "ends_at": iso(900 + 4800 + 120 + 300),
        "remaining_seconds": 4800 + 120 + 300,
        "phase": "normal",
    }
    body = post(client, action="end").json()
    assert body["state"] == "ended" and body["remaining_seconds"] == 0
    # ended early: the session's time and every table's end at this instant, not when it was to be up
    assert body["ends_at"] == iso(900) and body["signal_at"] == iso(900)
    assert {t["ends_at"] for t in body["tables"]} == {iso(900)}
    assert SessionClock.objects.get(session__number=1).state == "ended"


def test_time_removed_from_the_session_cannot_take_a_cut_table_below_nothing(
    api_as, director, seated, fake_now
):
    client = api_as(director)
    post(client, action="start", seconds=600)
    post(client, action="extend", seconds=-300, table=2)
    fake_now.advance(200)  # 400 s left for the session, 100 s at table 2
    r = post(client, action="extend", seconds=-120)
    assert r.status_code == 400
    assert "seconds" in r.json() and "table 2" in str(r.json())
    assert client.get(URL).json()["ends_at"] == iso(600)  # nothing changed
    body = post(client, action="extend", seconds=-100).json()
    assert next(t for t in body["tables"] if t["table"] == 2)["remaining_seconds"] == 0
    assert body["remaining_seconds"] == 300


def test_a_referee_runs_the_clock_too(api_as, referee, seated, fake_now):
    assert post(api_as(referee), action="start").status_code == 200


@pytest.mark.parametrize("who", ["anonymous", "scorer", "stranger", "director_of_another"])
def test_everyone_else_gets_403(who, api, api_as, make_user, make_tournament, seated, fake_now, scorer):
    if who == "anonymous":
        client = api
    elif who == "scorer":
        client = api_as(scorer)
    elif who == "stranger":
        client = api_as(make_user("stranger"))
    else:
        other = make_user("other-director")
        make_tournament(slug="other", director=other)
        client = api_as(other)
    for data in ({"action": "start"}, {"action": "pause"}, {"action": "extend", "seconds": 60}):
        r = post(client, **data)
        assert r.status_code == 403, (who, data, r.status_code)
    assert not SessionClock.objects.exists()


@pytest.mark.parametrize(
    ("before", "action"),
    [
        ([], "pause"),
        ([], "resume"),
        ([], "end"),
        (["start"], "start"),
        (["start"], "resume"),
        (["start", "pause"], "pause"),
        (["start", "end"], "end"),
        (["start", "end"], "pause"),
    ],
)
def test_actions_that_do_not_fit_the_state_get_409(api_as, director, seated, fake_now, before, action):
    client = api_as(director)
    for step in before:
        assert post(client, action=step).status_code == 200
    r = post(client, action=action)
    assert r.status_code == 409
    assert "clock" in r.json() and r.json()["detail"]


def test_extend_on_an_ended_clock_is_409(api_as, director, seated, fake_now):
    client = api_as(director)
    post(client, action="start")
    post(client, action="end")
    # the current session is now session 2 (not started): extend applies to it before its start
    assert client.get(URL).json()["session"] == 2
    assert post(client, action="extend", seconds=60, table=1).status_code == 200
    assert post(client, action="extend", seconds=60, session=1).status_code == 409


def test_pause_after_time_is_up_is_409(api_as, director, seated, fake_now):
    client = api_as(director)
    post(client, action="start", seconds=600)
    fake_now.advance(601)
    assert client.get(URL).json()["state"] == "ended"
    assert post(client, action="pause").status_code == 409


@pytest.mark.parametrize(
    ("data", "field"),
    [
        ({"action": "fly"}, "action"),
        ({}, "action"),
        ({"action": "start", "seconds": 30}, "seconds"),
        ({"action": "start", "seconds": "soon"}, "seconds"),
        ({"action": "start", "seconds": 10**9}, "seconds"),
        ({"action": "extend"}, "seconds"),
        ({"action": "extend", "seconds": 0}, "seconds"),
        ({"action": "extend", "seconds": 60, "table": 99}, "table"),
        ({"action": "extend", "seconds": 60, "table": 0}, "table"),
        ({"action": "start", "session": 9}, "session"),
        ({"action": "pause", "table": 1}, "table"),
    ],
)
def test_bad_input_gets_400_naming_the_field(api_as, director, seated, fake_now, data, field):
    client = api_as(director)
    if data.get("action") in ("pause", "extend"):
        post(client, action="start")
    r = post(client, **data)
    assert r.status_code == 400, r.content
    assert field in r.json()


def test_removing_more_time_than_is_left_is_400(api_as, director, seated, fake_now):
    client = api_as(director)
    post(client, action="start", seconds=600)
    r = post(client, action="extend", seconds=-601)
    assert r.status_code == 400 and "seconds" in r.json()
    assert post(client, action="extend", seconds=-60).json()["remaining_seconds"] == 540


def test_starting_a_clock_starts_its_session_after_the_ones_before_it(api_as, director, seated, fake_now):
    client = api_as(director)
    refused = post(client, action="start", session=2)  # starting the clock starts the session
    assert refused.status_code == 409 and "Finish session 1 first." in refused.json()["detail"]
    assert seated.sessions.get(number=2).status == "seated"
    assert post(client, action="start", session=1).json()["session"] == 1
    assert seated.sessions.get(number=1).status == "playing"  # seated → playing with its clock
    post(client, action="end")
    # session 1's clock ended: the clock's session is the next one
    body = client.get(URL).json()
    assert body["session"] == 2 and body["state"] == "stopped"


def test_a_planned_session_clock_does_not_start(api_as, director, tournament, fake_now):
    r = post(api_as(director), action="start", session=1)
    assert r.status_code == 409 and "is not seated" in r.json()["detail"]
    assert tournament.sessions.get(number=1).status == "planned"


def test_signal_and_red_zone_follow_the_ruleset(api_as, director, make_tournament, fake_now):
    tournament = make_tournament(
        slug="riichi-open",
        ruleset="ema-riichi-2016",
        director=director,
        rules={"signal_minutes": 10, "red_zone_minutes": 2, "end_of_time": "one_more_hand"},
    )
    seat_session(tournament, 1)
    client = api_as(director)
    url = "/api/tournaments/riichi-open/clock/"
    body = client.post(url, {"action": "start"}, format="json").json()
    assert body["remaining_seconds"] == 90 * 60  # riichi presets: 90 minutes (WRC 2015 §8.2)
    assert body["end_of_time"] == "one_more_hand"
    fake_now.advance(90 * 60 - 600)
    assert client.get(url).json()["phase"] == "signal"
    fake_now.advance(600 - 120)
    assert client.get(url).json()["phase"] == "red"
    fake_now.advance(120)
    body = client.get(url).json()
    assert body["phase"] == "over" and body["state"] == "ended" and body["remaining_seconds"] == 0


def test_the_state_survives_a_restart(api_as, director, seated, fake_now):
    """Nothing counts in memory: a new process (an empty cache) reads the same clock."""
    from django.core.cache import cache

    from tournaments import pagecache

    client = api_as(director)
    post(client, action="start", seconds=3600)
    fake_now.advance(100)
    cache.clear()
    pagecache.local.clear()
    assert client.get(URL).json()["remaining_seconds"] == 3500


def test_get_answers_from_the_cache_without_a_query(api, api_as, director, seated, fake_now):
    post(api_as(director), action="start")
    api.get(URL)  # the document is cached by the write already; this warms nothing else
    with CaptureQueriesContext(connection) as queries:
        body = api.get(URL).json()
    assert body["state"] == "running"
    assert len(queries) == 0


def test_private_tournament_clock_is_hidden(api, api_as, director, make_tournament, fake_now):
    make_tournament(slug="closed", director=director, is_public=False)
    assert api.get("/api/tournaments/closed/clock/").status_code == 404
    assert api_as(director).get("/api/tournaments/closed/clock/").status_code == 200
    assert api.get("/api/tournaments/nowhere/clock/").status_code == 404


def test_announcements(api, api_as, director, referee, seated):
    url = "/api/tournaments/open-2026/announcements/"
    assert api.post(url, {"text": "Lunch at 13:00"}, format="json").status_code == 403
    assert api_as(referee).post(url, {"text": "Lunch at 13:00"}, format="json").status_code == 403
    r = api_as(director).post(url, {"text": "Lunch at 13:00"}, format="json")
    assert r.status_code == 201
    assert api_as(director).post(url, {"text": "x" * 281}, format="json").status_code == 400
    assert api_as(director).post(url, {"text": "  "}, format="json").status_code == 400
    assert [a["text"] for a in api.get(url).json()] == ["Lunch at 13:00"]
    pk = r.json()["id"]
    assert api.delete(f"{url}{pk}/").status_code == 403
    assert api_as(director).delete(f"{url}{pk}/").status_code == 204
    assert api.get(url).json() == []


def test_schema_documents_the_clock(api):
    schema = api.get("/api/schema/", HTTP_ACCEPT="application/json").content.decode()
    assert "/api/tournaments/{tournament_slug}/clock/" in schema
    assert "remaining_seconds" in schema


def test_roles_checked_in_the_tournament_the_write_lands_in(api_as, make_user, seated, fake_now):
    user = make_user("ref-elsewhere")
    other = services.tournament_create(
        name="Other", slug="other-cup", ruleset="mcr", starts_on=dt.date(2026, 1, 1), sessions=1
    )
    services.role_grant(tournament=other, user=user, role=Role.REFEREE)
    assert post(api_as(user), action="start").status_code == 403
