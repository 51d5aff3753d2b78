"""EMA ranking benchmark: ``python -m bench.ema`` (see README.md beside this file).

1. A synthetic history: 3,000 players with EMA numbers, 1,500 tournaments over 10 years (about 60,000
   results), each tournament's results written as an MTS EMA report (CSV) and imported through the same
   service as the import page, the API and ``manage.py import_results``.
2. The full ranking recompute (both families): time and number of queries, for ranking dates with 2, 5
   and 10 years of history behind them.
3. The ranking page (and a player's page, and a name search) under 50 concurrent clients (gunicorn).
"""

from __future__ import annotations

import argparse
import asyncio
import datetime as dt
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
PLAYERS, TOURNAMENTS, YEARS = 3000, 1500, 10
COUNTRIES = ["ESP", "FRA", "DEU", "NLD", "DNK", "AUT", "ITA", "HUN", "POL", "RUS", "GBR", "CZE", "SWE", "FIN",
             "PRT", "BEL", "CHE", "UKR", "SVK", "IRL"]  # fmt: skip
FIRST = ["Ana", "Bea", "Carlos", "Dörte", "Émile", "Fiona", "Gerd", "Hana", "Iñaki", "Jan", "Kasia", "Lars",
         "María", "Niels", "Olga", "Paweł", "Quim", "Rosa", "Søren", "Tomás"]  # fmt: skip
LAST = ["García", "Müller", "Nowak", "Jensen", "Rossi", "Dupont", "Novák", "Svensson", "Kovács", "Smirnov",
        "Núñez", "O'Brien", "Virtanen", "Silva", "Peeters", "Meier", "Horváth", "Kowalski", "de Vries", "Łukasz"]  # fmt: skip
DEFAULTS = {
    "DATABASE_URL": "postgres://postgres@127.0.0.1:5432/mahjong_bench_ema",
    "REDIS_URL": "redis://127.0.0.1:6379/12",
}
SECRET = "bench-only-secret-key-0123456789-abcdefghijklmnopqrstuvwxyz-0123456789"
HEADER = "Place,EMA number,Last name,First name,Country,EMA member,Table points,Score"


def environment() -> dict[str, str]:
    env = {**os.environ}
    for key, value in DEFAULTS.items():
        env.setdefault(key, value)
    env.pop("CELERY_BROKER_URL", None)  # tasks run in-process: the recompute is measured here
    env.setdefault("CACHE_KEY_PREFIX", "bench-ema")
    return env


def setup_django(env: dict[str, str]) -> None:
    for key in (*DEFAULTS, "CACHE_KEY_PREFIX"):
        os.environ[key] = env[key]
    os.environ.pop("CELERY_BROKER_URL", None)
    os.environ["DEBUG"] = "1"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()
    import logging

    logging.getLogger("celery").setLevel(logging.WARNING)
    from django.core.management import call_command

    call_command("migrate", verbosity=0)


# -- 1. the synthetic history ---------------------------------------------------------------------------


def synthetic_files(today: dt.date):
    """(facts, CSV bytes) of every tournament, oldest first; the same for every run (seeded)."""
    from rankings.ema.imports import TournamentFacts

    rng = random.Random(2026)
    strength = [rng.gauss(0, 1) for _ in range(PLAYERS)]
    people = [
        (
            f"{(i % 20) + 1:02d}{i + 1:06d}",
            LAST[rng.randrange(20)],
            FIRST[rng.randrange(20)],
            COUNTRIES[i % 20],
        )
        for i in range(PLAYERS)
    ]
    first_day = today - dt.timedelta(days=365 * YEARS)
    for t in range(TOURNAMENTS):
        ends_on = first_day + dt.timedelta(days=(365 * YEARS - 7) * t // TOURNAMENTS)
        size = max(12, min(160, int(rng.lognormvariate(3.68, 0.35)) // 4 * 4))
        chosen = rng.sample(range(PLAYERS), size - size // 20)
        guests = size // 20  # players without an EMA number: in N, never ranked
        order = sorted(chosen, key=lambda i: -(strength[i] + rng.gauss(0, 1.2)))
        entrants = [people[i] for i in order]
        for g in range(guests):
            entrants.insert(rng.randrange(len(entrants) + 1), ("", f"Guest{g}", "Local", "ESP"))
        lines = [HEADER]
        for place, (ema, last, first, country) in enumerate(entrants, start=1):
            score = 200 - place * 7
            lines.append(
                f'{place},{ema},"{last}",{first},{country},{"Yes" if ema else "No"},{max(0, 30 - place // 3)},{score}'
            )
        days = rng.choice((1, 1, 2, 2, 3))
        facts = TournamentFacts(
            name=f"Bench Open {t + 1}",
            family="mcr" if t % 5 < 3 else "riichi",
            starts_on=ends_on - dt.timedelta(days=days - 1),
            days=days,
            city=f"City {t % 97}",
            country=COUNTRIES[t % 20],
            qualifies_for_championship=t % 50 == 0,
        )
        yield facts, ("\r\n".join(lines) + "\r\n").encode()


def build_history(*, rebuild: bool) -> dict:
    from django.db import transaction
    from django.utils import timezone

    from rankings.ema.imports import results_import
    from rankings.models import ImportedResult, ImportedTournament
    from tournaments.models import Player

    if rebuild:
        ImportedTournament.objects.all().delete()
        Player.objects.filter(registrations__isnull=True).delete()
    if ImportedTournament.objects.count() == TOURNAMENTS:
        return {"reused": True, "results": ImportedResult.objects.count()}
    ImportedTournament.objects.all().delete()
    today = timezone.localdate()
    times = []
    started = time.perf_counter()
    # one outer transaction: the ranking is recomputed once at the end, not after every file
    with transaction.atomic():
        for facts, data in synthetic_files(today):
            t0 = time.perf_counter()
            results_import(data=data, facts=facts, filename=f"{facts.name}.csv")
            times.append(time.perf_counter() - t0)
        total_import = time.perf_counter() - started
    total = time.perf_counter() - started
    return {
        "reused": False,
        "results": ImportedResult.objects.count(),
        "players": Player.objects.count(),
        "import_total_s": total_import,
        "import_median_ms": statistics.median(times) * 1000,
        "import_p95_ms": sorted(times)[int(0.95 * len(times))] * 1000,
        "first_recompute_s": total - total_import,
    }


def measure_big_file() -> dict:
    """Check and import one file of 400 players (a European championship), then remove it."""
    from django.utils import timezone

    from rankings.ema.imports import (
        TournamentFacts,
        imported_tournament_delete,
        results_import,
        results_import_check,
    )
    from rankings.models import ImportedTournament

    ImportedTournament.objects.filter(name="Bench Championship").delete()
    rows = [HEADER] + [
        f"{p},{(p % 20) + 1:02d}{p:06d},Player{p},Big,{COUNTRIES[p % 20]},Yes,{p % 30},{1000 - p}"
        for p in range(1, 401)
    ]
    data = ("\r\n".join(rows) + "\r\n").encode()
    facts = TournamentFacts(
        name="Bench Championship", family="mcr", starts_on=timezone.localdate() - dt.timedelta(3), days=3
    )
    t0 = time.perf_counter()
    results_import_check(data=data, facts=facts)
    check = time.perf_counter() - t0
    t0 = time.perf_counter()
    imported, _ = results_import(data=data, facts=facts)  # the ranking is recomputed on commit
    with_recompute = time.perf_counter() - t0
    imported_tournament_delete(tournament=imported)
    return {"check_ms": check * 1000, "import_with_recompute_s": with_recompute}


# -- 2. the recompute -----------------------------------------------------------------------------------


def measure_recompute(runs: int = 5) -> list[dict]:
    from django.db import connection, reset_queries
    from django.db.models import F
    from django.test.utils import CaptureQueriesContext
    from django.utils import timezone

    from rankings.ema.services import ema_ranking_recompute
    from rankings.models import EmaRankingEntry, EmaRankingState

    today = timezone.localdate()
    rows = []
    for years in (2, 5, 10):
        on = today - dt.timedelta(days=365 * (YEARS - years))
        times, cpu, queries = [], [], set()
        for _ in range(runs):
            EmaRankingState.objects.filter(pk=1).update(input_version=F("input_version") + 1)
            reset_queries()  # the query log holds at most 9,000 queries: start it empty
            with CaptureQueriesContext(connection) as captured:
                t0, c0 = time.perf_counter(), time.process_time()
                ema_ranking_recompute(on=on)
                times.append(time.perf_counter() - t0)
                cpu.append(time.process_time() - c0)
            queries.add(len(captured))
        rows.append(
            {
                "years": years,
                "on": on,
                "median_s": statistics.median(times),
                "cpu_s": statistics.median(cpu),
                "max_s": max(times),
                "queries": sorted(queries),
                "ranked": EmaRankingEntry.objects.count(),
            }
        )
    EmaRankingState.objects.filter(pk=1).update(input_version=F("input_version") + 1)
    ema_ranking_recompute()  # leave today's ranking stored for the pages
    return rows


# -- 3. HTTP load ---------------------------------------------------------------------------------------


async def _client(host, port, path, until, latencies, errors) -> None:
    request = (
        f"GET {path} HTTP/1.1\r\nHost: {host}\r\nAccept-Language: en\r\nConnection: close\r\n\r\n".encode()
    )
    while time.perf_counter() < until:
        t0 = time.perf_counter()
        try:
            reader, writer = await asyncio.open_connection(host, port)
            writer.write(request)
            data = await reader.read()
            writer.close()
        except OSError as exc:
            errors.append(str(exc))
            await asyncio.sleep(0.01)
            continue
        if not data.startswith((b"HTTP/1.1 200", b"HTTP/1.0 200")):
            errors.append(data[:40])
            continue
        latencies.append(time.perf_counter() - t0)


async def _load(url: str, clients: int, seconds: float) -> dict:
    parts = urlsplit(url)
    path = parts.path + (f"?{parts.query}" if parts.query else "")
    latencies: list[float] = []
    errors: list = []
    t0 = time.perf_counter()
    until = t0 + seconds
    await asyncio.gather(
        *(_client(parts.hostname, parts.port, path, until, latencies, errors) for _ in range(clients))
    )
    elapsed = time.perf_counter() - t0
    latencies.sort()

    def pct(p: float) -> float:
        return (
            latencies[min(len(latencies) - 1, int(p * len(latencies)))] * 1000 if latencies else float("nan")
        )

    return {"requests": len(latencies), "errors": len(errors), "rps": len(latencies) / elapsed,
            "p50_ms": pct(0.5), "p95_ms": pct(0.95), "p99_ms": pct(0.99)}  # fmt: skip


def measure_http(env: dict[str, str], clients: int, seconds: float, port: int, threads: int) -> dict:
    from rankings.models import EmaRankingEntry

    top = EmaRankingEntry.objects.filter(family="mcr").order_by("position").first()
    server_env = {**env, "DEBUG": "0", "SECRET_KEY": SECRET, "ALLOWED_HOSTS": "127.0.0.1",
                  "SECURE_SSL_REDIRECT": "false", "LOG_LEVEL": "WARNING"}  # fmt: skip
    python = sys.executable
    subprocess.run(
        [python, "manage.py", "collectstatic", "--noinput", "-v0"], cwd=ROOT, env=server_env, check=True
    )
    log = ROOT / "bench" / "ema" / "results" / "gunicorn.log"
    log.parent.mkdir(exist_ok=True)
    gunicorn = Path(python).parent / "gunicorn"
    server = subprocess.Popen(
        [str(gunicorn), "config.wsgi", "--workers", "2", "--threads", str(threads), "--bind", f"127.0.0.1:{port}",
         "--backlog", "2048", "--log-level", "warning"],
        cwd=ROOT, env=server_env, stdout=log.open("w"), stderr=subprocess.STDOUT,
    )  # fmt: skip
    base = f"http://127.0.0.1:{port}"
    pages = {
        "ranking page": f"{base}/ranking/mcr/",
        "page 5, country DEU": f"{base}/ranking/mcr/?country=DEU&page=2",
        "name search": f"{base}/ranking/mcr/?q=nunez",
        "player page": f"{base}/ranking/mcr/{top.ema_id}/",
        "static file (ceiling)": f"{base}/static/css/app.css",
    }
    results = {}
    try:
        import urllib.request

        for _ in range(150):
            try:
                with urllib.request.urlopen(pages["ranking page"], timeout=5) as response:
                    results["bytes"] = len(response.read())
                break
            except OSError:
                time.sleep(0.2)
        for name, url in pages.items():
            asyncio.run(_load(url, clients, 2))  # warm up both workers and the cache
            results[name] = asyncio.run(_load(url, clients, seconds))
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(timeout=30)
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=15)
    parser.add_argument("--port", type=int, default=8141)
    parser.add_argument("--threads", type=int, default=4, help="gunicorn threads per worker")
    parser.add_argument("--rebuild", action="store_true", help="import the synthetic history again")
    parser.add_argument("--skip-http", action="store_true")
    args = parser.parse_args()

    env = environment()
    create_database(env["DATABASE_URL"])
    setup_django(env)
    print(
        f"database: {env['DATABASE_URL'].split('@')[-1]}, cache: {env['REDIS_URL'] or 'files shared by the processes'}"
    )
    built = build_history(rebuild=args.rebuild)
    if built["reused"]:
        print(
            f"history reused: {TOURNAMENTS} tournaments, {built['results']} results (--rebuild to import again)"
        )
    else:
        print(f"imported {TOURNAMENTS} results files ({built['results']} results, {built['players']} players) "
              f"in {built['import_total_s']:.1f} s: median {built['import_median_ms']:.0f} ms a file, "
              f"p95 {built['import_p95_ms']:.0f} ms; then the work on commit (the first recompute) {built['first_recompute_s']:.2f} s")  # fmt: skip
    big = measure_big_file()
    print(f"one file of 400 players: check {big['check_ms']:.0f} ms; "
          f"import + full recompute {big['import_with_recompute_s']:.2f} s")  # fmt: skip
    for row in measure_recompute():
        print(f"full recompute on {row['on']} ({row['years']} years of history behind it, {row['ranked']} ranked): "
              f"median {row['median_s'] * 1000:.0f} ms (this process's CPU {row['cpu_s'] * 1000:.0f} ms), "
              f"max {row['max_s'] * 1000:.0f} ms, queries {row['queries']}")  # fmt: skip
    if args.skip_http:
        return
    http = measure_http(env, args.clients, args.seconds, args.port, args.threads)
    print(
        f"ranking page: {http.get('bytes', 0)} bytes; {args.clients} concurrent clients, {args.seconds:.0f} s each:"
    )
    for name, r in http.items():
        if name == "bytes":
            continue
        print(f"  {name:>20}: {r['rps']:.0f} req/s, p50 {r['p50_ms']:.1f} ms, p95 {r['p95_ms']:.1f} ms, "
              f"p99 {r['p99_ms']:.1f} ms, {r['requests']} requests, {r['errors']} errors")  # fmt: skip
    print(f"load average after the run: {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs")


if __name__ == "__main__":
    main()
