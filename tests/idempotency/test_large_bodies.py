"""A body larger than the JSON parser's limit (an archive) has no digest: its bytes are its fingerprint,
read in pieces into a temporary file that the view then reads, so that the key never holds it whole."""

from __future__ import annotations

import json

import pytest
from django.http import HttpRequest
from django.test import override_settings

from tests.archive.conftest import load
from tests.idempotency.support import new_key, same_answer
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db


@override_settings(JSON_MAX_BYTES=1024)  # the archive is far larger: no digest of it
def test_an_archive_with_a_key_is_imported_once_without_its_body_read_whole(api_as, make_user, monkeypatch):
    client = api_as(make_user("admin", is_staff=True))
    body = json.dumps(load("mcr")).encode()
    whole = []
    read_whole = HttpRequest.body
    monkeypatch.setattr(HttpRequest, "body", property(lambda r: whole.append(r.path) or read_whole.fget(r)))
    key = new_key()

    def send(data: bytes):
        return client.post("/api/archives/", data, content_type="application/json", HTTP_IDEMPOTENCY_KEY=key)

    first = send(body)
    assert first.status_code == 201, first.content
    same_answer(first, send(body))
    assert Tournament.objects.filter(slug=load("mcr")["tournament"]["slug"]).count() == 1
    # spacing counts for such a body: its bytes are what a repeat must match
    assert send(json.dumps(load("mcr"), indent=1).encode()).status_code == 422
    assert whole == []
