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

#: the demo tournament's 40 players (tournaments/demo.py): 8 countries, each one club, of these sizes
DEMO_SIZES = (6, 5, 5, 5, 4, 5, 4, 6)


@dataclass(frozen=True)
class Case:
    players: int
    sessions: int
    kind: str  # "required" or "stretch"
    countries: int = 0  # players come from this many countries of equal size
    team_size: int = 0  # players form teams of this size (consecutive numbers), kept apart
    spread_countries: bool = False  # country of player i is i modulo ``countries`` (teams mix countries)
    sizes: tuple[int, ...] = ()  # countries of these sizes, in order (players beyond them have none)
    club_size: int = 0  # clubs of this many consecutive players (inside the countries when sizes match)
    clubs_are_countries: bool = False  # every country is one club
    label: str = ""  # what the case is, in its name
    tag: str = ""  # the case's key after its size (``--only``)

    @property
    def name(self) -> str:
        text = f"{self.players} x {self.sessions}"
        if self.team_size:
            text += f", teams of {self.team_size}"
        if self.countries:
            text += f", {self.countries} countries"
        if self.sizes:
            text += ", countries of " + "/".join(map(str, self.sizes))
        if self.club_size:
            text += f", clubs of {self.club_size}"
        if self.label:
            text += f", {self.label}"
        return text

    @property
    def key(self) -> str:
        text = f"{self.players}x{self.sessions}"
        if self.team_size:
            text += "t"
        return text + self.tag


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
    # The speed target: each of these (and every case above) under 1 s of CPU.
    Case(40, 6, "speed", sizes=DEMO_SIZES, clubs_are_countries=True, label="clubs alike (demo)", tag="d"),
    Case(40, 8, "speed", sizes=(15, 10, 5, 5, 5), tag="c"),
    Case(40, 10, "speed", sizes=(15, 10, 5, 5, 5), tag="c"),
    Case(40, 8, "speed", sizes=(20, 10), tag="c2"),
    Case(40, 10, "speed", sizes=(20, 10), tag="c2"),
    Case(400, 10, "speed", countries=20, club_size=5, tag="c"),
]


def _sized(sizes: tuple[int, ...], i: int) -> str:
    """The country of player ``i`` (1-based) when countries come in blocks of ``sizes``."""
    end = 0
    for k, size in enumerate(sizes, start=1):
        end += size
        if i <= end:
            return f"C{k}"
    return ""


def _country(case: Case, i: int) -> str:
    if case.sizes:
        return _sized(case.sizes, i)
    if not case.countries:
        return ""
    if case.spread_countries:
        return f"C{(i - 1) % case.countries + 1}"
    return f"C{(i - 1) // (case.players // case.countries) + 1}"


def _club(case: Case, i: int) -> str:
    if case.clubs_are_countries:
        return _country(case, i)
    if case.club_size:
        return f"K{(i - 1) // case.club_size + 1}"
    return ""


def roster(case: Case) -> list[Player]:
    return [Player(id=i, country=_country(case, i), club=_club(case, i)) for i in range(1, case.players + 1)]


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
    """repeats | max pair | teammates | same country | same club | wind spread"""
    return (
        f"{report.repeated_meetings} | {report.max_pair_meetings} | {report.separated_meetings} | "
        f"{report.same_country_meetings} | {report.same_club_meetings} | {report.max_wind_spread}"
    )


def run_case(case: Case, seed: int, draws: int | None) -> tuple[str, object, float]:
    """One table row for ``case`` (the baseline's figures too unless ``draws`` is None), the engine's
    quality report and its CPU seconds."""
    players = roster(case)
    separate = teams(case)
    ids = [p.id for p in players]
    wall, cpu = time.perf_counter(), time.process_time()
    tournament = Tournament(players, separate=separate, settings=SeatingSettings(seed=seed))
    plan = plan_schedule(tournament, case.sessions)
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    check(plan.sessions, ids)
    row = f"| {case.name} | {case.kind} | {seed} | {figures(plan.quality)} | {cpu:.2f} | {wall:.2f} |"
    if draws is None:
        row += " | | | | | | |"
    else:
        bcpu = time.process_time()
        base = baseline(players, case.sessions, draws, seed)
        bcpu = time.process_time() - bcpu
        check(base, ids)
        row += f" {figures(quality_report(players, base, separate, separate))} | {bcpu:.2f} |"
    return row, plan.quality, cpu


def missed(case: Case, q, cpu: float) -> bool:
    """Whether a required target is missed (speed cases: every target but the compatriots, reported)."""
    limit = 30.0 if case.players >= 400 else 10.0
    # Teams: zero teammate meetings is required; compatriots are then kept apart as well as can be.
    compatriots = bool(
        case.countries and not case.team_size and not case.club_size and q.same_country_meetings
    )
    if case.kind == "speed":
        return bool(q.repeated_meetings or q.max_wind_spread > 1 or q.separated_meetings)
    bad = q.repeated_meetings or q.max_wind_spread > 1 or cpu > limit or q.separated_meetings
    return case.kind == "required" and bool(bad or compatriots)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.seating", description=__doc__.splitlines()[0])
    parser.add_argument(
        "--only", nargs="*", help='cases to run, e.g. "32x10" "40x8" ("40x8t": the case with teams)'
    )
    parser.add_argument(
        "--draws", type=int, default=1000, help="random seatings per session for the baseline"
    )
    parser.add_argument("--seed", type=int, nargs="*", default=[0], help="one or more seeds")
    parser.add_argument("--no-baseline", action="store_true")
    args = parser.parse_args(argv)

    cases = CASES
    if args.only:
        wanted = {w.replace(" ", "").lower() for w in args.only}
        cases = [c for c in CASES if c.key.lower() in wanted]

    header = (
        "| case | kind | seed | repeats | max pair | teammates | same country | same club | wind spread "
        "| CPU s | wall s | baseline repeats | max pair | teammates | same country | same club "
        "| wind spread | CPU s |"
    )
    print(header)
    print("|" + "---|" * (header.count("|") - 1))
    failures, slow = [], []
    for case in cases:
        for seed in args.seed:
            row, q, cpu = run_case(case, seed, None if args.no_baseline else args.draws)
            print(row, flush=True)
            if missed(case, q, cpu):
                failures.append(f"{case.name} (seed {seed})")
            if cpu > 1.0:
                slow.append(f"{case.name} (seed {seed}, {cpu:.2f} s)")
    if slow:
        print(f"\nover 1 s of CPU: {', '.join(slow)}")
    if failures:
        print(f"\nrequired targets missed: {', '.join(failures)}")
        return 1
    print("\nall required targets met")
    return 0


if __name__ == "__main__":
    sys.exit(main())
