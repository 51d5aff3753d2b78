"""Riichi late arrival end to end, with the scale a tournament sets (no preset has one: docs/rules-notes-riichi.md).

A short delay comes off the late player's final score; past the limit the player is out of the session, a
substitute takes the seat and the replaced player carries the tournament's replacement result, as after an
illness. Entered live (API, pages) and replayed from the archive, the standings are the same.
"""

from __future__ import annotations

import pytest
from django.urls import reverse

from penalties.models import Kind, Penalty
from rankings.archive import archive_export, archive_import
from rankings.standings.selectors import standings_view
from scoring import services as scoring
from scoring.rules.base import RuleError
from tests.penalties.test_services_substitutes import confirm
from tests.scoring.test_pages_support import seat_session, text
from tournaments import services as tournament_services
from tournaments.models import Role
from tournaments.permissions import Actor

pytestmark = pytest.mark.django_db

SCALE = {"late_arrival_minutes": [0, 10], "late_arrival_points": [5000, 10000], "late_arrival_limit": 15}
REPLACEMENT = {"replacement_points": -15000, "replacement_uma": -15000}
TABLE_1 = [45000, 32000, 25000, 18000]  # p1..p4, East..North
TABLE_2 = [20000, 26000, 40000, 34000]  # p5, p6, s1 (for p7, West), p8


def _tournament(make_tournament, director, rules, slug="riichi-late"):
    tournament = make_tournament(
        slug=slug, ruleset="wrc-riichi", director=director, sessions=1, substitutes=1, rules=rules
    )
    regs = {r.key: r for r in tournament.registrations.all()}
    tables = tournament_services.session_seat(
        session=tournament.sessions.get(number=1),
        tables=[[regs[k] for k in t.split()] for t in ("p1 p2 p3 p4", "p5 p6 p7 p8")],
    )
    return tournament, tables


def _post(client, **penalty):
    return client.post(
        "/api/penalties/", {"tournament": "riichi-late", "session": 1, **penalty}, format="json"
    )


def _scores(tournament) -> dict:
    return {row.player: (row.score, row.sessions) for row in standings_view(tournament=tournament).rows}


def test_a_short_delay_is_deducted_and_past_the_limit_a_substitute_plays(make_tournament, director, api_as):
    tournament, tables = _tournament(make_tournament, director, {**SCALE, **REPLACEMENT})
    client = api_as(director)
    short = _post(client, player="p2", kind="late_arrival", minutes_late=7)
    assert short.status_code == 201, short.content
    assert (short.json()["points"], short.json()["disqualifies"]) == (-5000, False)
    out = _post(client, player="p7", kind="late_arrival", minutes_late=20)
    assert (out.json()["points"], out.json()["disqualifies"]) == (0, True)

    actor = Actor(user=director, role=Role.DIRECTOR)
    confirm(tables[0], actor, TABLE_1)
    with pytest.raises(RuleError, match="out of the session and nobody replaced them"):
        confirm(tables[1], actor, TABLE_2)
    replaced = _post(client, player="p7", kind="replaced", by="s1", reason="late_arrival")
    assert replaced.status_code == 201, replaced.content
    tables[1].refresh_from_db()
    scoring.result_confirm(table=tables[1], actor=actor, expected_version=tables[1].result.version)

    scores = _scores(tournament)
    # Table 1 against 30000 with uma 15000/5000/−5000/−15000: +30000, +7000, −10000, −27000; the 7 minutes
    # cost p2 5000 more (the first step): +2000. Nobody else at the table pays for it.
    assert (scores["p1"], scores["p2"], scores["p3"], scores["p4"]) == (
        (30000, 1),
        (2000, 1),
        (-10000, 1),
        (-27000, 1),
    )
    # Past the limit: p7 is out and carries the replacement result; s1 played the seat (40000, first) and is
    # never ranked; the others keep the game as played: −25000, −9000, +9000.
    assert scores["p7"] == (-30000, 1)
    assert "s1" not in scores
    assert (scores["p5"], scores["p6"], scores["p8"]) == ((-25000, 1), (-9000, 1), (9000, 1))

    document = archive_export(tournament=tournament)
    late = [p for p in document["penalties"] if p["kind"] == "late_arrival"]
    assert [(p["player"], p["minutes_late"]) for p in late] == [("p2", 7), ("p7", 20)]
    again = archive_import(document=document, replace=True)
    assert _scores(again) == scores
    assert archive_export(tournament=again) == document
    reimported = {
        p.registration.key: (p.points, p.disqualifies) for p in again.penalties.filter(kind=Kind.LATE_ARRIVAL)
    }
    assert reimported == {"p2": (-5000, False), "p7": (0, True)}


def test_without_a_scale_the_api_refuses_a_riichi_late_arrival_naming_the_field(
    make_tournament, director, api_as
):
    _tournament(make_tournament, director, {})
    response = _post(api_as(director), player="p2", kind="late_arrival", minutes_late=7)
    assert response.status_code == 400
    assert response.json()["minutes_late"] == [
        "late arrival has no amount under the wrc-riichi rules until the tournament sets "
        "'late_arrival_minutes' and 'late_arrival_points' (or 'late_arrival_limit')"
    ]
    assert not Penalty.objects.exists()


def test_an_archive_with_a_late_arrival_the_rules_cannot_price_is_refused(make_tournament, director, api_as):
    tournament, _ = _tournament(make_tournament, director, SCALE)
    _post(api_as(director), player="p2", kind="late_arrival", minutes_late=7)
    document = archive_export(tournament=tournament)
    document["tournament"]["rules"] = {}
    with pytest.raises(RuleError) as caught:
        archive_import(document=document, replace=True)
    assert caught.value.path.endswith("minutes_late")
    assert "late_arrival_minutes" in caught.value.message


def _penalty_url(table, kind):
    session = table.session
    return reverse("table-penalty", args=[session.tournament.slug, session.number, table.number, kind])


def test_the_penalty_form_shows_the_riichi_scale_and_sends_a_player_past_the_limit_to_the_substitution(
    client, make_tournament, director
):
    tournament = make_tournament(
        slug="riichi-page", ruleset="ema-riichi-2016", director=director, substitutes=1, rules=SCALE
    )
    table = seat_session(tournament)[0]
    client.force_login(director)
    page = text(client.get(_penalty_url(table, "late_arrival")))
    assert (
        "Whole minutes on the referee's clock. From 0 minutes: \u22125000 points off the final score; "
        "from 10 minutes: \u221210000 points off the final score; later than 15 minutes: out of the "
        "session, a substitute takes the seat."
    ) in page
    response = client.post(
        _penalty_url(table, "late_arrival"), {"kind": "late_arrival", "player": "p3", "minutes_late": 16}
    )
    assert response.status_code == 302
    assert "/penalty/replaced/" in response["Location"]
    assert "Player3 riichi-page is out of this session (late past the limit)" in text(
        client.get(response["Location"])
    )


def test_without_a_scale_the_riichi_table_page_does_not_offer_a_late_arrival(
    client, make_tournament, director
):
    tournament = make_tournament(slug="riichi-bare", ruleset="ema-riichi-2016", director=director)
    table = seat_session(tournament)[0]
    client.force_login(director)
    assert client.get(_penalty_url(table, "late_arrival")).status_code == 404
    assert client.get(_penalty_url(table, "chombo")).status_code == 200
