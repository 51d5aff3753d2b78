"""The what-if of the EMA ranking: ``python -m bench.whatif`` (see README.md beside this file).

Over the EMA ranking benchmark's synthetic history (3,000 players, 1,500 tournaments over 10 years,
imported by ``bench/ema`` the first time), the what-if API of a sample of ranked players, one and three
hypothetical results: CPU time and SQL statements per request.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from bench.database import create_database
from bench.ema.__main__ import build_history, environment, setup_django


def measure(samples: int) -> list[dict]:
    from django.db import connection, reset_queries
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    from rankings.models import EmaRankingEntry

    rng = random.Random(36)
    ids = list(EmaRankingEntry.objects.filter(family="mcr").values_list("ema_id", flat=True))
    chosen = rng.sample(ids, min(samples, len(ids)))
    client = Client()
    rows = []
    for label, query in (
        ("one result", "players=40&place=5&days=2&countries=6"),
        ("three results", "players=40&place=5&players=120&place=30&days=3&days=3&players=24&place=1"),
    ):
        cpu, wall, statements = [], [], set()
        for ema_id in chosen:
            reset_queries()
            with CaptureQueriesContext(connection) as captured:
                c0, t0 = time.process_time(), time.perf_counter()
                response = client.get(f"/api/ema-ranking/mcr/{ema_id}/what-if/?{query}")
                cpu.append(time.process_time() - c0)
                wall.append(time.perf_counter() - t0)
            assert response.status_code == 200, (ema_id, response.content[:200])
            statements.add(len(captured))
        rows.append(
            {
                "label": label,
                "cpu_ms": statistics.median(cpu) * 1000,
                "cpu_max_ms": max(cpu) * 1000,
                "wall_ms": statistics.median(wall) * 1000,
                "statements": sorted(statements),
                "players": len(chosen),
            }
        )
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--samples", type=int, default=30)
    args = parser.parse_args()
    env = environment()
    create_database(env["DATABASE_URL"])
    setup_django(env)
    build_history(rebuild=False)
    from rankings.ema.services import ema_ranking_recompute

    ema_ranking_recompute()
    for row in measure(args.samples):
        print(
            f"what-if, {row['label']}, {row['players']} players of the 3,000 x 1,500 ranking: CPU median "
            f"{row['cpu_ms']:.0f} ms (max {row['cpu_max_ms']:.0f} ms), wall median {row['wall_ms']:.0f} ms, "
            f"SQL statements {row['statements']}"
        )


if __name__ == "__main__":
    main()
