"""The background recompute: queued on commit, coalesced, race-safe, safe to run twice, and visible to
players and directors when the broker is down."""

from __future__ import annotations

import re
from unittest import mock

import pytest
from django.core.management import call_command
from django.test import override_settings

from penalties.services import penalty_cancel, penalty_record
from rankings.models import StandingsState
from rankings.standings import services
from rankings.standings.selectors import standings_view
from rankings.standings.tasks import standings_recompute as standings_recompute_task
from scoring.services import hand_replace, result_reopen
from tests.rankings.test_standings_pages import (  # the shared helpers
    SESSION_1,
    SESSION_2,
    _clean_cache,  # noqa: F401  (autouse fixture)
    confirm,
    reg,
    rows,
    seat,
)
from tournaments.models import Session, Table
from tournaments.permissions import actor_for

CLOSED_PORT_BROKER = "redis://127.0.0.1:1/0"


def state_of(tournament) -> StandingsState:
    return StandingsState.objects.get(tournament=tournament)


def score_of(tournament, key: str):
    document = state_of(tournament).document or {"standings": []}
    return next((r["score"] for r in document["standings"] if r["player"] == key), None)


# -- queued on commit -----------------------------------------------------------------------------------


@pytest.mark.django_db
@override_settings(CELERY_TASK_ALWAYS_EAGER=True)
def test_a_confirmed_result_updates_the_standings_after_commit(
    tournament, referee, django_capture_on_commit_callbacks
):
    tables = seat(tournament, 1, [keys for keys, _ in SESSION_1])
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        confirm(tables[0], SESSION_1[0][1], referee)
    assert callbacks, "the recompute waits for the commit"
    assert score_of(tournament, "p1") is None  # nothing computed before the commit
    for callback in callbacks:
        callback()
    state = state_of(tournament)
    assert state.is_fresh and score_of(tournament, "p1") == 10


@pytest.mark.django_db
@override_settings(CELERY_TASK_ALWAYS_EAGER=True)
def test_penalties_added_changed_and_cancelled_update_the_standings(
    tournament, referee, django_capture_on_commit_callbacks
):
    tables = seat(tournament, 1, [keys for keys, _ in SESSION_1])
    actor = actor_for(user=referee, table=tables[0])
    with django_capture_on_commit_callbacks(execute=True):
        confirm(tables[0], SESSION_1[0][1], referee)
    with django_capture_on_commit_callbacks(execute=True):
        foul = penalty_record(
            tournament=tournament, registration=reg(tournament, "p1"), kind="foul", reason="slow",
            session=tables[0].session, actor=actor,
        )  # fmt: skip
    assert score_of(tournament, "p1") == 10  # the first foul is a warning
    with django_capture_on_commit_callbacks(execute=True):
        penalty_record(
            tournament=tournament, registration=reg(tournament, "p1"), kind="foul", reason="slow again",
            session=tables[0].session, actor=actor,
        )  # fmt: skip
    assert score_of(tournament, "p1") == 5  # the second costs 5
    with django_capture_on_commit_callbacks(execute=True):
        penalty_cancel(penalty=foul, actor=actor, reason="wrong player")
    assert score_of(tournament, "p1") == 10  # the remaining foul is now the warning
    with django_capture_on_commit_callbacks(execute=True):
        penalty_record(
            tournament=tournament, registration=reg(tournament, "p2"), kind="referee", points=-15,
            reason="deliberate slow play", session=tables[0].session, actor=actor,
        )  # fmt: skip
    assert score_of(tournament, "p2") == -10 and state_of(tournament).is_fresh


@pytest.mark.django_db
@override_settings(CELERY_TASK_ALWAYS_EAGER=True)
def test_a_reopened_or_corrected_result_updates_the_standings(
    tournament, referee, django_capture_on_commit_callbacks
):
    tables = seat(tournament, 1, [keys for keys, _ in SESSION_1])
    with django_capture_on_commit_callbacks(execute=True):
        confirm(tables[0], SESSION_1[0][1], referee)
    with django_capture_on_commit_callbacks(execute=True):
        result_reopen(table=tables[0], actor=actor_for(user=referee, table=tables[0]), reason="sheet misread")
    assert score_of(tournament, "p1") == 0
    assert next(r for r in state_of(tournament).document["standings"] if r["player"] == "p1")["sessions"] == 0


@pytest.mark.django_db
@override_settings(CELERY_TASK_ALWAYS_EAGER=True)
def test_a_rolled_back_change_queues_nothing(tournament, referee, django_capture_on_commit_callbacks):
    tables = seat(tournament, 1, [keys for keys, _ in SESSION_1])
    actor = actor_for(user=referee, table=tables[0])
    with django_capture_on_commit_callbacks(execute=True) as callbacks, pytest.raises(Exception):  # noqa: B017
        hand_replace(
            table=tables[0], number=5, hand={"result": "draw"}, actor=actor, expected_version=None, reason="x"
        )
    assert callbacks == []


# -- coalescing ---------------------------------------------------------------------------------------


@pytest.mark.django_db
@override_settings(CELERY_TASK_ALWAYS_EAGER=False)
def test_a_burst_of_twelve_confirmations_queues_one_recompute(
    make_tournament, director, django_capture_on_commit_callbacks
):
    tournament = make_tournament(slug="burst", director=director, players=48, sessions=1)
    keys = [f"p{i}" for i in range(1, 49)]
    tables = seat(tournament, 1, [keys[i : i + 4] for i in range(0, 48, 4)])
    with mock.patch.object(services, "_publish") as publish:
        for table in tables:  # twelve tables, each confirmed in its own transaction
            with django_capture_on_commit_callbacks(execute=True):
                confirm(table, [30, 10, -10, -30], director)
    assert publish.call_count == 1
    state = state_of(tournament)
    assert state.input_version >= 13 and state.queued_at is not None
    # The queued run starts: it reads the newest input, so one run covers the twelve tables.
    services.standings_recompute(tournament_id=tournament.pk)
    state = state_of(tournament)
    assert state.is_fresh and len([r for r in state.document["standings"] if r["table_points"] == 4]) == 12
    # Once it started, the next change queues a new run.
    with mock.patch.object(services, "_publish") as publish:
        services.standings_touch(tournament_id=tournament.pk)
        services.standings_enqueue(tournament_id=tournament.pk)
    assert publish.call_count == 1


# -- race safety ------------------------------------------------------------------------------------


@pytest.mark.django_db
def test_an_older_computation_finishing_late_never_replaces_a_newer_snapshot(tournament, referee):
    tables = seat(tournament, 1, [keys for keys, _ in SESSION_1])
    confirm(tables[0], SESSION_1[0][1], referee)
    real_compute = standings_view
    late = {}

    def slow_compute(*, tournament):
        standings = real_compute(tournament=tournament)  # computed from the older input
        if not late:
            late["version"] = state_of(tournament).input_version
            # Meanwhile another table is confirmed and a second worker stores the newer snapshot.
            confirm(tables[1], SESSION_1[1][1], referee)
            services.standings_recompute(tournament_id=tournament.pk)
        return standings

    with mock.patch("rankings.standings.selectors.standings_view", side_effect=slow_compute):
        services.standings_recompute(tournament_id=tournament.pk)
    state = state_of(tournament)
    assert state.computed_version > late["version"]
    assert (
        score_of(tournament, "p5") == 0
        and next(r for r in state.document["standings"] if r["player"] == "p5")["sessions"] == 1
    )  # the newer snapshot, with table 2, stayed


@pytest.mark.django_db
def test_storing_an_old_version_after_a_newer_one_is_refused(tournament):
    services.standings_state(tournament_id=tournament.pk)
    assert services.standings_store(tournament_id=tournament.pk, version=5, document={"v": 5}, breakdown={})
    assert not services.standings_store(
        tournament_id=tournament.pk, version=4, document={"v": 4}, breakdown={}
    )
    assert not services.standings_store(
        tournament_id=tournament.pk, version=5, document={"v": 55}, breakdown={}
    )
    assert state_of(tournament).document == {"v": 5}


@pytest.mark.django_db
def test_two_workers_on_the_same_tournament_leave_the_same_snapshot(tournament, referee):
    tables = seat(tournament, 1, [keys for keys, _ in SESSION_1])
    confirm(tables[0], SESSION_1[0][1], referee)
    confirm(tables[1], SESSION_1[1][1], referee)
    first = services.standings_recompute(tournament_id=tournament.pk)
    second = services.standings_recompute(tournament_id=tournament.pk)  # a duplicate delivery
    assert second.computed_version == first.computed_version
    assert second.document == first.document and second.computed_at == first.computed_at  # not redone
    expected = standings_view(tournament=tournament).to_document(tournament.slug, tournament.ruleset)
    assert first.document == expected


@pytest.mark.django_db
def test_the_task_is_safe_to_run_twice_and_survives_a_deleted_tournament(tournament, referee):
    tables = seat(tournament, 1, [keys for keys, _ in SESSION_1])
    confirm(tables[0], SESSION_1[0][1], referee)
    version = standings_recompute_task.apply(args=[tournament.pk]).get()
    assert standings_recompute_task.apply(args=[tournament.pk]).get() == version
    assert state_of(tournament).computed_version == version == state_of(tournament).input_version
    assert standings_recompute_task.apply(args=[987654]).get() is None
    assert not StandingsState.objects.filter(tournament_id=987654).exists()


def test_the_task_is_acknowledged_late_and_retried():
    assert standings_recompute_task.acks_late is True
    assert standings_recompute_task.max_retries >= 3 and standings_recompute_task.autoretry_for
    assert standings_recompute_task.ignore_result is True


@pytest.mark.django_db
def test_a_task_out_of_retries_marks_the_standings_delayed(tournament):
    services.standings_touch(tournament_id=tournament.pk)
    standings_recompute_task.on_failure(RuntimeError("database gone"), "task-id", (tournament.pk,), {}, None)
    state = state_of(tournament)
    assert state.delayed and "database gone" in state.queue_error


# -- broker down ---------------------------------------------------------------------------------------


@pytest.mark.django_db
@override_settings(CELERY_TASK_ALWAYS_EAGER=False, CELERY_BROKER_URL=CLOSED_PORT_BROKER)
def test_with_the_broker_down_results_are_saved_and_the_standings_say_delayed(
    client, tournament, referee, director, django_capture_on_commit_callbacks
):
    tables = seat(tournament, 1, [keys for keys, _ in SESSION_1])
    with django_capture_on_commit_callbacks(execute=True):
        confirm(tables[0], SESSION_1[0][1], referee)
    services.standings_refresh(tournament_id=tournament.pk)  # an earlier snapshot exists
    with django_capture_on_commit_callbacks(execute=True):
        confirm(tables[1], SESSION_1[1][1], referee)  # the request does not fail
    assert Table.objects.get(pk=tables[1].pk).result.status == "confirmed"
    state = state_of(tournament)
    assert state.delayed and "OperationalError" in state.queue_error
    html = client.get(f"/t/{tournament.slug}/standings/").content.decode()
    assert "updating delayed" in html and "Last updated at" in html
    row_p5 = re.search(r'<tr data-player="p5".*?</tr>', html).group(0)
    assert row_p5.endswith('<td class="hn">0</td></tr>')  # no session played yet
    assert rows(html)[0] == ("p1", 1)  # the older snapshot, without table 2, is still shown

    # The director recomputes by hand from the dashboard.
    client.force_login(director)
    client.post(f"/t/{tournament.slug}/director/standings/recompute/")
    state = state_of(tournament)
    assert state.is_fresh and not state.delayed and score_of(tournament, "p5") == 0
    assert "updating delayed" not in client.get(f"/t/{tournament.slug}/standings/").content.decode()

    # The next confirmation tries to queue again: still down, delayed again; once back, queued.
    tables_2 = seat(tournament, 2, [keys for keys, _ in SESSION_2])
    with django_capture_on_commit_callbacks(execute=True):
        confirm(tables_2[0], SESSION_2[0][1], referee)
    assert state_of(tournament).delayed
    with mock.patch.object(services, "_publish") as publish, django_capture_on_commit_callbacks(execute=True):
        confirm(tables_2[1], SESSION_2[1][1], referee)
    assert publish.call_count == 1
    state = state_of(tournament)
    assert not state.delayed and state.queue_error == "" and state.queued_at is not None


@pytest.mark.django_db
@override_settings(CELERY_TASK_ALWAYS_EAGER=False, CELERY_BROKER_URL=CLOSED_PORT_BROKER)
def test_the_recompute_command_works_with_the_broker_down(tournament, referee, capsys):
    tables = seat(tournament, 1, [keys for keys, _ in SESSION_1])
    confirm(tables[0], SESSION_1[0][1], referee)
    call_command("recompute_standings", tournament.slug)
    assert "8 players ranked" in capsys.readouterr().out
    assert state_of(tournament).is_fresh and score_of(tournament, "p1") == 10


@pytest.mark.django_db
def test_the_recompute_command_names_an_unknown_tournament():
    from django.core.management.base import CommandError

    with pytest.raises(CommandError, match="no-such-cup"):
        call_command("recompute_standings", "no-such-cup")


@pytest.mark.django_db
@override_settings(CELERY_TASK_ALWAYS_EAGER=True)
def test_a_failing_computation_never_fails_the_confirmation(
    tournament, referee, django_capture_on_commit_callbacks
):
    tables = seat(tournament, 1, [keys for keys, _ in SESSION_1])
    with (
        mock.patch("rankings.standings.selectors.standings_view", side_effect=RuntimeError("bad data")),
        django_capture_on_commit_callbacks(execute=True),
    ):
        confirm(tables[0], SESSION_1[0][1], referee)
    assert Table.objects.get(pk=tables[0].pk).result.status == "confirmed"
    state = state_of(tournament)
    assert state.delayed and "bad data" in state.queue_error


@pytest.mark.django_db
def test_the_standings_page_recomputes_nothing_while_fresh(client, tournament, referee):
    tables = seat(tournament, 1, [keys for keys, _ in SESSION_1])
    confirm(tables[0], SESSION_1[0][1], referee)
    services.standings_refresh(tournament_id=tournament.pk)
    Session.objects.filter(tournament=tournament).update(status="finished")
    with mock.patch("rankings.standings.selectors.standings_view") as compute:
        assert client.get(f"/t/{tournament.slug}/standings/").status_code == 200
    compute.assert_not_called()
