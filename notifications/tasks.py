"""Background tasks of Web Push: thin wrappers over notifications.jobs, taking plain data only.

A domain event queues ``push_event``, which queues the messages it tells in batches (``push_send``); a
batch sends each message, deletes the subscriptions the push service no longer knows and tries the others
again later with backoff (429, 5xx). The clock's messages are ``push_clock`` tasks held until their time
(with a broker; under the embedded default a timer of the server's process), re-checked when they run.
"""

from __future__ import annotations

from celery import shared_task

from notifications import jobs

MAX_RETRIES = 5


def _send(tournament_id: int, rows: list) -> None:
    jobs.dispatch("notifications.tasks.push_send", (tournament_id, rows))


@shared_task(ignore_result=True, acks_late=True)
def push_event(tournament_id: int, what: list, sessions: list, tables: list) -> int:
    items = jobs.push_event(tournament_id=tournament_id, what=what, sessions=sessions, tables=tables)
    queued = jobs.queue(tournament_id, items, _send)
    if "clock" in what and sessions:
        for session_id, version, when in jobs.clock_plan(tournament_id=tournament_id, sessions=sessions):
            jobs.dispatch("notifications.tasks.push_clock", (session_id, version), eta=when)
    return queued


@shared_task(ignore_result=True, acks_late=True)
def push_clock(session_id: int, version: int) -> int:
    tournament_id, items = jobs.push_clock(session_id=session_id, version=version)
    return jobs.queue(tournament_id, items, _send)


@shared_task(bind=True, ignore_result=True, acks_late=True, max_retries=MAX_RETRIES)
def push_send(self, tournament_id: int, rows: list) -> int:
    outcome = jobs.push_send(tournament_id=tournament_id, rows=rows)
    if outcome.retry and not self.request.is_eager and self.request.retries < MAX_RETRIES:
        # only the messages that were not taken, after 10 s, 20 s, 40 s, …
        raise self.retry(args=(tournament_id, outcome.retry), countdown=10 * 2**self.request.retries)
    return outcome.sent


@shared_task(ignore_result=True)
def push_sweep() -> int:
    return sum(jobs.queue(tournament_id, items, _send) for tournament_id, items in jobs.push_sweep())
