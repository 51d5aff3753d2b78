"""A table whose seats were corrected after the fact exports with the seats the players really took (the
archive's ``seats``), its hands naming the players, and its ``seat_corrections`` (the seating before, when,
by whom and why); the export imports again to the same standings and the same history. An archive from
elsewhere says the same of a table seated otherwise than planned."""

from __future__ import annotations

import copy
import html

import pytest

from rankings.archive import archive_export, archive_import
from rankings.standings.selectors import standings_view
from scoring import services as scoring
from scoring.models import TableResult
from scoring.rules.base import RuleError
from tests.scoring.test_seats_corrected import KEYS, REAL, SHORT, WHY, enter_mcr, seat_tables
from tournaments.models import Role, Table
from tournaments.permissions import Actor

pytestmark = pytest.mark.django_db

NOTE = f"seats corrected to E p3 S p1 W p2 N p4 (recorded E p1 S p2 W p3 N p4): {WHY}"


@pytest.fixture
def document(tournament, referee):
    referee.first_name, referee.last_name = "Ana", "Ruiz"
    referee.save()
    actor = Actor(user=referee, role=Role.REFEREE)
    table = seat_tables(tournament)[0]
    version = enter_mcr(table, actor)
    version = scoring.seats_correct(
        table=table, order=REAL, actor=actor, expected_version=version, reason=WHY
    ).version
    scoring.result_confirm(table=table, actor=actor, expected_version=version, short_reason=SHORT)
    return archive_export(tournament=tournament)


def imported_table(tournament) -> TableResult:
    return TableResult.objects.get(table=Table.objects.get(session__tournament=tournament, number=1))


def test_a_corrected_seating_round_trips_with_the_same_standings(tournament, document):
    before = standings_view(tournament=tournament).to_document(tournament.slug, tournament.ruleset)
    exported = document["sessions"][0]["tables"][0]
    assert exported["seats"] == REAL
    assert exported["hands"][0]["winner"] == "p1"
    assert exported["hands"][0]["discarder"] == "p3"
    (correction,) = exported["seat_corrections"]
    assert {k: correction[k] for k in ("from", "to", "by", "reason")} == {
        "from": list(KEYS),
        "to": REAL,
        "by": "Ana Ruiz",
        "reason": WHY,
    }
    assert correction["at"]

    again = archive_import(document=document, replace=True)
    assert standings_view(tournament=again).to_document(again.slug, again.ruleset) == before
    assert archive_export(tournament=again) == document
    # the imported table's history says who corrected what and why
    result = imported_table(again)
    assert result.seat_corrections == exported["seat_corrections"]
    assert NOTE + " (by Ana Ruiz)" in result.history.first().history_change_reason


def test_an_archive_says_a_table_sat_otherwise_than_planned(document, client, referee):
    """From elsewhere: the table was planned E p1 S p2 W p3 N p4 and played as seated; no time, no name."""
    changed = copy.deepcopy(document)
    changed["sessions"][0]["tables"][0]["seat_corrections"] = [
        {"from": list(KEYS), "to": REAL, "reason": WHY}
    ]
    again = archive_import(document=changed, replace=True)
    result = imported_table(again)
    assert [(c["from"], c["to"], c["by"], c["at"]) for c in result.seat_corrections] == [
        (list(KEYS), REAL, "", None)
    ]
    client.force_login(referee)
    page = html.unescape(client.get(f"/t/{again.slug}/s/1/table/1/").content.decode())
    assert NOTE in page


@pytest.mark.parametrize(
    ("corrections", "path"),
    [
        ("p1", "sessions[0].tables[0].seat_corrections"),
        ([{"from": list(KEYS)}], "sessions[0].tables[0].seat_corrections[0].to"),
        ([{"from": ["p1", "p2", "p3", "p5"], "to": REAL}], "sessions[0].tables[0].seat_corrections[0].from"),
        ([{"from": list(KEYS), "to": list(KEYS)}], "sessions[0].tables[0].seat_corrections[0].to"),
        ([{"from": REAL, "to": list(KEYS)}], "sessions[0].tables[0].seat_corrections[0].to"),
        (
            [{"from": list(KEYS), "to": ["p2", "p1", "p3", "p4"]}, {"from": list(KEYS), "to": REAL}],
            "sessions[0].tables[0].seat_corrections[1].from",
        ),
        (
            [{"from": list(KEYS), "to": REAL, "at": "yesterday"}],
            "sessions[0].tables[0].seat_corrections[0].at",
        ),
        ([{"from": list(KEYS), "to": REAL, "why": "x"}], "sessions[0].tables[0].seat_corrections[0].why"),
    ],
)
def test_a_faulty_seat_correction_is_refused_by_its_path(document, corrections, path):
    changed = copy.deepcopy(document)
    changed["sessions"][0]["tables"][0]["seat_corrections"] = corrections
    with pytest.raises(RuleError) as caught:
        archive_import(document=changed, replace=True)
    assert caught.value.path == path


def test_a_table_not_played_has_no_seat_correction(document):
    changed = copy.deepcopy(document)
    table = changed["sessions"][0]["tables"][1]
    assert not table["hands"]
    table["seat_corrections"] = [{"from": table["seats"][::-1], "to": table["seats"], "reason": "x"}]
    with pytest.raises(RuleError) as caught:
        archive_import(document=changed, replace=True)
    assert caught.value.path == "sessions[0].tables[1].seat_corrections"
