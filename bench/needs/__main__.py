"""What each player needs: ``python -m bench.needs`` (see README.md beside this file).

The synthetic MCR tournament of the standings benchmark (400 players, 10 sessions, 1000 tables), with the
last session seated and not played: what each player needs in it for the podium and a cut line (16th),
worked out by the selector behind the page, the CSV and the API; CPU time and SQL statements.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time

from bench.database import create_database
from bench.standings.__main__ import environment, setup_django

DATABASE = "postgres://postgres@127.0.0.1:5432/mahjong_bench_needs"
# a tournament of its own: session 10's results are removed here, so the standings benchmark's, which may
# live in the same database (make bench gives every benchmark the same DATABASE_URL), is left whole
SLUG = "bench-needs-400"


def before_the_last_session(tournament):
    """Session 10 seated and published, its results not played (removed once, on the benchmark's own data)."""
    from rankings.standings.services import standings_refresh
    from scoring.models import SeatSummary, TableResult
    from tournaments.models import Session

    last = Session.objects.get(tournament=tournament, number=10)
    if last.status != Session.Status.SEATED:
        SeatSummary.objects.filter(session=last).delete()
        TableResult.objects.filter(table__session=last).delete()
        Session.objects.filter(pk=last.pk).update(status=Session.Status.SEATED, seating_published=True)
        standings_refresh(tournament_id=tournament.pk)


def measure(tournament, runs: int) -> dict:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext
    from django.utils import translation

    from rankings.standings.needs import compute_needs
    from rankings.standings.needs_selectors import needs_table

    cpu, wall, statements = [], [], set()
    with translation.override("en"):
        for _ in range(runs):
            with CaptureQueriesContext(connection) as queries:
                started, clock = time.process_time(), time.perf_counter()
                table = needs_table(tournament=tournament, cuts=(16,))
                cpu.append(time.process_time() - started)
                wall.append(time.perf_counter() - clock)
            statements.add(len(queries.captured_queries))
    assert not table.reason and len(table.lines) == 400, table.reason
    safe = sum(1 for line in table.lines if line.cells[0].status == "safe")
    open_ = sum(1 for line in table.lines if line.cells[2].status != "out")
    return {
        "cpu_ms": statistics.median(cpu) * 1000,
        "wall_ms": statistics.median(wall) * 1000,
        "statements": sorted(statements),
        "podium_open": open_,
        "first_safe": safe,
        "engine": compute_needs.__module__,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    os.environ.setdefault("DATABASE_URL", DATABASE)
    env = environment()
    env["CACHE_KEY_PREFIX"] = "bench-needs"
    create_database(env["DATABASE_URL"])
    setup_django(env)
    from bench.standings.__main__ import build_tournament

    tournament = build_tournament(SLUG)
    before_the_last_session(tournament)
    for published in (True, False):
        seating(tournament, published=published)
        result = measure(tournament, args.runs)
        print(
            f"what each player needs, 400 players before session 10 of 10 (podium and 16th), "
            f"{'at the published tables' if published else 'for any seating (not published)'}: "
            f"{result['cpu_ms']:.0f} ms CPU, {result['wall_ms']:.0f} ms wall (median of {args.runs}), "
            f"{result['statements']} SQL statements; podium still possible for {result['podium_open']} "
            f"players, first safe for {result['first_safe']}"
        )
    for published in (True, False):
        seating(tournament, published=published)
        result = with_teams(tournament, args.runs)
        print(
            f"the same with 100 teams of 4 (the teams' podium too), "
            f"{'at the published tables' if published else 'for any seating (not published)'}: "
            f"{result['cpu_ms']:.0f} ms CPU, {result['wall_ms']:.0f} ms wall (median of {args.runs}); "
            f"teams' podium worked out exactly: {result['teams_exact']}, still possible for "
            f"{result['teams_open']} teams"
        )
    seating(tournament, published=True)


def with_teams(tournament, runs: int) -> dict:
    """The measurement with the players in 100 teams of four (p1-p4, p5-p8, ...: spread over the tables),
    made in a transaction that is rolled back: the benchmark's data keeps no team."""
    from django.db import transaction
    from django.utils import translation

    from rankings.standings.needs_selectors import needs_table
    from tournaments.teams.services import team_save, team_size_set

    with transaction.atomic():
        team_size_set(tournament=tournament, size=4)
        for t in range(100):
            keys = [f"p{4 * t + i}" for i in range(1, 5)]
            team_save(tournament=tournament, name=f"Team {t + 1:03d}", member_keys=keys)
        tournament.refresh_from_db()
        result = measure(tournament, runs)
        with translation.override("en"):
            table = needs_table(tournament=tournament, cuts=(16,))
        result["teams_exact"] = table.teams_exact
        result["teams_open"] = sum(1 for line in table.teams if line.cells[-1].status != "out")
        transaction.set_rollback(True)
    return result


def seating(tournament, *, published: bool) -> None:
    """Session 10's seating published or not (the benchmark's own data; no event is sent)."""
    from tournaments.models import Session

    Session.objects.filter(tournament=tournament, number=10).update(seating_published=published)


if __name__ == "__main__":
    main()
