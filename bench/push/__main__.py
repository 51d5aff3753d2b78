"""Web Push: ``python -m bench.push [--players 400]`` (see README.md here).

Publishing a session's seating for ``--players`` players, each with a phone subscribed to its seat: what the
publishing write costs, what the event's task queues (one message per player), the time and statements to
send them with one worker to a local push service, and the statements of the pages that carry the "Notify
me on this phone" panel with and without subscriptions.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import sys
import time
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from bench.database import fresh_database  # noqa: E402
from bench.requests.__main__ import setup_django  # noqa: E402

DEFAULT_DATABASE = "sqlite:////tmp/mahjong-bench/push.sqlite3"


@dataclass
class Figure:
    cpu_ms: float
    wall_ms: float
    statements: int


def measure(call) -> tuple[Figure, object]:
    from django.db import connection, reset_queries
    from django.test.utils import CaptureQueriesContext

    reset_queries()
    with CaptureQueriesContext(connection) as queries:
        start, wall = time.process_time(), time.perf_counter()
        answer = call()
        cpu, wall = (time.process_time() - start) * 1000, (time.perf_counter() - wall) * 1000
    return Figure(cpu, wall, len(queries)), answer


def _serve(port, count) -> None:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"  # keep-alive, as the vendors' services
        disable_nagle_algorithm = True

        def do_POST(self):
            self.rfile.read(int(self.headers.get("Content-Length") or 0))
            with count.get_lock():
                count.value += 1
            self.send_response(201)
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, *args):
            pass

    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    port.value = httpd.server_address[1]
    httpd.serve_forever()


class PushService:
    """A stand-in for the browser vendors' push services, in a process of its own (so that it takes no
    time from the worker measured): counts the messages, answers 201."""

    def __init__(self):
        self.port_value, self.received = multiprocessing.Value("i", 0), multiprocessing.Value("i", 0)
        self.process = multiprocessing.Process(
            target=_serve, args=(self.port_value, self.received), daemon=True
        )
        self.process.start()
        while not self.port_value.value:
            time.sleep(0.01)
        self.port = self.port_value.value

    @property
    def count(self) -> int:
        return self.received.value

    def close(self) -> None:
        self.process.terminate()


def build(players: int):
    import datetime as dt

    from tournaments import services

    tournament = services.tournament_create(
        name="Push bench", slug="push-bench", ruleset="mcr", starts_on=dt.date(2026, 5, 1), sessions=2
    )
    for i in range(1, players + 1):
        player = services.player_create(first_name=f"Player{i}", last_name="Bench", country="ESP")
        services.registration_create(tournament=tournament, player=player, key=f"p{i}")
    regs = list(tournament.registrations.order_by("pk"))
    tables = [regs[i : i + 4] for i in range(0, len(regs), 4)]
    services.session_seat(session=tournament.sessions.get(number=1), tables=tables)
    return tournament, regs


def subscribe(client, regs, port: int) -> None:
    import json

    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from django.urls import reverse

    from notifications.vapid import b64url

    for i, reg in enumerate(regs):
        key = ec.generate_private_key(ec.SECP256R1()).public_key()
        raw = key.public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
        body = {
            "endpoint": f"http://127.0.0.1:{port}/push/{i}",
            "keys": {"p256dh": b64url(raw), "auth": b64url(os.urandom(16))},
            "topics": ["seat", "start", "clock", "result", "announce"],
        }
        url = reverse("push-player-link", args=[reg.player.private_key, reg.tournament.slug])
        language = "es" if i % 2 else "en"
        answer = client.post(
            url, json.dumps(body), content_type="application/json", HTTP_ACCEPT_LANGUAGE=language
        )
        assert answer.status_code == 201, answer.content


def pages(client, tournament, reg) -> dict[str, int]:
    """Statements of each page with the push panel (the anonymous public page served from its cache)."""
    from django.core.cache import cache
    from django.urls import reverse

    table = tournament.sessions.get(number=1).tables.order_by("number").first()
    urls = {
        "private link page": reverse("player-private", args=[reg.player.private_key]),
        "public player page (cold)": reverse("player-public", args=[tournament.slug, reg.key]),
        "table link page": reverse("table-link", args=[table.private_key]),
    }
    figures = {}
    for name, url in urls.items():
        client.get(url)  # the process's own memos warmed, as a running server has them
        cache.clear()
        figure, answer = measure(lambda url=url: client.get(url))
        assert answer.status_code == 200, (url, answer.status_code)
        figures[name] = figure.statements
    return figures


def run(players: int) -> int:
    from django.conf import settings
    from django.db import connection, transaction
    from django.test import Client

    from notifications import jobs, receivers, tasks, vapid
    from tournaments import lifecycle
    from tournaments.models import Session

    if connection.vendor == "sqlite":  # a benchmark's file: no need to wait for the disk at each commit
        connection.cursor().execute("PRAGMA synchronous=OFF")
    service = PushService()
    settings.PUSH_SERVICE_HOSTS = [*settings.PUSH_SERVICE_HOSTS, "http://127.0.0.1"]
    settings.VAPID_PUBLIC_KEY, settings.VAPID_PRIVATE_KEY = vapid.new_pair()
    queued: list[tuple[str, tuple]] = []

    def to_the_broker(name, args, *, eta=None):  # a broker: the tasks wait for the worker
        queued.append((name, args))

    jobs.dispatch = receivers.dispatch = to_the_broker
    with transaction.atomic():  # one commit for the set-up
        tournament, regs = build(players)
    client = Client()
    without = pages(client, tournament, regs[0])
    subscribe(client, regs, service.port)
    with_phones = pages(client, tournament, regs[0])

    queued.clear()

    def publish_committed():  # the seating workflow's publish: the flag, and the session moves to seated
        with transaction.atomic():
            session = tournament.sessions.get(number=1)
            session.seating_published = True
            session.save(update_fields=["seating_published"])
            lifecycle.session_move(session=session, to=Session.Status.SEATED)

    write, _ = measure(publish_committed)
    events = [args for name, args in queued if name == "notifications.tasks.push_event"]
    queued.clear()
    event, _ = measure(lambda: [tasks.push_event.run(*args) for args in events])
    batches = [args for name, args in queued if name == "notifications.tasks.push_send"]
    messages = sum(len(rows) for _, rows in batches)
    send, _ = measure(lambda: [tasks.push_send.run(*args) for args in batches])
    print(f"players subscribed: {players}; push_event tasks queued by the publishing: {len(events)}")
    print(
        f"publish (the write, its request):   {write.statements:5d} statements {write.wall_ms:9.1f} ms wall"
    )
    print(
        f"push_event (worker):                {event.statements:5d} statements {event.wall_ms:9.1f} ms wall;"
        f" {messages} messages queued in {len(batches)} push_send tasks"
    )
    print(
        f"push_send, one worker:              {send.statements:5d} statements {send.wall_ms:9.1f} ms wall"
        f" {send.cpu_ms:9.1f} ms CPU; {service.count} messages received by the push service"
        f" ({send.wall_ms / max(1, service.count):.2f} ms each)"
    )
    for name in without:
        print(
            f"{name:34s} {without[name]:3d} statements without phones, {with_phones[name]:3d} with {players}"
        )
    ok = messages == players == service.count and without == with_phones
    print("OK" if ok else "MISMATCH")
    service.close()
    return 0 if ok else 1


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=400)
    parser.add_argument("--database", default=os.environ.get("DATABASE_URL", DEFAULT_DATABASE))
    args = parser.parse_args(argv)
    if args.database.startswith(("postgres://", "postgresql://")):
        fresh_database(args.database)
    elif args.database.startswith("sqlite:///"):
        path = Path(args.database.removeprefix("sqlite:///"))
        path.parent.mkdir(parents=True, exist_ok=True)
        path.unlink(missing_ok=True)
    setup_django(args.database)
    return run(args.players)


if __name__ == "__main__":
    raise SystemExit(main())
