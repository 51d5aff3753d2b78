"""A worker killed mid-recompute (kill -9) loses nothing: the standings catch up with no new write.

The recompute message is acknowledged late, so it stays with the broker while the worker runs it; the
broker's visibility timeout gives it back to the queue within a minute, and the beat's sweep re-queues the
recompute of every tournament whose snapshot is older than its input. Needs Redis and PostgreSQL (see
test_worker.py); skipped where they are not configured.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest
from django.conf import settings

from rankings.models import StandingsState
from rankings.standings.tasks import standings_recompute as standings_recompute_task
from tests.rankings.test_standings_pages import confirm, seat
from tests.rankings.test_worker import (  # noqa: F401
    ROOT,
    _database_url,
    _queued_recomputes,
    _wait_fresh,
    services_required,
)

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]


def _start(tmp_path: Path, name: str, *extra: str, **env_extra: str) -> tuple[subprocess.Popen, Path]:
    env = {**os.environ, "DATABASE_URL": _database_url(), "DEBUG": "1", "PYTHONUNBUFFERED": "1", **env_extra}
    env["CELERY_BROKER_URL"] = settings.CELERY_BROKER_URL
    log = tmp_path / f"{name}.log"
    process = subprocess.Popen(
        [
            str(Path(sys.executable).parent / "celery"), "-A", "config", "worker", "--pool=solo",
            "-Q", settings.CELERY_TASK_DEFAULT_QUEUE, "--loglevel=INFO", "-n", f"{name}-{uuid.uuid4().hex[:6]}@%h",
            "--without-gossip", "--without-mingle", "--without-heartbeat", *extra,
        ],
        cwd=ROOT, env=env, stdout=log.open("w"), stderr=subprocess.STDOUT,
    )  # fmt: skip
    return process, log


def _stop(process: subprocess.Popen, log: Path) -> None:
    if process.poll() is None:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=10)
    print(f"--- {log.name}\n{log.read_text()[-3000:]}")


@pytest.mark.parametrize("rescue", ["sweep", "visibility timeout"])
def test_a_worker_killed_mid_recompute_and_the_standings_still_catch_up(
    rescue,
    services_required,  # noqa: F811
    make_tournament,
    director,
    tmp_path,
):
    standings_recompute_task.app.control.purge()
    tournament = make_tournament(slug=f"killed-{uuid.uuid4().hex[:6]}", director=director, players=8)
    tables = seat(tournament, 1, [["p1", "p2", "p3", "p4"], ["p5", "p6", "p7", "p8"]])
    confirm(tables[0], [30, 10, -10, -30], director)  # queues the recompute
    target = StandingsState.objects.get(tournament=tournament).input_version

    marker = tmp_path / "started"
    doomed, doomed_log = _start(
        tmp_path, "doomed", "-I", "tests.rankings.worker_hold", HOLD_MARKER=str(marker), HOLD_SECONDS="600"
    )
    survivor = None
    try:
        deadline = time.monotonic() + 60
        while not marker.exists() and time.monotonic() < deadline and doomed.poll() is None:
            time.sleep(0.2)
        assert marker.exists(), "the worker never started the recompute"
        os.kill(doomed.pid, signal.SIGKILL)  # mid-task: the message is taken and not acknowledged
        doomed.wait(timeout=10)
        standings_recompute_task.app.control.purge()  # only the dead worker's unacknowledged message is left
        assert _queued_recomputes(tournament) == 0
        state = StandingsState.objects.get(tournament=tournament)
        assert state.computed_version < target  # the recompute was lost with the worker

        # A healthy worker, no write from here on. With the beat, the sweep re-queues the recompute;
        # without it, the broker gives the dead worker's message back after the visibility timeout.
        if rescue == "sweep":
            survivor, survivor_log = _start(
                tmp_path, "survivor", "-B", "-s", str(tmp_path / "beat-schedule"),
                STANDINGS_SWEEP_SECONDS="2", STANDINGS_SWEEP_STALE_SECONDS="1",
            )  # fmt: skip
        else:
            survivor, survivor_log = _start(tmp_path, "survivor")
        state = _wait_fresh(tournament, at_least=target, seconds=90)
        p1 = next(row for row in state.document["standings"] if row["player"] == "p1")
        assert p1["score"] == 30 and p1["sessions"] == 1
    finally:
        _stop(doomed, doomed_log)
        if survivor is not None:
            _stop(survivor, survivor_log)
