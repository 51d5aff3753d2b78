"""The lifecycle of sessions and tournaments: one writer of every status, the same guards from every door,
a finished tournament that stays as it was until the director reopens it with a reason, and clocks that
follow the sessions."""

from __future__ import annotations

import ast
import datetime as dt
from pathlib import Path

import pytest
from django.core.files.base import ContentFile

from rankings.models import ExportJob
from scoring import lifecycle as result_lifecycle
from scoring.models import TableResult
from scoring.rules.base import RuleError
from scoring.services import hand_replace, result_confirm, totals_set
from tests.scoring.test_pages_support import seat_session
from tournaments import lifecycle
from tournaments.models import Role, Session, SessionClock, Tournament
from tournaments.organising import services as organising_services
from tournaments.permissions import Actor
from tournaments.seating.services import seating_publish
from tournaments.sessions import services as session_services

pytestmark = pytest.mark.django_db

SCORES = [[30, -10, -10, -10], [20, 0, -10, -10]]


def boss(director) -> Actor:
    return Actor(user=director, role=Role.DIRECTOR)


def start(session: Session) -> Session:
    """Seat, publish and start ``session`` (planned → seated → playing) as the director's console does."""
    seat_session(session.tournament, session.number)
    seating_publish(session=session)
    return session_services.session_advance(session=session)


def play(tournament: Tournament, director, number: int) -> Session:
    """Start session ``number``, enter and confirm its tables by totals, and finish it."""
    session = start(tournament.sessions.get(number=number))
    for table, scores in zip(session.tables.order_by("number"), SCORES, strict=True):
        totals_set(table=table, scores=scores, actor=boss(director), expected_version=None)
        result_confirm(table=table, actor=boss(director), expected_version=None)
    return session_services.session_advance(session=session)


@pytest.fixture
def finished(tournament, director):
    play(tournament, director, 1)
    play(tournament, director, 2)
    organising_services.tournament_finish(tournament=tournament)
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED
    return tournament


def totals(table) -> dict:
    """A referee's correction of the table's totals, against its current version."""
    version = TableResult.objects.get(table=table).version
    return {"scores": [10, 10, -10, -10], "reason": "sheet misread", "version": version}


def first_table(tournament: Tournament, number: int = 1):
    return tournament.sessions.get(number=number).tables.get(number=1)


# -- read-only once finished ------------------------------------------------------------------------------


def test_a_finished_tournament_refuses_a_correction_until_the_director_reopens_it_with_a_reason(
    finished, director, api_as
):
    table = first_table(finished)
    client = api_as(director)
    url = f"/api/tables/{table.pk}/result/totals/"
    refused = client.put(url, totals(table), format="json")
    assert refused.status_code == 400 and "status" in refused.json()
    assert "The tournament is finished" in str(refused.json())
    assert TableResult.objects.get(table=table).scores == SCORES[0]  # nothing changed

    no_reason = client.post(f"/api/tournaments/{finished.slug}/console/reopen/", {}, format="json")
    assert no_reason.status_code == 400 and "reason" in no_reason.json()
    assert Tournament.objects.get(pk=finished.pk).status == Tournament.Status.FINISHED

    reopened = client.post(
        f"/api/tournaments/{finished.slug}/console/reopen/", {"reason": "table 1 sheet"}, format="json"
    )
    assert reopened.status_code == 200 and reopened.json()["status"] == "running"
    # one reopening is enough: the finished sessions take the correction as they are
    corrected = client.put(url, totals(table), format="json")
    assert corrected.status_code == 200, corrected.json()
    assert TableResult.objects.get(table=table).scores == [10, 10, -10, -10]
    assert Session.objects.get(pk=table.session_id).status == Session.Status.FINISHED
    reopenings = lifecycle.reopenings(Tournament.objects.get(pk=finished.pk))
    assert [(r["what"], r["reason"], r["by"]) for r in reopenings] == [
        ("tournament", "table 1 sheet", "director")
    ]
    # finished again at once (every session still finished): read-only again
    assert (
        client.post(f"/api/tournaments/{finished.slug}/console/finish/", {}, format="json").status_code == 200
    )
    again = client.put(url, totals(table), format="json")
    assert again.status_code == 400 and "The tournament is finished" in str(again.json())


def test_after_one_reopening_a_referee_corrects_a_confirmed_table_and_records_a_penalty(finished, director):
    from penalties.services import penalty_record
    from scoring.services import result_reopen

    organising_services.tournament_reopen(tournament=finished, reason="a late appeal", user=director)
    table = first_table(finished, 2)
    result_reopen(table=table, actor=boss(director), reason="a late appeal")
    version = TableResult.objects.get(table=table).version
    totals_set(
        table=table,
        scores=[10, 10, -10, -10],
        actor=boss(director),
        expected_version=version,
        reason="appeal",
    )
    result_confirm(table=table, actor=boss(director), expected_version=None)
    penalty = penalty_record(
        tournament=finished,
        registration=table.seats.get(position=0).registration,
        kind="table_points",
        points=-10,
        reason="late sheet",
        session=table.session,
        actor=boss(director),
    )
    assert penalty.pk and TableResult.objects.get(table=table).scores == [10, 10, -10, -10]
    assert TableResult.objects.get(table=table).status == TableResult.Status.CONFIRMED


def test_a_finished_tournament_draws_no_form_it_would_refuse_and_links_to_its_reopening(
    client, finished, director, make_user
):
    from tournaments import services

    table = first_table(finished)
    client.force_login(director)
    slug = finished.slug
    session_page = client.get(f"/t/{slug}/console/s/1/").content.decode()
    assert 'id="reopen"' not in session_page and "Reopen the session" not in session_page
    assert f'href="/t/{slug}/console/#reopen-reason"' in session_page
    table_page = client.get(f"/t/{slug}/s/1/table/{table.number}/").content.decode()
    assert 'id="results-closed"' in table_page and "The tournament is finished" in table_page
    assert f'href="/t/{slug}/console/#reopen-reason"' in table_page
    assert 'name="action" value="reopen"' not in table_page and 'id="totals"' not in table_page
    edit = client.get(f"/t/{slug}/s/1/table/{table.number}/hand/1/")
    assert edit.status_code == 302 and edit["Location"].endswith("#results-closed")
    posted = client.post(f"/t/{slug}/s/1/table/{table.number}/hand/1/", {"result": "draw", "reason": "x"})
    assert posted.status_code == 400 and "The tournament is finished" in posted.content.decode()
    penalty_page = client.get(f"/t/{slug}/s/1/table/{table.number}/penalty/late_arrival/")
    text = penalty_page.content.decode()
    assert penalty_page.status_code == 200 and 'id="results-closed"' in text and 'name="reason"' not in text
    referee = make_user("ref")
    services.role_grant(tournament=finished, user=referee, role=Role.REFEREE)
    client.force_login(referee)
    table_page = client.get(f"/t/{slug}/s/1/table/{table.number}/").content.decode()
    assert "Ask the director to reopen it." in table_page and "#reopen-reason" not in table_page
    # reopened: the forms are back, and the session page says that no second reopening is needed
    organising_services.tournament_reopen(tournament=finished, reason="a late appeal", user=director)
    table_page = client.get(f"/t/{slug}/s/1/table/{table.number}/").content.decode()
    assert 'id="results-closed"' not in table_page and 'value="reopen"' in table_page
    client.force_login(director)
    assert 'id="corrections-open"' in client.get(f"/t/{slug}/console/s/1/").content.decode()


def test_a_finished_session_refuses_hands_penalties_and_confirmation_changes(tournament, director):
    session = play(tournament, director, 1)
    table = first_table(tournament)
    from penalties.services import penalty_record
    from scoring.services import result_reopen

    with pytest.raises(RuleError, match="Session 1 is finished") as caught:
        result_reopen(table=table, actor=boss(director), reason="check")
    assert caught.value.path == "status"
    with pytest.raises(RuleError, match="Session 1 is finished"):
        penalty_record(
            tournament=tournament,
            registration=table.seats.get(position=0).registration,
            kind="table_points",
            points=-10,
            reason="late sheet",
            session=session,
            actor=boss(director),
        )
    with pytest.raises(RuleError, match="Session 1 is finished"):
        hand_replace(table=table, number=1, hand={}, actor=boss(director), expected_version=None, reason="x")
    assert TableResult.objects.get(table=table).status == TableResult.Status.CONFIRMED


def test_the_reopen_page_asks_for_a_reason_and_says_when_it_is_missing(client, finished, director):
    client.force_login(director)
    home = client.get(f"/t/{finished.slug}/console/").content.decode()
    assert 'name="reason"' in home
    response = client.post(f"/t/{finished.slug}/console/do/reopen/", {"reason": ""}, follow=True)
    assert "Reopening needs a reason." in response.content.decode()
    assert Tournament.objects.get(pk=finished.pk).status == Tournament.Status.FINISHED
    client.post(f"/t/{finished.slug}/console/do/reopen/", {"reason": "a late appeal"})
    assert Tournament.objects.get(pk=finished.pk).status == Tournament.Status.RUNNING


def test_reopening_marks_the_exports_made_before_it_out_of_date_until_made_again(
    client, finished, director, api_as
):
    before = ExportJob.objects.create(
        tournament=finished, exporter="ema-results", format="csv", status=ExportJob.Status.DONE, progress=100
    )
    before.file.save("ema-results.csv", ContentFile(b"place"), save=True)
    client.force_login(director)
    page = client.get(f"/t/{finished.slug}/exports/").content.decode()
    assert "Out of date" not in page
    organising_services.tournament_reopen(tournament=finished, reason="a late appeal", user=director)
    # made a moment later than the reopening: made again
    after = ExportJob.objects.create(
        tournament=finished, exporter="ema-results", format="csv", status=ExportJob.Status.DONE, progress=100
    )
    ExportJob.objects.filter(pk=after.pk).update(created_at=after.created_at + dt.timedelta(seconds=1))
    after.file.save("ema-results-2.csv", ContentFile(b"place"), save=True)
    page = client.get(f"/t/{finished.slug}/exports/").content.decode()
    old = page.split(f'id="export-job-{before.pk}"')[1].split("</article>")[0]
    new = page.split(f'id="export-job-{after.pk}"')[1].split("</article>")[0]
    assert "Out of date" in old and "make the file again." in old
    assert "Out of date" not in new
    listed = {
        j["id"]: j["out_of_date"]
        for j in api_as(director).get(f"/api/tournaments/{finished.slug}/exports/").json()
    }
    assert listed == {before.pk: True, after.pk: False}


# -- status by actions only -------------------------------------------------------------------------------


def test_patching_a_status_is_refused_by_name_and_changes_nothing(tournament, director, api_as):
    client = api_as(director)
    session = tournament.sessions.get(number=1)
    r = client.patch(f"/api/sessions/{session.pk}/", {"status": "finished"}, format="json")
    assert r.status_code == 400 and "status" in r.json()
    assert "advance" in r.json()["status"][0]
    r = client.patch(f"/api/tournaments/{tournament.slug}/", {"status": "finished"}, format="json")
    assert r.status_code == 400 and "status" in r.json()
    assert Session.objects.get(pk=session.pk).status == Session.Status.PLANNED
    assert Tournament.objects.get(pk=tournament.pk).status == Tournament.Status.DRAFT
    # a document read and sent back with the same status is fine
    same = client.patch(
        f"/api/sessions/{session.pk}/", {"status": "planned", "starts_at": None}, format="json"
    )
    assert same.status_code == 200
    created = client.post(
        "/api/sessions/", {"tournament": tournament.pk, "number": 3, "status": "playing"}, format="json"
    )
    assert created.status_code == 400 and "status" in created.json()


# The modules that may write the status of a session, a tournament or a table's result.
STATUS_WRITERS = {"tournaments/lifecycle.py", "scoring/lifecycle.py"}
PRODUCT = ("config", "tournaments", "scoring", "penalties", "rankings", "idempotency")
STATUS_MODELS = ("Session", "Tournament", "TableResult", "sessions", "result")
OTHER_STATUSES = {
    "job",
    "record",
    "call",
}  # jobs, stored answers and referee calls have statuses of their own
MAKERS = {"update", "create", "get_or_create", "update_or_create", "Session", "Tournament", "TableResult"}


def status_writes(source: str) -> list[str]:
    """The statements of ``source`` that write the status of a session, a tournament or a table's result:
    an assignment to ``.status`` of a new value (copying a status just read back is not a write), a
    ``status=`` given to an update, a create or a constructor of those models."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                if not (isinstance(target, ast.Attribute) and target.attr == "status"):
                    continue
                copy = isinstance(node.value, ast.Attribute) and node.value.attr == "status"
                owner = ast.unparse(target.value).split(".")[-1]
                if not copy and owner not in OTHER_STATUSES:
                    found.append(ast.unparse(node))
        elif isinstance(node, ast.Call) and any(k.arg == "status" for k in node.keywords):
            function = ast.unparse(node.func)
            if function.split(".")[-1] in MAKERS and any(m in function for m in STATUS_MODELS):
                found.append(ast.unparse(node))
    return found


def test_only_the_lifecycles_write_a_status():
    root = Path(__file__).resolve().parents[2]
    writes = {}
    for package in PRODUCT:
        for path in sorted((root / package).rglob("*.py")):
            name = path.relative_to(root).as_posix()
            if "migrations" in path.parts or name in STATUS_WRITERS:
                continue
            if found := status_writes(path.read_text()):
                writes[name] = found
    assert writes == {}
    # and the check sees the writes it forbids
    assert (
        len(
            status_writes(
                "TableResult.objects.filter(pk=1).update(status='confirmed')\n"
                "result.status = TableResult.Status.CONFIRMED\n"
                "tournament.sessions.update(status='finished')\n"
                "Session(tournament=t, number=1, status='playing').save()\n"
                "session.status = locked.status\n"
            )
        )
        == 4
    )
    assert lifecycle.SESSION_STEPS and result_lifecycle.RESULT_STEPS


def test_a_result_steps_only_as_its_lifecycle_allows(tournament, director):
    session = start(tournament.sessions.get(number=1))
    table = session.tables.get(number=1)
    from scoring.services import result_reopen, result_submit

    with pytest.raises(RuleError, match="not confirmed") as caught:
        result_reopen(table=table, actor=boss(director), reason="check")
    assert caught.value.path == "status"
    totals_set(table=table, scores=SCORES[0], actor=boss(director), expected_version=None)
    result_submit(table=table, actor=boss(director), expected_version=None)
    result_confirm(table=table, actor=boss(director), expected_version=None)
    confirmed = TableResult.objects.get(table=table)
    assert confirmed.status == "confirmed" and confirmed.confirmed_by == director
    result_reopen(table=table, actor=boss(director), reason="sheet misread")
    reopened = TableResult.objects.get(table=table)
    assert reopened.status == "submitted" and reopened.confirmed_at is None
    assert reopened.submitted_by == director  # who handed it in is kept
    with pytest.raises(RuleError, match="already confirmed"):
        result_lifecycle.result_move(result=confirmed, to="confirmed")


def test_the_lifecycle_refuses_steps_that_are_not_in_its_table(tournament):
    session = tournament.sessions.get(number=1)
    with pytest.raises(lifecycle.Blocked, match="not seated"):
        lifecycle.session_move(session=session, to=Session.Status.PLAYING)
    with pytest.raises(lifecycle.Blocked, match="Sessions not finished"):
        lifecycle.tournament_move(tournament=tournament, to=Tournament.Status.FINISHED)
    assert Session.objects.get(pk=session.pk).status == Session.Status.PLANNED


# -- clocks follow the sessions ---------------------------------------------------------------------------


def test_starting_a_session_starts_its_clock_and_finishing_it_ends_it(tournament, director):
    session = start(tournament.sessions.get(number=1))
    assert session.status == Session.Status.PLAYING
    assert SessionClock.objects.get(session=session).state == "running"
    for table, scores in zip(session.tables.order_by("number"), SCORES, strict=True):
        totals_set(table=table, scores=scores, actor=boss(director), expected_version=None)
        result_confirm(table=table, actor=boss(director), expected_version=None)
    session_services.session_advance(session=session)
    assert SessionClock.objects.get(session=session).state == "ended"


def test_a_tournament_setting_leaves_the_clock_to_the_director(client, tournament, director):
    client.force_login(director)
    edit = client.get(f"/t/{tournament.slug}/console/edit/").content.decode()
    box = edit.split('name="t-clock_with_session"')[1].split(">")[0]
    assert " checked" in box  # on by default
    details = {
        "t-name": tournament.name,
        "t-ruleset": tournament.ruleset,
        "t-starts_on": "2026-05-01",
        "t-days": "1",
        "t-is_public": "on",
        "t-hide_last_sessions": "0",
    }  # the box "The clock starts with the session" left unticked
    assert client.post(f"/t/{tournament.slug}/console/edit/", details).status_code == 302
    tournament.refresh_from_db()
    assert not lifecycle.clock_follows_session(tournament)
    session = start(tournament.sessions.get(number=1))
    assert session.status == Session.Status.PLAYING
    assert not SessionClock.objects.filter(session=session, state="running").exists()


def test_a_finished_tournament_shows_no_running_clock(client, finished, director, api_as):
    assert not SessionClock.objects.filter(
        session__tournament=finished, state__in=["running", "paused"]
    ).exists()
    body = client.get(f"/api/tournaments/{finished.slug}/clock/").json()
    assert body["session"] == 2 and body["state"] == "ended"
    client.force_login(director)
    page = client.get(f"/t/{finished.slug}/clock/").content.decode()
    assert "Session 2 · Ended" in " ".join(page.split())
    refused = api_as(director).post(
        f"/api/tournaments/{finished.slug}/clock/", {"action": "start"}, format="json"
    )
    assert refused.status_code == 409 and "The tournament is finished" in refused.json()["detail"]


# -- the guards of the results, asked whoever moves a session ----------------------------------------------


def test_the_lifecycle_asks_the_results_guards_whoever_moves_the_session(tournament, director):
    session = start(tournament.sessions.get(number=1))
    first, second = session.tables.order_by("number")
    totals_set(table=first, scores=SCORES[0], actor=boss(director), expected_version=None)
    result_confirm(table=first, actor=boss(director), expected_version=None)
    # not the console's advance: the lifecycle itself, as the clock, the seating or the demo call it
    with pytest.raises(lifecycle.Blocked) as refused:
        lifecycle.session_move(session=session, to=Session.Status.FINISHED)
    assert refused.value.reasons == [f"Tables not confirmed: {second.number}."]
    # a step back is refused while the session has results
    with pytest.raises(lifecycle.Blocked, match="has results or penalties"):
        lifecycle.session_move(session=session, to=Session.Status.SEATED)
    session.refresh_from_db()
    assert session.status == Session.Status.PLAYING
    assert session_services.session_blockers(session=session) == refused.value.reasons
