"""After a real commit, on PostgreSQL: a listener of the domain event that fails stops none of the others
(one that fails ahead of the standings' listener leaves the recompute to run), and the standings still catch
up. A penalty's per-seat rows and the standings' input version are written
in the penalty's own transaction, so when the listener that queues the recompute fails, the sweep finds
the standings behind and brings them up to date (skipped on SQLite, failed where REQUIRE_SERVICES=1)."""

from __future__ import annotations

import logging
from contextlib import contextmanager

import pytest
from django.db import connection

from config.receivers import connect
from penalties import services as penalties
from rankings.models import StandingsState
from rankings.standings import receivers as standings_receivers
from rankings.standings.sweep import standings_sweep
from scoring.models import SeatSummary
from scoring.services import result_confirm, totals_set
from tests.conftest import skip_or_fail
from tests.tournaments.test_lifecycle import SCORES, boss, start
from tournaments.models import Registration
from tournaments.signals import RESULTS, changed

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _postgres_only(db):
    if connection.vendor != "postgresql":
        skip_or_fail("listeners after a real commit are checked on PostgreSQL (DATABASE_URL=postgres://…)")


def rows(registration: Registration) -> list[tuple]:
    return list(
        SeatSummary.objects.filter(registration=registration).values_list(
            "table_points", "penalties", "final"
        )
    )


def test_a_failing_listener_stops_no_other_and_the_sweep_brings_the_standings_up_to_date(
    tournament, director, settings, monkeypatch, caplog
):
    session = start(tournament.sessions.get(number=1))  # every write commits; the standings follow each
    for table, scores in zip(session.tables.order_by("number"), SCORES, strict=True):
        totals_set(table=table, scores=scores, actor=boss(director), expected_version=None)
        result_confirm(table=table, actor=boss(director), expected_version=None)
    state = StandingsState.objects.get(tournament=tournament)
    assert state.computed_version == state.input_version  # up to date before the penalty
    before = state.document
    offender = Registration.objects.get(tournament=tournament, key="p1")
    rows_before = rows(offender)

    def broker_gone(**kwargs):
        raise RuntimeError("the broker went away")

    monkeypatch.setattr(standings_receivers, "standings_enqueue", broker_gone)
    told = []
    changed.connect(lambda sender, *, change, **kw: told.append(change), weak=False, dispatch_uid="spy")
    try:
        with caplog.at_level(logging.ERROR, logger="tournaments.signals"):
            penalty = penalties.penalty_record(
                tournament=tournament, registration=offender, kind="referee", points=-10,
                reason="sheet", session=session, actor=boss(director),
            )  # fmt: skip
    finally:
        changed.disconnect(dispatch_uid="spy")

    assert penalty.pk is not None  # the write is stored whatever a listener does
    assert rows(offender) != rows_before  # its rows were rewritten with it, in its transaction
    (change,) = told  # the listeners after the failing one were told, once
    assert RESULTS in change.what and change.tournament_id == tournament.pk
    failure = [r for r in caplog.records if "standings_queue failed" in r.getMessage()]
    assert failure and "RuntimeError: the broker went away" in caplog.text
    assert f"tournament_id={tournament.pk}" in failure[0].getMessage()  # logged with the event
    state = StandingsState.objects.get(tournament=tournament)
    assert state.computed_version < state.input_version  # behind: the version moved with the penalty
    assert state.document == before

    monkeypatch.undo()
    settings.STANDINGS_SWEEP_STALE_SECONDS = 0  # the last queueing is old enough to try again
    assert standings_sweep() == [tournament.pk]
    state = StandingsState.objects.get(tournament=tournament)
    assert state.computed_version == state.input_version
    (p1,) = [row for row in state.document["standings"] if row["player"] == "p1"]
    (p1_before,) = [row for row in before["standings"] if row["player"] == "p1"]
    assert p1 != p1_before  # the penalty is in the standings


@contextmanager
def listening_first(listener):
    """``listener`` connected to the event ahead of the project's own listeners, which are connected again
    (in their order) afterwards."""
    uids = [
        uid
        for (uid, _sender), *_ in changed.receivers
        if isinstance(uid, str)
        and uid.split(".")[0] in ("rankings", "scoring", "tournaments", "penalties", "notifications")
    ]
    assert uids  # the project's listeners, connected by config.receivers
    for uid in uids:
        changed.disconnect(dispatch_uid=uid)
    changed.connect(listener, weak=False, dispatch_uid="first")
    connect()
    assert [uid for (uid, _sender), *_ in changed.receivers] == ["first", *uids]
    try:
        yield
    finally:
        changed.disconnect(dispatch_uid="first")
        for uid in uids:
            changed.disconnect(dispatch_uid=uid)
        connect()


def test_a_listener_that_fails_first_leaves_the_standings_to_run(tournament, director, caplog):
    session = start(tournament.sessions.get(number=1))
    for table, scores in zip(session.tables.order_by("number"), SCORES, strict=True):
        totals_set(table=table, scores=scores, actor=boss(director), expected_version=None)
        result_confirm(table=table, actor=boss(director), expected_version=None)
    before = StandingsState.objects.get(tournament=tournament)
    offender = Registration.objects.get(tournament=tournament, key="p1")

    def clock_gone(sender, **kwargs):
        raise RuntimeError("the clock document could not be written")

    with listening_first(clock_gone), caplog.at_level(logging.ERROR, logger="tournaments.signals"):
        penalties.penalty_record(
            tournament=tournament, registration=offender, kind="referee", points=-10,
            reason="sheet", session=session, actor=boss(director),
        )  # fmt: skip

    failure = [r for r in caplog.records if "clock_gone failed" in r.getMessage()]
    assert failure and "the clock document could not be written" in caplog.text
    assert f"tournament_id={tournament.pk}" in failure[0].getMessage()
    state = StandingsState.objects.get(tournament=tournament)
    assert state.input_version > before.input_version  # the version moved with the penalty
    assert state.computed_version == state.input_version  # and the standings' listener still ran after it
    (p1,) = [row for row in state.document["standings"] if row["player"] == "p1"]
    (p1_before,) = [row for row in before.document["standings"] if row["player"] == "p1"]
    assert p1 != p1_before
