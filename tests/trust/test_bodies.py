"""Every request body is bounded before anything reads it, and every answer under /api/ is JSON.

Each test reproduces a finding of the hostile probe of the production set-up: with an ``Idempotency-Key`` a
200,000-deep body was a 500 and a 25 MB body was read whole before the 403; refused anonymous writes
stored a key each; two views read JSON with DRF's plain parser; bodies over Django's cap were a 500 (or an
HTML 400 page with a key); the same key sent by token and by session cookie made two writes.
"""

from __future__ import annotations

import json

import pytest
from django.urls import URLPattern, URLResolver, get_resolver
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from config import parsers as project_parsers
from idempotency.models import IdempotencyRecord
from scoring.models import Hand
from tests.idempotency.support import new_key
from tests.scoring.test_api_results import seat, url, win
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db

DEEP = 200_000


def deep_body() -> bytes:
    return b'{"name": ' + b"[" * DEEP + b"]" * DEEP + b"}"


def assert_json_naming(response, status: int, field: str, words: str) -> dict:
    assert response.status_code == status, response.content[:300]
    assert response["Content-Type"].startswith("application/json"), response["Content-Type"]
    body = response.json()
    assert words in body[field][0], body
    assert body["detail"].startswith(f"{field}: "), body
    return body


@pytest.fixture
def table(tournament):
    return seat(tournament, ("p1", "p2", "p3", "p4"))[0]


# -- the census of parsers ------------------------------------------------------------------------------


def api_views():
    """Every view under /api/ with its parser classes (an action's own where it has them)."""
    found = []

    def walk(patterns, prefix):
        for pattern in patterns:
            route = prefix + str(pattern.pattern)
            if isinstance(pattern, URLResolver):
                walk(pattern.url_patterns, route)
            elif isinstance(pattern, URLPattern) and route.startswith("api/"):
                view = pattern.callback
                cls = getattr(view, "cls", None)
                if cls is None:
                    continue
                initkwargs = getattr(view, "initkwargs", None) or {}
                found.append((route, initkwargs.get("parser_classes") or cls.parser_classes))

    walk(get_resolver().url_patterns, "")
    return found


def test_every_api_view_reads_its_body_with_the_projects_bounded_parsers():
    views = api_views()
    assert len(views) > 50  # the whole API, not an empty walk
    offenders = sorted(
        {
            f"{route} uses {cls.__module__}.{cls.__name__}"
            for route, classes in views
            for cls in classes
            if cls.__module__ != project_parsers.__name__ or not hasattr(cls, "body_limit")
        }
    )
    assert offenders == []


@pytest.mark.parametrize(
    "path", ["/api/tables/{table}/tiles/value/", "/api/notable-hands/"], ids=["tile-value", "notable-hands"]
)
def test_the_tile_apis_refuse_deep_and_large_bodies_by_the_rule(api_as, referee, table, settings, path):
    client = api_as(referee)
    path = path.format(table=table.pk)
    deep = client.post(path, deep_body(), content_type="application/json")
    assert_json_naming(deep, 400, "body", "nests arrays and objects more than 32 levels deep")
    settings.JSON_MAX_BYTES = 10_000
    large = client.post(path, json.dumps({"pad": "x" * 20_000}), content_type="application/json")
    assert_json_naming(large, 413, "body", "larger than 10,000 bytes")


# -- the idempotency key reads nothing it may not ------------------------------------------------------


def test_a_200000_deep_body_with_a_key_is_refused_not_a_500(api_as, director, tournament):
    response = api_as(director).patch(
        f"/api/tournaments/{tournament.slug}/",
        deep_body(),
        content_type="application/json",
        HTTP_IDEMPOTENCY_KEY=new_key(),
    )
    assert_json_naming(response, 400, "body", "more than 32 levels deep")
    assert not IdempotencyRecord.objects.exists()  # a refused write keeps no key
    tournament.refresh_from_db()
    assert tournament.name == "Open 2026"


def test_an_anonymous_deep_body_with_a_key_gets_the_403_it_gets_without_one(api):
    response = api.post(
        "/api/tournaments/", deep_body(), content_type="application/json", HTTP_IDEMPOTENCY_KEY=new_key()
    )
    assert response.status_code == 403
    assert not IdempotencyRecord.objects.exists()


def test_refused_anonymous_writes_with_keys_store_nothing(api, client, tournament):
    for _ in range(5):
        response = api.post("/api/tournaments/", {"name": "X"}, format="json", HTTP_IDEMPOTENCY_KEY=new_key())
        assert response.status_code == 403
    page = client.post(
        f"/t/{tournament.slug}/console/players/", {"first_name": "A", "idempotency_key": new_key()}
    )
    assert page.status_code == 302 and "/login/" in page["Location"]
    assert IdempotencyRecord.objects.count() == 0


def test_a_body_over_the_parser_limit_is_refused_before_it_is_read(api_as, director):
    """The length the request announces is checked first: the test payload cannot be read past its 10
    bytes, so any read of the announced 25 MB would fail the request."""
    response = api_as(director).generic(
        "POST",
        "/api/tournaments/",
        b'{"a": "b"}',
        content_type="application/json",
        HTTP_IDEMPOTENCY_KEY=new_key(),
        CONTENT_LENGTH=str(25 * 1024 * 1024),
    )
    assert_json_naming(response, 413, "body", "larger than 1,048,576 bytes (the limit)")
    assert not IdempotencyRecord.objects.exists()


def test_a_315_mb_body_with_a_key_gets_a_json_413_not_an_html_page(api_as, director):
    body = b'{"name": "' + b"x" * int(31.5 * 1024 * 1024) + b'"}'
    client = api_as(director)
    for headers in ({"HTTP_IDEMPOTENCY_KEY": new_key()}, {}):
        response = client.post("/api/tournaments/", body, content_type="application/json", **headers)
        assert_json_naming(response, 413, "body", "the limit")
    archive = client.post("/api/archives/", body, content_type="application/json")
    assert_json_naming(archive, 413, "body", f"larger than {25 * 1024 * 1024:,} bytes")
    assert not Tournament.objects.exclude(slug="open-2026").exists()


def test_the_same_key_by_token_and_by_session_cookie_is_one_write(scorer, table):
    key = new_key()
    by_cookie = APIClient()
    by_cookie.force_login(scorer)
    by_token = APIClient()
    by_token.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=scorer).key}")
    first = by_cookie.post(
        url(table, "hands/"), win("p1", "p3", 8, 1), format="json", HTTP_IDEMPOTENCY_KEY=key
    )
    second = by_token.post(
        url(table, "hands/"), win("p1", "p3", 8, 1), format="json", HTTP_IDEMPOTENCY_KEY=key
    )
    assert first.status_code == 201
    assert second.status_code == 201 and second["Idempotent-Replayed"] == "true"
    assert Hand.objects.filter(result__table=table).count() == 1


# -- JSON whatever the failure --------------------------------------------------------------------------


def test_a_json_parse_error_names_the_body_and_the_rule(api_as, director, tournament):
    response = api_as(director).patch(
        f"/api/tournaments/{tournament.slug}/", b'{"name": "A",}', content_type="application/json"
    )
    assert_json_naming(response, 400, "body", "the JSON body is not valid JSON (RFC 8259)")


def test_an_unsupported_content_type_names_the_header(api_as, director, tournament):
    response = api_as(director).patch(
        f"/api/tournaments/{tournament.slug}/", b"name: A", content_type="text/yaml"
    )
    assert_json_naming(response, 415, "Content-Type", "text/yaml")


def test_a_too_long_address_is_a_json_414(api):
    response = api.get("/api/tournaments/?search=" + "a" * 5000)
    assert_json_naming(response, 414, "path", "longer than 4,096 bytes (the limit)")


def test_the_frameworks_400_is_json_under_the_api(api):
    response = api.get("/api/tournaments/", HTTP_HOST="not-this-site.example")
    assert_json_naming(response, 400, "request", "malformed")
    page = api.get("/", HTTP_HOST="not-this-site.example")
    assert page.status_code == 400 and not page["Content-Type"].startswith("application/json")


def test_a_form_with_too_many_fields_is_a_json_400_naming_the_rule(api_as, director, settings):
    settings.DATA_UPLOAD_MAX_NUMBER_FIELDS = 10
    response = api_as(director).post(
        "/api/tournaments/",
        "&".join(f"f{i}=1" for i in range(50)),
        content_type="application/x-www-form-urlencoded",
    )
    assert_json_naming(response, 400, "body", "more than 10 fields")


def test_an_unknown_api_path_is_a_json_404(api):
    response = api.get("/api/no-such-thing/")
    assert response.status_code == 404
    assert response.json() == {"detail": "Not found."}


@pytest.mark.parametrize(
    "body, field",
    [
        ({"settings": {"hide_last_sessions": 1, "note": "a\u0000b"}}, "settings.note"),
        ({"name": "Open\u00002026"}, "name"),
        ({"rules": {"x": ["\u0000"]}}, "rules.x[0]"),
    ],
    ids=["settings", "name", "nested"],
)
def test_a_nul_in_any_text_of_a_json_body_is_a_400_naming_where(api_as, director, tournament, body, field):
    response = api_as(director).patch(f"/api/tournaments/{tournament.slug}/", body, format="json")
    assert_json_naming(response, 400, field, "holds a NUL character (U+0000), which no text may hold")
    tournament.refresh_from_db()
    assert tournament.name == "Open 2026"


def test_a_nul_in_a_reason_is_a_400_naming_the_reason(api_as, referee, table):
    response = api_as(referee).put(
        url(table, "totals/"),
        {"version": 1, "scores": [10, 0, -10, 1], "imbalance_reason": "late\u0000"},
        format="json",
    )
    assert_json_naming(response, 400, "imbalance_reason", "NUL character")


@pytest.mark.parametrize(
    "name, character", [("Ana\u0000", "U+0000 NULL"), ("\u202eAna", "U+202E RIGHT-TO-LEFT OVERRIDE")]
)
def test_a_nul_or_a_direction_override_in_an_archive_name_is_refused_naming_its_path(
    api_as, make_user, name, character
):
    from tests.archive.conftest import load

    document = load("ema-riichi-2008")
    document["players"][4]["first_name"] = name
    response = api_as(make_user("organiser", is_staff=True)).post("/api/archives/", document, format="json")
    assert response.status_code == 400
    assert response.json()["path"] == "players[4].first_name"
    assert character in response.json()["message"]
    assert not Tournament.objects.exists()


# -- pages are bounded too; a refused write keeps no key; the key changes nobody ------------------------


def test_an_anonymous_25_mb_form_to_a_page_is_refused_before_it_is_parsed(client, tournament):
    """The announced length is checked before the CSRF check reads the form: the payload sent is a few
    bytes, so any read of the announced 25 MB would fail the request instead of answering 413."""
    for content_type in ("application/x-www-form-urlencoded", "multipart/form-data; boundary=x"):
        response = client.generic(
            "POST",
            f"/t/{tournament.slug}/console/players/",
            b"first_name=A",
            content_type=content_type,
            CONTENT_LENGTH=str(25 * 1024 * 1024),
        )
        assert response.status_code == 413, (content_type, response.status_code)
        assert "body: The request body is larger than 1,048,576 bytes" in response.content.decode()
    assert IdempotencyRecord.objects.count() == 0


def test_a_signed_in_directors_upload_to_a_page_keeps_the_upload_limit(client, director, tournament):
    """A 2 MB file is over the form limit but within the upload limit: read, not refused."""
    from django.core.files.uploadedfile import SimpleUploadedFile

    client.force_login(director)
    upload = SimpleUploadedFile("players.csv", b"first_name\n" + b"x" * (2 * 1024 * 1024))
    within = client.post("/accounts/login/", {"username": "nobody", "file": upload})
    assert within.status_code == 200
    over = client.generic(
        "POST",
        "/accounts/login/",
        b"--x--",
        content_type="multipart/form-data; boundary=x",
        CONTENT_LENGTH=str(27 * 1024 * 1024 + 1),
    )
    assert over.status_code == 413


def test_anonymous_writes_refused_with_400_or_404_keep_no_key(api, client, tournament, table):
    for _ in range(3):
        missing = api.post(
            "/api/tables/999999/result/hands/",
            {"result": "draw"},
            format="json",
            HTTP_IDEMPOTENCY_KEY=new_key(),
        )
        assert missing.status_code in (400, 403, 404)
        bad_link = api.post(
            f"/api/tables/{table.pk}/result/hands/",
            {"result": "draw"},
            format="json",
            HTTP_X_TABLE_KEY="not-the-key",
            HTTP_IDEMPOTENCY_KEY=new_key(),
        )
        assert bad_link.status_code in (400, 403, 404)
        bad_body = api.post(
            f"/api/tables/{table.pk}/result/hands/",
            {"result": "nonsense"},
            format="json",
            HTTP_X_TABLE_KEY=table.private_key,
            HTTP_IDEMPOTENCY_KEY=new_key(),
        )
        assert bad_body.status_code == 400
        page = client.post(f"/table/{table.private_key}x/", {"idempotency_key": new_key()})
        assert page.status_code == 404
    assert IdempotencyRecord.objects.count() == 0


@pytest.mark.parametrize("method", ["post", "patch"])
def test_a_signed_in_directors_deep_body_with_a_key_is_the_400_naming_body(director, tournament, method):
    """Signed in by the session cookie, as in a browser (the CSRF check runs): the key's look at the
    caller before the view must not turn the director into nobody (it answered 403 "Authentication
    credentials were not provided")."""
    from django.test import Client

    client = Client(enforce_csrf_checks=True)
    client.force_login(director)
    client.get("/")
    token = client.cookies["csrftoken"].value
    url = "/api/tournaments/" if method == "post" else f"/api/tournaments/{tournament.slug}/"
    for headers in ({"HTTP_IDEMPOTENCY_KEY": new_key()}, {}):
        response = getattr(client, method)(
            url, deep_body(), content_type="application/json", HTTP_X_CSRFTOKEN=token, **headers
        )
        assert_json_naming(response, 400, "body", "more than 32 levels deep")
    assert not IdempotencyRecord.objects.exists()
