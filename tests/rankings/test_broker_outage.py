"""The worker outlives its broker: Redis stops for a while under writes, comes back, and the standings are
fresh again within a minute, with no restart by hand.

The test runs its own redis-server on a free port (never the machine's Redis), a real Celery worker and
beat as in production (README: separate processes), both pointed at it, and PostgreSQL (DATABASE_URL) for
the data they share with this test. Results confirmed while Redis is away are saved; their recompute
cannot be queued (the state records why); once Redis is back the beat's sweep queues it again and the
worker, which reconnected by itself, computes it. ``BROKER_OUTAGE_SECONDS`` (default 30) sets how long
Redis stays away. Skipped without PostgreSQL or redis-server (failing instead under REQUIRE_SERVICES=1).
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest
from django.db import connection
from kombu import pools

from rankings.models import StandingsState
from rankings.standings.tasks import standings_recompute
from tests.conftest import skip_or_fail
from tests.rankings.test_standings_pages import confirm, seat
from tests.rankings.test_worker import ROOT, _database_url

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]

OUTAGE_SECONDS = float(os.environ.get("BROKER_OUTAGE_SECONDS", "30"))
FRESH_WITHIN = 60.0
KEYS = ["p1", "p2", "p3", "p4", "p5", "p6", "p7", "p8"]


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class OwnRedis:
    """A redis-server of the test's own, on a free port, stopped and started again on that port."""

    def __init__(self, folder: Path):
        self.port = _free_port()
        assert self.port != 6379
        self.folder = folder
        self.process: subprocess.Popen | None = None
        self.url = f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        self.process = subprocess.Popen(
            [
                shutil.which("redis-server"), "--port", str(self.port), "--bind", "127.0.0.1",
                "--save", "", "--appendonly", "no", "--dir", str(self.folder),
            ],
            stdout=(self.folder / "redis.log").open("a"), stderr=subprocess.STDOUT,
        )  # fmt: skip
        deadline = time.monotonic() + 15
        while time.monotonic() < deadline:
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.5):
                    return
            except OSError:
                time.sleep(0.1)
        pytest.fail("the test's redis-server did not start")

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.kill()  # gone at once, as a crashed or unplugged broker
            self.process.wait(timeout=10)
        self.process = None


@pytest.fixture
def own_redis(tmp_path):
    if shutil.which("redis-server") is None:
        skip_or_fail("redis-server is not installed")
    if connection.vendor != "postgresql":
        skip_or_fail("the broker outage test needs PostgreSQL (DATABASE_URL), shared with the worker")
    redis = OwnRedis(tmp_path)
    redis.start()
    yield redis
    redis.stop()


@pytest.fixture
def broker_is(own_redis, settings, monkeypatch):
    """This test process queues its tasks to the test's Redis (as a web server would). Celery reads the
    ``CELERY_BROKER_URL`` environment variable before its configuration (CI sets it), so both change."""
    app = standings_recompute.app
    saved = {k: app.conf[k] for k in ("broker_url", "task_always_eager")}
    monkeypatch.setenv("CELERY_BROKER_URL", own_redis.url)
    settings.CELERY_BROKER_URL = own_redis.url
    settings.CELERY_TASK_ALWAYS_EAGER = False
    app.conf.update(broker_url=own_redis.url, task_always_eager=False)
    _forget_connections(app)
    yield own_redis
    _forget_connections(app)
    app.conf.update(**saved)


def _forget_connections(app) -> None:
    """The app's connection pool and its producers' pool (which keeps the broker it first wrote to).
    kombu keeps one pool per broker address for the whole process: closing the app's pool without
    emptying that registry would hand the same closed pool to the next test that queues a task."""
    pools.reset()
    app._pool = None
    app.amqp._producer_pool = None


def _process(
    tmp_path: Path, name: str, args: list[str], url: str, **extra: str
) -> tuple[subprocess.Popen, Path]:
    env = {
        **os.environ, "DATABASE_URL": _database_url(), "CELERY_BROKER_URL": url, "DEBUG": "1",
        "PYTHONUNBUFFERED": "1", "STANDINGS_SWEEP_SECONDS": "2", "STANDINGS_SWEEP_STALE_SECONDS": "1", **extra,
    }  # fmt: skip
    env.pop("REDIS_URL", None)
    log = tmp_path / f"{name}.log"
    process = subprocess.Popen(
        [str(Path(sys.executable).parent / "celery"), "-A", "config", *args],
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
    print(f"--- {log.name}\n{log.read_text()[-4000:]}")


def test_the_worker_outlives_a_broker_outage_under_writes(broker_is, make_tournament, director, tmp_path):
    redis = broker_is
    sessions = 40
    tournament = make_tournament(
        slug=f"outage-{uuid.uuid4().hex[:6]}", director=director, players=8, sessions=sessions
    )
    # the production command lines (README): one worker (prefork), one beat
    # each recompute holds 3 s (tests/rankings/worker_hold.py), so that Redis goes away while the worker
    # holds an unacknowledged message: the case that made the worker exit for good
    marker = tmp_path / "recompute-started"
    worker, worker_log = _process(
        tmp_path,
        "worker",
        [
            "worker",
            "--loglevel=INFO",
            "--concurrency=1",
            "-n",
            "outage@%h",
            "-I",
            "tests.rankings.worker_hold",
        ],
        redis.url,
        HOLD_MARKER=str(marker),
        HOLD_SECONDS="3",
    )
    beat, beat_log = _process(
        tmp_path, "beat", ["beat", "--loglevel=INFO", "-s", str(tmp_path / "beat-schedule")], redis.url
    )
    played = 0

    def play() -> None:
        nonlocal played
        played += 1
        first, second = seat(tournament, played, [KEYS[:4], KEYS[4:]])
        confirm(first, [30, 10, -10, -30], director)
        confirm(second, [0, 0, 0, 0], director)

    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and "ready." not in worker_log.read_text():
            time.sleep(0.2)
        assert "ready." in worker_log.read_text(), "the worker did not start"
        play()  # with the broker: queued, and taken by the worker
        deadline = time.monotonic() + 30
        while not marker.exists() and time.monotonic() < deadline:
            time.sleep(0.1)
        assert marker.exists(), "the worker did not take the recompute"
        redis.stop()  # while the worker runs it, its message not yet acknowledged
        outage_ends = time.monotonic() + OUTAGE_SECONDS
        while time.monotonic() < outage_ends and played < sessions - 1:
            play()  # every write is saved; its recompute cannot be queued
            time.sleep(2)
        during = played
        state = StandingsState.objects.get(tournament=tournament)
        assert state.computed_version < state.input_version  # stale while the broker is away
        assert state.queue_error  # and the state says why
        redis.start()
        back = time.monotonic()
        target = StandingsState.objects.get(tournament=tournament).input_version
        while time.monotonic() - back < FRESH_WITHIN:
            state = StandingsState.objects.get(tournament=tournament)
            if state.computed_version >= target:
                break
            time.sleep(0.5)
        waited = time.monotonic() - back
        print(
            f"outage {OUTAGE_SECONDS:.0f} s, {during} sessions confirmed meanwhile; fresh {waited:.1f} s after"
        )
        assert worker.poll() is None, "the worker exited"
        assert beat.poll() is None, "the beat exited"
        assert state.computed_version >= target, (
            f"standings stale {FRESH_WITHIN:.0f} s after the broker came back "
            f"(computed {state.computed_version}, input {target})"
        )
        p1 = next(row for row in state.document["standings"] if row["player"] == "p1")
        assert p1["sessions"] == during and p1["score"] == 30 * during
    finally:
        _stop(worker, worker_log)
        _stop(beat, beat_log)
