"""Archive benchmark: ``python -m bench.archive`` (see README.md beside this file).

1. Generate a 400-player, 10-session MCR archive (1000 tables, 16000 deterministic random valid hands,
   a few penalties) and write it to a file.
2. For reference, parse the whole file at once with ``json.load``.
3. Import it with ``archive_import`` (read as a stream, one session at a time, in one transaction), then
   commit, which runs the standings snapshot the import queued (in-process: no Celery broker here).
4. Compute its standings document.
5. Write its EMA results file (CSV) from ``ema_results_rows``.
6. Export it again with ``archive_export``.
7. POST a JSON body at the API's limit (ARCHIVE_MAX_BYTES) to /api/archives/ through the WSGI handler,
   without and with an Idempotency-Key; the import job it queues is left to a worker.

Every step reports its wall time, the peak of the memory Python allocated during it (tracemalloc) and the
growth of the process's resident size (VmHWM).
The database is a new SQLite file in a temporary folder, unless DATABASE_URL is set (then that database is
migrated and used: give it a scratch PostgreSQL database).
"""

from __future__ import annotations

import argparse
import csv
import gc
import json
import logging
import os
import random
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path
from unittest import mock

from bench.database import create_database

ROOT = Path(__file__).resolve().parents[2]
SLUG = "bench-archive-400"
PLAYERS, SESSIONS, HANDS = 400, 10, 16
COUNTRIES = ("ESP", "FRA", "DEU", "NLD", "DNK", "POL", "ITA", "GBR", "SWE", "AUT", "CHE", "PRT")
FIRST = ("Ana", "José", "Zoë", "Björn", "Łucja", "Françoise", "Miguel Ángel", "Inés", "Jürgen", "Søren")
LAST = ("García", "Núñez", "Lefèvre", "Ødegård", "Wąs", "d'Aubigné", "Sáez", "Ortega", "Schäfer", "")


def setup_django(workdir: Path) -> str:
    if not os.environ.get("DATABASE_URL"):
        os.environ["DATABASE_URL"] = f"sqlite:///{workdir / 'bench.sqlite3'}"
    create_database(os.environ["DATABASE_URL"])
    os.environ.setdefault("DEBUG", "1")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()
    from django.conf import settings
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    settings.DEBUG = False  # no query log: it would be counted as the import's memory
    logging.getLogger("rankings").setLevel(logging.WARNING)
    return settings.DATABASES["default"]["ENGINE"].rsplit(".", 1)[-1]


# -- 1. the archive ----------------------------------------------------------------------------------


def random_hands(rng: random.Random, seats: list[str]) -> list[dict]:
    hands = []
    for _ in range(HANDS):
        if rng.random() < 0.1:
            hands.append({"result": "draw"})
            continue
        winner = rng.randrange(4)
        fan = 8 + min(int(rng.expovariate(0.25)), 80)
        discarder = None if rng.random() < 0.3 else rng.choice([s for s in range(4) if s != winner])
        hands.append(
            {
                "result": "win",
                "winner": seats[winner],
                "discarder": None if discarder is None else seats[discarder],
                "fan": fan,
            }
        )
    return hands


def generate(seed: int = 2026) -> dict:
    rng = random.Random(seed)
    keys = [f"p{i}" for i in range(1, PLAYERS + 1)]
    players = [
        {
            "key": key,
            "first_name": f"{rng.choice(FIRST)} {i}",
            "last_name": rng.choice(LAST),
            "ema_id": f"{90000000 + i:08d}" if i % 3 else None,
            "country": rng.choice(COUNTRIES),
            "club": f"Club {i % 37}" if i % 4 else "",
            "substitute": False,
        }
        for i, key in enumerate(keys, start=1)
    ]
    sessions = []
    for number in range(1, SESSIONS + 1):
        order = keys[:]
        rng.shuffle(order)
        tables = []
        for t in range(PLAYERS // 4):
            seats = order[4 * t : 4 * t + 4]
            tables.append(
                {"number": t + 1, "seats": seats, "hands": random_hands(rng, seats), "scores": None}
            )
        sessions.append({"number": number, "tables": tables})
    penalties = []
    for number in range(1, SESSIONS + 1):
        for key in rng.sample(keys, 3):
            penalties.append(
                {
                    "player": key,
                    "session": number,
                    "kind": "late_arrival",
                    "minutes_late": rng.randrange(1, 15),
                }
            )
        for key in rng.sample(keys, 2):
            penalties.append({"player": key, "session": number, "kind": "foul", "reason": "time wasting"})
    return {
        "format": "mahjong-tournament-archive",
        "version": 1,
        "tournament": {
            "name": "Archive benchmark (400 players)",
            "slug": SLUG,
            "ruleset": "mcr",
            "rules": {},
            "starts_on": "2026-05-01",
            "days": 3,
            "city": "Salamanca",
            "country": "ESP",
        },
        "players": players,
        "sessions": sessions,
        "penalties": penalties,
    }


# -- measuring ---------------------------------------------------------------------------------------


def rss_kib(field: str) -> int:
    """The process's resident size (VmRSS) or its peak (VmHWM) in KiB, from /proc (0 elsewhere)."""
    try:
        with open("/proc/self/status", encoding="ascii") as f:
            for line in f:
                if line.startswith(field + ":"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


def rss_peak_reset() -> None:
    """Start VmHWM again from the present size (Linux: "5" to /proc/self/clear_refs)."""
    try:
        with open("/proc/self/clear_refs", "w", encoding="ascii") as f:
            f.write("5")
    except OSError:
        pass


def measure(label: str, step, figures: list, trace: bool):
    gc.collect()
    if trace:
        tracemalloc.start()
        tracemalloc.reset_peak()
    rss_peak_reset()
    rss = rss_kib("VmRSS")
    started, cpu = time.perf_counter(), time.process_time()
    result = step()
    seconds, cpu = time.perf_counter() - started, time.process_time() - cpu
    grown = max(rss_kib("VmHWM") - rss, 0) / 1024
    peak = None
    if trace:
        _, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
    figures.append((label, seconds, peak))
    shown = f"{peak / 2**20:8.1f} MiB" if peak is not None else "       -    "
    print(f"{label:<34} {seconds:8.2f} s {cpu:8.2f} s  {shown} {grown:8.1f} MiB", flush=True)
    return result


# -- the API's largest JSON body ---------------------------------------------------------------------


def large_body(archive_file: Path, target: int) -> Path:
    """An archive of at most ``target`` bytes (the API's limit), its sessions those of ``archive_file``
    repeated under new numbers and a new slug: a JSON body at the limit."""
    document = json.loads(archive_file.read_text(encoding="utf-8"))
    sessions = document.pop("sessions")
    document["tournament"]["slug"] = SLUG + "-api"
    head = json.dumps(document, ensure_ascii=False).encode()[:-1] + b', "sessions": ['
    path = archive_file.with_name(SLUG + "-api.json")
    with path.open("wb") as f:
        f.write(head)
        size, number = len(head) + 2, 1
        while True:
            session = {**sessions[(number - 1) % len(sessions)], "number": number}
            piece = (b", " if number > 1 else b"") + json.dumps(session, ensure_ascii=False).encode()
            if size + len(piece) > target:
                break
            f.write(piece)
            size += len(piece)
            number += 1
        f.write(b"]}")
    return path


def api_post(body: Path, token: str, key: str | None) -> int:
    """POST ``body`` to /api/archives/ through the WSGI handler, read from its file as a server hands it
    on; the import job is left queued (a worker's, with a broker). The answer's status."""
    from django.core.handlers.wsgi import WSGIHandler

    environ = {
        "REQUEST_METHOD": "POST",
        "PATH_INFO": "/api/archives/",
        "QUERY_STRING": "",
        "SERVER_NAME": "localhost",
        "SERVER_PORT": "80",
        "SERVER_PROTOCOL": "HTTP/1.1",
        "HTTP_HOST": "localhost",
        "REMOTE_ADDR": "127.0.0.1",
        "CONTENT_TYPE": "application/json",
        "CONTENT_LENGTH": str(body.stat().st_size),
        "HTTP_AUTHORIZATION": f"Token {token}",
        "wsgi.url_scheme": "http",
        "wsgi.errors": sys.stderr,
    }
    if key:
        environ["HTTP_IDEMPOTENCY_KEY"] = key
    answer = []
    with body.open("rb") as stream:
        environ["wsgi.input"] = stream
        response = WSGIHandler()(environ, lambda status, headers: answer.append(status))
        b"".join(response)
        response.close()
    return int(answer[0].split()[0])


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.archive", description=__doc__.splitlines()[0])
    parser.add_argument("--no-trace", action="store_true", help="times only (tracemalloc slows Python down)")
    parser.add_argument("--keep", metavar="DIR", help="keep the archive, results file and SQLite file here")
    args = parser.parse_args()
    trace = not args.no_trace

    workdir = Path(args.keep or tempfile.mkdtemp(prefix="bench-archive-"))
    workdir.mkdir(parents=True, exist_ok=True)
    engine = setup_django(workdir)

    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.db import transaction
    from rest_framework.authtoken.models import Token

    from rankings.archive import archive_export, archive_import, tournament_delete
    from rankings.ema.engine import EmaPlayer, ema_results_rows
    from rankings.standings.selectors import standings_view
    from tournaments.models import Registration, Tournament

    old = Tournament.objects.filter(slug=SLUG).first()
    if old is not None:
        tournament_delete(old)

    figures: list = []
    archive_file = workdir / f"{SLUG}.json"

    def write_archive():
        document = generate()
        with archive_file.open("w", encoding="utf-8") as f:
            json.dump(document, f, ensure_ascii=False)
        return document

    print(f"database: {engine}; files in {workdir}")
    print(f"{'step':<34} {'wall':>10} {'CPU':>10}  {'peak memory':>12} {'RSS growth':>12}")
    document = measure("generate and write the archive", write_archive, figures, trace)
    hands = sum(len(t["hands"]) for s in document["sessions"] for t in s["tables"])
    del document
    size = archive_file.stat().st_size

    def load_whole():
        with archive_file.open("rb") as f:
            return len(json.load(f)["sessions"])

    measure("json.load of the whole file", load_whole, figures, trace)
    # The import is one transaction; on commit it queues the standings snapshot, which runs in-process here
    # (no Celery broker). The two are measured apart: the outer transaction commits in the second step.
    outer = transaction.atomic()
    outer.__enter__()
    tournament = measure(
        "import (archive_import)", lambda: archive_import(document=archive_file), figures, trace
    )
    measure("commit + standings snapshot", lambda: outer.__exit__(None, None, None), figures, trace)

    def standings():
        result = standings_view(tournament=tournament)
        return result, result.to_document(tournament.slug, tournament.ruleset)

    computed, standings_document = measure("standings document", standings, figures, trace)

    def ema_file():
        players = {
            r.key: EmaPlayer(
                player=r.key,
                first_name=r.player.first_name,
                last_name=r.player.last_name,
                ema_id=r.player.ema_id or "",
                ema_member=bool(r.player.ema_id),
                country=r.player.country,
            )
            for r in Registration.objects.filter(tournament=tournament).select_related("player")
        }
        rows = ema_results_rows(computed, players)
        with (workdir / f"{SLUG}-ema-results.csv").open("w", encoding="utf-8", newline="") as f:
            csv.writer(f).writerows(rows)
        return len(rows) - 1

    listed = measure("EMA results file (CSV)", ema_file, figures, trace)
    measure(
        "export (archive_export)",
        lambda: len(archive_export(tournament=tournament)["sessions"]),
        figures,
        trace,
    )

    body = large_body(archive_file, settings.ARCHIVE_MAX_BYTES)
    user = get_user_model().objects.create_superuser("bench-archive-api", password=None)
    token = Token.objects.create(user=user).key
    mock.patch("rankings.archive.jobs.runner.job_enqueue").start()  # a worker's, with a broker
    for label, key in (("API JSON body at the limit", None), ("the same with an Idempotency-Key", "bench-1")):
        answer = measure(label, lambda key=key: api_post(body, token, key), figures, trace)
        if answer != 202:
            raise SystemExit(f"{label}: the API answered {answer}, not 202")
    body_size = body.stat().st_size
    if not args.keep:
        body.unlink()

    print()
    print(
        f"archive: {size / 2**20:.2f} MiB ({size} bytes), {PLAYERS} players, {SESSIONS} sessions, {hands} hands"
    )
    print(f"standings: {len(standings_document['standings'])} players; EMA results file: {listed} rows")
    if trace:
        peak = {label: p for label, _, p in figures}["import (archive_import)"]
        print(f"import peak memory / archive size: {peak / size:.1f}")
    print(f"API body: {body_size / 2**20:.2f} MiB ({body_size} bytes)")
    if trace:
        peaks = {label: p for label, _, p in figures}
        for label in ("API JSON body at the limit", "the same with an Idempotency-Key"):
            print(f"{label}: peak memory / body size {peaks[label] / body_size:.2f}")


if __name__ == "__main__":
    main()
