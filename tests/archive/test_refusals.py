"""A faulty archive is refused whole: the message names the JSON path of its first fault, nothing is written."""

from __future__ import annotations

import json

import pytest

from penalties.models import Penalty
from rankings.archive import archive_export, archive_import
from scoring.models import Hand, SeatSummary, TableResult
from scoring.rules.base import RuleError
from tests.archive.conftest import fixture_path, load
from tournaments.models import Player, Registration, Seat, Session, Table, Tournament, TournamentRole
from tournaments.services import role_grant

pytestmark = pytest.mark.django_db

MODELS = (Tournament, Player, Registration, Session, Table, Seat, TableResult, Hand, SeatSummary, Penalty)


def counts() -> tuple[int, ...]:
    return tuple(model.objects.count() for model in MODELS)


def refused(document, **options) -> RuleError:
    before = counts()
    with pytest.raises(RuleError) as info:
        archive_import(document=document, **options)
    assert counts() == before, "a refused archive wrote something"
    return info.value


def table(doc: dict, session: int, number: int) -> dict:
    return doc["sessions"][session]["tables"][number]


def fault(change):
    """An MCR archive with one change."""
    doc = load("mcr")
    change(doc)
    return doc


CASES = {
    "a language the site does not speak": (
        lambda d: d["tournament"].update(language="xx"),
        "tournament.language",
        "language must be one of en, es",
    ),
    # the rule engine replays every hand; its message, prefixed with the table's place in the file
    "fan below the minimum": (
        lambda d: table(d, 2, 0)["hands"][4].update(fan=6),
        "sessions[2].tables[0].hands[4].fan",
        "fan 6 is below the MCR minimum of 8",
    ),
    "a winner who does not sit at the table": (
        lambda d: table(d, 0, 0)["hands"][0].update(winner="p5"),
        "sessions[0].tables[0].hands[0].winner",
        "p5 is not seated at table 1",
    ),
    "the first of two faults": (
        lambda d: (table(d, 0, 0)["hands"][2].update(winner="p9"), table(d, 0, 0)["hands"][1].update(fan=3)),
        "sessions[0].tables[0].hands[1].fan",
        "fan 3 is below",
    ),
    "a seventeenth hand": (
        lambda d: table(d, 0, 0)["hands"].extend([{"result": "draw"}] * 11),
        "sessions[0].tables[0].hands[16]",
        "at most 16 hands",
    ),
    "totals that do not sum to zero": (
        lambda d: table(d, 0, 1).update(scores=[52, -12, -8, -31]),
        "sessions[0].tables[1].scores",
        "sum to 1, not 0",
    ),
    "hands and scores at once": (
        lambda d: table(d, 0, 0).update(scores=[1, -1, 0, 0]),
        "sessions[0].tables[0].scores",
        "not both",
    ),
    "an imbalance reason without totals": (
        lambda d: table(d, 0, 0).update(imbalance_reason="sheet lost"),
        "sessions[0].tables[0].imbalance_reason",
        "goes with the scores",
    ),
    "a player twice in a session": (
        lambda d: table(d, 0, 1)["seats"].__setitem__(0, "p1"),
        "sessions[0].tables[1].seats[0]",
        "p1 already sits at table 1 in this session",
    ),
    "a player twice at a table": (
        lambda d: table(d, 0, 1)["seats"].__setitem__(1, "p5"),
        "sessions[0].tables[1].seats[1]",
        "p5 sits twice at table 2",
    ),
    "an unknown player": (
        lambda d: table(d, 1, 1)["seats"].__setitem__(3, "p99"),
        "sessions[1].tables[1].seats[3]",
        '"p99" is not the key of a player',
    ),
    "three seats": (
        lambda d: table(d, 0, 1)["seats"].pop(),
        "sessions[0].tables[1].seats",
        "not 3",
    ),
    "a session listed twice": (
        lambda d: d["sessions"][3].update(number=2),
        "sessions[3].number",
        "session 2 is listed twice",
    ),
    "a session that is not an object": (
        lambda d: d["sessions"].insert(1, None),
        "sessions[1]",
        "a session must be an object, not null",
    ),
    "a misspelt field": (
        lambda d: table(d, 1, 0).update(imbalance_reasn=table(d, 1, 0).pop("imbalance_reason")),
        "sessions[1].tables[0].imbalance_reasn",
        "unknown field 'imbalance_reasn'",
    ),
    # tournament and rules
    "an unknown rule": (
        lambda d: d["tournament"].update(rules={"min_fann": 6}),
        "tournament.rules.min_fann",
        "unknown rule 'min_fann'",
    ),
    "a rule of the wrong type": (
        lambda d: d["tournament"].update(rules={"min_fan": "6"}),
        "tournament.rules.min_fan",
        "must be a whole number",
    ),
    "an unknown ruleset": (
        lambda d: d["tournament"].update(ruleset="riichi"),
        "tournament.ruleset",
        "unknown ruleset 'riichi'",
    ),
    "a date that is not one": (
        lambda d: d["tournament"].update(starts_on="01/05/2026"),
        "tournament.starts_on",
        "YYYY-MM-DD",
    ),
    "an unknown tie-break": (
        lambda d: d["tournament"]["settings"].update(tiebreaks=["coin_toss"]),
        "tournament.settings.tiebreaks[0]",
        "unknown tie-break",
    ),
    "a start time that is not one": (
        lambda d: d["sessions"][0].update(starts_at="2026-05-01T25:00:00"),
        "sessions[0].starts_at",
        "YYYY-MM-DDTHH:MM",
    ),
    "another format": (lambda d: d.update(format="tournament"), "format", "mahjong-tournament-archive"),
    "another version": (lambda d: d.update(version=2), "version", "version 2"),
    "no players": (lambda d: d.pop("players"), "players", "needs 'players'"),
    # players
    "an EMA number without its leading zero": (
        lambda d: d["players"][1].update(ema_id="0412007"),
        "players[1].ema_id",
        "exactly 8 digits",
    ),
    "an EMA number written as a number": (
        lambda d: d["players"][1].update(ema_id=412007),
        "players[1].ema_id",
        "exactly 8 digits",
    ),
    "an EMA number given twice": (
        lambda d: d["players"][7].update(ema_id="10990043"),
        "players[7].ema_id",
        "already given to players[0]",
    ),
    "a key used twice": (lambda d: d["players"][3].update(key="p2"), "players[3].key", "already used"),
    "a country that is not one": (
        lambda d: d["players"][0].update(country="SPA"),
        "players[0].country",
        "SPA is not an ISO 3166",
    ),
    "a player without a first name": (
        lambda d: d["players"][2].update(first_name=" "),
        "players[2].first_name",
        "cannot be empty",
    ),
    # penalties: the same checks as live entry, amounts from the ruleset
    "an amount the ruleset computes": (
        lambda d: d["penalties"][0].update(points=-10),
        "penalties[0].points",
        "unknown field 'points' in a late_arrival penalty",
    ),
    "a session that is not in the archive": (
        lambda d: d["penalties"][0].update(session=9),
        "penalties[0].session",
        "session 9 is not in the archive",
    ),
    "an unknown kind": (
        lambda d: d["penalties"][2].update(kind="yellow_card"),
        "penalties[2].kind",
        "unknown",
    ),
    "a referee decision past the ruleset's bounds": (
        lambda d: d["penalties"][6].update(points=-5000),
        "penalties[6].points",
        "outside the ruleset's bounds",
    ),
    "a referee decision without its reason": (
        lambda d: d["penalties"][6].pop("reason"),
        "penalties[6].reason",
        "needs a reason",
    ),
    "a false Hu of no MERS variant": (
        lambda d: d["penalties"][1].pop("variant"),
        "penalties[1].variant",
        "below_minimum",
    ),
    "a hand the table did not play": (
        lambda d: d["penalties"][1].update(hand=9),
        "penalties[1].hand",
        "has 6 hands recorded: the hand is one of them or the hand in play (7), not 9",
    ),
    "a table points bonus": (
        lambda d: d["penalties"][9].update(points=1),
        "penalties[9].points",
        "0 or negative",
    ),
    "a substitute who already plays": (
        lambda d: d["penalties"][7].update(by="p1"),
        "penalties[7].by",
        "p1 already plays in session 2",
    ),
    "a player not at the named table": (
        lambda d: d["penalties"][4].update(table=2),
        "penalties[4].player",
        "p1 is not seated at table 2",
    ),
    "a tournament disqualification in a session": (
        lambda d: d["penalties"][14].update(session=3),
        "penalties[14].session",
        "names no session",
    ),
}


@pytest.mark.parametrize("case", CASES)
def test_a_faulty_archive_is_refused_with_the_path_of_its_first_fault(case, tmp_path):
    change, path, message = CASES[case]
    document = fault(change)
    file = tmp_path / "archive.json"
    file.write_text(json.dumps(document, ensure_ascii=False), encoding="utf-8")
    error = refused(file)  # streamed: earlier sessions were written, then rolled back
    assert error.path == path
    assert message in error.message
    assert str(error) == f"{path}: {error.message}"
    # the same document given as an object is refused the same way
    assert str(refused(document)) == str(error)


def test_a_riichi_chombo_at_a_table_entered_hand_by_hand_is_a_hand_not_a_penalty():
    document = load("ema-riichi-2016")
    document["penalties"].append({"player": "p2", "session": 1, "table": 1, "kind": "chombo"})
    error = refused(document)
    assert error.path == "penalties[6].kind"
    assert "record the chombo as a hand" in error.message


def test_an_unknown_field_of_a_riichi_hand_is_refused_by_the_engine():
    document = load("ema-riichi-2016")
    document["sessions"][0]["tables"][0]["hands"][1]["dora"] = 2
    error = refused(document)
    assert error.path == "sessions[0].tables[0].hands[1].dora"


def test_a_file_that_is_not_json_is_refused():
    error = refused(b'{"format": "mahjong-tournament-archive", "version": 1, "tournament": {')
    assert error.path == ""
    assert "not valid JSON" in error.message
    assert "not valid JSON" in refused(b"\xff\xfe not text").message
    assert refused(b"[1, 2]").path == ""


def test_an_existing_slug_is_refused_unless_replaced(make_user):
    first = archive_import(document=fixture_path("mcr"))
    referee = make_user("marta")
    role_grant(tournament=first, user=referee, role="referee")
    error = refused(fixture_path("mcr"))
    assert error.path == "tournament.slug"
    assert "already exists" in error.message

    changed = load("mcr")
    changed["tournament"]["name"] = "Open de Salamanca 2026 (corrected)"
    changed["sessions"][0]["tables"][1]["scores"] = [60, -20, -8, -32]
    players_before = Player.objects.count()
    second = archive_import(document=changed, replace=True)
    assert second.pk != first.pk and not Tournament.objects.filter(pk=first.pk).exists()
    assert archive_export(tournament=second) == changed
    # the staff keep their roles, and the players are the same people (private links unchanged)
    assert TournamentRole.objects.filter(tournament=second, user=referee, role="referee").exists()
    assert Player.objects.count() == players_before


def test_a_refused_replacement_keeps_the_tournament_as_it_was():
    first = archive_import(document=fixture_path("mcr"))
    exported = archive_export(tournament=first)
    broken = load("mcr")
    broken["sessions"][2]["tables"][0]["hands"][0]["fan"] = 7
    refused(broken, replace=True)
    assert archive_export(tournament=Tournament.objects.get(slug="open-salamanca-2026")) == exported
