"""/healthz keeps its error details for the staff; the history names the table link that wrote."""

from __future__ import annotations

from unittest import mock

import pytest

from scoring import selectors
from scoring.models import Hand, TableResult
from tournaments import services

pytestmark = pytest.mark.django_db

SECRET = "connection to db.internal:5432 refused for user mahjong_prod"


def test_healthz_shows_error_details_to_staff_only(client, make_user):
    with mock.patch("config.health._database", side_effect=RuntimeError(SECRET)):
        public = client.get("/healthz")
        client.force_login(make_user("someone"))
        signed_in = client.get("/healthz")
        client.force_login(make_user("ops", is_staff=True))
        staff = client.get("/healthz")
    for response in (public, signed_in):
        assert response.status_code == 503
        assert response.json()["database"] == {"ok": False}
        assert SECRET not in response.content.decode()
    assert staff.status_code == 503
    assert SECRET in staff.json()["database"]["error"]


@pytest.fixture
def table(tournament):
    regs = list(tournament.registrations.order_by("key"))
    tables = services.session_seat(session=tournament.sessions.get(number=1), tables=[regs[4:], regs[:4]])
    return tables[1]  # table 2


def test_the_history_names_the_table_link_that_wrote(api, api_as, director, table):
    key = {"HTTP_X_TABLE_KEY": table.private_key}
    url = f"/api/tables/{table.pk}/result/"
    assert api.post(url + "hands/", {"result": "draw", "version": 1}, format="json", **key).status_code == 201
    assert api.post(url + "hands/", {"result": "draw", "version": 2}, format="json", **key).status_code == 201
    assert api.delete(url + "hands/last/?version=3", format="json", **key).status_code in (200, 204)
    records = list(TableResult.history.all()) + list(Hand.history.all())
    assert records and all(r.history_user is None and r.history_table_link == 2 for r in records)

    page_entries = selectors.table_history(table=table)
    assert page_entries and all(e.who == "table link of table 2" for e in page_entries)
    api_entries = api_as(director).get(url + "history/").json()
    assert api_entries and all(e["who"] == "table link of table 2" for e in api_entries)
    # a signed-in writer is still named by account
    director_version = api_as(director).get(url).json()["version"]
    api_as(director).post(url + "hands/", {"result": "draw", "version": director_version}, format="json")
    assert TableResult.history.latest("history_id").history_user == director
    assert TableResult.history.latest("history_id").history_table_link is None
