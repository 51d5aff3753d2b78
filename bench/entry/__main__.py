"""Result entry benchmark: ``python -m bench.entry [--seconds 60] [--scorers 100]`` (see README.md here).

1. A PostgreSQL database (DATABASE_URL, default ``mahjong_bench_entry``), created and migrated if needed,
   and a fresh MCR tournament of 400 players seated at 100 tables.
2. A real server: gunicorn with a few workers, production settings (DEBUG off).
3. 100 scorers (threads, standard library HTTP), each at its own table with the table's private key,
   posting hands for N seconds; every write names the version the scorer last saw (read back from the
   previous response) and a 409 is retried with the version it reports. A table holds 16 MCR hands: when
   it is full the scorer submits it and goes on at the same table number of the next session (sessions
   are seated as they are needed).
4. Requests per second, latency percentiles, the 409 count, and a check that every acknowledged hand is
   in the database exactly once, as it was sent.
5. With ``--drop P``: every write carries an ``Idempotency-Key``, and P % of them are sent and their answer
   dropped (the scorer hangs up without reading it), then sent again with the same key and body.
6. With ``--offline-phones N``: after the timed run, N phones each hold 16 hands entered offline (keys and
   versions as the table page queues them) and send them in order through the table page when the network
   returns, one phone alone and then N at once: the time to flush, and the same exactly-once check.
"""

from __future__ import annotations

import argparse
import contextlib
import datetime as dt
import http.client
import json
import os
import random
import re
import signal
import socket
import statistics
import subprocess
import sys
import threading
import time
import uuid
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlencode, urlsplit

from bench.database import create_database

ROOT = Path(__file__).resolve().parents[2]
DEFAULT_DATABASE = "postgres://postgres@127.0.0.1:5432/mahjong_bench_entry"
SECRET = "bench-only-secret-key-0123456789-abcdefghijklmnopqrstuvwxyz-0123456789"
PLAYERS_PER_TABLE = 4
HANDS_PER_TABLE = 16  # MCR: a session has at most 16 hands


# -- the database and the tournament -------------------------------------------------------------------------


def setup_django(database_url: str) -> None:
    os.environ["DATABASE_URL"] = database_url
    os.environ["DEBUG"] = "1"  # the driver's own settings; the server runs with DEBUG off
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)


class Seating:
    """The tournament and its sessions, seated on demand: session s, table t seats p(4t+1)..p(4t+4)."""

    def __init__(self, tables: int):
        from tournaments import services
        from tournaments.models import Player, Registration

        self.tables = tables
        slug = "bench-entry-" + dt.datetime.now().strftime("%Y%m%d-%H%M%S")
        self.tournament = services.tournament_create(
            name="Entry benchmark", slug=slug, ruleset="mcr", starts_on=dt.date.today()
        )
        players = Player.objects.bulk_create(
            Player(first_name=f"Player{i}", last_name="Bench")
            for i in range(1, tables * PLAYERS_PER_TABLE + 1)
        )
        self.registrations = Registration.objects.bulk_create(
            Registration(tournament=self.tournament, player=p, key=f"p{i}")
            for i, p in enumerate(players, start=1)
        )
        self.keys = [r.key for r in self.registrations]
        self.sessions: dict[int, list[tuple[int, str]]] = {}  # session -> [(table id, table key)] by number
        self.lock = threading.Lock()

    def seat_keys(self, table_index: int) -> list[str]:
        return self.keys[table_index * PLAYERS_PER_TABLE : (table_index + 1) * PLAYERS_PER_TABLE]

    def table(self, session: int, table_index: int) -> tuple[int, str]:
        with self.lock:
            if session not in self.sessions:
                self.sessions[session] = self._seat(session)
        return self.sessions[session][table_index]

    def _seat(self, number: int) -> list[tuple[int, str]]:
        from django.db import transaction

        from tournaments.models import Seat, Session, Table

        with transaction.atomic():
            session = Session.objects.create(tournament=self.tournament, number=number, status="playing")
            tables = Table.objects.bulk_create(
                Table(session=session, number=n) for n in range(1, self.tables + 1)
            )
            Seat.objects.bulk_create(
                Seat(table=t, session=session, position=p, registration=self.registrations[i * 4 + p])
                for i, t in enumerate(tables)
                for p in range(PLAYERS_PER_TABLE)
            )
        return [(t.pk, t.private_key) for t in tables]


# -- the server ----------------------------------------------------------------------------------------------


def start_server(
    database_url: str, port: int, workers: int, threads: int, pages: bool = False
) -> subprocess.Popen:
    env = {
        **os.environ,
        "DATABASE_URL": database_url,
        "DEBUG": "0",
        "SECRET_KEY": SECRET,
        "ALLOWED_HOSTS": "127.0.0.1,localhost",
        "SECURE_SSL_REDIRECT": "false",
        "LOG_LEVEL": "ERROR",  # 409s are expected here: no log line each
        "AXES_ENABLED": "false",
    }
    if pages:  # the pages name their static files from the manifest, as in production
        subprocess.run(
            [sys.executable, "manage.py", "collectstatic", "--noinput", "-v", "0"],
            cwd=ROOT,
            env=env,
            check=True,
        )
    gunicorn = Path(sys.executable).parent / "gunicorn"
    command = [str(gunicorn), "config.wsgi", "--bind", f"127.0.0.1:{port}", "--workers", str(workers)]
    if threads > 1:
        command += ["--worker-class", "gthread", "--threads", str(threads)]
    command += ["--log-level", "warning", "--timeout", "60"]
    server = subprocess.Popen(command, cwd=ROOT, env=env)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if server.poll() is not None:  # never measure a server that is not ours
            raise SystemExit(f"gunicorn exited with code {server.returncode}")
        try:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
            conn.request("GET", "/healthz")
            if conn.getresponse().status in (200, 503):
                return server
        except OSError:
            time.sleep(0.2)
    server.terminate()
    raise SystemExit("the server did not start")


def start_worker() -> subprocess.Popen:
    """A Celery worker on the broker, as in production: the standings recomputes the writes queue are
    done (and cost the database what they cost) while the scorers write."""
    from django.conf import settings

    celery = Path(sys.executable).parent / "celery"
    env = {
        **os.environ,
        "DEBUG": "0",
        "SECRET_KEY": SECRET,
        "ALLOWED_HOSTS": "127.0.0.1",
        "LOG_LEVEL": "ERROR",
    }
    return subprocess.Popen(
        [str(celery), "-A", "config", "worker", "--pool=solo", "-Q", settings.CELERY_TASK_DEFAULT_QUEUE,
         "--loglevel=WARNING", "--without-gossip", "--without-mingle", "--without-heartbeat"],
        cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT,
    )  # fmt: skip


def workers_cpu(server: subprocess.Popen) -> dict[int, float]:
    """The CPU seconds (user and system) each gunicorn worker process has used so far, by process id (the
    workers are the server process's children; Linux's /proc; empty where it cannot be read)."""
    tick = os.sysconf("SC_CLK_TCK")
    try:
        children = Path(f"/proc/{server.pid}/task/{server.pid}/children").read_text().split()
    except OSError:
        return {}
    used = {}
    for pid in children:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        used[int(pid)] = (int(fields[11]) + int(fields[12])) / tick  # utime, stime
    return used


def cpu_between(before: dict[int, float], after: dict[int, float]) -> float | None:
    """The workers' CPU seconds between two readings (None when a worker was replaced meanwhile)."""
    if not before or before.keys() != after.keys():
        return None
    return sum(after[pid] - before[pid] for pid in after)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def stop_server(server: subprocess.Popen) -> None:
    server.send_signal(signal.SIGTERM)
    try:
        server.wait(20)
    except subprocess.TimeoutExpired:
        server.kill()


# -- the scorers ---------------------------------------------------------------------------------------------


@dataclass
class Tally:
    latencies: list[float] = field(default_factory=list)  # seconds, every request
    hand_latencies: list[float] = field(default_factory=list)  # seconds, hand posts that were answered
    codes: Counter = field(default_factory=Counter)
    acknowledged: list[tuple[int, int, dict]] = field(default_factory=list)  # (table id, number, hand)
    writes: Counter = field(default_factory=Counter)  # table id -> acknowledged writes (hands and submits)
    tables_filled: int = 0
    errors: list[str] = field(default_factory=list)
    dropped: int = 0  # answers the scorer hung up on before reading
    replayed: int = 0  # answers marked Idempotent-Replayed (the stored answer of an earlier request)


def random_hand(rng: random.Random, keys: list[str]) -> dict:
    if rng.random() < 0.1:
        return {"result": "draw"}
    winner = rng.randrange(4)
    discarder = None if rng.random() < 0.3 else rng.choice([s for s in range(4) if s != winner])
    return {
        "result": "win",
        "winner": keys[winner],
        "discarder": None if discarder is None else keys[discarder],
        "fan": rng.randint(8, 24),
    }


class Scorer(threading.Thread):
    def __init__(
        self,
        number: int,
        seating: Seating,
        port: int,
        stop_at: float,
        tally: Tally,
        tally_lock,
        drop: float = 0.0,
    ):
        super().__init__(name=f"scorer-{number}", daemon=True)
        self.number = number
        self.seating = seating
        self.table_index = number % seating.tables
        self.port = port
        self.stop_at = stop_at
        self.tally = tally
        self.tally_lock = tally_lock
        self.rng = random.Random(number)
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        self.local = Tally()
        self.drop = drop  # share of writes whose first answer is dropped (0: no Idempotency-Key sent)

    def request(self, method: str, path: str, key: str, body: dict) -> tuple[int, dict, float]:
        data = json.dumps(body).encode()
        headers = {"Content-Type": "application/json", "X-Table-Key": key, "Accept": "application/json"}
        if self.drop:
            headers["Idempotency-Key"] = uuid.uuid4().hex  # one per write; a resend reuses it
            if self.rng.random() < self.drop:
                with contextlib.suppress(OSError):  # the whole request goes out; the answer is never read
                    self.conn.request(method, path, body=data, headers=headers)
                self.conn.close()
                self.local.dropped += 1
        start = time.perf_counter()
        for attempt in (1, 2):
            try:
                self.conn.request(method, path, body=data, headers=headers)
                response = self.conn.getresponse()
                payload = response.read()
                break
            except (http.client.RemoteDisconnected, BrokenPipeError, ConnectionResetError):
                self.conn.close()  # a closed keep-alive connection: reconnect once
                if attempt == 2:
                    raise
        elapsed = time.perf_counter() - start
        self.local.latencies.append(elapsed)
        self.local.codes[response.status] += 1
        if response.getheader("Idempotent-Replayed") == "true":
            self.local.replayed += 1
        try:
            return response.status, json.loads(payload or b"{}"), elapsed
        except ValueError:
            return response.status, {"detail": payload[:200].decode(errors="replace")}, elapsed

    def run(self) -> None:
        from django.db import connections

        try:
            self.play()
        except Exception as exc:  # reported, never hidden
            self.local.errors.append(f"{self.name}: {type(exc).__name__}: {exc}")
        finally:
            connections.close_all()
            with self.tally_lock:
                for name in ("latencies", "hand_latencies", "acknowledged", "errors"):
                    getattr(self.tally, name).extend(getattr(self.local, name))
                self.tally.codes.update(self.local.codes)
                self.tally.writes.update(self.local.writes)
                self.tally.tables_filled += self.local.tables_filled
                self.tally.dropped += self.local.dropped
                self.tally.replayed += self.local.replayed

    def play(self) -> None:
        session, version = 1, 1
        keys = self.seating.seat_keys(self.table_index)
        table_id, key = self.seating.table(session, self.table_index)
        hand = random_hand(self.rng, keys)
        while time.monotonic() < self.stop_at:
            path = f"/api/tables/{table_id}/result/hands/"
            status, body, elapsed = self.request("POST", path, key, {**hand, "version": version})
            full = False
            if status == 201:
                self.local.hand_latencies.append(elapsed)
                number = len(body["hands"])
                self.local.acknowledged.append((table_id, number, hand))
                self.local.writes[table_id] += 1
                version = body["version"]
                hand = random_hand(self.rng, keys)
                full = number >= HANDS_PER_TABLE
            elif status == 409:
                self.local.hand_latencies.append(elapsed)
                version = body["current_version"]  # someone else wrote: retry on the version reported
                full = len(body["result"]["hands"]) >= HANDS_PER_TABLE
            elif status == 400 and "at most 16 hands" in body.get("detail", ""):
                full = True  # another scorer sharing the table filled it
            else:
                raise RuntimeError(f"POST {path} answered {status}: {body}")
            if full:
                status, body, _ = self.request(
                    "POST", f"/api/tables/{table_id}/result/submit/", key, {"version": version}
                )
                if status == 200:
                    self.local.writes[table_id] += 1
                    self.local.tables_filled += 1
                elif status not in (400, 409):  # already submitted or moved on by a scorer sharing it
                    raise RuntimeError(f"submit answered {status}: {body}")
                session, version = session + 1, 1
                table_id, key = self.seating.table(session, self.table_index)


# -- the check -----------------------------------------------------------------------------------------------


def verify(seating: Seating, tally: Tally) -> dict:
    """Every acknowledged hand is stored exactly once, as sent; nothing else is stored."""
    from scoring import handshape
    from scoring.models import Hand, TableResult

    stored = {
        (table_id, number): data
        for table_id, number, data in Hand.objects.filter(
            result__table__session__tournament=seating.tournament
        ).values_list("result__table_id", "number", "data")
    }
    table_index = {
        table_id: index for tables in seating.sessions.values() for index, (table_id, _) in enumerate(tables)
    }
    seen = Counter((t, n) for t, n, _ in tally.acknowledged)
    duplicated_acks = sum(1 for c in seen.values() if c > 1)
    lost = mismatched = 0
    for table_id, number, hand in tally.acknowledged:
        data = stored.get((table_id, number))
        if data is None:
            lost += 1
            continue
        expected = handshape.to_seats(hand, seating.seat_keys(table_index[table_id]))
        if data != expected:
            mismatched += 1
    versions = dict(
        TableResult.objects.filter(table__session__tournament=seating.tournament).values_list(
            "table_id", "version"
        )
    )
    version_faults = sum(1 for t, v in versions.items() if v != 1 + tally.writes.get(t, 0))
    return {
        "acknowledged": len(tally.acknowledged),
        "stored": len(stored),
        "lost": lost,
        "duplicated": duplicated_acks,
        "changed": mismatched,
        "stored_but_not_acknowledged": len(stored) - (len(seen) - lost),
        "versions_off": version_faults,
    }


# -- phones flushing their offline queue ---------------------------------------------------------------------

PAGE_CSRF = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')
PAGE_VERSION = re.compile(r'id="offline-entry"[^>]*data-version="([0-9]+)"')


def offline_hand(rng: random.Random) -> dict[str, str]:
    """The hand form's fields for a random MCR hand (seats 0..3), as the table page posts them."""
    if rng.random() < 0.1:
        return {"result": "draw"}
    winner = rng.randrange(4)
    discarder = "self" if rng.random() < 0.3 else str(rng.choice([s for s in range(4) if s != winner]))
    return {"result": "win", "winner": str(winner), "discarder": discarder, "fan": str(rng.randint(8, 24))}


class Phone:
    """A table's phone with 16 hands entered offline, queued as the table page queues them: each with
    its own idempotency key and the version it was entered against (the page's version, then one more for
    each hand before it)."""

    def __init__(self, number: int, port: int, table_id: int, key: str):
        self.table_id = table_id
        self.page = f"/table/{key}/"
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        self.rng = random.Random(10_000 + number)
        # online, before the outage: the page, its CSRF cookie and token, the table's version
        self.conn.request("GET", self.page)
        response = self.conn.getresponse()
        html = response.read().decode()
        if response.status != 200:
            raise RuntimeError(f"GET {self.page} answered {response.status}")
        cookie = response.getheader("Set-Cookie") or ""
        self.cookie = cookie.split(";", 1)[0]
        token = PAGE_CSRF.search(html).group(1)
        version = int(PAGE_VERSION.search(html).group(1))
        self.queue = []
        for i in range(HANDS_PER_TABLE):
            hand = offline_hand(self.rng)
            fields = {
                "csrfmiddlewaretoken": token,
                "action": "hand",
                "version": str(version + i),
                "idempotency_key": uuid.uuid4().hex,
                **hand,
            }
            self.queue.append((hand, fields))
        self.seconds = 0.0
        self.errors: list[str] = []

    def flush(self) -> None:
        """Send the queue in order as the page's script does, each hand waiting for its answer: one request
        that stores the hand and answers the page's fragments that changed."""
        start = time.perf_counter()
        headers = {
            "Content-Type": "application/x-www-form-urlencoded",
            "Cookie": self.cookie,
            "X-Entry-Fragments": "1",
        }
        for number, (_, fields) in enumerate(self.queue, start=1):
            self.conn.request("POST", self.page, body=urlencode(fields), headers=headers)
            response = self.conn.getresponse()
            response.read()
            if response.status != 200:
                self.errors.append(f"hand {number}: POST answered {response.status}")
                break
        self.seconds = time.perf_counter() - start

    def check(self) -> dict[str, int]:
        from scoring.models import Hand

        stored = list(
            Hand.objects.filter(result__table_id=self.table_id)
            .order_by("number")
            .values_list("number", "data")
        )
        expected = []
        for hand, _ in self.queue:
            if hand["result"] == "draw":
                expected.append({"result": "draw"})
            else:
                discarder = None if hand["discarder"] == "self" else int(hand["discarder"])
                expected.append(
                    {
                        "result": "win",
                        "winner": int(hand["winner"]),
                        "discarder": discarder,
                        "fan": int(hand["fan"]),
                    }
                )
        data = [d for _, d in stored]
        return {
            "stored": len(stored),
            "in_order_as_sent": int(data == expected),
            "duplicated": max(0, len(stored) - len(expected)),
        }


def offline_flush(seating: Seating, port: int, phones: int) -> dict:
    """Flush times of 16-hand queues: one phone alone, then ``phones`` phones at once."""
    from django.db import connections

    session = max(seating.sessions) + 1
    results = {}
    for label, count in (("one_phone_alone", 1), (f"{phones}_phones_at_once", phones)):
        tables = [seating.table(session, i) for i in range(count)]
        session += 1
        queue = [Phone(i, port, table_id, key) for i, (table_id, key) in enumerate(tables)]
        threads = [threading.Thread(target=p.flush) for p in queue]
        started = time.perf_counter()
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        wall = time.perf_counter() - started
        connections.close_all()
        checks = [p.check() for p in queue]
        seconds = [p.seconds for p in queue]
        results[label] = {
            "phones": count,
            "hands_queued": count * HANDS_PER_TABLE,
            "hands_stored": sum(c["stored"] for c in checks),
            "queues_stored_in_order_as_sent": sum(c["in_order_as_sent"] for c in checks),
            "duplicated": sum(c["duplicated"] for c in checks),
            "flush_seconds_p50": round(percentile(seconds, 50), 2),
            "flush_seconds_max": round(max(seconds), 2),
            "wall_seconds": round(wall, 2),
            "errors": [e for p in queue for e in p.errors][:10],
        }
    return results


def _wire_bytes(response: http.client.HTTPResponse, body: bytes) -> int:
    """What an answer weighs on the wire: status line, headers and the body as sent (compressed or not)."""
    return len(f"HTTP/1.1 {response.status} {response.reason}\r\n") + len(str(response.msg)) + len(body)


class OnlinePhone(Phone):
    """One scorer at a table on a good network saving 16 hands through the table page: as its script does
    (one request: the hand stored, the fragments that changed answered, ``X-Entry-Fragments``) or, to
    compare, as the form does without the script (the POST, then the whole page it redirects to); gzip
    accepted as a browser does. Measured per hand: the bytes of the answers on the wire and the time from
    the tap (the POST leaves) to "saved" (the answer is read)."""

    def save_all(self, fragments: bool) -> None:
        headers = {
            "Content-Type": "application/x-www-form-urlencoded",
            "Cookie": self.cookie,
            "Accept-Encoding": "gzip, deflate, br",
        }
        if fragments:
            headers["X-Entry-Fragments"] = "1"
        self.wire: list[int] = []
        self.tap_to_saved: list[float] = []
        for number, (_, fields) in enumerate(self.queue, start=1):
            start = time.perf_counter()
            self.conn.request("POST", self.page, body=urlencode(fields), headers=headers)
            post = self.conn.getresponse()
            size = _wire_bytes(post, post.read())
            if post.status != (200 if fragments else 302):
                self.errors.append(f"hand {number}: POST answered {post.status}")
                break
            if not fragments:
                get_headers = {k: v for k, v in headers.items() if k != "Content-Type"}
                self.conn.request("GET", post.getheader("Location").split("#")[0], headers=get_headers)
                page = self.conn.getresponse()
                size += _wire_bytes(page, page.read())
            self.tap_to_saved.append(time.perf_counter() - start)
            self.wire.append(size)


ONLINE_TABLES = 4  # tables one scorer fills through the page, one after the other, for each way


def online_phone(seating: Seating, port: int, server: subprocess.Popen) -> dict:
    """Bytes per saved hand, tap-to-saved times and the server's CPU per saved hand of one scorer filling
    ``ONLINE_TABLES`` tables, as the page's script saves against the form without it."""
    from django.db import connections

    session = max(seating.sessions) + 1
    # a worker's first saves import and compile what a save needs (modules loaded on first use, from source
    # where no bytecode is cached; templates): one table each way, saved before and left out of the figures
    for fragments in (True, False):
        table_id, key = seating.table(session, 0)
        session += 1
        OnlinePhone(0, port, table_id, key).save_all(fragments)
    results = {}
    for label, fragments in (("fragments", True), ("whole_page", False)):
        phones = []
        for _ in range(ONLINE_TABLES):
            table_id, key = seating.table(session, 0)
            session += 1
            phones.append(OnlinePhone(len(phones), port, table_id, key))
        before = workers_cpu(server)
        for phone in phones:
            phone.save_all(fragments)
        cpu = cpu_between(before, workers_cpu(server))
        connections.close_all()
        checks = [phone.check() for phone in phones]
        wire = [size for phone in phones for size in phone.wire]
        ms = [1000 * v for phone in phones for v in phone.tap_to_saved]
        saved = sum(c["stored"] for c in checks)
        results[label] = {
            "hands_saved": saved,
            "stored_in_order_as_sent": all(c["in_order_as_sent"] for c in checks),
            "bytes_on_the_wire_per_hand_mean": round(statistics.fmean(wire)) if wire else None,
            "bytes_on_the_wire_per_hand_max": max(wire) if wire else None,
            "tap_to_saved_ms_p50": round(percentile(ms, 50), 1),
            "tap_to_saved_ms_p95": round(percentile(ms, 95), 1),
            # the gunicorn workers' CPU while the hands were saved (each phone read its page before)
            "server_cpu_ms_per_hand": round(1000 * cpu / saved, 2) if cpu and saved else None,
            "errors": [e for phone in phones for e in phone.errors][:10],
        }
    return results


def percentile(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


def parse_arguments(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m bench.entry", description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=60, help="how long the scorers post (default 60)")
    parser.add_argument("--scorers", type=int, default=100, help="concurrent scorers (default 100)")
    parser.add_argument(
        "--tables", type=int, default=None, help="tables per session (default: one per scorer; fewer: shared)"
    )
    parser.add_argument("--workers", type=int, default=4, help="gunicorn worker processes (default 4)")
    parser.add_argument(
        "--threads", type=int, default=1, help="gunicorn threads per worker (1: sync workers)"
    )
    parser.add_argument("--port", type=int, default=0, help="server port (default: a free one)")
    parser.add_argument(
        "--drop",
        type=float,
        default=0,
        help="percent of writes whose answer is dropped and that are sent again with their Idempotency-Key",
    )
    parser.add_argument(
        "--offline-phones",
        type=int,
        default=0,
        help="after the run, phones that flush 16 hands queued offline (one alone, then all at once)",
    )
    parser.add_argument(
        "--phone",
        action="store_true",
        help="after the run, one scorer saves 16 hands through the table page: bytes per hand, tap to saved",
    )
    args = parser.parse_args(argv)
    tables = args.tables or args.scorers
    if args.offline_phones > tables:
        raise SystemExit("--offline-phones cannot exceed the tables per session")
    if not 0 <= args.drop < 100:
        raise SystemExit("--drop is a percentage below 100")

    return args


def main(argv: list[str] | None = None) -> int:
    args = parse_arguments(argv)
    tables = args.tables or args.scorers
    database_url = os.environ.get("DATABASE_URL", DEFAULT_DATABASE)
    if not database_url.startswith(("postgres://", "postgresql://")):
        raise SystemExit("the entry benchmark needs PostgreSQL: set DATABASE_URL=postgres://…")
    create_database(database_url)
    setup_django(database_url)
    seating = Seating(tables)
    seating.table(1, 0)  # session 1 seated before the clock starts
    print(
        f"tournament {seating.tournament.slug}: {tables * PLAYERS_PER_TABLE} players, {tables} tables a session; "
        f"{args.scorers} scorers for {args.seconds:g} s against gunicorn ({args.workers} workers × "
        f"{args.threads} threads) on {urlsplit(database_url).path.lstrip('/')}",
        flush=True,
    )
    port = args.port or free_port()
    server = start_server(
        database_url, port, args.workers, args.threads, pages=bool(args.offline_phones or args.phone)
    )
    worker = start_worker() if os.environ.get("CELERY_BROKER_URL") else None
    tally, lock = Tally(), threading.Lock()
    try:
        cpu_before = workers_cpu(server)
        started = time.monotonic()
        scorers = [
            Scorer(i, seating, port, started + args.seconds, tally, lock, drop=args.drop / 100)
            for i in range(args.scorers)
        ]
        for scorer in scorers:
            scorer.start()
        for scorer in scorers:
            scorer.join()
        elapsed = time.monotonic() - started
        server_cpu = cpu_between(cpu_before, workers_cpu(server))
        check = verify(seating, tally)  # before the phones add their own tables
        flush = offline_flush(seating, port, args.offline_phones) if args.offline_phones else None
        phone = online_phone(seating, port, server) if args.phone else None
    finally:
        stop_server(server)
        if worker is not None:
            stop_server(worker)

    report = build_report(args, elapsed, server_cpu, tally, seating, check, flush, phone)
    print(json.dumps(report, indent=2))
    ok = all_good(tally, check, flush, phone)
    print("every acknowledged hand is stored exactly once" if ok else "CHECK FAILED")
    return 0 if ok else 1


def build_report(args, elapsed: float, server_cpu, tally, seating, check: dict, flush, phone) -> dict:
    """The run's figures: requests, latency, the server's CPU, status codes and the check of every hand."""
    ms = [1000 * v for v in tally.latencies]
    hand_ms = [1000 * v for v in tally.hand_latencies]
    report = {
        "seconds": round(elapsed, 1),
        "requests": len(ms),
        "requests_per_second": round(len(ms) / elapsed, 1),
        "hands_per_second": round(check["acknowledged"] / elapsed, 1),
        "latency_ms": {
            "p50": round(percentile(ms, 50), 1),
            "p95": round(percentile(ms, 95), 1),
            "p99": round(percentile(ms, 99), 1),
            "mean": round(statistics.fmean(ms), 1) if ms else None,
            "max": round(max(ms), 1) if ms else None,
        },
        "hand_post_latency_ms": {
            "p50": round(percentile(hand_ms, 50), 1),
            "p95": round(percentile(hand_ms, 95), 1),
            "p99": round(percentile(hand_ms, 99), 1),
        },
        # the application's CPU: the gunicorn workers' (user and system) during the timed run, per request
        "server_cpu_ms_per_request": round(1000 * server_cpu / len(ms), 2) if server_cpu and ms else None,
        "status_codes": dict(sorted(tally.codes.items())),
        "conflicts_409": tally.codes.get(409, 0),
        "tables_filled_and_submitted": tally.tables_filled,
        "sessions_seated": len(seating.sessions),
        "check": check,
        "errors": tally.errors[:10],
    }
    if args.drop:
        report["dropped_answers"] = {
            "percent_asked": args.drop,
            "dropped_and_sent_again": tally.dropped,
            "answers_replayed": tally.replayed,
        }
    if flush is not None:
        report["offline_flush"] = flush
    if phone is not None:
        report["one_phone_online"] = phone
    return report


def all_good(tally, check: dict, flush, phone) -> bool:
    """Every acknowledged hand stored exactly once, and so for the offline phones and the online phone."""
    ok = not tally.errors and all(check[k] == 0 for k in ("lost", "duplicated", "changed", "versions_off"))
    ok = ok and check["stored_but_not_acknowledged"] == 0
    if flush is not None:
        ok = ok and all(
            f["hands_stored"] == f["hands_queued"]
            and f["duplicated"] == 0
            and not f["errors"]
            and f["queues_stored_in_order_as_sent"] == f["phones"]
            for f in flush.values()
        )
    if phone is not None:
        ok = ok and all(
            p["hands_saved"] == HANDS_PER_TABLE * ONLINE_TABLES
            and p["stored_in_order_as_sent"]
            and not p["errors"]
            for p in phone.values()
        )
    return ok


if __name__ == "__main__":
    raise SystemExit(main())
