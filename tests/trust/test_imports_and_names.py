"""Director CSV imports, names and exports: every cell bounded and checked, names without hidden marks,
no spreadsheet formula in any export.

Each test reproduces a finding of the hostile probe: EMA numbers in other scripts' digits, NUL bytes and
fields over 131,072 characters were a 500 (player import, page and API), a blank first line or non-ASCII
digits in the EMA player list were a 500, the API answered a non-ASCII EMA number with a 409 "conflicts
with data already stored", right-to-left overrides and control characters were stored as given.
"""

from __future__ import annotations

import csv
import io

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from openpyxl import load_workbook

from rankings.exports.base import CSV, FORMULA_STARTS, XLSX
from rankings.exports.registry import exporter_list
from tournaments import player_import
from tournaments.models import EMAPlayer, Player, Registration, Team, Tournament

pytestmark = pytest.mark.django_db

ARABIC_INDIC = "\u0660\u0664\u0660\u0661\u0660\u0660\u0660\u0661"  # ٠٤٠١٠٠٠١: 04010001 in Arabic-Indic digits
RLO = "\u202e"


def import_via_api(client, tournament, data: bytes):
    upload = SimpleUploadedFile("players.csv", data)
    return client.post(
        f"/api/tournaments/{tournament.slug}/import-players/", {"file": upload}, format="multipart"
    )


def import_via_page(client, tournament, data: bytes):
    upload = SimpleUploadedFile("players.csv", data)
    return client.post(reverse("director-players", args=[tournament.slug]), {"file": upload})


@pytest.fixture
def director_client(client, director):
    client.force_login(director)
    return client


@pytest.mark.parametrize(
    "data, fault",
    [
        (
            f"first_name,ema_id\nAna,{ARABIC_INDIC}\n".encode(),
            f"line 2, ema_id: “{ARABIC_INDIC}” is not an EMA number of exactly 8 digits 0-9",
        ),
        (
            b"first_name,last_name\nAna,Ga\x00rcia\n",
            "line 2, last_name: U+0000 NULL at character 3; control and text-direction characters are not "
            "allowed",
        ),
        (
            f"first_name,club\nAna,{RLO}evil\n".encode(),
            "line 2, club: U+202E RIGHT-TO-LEFT OVERRIDE at character 1",
        ),
        (
            b"first_name,last_name\nAna," + b"x" * 140_000 + b"\n",
            "line 2: the line cannot be read as CSV (field larger than field limit (131072))",
        ),
    ],
    ids=["arabic-indic-digits", "nul", "right-to-left-override", "field-over-131072"],
)
def test_a_faulty_cell_is_a_400_naming_line_and_column_on_the_api_and_the_page(
    api_as, director, director_client, tournament, data, fault
):
    before = Registration.objects.filter(tournament=tournament).count()
    response = import_via_api(api_as(director), tournament, data)
    assert response.status_code == 400, response.content[:300]
    assert any(f.startswith(fault) for f in response.json()["file"]), response.json()
    page = import_via_page(director_client, tournament, data)
    assert page.status_code == 200 and fault.split(":")[0] in page.content.decode()
    assert Registration.objects.filter(tournament=tournament).count() == before


def test_a_file_over_the_row_limit_is_refused_by_the_rule(api_as, director, tournament, monkeypatch):
    monkeypatch.setattr(player_import, "MAX_ROWS", 5)
    data = "first_name\n" + "".join(f"P{i}\n" for i in range(6))
    response = import_via_api(api_as(director), tournament, data.encode())
    assert response.status_code == 400
    assert response.json()["file"] == ["line 7: the file has more than 5 players (the limit); split it"]


def test_a_file_over_the_size_limit_is_refused_before_it_is_read(api_as, director, tournament):
    data = b"first_name\n" + b"Ana\n" * (player_import.MAX_BYTES // 4 + 1)
    response = import_via_api(api_as(director), tournament, data)
    assert response.status_code == 400
    assert response.json()["file"] == [
        f"The file is larger than {player_import.MAX_BYTES:,} bytes (the limit)."
    ]


def test_the_api_answers_a_non_ascii_ema_number_with_a_400_naming_it_not_a_409(api_as, director, tournament):
    response = api_as(director).post(
        "/api/players/", {"first_name": "Ana", "ema_id": ARABIC_INDIC}, format="json"
    )
    assert response.status_code == 400
    assert "ema_id" in response.json()
    assert not Player.objects.filter(first_name="Ana").exists()


def ema_list(client, data: bytes):
    return client.post(reverse("console-ema-list"), {"file": SimpleUploadedFile("ema.csv", data)})


def test_the_ema_list_with_a_blank_first_line_is_read_from_its_first_line_of_text(
    director_client, tournament
):
    response = ema_list(director_client, b"\n\nema_id,first_name,last_name\n04010001,Ana,Garcia\n")
    assert response.status_code == 302
    assert EMAPlayer.objects.get().full_name == "Ana Garcia"


@pytest.mark.parametrize(
    "data, fault",
    [
        (f"{ARABIC_INDIC},Ana,Garcia\n".encode(), f"Line 1: {ARABIC_INDIC} is not an 8-digit EMA number."),
        (
            b"ema_id,first_name\n04010001,An\x00a\n",
            "Line 2, first_name: U+0000 NULL at character 3",
        ),
        (
            ("ema_id,first_name\n04010001," + "x" * 200 + "\n").encode(),
            "Line 2, first_name: longer than 100 characters.",
        ),
        (b"ema_id,first_name\n04010001," + b"x" * 140_000 + b"\n", "The file cannot be read as CSV"),
    ],
    ids=["arabic-indic-digits", "nul", "long-name", "field-over-131072"],
)
def test_a_faulty_ema_list_is_a_400_naming_the_line(director_client, tournament, data, fault):
    response = ema_list(director_client, data)
    assert response.status_code == 400
    assert fault in response.content.decode()
    assert not EMAPlayer.objects.exists()


# -- names ----------------------------------------------------------------------------------------------


def test_direction_and_control_characters_are_taken_out_of_names_on_every_write(api_as, director, tournament):
    client = api_as(director)
    player = client.post(
        "/api/players/",
        {"first_name": f"{RLO}Ana\u2066", "last_name": "Gar\u200fcia", "club": "Club\u061c"},
        format="json",
    )
    assert player.status_code == 201, player.content
    stored = Player.objects.get(pk=player.json()["id"])
    assert (stored.first_name, stored.last_name, stored.club) == ("Ana", "Garcia", "Club")
    registration = Registration.objects.filter(tournament=tournament).first()
    changed = client.patch(
        f"/api/registrations/{registration.pk}/", {"nickname": f"{RLO}Nick\x07"}, format="json"
    )
    assert changed.status_code == 200, changed.content
    registration.refresh_from_db()
    assert registration.nickname == "Nick"
    renamed = client.patch(f"/api/tournaments/{tournament.slug}/", {"name": f"Open{RLO} 2026"}, format="json")
    assert renamed.status_code == 200, renamed.content
    assert Tournament.objects.get(pk=tournament.pk).name == "Open 2026"
    team = Team(tournament=tournament, name=f"{RLO}Sur\u202c")
    team.save()
    assert Team.objects.get(pk=team.pk).name == "Sur"


# -- exports --------------------------------------------------------------------------------------------


def test_no_export_carries_a_formula_in_csv_or_xlsx(make_tournament, director):
    tournament = make_tournament("formulas", director=director, players=4)
    player = Registration.objects.filter(tournament=tournament).first().player
    player.first_name, player.last_name, player.club = '=HYPERLINK("http://x.example","y")', "+1", "@SUM(A1)"
    player.save()
    checked = 0
    for exporter in exporter_list(tournament=tournament):
        for fmt in set(exporter.formats) & {CSV, XLSX}:
            data = exporter(tournament=tournament).render(fmt).data
            if fmt == CSV:
                cells = [c for row in csv.reader(io.StringIO(data.decode("utf-8-sig"))) for c in row]
                formulas = [c for c in cells if c.startswith(FORMULA_STARTS) and not _number(c)]
                assert formulas == [], (exporter.identifier, formulas)
                assert any(c.startswith("'=HYPERLINK") for c in cells) or "HYPERLINK" not in data.decode()
            else:
                sheet = load_workbook(io.BytesIO(data)).active
                for row in sheet.iter_rows():
                    for cell in row:
                        if isinstance(cell.value, str) and cell.value.startswith(FORMULA_STARTS):
                            assert cell.data_type == "s" and cell.quotePrefix, (
                                exporter.identifier,
                                cell.value,
                            )
            checked += 1
    assert checked >= 4


def _number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True
