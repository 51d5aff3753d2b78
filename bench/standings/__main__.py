"""Standings benchmark: ``python -m bench.standings`` (see README.md beside this file).

1. A synthetic MCR tournament: 400 players, 10 sessions, 1000 tables of 16 hands each, played through the
   MCR engine and written in bulk (hands, confirmed results, per-seat summary rows).
2. The full recompute: time and number of queries.
3. Confirmation → new snapshot, with a real Celery worker process.
4. The standings page under 50 concurrent clients for 30 s (gunicorn, 2 workers), side by side with the
   same bytes served as a static file by the same server (whitenoise), with and without gzip.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import signal
import statistics
import subprocess
import sys
import time
from pathlib import Path
from urllib.parse import urlsplit

from bench.database import create_database

ROOT = Path(__file__).resolve().parents[2]
SLUG = "bench-400"
PLAYERS, SESSIONS, HANDS = 400, 10, 16
DEFAULTS = {
    "DATABASE_URL": "postgres://postgres@127.0.0.1:5432/mahjong_bench_standings",
    "REDIS_URL": "redis://127.0.0.1:6379/13",
    "CELERY_BROKER_URL": "redis://127.0.0.1:6379/14",
}
SECRET = "bench-only-secret-key-0123456789-abcdefghijklmnopqrstuvwxyz-0123456789"


def environment() -> dict[str, str]:
    env = {**os.environ}
    for key, value in DEFAULTS.items():
        env.setdefault(key, value)
    env.setdefault("CACHE_KEY_PREFIX", "bench-standings")
    return env


def setup_django(env: dict[str, str]) -> None:
    os.environ.update({k: env[k] for k in (*DEFAULTS, "CACHE_KEY_PREFIX")})
    os.environ["DEBUG"] = "1"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()
    import logging

    logging.getLogger("rankings.standings.services").setLevel(logging.WARNING)
    from django.core.management import call_command

    call_command("migrate", verbosity=0)


# -- 1. the synthetic tournament -----------------------------------------------------------------------


def random_hands(rng: random.Random) -> list[dict]:
    hands = []
    for _ in range(HANDS):
        if rng.random() < 0.12:
            hands.append({"result": "draw"})
            continue
        winner = rng.randrange(4)
        discarder = None if rng.random() < 0.3 else rng.choice([s for s in range(4) if s != winner])
        hands.append({"result": "win", "winner": winner, "discarder": discarder, "fan": rng.randrange(8, 25)})
    return hands


def build_tournament(slug: str = SLUG):
    """The tournament, built once and reused by later runs (drop the database to rebuild it)."""
    from django.db import transaction
    from django.utils import timezone

    from rankings.standings.services import standings_refresh
    from scoring.models import Hand, SeatSummary, TableResult
    from tournaments import services as tservices
    from tournaments.models import Player, Registration, Seat, Session, Table, Tournament

    existing = Tournament.objects.filter(slug=slug).first()
    if existing is not None:
        return existing
    started = time.perf_counter()
    rng = random.Random(400)
    with transaction.atomic():
        import datetime as dt

        tournament = tservices.tournament_create(
            name="Benchmark Open (400 players)", slug=slug, ruleset="mcr", starts_on=dt.date(2026, 6, 1),
            days=3, sessions=SESSIONS,
        )  # fmt: skip
        rules = tournament.get_rules()
        players = Player.objects.bulk_create(
            Player(
                first_name=f"Player{i}",
                last_name=f"Bench{i % 37}",
                country=["ESP", "FRA", "DEU", "NLD"][i % 4],
            )
            for i in range(1, PLAYERS + 1)
        )
        registrations = Registration.objects.bulk_create(
            Registration(tournament=tournament, player=p, key=f"p{i}") for i, p in enumerate(players, start=1)
        )
        now = timezone.now()
        for session in Session.objects.filter(tournament=tournament).order_by("number"):
            order = registrations[:]
            rng.shuffle(order)
            tables = Table.objects.bulk_create(Table(session=session, number=n) for n in range(1, 101))
            seats, results, summaries, hands = [], [], [], []
            for n, table in enumerate(tables):
                seated = order[4 * n : 4 * n + 4]
                seats += [
                    Seat(table=table, session=session, position=p, registration=r)
                    for p, r in enumerate(seated)
                ]
                data = random_hands(rng)
                outcome = rules.table_result(rules.play_game(data))
                results.append(
                    TableResult(table=table, status="confirmed", version=HANDS + 2, confirmed_at=now)
                )
                hands.append(data)
                for position, seat in enumerate(outcome.seats):
                    summaries.append(
                        SeatSummary(
                            tournament=tournament, session=session, table=table, position=position,
                            registration=seated[position], game_score=seat.game_score,
                            table_points=seat.table_points, uma=seat.uma, transfers=seat.transfers,
                            chombo=seat.chombo, penalties=seat.penalties, final=seat.final,
                            result_version=HANDS + 2,
                        )
                    )  # fmt: skip
            Seat.objects.bulk_create(seats)
            results = TableResult.objects.bulk_create(results)
            Hand.objects.bulk_create(
                Hand(result=result, number=i, data=hand)
                for result, data in zip(results, hands, strict=True)
                for i, hand in enumerate(data, start=1)
            )
            SeatSummary.objects.bulk_create(summaries)
        Session.objects.filter(tournament=tournament).update(status="finished", seating_published=True)
    standings_refresh(tournament_id=tournament.pk)
    print(f"built {slug}: {PLAYERS} players, {SESSIONS} sessions, 1000 tables, 16000 hands "
          f"in {time.perf_counter() - started:.1f} s")  # fmt: skip
    return tournament


# -- 2. full recompute -----------------------------------------------------------------------------------


def measure_recompute(tournament, runs: int = 7) -> dict:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from rankings.standings.selectors import standings_view
    from rankings.standings.services import standings_refresh

    compute_times, full_times, queries = [], [], set()
    for _ in range(runs):
        started = time.perf_counter()
        standings_view(tournament=tournament)
        compute_times.append(time.perf_counter() - started)
        with CaptureQueriesContext(connection) as captured:
            started = time.perf_counter()
            state = standings_refresh(tournament_id=tournament.pk)
            full_times.append(time.perf_counter() - started)
        queries.add(len(captured))
    assert len(state.document["standings"]) == PLAYERS
    return {
        "compute_median_s": statistics.median(compute_times),
        "full_median_s": statistics.median(full_times),
        "full_max_s": max(full_times),
        "queries": sorted(queries),
    }


# -- 3. confirmation → snapshot with a real worker ----------------------------------------------------


def start_worker(env: dict[str, str], log: Path) -> subprocess.Popen:
    from django.conf import settings

    celery = Path(sys.executable).parent / "celery"
    return subprocess.Popen(
        [str(celery), "-A", "config", "worker", "--pool=solo", "-Q", settings.CELERY_TASK_DEFAULT_QUEUE,
         "--loglevel=WARNING", "--without-gossip", "--without-mingle", "--without-heartbeat"],
        cwd=ROOT, env={**env, "DEBUG": "1"}, stdout=log.open("w"), stderr=subprocess.STDOUT,
    )  # fmt: skip


def wait_fresh(tournament, timeout: float = 60) -> float:
    from rankings.models import StandingsState

    started = time.perf_counter()
    while time.perf_counter() - started < timeout:
        state = StandingsState.objects.get(tournament=tournament)
        if state.computed_version >= state.input_version:
            return time.perf_counter() - started
        time.sleep(0.01)
    raise RuntimeError("the worker did not update the standings in time")


def measure_confirmation(tournament, env: dict[str, str], runs: int = 5) -> dict:
    from django.contrib.auth import get_user_model

    from scoring.services import result_confirm, result_reopen
    from tournaments.models import Session, Table
    from tournaments.permissions import Actor
    from tournaments.sessions.services import session_reopen

    user, _ = get_user_model().objects.get_or_create(username="bench-referee")
    actor = Actor(user=user, role="director")
    table = Table.objects.get(session__tournament=tournament, session__number=SESSIONS, number=1)
    # a finished session's results are read-only: the director reopens the last one first, as at a venue
    # where a table's result is corrected after the session ended
    if table.session.status == Session.Status.FINISHED:
        session_reopen(session=table.session, reason="benchmark: a result corrected", user=user)
        table.refresh_from_db()
    log = ROOT / "bench" / "standings" / "results" / "worker.log"
    log.parent.mkdir(exist_ok=True)
    worker = start_worker(env, log)
    latencies = []
    try:
        time.sleep(3)
        for _ in range(runs):
            result_reopen(table=table, actor=actor, reason="benchmark")
            wait_fresh(tournament)
            started = time.perf_counter()
            result_confirm(table=table, actor=actor, expected_version=None)
            wait_fresh(tournament)
            latencies.append(time.perf_counter() - started)
    finally:
        worker.send_signal(signal.SIGTERM)
        worker.wait(timeout=30)
    return {"median_s": statistics.median(latencies), "max_s": max(latencies), "runs": len(latencies)}


# -- 4. HTTP load --------------------------------------------------------------------------------------


async def _client(
    host: str, port: int, path: str, until: float, latencies: list, errors: list, sizes: list, gzip_ok: bool
) -> None:
    encoding = "Accept-Encoding: gzip\r\n" if gzip_ok else ""
    request = (
        f"GET {path} HTTP/1.1\r\nHost: {host}\r\nAccept-Language: en\r\n{encoding}Connection: close\r\n\r\n"
    ).encode()
    while time.perf_counter() < until:
        started = time.perf_counter()
        try:
            reader, writer = await asyncio.open_connection(host, port)
            writer.write(request)
            data = await reader.read()
            writer.close()
            if not data.startswith(b"HTTP/1.1 200") and not data.startswith(b"HTTP/1.0 200"):
                errors.append(data[:40])
                continue
        except OSError as exc:
            errors.append(str(exc))
            await asyncio.sleep(0.01)
            continue
        latencies.append(time.perf_counter() - started)
        if len(sizes) < 50:
            sizes.append(len(data))


async def _load(url: str, clients: int, seconds: float, gzip_ok: bool = True) -> dict:
    parts = urlsplit(url)
    latencies: list[float] = []
    errors: list = []
    sizes: list[int] = []
    started = time.perf_counter()
    until = started + seconds
    await asyncio.gather(
        *(
            _client(parts.hostname, parts.port, parts.path, until, latencies, errors, sizes, gzip_ok)
            for _ in range(clients)
        )
    )
    elapsed = time.perf_counter() - started
    latencies.sort()

    def pct(p: float) -> float:
        return (
            latencies[min(len(latencies) - 1, int(p * len(latencies)))] * 1000 if latencies else float("nan")
        )

    return {
        "requests": len(latencies), "errors": len(errors), "rps": len(latencies) / elapsed,
        "p50_ms": pct(0.50), "p95_ms": pct(0.95), "p99_ms": pct(0.99),
        "wire_bytes": max(sizes) if sizes else 0,
    }  # fmt: skip


def _start_server(env: dict[str, str], port: int, threads: int, log: Path) -> subprocess.Popen:
    gunicorn = Path(sys.executable).parent / "gunicorn"
    return subprocess.Popen(
        [str(gunicorn), "config.wsgi", "--workers", "2", "--threads", str(threads), "--bind", f"127.0.0.1:{port}",
         "--backlog", "2048", "--log-level", "warning"],
        cwd=ROOT, env=env, stdout=log.open("a"), stderr=subprocess.STDOUT,
    )  # fmt: skip


def _stop(server: subprocess.Popen) -> None:
    server.send_signal(signal.SIGTERM)
    server.wait(timeout=30)


def _fetch(url: str, gzip_ok: bool = False) -> bytes:
    import urllib.request

    request = urllib.request.Request(
        url, headers={"Accept-Language": "en"} | ({"Accept-Encoding": "gzip"} if gzip_ok else {})
    )
    for _ in range(100):
        try:
            with urllib.request.urlopen(request, timeout=5) as response:
                return response.read()
        except OSError:
            time.sleep(0.2)
    raise RuntimeError(f"{url} did not answer")


def measure_http(env: dict[str, str], clients: int, seconds: float, port: int, threads: int) -> dict:
    """The standings page against the same bytes served as a static file (whitenoise, with its gzip
    form beside it, as collectstatic makes them), same server, same run; with and without gzip."""
    import gzip

    from django.conf import settings

    server_env = {
        **env, "DEBUG": "0", "SECRET_KEY": SECRET, "ALLOWED_HOSTS": "127.0.0.1",
        "SECURE_SSL_REDIRECT": "false", "LOG_LEVEL": "WARNING",
    }  # fmt: skip
    subprocess.run(
        [sys.executable, "manage.py", "collectstatic", "--noinput", "-v0"],
        cwd=ROOT,
        env=server_env,
        check=True,
    )
    log = ROOT / "bench" / "standings" / "results" / "gunicorn.log"
    log.write_text("")
    base = f"http://127.0.0.1:{port}"
    page = f"{base}/t/{SLUG}/standings/"
    # 1. the page's own bytes, written as a static file (whitenoise indexes files when it starts)
    server = _start_server(server_env, port, threads, log)
    try:
        body = _fetch(page)
    finally:
        _stop(server)
    static_dir = Path(settings.STATIC_ROOT) / "bench"
    static_dir.mkdir(parents=True, exist_ok=True)
    (static_dir / "standings-400.html").write_bytes(body)
    (static_dir / "standings-400.html.gz").write_bytes(gzip.compress(body, 6, mtime=0))
    static = f"{base}/static/bench/standings-400.html"
    # 2. both under load, gzip accepted (as every browser does), then without
    server = _start_server(server_env, port, threads, log)
    try:
        assert _fetch(static) == body
        asyncio.run(_load(page, clients, 3))  # warm up both workers and the cache
        results = {
            "page": asyncio.run(_load(page, clients, seconds)),
            "static": asyncio.run(_load(static, clients, seconds)),
            "page_plain": asyncio.run(_load(page, clients, seconds / 2, gzip_ok=False)),
            "static_plain": asyncio.run(_load(static, clients, seconds / 2, gzip_ok=False)),
        }
    finally:
        _stop(server)
    results["in_process_us"] = measure_in_process(server_env)
    results["body_bytes"] = len(body)
    results["ratio"] = results["page"]["rps"] / results["static"]["rps"]
    results["ratio_plain"] = results["page_plain"]["rps"] / results["static_plain"]["rps"]
    return results


def measure_in_process(env: dict[str, str], runs: int = 3000) -> dict:
    """The server's own cost of one request, without sockets or the load generator: the WSGI application
    called directly (DEBUG off, as served) for the cached standings page and for the same bytes as a static
    file, gzip accepted. Median microseconds per request over ``runs``."""
    server_env = {
        "DEBUG": "0", "SECRET_KEY": SECRET, "ALLOWED_HOSTS": "127.0.0.1", "SECURE_SSL_REDIRECT": "false",
    }  # fmt: skip
    code = (
        "import io, os, statistics, sys, time, json\n"
        "from config.wsgi import application\n"
        "def call(path):\n"
        "    environ = {'REQUEST_METHOD': 'GET', 'PATH_INFO': path, 'SERVER_NAME': '127.0.0.1', 'SERVER_PORT': '80',\n"
        "               'HTTP_HOST': '127.0.0.1', 'HTTP_ACCEPT_ENCODING': 'gzip', 'HTTP_ACCEPT_LANGUAGE': 'en',\n"
        "               'wsgi.input': io.BytesIO(), 'wsgi.url_scheme': 'http', 'wsgi.errors': sys.stderr,\n"
        "               'wsgi.multithread': True, 'wsgi.multiprocess': True, 'wsgi.run_once': False, 'QUERY_STRING': ''}\n"
        "    out = []\n"
        "    body = application(environ, lambda status, headers, exc=None: out.append(status))\n"
        "    data = b''.join(body); getattr(body, 'close', lambda: None)()\n"
        "    assert out[0].startswith('200'), (path, out)\n"
        "    return len(data)\n"
        f"runs = {runs}\n"
        "result = {}\n"
        "for name, path in (('page', '/t/%s/standings/'), ('static', '/static/bench/standings-400.html')):\n"
        "    call(path); times = []\n"
        "    for _ in range(runs):\n"
        "        t = time.perf_counter(); call(path); times.append(time.perf_counter() - t)\n"
        "    result[name] = statistics.median(times) * 1e6\n"
        "print(json.dumps(result))\n"
    ) % SLUG
    import json

    output = subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        env={**env, **server_env},
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    return json.loads(output.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=30)
    parser.add_argument("--port", type=int, default=8131)
    parser.add_argument(
        "--threads", type=int, default=1, help="gunicorn threads per worker (1: sync workers)"
    )
    parser.add_argument("--skip-http", action="store_true")
    parser.add_argument("--only-http", action="store_true")
    args = parser.parse_args()

    env = environment()
    create_database(env["DATABASE_URL"])
    setup_django(env)
    tournament = build_tournament()

    if args.only_http:
        return report_http(measure_http(env, args.clients, args.seconds, args.port, args.threads))
    recompute = measure_recompute(tournament)
    print(f"full recompute (400 players, 10 sessions, 1000 tables): median {recompute['full_median_s'] * 1000:.0f} ms "
          f"(compute {recompute['compute_median_s'] * 1000:.0f} ms, max {recompute['full_max_s'] * 1000:.0f} ms), "
          f"queries {recompute['queries']}")  # fmt: skip
    confirmation = measure_confirmation(tournament, env)
    print(f"confirmation → new snapshot (real worker): median {confirmation['median_s'] * 1000:.0f} ms, "
          f"max {confirmation['max_s'] * 1000:.0f} ms over {confirmation['runs']} confirmations")  # fmt: skip
    if args.skip_http:
        return
    report_http(measure_http(env, args.clients, args.seconds, args.port, args.threads))


def report_http(http: dict) -> None:
    print(f"standings page: {http['body_bytes']} bytes of HTML")
    labels = {
        "page": "page, gzip",
        "static": "static, gzip",
        "page_plain": "page, no gzip",
        "static_plain": "static, no gzip",
    }
    for name, label in labels.items():
        r = http[name]
        print(f"{label:>16}: {r['rps']:.0f} req/s, p50 {r['p50_ms']:.1f} ms, p95 {r['p95_ms']:.1f} ms, "
              f"p99 {r['p99_ms']:.1f} ms, {r['requests']} requests, {r['errors']} errors, "
              f"{r['wire_bytes']} bytes on the wire per response")  # fmt: skip
    print(f"page / static file throughput: {http['ratio']:.2f} with gzip, {http['ratio_plain']:.2f} without")
    cost = http["in_process_us"]
    print(f"in-process cost per request (WSGI called directly, gzip): page {cost['page']:.0f} µs, "
          f"static file {cost['static']:.0f} µs")  # fmt: skip
    print(f"load average during the run: {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs")


if __name__ == "__main__":
    main()
