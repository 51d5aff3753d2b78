"""Every write of the API, sent twice with the same Idempotency-Key: one effect, two identical answers;
the same key with another body: 422 naming the header."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from idempotency.models import IdempotencyRecord
from penalties.models import Penalty
from scoring.models import Hand, TableResult
from tests.idempotency.support import effects, new_key, same_answer
from tests.scoring.test_api_results import seat, url, win

pytestmark = pytest.mark.django_db


@pytest.fixture
def api_as():
    """A client logged in as the user (a session, as the pages and a browser have): the key's actor."""

    def login(user):
        client = APIClient()
        client.force_login(user)
        return client

    return login


@pytest.fixture
def table(tournament):
    return seat(tournament, ("p1", "p2", "p3", "p4"), ("p5", "p6", "p7", "p8"))[0]


def version(table) -> int:
    result = TableResult.objects.filter(table=table).first()
    return result.version if result else 1


def twice(client, method: str, path: str, body: dict, table, *, expect: int):
    """Send the write twice with one key; the second changes nothing and answers the same."""
    key = new_key()
    send = getattr(client, method)
    before = effects(table)
    first = send(path, body, format="json", HTTP_IDEMPOTENCY_KEY=key)
    assert first.status_code == expect, first.content
    after = effects(table)
    assert after != before  # the first one did the work
    second = send(path, body, format="json", HTTP_IDEMPOTENCY_KEY=key)
    same_answer(first, second)
    assert effects(table) == after
    return first


def test_hand_add_edit_and_undo_are_done_once(api_as, scorer, table):
    client = api_as(scorer)
    twice(client, "post", url(table, "hands/"), win("p1", "p3", 8, 1), table, expect=201)
    assert Hand.objects.filter(result__table=table).count() == 1
    twice(client, "post", url(table, "hands/"), win("p2", None, 10, 2), table, expect=201)
    assert Hand.objects.filter(result__table=table).count() == 2
    edit = {**win("p1", "p4", 9, version(table)), "reason": "wrong discarder"}
    twice(client, "put", url(table, "hands/1/"), edit, table, expect=200)
    assert Hand.objects.get(result__table=table, number=1).data["fan"] == 9
    assert TableResult.objects.get(table=table).version == 4
    twice(client, "delete", url(table, "hands/last/"), {"version": 4}, table, expect=200)
    assert Hand.objects.filter(result__table=table).count() == 1


def test_totals_submit_confirm_and_reopen_are_done_once(api_as, scorer, referee, table):
    client = api_as(scorer)
    twice(
        client, "put", url(table, "totals/"), {"version": 1, "scores": [30, 10, -15, -25]}, table, expect=200
    )
    twice(client, "post", url(table, "submit/"), {"version": version(table)}, table, expect=200)
    ref = api_as(referee)
    twice(ref, "post", url(table, "confirm/"), {"version": version(table)}, table, expect=200)
    assert TableResult.objects.get(table=table).status == TableResult.Status.CONFIRMED
    body = {"version": version(table), "reason": "the sheet was misread"}
    twice(ref, "post", url(table, "reopen/"), body, table, expect=200)
    assert TableResult.objects.get(table=table).status == TableResult.Status.SUBMITTED
    assert TableResult.objects.get(table=table).version == 5


def test_a_penalty_is_recorded_and_cancelled_once(api_as, referee, table):
    ref = api_as(referee)
    body = {
        "tournament": "open-2026",
        "session": 1,
        "player": "p3",
        "kind": "late_arrival",
        "minutes_late": 7,
    }
    first = twice(ref, "post", "/api/penalties/", body, table, expect=201)
    assert Penalty.objects.count() == 1
    pk = first.json()["id"]
    twice(ref, "post", f"/api/penalties/{pk}/cancel/", {"reason": "the clock was wrong"}, table, expect=200)
    assert Penalty.objects.get(pk=pk).cancelled_at is not None


def test_the_table_link_retries_with_its_key(api, table):
    key = new_key()
    headers = {"HTTP_X_TABLE_KEY": table.private_key, "HTTP_IDEMPOTENCY_KEY": key}
    first = api.post(url(table, "hands/"), win("p1", "p3", 8, 1), format="json", **headers)
    second = api.post(url(table, "hands/"), win("p1", "p3", 8, 1), format="json", **headers)
    assert first.status_code == 201
    same_answer(first, second)
    assert Hand.objects.filter(result__table=table).count() == 1


def refused_twice(first, second) -> None:
    """A refusal is not stored: the repeat runs again and gets the same refusal (not a replay)."""
    assert first.status_code == second.status_code >= 400
    assert first.content == second.content
    assert "Idempotent-Replayed" not in second


def test_refused_answers_store_nothing_and_the_repeat_is_refused_alike(api_as, scorer, table, caplog):
    """A stale version or a rule error writes nothing and keeps no key: the repeat is refused again. The
    refusal is an answer, not a fault: nothing is logged as an error (the first try, without savepoints,
    is done again with them, quietly)."""
    from idempotency.models import IdempotencyRecord

    client = api_as(scorer)
    client.post(url(table, "hands/"), win("p1", "p3", 8, 1), format="json")
    key = new_key()
    stale = [
        client.post(url(table, "hands/"), win("p2", "p3", 8, 1), format="json", HTTP_IDEMPOTENCY_KEY=key)
        for _ in range(2)
    ]
    assert stale[0].status_code == 409
    refused_twice(*stale)
    key = new_key()
    bad = [
        client.post(url(table, "hands/"), win("p2", "p3", 3, 2), format="json", HTTP_IDEMPOTENCY_KEY=key)
        for _ in range(2)
    ]
    assert bad[0].status_code == 400 and "fan" in bad[0].json()
    refused_twice(*bad)
    assert Hand.objects.filter(result__table=table).count() == 1
    assert not IdempotencyRecord.objects.exists()
    assert [r.getMessage() for r in caplog.records if r.levelname == "ERROR"] == []


def test_the_same_key_with_another_body_is_refused_with_422(api_as, scorer, table):
    client = api_as(scorer)
    key = new_key()
    first = client.post(url(table, "hands/"), win("p1", "p3", 8, 1), format="json", HTTP_IDEMPOTENCY_KEY=key)
    assert first.status_code == 201
    other = client.post(url(table, "hands/"), win("p1", "p3", 9, 1), format="json", HTTP_IDEMPOTENCY_KEY=key)
    assert other.status_code == 422
    assert "Idempotency-Key" in other.json()
    assert "another request" in other.json()["Idempotency-Key"][0]
    elsewhere = client.post(url(table, "submit/"), {"version": 2}, format="json", HTTP_IDEMPOTENCY_KEY=key)
    assert elsewhere.status_code == 422
    assert Hand.objects.filter(result__table=table).count() == 1
    assert TableResult.objects.get(table=table).status == TableResult.Status.DRAFT


def test_key_order_and_spacing_of_json_do_not_make_another_body(api_as, scorer, table):
    client = api_as(scorer)
    key = new_key()
    path = url(table, "hands/")
    a = client.post(
        path, '{"version":1,"result":"draw"}', content_type="application/json", HTTP_IDEMPOTENCY_KEY=key
    )
    b = client.post(
        path, '{ "result": "draw", "version": 1 }', content_type="application/json", HTTP_IDEMPOTENCY_KEY=key
    )
    assert a.status_code == 201
    same_answer(a, b)


def test_keys_belong_to_their_actor(api_as, scorer, referee, tournament):
    first, second = seat(tournament, ("p1", "p2", "p3", "p4"), ("p5", "p6", "p7", "p8"), session=2)
    key = new_key()
    a = api_as(scorer).post(
        url(first, "hands/"), {"result": "draw", "version": 1}, format="json", HTTP_IDEMPOTENCY_KEY=key
    )
    b = api_as(referee).post(
        url(second, "hands/"), {"result": "draw", "version": 1}, format="json", HTTP_IDEMPOTENCY_KEY=key
    )
    assert a.status_code == b.status_code == 201
    assert "Idempotent-Replayed" not in b
    assert IdempotencyRecord.objects.filter(key=key).count() == 2


def test_a_token_is_its_own_actor(make_user, tournament, table):
    from rest_framework.authtoken.models import Token

    from tournaments import services as tournament_services
    from tournaments.models import Role

    user = make_user("token-scorer")
    tournament_services.role_grant(tournament=tournament, user=user, role=Role.SCORER)
    token = Token.objects.create(user=user)
    key = new_key()
    answers = [
        APIClient().post(
            url(table, "hands/"),
            {"result": "draw", "version": 1},
            format="json",
            HTTP_AUTHORIZATION=f"Token {token.key}",
            HTTP_IDEMPOTENCY_KEY=key,
        )
        for _ in range(2)
    ]
    assert answers[0].status_code == 201
    same_answer(*answers)
    assert Hand.objects.filter(result__table=table).count() == 1


def test_a_bad_key_is_refused_naming_the_header(api_as, scorer, table):
    client = api_as(scorer)
    response = client.post(
        url(table, "hands/"), win("p1", "p3", 8, 1), format="json", HTTP_IDEMPOTENCY_KEY="x" * 256
    )
    assert response.status_code == 400
    assert "Idempotency-Key" in response.json()
    assert not Hand.objects.exists()


def test_writes_without_a_key_work_as_before(api_as, scorer, table):
    client = api_as(scorer)
    for _ in range(2):
        client.post(url(table, "hands/"), {"result": "draw", "version": version(table)}, format="json")
    assert Hand.objects.filter(result__table=table).count() == 2
    assert not IdempotencyRecord.objects.exists()


def test_the_schema_documents_the_header_on_every_write(api):
    schema = api.get("/api/schema/", HTTP_ACCEPT="application/json").json()
    writes = [
        op
        for ops in schema["paths"].values()
        for method, op in ops.items()
        if method in ("post", "put", "patch", "delete")
    ]
    assert writes
    for op in writes:
        assert any(p["name"] == "Idempotency-Key" and p["in"] == "header" for p in op["parameters"])
        assert "422" in op["responses"]


@pytest.fixture
def token_client(make_user, tournament):
    """A program with an API token, as a club's scoring app: no cookie, and Django's CSRF check enforced as
    on the server."""
    from rest_framework.authtoken.models import Token

    from tournaments import services as tournament_services

    def client_for(name: str, role: str) -> APIClient:
        user = make_user(name)
        tournament_services.role_grant(tournament=tournament, user=user, role=role)
        client = APIClient(enforce_csrf_checks=True)
        client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=user).key}")
        return client

    return client_for


def test_a_token_with_a_key_is_not_asked_for_a_csrf_cookie(token_client, table):
    from tournaments.models import Role

    client = token_client("club-app", Role.SCORER)
    first = twice(client, "post", url(table, "hands/"), win("p1", "p3", 8, 1), table, expect=201)
    assert "CSRF" not in first.content.decode()
    assert Hand.objects.filter(result__table=table).count() == 1


def test_a_token_records_a_penalty_with_a_key(token_client, table):
    from tournaments.models import Role

    client = token_client("federation-app", Role.REFEREE)
    body = {
        "tournament": "open-2026",
        "session": 1,
        "player": "p3",
        "kind": "late_arrival",
        "minutes_late": 7,
    }
    first = twice(client, "post", "/api/penalties/", body, table, expect=201)
    assert Penalty.objects.count() == 1
    pk = first.json()["id"]
    twice(
        client, "post", f"/api/penalties/{pk}/cancel/", {"reason": "the clock was wrong"}, table, expect=200
    )


def test_a_session_cookie_with_a_key_still_needs_its_csrf_token(scorer, table):
    """The cookie is what a forged page would ride on: with a key too, no CSRF token, no write."""
    client = APIClient(enforce_csrf_checks=True)
    client.force_login(scorer)
    refused = client.post(
        url(table, "hands/"), win("p1", "p3", 8, 1), format="json", HTTP_IDEMPOTENCY_KEY=new_key()
    )
    assert refused.status_code == 403
    assert "CSRF" in refused.json()["detail"]
    assert not Hand.objects.exists()
    assert not IdempotencyRecord.objects.exists()


def test_a_key_stored_before_the_streamed_digest_still_replays_its_answer(api_as, scorer, table):
    """Keys stored with the body's canonical form (parsed and dumped again) keep matching their repeats."""
    from idempotency import fingerprint as fp

    client = api_as(scorer)
    key = new_key()
    path = url(table, "hands/")
    body = '{"version":1,"result":"draw"}'
    first = client.post(path, body, content_type="application/json", HTTP_IDEMPOTENCY_KEY=key)
    record = IdempotencyRecord.objects.get(key=key)
    canonical = fp.canonical_json(body.encode(), max_bytes=10_000, max_depth=32)
    record.fingerprint = fp.fingerprint(
        method="POST", path=path, query="", content_type="application/json", body=canonical
    )
    record.save(update_fields=["fingerprint"])
    again = client.post(
        path, '{"result": "draw", "version": 1}', content_type="application/json", HTTP_IDEMPOTENCY_KEY=key
    )
    same_answer(first, again)
    other = client.post(
        path, '{"result": "draw", "version": 2}', content_type="application/json", HTTP_IDEMPOTENCY_KEY=key
    )
    assert other.status_code == 422
