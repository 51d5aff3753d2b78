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
    team_size: int = 0  # players form teams of this size (consecutive numbers), kept apart
    spread_countries: bool = False  # country of player i is i modulo ``countries`` (teams mix countries)

    @property
    def name(self) -> str:
        text = f"{self.players} x {self.sessions}"
        if self.team_size:
            text += f", teams of {self.team_size}"
        if self.countries:
            text += f", {self.countries} countries"
        return text

    @property
    def key(self) -> str:
        text = f"{self.players}x{self.sessions}"
        if self.team_size:
            text += "t"
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
    Case(32, 10, "required"),
    Case(20, 5, "stretch"),
    Case(24, 7, "stretch"),
    Case(28, 9, "stretch"),
    Case(40, 8, "required", countries=8, team_size=4),
    Case(64, 10, "required", countries=8, team_size=4, spread_countries=True),
]


def _country(case: Case, i: int) -> str:
    if not case.countries:
        return ""
    if case.spread_countries:
        return f"C{(i - 1) % case.countries + 1}"
    return f"C{(i - 1) // (case.players // case.countries) + 1}"


def roster(case: Case) -> list[Player]:
    return [Player(id=i, country=_country(case, i)) for i in range(1, case.players + 1)]


def teams(case: Case) -> list[list[int]]:
    """Teams of ``team_size`` consecutive players: teammates must never share a table."""
    if not case.team_size:
        return []
    k = case.team_size
    return [list(range(start, start + k)) for start in range(1, case.players + 1, k)]


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


def figures(report) -> str:
    """repeats | max pair | teammates | same country | wind spread"""
    return (
        f"{report.repeated_meetings} | {report.max_pair_meetings} | {report.separated_meetings} | "
        f"{report.same_country_meetings} | {report.max_wind_spread}"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.seating", description=__doc__.splitlines()[0])
    parser.add_argument(
        "--only", nargs="*", help='cases to run, e.g. "32x10" "40x8" ("40x8t": the case with teams)'
    )
    parser.add_argument(
        "--draws", type=int, default=1000, help="random seatings per session for the baseline"
    )
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--no-baseline", action="store_true")
    args = parser.parse_args(argv)

    cases = CASES
    if args.only:
        wanted = {w.replace(" ", "").lower() for w in args.only}
        cases = [c for c in CASES if c.key in wanted]

    header = (
        "| case | kind | repeats | max pair | teammates | same country | wind spread | CPU s | wall s "
        "| baseline repeats | max pair | teammates | same country | wind spread | CPU s |"
    )
    print(header)
    print("|" + "---|" * (header.count("|") - 1))
    failures = []
    for case in cases:
        players = roster(case)
        separate = teams(case)
        ids = [p.id for p in players]
        wall, cpu = time.perf_counter(), time.process_time()
        tournament = Tournament(players, separate=separate, settings=SeatingSettings(seed=args.seed))
        plan = plan_schedule(tournament, case.sessions)
        cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
        check(plan.sessions, ids)
        row = f"| {case.name} | {case.kind} | {figures(plan.quality)} | {cpu:.2f} | {wall:.2f} |"
        if args.no_baseline:
            row += " | | | | | |"
        else:
            bcpu = time.process_time()
            base = baseline(players, case.sessions, args.draws, args.seed)
            bcpu = time.process_time() - bcpu
            check(base, ids)
            row += f" {figures(quality_report(players, base, separate, separate))} | {bcpu:.2f} |"
        print(row, flush=True)
        limit = 30.0 if case.players >= 400 else 10.0
        q = plan.quality
        # Teams: zero teammate meetings is required; compatriots are then kept apart as well as can be.
        compatriots = bool(case.countries and not case.team_size and q.same_country_meetings)
        missed = q.repeated_meetings or q.max_wind_spread > 1 or cpu > limit or q.separated_meetings
        if case.kind == "required" and (missed or compatriots):
            failures.append(case.name)
    if failures:
        print(f"\nrequired targets missed: {', '.join(failures)}")
        return 1
    print("\nall required targets met")
    return 0


if __name__ == "__main__":
    sys.exit(main())
