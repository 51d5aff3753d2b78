"""Totals beyond what a session can end on under the ruleset (+99,999 in MCR, say) are a typing slip far more
often than a game: they wait for a referee's confirmation, and nothing is saved until then."""

from __future__ import annotations

import pytest

from scoring.models import TableResult
from scoring.rules.registry import get_ruleset
from tests.scoring.test_pages_support import post, seat_session, table_url


def test_each_ruleset_bounds_a_session_by_its_own_figures():
    assert get_ruleset("mcr").score_bound() == 16 * 3 * (88 + 8)  # every hand a self-drawn 88 fan
    assert get_ruleset("ema-riichi-2016").score_bound() == 8 * 30000
    assert get_ruleset("classical").score_bound() == 4 * 4 * 2 * 3 * 2 * 500
    assert get_ruleset("salamanca").score_bound() == 4 * 4 * 2 * 3 * 2 * 512


@pytest.mark.django_db
def test_absurd_totals_need_a_referees_confirmation(client, tournament, scorer, referee):
    table = seat_session(tournament)[0]
    url = table_url(table)
    client.force_login(scorer)
    sheet = {"score0": "99999", "score1": "-99999", "score2": "0", "score3": "0"}
    response = post(client, url, "totals", table, **sheet)
    assert response.status_code == 400
    assert "99999 is more than a session can end on under these rules (at most 4608 up or down)" in (
        response.content.decode()
    )
    assert not TableResult.objects.filter(table=table, scores__isnull=False).exists()
    # the scorer cannot confirm them; a referee can
    assert "confirm_unusual" not in client.get(url).content.decode()
    client.force_login(referee)
    assert post(client, url, "totals", table, **sheet).status_code == 400
    assert post(client, url, "totals", table, confirm_unusual="on", **sheet).status_code in (200, 302)
    assert TableResult.objects.get(table=table).scores == [99999, -99999, 0, 0]


@pytest.mark.django_db
def test_ordinary_totals_need_no_confirmation(client, tournament, scorer):
    table = seat_session(tournament)[0]
    client.force_login(scorer)
    response = post(
        client, table_url(table), "totals", table, score0="120", score1="-40", score2="-40", score3="-40"
    )
    assert response.status_code in (200, 302)
