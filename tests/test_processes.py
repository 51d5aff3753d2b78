"""One truth across server processes: the embedded default (SQLite file, no Redis, no broker) served by
two gunicorn processes reads the same clock and the same standings from both after every change.

The two processes are two gunicorn servers of one worker each, on two ports, over the same database file
and the same folders, as two workers of one server would be, but each reachable on purpose: every read
below goes to both, alternately, right after a write made through one of them.
"""

from __future__ import annotations

import json
import os
import re
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
GUNICORN = Path(sys.executable).with_name("gunicorn")
SLUG = "two-processes"

SETUP = f"""
import django
django.setup()
from django.contrib.auth import get_user_model
from rest_framework.authtoken.models import Token
from tournaments import services
from tournaments.clock.services import clock_act
from tournaments.models import Session
from tournaments.seating.services import seating_publish

director = get_user_model().objects.create_user(username="director", password="pw-for-tests-123")
tournament = services.tournament_create(
    name="Two processes", slug="{SLUG}", ruleset="mcr", starts_on=__import__("datetime").date(2026, 5, 1),
    director=director, sessions=2,
)
regs = []
for i in range(1, 9):
    player = services.player_create(first_name=f"Player{{i}}", last_name="Processes", country="ESP")
    regs.append(services.registration_create(tournament=tournament, player=player, key=f"p{{i}}"))
session = Session.objects.get(tournament=tournament, number=1)
tables = services.session_seat(session=session, tables=[regs[:4], regs[4:]])
seating_publish(session=session)
clock_act(tournament=tournament, user=director, action="start")
print(json.dumps({{"token": Token.objects.create(user=director).key, "tables": [t.pk for t in tables]}}))
"""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def servers(tmp_path_factory):
    if not GUNICORN.exists():
        pytest.skip("gunicorn is not installed beside this Python")
    tmp = tmp_path_factory.mktemp("processes")
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in ("REDIS_URL", "CELERY_BROKER_URL", "DATABASE_URL", "CACHE_DIR")
    }
    env.update(
        DJANGO_SETTINGS_MODULE="config.settings",
        DEBUG="1",
        DATABASE_URL=f"sqlite:///{tmp / 'db.sqlite3'}",
        CACHE_DIR=str(tmp / "cache"),
        EMBEDDED_SCHEDULE_FILE=str(tmp / "schedule.json"),
        MEDIA_ROOT=str(tmp / "media"),
        BACKUP_ROOT=str(tmp / "backups"),
        PYTHONPATH=str(ROOT),
    )
    run = {"cwd": ROOT, "env": env, "check": True, "capture_output": True, "text": True, "timeout": 600}
    subprocess.run([sys.executable, "manage.py", "migrate", "--noinput", "-v0"], **run)
    made = subprocess.run([sys.executable, "-c", "import json\n" + SETUP], **run)
    setup = json.loads(made.stdout.strip().splitlines()[-1])
    ports = [free_port(), free_port()]
    procs = [
        subprocess.Popen(
            [
                str(GUNICORN),
                "config.wsgi",
                "--workers",
                "1",
                "--no-control-socket",
                "--bind",
                f"127.0.0.1:{port}",
            ],
            cwd=ROOT,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        for port in ports
    ]
    try:
        bases = [f"http://127.0.0.1:{port}" for port in ports]
        for base in bases:
            wait_until_up(base)
        yield {"bases": bases, **setup}
    finally:
        for proc in procs:
            proc.terminate()
        for proc in procs:
            proc.wait(timeout=30)


def wait_until_up(base: str) -> None:
    deadline = time.monotonic() + 120  # a busy machine may take long to start gunicorn: never a result
    while True:
        try:
            with urllib.request.urlopen(f"{base}/healthz", timeout=60):
                return
        except (urllib.error.URLError, OSError):
            if time.monotonic() > deadline:
                raise
            time.sleep(0.2)


def call(base: str, path: str, *, token: str | None = None, method: str = "GET", body: dict | None = None):
    request = urllib.request.Request(f"{base}{path}", method=method)
    if token:
        request.add_header("Authorization", f"Token {token}")
    data = None
    if body is not None:
        data = json.dumps(body).encode()
        request.add_header("Content-Type", "application/json")
    with urllib.request.urlopen(request, data=data, timeout=60) as response:
        text = response.read().decode()
    return json.loads(text) if path.startswith("/api/") else text


def clock_state(base: str) -> str:
    return call(base, f"/api/tournaments/{SLUG}/clock/")["state"]


def standings_page(base: str) -> list[str]:
    """The players in the order the public standings page (anonymous, from the page cache) lists them."""
    return re.findall(r'data-player="(p\d+)"', call(base, f"/t/{SLUG}/standings/"))


def standings_api(base: str) -> list[tuple[str, object]]:
    return [
        (row["player"], row["score"])
        for row in call(base, f"/api/tournaments/{SLUG}/standings/")["standings"]
    ]


def read_alternately(bases: list[str], read, times: int = 3) -> list:
    """``read`` from each process in turn, ``times`` rounds: every answer, in order."""
    return [read(base) for _ in range(times) for base in bases]


def confirm(base: str, token: str, table: int, scores: list[int]) -> None:
    version = call(base, f"/api/tables/{table}/result/", token=token)["version"]
    call(
        base,
        f"/api/tables/{table}/result/totals/",
        token=token,
        method="PUT",
        body={"version": version, "scores": scores},
    )
    version = call(base, f"/api/tables/{table}/result/", token=token)["version"]
    call(base, f"/api/tables/{table}/result/confirm/", token=token, method="POST", body={"version": version})


def test_two_gunicorn_processes_read_the_same_clock_and_standings_after_every_change(servers):
    bases, token = servers["bases"], servers["token"]
    first, second = bases
    assert read_alternately(bases, clock_state) == ["running"] * 6
    empty = read_alternately(bases, standings_page)  # both cache the page as it is now
    assert all(order == empty[0] for order in empty)

    clock = f"/api/tournaments/{SLUG}/clock/"
    for writer, action, state in (
        (first, "pause", "paused"),
        (second, "resume", "running"),
        (second, "pause", "paused"),
    ):
        call(writer, clock, token=token, method="POST", body={"action": action})
        assert read_alternately(bases, clock_state) == [state] * 6, action

    table_1, table_2 = servers["tables"]
    confirm(first, token, table_1, [30, 10, -15, -25])
    after_one = read_alternately(bases, standings_page)
    assert (after_one[0][0], after_one[0][-1]) == ("p1", "p4") and all(
        order == after_one[0] for order in after_one
    )
    assert len(set(map(tuple, read_alternately(bases, standings_api)))) == 1

    confirm(second, token, table_2, [40, 20, -20, -40])
    after_two = read_alternately(bases, standings_page)
    assert after_two[0][0] == "p5" and all(order == after_two[0] for order in after_two)
    scores = read_alternately(bases, standings_api)
    assert scores[0][0] == ("p5", 40) and all(s == scores[0] for s in scores)
