"""Seating benchmark: ``python -m bench.seating`` (see README.md beside this file).

For every case the engine plans the whole schedule at once; beside it, a baseline seats the
sessions one by one, keeping for each the best of 1000 random seatings (fewest repeated
meetings given the sessions before it), seat order as drawn. Both are scored by the same
quality report.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from dataclasses import dataclass

from tournaments.seating.engine import Player, SeatingSettings, Tournament, plan_schedule, quality_report


@dataclass(frozen=True)
class Case:
    players: int
    sessions: int
    kind: str  # "required" or "stretch"
    countries: int = 0  # players come from this many countries of equal size

    @property
    def name(self) -> str:
        text = f"{self.players} x {self.sessions}"
        if self.countries:
            text += f", {self.countries} countries"
        return text


CASES = [
    Case(16, 5, "required"),
    Case(24, 6, "required"),
    Case(32, 8, "required"),
    Case(40, 10, "required"),
    Case(64, 10, "required"),
    Case(100, 10, "required"),
    Case(200, 10, "required"),
    Case(400, 10, "required"),
    Case(40, 8, "required", countries=8),
    Case(20, 5, "stretch"),
    Case(24, 7, "stretch"),
    Case(28, 9, "stretch"),
    Case(32, 10, "stretch"),
]


def roster(case: Case) -> list[Player]:
    size = case.players // case.countries if case.countries else 0
    return [
        Player(id=i, country=f"C{(i - 1) // size + 1}" if case.countries else "")
        for i in range(1, case.players + 1)
    ]


def baseline(players: list[Player], sessions: int, draws: int, seed: int) -> list:
    """Session by session, the best of ``draws`` random seatings (fewest new repeats)."""
    rng = random.Random(seed)
    ids = [p.id for p in players]
    n = len(ids)
    met = [0] * (n * n)
    schedule = []
    for _ in range(sessions):
        best, best_cost = None, None
        for _ in range(draws):
            order = list(range(n))
            rng.shuffle(order)
            cost = 0
            for t in range(0, n, 4):
                a, b, c, d = order[t : t + 4]
                cost += (
                    (met[a * n + b] > 0)
                    + (met[a * n + c] > 0)
                    + (met[a * n + d] > 0)
                    + (met[b * n + c] > 0)
                    + (met[b * n + d] > 0)
                    + (met[c * n + d] > 0)
                )
                if best_cost is not None and cost >= best_cost:
                    break
            if best_cost is None or cost < best_cost:
                best, best_cost = order, cost
                if cost == 0:
                    break
        tables = [best[t : t + 4] for t in range(0, n, 4)]
        for table in tables:
            for x in table:
                for y in table:
                    if x != y:
                        met[x * n + y] += 1
        schedule.append([[ids[p] for p in table] for table in tables])
    return schedule


def check(sessions, ids) -> None:
    for k, session in enumerate(sessions, start=1):
        seated = sorted(p for table in session for p in table)
        if seated != sorted(ids) or any(len(t) != 4 for t in session):
            raise SystemExit(f"invalid schedule: session {k} does not seat every player once")


def figures(report, seconds: float) -> tuple:
    return (
        report.repeated_meetings,
        report.max_pair_meetings,
        report.max_wind_spread,
        report.same_country_meetings,
        seconds,
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.seating", description=__doc__.splitlines()[0])
    parser.add_argument("--only", nargs="*", help='cases to run, e.g. "32x10" "40x8"')
    parser.add_argument(
        "--draws", type=int, default=1000, help="random seatings per session for the baseline"
    )
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--no-baseline", action="store_true")
    args = parser.parse_args(argv)

    cases = CASES
    if args.only:
        wanted = {w.replace(" ", "").lower() for w in args.only}
        cases = [c for c in CASES if f"{c.players}x{c.sessions}" in wanted]

    header = (
        "| case | kind | repeats | max pair | wind spread | same country | CPU s | wall s "
        "| baseline repeats | max pair | wind spread | same country | CPU s |"
    )
    print(header)
    print("|" + "---|" * (header.count("|") - 1))
    failures = []
    for case in cases:
        players = roster(case)
        ids = [p.id for p in players]
        wall, cpu = time.perf_counter(), time.process_time()
        plan = plan_schedule(Tournament(players, settings=SeatingSettings(seed=args.seed)), case.sessions)
        cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
        check(plan.sessions, ids)
        ours = figures(plan.quality, cpu)
        row = f"| {case.name} | {case.kind} | {ours[0]} | {ours[1]} | {ours[2]} | {ours[3]} | {cpu:.2f} | {wall:.2f} |"
        if args.no_baseline:
            row += " | | | | |"
        else:
            bcpu = time.process_time()
            base = baseline(players, case.sessions, args.draws, args.seed)
            bcpu = time.process_time() - bcpu
            check(base, ids)
            theirs = figures(quality_report(players, base), bcpu)
            row += f" {theirs[0]} | {theirs[1]} | {theirs[2]} | {theirs[3]} | {bcpu:.2f} |"
        print(row, flush=True)
        limit = 30.0 if case.players >= 400 else 10.0
        if case.kind == "required":
            if plan.quality.repeated_meetings or plan.quality.max_wind_spread > 1 or cpu > limit:
                failures.append(case.name)
            if case.countries and plan.quality.same_country_meetings:
                failures.append(case.name)
    if failures:
        print(f"\nrequired targets missed: {', '.join(failures)}")
        return 1
    print("\nall required targets met")
    return 0


if __name__ == "__main__":
    sys.exit(main())
