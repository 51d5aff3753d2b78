"""Riichi substitution: a player replaced by a substitute carries the tournament's fixed replacement
result (Pantheon's EMA/WRC figures: -15000 points and -15000 uma) for the session they missed; the
substitute keeps the seat's real result and is never ranked. Live entry and the archive import of the
same tournament give the same standings."""

from __future__ import annotations

import pytest

from rankings.archive import archive_export, archive_import
from rankings.standings.selectors import standings_view
from tests.penalties.test_services_substitutes import confirm, record
from tournaments import services as tournament_services
from tournaments.models import Role
from tournaments.permissions import Actor

pytestmark = pytest.mark.django_db

SCORES = [45000, 32000, 25000, 18000]  # East..North at table 1; the substitute sits West (p3's seat)


def _riichi(make_tournament, director, rules):
    tournament = make_tournament(
        slug="riichi-cup",
        ruleset="ema-riichi-2016",
        director=director,
        sessions=1,
        substitutes=1,
        rules=rules,
    )
    regs = {r.key: r for r in tournament.registrations.all()}
    tables = tournament_services.session_seat(
        session=tournament.sessions.get(number=1),
        tables=[[regs[k] for k in t.split()] for t in ("p1 p2 p3 p4", "p5 p6 p7 p8")],
    )
    actor = Actor(user=director, role=Role.DIRECTOR)
    record(tournament, actor, "p3", "replaced", by="s1", reason="illness")
    confirm(tables[0], actor, SCORES)
    confirm(tables[1], actor, [30000, 30000, 30000, 30000])
    return tournament


def _scores(tournament) -> dict:
    standings = standings_view(tournament=tournament)
    return {row.player: (row.score, row.sessions) for row in standings.rows}


def test_the_replaced_player_carries_the_fixed_result_and_the_archive_agrees(make_tournament, director):
    tournament = _riichi(make_tournament, director, {"replacement_points": -15000, "replacement_uma": -15000})
    scores = _scores(tournament)
    # p3 missed session 1: -15000 points and -15000 uma, counted as a session.
    assert scores["p3"] == (-30000, 1)
    assert "s1" not in scores  # a substitute is never ranked
    # The other three keep their places and uma (RULES.md: 45000/32000/25000/18000 against 30000 with
    # uma 15000/5000/-5000/-15000): +30000, +7000, -27000.
    assert scores["p1"][0] == 30000 and scores["p2"][0] == 7000 and scores["p4"][0] == -27000

    document = archive_export(tournament=tournament)
    again = archive_import(document=document, replace=True)
    assert _scores(again) == scores
    assert archive_export(tournament=again) == document


def test_without_the_setting_a_replaced_player_carries_nothing(make_tournament, director):
    tournament = _riichi(make_tournament, director, {})
    scores = _scores(tournament)
    assert scores["p3"] == (0, 0)
    assert scores["p1"][0] == 30000
