"""Who may do what through the API: roles per tournament, and the table's private key."""

from __future__ import annotations

import pytest

from penalties.models import Penalty
from scoring.models import Hand, TableResult
from tournaments import services as tournament_services
from tournaments.models import Role

pytestmark = pytest.mark.django_db

DRAW = {"result": "draw"}


@pytest.fixture
def tables(tournament):
    regs = {r.key: r for r in tournament.registrations.all()}
    return tournament_services.session_seat(
        session=tournament.sessions.get(number=1),
        tables=[[regs[k] for k in ("p1", "p2", "p3", "p4")], [regs[k] for k in ("p5", "p6", "p7", "p8")]],
    )


@pytest.fixture
def table(tables):
    return tables[0]


def url(table, tail=""):
    return f"/api/tables/{table.pk}/result/{tail}"


def late(tournament, player="p1", minutes=7):
    return {
        "tournament": tournament.slug,
        "player": player,
        "session": 1,
        "kind": "late_arrival",
        "minutes_late": minutes,
    }


def finished(client, table):
    """Two draws entered and submitted; returns the version to confirm at."""
    client.post(url(table, "hands/"), {**DRAW, "version": 1}, format="json")
    client.post(url(table, "hands/"), {**DRAW, "version": 2}, format="json")
    assert client.post(url(table, "submit/"), {"version": 3}, format="json").status_code == 200
    return 4


def test_a_scorer_enters_results_but_cannot_confirm_reopen_or_log_penalties(
    api_as, scorer, tournament, table
):
    client = api_as(scorer)
    version = finished(client, table)
    response = client.post(
        url(table, "confirm/"), {"version": version, "short_reason": "Time limit reached"}, format="json"
    )
    assert response.status_code == 403
    assert TableResult.objects.get(table=table).status == "submitted"
    assert client.post(url(table, "reopen/"), {"reason": "x"}, format="json").status_code == 403
    assert client.post("/api/penalties/", late(tournament), format="json").status_code == 403
    assert not Penalty.objects.exists()


def test_a_referee_confirms_reopens_and_logs_penalties(api_as, referee, tournament, table):
    client = api_as(referee)
    version = finished(client, table)
    assert (
        client.post(
            url(table, "confirm/"), {"version": version, "short_reason": "Time limit reached"}, format="json"
        ).json()["status"]
        == "confirmed"
    )
    reopened = client.post(
        url(table, "reopen/"), {"version": version + 1, "reason": "recount"}, format="json"
    )
    assert reopened.json()["status"] == "submitted"
    assert client.post("/api/penalties/", late(tournament), format="json").status_code == 201


def test_a_director_has_every_referee_power(api_as, director, tournament, table):
    client = api_as(director)
    version = finished(client, table)
    assert (
        client.post(
            url(table, "confirm/"), {"version": version, "short_reason": "Time limit reached"}, format="json"
        ).status_code
        == 200
    )
    assert client.post("/api/penalties/", late(tournament), format="json").status_code == 201


def test_a_referee_of_another_tournament_cannot_write_here(
    api_as, make_user, make_tournament, tournament, table
):
    outsider = make_user("other-referee")
    other = make_tournament(slug="elsewhere", players=0)
    tournament_services.role_grant(tournament=other, user=outsider, role=Role.REFEREE)
    client = api_as(outsider)
    assert client.post(url(table, "hands/"), {**DRAW, "version": 1}, format="json").status_code == 403
    assert (
        client.put(url(table, "totals/"), {"scores": [0, 0, 0, 0], "version": 1}, format="json").status_code
        == 403
    )
    assert (
        client.post(
            url(table, "confirm/"), {"version": 1, "short_reason": "Time limit reached"}, format="json"
        ).status_code
        == 403
    )
    assert client.post("/api/penalties/", late(tournament), format="json").status_code == 403
    assert client.get(url(table)).status_code == 403  # nor read the draft
    assert not TableResult.objects.filter(table=table).exists()
    assert not Penalty.objects.exists()


def test_anonymous_cannot_write_anything(api, tournament, table, referee, api_as):
    assert api.post(url(table, "hands/"), {**DRAW, "version": 1}, format="json").status_code == 403
    assert (
        api.put(url(table, "totals/"), {"scores": [0, 0, 0, 0], "version": 1}, format="json").status_code
        == 403
    )
    assert api.post(url(table, "submit/"), {"version": 1}, format="json").status_code == 403
    assert api.post("/api/penalties/", late(tournament), format="json").status_code in (401, 403)
    penalty = api_as(referee).post("/api/penalties/", late(tournament), format="json").json()
    assert api.post(
        f"/api/penalties/{penalty['id']}/cancel/", {"reason": "x"}, format="json"
    ).status_code in (401, 403)
    assert not TableResult.objects.filter(table=table).exists()
    assert Penalty.objects.get().cancelled_at is None


def test_a_table_key_writes_its_own_table_only(api, table, tables):
    key = {"HTTP_X_TABLE_KEY": table.private_key}
    assert api.post(url(table, "hands/"), {**DRAW, "version": 1}, format="json", **key).status_code == 201
    other = api.post(url(tables[1], "hands/"), {**DRAW, "version": 1}, format="json", **key)
    assert other.status_code == 403
    assert not TableResult.objects.filter(table=tables[1]).exists()
    # the key in the query string works the same way
    assert (
        api.post(
            url(table, "hands/") + f"?key={table.private_key}", {**DRAW, "version": 2}, format="json"
        ).status_code
        == 201
    )
    assert (
        api.post(url(table, "hands/") + "?key=guessed", {**DRAW, "version": 3}, format="json").status_code
        == 403
    )


def _keyed(api, table):
    """The API client of the table's phone: every request carries the table's key."""
    api.credentials(HTTP_X_TABLE_KEY=table.private_key)
    return api


def test_a_table_key_cannot_confirm_nor_log_penalties(api, tournament, table):
    keyed = _keyed(api, table)
    version = finished(keyed, table)
    assert (
        keyed.post(
            url(table, "confirm/"), {"version": version, "short_reason": "Time limit reached"}, format="json"
        ).status_code
        == 403
    )
    assert TableResult.objects.get(table=table).status == "submitted"
    assert keyed.post("/api/penalties/", late(tournament), format="json").status_code in (401, 403)
    assert not Penalty.objects.exists()


def test_a_table_key_stops_working_once_the_table_is_confirmed(api, api_as, referee, table):
    keyed = _keyed(api, table)
    version = finished(keyed, table)
    api_as(referee).post(
        url(table, "confirm/"), {"version": version, "short_reason": "Time limit reached"}, format="json"
    )
    response = keyed.post(url(table, "hands/"), {**DRAW, "version": version + 1}, format="json")
    assert response.status_code == 400
    assert response.json()["status"] == ["this table is confirmed; a referee must reopen it"]
    undo = keyed.delete(url(table, "hands/last/") + f"?version={version + 1}&reason=oops")
    assert undo.status_code == 400
    assert Hand.objects.filter(result__table=table).count() == 2


def test_a_confirmed_table_refuses_scorers_and_needs_a_reason_from_referees(api_as, scorer, referee, table):
    version = finished(api_as(scorer), table)
    api_as(referee).post(
        url(table, "confirm/"), {"version": version, "short_reason": "Time limit reached"}, format="json"
    )
    version += 1
    refused = api_as(scorer).put(
        url(table, "hands/1/"), {**DRAW, "version": version, "reason": "typo"}, format="json"
    )
    assert refused.json()["status"] == ["this table is confirmed; a referee must reopen it"]
    no_reason = api_as(referee).post(url(table, "hands/"), {**DRAW, "version": version}, format="json")
    assert no_reason.status_code == 400
    assert no_reason.json()["reason"] == ["changing a confirmed result needs a reason"]
    added = api_as(referee).post(
        url(table, "hands/"), {**DRAW, "version": version, "reason": "a hand was missed"}, format="json"
    )
    assert added.status_code == 201
    assert (added.json()["status"], len(added.json()["hands"])) == ("confirmed", 3)


def test_the_public_reads_confirmed_results_and_active_penalties(api, api_as, referee, tournament, table):
    client = api_as(referee)
    version = finished(client, table)
    assert api.get(url(table)).status_code == 403
    client.post(
        url(table, "confirm/"), {"version": version, "short_reason": "Time limit reached"}, format="json"
    )
    assert api.get(url(table)).status_code == 200
    client.post("/api/penalties/", late(tournament), format="json")
    listed = api.get(f"/api/penalties/?tournament={tournament.slug}").json()["results"]
    assert [(p["player"], p["kind"], p["points"]) for p in listed] == [("p1", "late_arrival", -10)]
