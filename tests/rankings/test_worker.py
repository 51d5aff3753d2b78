"""A real Celery worker process recomputes the standings after confirmations made through the services.

Needs the broker (Redis) and PostgreSQL: the worker is a separate process, so it must reach the same test
database as this test (committed data: a transactional test). Skipped where no broker is configured;
in CI (REQUIRE_SERVICES=1) a missing service fails the test instead.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path
from urllib.parse import quote

import pytest
from django.conf import settings
from django.db import connection

from rankings.models import StandingsState
from rankings.standings import services
from rankings.standings.selectors import standings_view
from rankings.standings.tasks import standings_recompute as standings_recompute_task
from tests.conftest import skip_or_fail
from tests.rankings.test_standings_pages import confirm, seat

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]

ROOT = Path(__file__).resolve().parents[2]
WAIT_SECONDS = 60


def _database_url() -> str:
    db = connection.settings_dict
    user = quote(db.get("USER") or "")
    password = f":{quote(db['PASSWORD'])}" if db.get("PASSWORD") else ""
    host = db.get("HOST") or "127.0.0.1"
    port = f":{db['PORT']}" if db.get("PORT") else ""
    return f"postgres://{user}{password}@{host}{port}/{db['NAME']}"


@pytest.fixture
def services_required():
    if not settings.CELERY_BROKER_URL:
        skip_or_fail("no broker configured (set CELERY_BROKER_URL to run the worker test)")
    if connection.vendor != "postgresql":
        skip_or_fail(
            "the worker test needs PostgreSQL (DATABASE_URL) so that the worker shares the test database"
        )


@pytest.fixture
def workers(services_required, tmp_path):
    """Start real worker processes on demand; stop them all at the end."""
    started: list[tuple[subprocess.Popen, Path]] = []
    env = {**os.environ, "DATABASE_URL": _database_url(), "DEBUG": "1", "PYTHONUNBUFFERED": "1"}
    env["CELERY_BROKER_URL"] = settings.CELERY_BROKER_URL
    celery = Path(sys.executable).parent / "celery"

    def start() -> Path:
        log = tmp_path / f"worker-{len(started) + 1}.log"
        process = subprocess.Popen(
            [
                str(celery), "-A", "config", "worker", "--pool=solo", "-Q", settings.CELERY_TASK_DEFAULT_QUEUE,
                "--loglevel=INFO", "-n", f"standings-{uuid.uuid4().hex[:8]}@%h",
                "--without-gossip", "--without-mingle", "--without-heartbeat",
            ],
            cwd=ROOT, env=env, stdout=log.open("w"), stderr=subprocess.STDOUT,
        )  # fmt: skip
        started.append((process, log))
        return log

    yield start
    for process, _ in started:
        process.send_signal(signal.SIGTERM)
    for process, log in started:
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=10)
        print(f"--- {log.name}\n{log.read_text()[-3000:]}")


def _queued_recomputes(tournament) -> int:
    """Recompute messages for ``tournament`` waiting in the broker's queue (a Redis list)."""
    with standings_recompute_task.app.connection_for_write() as conn:
        raw = conn.default_channel.client.lrange(settings.CELERY_TASK_DEFAULT_QUEUE, 0, -1)
    headers = [json.loads(message)["headers"] for message in raw]
    return sum(
        1
        for h in headers
        if h.get("task") == standings_recompute_task.name and h.get("argsrepr") == f"[{tournament.pk}]"
    )


def _wait_fresh(tournament, *, at_least: int, seconds: float = WAIT_SECONDS) -> StandingsState:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        state = StandingsState.objects.get(tournament=tournament)
        if state.document is not None and state.computed_version >= max(at_least, state.input_version):
            return state
        time.sleep(0.2)
    state = StandingsState.objects.get(tournament=tournament)
    pytest.fail(
        f"the worker did not bring the standings to version {at_least} within {seconds} s "
        f"(computed {state.computed_version}, input {state.input_version}, error {state.queue_error!r})"
    )


def _runs(logs: list[Path], tournament) -> int:
    needle = f"standings of tournament {tournament.pk} recomputed for version"
    return sum(log.read_text().count(needle) for log in logs)


def test_a_real_worker_recomputes_after_a_burst_of_confirmations(make_tournament, director, workers):
    standings_recompute_task.app.control.purge()  # leftovers of earlier runs would only add noise
    tournament = make_tournament(
        slug=f"worker-{uuid.uuid4().hex[:6]}", director=director, players=48, sessions=2
    )
    keys = [f"p{i}" for i in range(1, 49)]
    tables = seat(tournament, 1, [keys[i : i + 4] for i in range(0, 48, 4)])

    # A burst of twelve confirmations, each committed on its own, while no worker runs yet.
    for table in tables:
        confirm(table, [30, 10, -10, -30], director)
    state = StandingsState.objects.get(tournament=tournament)
    assert state.queue_error == "" and state.queued_at is not None
    assert _queued_recomputes(tournament) == 1  # coalesced: one recompute queued for twelve confirmations
    burst_version = state.input_version

    log = workers()
    state = _wait_fresh(tournament, at_least=burst_version)
    assert _runs([log], tournament) == 1
    winners = [row for row in state.document["standings"] if row["table_points"] == 4]
    assert len(winners) == 12 and all(row["score"] == 30 for row in winners)

    # With the worker running, the next confirmation reaches the standings by itself.
    more = seat(tournament, 2, [keys[i : i + 4] for i in range(0, 48, 4)])
    confirm(more[0], [-30, -10, 10, 30], director)
    after = StandingsState.objects.get(tournament=tournament).input_version
    state = _wait_fresh(tournament, at_least=after)
    p1 = next(row for row in state.document["standings"] if row["player"] == "p1")
    assert p1["sessions"] == 2 and p1["score"] == 0


def test_two_workers_on_one_tournament_leave_the_snapshot_of_the_newest_input(
    make_tournament, director, workers
):
    standings_recompute_task.app.control.purge()
    tournament = make_tournament(slug=f"workers-{uuid.uuid4().hex[:6]}", director=director, players=16)
    keys = [f"p{i}" for i in range(1, 17)]
    tables = seat(tournament, 1, [keys[i : i + 4] for i in range(0, 16, 4)])
    logs = [workers(), workers()]
    for n, table in enumerate(tables):
        confirm(table, [40 - n, 10, -10, -40 + n], director)
        for _ in range(3):  # duplicate deliveries, as after a worker lost its connection
            services._publish(tournament.pk)
    final = StandingsState.objects.get(tournament=tournament).input_version
    state = _wait_fresh(tournament, at_least=final)
    expected = standings_view(tournament=tournament).to_document(tournament.slug, tournament.ruleset)
    assert state.document == expected
    assert state.computed_version == final
    assert _runs(logs, tournament) >= 1
