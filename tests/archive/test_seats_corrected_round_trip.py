"""A table whose seats were corrected after the fact exports with the seats the players really took (the
archive's ``seats``) and its hands naming the players; the export imports again to the same standings."""

from __future__ import annotations

import pytest

from rankings.archive import archive_export, archive_import
from rankings.standings.selectors import standings_view
from scoring import services as scoring
from tests.scoring.test_seats_corrected import REAL, SHORT, WHY, enter_mcr, seat_tables
from tournaments.models import Role
from tournaments.permissions import Actor

pytestmark = pytest.mark.django_db


def test_a_corrected_seating_round_trips_with_the_same_standings(tournament, referee):
    actor = Actor(user=referee, role=Role.REFEREE)
    table = seat_tables(tournament)[0]
    version = enter_mcr(table, actor)
    version = scoring.seats_correct(
        table=table, order=REAL, actor=actor, expected_version=version, reason=WHY
    ).version
    scoring.result_confirm(table=table, actor=actor, expected_version=version, short_reason=SHORT)
    before = standings_view(tournament=tournament).to_document(tournament.slug, tournament.ruleset)

    document = archive_export(tournament=tournament)
    exported = document["sessions"][0]["tables"][0]
    assert exported["seats"] == REAL
    assert exported["hands"][0]["winner"] == "p1"
    assert exported["hands"][0]["discarder"] == "p3"

    again = archive_import(document=document, replace=True)
    assert standings_view(tournament=again).to_document(again.slug, again.ruleset) == before
    assert archive_export(tournament=again) == document
