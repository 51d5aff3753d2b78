"""Repeats that a real network produces: the same write sent by several threads at once, and a write whose
answer the client never read (the connection closed before the answer) sent again."""

from __future__ import annotations

import json
import socket
import time
import urllib.request
from urllib.parse import urlsplit

import pytest
from django.db import connection
from rest_framework.test import APIClient

from idempotency.models import IdempotencyRecord
from scoring.models import Hand
from tests.conftest import skip_or_fail
from tests.idempotency.support import new_key
from tests.scoring.test_api_results import seat, url, win
from tests.scoring.test_concurrency import collide
from tests.scoring.test_pages_support import table_url

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def table(tournament):
    return seat(tournament, ("p1", "p2", "p3", "p4"))[0]


def _postgres_only():
    if connection.vendor != "postgresql":
        skip_or_fail(
            "concurrent requests with one key are checked on PostgreSQL (DATABASE_URL=postgres://…); "
            "SQLite serialises every writer on one file lock"
        )


def test_four_threads_send_one_hand_with_one_key_one_hand_is_stored(table, scorer):
    _postgres_only()
    key = new_key()

    def send():
        client = APIClient()
        client.force_login(scorer)  # a session: the key's actor is the user
        response = client.post(
            url(table, "hands/"), win("p1", "p3", 8, 1), format="json", HTTP_IDEMPOTENCY_KEY=key
        )
        return response.status_code, response.content

    outcomes = collide([send] * 4)
    assert all(not isinstance(o, Exception) for o in outcomes), outcomes
    assert {status for status, _ in outcomes} == {201}
    assert len({body for _, body in outcomes}) == 1  # four identical answers
    assert Hand.objects.filter(result__table=table).count() == 1
    assert IdempotencyRecord.objects.filter(key=key).count() == 1


def test_two_threads_send_one_page_form_one_hand_is_stored(client, table, scorer):
    _postgres_only()
    from django.test import Client

    data = {"action": "hand", "version": 1, "result": "draw", "idempotency_key": new_key()}

    def send():
        browser = Client()
        browser.force_login(scorer)
        response = browser.post(table_url(table), data)
        return response.status_code, response.get("Location")

    outcomes = collide([send] * 2)
    assert outcomes[0] == outcomes[1] and outcomes[0][0] == 302, outcomes
    assert Hand.objects.filter(result__table=table).count() == 1


def _send_and_drop(base: str, path: str, body: bytes, headers: dict[str, str]) -> None:
    """Send a whole request and close the connection without reading a byte of the answer."""
    where = urlsplit(base)
    head = [
        f"POST {path} HTTP/1.1",
        f"Host: {where.netloc}",
        f"Content-Length: {len(body)}",
        "Connection: close",
    ]
    head += [f"{k}: {v}" for k, v in headers.items()]
    with socket.create_connection((where.hostname, where.port), timeout=10) as sock:
        sock.sendall(("\r\n".join(head) + "\r\n\r\n").encode() + body)


def _wait_for(condition, what: str, seconds: int = 30) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return
        time.sleep(0.1)
    pytest.fail(f"waited {seconds} s for {what}")


def test_a_hand_whose_answer_was_lost_is_sent_again_and_stored_once(live_server, table):
    key = new_key()
    path = url(table, "hands/")
    body = json.dumps(win("p1", "p3", 8, 1)).encode()
    headers = {"Content-Type": "application/json", "X-Table-Key": table.private_key, "Idempotency-Key": key}
    _send_and_drop(live_server.url, path, body, headers)
    _wait_for(
        lambda: IdempotencyRecord.objects.filter(key=key).exists(), "the server to finish the dropped write"
    )

    answers = []
    for _ in range(2):
        request = urllib.request.Request(live_server.url + path, data=body, headers=headers, method="POST")
        with urllib.request.urlopen(request, timeout=30) as response:
            answers.append((response.status, response.headers["Idempotent-Replayed"], response.read()))
    assert answers[0] == answers[1]
    assert answers[0][0] == 201 and answers[0][1] == "true"
    assert json.loads(answers[0][2])["hands"][0]["hand"]["fan"] == 8
    assert Hand.objects.filter(result__table=table).count() == 1
