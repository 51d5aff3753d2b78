"""No request can take more than a moment of a worker: numbers, nesting, sizes, unknown fields, texts.

Each test reproduces a finding of the probe of the public server: the request that once cost seconds of
CPU, gigabytes of memory or a 500 now gets a 4xx that names the field and the rule.
"""

from __future__ import annotations

import io
import json
import tracemalloc

import pytest
from django.test import override_settings

from config.parsers import PayloadTooLarge, RawJSONParser
from rankings.archive import archive_import
from scoring.models import Hand, TableResult
from scoring.rules.base import RuleError
from scoring.rules.jsontext import nesting_over
from scoring.rules.numbers import FAN_LIMIT, SCORE_LIMIT, read_number, read_text
from tests.archive.conftest import load
from tests.scoring.test_pages_support import post, seat_session, table_url, text
from tournaments.models import Tournament

DEEP = 50_000


def deep_array(depth: int = DEEP) -> str:
    return "[" * depth + "]" * depth


# -- the number reader (pure) ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "value, message",
    [
        (
            "1e10000000",
            "scores[0] must be written as a plain number (such as -16, 21.5 or 64/3; no exponent)",
        ),
        ("1e300", "scores[0] must be written as a plain number"),
        ("9" * 21, "scores[0] is 21 characters long; a number has at most 20"),
        (10**30, "scores[0] is too large: at most 10,000,000 in magnitude"),
        (1e300, "scores[0] is too large"),
        (float("nan"), "scores[0] is too large"),
        ("1/0", "scores[0] divides by zero"),
        (True, "scores[0] must be a number, not true"),
        ([1], "scores[0] must be a number (such as -16, 21.5 or 64/3), not list"),
    ],
)
def test_a_number_out_of_the_rules_is_refused_by_name_and_rule(value, message):
    with pytest.raises(RuleError) as caught:
        read_number(value, field="scores[0]", limit=SCORE_LIMIT)
    assert caught.value.path == "scores[0]"
    assert caught.value.message.startswith(message)


@pytest.mark.parametrize(
    "value, expected",
    [
        ("-16", -16),
        ("+32", 32),
        ("21.5", 43 / 2),
        ("21,5", 43 / 2),
        ("64/3", 64 / 3),
        ("\u221216", -16),
        (12, 12),
    ],
)
def test_numbers_as_people_type_them_are_read_exactly(value, expected):
    assert read_number(value, field="x", limit=SCORE_LIMIT) == pytest.approx(expected)


def test_fan_is_bounded_by_its_own_limit_and_text_by_its_length():
    with pytest.raises(RuleError, match="fan is too large: at most 1,000"):
        read_number(FAN_LIMIT + 1, field="fan", limit=FAN_LIMIT, whole=True)
    with pytest.raises(RuleError, match="reason has 100,000 characters; at most 500"):
        read_text("x" * 100_000, field="reason")


def test_the_nesting_scan_ignores_brackets_inside_strings():
    assert nesting_over(deep_array(40).encode(), 32)
    assert not nesting_over(deep_array(32).encode(), 32)
    assert not nesting_over(json.dumps({"a": "[" * 100}).encode(), 32)


# -- JSON bodies ----------------------------------------------------------------------------------------


@pytest.fixture
def table(tournament):
    return seat_session(tournament)[0]


def hands_url(table):
    return f"/api/tables/{table.pk}/result/hands/"


@pytest.mark.django_db
def test_a_50000_deep_body_on_the_hands_endpoint_is_refused_before_parsing(api_as, scorer, table):
    body = '{"version": 1, "result": "win", "winner": "p1", "discarder": null, "fan": ' + deep_array() + "}"
    tracemalloc.start()
    response = api_as(scorer).post(hands_url(table), body, content_type="application/json")
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert response.status_code == 400
    assert "nests arrays and objects more than 32 levels deep" in response.json()["detail"]
    assert peak < 20 * 1024 * 1024  # a few copies of the 100 KB body, never the nested structure
    assert not Hand.objects.exists()


@pytest.mark.django_db
def test_a_body_over_the_size_limit_gets_413(api_as, scorer, table, settings):
    settings.JSON_MAX_BYTES = 10_000
    body = json.dumps({"version": 1, "result": "draw", "pad": "x" * 20_000})
    response = api_as(scorer).post(hands_url(table), body, content_type="application/json")
    assert response.status_code == 413
    assert "larger than 10,000 bytes" in response.json()["detail"]


@pytest.mark.django_db
def test_unknown_fields_in_a_hand_are_refused_not_stored(api_as, scorer, table):
    hand = {"version": 1, "result": "win", "winner": "p1", "discarder": "p2", "fan": 8, "note": "x" * 1000}
    response = api_as(scorer).post(hands_url(table), hand, format="json")
    assert response.status_code == 400
    assert "unknown field 'note' in a MCR hand" in response.json()["note"][0]
    assert not Hand.objects.exists()


@pytest.mark.django_db
def test_a_table_link_cannot_store_1e300_as_a_total(api, table):
    response = api.put(
        f"/api/tables/{table.pk}/result/totals/",
        {"version": 1, "scores": ["1e300", 0, 0, 0]},
        format="json",
        HTTP_X_TABLE_KEY=table.private_key,
    )
    assert response.status_code == 400
    assert response.json()["scores[0]"][0].startswith("scores[0] must be written as a plain number")
    assert not TableResult.objects.filter(scores__isnull=False).exists()


@pytest.mark.django_db
def test_a_reason_of_100_kb_is_refused_by_the_api(api_as, referee, table):
    client = api_as(referee)
    response = client.put(
        f"/api/tables/{table.pk}/result/totals/",
        {"version": 1, "scores": [10, 0, -10, 0], "imbalance_reason": "x" * 100_000},
        format="json",
    )
    assert response.status_code == 400
    assert "no more than 500 characters" in response.json()["imbalance_reason"][0]


# -- forms ----------------------------------------------------------------------------------------------


@pytest.mark.django_db
def test_the_totals_form_refuses_1e10000000_at_once(client, scorer, table):
    client.force_login(scorer)
    response = post(
        client, table_url(table), "totals", table, score0="1e10000000", score1="0", score2="0", score3="0"
    )
    assert response.status_code == 400
    assert "Enter a number, such as -16 or 32. (scores[0] must be written as a plain number" in text(response)
    response = post(
        client, table_url(table), "totals", table, score0="10" + "0" * 17, score1="0", score2="0", score3="0"
    )
    assert response.status_code == 400
    assert "scores[0] is too large: at most 10,000,000 in magnitude" in text(response)
    assert not TableResult.objects.filter(scores__isnull=False).exists()


# -- archives -------------------------------------------------------------------------------------------


def deep_players_archive() -> bytes:
    doc = json.dumps({**load("mcr"), "players": "HOLE"})
    return doc.replace('"HOLE"', "[" + deep_array() + "]").encode()


@pytest.mark.django_db
def test_an_account_with_no_role_is_refused_before_the_archive_is_read(api_as, make_user, monkeypatch):
    read = []
    monkeypatch.setattr("rankings.archive.api.open_source", lambda doc: read.append(doc))
    upload = io.BytesIO(deep_players_archive())
    upload.name = "archive.json"
    response = api_as(make_user("nobody")).post("/api/archives/", {"file": upload}, format="multipart")
    assert response.status_code == 403
    response = api_as(make_user("nobody2")).post(
        "/api/archives/", deep_players_archive(), content_type="application/json"
    )
    assert response.status_code == 403
    assert read == []


@pytest.mark.django_db
def test_a_50000_deep_archive_is_refused_with_bounded_memory(api_as, make_user):
    admin = make_user("admin", is_staff=True)
    for send in ("multipart", "json"):
        body = deep_players_archive()
        tracemalloc.start()
        if send == "multipart":
            upload = io.BytesIO(body)
            upload.name = "archive.json"
            response = api_as(admin).post("/api/archives/", {"file": upload}, format="multipart")
        else:
            response = api_as(admin).post("/api/archives/", body, content_type="application/json")
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        assert response.status_code == 400, send
        assert (
            response.json()["message"]
            == "the archive nests arrays and objects more than 32 levels deep (the limit)"
        )
        assert response.json()["path"] == ""  # the whole document: refused before it is parsed
        assert peak < 20 * 1024 * 1024
    assert not Tournament.objects.exists()


@pytest.mark.django_db
@override_settings(ARCHIVE_MAX_BYTES=1000)
def test_an_archive_over_the_size_limit_gets_413(api_as, make_user):
    response = api_as(make_user("admin", is_staff=True)).post(
        "/api/archives/", json.dumps(load("mcr")), content_type="application/json"
    )
    assert response.status_code == 413


@override_settings(ARCHIVE_INLINE_BYTES=64 * 1024, ARCHIVE_MAX_BYTES=4 * 1024 * 1024)
def test_an_archive_body_is_spooled_to_disk_not_held_whole():
    body = json.dumps(load("mcr")).encode()
    body = body[:-1] + b', "padding": "' + b"x" * (3 * 1024 * 1024) + b'"}'
    tracemalloc.start()
    try:
        document = RawJSONParser().parse(io.BytesIO(body))
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < len(body) // 8  # a piece at a time, then on disk
    assert document.size == len(body)
    assert document.read() == body
    with pytest.raises(PayloadTooLarge):
        RawJSONParser().parse(io.BytesIO(body + b" " * 1024 * 1024))


@pytest.mark.django_db
@pytest.mark.parametrize(
    "where, value, path, message",
    [
        ("fan", 10**30, "sessions[0].tables[0].hands[0].fan", "fan is too large: at most 1,000 in magnitude"),
        (
            "scores",
            10**30,
            "sessions[0].tables[0].scores[0]",
            "is too large: at most 10,000,000 in magnitude",
        ),
        ("reason", "x" * 600, "sessions[0].tables[0].imbalance_reason", "has 600 characters; at most 500"),
    ],
)
def test_the_archive_import_applies_the_same_bounds(where, value, path, message):
    doc = load("mcr")
    table = doc["sessions"][0]["tables"][0]
    if where == "fan":
        first = next(h for h in table["hands"] if h["result"] == "win")
        table["hands"] = [{**first, "fan": value}]
    else:
        table["hands"] = []
        table["scores"] = [value, 0, 0, -value] if where == "scores" else [10, 0, 0, -20]
        if where == "reason":
            table["imbalance_reason"] = value
    with pytest.raises(RuleError) as caught:
        archive_import(document=doc)  # as parsed from a body; the streamed parser refuses 10**30 as JSON
    assert caught.value.path == path
    assert message in caught.value.message
    assert not Tournament.objects.exists()
