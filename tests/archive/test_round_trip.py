"""export(import(archive)) is the archive, for every ruleset; and what the imported tournament then holds."""

from __future__ import annotations

import copy
import json
from fractions import Fraction

import pytest

from rankings.archive import archive_export, archive_import
from rankings.standings.selectors import standings_view
from scoring.models import Hand, SeatSummary, TableResult
from scoring.rules.base import RuleError
from tests.archive.conftest import RULESETS, fixture_path, load
from tournaments.models import Session, Tournament

pytestmark = pytest.mark.django_db

EVERY_KIND = {
    "late_arrival",
    "false_hu",
    "dead_hand",
    "chombo",
    "foul",
    "forgot_winning_tile",
    "referee",
    "disqualified",
    "replaced",
    "table_points",
}
RIICHI_KINDS = {"chombo", "referee", "dead_hand", "replaced", "disqualified"}
ALLOWED = {
    "mcr": EVERY_KIND - {"chombo"},
    "ema-riichi-2016": RIICHI_KINDS,
    "ema-riichi-2025": RIICHI_KINDS | {"late_arrival"},  # EMA riichi rules 2025 §7.2
    "wrc-riichi": RIICHI_KINDS,
    "ema-riichi-2008": RIICHI_KINDS,
    "salamanca": {"false_hu", "dead_hand", "referee", "replaced", "disqualified"},
    "classical": {"false_hu", "dead_hand", "referee", "replaced", "disqualified"},
}
# A penalty of each kind, at table 1 of session 1 (p1 sits there in every fixture).
SAMPLE_PENALTY = {
    "late_arrival": {"minutes_late": 5},
    "false_hu": {"table": 1, "variant": "below_minimum"},
    "chombo": {"table": 1},
    "foul": {"reason": "slow discards"},
    "forgot_winning_tile": {"table": 1, "hand": 1},
    "table_points": {"points": -1, "reason": "late"},
}


def standings(tournament: Tournament) -> dict:
    return standings_view(tournament=tournament).to_document(tournament.slug, tournament.ruleset)


def row(document: dict, player: str) -> dict:
    return next(r for r in document["standings"] if r["player"] == player)


def finals(tournament: Tournament, session: int, table: int) -> list:
    rows = SeatSummary.objects.filter(
        tournament=tournament, session__number=session, table__number=table
    ).order_by("position")
    return [r.final for r in rows]


@pytest.mark.parametrize("ruleset", RULESETS)
def test_the_export_of_an_import_is_the_archive(ruleset):
    document = load(ruleset)
    assert document["tournament"]["ruleset"] == ruleset
    tournament = archive_import(document=fixture_path(ruleset))  # a file, read as a stream
    assert archive_export(tournament=tournament) == document
    # the export imports again (here as a parsed object) into the same tournament
    again = archive_import(document=archive_export(tournament=tournament), replace=True)
    assert archive_export(tournament=again) == document
    assert Tournament.objects.filter(slug=document["tournament"]["slug"]).count() == 1


@pytest.mark.parametrize("ruleset", RULESETS)
def test_each_fixture_holds_hands_totals_substitutions_and_every_penalty_its_ruleset_allows(ruleset):
    document = load(ruleset)
    tables = [t for s in document["sessions"] for t in s["tables"]]
    assert any(t["hands"] for t in tables) and any(t["scores"] is not None for t in tables)
    assert {p["kind"] for p in document["penalties"]} == ALLOWED[ruleset]
    scopes = {p.get("scope") for p in document["penalties"] if p["kind"] == "disqualified"}
    assert scopes == {"session", "tournament"}
    players = document["players"]
    assert any(p["substitute"] for p in players)
    assert any(p["last_name"] == "" for p in players)
    assert any(not p["first_name"].isascii() or not p["last_name"].isascii() for p in players)
    if ruleset != "classical":  # the Basque club players have no EMA numbers
        assert any(p["ema_id"] and p["ema_id"].startswith("0") for p in players)


@pytest.mark.parametrize(
    ("ruleset", "kind"),
    [(r, k) for r in RULESETS for k in sorted(EVERY_KIND - ALLOWED[r]) if k in SAMPLE_PENALTY],
)
def test_a_penalty_the_ruleset_does_not_have_is_refused(ruleset, kind):
    document = load(ruleset)
    document["penalties"].append({"player": "p1", "session": 1, "kind": kind, **SAMPLE_PENALTY[kind]})
    with pytest.raises(RuleError) as refused:
        archive_import(document=document)
    assert refused.value.path.startswith(f"penalties[{len(document['penalties']) - 1}]")
    assert not Tournament.objects.exists()


def test_mcr_standings_follow_from_hands_totals_and_penalties():
    tournament = archive_import(document=fixture_path("mcr"))
    document = standings(tournament)
    assert document["tournament"] == "open-salamanca-2026"
    assert document["complete_sessions"] == 3  # session 4 is seated but not played
    listed = [r["player"] for r in document["standings"]]
    assert sorted(listed) == [f"p{i}" for i in range(1, 9)]  # substitutes have no place
    # Ana: 27 + 40 + 25 game points after the false Hu of José paid her 10, less 10 for the forgotten
    # winning tile; first at all three tables.
    assert row(document, "p1") == {
        "rank": 1,
        "player": "p1",
        "name": "Ana García",
        "table_points": 12,
        "score": 92,
        "penalties": -10,
        "sessions": 3,
        "disqualified": False,
    }
    # José: 0 + 1 + 2 table points, less the table point deducted in session 2
    assert row(document, "p2")["table_points"] == 2
    # Łucja is disqualified from the tournament: last, 0 table points, her score kept
    assert document["standings"][-1]["player"] == "p6"
    assert row(document, "p6")["disqualified"] is True and row(document, "p6")["table_points"] == 0
    # Kiki fell ill during session 2: the substitute Inés gets the seat and 0 table points, the other three
    # share 4, 2 and 1 (MERS 4.1.2); Zoë's invalid false Hu paid 20 to each of the others.
    rows = SeatSummary.objects.filter(tournament=tournament, session__number=2, table__number=2)
    by_seat = {r.position: r for r in rows.select_related("registration")}
    assert [by_seat[s].registration.key for s in range(4)] == ["p3", "p7", "s1", "p8"]
    assert [by_seat[s].table_points for s in range(4)] == [1, 2, 0, 4]
    assert [by_seat[s].game_score + by_seat[s].transfers for s in range(4)] == [-57, 25, -25, 57]
    # the referee accepted West's sheet of session 2 as it was
    result = TableResult.objects.get(
        table__session__tournament=tournament, table__session__number=2, table__number=1
    )
    assert result.imbalance_reason.startswith("The sheet already deducts")
    assert finals(tournament, 2, 1) == [40, 10 - 15, -20, -40]  # Björn's referee decision: −15


def test_riichi_sessions_give_the_worked_examples_of_the_rules():
    tournament = archive_import(document=fixture_path("ema-riichi-2016"))
    # 42300/31700/25000/21000 → +27300/+6700/−10000/−24000; Piotr (West) also lost 5000 by a referee decision
    assert finals(tournament, 1, 1 + 1) == [27300, 6700, -10000 - 5000, -24000]
    # 35000/35000/28000/22000 → +15000/+15000/−7000/−23000, and −27000 with a chombo for the third
    assert finals(tournament, 2, 1) == [15000, 15000, -27000, -23000]
    # 39000/30000/30000/20000: the leftover stick goes to first place → +25000/0/0/−25000
    assert finals(tournament, 3, 1) == [25000, 0, 0, -25000]
    # the hand-by-hand chombo of session 1 is in the standings' penalties
    document = standings(tournament)
    assert row(document, "p2")["penalties"] == -20000
    assert document["standings"][-1]["player"] == "p5"  # disqualified from the tournament
    assert Hand.objects.filter(result__table__session__tournament=tournament).count() == 12


@pytest.mark.parametrize("ruleset", ["salamanca", "classical"])
def test_rulesets_without_table_points_rank_by_score(ruleset):
    tournament = archive_import(document=fixture_path(ruleset))
    document = standings(tournament)
    eligible = [r for r in document["standings"] if not r["disqualified"]]
    assert all(r["table_points"] is None for r in document["standings"])
    assert [r["score"] for r in eligible] == sorted((r["score"] for r in eligible), reverse=True)
    assert sum(1 for r in document["standings"] if r["disqualified"]) == 1


def test_played_sessions_are_finished_and_results_confirmed():
    tournament = archive_import(document=fixture_path("mcr"))
    statuses = dict(Session.objects.filter(tournament=tournament).values_list("number", "status"))
    # session 4 has its tables and no result: its seating is shown, so it is seated (the next step: play it)
    assert statuses == {1: "finished", 2: "finished", 3: "finished", 4: "seated"}
    assert tournament.status == Tournament.Status.RUNNING
    results = TableResult.objects.filter(table__session__tournament=tournament)
    assert results.count() == 6  # the two tables of session 4 have no result yet
    assert set(results.values_list("status", flat=True)) == {"confirmed"}
    finished = load("mcr")
    del finished["sessions"][3]
    finished["tournament"]["slug"] = "finished-open"
    assert archive_import(document=finished).status == Tournament.Status.FINISHED


def test_the_documented_variants_are_accepted_and_exported_in_the_canonical_form():
    canonical = load("mcr")
    variant = copy.deepcopy(canonical)
    del variant["tournament"]["days"]  # 1 by default …
    canonical["tournament"]["days"] = 1
    unplayed = variant["sessions"][3]["tables"]
    del unplayed[0]["hands"], unplayed[0]["scores"]  # a table with neither is not played yet
    unplayed[1]["hands"] = None
    totals = variant["sessions"][0]["tables"][1]
    del totals["hands"]  # a totals table without hands
    del variant["sessions"][0]["tables"][0]["scores"]  # a hands table without scores
    false_hu = variant["penalties"][1]
    del false_hu["table"]  # the table follows from the seat
    variant["players"][3]["ema_id"] = ""
    del variant["players"][6]["club"], variant["players"][6]["substitute"]
    canonical["players"][6]["club"] = ""
    tournament = archive_import(document=json.dumps(variant))
    assert archive_export(tournament=tournament) == canonical


def test_players_with_a_known_ema_number_are_reused():
    from tournaments.models import Player
    from tournaments.services import player_create

    ana = player_create(first_name="Ana", last_name="García", ema_id="10990043", country="ESP")
    before = Player.objects.count()
    tournament = archive_import(document=fixture_path("mcr"))
    assert tournament.registrations.get(key="p1").player == ana
    assert Player.objects.count() == before + len(load("mcr")["players"]) - 1


def test_exact_fractions_stay_exact_through_the_summaries():
    # Salamanca art. 36: a liability shared in thirds gives points in thirds
    tournament = archive_import(document=fixture_path("salamanca"))
    scores = [
        r.game_score
        for r in SeatSummary.objects.filter(tournament=tournament, session__number=1, table__number=1)
    ]
    assert sum(scores) == 0
    assert any(isinstance(s, Fraction) and s.denominator == 3 for s in scores)


SUMMARY_FIELDS = (
    "table_id",
    "position",
    "registration_id",
    "game_score",
    "table_points",
    "uma",
    "transfers",
    "chombo",
    "penalties",
    "final",
    "excluded",
    "result_version",
)


@pytest.mark.parametrize("ruleset", RULESETS)
def test_imported_summary_rows_are_those_live_confirmation_writes(ruleset):
    """The import writes the summary rows in bulk; confirming the same tables live writes the same rows."""
    from scoring.services import summaries_write

    tournament = archive_import(document=fixture_path(ruleset))
    rows = SeatSummary.objects.filter(tournament=tournament).order_by("table_id", "position")
    imported = list(rows.values_list(*SUMMARY_FIELDS))
    results = TableResult.objects.filter(table__session__tournament=tournament).select_related(
        "table__session__tournament"
    )
    assert len(imported) == 4 * results.count()
    for result in results:
        summaries_write(result=result)
    assert list(rows.values_list(*SUMMARY_FIELDS)) == imported


def test_every_way_of_giving_the_document_imports_the_same_tournament(monkeypatch):
    """A path, a binary file, bytes, text and a parsed object; and a file without the streaming parser."""
    from rankings.archive import source

    document = load("ema-riichi-2025")
    path = fixture_path("ema-riichi-2025")
    given = [path, path.read_bytes(), path.read_text(encoding="utf-8"), document]
    for value in given:
        tournament = archive_import(document=value, replace=True)
        assert archive_export(tournament=tournament) == document
    with path.open("rb") as stream:
        assert archive_export(tournament=archive_import(document=stream, replace=True)) == document
    monkeypatch.setattr(source, "ijson", None)  # parsed whole instead of streamed
    assert archive_export(tournament=archive_import(document=path, replace=True)) == document


def test_the_product_s_own_fields_travel_with_the_archive():
    """Start times, withdrawals, a private tournament and its language are kept (written only when set)."""
    document = load("mcr")
    document["tournament"]["is_public"] = False
    document["tournament"]["language"] = "eu"  # the venue screen and the printouts in Basque
    document["sessions"][0]["starts_at"] = "2026-05-01T09:30:00+02:00"  # Madrid local time in May
    document["players"][3]["withdrawn_from"] = 4
    tournament = archive_import(document=document)
    assert tournament.is_public is False and tournament.qualifies_for_championship is True
    assert tournament.language == "eu"
    assert tournament.registrations.get(key="p4").withdrawn_from == 4
    assert archive_export(tournament=tournament) == document


def test_a_player_absent_from_one_session_and_the_substitute_who_counts_travel_with_the_archive():
    """``sessions[].absent`` (check-in: absent from that session only, a substitute plays it) and the
    substitute's answer (``ema_submission.substitute_answers``) come back as they were, and the standings
    of the imported tournament follow them: the absent player ranked with what he played; the substitute
    who answered yes but stood in for session 1 only, the player coming back, is not ranked (ERGMT §3.9
    asks a substitute who replaces a player from the beginning)."""
    document = load("mcr")
    first = document["sessions"][0]
    first["tables"][1]["seats"] = ["p5", "p6", "p7", "s1"]  # s1 plays session 1 for p8
    first["absent"] = ["p8"]
    document["ema_submission"] = {"substitute_answers": {"s1": True, "s2": False}}
    tournament = archive_import(document=document)
    assert Session.objects.get(tournament=tournament, number=1).absent == ["p8"]
    assert tournament.registrations.get(key="p8").withdrawn_from is None
    assert archive_export(tournament=tournament) == document
    standings = standings_view(tournament=tournament)
    ranked = {r.player: r for r in standings.rows}
    assert ranked["p8"].sessions == ranked["p1"].sessions - 1  # ranked with the sessions he played
    assert "s1" not in ranked and "s2" not in ranked


@pytest.mark.parametrize(
    ("absent", "fault"),
    [
        (["p1"], "sessions[0].absent[0]: p1 is absent from session 1 but seated in it"),
        (["s2"], "sessions[0].absent[0]: s2 is a substitute"),
        (["zz"], "sessions[0].absent[0]"),
        ("p8", "sessions[0].absent: absent must be a list"),
    ],
)
def test_an_absent_list_that_contradicts_the_seating_is_refused(absent, fault):
    document = load("mcr")
    document["sessions"][0]["tables"][1]["seats"] = ["p5", "p6", "p7", "s1"]
    document["sessions"][0]["absent"] = absent
    with pytest.raises(RuleError) as refused:
        archive_import(document=document)
    assert str(refused.value).startswith(fault) or fault in f"{refused.value.path}: {refused.value}"
    assert not Tournament.objects.filter(slug=document["tournament"]["slug"]).exists()
