"""The seating API: directors generate, swap, import and publish; the public reads published seatings."""

from __future__ import annotations

import pytest

from scoring.models import TableResult
from tournaments.models import Table

from .test_workflow_support import seating, session

pytestmark = pytest.mark.django_db


def base(tournament) -> str:
    return f"/api/tournaments/{tournament.slug}/seating/"


def test_director_generates_swaps_and_publishes_and_the_public_reads_it(api, api_as, tournament, director):
    client = api_as(director)
    response = client.post(f"{base(tournament)}generate/", {"sessions": [1], "seed": 4}, format="json")
    assert response.status_code == 200, response.json()
    body = response.json()
    assert body["sessions"] == [1]
    assert body["quality"]["repeated_meetings"] == 0 and body["quality"]["sessions"] == 1

    # drafts are for directors only
    assert api.get(f"{base(tournament)}1/").status_code == 404
    assert api.get(base(tournament)).json() == []
    draft = client.get(f"{base(tournament)}1/").json()
    assert draft["state"] == "draft" and len(draft["tables"]) == 2
    assert draft["tables"][0]["result_link"].startswith("http://testserver/table/")

    tables = seating(tournament, 1)
    a, b = tables[0][0], tables[1][0]
    swapped = client.post(f"{base(tournament)}1/swap/", {"a": a, "b": b}, format="json")
    assert swapped.status_code == 200
    assert seating(tournament, 1)[0][0] == b and seating(tournament, 1)[1][0] == a
    assert swapped.json()["quality"]["players"] == 8

    published = client.post(f"{base(tournament)}1/publish/")
    assert published.status_code == 200 and published.json()["published"] is True

    public = api.get(f"{base(tournament)}1/").json()
    assert public["published"] is True
    first = public["tables"][0]
    assert first["number"] == 1 and [s["wind"] for s in first["seats"]] == ["E", "S", "W", "N"]
    assert first["seats"][0]["key"] == b
    assert first["seats"][0]["name"] == tournament.registrations.get(key=b).player.full_name
    assert "result_link" not in first  # private links stay with the directors
    assert [s["number"] for s in api.get(base(tournament)).json()] == [1]


def test_refusals_name_every_fault_and_change_nothing(api_as, tournament, director):
    client = api_as(director)
    response = client.post(
        f"{base(tournament)}import/", {"sessions": [1], "text": "p1-p2-p3-p4\np1-p6-p7-p9\n"}, format="json"
    )
    assert response.status_code == 400
    faults = response.json()["faults"]
    assert "line 2: unknown player “p9”" in faults
    assert "session 1: player p1 is seated 2 times (lines 1, 2)" in faults
    assert "session 1: players missing: p5, p8" in faults
    assert not Table.objects.filter(session__tournament=tournament).exists()

    response = client.post(f"{base(tournament)}generate/", {"sessions": [1, 7]}, format="json")
    assert response.status_code == 400
    assert response.json()["faults"] == ["There is no session 7 in this tournament."]

    response = client.post(
        f"{base(tournament)}generate/", {"sessions": [1, 2], "strategy": "swiss"}, format="json"
    )
    assert response.status_code == 400 and "one session at a time" in response.json()["detail"]

    assert client.post(f"{base(tournament)}1/publish/").status_code == 400  # nothing to publish yet


def test_sessions_with_results_are_refused_through_the_api(api_as, tournament, director):
    client = api_as(director)
    client.post(f"{base(tournament)}generate/", {"sessions": [1]}, format="json")
    client.post(f"{base(tournament)}1/publish/")
    TableResult.objects.create(table=Table.objects.get(session=session(tournament, 1), number=1))
    before = seating(tournament, 1)

    response = client.post(f"{base(tournament)}generate/", {"sessions": [1]}, format="json")
    assert response.status_code == 400
    assert response.json()["faults"] == ["Session 1 has results: its seating can no longer change."]
    response = client.post(f"{base(tournament)}1/unpublish/")
    assert response.status_code == 400
    assert response.json()["detail"] == "Session 1 has results: it stays published."
    response = client.post(
        f"{base(tournament)}1/swap/", {"a": before[0][0], "b": before[1][0]}, format="json"
    )
    assert response.status_code == 400
    assert seating(tournament, 1) == before and session(tournament, 1).seating_published


def test_non_directors_are_refused(api, api_as, tournament, director, referee, scorer):
    api_as(director).post(f"{base(tournament)}generate/", {"sessions": [1]}, format="json")
    before = seating(tournament, 1)
    for user in (referee, scorer):
        client = api_as(user)
        assert client.get(f"{base(tournament)}quality/").status_code == 403
        assert client.get(f"{base(tournament)}1/").status_code == 404  # a draft is not public
        assert (
            client.post(f"{base(tournament)}generate/", {"sessions": [2]}, format="json").status_code == 403
        )
        assert (
            client.post(f"{base(tournament)}1/swap/", {"a": "p1", "b": "p2"}, format="json").status_code
            == 403
        )
        assert client.post(f"{base(tournament)}1/publish/").status_code == 403
    assert api.post(f"{base(tournament)}1/publish/").status_code in (401, 403)
    assert api.get(f"{base(tournament)}quality/").status_code in (401, 403)
    assert seating(tournament, 1) == before and not session(tournament, 1).seating_published
    assert not session(tournament, 2).tables.exists()


def test_quality_report_for_directors(api_as, tournament, director):
    client = api_as(director)
    client.post(f"{base(tournament)}generate/", {"sessions": [1, 2]}, format="json")
    report = client.get(f"{base(tournament)}quality/").json()
    assert report["sessions"] == 2 and report["players"] == 8
    # with two tables, a second session always brings two pairs of each earlier table together again
    assert report["repeated_meetings"] == 4 and report["max_pair_meetings"] == 2
    assert len(report["repeated_pairs"]) == 4
    assert {w["player"] for w in report["winds"]} == {f"p{i}" for i in range(1, 9)}


def test_thirty_two_players_over_ten_sessions_are_seated_without_a_repeat(api_as, make_tournament, director):
    # The most sessions 32 players can play without two of them meeting twice.
    tournament = make_tournament("golf-32", director=director, sessions=10, players=32)
    client = api_as(director)
    response = client.post(f"{base(tournament)}generate/", {"sessions": list(range(1, 11))}, format="json")
    assert response.status_code == 200, response.content
    report = client.get(f"{base(tournament)}quality/").json()
    assert report["sessions"] == 10 and report["players"] == 32
    assert report["repeated_meetings"] == 0 and report["max_pair_meetings"] == 1
    assert report["repeated_pairs"] == []
    assert report["max_wind_spread"] <= 1
