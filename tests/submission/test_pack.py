"""The EMA submission pack: made as an export job, opened and read back file by file, and marked out of
date when anything in it changes."""

from __future__ import annotations

import io
import json
import zipfile
from hashlib import sha256

import openpyxl
import pytest
from pypdf import PdfReader

from penalties.models import Kind
from penalties.services import penalty_record
from rankings.exports.jobs import export_job_create
from rankings.submission import engine, pack, selectors
from rankings.submission import services as submission
from rankings.submission.report import report_of, report_pdf
from tests.submission.builders import failing_tournament, passing_tournament
from tournaments.permissions import Actor

pytestmark = pytest.mark.django_db


@pytest.fixture
def media(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"
    return settings.MEDIA_ROOT


@pytest.fixture
def make_pack(django_capture_on_commit_callbacks):
    def make(tournament, user):
        with django_capture_on_commit_callbacks(execute=True):
            job = export_job_create(tournament=tournament, exporter="ema-pack", user=user)
        job.refresh_from_db()
        return job, _opened(job)

    return make


def _opened(job):
    assert job.status == "done", job.error
    assert (job.format, job.progress) == ("zip", 100)
    with job.file.open("rb") as handle:
        return zipfile.ZipFile(io.BytesIO(handle.read()))


def pdf_text(data: bytes) -> str:
    return "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(data)).pages)


def test_the_pack_holds_every_file_the_ema_asks_for(director, make_user, media, make_pack):
    tournament = passing_tournament(director, make_user("rita"))
    job, archive = make_pack(tournament, director)
    assert job.filename == "passes-ema-pack.zip"
    names = archive.namelist()
    assert names == [
        "manifest.json",
        "results.csv",
        "results.xlsx",
        "checks.csv",
        "observer-report.pdf",
        "penalties.csv",
    ]
    manifest = json.loads(archive.read("manifest.json"))
    assert manifest["tournament"]["name"] == "Open de Ødegaard"
    assert manifest["checks"] == dict.fromkeys(engine.ORDER, "ok")
    assert manifest["stamp"] == selectors.stamp(tournament=tournament)
    for entry in manifest["files"]:
        data = archive.read(entry["name"])
        assert (len(data), sha256(data).hexdigest()) == (entry["bytes"], entry["sha256"])

    rows = pack.csv_rows(archive.read("results.csv"))
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
    assert len(rows) == 17  # the 16 players; the substitute who never played is not a line
    ana = next(r for r in rows if r[1] == "Ana")
    assert (ana[2], ana[3], ana[6], ana[7]) == ("Martín Ñúñez", "04000001", "Yes", "FRA")

    sheet = openpyxl.load_workbook(io.BytesIO(archive.read("results.xlsx"))).active
    values = [[c.value for c in row] for row in sheet.iter_rows()]
    assert values[0][:4] == ["Place", "First name", "Last name", "EMA number"]
    xlsx_ana = next(r for r in values if r[1] == "Ana")
    assert xlsx_ana[3] == "04000001"  # the EMA number stays text, leading zero kept
    assert len(values) == 17

    checks = pack.csv_rows(archive.read("checks.csv"))
    assert checks[0] == ["Check", "Article", "Outcome", "Messages"]
    assert checks[1] == ["Sessions and their length", "ERGMT §3.6", "ok", ""]
    assert ["An EMA observer named", "ERGMT §3.11", "ok", "Observer: Jan Novák."] in checks

    penalties = pack.csv_rows(archive.read("penalties.csv"))
    assert penalties[0][:3] == ["Order", "Session", "Table"] and len(penalties) == 1

    text = pdf_text(archive.read("observer-report.pdf"))
    for expected in (
        "EMA observer's report",
        "Jan Novák",
        "Open de Ødegaard",
        "Valencia, Spain",
        "MCR (MERS); 1 = 1 (days) + 0 (players) + 0 (countries) + 0 (qualifier)",
        "4 sessions",
        "Session 2:",
        "120 minutes",
        "16 players from 4 countries: DEU, ESP, FRA, NLD",
        "Rita Referee: non-playing",
        "Trophies for the three best players",
        "A countdown clock ran in every session\nyes",
        "Results were published before each next session\nyes",
        "None recorded.",
        "A well run tournament.",
    ):
        assert expected in text, expected


def test_the_report_lists_the_irregularities_and_says_what_went_wrong(director, media, make_pack):
    tournament = failing_tournament(director)
    report = report_of(tournament=tournament)
    assert report.clock_ran is False and report.results_published is False
    assert [
        (i.session, i.table, i.player, i.kind, i.reason, i.appeal, i.decision) for i in report.irregularities
    ] == [
        (
            "2",
            "1",
            "Marta Garcia",
            "Referee decision",
            "Showed tiles to a neighbour",
            "The tiles fell",
            "Penalty stands",
        )
    ]
    text = pdf_text(report_pdf(report))
    assert "A countdown clock ran in every session\nno" in text
    assert (
        "#1 session 2 table 1, Marta Garcia: Referee decision. Showed tiles to a neighbour. Appeal: The tiles fell."
        in text
    )
    assert "Decision: Penalty stands" in text
    _, archive = make_pack(tournament, director)
    checks = pack.csv_rows(archive.read("checks.csv"))
    assert ["Every table confirmed", "ERGMT §3.13", "fail", "Session 1, table 2 is not confirmed."] in checks
    penalties = pack.csv_rows(archive.read("penalties.csv"))
    assert [row[4] for row in penalties[1:]] == ["Marta Garcia"]
    assert penalties[1][10] == "Showed tiles to a neighbour"


def test_a_pack_is_out_of_date_once_anything_in_it_changes(director, make_user, media, make_pack):
    tournament = passing_tournament(director, make_user("rita"))
    assert pack.pack_state(tournament=tournament).job is None
    job, _ = make_pack(tournament, director)
    state = pack.pack_state(tournament=tournament)
    assert (state.job.pk, state.current, state.stale) == (job.pk, True, False)

    submission.submission_update(tournament=tournament, changes={"conclusion": "Changed my mind."})
    assert pack.pack_state(tournament=tournament).stale

    make_pack(tournament, director)
    assert pack.pack_state(tournament=tournament).current
    registration = tournament.registrations.get(key="p3")
    # a penalty after the end: the director reopens the tournament and its last session first
    from tournaments import lifecycle
    from tournaments.models import Session
    from tournaments.organising.services import tournament_reopen

    tournament_reopen(tournament=tournament, reason="a late penalty", user=director)
    lifecycle.session_move(
        session=tournament.sessions.get(number=4), to=Session.Status.PLAYING, reason="a late penalty"
    )
    penalty_record(
        tournament=tournament,
        registration=registration,
        kind=Kind.REFEREE,
        actor=Actor(user=director, role="director"),
        session=tournament.sessions.get(number=4),
        reason="Late return from the break",
        points=-10,
    )
    assert pack.pack_state(tournament=tournament).stale


def test_a_riichi_tournament_balances_on_its_start_points_and_its_pack_lists_the_chombos(
    director, make_tournament, media, make_pack
):
    from rankings.submission import selectors as sel
    from tests.exports.helpers import play_totals
    from tournaments.sessions.services import session_advance

    tournament = make_tournament("riichi-open", "ema-riichi-2025", director=director, players=8, sessions=1)
    start = tournament.get_rules().config.start_points
    scores = (start + 20000, start + 5000, start - 10000, start - 15000)
    play_totals(
        tournament, 1, [(["p1", "p2", "p3", "p4"], scores), (["p5", "p6", "p7", "p8"], scores)], director
    )
    from tournaments import services as base
    from tournaments.lifecycle import CLOCK_SETTING

    # the director starts clocks by hand, and never does here: no clock ran
    base.tournament_update(tournament=tournament, settings={**tournament.settings, CLOCK_SETTING: False})
    session = tournament.sessions.get(number=1)
    for _ in range(3):
        session = session_advance(session=session)
    checks = {c.key: c for c in sel.checks(tournament=tournament)}
    assert (checks["balance"].status, list(checks["balance"].messages)) == ("ok", [])
    assert (checks["results"].status, checks["clock"].status) == ("ok", "fail")
    _, archive = make_pack(tournament, director)
    assert "chombos.csv" in archive.namelist()
    assert pack.csv_rows(archive.read("chombos.csv"))[0][:3] == ["Session", "Table", "Hand"]


def test_the_command_writes_the_pack_to_a_file(director, make_tournament, tmp_path):
    from django.core.management import CommandError, call_command

    tournament = make_tournament("cmd-open", director=director, players=4, sessions=4)
    target = tmp_path / "pack.zip"
    call_command("export", tournament.slug, "ema-pack", "--output", str(target))
    with zipfile.ZipFile(target) as archive:
        manifest = json.loads(archive.read("manifest.json"))
    assert manifest["tournament"]["slug"] == "cmd-open"
    assert manifest["checks"]["participants"] == "fail" and manifest["checks"]["schedule"] == "ok"
    with pytest.raises(CommandError, match="a ZIP file needs --output FILE"):
        call_command("export", tournament.slug, "ema-pack")


def test_every_export_and_the_pack_say_out_of_date_alike_once_a_penalty_changes_the_results(
    director, make_user, media, make_pack, api_as, client, django_capture_on_commit_callbacks
):
    """One "out of date", from the stamp: the submission page's pack, the export job in the API (one job and
    the list) and the exports page, for the pack and a plain results file alike."""
    from tournaments import lifecycle
    from tournaments.models import Session
    from tournaments.organising.services import tournament_reopen

    tournament = passing_tournament(director, make_user("rita"))
    # reopened for a late penalty; the files are made again while it is open, then the penalty is given
    tournament_reopen(tournament=tournament, reason="a late penalty", user=director)
    lifecycle.session_move(
        session=tournament.sessions.get(number=4), to=Session.Status.PLAYING, reason="a late penalty"
    )
    pack_job, _ = make_pack(tournament, director)
    with django_capture_on_commit_callbacks(execute=True):
        csv_job = export_job_create(tournament=tournament, exporter="ema-results", fmt="csv", user=director)
    api = api_as(director)
    client.force_login(director)
    base = f"/api/tournaments/{tournament.slug}"

    def verdicts() -> dict[str, object]:
        listed = {j["id"]: j["out_of_date"] for j in api.get(f"{base}/exports/").json()}
        page = client.get(f"/t/{tournament.slug}/exports/").content.decode()
        on_page = {
            job.pk: "Out of date" in page.split(f'id="export-job-{job.pk}"')[1].split("</article>")[0]
            for job in (pack_job, csv_job)
        }
        return {
            "pack": pack.pack_state(tournament=tournament).stale,
            "submission": api.get(f"{base}/ema-submission/").json()["pack"]["out_of_date"],
            "job": [api.get(f"{base}/exports/{j.pk}/").json()["out_of_date"] for j in (pack_job, csv_job)],
            "list": [listed[pack_job.pk], listed[csv_job.pk]],
            "page": [on_page[pack_job.pk], on_page[csv_job.pk]],
        }

    current = {"pack": False, "submission": False, "job": [False, False], "list": [False, False]}
    assert verdicts() == {**current, "page": [False, False]}
    penalty_record(
        tournament=tournament,
        registration=tournament.registrations.get(key="p3"),
        kind=Kind.REFEREE,
        actor=Actor(user=director, role="director"),
        session=tournament.sessions.get(number=4),
        reason="Late return from the break",
        points=-10,
    )
    stale = {"pack": True, "submission": True, "job": [True, True], "list": [True, True]}
    assert verdicts() == {**stale, "page": [True, True]}
    page = client.get(f"/t/{tournament.slug}/exports/").content.decode()
    assert "The tournament has changed since this file was made" in page
    # made again: the new files are current, the old ones still out of date
    pack_job, _ = make_pack(tournament, director)
    with django_capture_on_commit_callbacks(execute=True):
        csv_job = export_job_create(tournament=tournament, exporter="ema-results", fmt="csv", user=director)
    assert verdicts() == {**current, "page": [False, False]}
