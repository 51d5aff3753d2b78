"""Director actions: ``python -m bench.director [--players 40 --sessions 8]`` (see README.md here).

What each action a director takes during a tournament costs, on PostgreSQL: seat a session, publish it,
start it, confirm a table, finish the session; and seat the whole tournament at once. For each: the
application's CPU time, the wall time and the SQL statements it ran.
"""

from __future__ import annotations

import argparse
import cProfile
import datetime as dt
import io
import os
import pstats
import sys
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from bench.database import fresh_database  # noqa: E402
from bench.requests.__main__ import setup_django  # noqa: E402

DEFAULT_DATABASE = "postgres://postgres@127.0.0.1:5432/mahjong_bench_director"
TARGET_MS = 1000  # each action under a second


@dataclass
class Figure:
    cpu_ms: float
    wall_ms: float
    statements: int
    sql: tuple[str, ...] = ()


def measure(call, profile: bool = False) -> tuple[Figure, object, str]:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    profiler = cProfile.Profile() if profile else None
    with CaptureQueriesContext(connection) as queries:
        start, wall = time.process_time(), time.perf_counter()
        if profiler:
            profiler.enable()
        answer = call()
        if profiler:
            profiler.disable()
        cpu, wall = (time.process_time() - start) * 1000, (time.perf_counter() - wall) * 1000
    text = ""
    if profiler:
        out = io.StringIO()
        pstats.Stats(profiler, stream=out).sort_stats("cumulative").print_stats(25)
        text = out.getvalue()
    sql = tuple(q["sql"] for q in queries.captured_queries)
    return Figure(cpu, wall, len(queries), sql), answer, text


def build(players: int, sessions: int):
    """A tournament of ``players`` players (8 countries) and ``sessions`` sessions, with its director."""
    from django.contrib.auth import get_user_model

    from tournaments import services

    director = get_user_model().objects.create_user("director", password="bench-director")
    tournament = services.tournament_create(
        name="Director bench",
        slug="director-bench",
        ruleset="mcr",
        starts_on=dt.date(2026, 5, 1),
        director=director,
        sessions=sessions,
    )
    countries = ["ESP", "FRA", "NLD", "DEU", "ITA", "DNK", "POL", "AUT"]
    for i in range(1, players + 1):
        player = services.player_create(
            first_name=f"Player{i}", last_name="Bench", country=countries[i % len(countries)]
        )
        services.registration_create(tournament=tournament, player=player, key=f"p{i}")
    return tournament, director


def run(players: int, sessions: int, profile: bool) -> list[tuple[str, Figure]]:
    from django.conf import settings

    from rankings.standings import services as standings
    from scoring import services as scoring
    from tournaments.models import Role
    from tournaments.permissions import Actor
    from tournaments.seating import services as seating
    from tournaments.sessions import services as session_services

    # as in production: the standings are recomputed by a worker, not in the director's request
    settings.CELERY_TASK_ALWAYS_EAGER = False
    standings._publish = lambda tournament_id: None
    tournament, director = build(players, sessions)
    boss = Actor(user=director, role=Role.DIRECTOR)
    figures: list[tuple[str, Figure]] = []
    profiles: list[tuple[str, str]] = []

    def record(name: str, call):
        figure, answer, text = measure(call, profile)
        figures.append((name, figure))
        if text:
            profiles.append((name, text))
        return answer

    first = tournament.sessions.get(number=1)
    record(f"seat session 1 ({players} players)", lambda: session_services.session_seat(session=first))
    record("publish session 1", lambda: session_services.session_advance(session=first))
    record("start session 1", lambda: session_services.session_advance(session=first))
    tables = list(first.tables.order_by("number").select_related("session__tournament"))
    for n, table in enumerate(tables):
        scoring.totals_set(table=table, scores=[30 - n, 10, -15, -25 + n], actor=boss, expected_version=None)
    record(
        "confirm a table",
        lambda: scoring.result_confirm(table=tables[0], actor=boss, expected_version=None),
    )
    for table in tables[1:]:
        scoring.result_confirm(table=table, actor=boss, expected_version=None)
    record("finish session 1", lambda: session_services.session_advance(session=first))
    second = tournament.sessions.get(number=2)
    record("seat session 2 (after 1)", lambda: session_services.session_seat(session=second))
    record("publish session 2", lambda: session_services.session_advance(session=second))
    rest = list(tournament.sessions.filter(number__gt=2).order_by("number"))
    record(
        f"seat sessions 3-{sessions} at once",
        lambda: seating.seating_generate(tournament=tournament, sessions=rest, strategy="schedule"),
    )
    for name, text in profiles:
        print(f"== profile: {name}\n{text}")
    return figures


def report(figures: list[tuple[str, Figure]]) -> int:
    print(f"{'action':<34} | {'CPU ms':>8} | {'wall ms':>8} | {'SQL':>5}")
    print("-" * 64)
    slow = 0
    for name, f in figures:
        mark = "" if f.cpu_ms < TARGET_MS else "  over a second"
        slow += bool(mark) and not name.startswith("seat sessions")
        print(f"{name:<34} | {f.cpu_ms:>8.0f} | {f.wall_ms:>8.0f} | {f.statements:>5}{mark}")
    return 1 if slow else 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=40)
    parser.add_argument("--sessions", type=int, default=8)
    parser.add_argument("--profile", action="store_true", help="print where each action spends its time")
    parser.add_argument("--show", action="store_true", help="print the statements of each action")
    parser.add_argument("--database", default=os.environ.get("DATABASE_URL", DEFAULT_DATABASE))
    args = parser.parse_args(argv)
    if args.database.startswith(("postgres://", "postgresql://")):
        fresh_database(args.database)
    setup_django(args.database)
    figures = run(args.players, args.sessions, args.profile)
    if args.show:
        for name, figure in figures:
            print(f"\n{name}:")
            for sql in figure.sql:
                print("  " + sql[:150])
    return report(figures)


if __name__ == "__main__":
    raise SystemExit(main())
