"""The exporter registry and its exporters: what a director sends to the EMA and keeps for the records."""

from __future__ import annotations

import csv
import io
import json

import pytest
from openpyxl import load_workbook

from penalties.services import penalty_record
from rankings.exports import UnknownExporter, exporter_get, exporter_list
from rankings.exports import tournament as tournament_exporters
from rankings.exports.base import render_csv, render_xlsx
from scoring.rules.base import RuleError
from scoring.services import hand_add, result_confirm
from tests.exports.helpers import play_totals
from tournaments.models import Player, Registration
from tournaments.permissions import Actor
from tournaments.services import session_seat

pytestmark = pytest.mark.django_db


def read_csv(data: bytes) -> list[list[str]]:
    assert data.startswith(b"\xef\xbb\xbf"), "CSV files start with the UTF-8 byte order mark"
    return list(csv.reader(io.StringIO(data.decode("utf-8-sig"))))


def read_xlsx(data: bytes):
    return load_workbook(io.BytesIO(data)).active


@pytest.fixture
def mcr(make_tournament, director):
    """An MCR tournament of 8 players, one session played: shared table points make ties.

    Table 1: +60 +60 −20 −100 → 3, 3, 1, 0 table points. Table 2: +40 +40 +40 −120 → 7/3 each and 0.
    """
    tournament = make_tournament("mcr-open", "mcr", director=director, sessions=1, players=8)
    Player.objects.filter(registrations__tournament=tournament, first_name="Player1").update(
        ema_id="04010001", first_name="Ána"
    )
    Player.objects.filter(registrations__tournament=tournament, first_name="Player5").update(
        ema_id="10990043"
    )
    play_totals(
        tournament,
        1,
        [(["p1", "p2", "p3", "p4"], [60, 60, -20, -100]), (["p5", "p6", "p7", "p8"], [40, 40, 40, -120])],
        director,
    )
    return tournament


def test_the_registry_lists_every_exporter_and_names_them_on_a_wrong_identifier(mcr):
    identifiers = [e.identifier for e in exporter_list()]
    for expected in ("ema-results", "standings", "seating", "penalties", "chombos", "archive", "ema-ranking"):
        assert expected in identifiers
    # an MCR tournament has no chombo list; the EMA ranking is not bound to a tournament
    assert "chombos" not in [e.identifier for e in exporter_list(tournament=mcr)]
    assert "ema-ranking" not in [e.identifier for e in exporter_list(tournament=mcr)]
    with pytest.raises(UnknownExporter) as exc:
        exporter_get("results")
    assert "ema-results" in exc.value.message and "standings" in exc.value.message


def test_csv_has_a_bom_and_text_that_looks_like_a_formula_is_defused():
    data = render_csv(
        [
            ["Name", "Score"],
            ['=HYPERLINK("x")', -10],
            ["+34 600", 2.5],
            ["@SUM(A1)", 0],
            ["-x", 7],
            ["Ñoño", 1],
        ]
    )
    rows = read_csv(data)
    assert rows[1] == ['\'=HYPERLINK("x")', "-10"]  # negative numbers stay numbers
    assert rows[2] == ["'+34 600", "2.5"]
    assert rows[3][0] == "'@SUM(A1)"
    assert rows[4][0] == "'-x"
    assert rows[5][0] == "Ñoño"


def test_xlsx_never_makes_a_formula_of_text():
    sheet = read_xlsx(render_xlsx([["Name"], ["=1+1"]]))
    assert sheet["A2"].value == "=1+1"
    assert sheet["A2"].data_type == "s"


def test_ema_results_file_csv(mcr):
    rows = read_csv(exporter_get("ema-results")(tournament=mcr).render("csv").data)
    assert rows[0] == [
        "Place",
        "First name",
        "Last name",
        "EMA number",
        "Table points",
        "Score",
        "EMA member",
        "Country",
    ]
    body = rows[1:]
    assert len(body) == 8  # every player, with or without an EMA number
    by_name = {r[1]: r for r in body}
    # p1 and p2 tie on 3 table points and +60: both first; p5, p6, p7 tie on 7/3 and +40: all third
    assert by_name["Ána"][:4] == ["1", "Ána", "mcr-open", "04010001"]
    assert by_name["Player2"][0] == "1"
    assert [by_name[f"Player{i}"][0] for i in (6, 7)] == ["3", "3"]
    assert by_name["Player5"][3:] == ["10990043", "2.33", "40", "", "FRA"]  # no EMA list: not known
    assert by_name["Player3"][0] == "6"
    assert by_name["Player4"][:1] + by_name["Player4"][4:6] == ["7", "0", "-100"]
    assert by_name["Player8"][0] == "8"
    assert by_name["Player2"][3] == "" and by_name["Player2"][6] == ""  # no EMA number: listed


def test_ema_results_file_says_ema_member_only_from_the_ema_player_list(mcr):
    """No list loaded: the "EMA member" cell is empty for everyone (an EMA number alone does not say it).
    With the list: Yes for a number on it, No for a number not on it and for no number."""
    from tournaments.registrations.ema_list import ema_list_import

    def members() -> dict[str, str]:
        rows = read_csv(exporter_get("ema-results")(tournament=mcr).render("csv").data)
        return {r[1]: r[6] for r in rows[1:]}

    assert set(members().values()) == {""}
    ema_list_import(data=b"ema_id,first_name,last_name,country\n10990043,Player5,mcr-open,FRA\n")
    found = members()
    assert (found["Player5"], found["Player2"]) == ("Yes", "No")
    assert found["\u00c1na"] == "No"  # an EMA number the list does not have


def test_ema_results_file_xlsx_keeps_ema_numbers_as_text_and_numbers_as_numbers(mcr):
    export = exporter_get("ema-results")(tournament=mcr).render("xlsx")
    assert export.filename == "mcr-open-ema-results.xlsx"
    sheet = read_xlsx(export.data)
    assert [c.value for c in sheet[1]][:4] == ["Place", "First name", "Last name", "EMA number"]
    assert all(c.font.b for c in sheet[1])
    rows = {r[1].value: r for r in sheet.iter_rows(min_row=2)}
    ana = rows["Ána"]
    assert ana[3].value == "04010001" and ana[3].data_type == "s"  # the leading zero is kept
    assert ana[0].value == 1 and ana[0].data_type == "n"
    assert rows["Player5"][4].value == pytest.approx(2.33) and rows["Player5"][4].data_type == "n"
    assert rows["Player4"][5].value == -100
    assert sheet.column_dimensions["B"].width >= len("First name")


def test_standings_export_has_every_session_of_every_player(mcr, director):
    mcr.sessions.create(number=2)
    play_totals(
        mcr,
        2,
        [(["p1", "p5", "p3", "p7"], [32, -16, -8, -8]), (["p2", "p6", "p4", "p8"], [0, 0, 0, 0])],
        director,
    )
    rows = read_csv(exporter_get("standings")(tournament=mcr).render("csv").data)
    header = rows[0]
    assert header[:8] == [
        "Rank",
        "Name",
        "Key",
        "Table points",
        "Score",
        "Penalties",
        "Sessions",
        "Disqualified",
    ]
    assert header[8:] == [
        "S1 table",
        "S1 wind",
        "S1 game score",
        "S1 table points",
        "S2 table",
        "S2 wind",
        "S2 game score",
        "S2 table points",
    ]
    first = rows[1]
    # p1: 3 + 4 table points, 60 + 32 points; session 1 East at table 1, session 2 East at table 1
    assert first[:7] == ["1", "Ána mcr-open", "p1", "7", "92", "0", "2"]
    assert first[8:] == ["1", "E", "60", "3", "1", "E", "32", "4"]
    # four players of a 0-0-0-0 table share 1.75 table points
    p6 = next(r for r in rows if r[2] == "p6")
    assert p6[-4:] == ["2", "S", "0", "1.75"]


def test_seating_export(mcr):
    rows = read_csv(exporter_get("seating")(tournament=mcr).render("csv").data)
    assert rows[0] == ["Session", "Table", "East", "South", "West", "North"]
    assert rows[1] == ["1", "1", "Ána mcr-open", "Player2 mcr-open", "Player3 mcr-open", "Player4 mcr-open"]
    assert rows[2][:3] == ["1", "2", "Player5 mcr-open"]


def test_penalties_export_lists_cancelled_penalties_with_who_and_why(mcr, director):
    from penalties.services import penalty_cancel

    actor = Actor(user=director, role="director")
    regs = {r.key: r for r in Registration.objects.filter(tournament=mcr)}
    session = mcr.sessions.get(number=1)
    late = penalty_record(
        tournament=mcr,
        registration=regs["p3"],
        kind="late_arrival",
        minutes_late=7,
        session=session,
        actor=actor,
    )
    penalty_record(
        tournament=mcr,
        registration=regs["p4"],
        kind="referee",
        points=-15,
        reason="=deliberate slow play",
        session=session,
        actor=actor,
    )
    penalty_cancel(penalty=late, actor=actor, reason="the clock was wrong")
    sheet = read_xlsx(exporter_get("penalties")(tournament=mcr).render("xlsx").data)
    header = [c.value for c in sheet[1]]
    rows = [dict(zip(header, (c.value for c in row), strict=True)) for row in sheet.iter_rows(min_row=2)]
    assert [r["Order"] for r in rows] == [1, 2]
    assert rows[0]["Kind"] == "Late arrival" and rows[0]["Amount"] == -10  # MERS 2.2: under 10 minutes
    assert rows[0]["Details"] == "7 minutes late"
    assert rows[0]["Cancel reason"] == "the clock was wrong" and rows[0]["Cancelled by"] == "director"
    assert rows[0]["Cancelled at"]
    assert rows[1]["Amount"] == -15 and rows[1]["Reason"] == "=deliberate slow play"
    assert rows[1]["Recorded by"] == "director" and rows[1]["Cancelled at"] is None


def test_chombo_list_of_a_riichi_tournament(make_tournament, director):
    tournament = make_tournament("riichi-open", "ema-riichi-2016", director=director, sessions=1, players=8)
    regs = {r.key: r for r in Registration.objects.filter(tournament=tournament)}
    session = tournament.sessions.get(number=1)
    by_hands, _by_totals = session_seat(
        session=session, tables=[[regs[f"p{i}"] for i in range(1, 5)], [regs[f"p{i}"] for i in range(5, 9)]]
    )
    actor = Actor(user=director, role="director")
    hand_add(table=by_hands, hand={"result": "chombo", "player": 1}, actor=actor, expected_version=None)
    play = {"result": "tsumo", "winner": 0, "han": 1, "fu": 30, "riichi": []}
    hand_add(table=by_hands, hand=play, actor=actor, expected_version=None)
    result_confirm(table=by_hands, actor=actor, expected_version=None)
    penalty_record(
        tournament=tournament, registration=regs["p7"], kind="chombo", session=session, actor=actor
    )
    rows = read_csv(exporter_get("chombos")(tournament=tournament).render("csv").data)
    assert rows[0] == ["Session", "Table", "Hand", "Player", "Key", "Recorded as", "Amount"]
    # EMA 2016: a chombo costs 20000 points from the final score
    assert rows[1] == ["1", "1", "1", "Player2 riichi-open", "p2", "hand", "-20000"]
    assert rows[2] == ["1", "2", "", "Player7 riichi-open", "p7", "penalty", "-20000"]
    assert len(rows) == 3


def test_the_chombo_list_is_refused_for_mcr(mcr):
    with pytest.raises(RuleError):
        exporter_get("chombos")(tournament=mcr).render("csv")


def test_a_json_only_exporter_refuses_csv_and_writes_the_document(mcr, monkeypatch):
    monkeypatch.setattr(
        tournament_exporters,
        "archive_export",
        lambda *, tournament: {"format": "mahjong-tournament-archive", "slug": tournament.slug},
    )
    archive = exporter_get("archive")
    assert archive.formats == ("json",)
    with pytest.raises(RuleError):
        archive(tournament=mcr).render("csv")
    export = archive(tournament=mcr).render("json")
    assert export.filename == "mcr-open-archive.json"
    assert json.loads(export.data) == {"format": "mahjong-tournament-archive", "slug": "mcr-open"}


def test_the_archive_export_is_the_archive_document(mcr):
    document = json.loads(exporter_get("archive")(tournament=mcr).render("json").data)
    assert document["format"] == "mahjong-tournament-archive"
    assert document["tournament"]["slug"] == "mcr-open"
    assert {p["key"] for p in document["players"]} == {f"p{i}" for i in range(1, 9)}


def test_exporters_report_their_progress_up_to_100(mcr):
    seen: list[int] = []
    exporter_get("standings")(tournament=mcr, progress=seen.append).render("xlsx")
    assert seen[0] == 0 and seen[-1] == 100
    assert seen == sorted(set(seen))  # never backwards, never twice the same


def test_the_spanish_standings_export_names_the_winds_in_spanish(mcr):
    """Headers follow the language: so do the seat winds (West is O, Oeste, in Spanish)."""
    from django.utils import translation

    with translation.override("es"):
        rows = read_csv(exporter_get("standings")(tournament=mcr).render("csv").data)
    p3 = next(r for r in rows if r[2] == "p3")
    assert rows[0][9] == "S1 viento"
    assert p3[9] == "O"
    english = read_csv(exporter_get("standings")(tournament=mcr).render("csv").data)
    assert next(r for r in english if r[2] == "p3")[9] == "W"
