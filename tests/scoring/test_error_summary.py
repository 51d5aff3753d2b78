"""A refused form says so at the top of the page: a summary announced to screen readers (role=alert) that
links to each field in error, before anything else of the page (static/js/app.js scrolls to it)."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from scoring.models import TableResult
from tests.scoring.test_pages_support import post, seat_session, table_url, version

pytestmark = pytest.mark.django_db

WIN = {"result": "win", "winner": 0, "discarder": 2, "fan": 8}


def summary(response) -> tuple[str, str]:
    """The summary block and the page, after checking it opens the page's content."""
    html = response.content.decode()
    found = re.search(
        r'<div class="message error" role="alert" tabindex="-1" data-errors[^>]*>.*?</div>', html, re.S
    )
    assert found, "no error summary"
    main = html.index("<main")
    assert found.start() - main < html[main:].index("<h1") + 4000  # near the top, not 2,000 px below
    return found.group(0), html


def test_confirming_a_short_table_without_a_reason(client, tournament, referee):
    table = seat_session(tournament)[0]
    url = table_url(table)
    client.force_login(referee)
    assert post(client, url, "hand", table, **WIN).status_code == 302
    response = client.post(url, {"action": "confirm", "version": version(table)})
    assert response.status_code == 400
    block, html = summary(response)
    assert 'href="#id_short_reason"' in block
    assert html.index("data-errors") < html.index('id="seats"' if 'id="seats"' in html else 'id="hands"')
    assert TableResult.objects.get(table=table).status != TableResult.Status.CONFIRMED


def test_totals_that_do_not_add_up(client, tournament, scorer):
    table = seat_session(tournament)[0]
    url = table_url(table)
    client.force_login(scorer)
    response = post(client, url, "totals", table, score0="40", score1="-10", score2="-10", score3="-30")
    assert response.status_code == 400
    block, html = summary(response)
    assert "MCR totals sum to -10, not 0" in block and 'href="#totals"' in block
    assert html.index("data-errors") < html.index('id="hands"')


def test_submitting_with_a_held_hand(client, api_as, tournament, scorer):
    table = seat_session(tournament)[0]
    held = {
        "hand": "234m567m99p",
        "melds": ["pung 7z", "chow 345s"],
        "winning_tile": "4m",
        "robbing_kong": True,
    }
    added = api_as(scorer).post(
        f"/api/tables/{table.pk}/result/hands/",
        {"version": 1, "result": "win", "winner": "p1", "discarder": "p3", "fan": 16, "tiles": held},
        format="json",
    )
    assert added.json()["hands"][0]["valuation"]["status"] == "held"
    client.force_login(scorer)
    response = client.post(table_url(table), {"action": "submit", "version": version(table)})
    assert response.status_code == 400
    block, html = summary(response)
    assert "hand 1 is held" in block and 'href="#submit"' in block
    assert html.index("data-errors") < html.index('id="hands"')


def test_a_refused_penalty_and_a_refused_console_form_have_the_summary(tournament, director, referee):
    staff = Client()
    staff.force_login(referee)
    url = reverse("player-penalties", args=[tournament.slug, "p1"]) + "?kind=foul"
    response = staff.post(url, {"kind": "foul", "session": "", "reason": "slow"})
    assert response.status_code == 400
    block, _ = summary(response)
    assert "Nothing was recorded" in block and 'href="#id_session"' in block

    staff.force_login(director)
    response = staff.post(reverse("console-edit", args=[tournament.slug]), {"t-name": "", "t-ruleset": "mcr"})
    block, _ = summary(response)
    assert 'href="#id_t-name"' in block


def test_the_summary_speaks_spanish(client, tournament, scorer):
    table = seat_session(tournament)[0]
    client.force_login(scorer)
    response = client.post(
        table_url(table),
        {"action": "totals", "version": 1, "score0": "40", "score1": "-10", "score2": "-10", "score3": "-30"},
        HTTP_ACCEPT_LANGUAGE="es",
    )
    block, _ = summary(response)
    assert "No se guardó nada" in block


def test_correcting_a_hand_without_a_reason(client, tournament, scorer):
    table = seat_session(tournament)[0]
    client.force_login(scorer)
    assert post(client, table_url(table), "hand", table, **WIN).status_code == 302
    response = client.post(table_url(table) + "hand/1/", {"version": version(table), **WIN, "fan": 9})
    assert response.status_code == 400
    block, html = summary(response)
    assert 'href="#id_reason"' in block
    assert html.index("data-errors") < html.index('id="hand-form"')


def test_the_director_s_other_forms_have_the_summary(tournament, director):
    """Seating settings, teams and the archive import: every refused form of the director opens with it."""
    staff = Client()
    staff.force_login(director)
    refused = {
        reverse("seating-settings", args=[tournament.slug]): ({"seed": "many"}, "#id_seed"),
        reverse("teams", args=[tournament.slug]): ({"name": "", "country": "", "club": ""}, "#id_name"),
        reverse("director-archive", args=[tournament.slug]): ({"replace": "on"}, "#id_file"),
    }
    for url, (data, anchor) in refused.items():
        block, _ = summary(staff.post(url, data))
        assert f'href="{anchor}"' in block, url
