"""Per-request cost: ``python -m bench.requests [--hands 2 12]`` (see README.md here).

For each kind of request a table's scorer, its referee or the public makes (hand add, hand correction,
confirmation, the table page by its private key and signed in, the standings page cold and warm), on the
demo in PostgreSQL: how many times the game is replayed, how many SQL statements run, the application's
CPU time and the bytes sent. Each kind is measured on a table holding each of ``--hands`` hands, so a
cost that grows with the number of hands shows as a difference between the columns.
"""

from __future__ import annotations

import argparse
import cProfile
import os
import statistics
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlencode

from bench.database import fresh_database

ROOT = Path(__file__).resolve().parents[2]
DEFAULT_DATABASE = "postgres://postgres@127.0.0.1:5432/mahjong_bench_requests"
READS = 5  # a read is repeated this many times: its CPU time is the median


def setup_django(database_url: str) -> None:
    os.environ["DATABASE_URL"] = database_url
    os.environ["DEBUG"] = "1"  # REDIS_URL and CELERY_BROKER_URL are kept: the cache and broker of production
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()
    from django.conf import settings
    from django.core.management import call_command

    settings.ALLOWED_HOSTS = ["*"]
    call_command("migrate", verbosity=0)


# -- counting ---------------------------------------------------------------------------------------------


class Replays:
    """Counts the rule engine's games built per request: ``play_game`` and ``game_from_totals`` on every
    ruleset class (a replay is one call, whatever the number of hands)."""

    def __init__(self):
        self.count = 0

    def install(self) -> None:
        from scoring.rules.registry import _PRESETS

        for cls in {type(r) for r in _PRESETS.values()}:
            for name in ("play_game", "game_from_totals"):
                original = cls.__dict__.get(name)
                if original is None or getattr(original, "_counted", False):
                    continue
                setattr(cls, name, self._wrap(original))

    def _wrap(self, original):
        def counted(*args, **kwargs):
            self.count += 1
            return original(*args, **kwargs)

        counted._counted = True
        return counted


@dataclass
class Figure:
    replays: int
    statements: int
    cpu_ms: float
    bytes_sent: int
    status: int
    sql: tuple[str, ...] = ()


class Calls:
    """``--calls``: the Python function calls a request makes, counted by the profiler, instead of its CPU
    time. They do not vary with the machine or its load, so two runs compare call for call."""

    on = False

    @classmethod
    def run(cls, call) -> tuple[object, float]:
        """``call()``'s answer and its cost: CPU milliseconds, or function calls with ``--calls``."""
        if not cls.on:
            start = time.process_time()
            response = call()
            return response, (time.process_time() - start) * 1000
        profile = cProfile.Profile()
        response = profile.runcall(call)
        return response, float(sum(entry.callcount for entry in profile.getstats()))


def measure(replays: Replays, call, repeat: int = 1) -> Figure:
    """One request; a read is repeated ``repeat`` times and its CPU time is the median."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    cpus = []
    for _ in range(repeat):
        before = replays.count
        with CaptureQueriesContext(connection) as queries:
            response, cost = Calls.run(call)
            cpus.append(cost)
    body = b"".join(response.streaming_content) if response.streaming else response.content
    return Figure(
        replays.count - before,
        len(queries),
        statistics.median(cpus),
        len(body),
        response.status_code,
        tuple(q["sql"] for q in queries.captured_queries),
    )


# -- the requests -----------------------------------------------------------------------------------------


def mcr_hand(number: int) -> dict:
    """A plausible MCR hand: wins of 8 to 24 fan around the table, a draw now and then."""
    if number % 7 == 0:
        return {"result": "draw"}
    return {"result": "win", "winner": number % 4, "discarder": (number + 1) % 4, "fan": 8 + number % 17}


def phone_save(client, url: str, fields: dict):
    """The table page's script saving a hand as ``static/js/offline-entry.js`` sends it: the form, its key
    among the fields, URL-encoded, asking for the page's fragments; a redirect, when the answer is one, is
    followed with the same headers (as the browser's fetch does)."""
    headers = {"HTTP_X_ENTRY_FRAGMENTS": "1"}
    body = urlencode({name: "" if value is None else value for name, value in fields.items()})
    response = client.post(url, body, content_type="application/x-www-form-urlencoded", **headers)
    if response.status_code in (301, 302, 303):
        response = client.get(response["Location"], HTTP_X_ENTRY_FRAGMENTS="1")
    return response


def phone_saves(replays, client, key_url, form, version, table, actor, count) -> tuple[Figure, dict]:
    """The phone's save as its script sends it: the hand form with its key, asking for the fragments of
    the page that change (a redirect, when answered with one, is followed and counted). Measured READS
    times, each hand undone (outside the measure) but the last: the figure of the last, its CPU the
    median; and the last form sent."""
    from scoring import services

    saves = []
    for attempt in range(READS):
        if attempt:
            services.hand_remove_last(table=table, actor=actor, expected_version=None)
        phone = {**form, "version": version(), "idempotency_key": f"bench-{table.pk}-{count}-{attempt}"}
        phone.update(mcr_hand(count + 3))
        saves.append(measure(replays, lambda phone=phone: phone_save(client, key_url, phone)))
    saves[-1].cpu_ms = statistics.median(f.cpu_ms for f in saves)
    return saves[-1], phone


def run(hand_counts: list[int]) -> dict[str, dict[int, Figure]]:
    from django.core.cache import cache
    from django.test import Client
    from django.urls import reverse

    from config.settle import settle
    from scoring import services
    from scoring.models import TableResult
    from tournaments.demo import DEMO_SLUG, load_demo
    from tournaments.models import Role, Table, TournamentRole
    from tournaments.permissions import Actor

    replays = Replays()
    load_demo()
    replays.install()
    settle()  # as each server process does once loaded (config/wsgi.py)
    # as in production: the standings are recomputed by a worker, not in the request that changed them;
    # the queue is a no-op here and the benchmark runs the recompute itself, outside the measures
    from django.conf import settings

    from rankings.standings import services as standings

    settings.CELERY_TASK_ALWAYS_EAGER = False
    if not settings.CELERY_BROKER_URL:  # with a broker the recompute is queued to it, as in production
        standings._publish = lambda tournament_id: None
    tournament_tables = Table.objects.filter(session__tournament__slug=DEMO_SLUG).select_related(
        "session__tournament"
    )
    # the demo's tables of session 2 that have not started; one per column
    fresh = [
        t for t in tournament_tables.filter(session__number=2) if not TableResult.objects.filter(table=t)
    ]
    if len(fresh) < len(hand_counts):
        raise SystemExit(
            f"the demo has {len(fresh)} tables not started; asked for {len(hand_counts)} columns"
        )
    referee = TournamentRole.objects.get(tournament__slug=DEMO_SLUG, role=Role.REFEREE).user
    actor = Actor(user=referee, role=Role.REFEREE)
    figures: dict[str, dict[int, Figure]] = {}
    cache.clear()

    def record(kind: str, hands: int, figure: Figure, expect: tuple[int, ...] = (200, 302)) -> None:
        if figure.status not in expect:
            raise SystemExit(f"{kind} with {hands} hands answered {figure.status}")
        figures.setdefault(kind, {})[hands] = figure

    def one_table(table, count: int) -> None:
        for number in range(1, count + 1):
            services.hand_add(table=table, hand=mcr_hand(number), actor=actor, expected_version=None)
        session, slug = table.session.number, DEMO_SLUG
        by_key = Client()
        signed_in = Client()
        signed_in.force_login(referee)
        key_url = reverse("table-link", args=[table.private_key])
        page_url = reverse("table-page", args=[slug, session, table.number])
        api_url = f"/api/tables/{table.pk}/result/hands/"

        def version() -> int:
            return TableResult.objects.get(table=table).version

        # warm each client once (sessions, translations, templates), then measure
        by_key.get(key_url)
        signed_in.get(page_url)
        record("table page by key", count, measure(replays, lambda: by_key.get(key_url), READS))
        record("table page signed in", count, measure(replays, lambda: signed_in.get(page_url), READS))
        hand = mcr_hand(count + 1)
        form = {
            "action": "hand",
            "version": version(),
            "result": hand["result"],
            "winner": hand.get("winner", ""),
            "discarder": hand.get("discarder", ""),
            "fan": hand.get("fan", ""),
        }
        record("hand add (page, by key)", count, measure(replays, lambda: by_key.post(key_url, form)))
        figure, phone = phone_saves(replays, by_key, key_url, form, version, table, actor, count)
        record("phone's save (page)", count, figure)
        saved = version()
        record(
            "phone's save repeated",
            count,
            measure(
                replays,
                lambda: phone_save(by_key, key_url, phone),
            ),
        )
        if version() != saved:
            raise SystemExit("the repeated save stored the hand again")
        keys = [s.registration.key for s in table.seats.order_by("position").select_related("registration")]
        body = {**mcr_hand(count + 2), "version": version()}
        for name in ("winner", "discarder"):
            if body.get(name) is not None:
                body[name] = keys[body[name]]
        record(
            "hand add (API, by key)",
            count,
            measure(
                replays,
                lambda: by_key.post(
                    api_url, body, content_type="application/json", HTTP_X_TABLE_KEY=table.private_key
                ),
            ),
            expect=(201,),
        )
        edit_url = reverse("table-hand", args=[slug, session, table.number, 1])
        correction = {
            "version": version(),
            "result": "win",
            "winner": 2,
            "discarder": 3,
            "fan": 12,
            "reason": "wrong fan",
        }
        record(
            "hand correction (page)", count, measure(replays, lambda: signed_in.post(edit_url, correction))
        )
        confirm = {"action": "confirm", "version": version(), "short_reason": "time limit reached"}
        record("confirm (page)", count, measure(replays, lambda: signed_in.post(page_url, confirm)))
        standings_url = reverse("standings", args=[slug])
        standings.standings_recompute(tournament_id=table.session.tournament_id)
        cache.clear()
        record("standings page cold", count, measure(replays, lambda: Client().get(standings_url)))
        record("standings page warm", count, measure(replays, lambda: Client().get(standings_url), READS))

    for table, count in zip(fresh, hand_counts, strict=False):
        one_table(table, count)
    return figures


def report(figures: dict[str, dict[int, Figure]], hand_counts: list[int]) -> None:
    cost, digits = ("calls", 0) if Calls.on else ("CPU ms", 1)
    head = f"{'request':<26}" + "".join(
        f" | {f'{n} hands: replays, SQL, {cost}, bytes':>38}" for n in hand_counts
    )
    print(head)
    print("-" * len(head))
    for kind, by_count in figures.items():
        cells = []
        for n in hand_counts:
            f = by_count.get(n)
            cells.append(
                f" | {'':>38}"
                if f is None
                else f" | {f.replays:>7} {f.statements:>5} {f.cpu_ms:>8.{digits}f} {f.bytes_sent:>9}"
                + " " * 5
            )
        print(f"{kind:<26}" + "".join(cells))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, nargs="+", default=[2, 12], help="hands at the table before")
    parser.add_argument("--database", default=os.environ.get("DATABASE_URL", DEFAULT_DATABASE))
    parser.add_argument("--show", nargs="*", default=[], help="print the statements of these requests")
    parser.add_argument(
        "--calls", action="store_true", help="count each request's Python function calls instead of its CPU"
    )
    args = parser.parse_args(argv)
    Calls.on = args.calls
    if args.database.startswith(("postgres://", "postgresql://")):
        fresh_database(args.database)
    setup_django(args.database)
    figures = run(args.hands)
    report(figures, args.hands)
    for kind in args.show:
        for count, figure in figures.get(kind, {}).items():
            print(f"\n{kind}, {count} hands:")
            for sql in figure.sql:
                print("  " + sql[:160])
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
