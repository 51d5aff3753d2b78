"""The work of the push tasks (notifications.tasks, each named as the function here it runs): what an event
tells, queued in batches; one batch sent; the clock's messages scheduled at their time; the sweep."""

from __future__ import annotations

import datetime as dt
import logging
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

from celery import current_app
from django.conf import settings
from django.db import close_old_connections
from django.utils import timezone

from notifications import events, topics, vapid
from notifications.messages import Notice, render
from notifications.models import PushSent, Subscription
from notifications.services import gone, sent
from notifications.webpush import GONE, RETRY, SENT, Outgoing, Sender
from tournaments.models import Session, SessionClock, Tournament

log = logging.getLogger(__name__)
CLOCK_LATE = dt.timedelta(minutes=2)
KEEP_TOLD = dt.timedelta(
    days=14
)  # the record of what was told is kept this long  # a clock message this late is still sent; later, it is stale


def as_rows(items: list[events.Item]) -> list[list]:
    """Notices as plain data for a task's arguments."""
    return [[sub, n.topic, n.facts, n.url] for sub, n in items]


def queue(tournament_id: int, items: list[events.Item], send: Callable[[int, list], None]) -> int:
    """Hand the notices of one event to ``send`` in batches of PUSH_BATCH; how many were queued."""
    rows = as_rows(items)
    size = max(1, settings.PUSH_BATCH)
    for start in range(0, len(rows), size):
        send(tournament_id, rows[start : start + size])
    return len(rows)


def push_event(*, tournament_id: int, what, sessions, tables) -> list[events.Item]:
    """What a domain event tells (nothing to do, in one query, for a tournament no phone follows)."""
    if not Subscription.objects.filter(tournament_id=tournament_id).exists():
        return []
    tournament = Tournament.objects.filter(pk=tournament_id).first()
    if tournament is None:
        return []
    return events.of_change(tournament, set(what), list(sessions), list(tables), timezone.now())


def clock_plan(*, tournament_id: int, sessions) -> list[tuple[int, int, dt.datetime]]:
    """The clock's messages to come, (session, version, when), for the clocks a change moved."""
    if not Subscription.objects.filter(tournament_id=tournament_id, topics__contains=",clock,").exists():
        return []
    now = timezone.now()
    plan = []
    for session in Session.objects.filter(pk__in=list(sessions), tournament_id=tournament_id):
        version, moments = events.clock_moments(session)
        plan += [(session.pk, version, when) for when, _, _ in moments if when > now - CLOCK_LATE]
    return plan


def push_clock(*, session_id: int, version: int) -> tuple[int, list[events.Item]]:
    """(tournament, the clock's messages due now), re-checked: a clock that moved since sends nothing (its
    new schedule does)."""
    session = Session.objects.filter(pk=session_id).select_related("tournament").first()
    if session is None:
        return 0, []
    return session.tournament_id, events.clock_due(session, version, timezone.now(), late=CLOCK_LATE)


def push_sweep() -> list[tuple[int, list[events.Item]]]:
    """Every sweep (beat, or the embedded scheduler): the tables waiting for confirmation too long, and any
    clock message due that its timed task missed (a restart)."""
    now = timezone.now()
    PushSent.objects.filter(created_at__lt=now - KEEP_TOLD).delete()  # long past: nothing asks any more
    found = [(tournament.pk, items) for tournament, items in events.waiting(now)]
    running = SessionClock.objects.filter(
        state="running",
        session__tournament__push_subscriptions__topics__contains=",clock,",
    ).distinct()
    for clock in running.select_related("session__tournament"):
        late = dt.timedelta(seconds=settings.PUSH_SWEEP_SECONDS) + CLOCK_LATE
        items = events.clock_due(clock.session, clock.version, now, late=late)
        if items:
            found.append((clock.session.tournament_id, items))
    return found


@dataclass
class Outcome:
    sent: int = 0
    gone: int = 0
    retry: list | None = None
    failed: int = 0


def push_send(*, tournament_id: int, rows: list[list]) -> Outcome:
    """Send one batch: each message rendered in its phone's language, PUSH_CONCURRENCY at a time; a
    subscription the push service no longer knows (404, 410) goes; those to try again (429, 5xx, no
    answer) are returned."""
    keys = vapid.keys()
    outcome = Outcome(retry=[])
    tournament = Tournament.objects.filter(pk=tournament_id).only("name").first()
    if keys is None or tournament is None:
        return outcome
    subs = Subscription.objects.in_bulk([row[0] for row in rows])
    messages = []
    for row in rows:
        sub = subs.get(row[0])
        if sub is None:
            continue  # removed since
        notice = Notice(row[1], row[2], row[3])
        message = Outgoing(
            endpoint=sub.endpoint,
            p256dh=sub.p256dh,
            auth=sub.auth,
            payload=render(notice, language=sub.language, tournament=tournament.name),
            ttl=topics.TTL.get(notice.topic, 3600),
            topic=notice.topic,
            urgency=topics.URGENCY.get(notice.topic, "normal"),
        )
        messages.append((row, sub.pk, message))
    sender = Sender(keys)
    try:
        with ThreadPoolExecutor(max_workers=max(1, settings.PUSH_CONCURRENCY)) as pool:
            answers = list(pool.map(lambda item: sender.send(item[2]), messages))
    finally:
        sender.close()
    done, dead = [], []
    for (row, pk, _), (status, code) in zip(messages, answers, strict=True):
        if status == SENT:
            done.append(pk)
        elif status == GONE:
            dead.append(pk)
        elif status == RETRY:
            outcome.retry.append(row)
        else:
            outcome.failed += 1
            log.warning("push to subscription %s refused: %s", pk, code)
    sent(ids=done)
    gone(ids=dead)
    outcome.sent, outcome.gone = len(done), len(dead)
    return outcome


def dispatch(name: str, args: tuple, *, eta: dt.datetime | None = None) -> None:
    """Queue the task ``name`` (at ``eta``); under the embedded default run it in this process (at ``eta``:
    a timer thread of the server's process)."""
    if not settings.CELERY_TASK_ALWAYS_EAGER:
        # the push tasks keep no result (each is ``ignore_result``): no result to wait on is subscribed to
        current_app.send_task(name, args=args, eta=eta, ignore_result=True)
        return
    if name not in current_app.tasks:  # the tasks' modules are imported on first use in this process
        current_app.loader.import_default_modules()
    task = current_app.tasks[name]
    if eta is None:
        task.apply(args=args, throw=True)
    else:
        later(eta, lambda: task.apply(args=args, throw=True))


def later(when: dt.datetime, run: Callable[[], None]) -> None:
    """Under the embedded default (no broker, no worker to hold a task until its time): a timer thread of
    this process runs ``run`` at ``when``; the sweep catches what a restart lost."""

    def fire() -> None:
        try:
            run()
        except Exception:  # logged; the sweep tries again
            log.exception("a timed push failed")
        finally:
            close_old_connections()

    delay = max(0.0, (when - timezone.now()).total_seconds())
    timer = threading.Timer(delay, fire)
    timer.daemon = True
    timer.start()
