"""A phone's subscription is its owner's: the API, the archive and every export of the tournament hold
nothing of it (its address, its keys)."""

from __future__ import annotations

import json

import pytest
from django.urls import reverse

from rankings.archive.exporter import archive_export
from rankings.exports import exporter_list
from tests.scoring.test_referee_overview import publish, seat_all

pytestmark = pytest.mark.django_db


def test_the_api_the_archive_and_the_exports_never_contain_a_subscription(
    client, api_as, tournament, director, phone
):
    tables = seat_all(tournament)
    publish(tournament, 1)
    p1 = tournament.registrations.get(key="p1")
    browser = phone()
    body = browser.subscription(["seat", "rank"])
    url = reverse("push-player-link", args=[p1.player.private_key, tournament.slug])
    assert client.post(url, json.dumps(body), content_type="application/json").status_code == 201
    table_url = reverse("push-table-link", args=[tables[0].private_key])
    assert (
        client.post(
            table_url, json.dumps(phone().subscription(["clock"])), content_type="application/json"
        ).status_code
        == 201
    )
    secrets = [body["endpoint"], body["keys"]["p256dh"], body["keys"]["auth"], "push/phone"]

    def clean(text: str) -> None:
        assert not [s for s in secrets if s in text]

    clean(json.dumps(archive_export(tournament=tournament)))
    for exporter in exporter_list(tournament=tournament):
        for fmt in set(exporter.formats) & {"csv", "json"}:  # (XLSX holds the same rows as the CSV)
            rendered = exporter(tournament=tournament).render(fmt)
            clean(rendered.data if isinstance(rendered.data, str) else rendered.data.decode("utf-8"))
    api = api_as(director)
    for path in (
        f"/api/tournaments/{tournament.slug}/",
        f"/api/registrations/?tournament_slug={tournament.slug}",
        f"/api/players/{p1.player_id}/",
        f"/api/tables/{tables[0].pk}/",
        f"/api/sessions/?tournament_slug={tournament.slug}",
        "/api/schema/",
    ):
        response = api.get(path)
        assert response.status_code == 200, path
        clean(response.content.decode())
    assert "subscription" not in api.get("/api/schema/").content.decode().lower()
