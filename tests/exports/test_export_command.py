"""`manage.py export`: any exporter from the command line."""

from __future__ import annotations

import csv
import datetime as dt
import io
import json

import pytest
from django.core.management import CommandError, call_command
from openpyxl import load_workbook

from rankings.ema.services import ema_ranking_recompute
from tests.exports.helpers import ema_player, place_player, play_totals
from tournaments.models import Player

pytestmark = pytest.mark.django_db


@pytest.fixture
def played(tournament, director):
    Player.objects.filter(registrations__tournament=tournament, first_name="Player3").update(
        ema_id="01234567"
    )
    play_totals(
        tournament,
        1,
        [(["p1", "p2", "p3", "p4"], [8, 8, 8, -24]), (["p5", "p6", "p7", "p8"], [54, -18, -18, -18])],
        director,
    )
    return tournament


def run(*args) -> tuple[str, str]:
    out, err = io.StringIO(), io.StringIO()
    call_command("export", *args, stdout=out, stderr=err)
    return out.getvalue(), err.getvalue()


def test_csv_goes_to_standard_output_with_its_bom(played):
    out, _ = run("open-2026", "ema-results", "--format", "csv")
    assert out.startswith("\ufeffPlace,First name,Last name,EMA number")
    rows = list(csv.reader(io.StringIO(out.lstrip("\ufeff"))))
    # a 10 fan self-drawn win: +54 and 4 table points; three players on +8 share 7/3 each
    assert rows[1][:2] == ["1", "Player5"]
    assert [r[0] for r in rows[2:5]] == ["2", "2", "2"]
    assert ["2", "Player3", "open-2026", "01234567", "2.33", "8", "", "DEU"] in rows  # no EMA list loaded


def test_xlsx_needs_an_output_file_and_writes_it(played, tmp_path):
    with pytest.raises(CommandError, match="--output"):
        run("open-2026", "standings", "--format", "xlsx")
    target = tmp_path / "standings.xlsx"
    _, err = run("open-2026", "standings", "--format", "xlsx", "--output", str(target))
    assert "Wrote the XLSX file" in err
    sheet = load_workbook(target).active
    assert [c.value for c in sheet[2]][:5] == [1, "Player5 open-2026", "p5", 4, 54]


def test_an_unknown_exporter_names_the_exporters_that_exist(played):
    with pytest.raises(CommandError) as exc:
        run("open-2026", "results")
    message = str(exc.value)
    assert "unknown exporter 'results'" in message
    for identifier in ("ema-results", "standings", "seating", "penalties", "chombos", "archive"):
        assert identifier in message
    with pytest.raises(CommandError, match="no tournament with slug 'nowhere'"):
        run("nowhere", "standings")
    with pytest.raises(CommandError, match="does not apply"):
        run("open-2026", "chombos")  # an MCR tournament


def test_the_archive_writes_json_only(played, tmp_path):
    with pytest.raises(CommandError, match="json"):
        run("open-2026", "archive", "--format", "csv")
    target = tmp_path / "archive.json"
    run("open-2026", "archive", "--output", str(target))
    assert json.loads(target.read_text(encoding="utf-8"))["tournament"]["slug"] == "open-2026"


def test_the_ema_ranking_is_exported_without_a_tournament(make_tournament, tmp_path):
    gil = ema_player("Gil", "00777777")
    place_player(make_tournament, "win", gil, place=1, players=4, ends_on=dt.date(2026, 5, 1))
    place_player(make_tournament, "last", gil, place=4, players=4, ends_on=dt.date(2026, 5, 1))
    ema_ranking_recompute(on=dt.date(2026, 6, 1), refresh_all=True)
    out, _ = run("--ranking", "mcr", "ema-ranking", "--format", "csv")
    rows = list(csv.reader(io.StringIO(out.lstrip("\ufeff"))))
    assert rows[0] == [
        "Position",
        "Change",
        "First name",
        "Last name",
        "EMA number",
        "Country",
        "Ranking",
        "Part A",
        "Part B",
        "Results",
    ]
    assert rows[1] == ["1", "new", "Gil", "Ranked", "00777777", "ESP", "225", "200", "250", "2"]
    assert len(rows) == 2
    # as of a later date, computed on the spot: 16 months later the win counts half
    target = tmp_path / "ranking.xlsx"
    run("--ranking", "mcr", "ema-ranking", "--on", "2027-09-01", "--format", "xlsx", "-o", str(target))
    sheet = load_workbook(target).active
    assert sheet["E2"].value == "00777777" and sheet["E2"].data_type == "s"
    assert sheet["G2"].value == pytest.approx(145.83)  # (500 / 4 + 500 / 3) / 2
    riichi, _ = run("--ranking", "riichi", "ema-ranking")
    assert len(list(csv.reader(io.StringIO(riichi.lstrip("\ufeff"))))) == 1  # the header only
    with pytest.raises(CommandError, match="--ranking"):
        run("open-2026", "ema-ranking")
