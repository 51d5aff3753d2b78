"""Writes done once per key: run a write and store its answer, replay the answer to a repeat.

The record of a key is inserted in the same transaction as the write it guards, before the write runs,
by one statement that does nothing when the key has a record already (``ON CONFLICT DO NOTHING``), and its
answer is stored by one more once the write is done: two statements in all. A concurrent request with the
same key blocks on the record's unique constraint until the first one commits (PostgreSQL; SQLite
serialises writers on its file lock) and then replays the stored answer; if the first one failed with an
exception, its record is rolled back with everything it did and the second one does the work. So a write is done at most once per actor and key, and its answer is the same every
time it is asked for.
"""

from __future__ import annotations

import datetime as dt
import functools
import gzip
import logging
import time
import zlib
from collections.abc import Callable
from contextlib import contextmanager
from dataclasses import dataclass

from django.conf import settings
from django.db import DEFAULT_DB_ALIAS, connection, connections, transaction
from django.http import HttpResponse
from django.utils import timezone

from idempotency.models import IdempotencyRecord

logger = logging.getLogger(__name__)

REPLAYED_HEADER = "Idempotent-Replayed"
# Headers of the view's answer that are not part of it (the outer middleware sets them per response).
SKIPPED_HEADERS = frozenset({"set-cookie", "content-length"})


def keep_hours() -> int:
    """How long a key is remembered: at least 24 hours (setting ``IDEMPOTENCY_KEEP_HOURS``, default 48)."""
    return max(24, int(getattr(settings, "IDEMPOTENCY_KEEP_HOURS", 48)))


@dataclass(frozen=True)
class Mismatch:
    """The key was used before for another request (another body, path or method)."""

    record: IdempotencyRecord


@dataclass(frozen=True)
class InProgress:
    """The first request with this key is still being done (after waiting ``wait_seconds()``)."""


def wait_seconds() -> float:
    """How long a repeat waits for the first request with its key to finish (``IDEMPOTENCY_WAIT_SECONDS``)."""
    return float(getattr(settings, "IDEMPOTENCY_WAIT_SECONDS", 10))


class _NotKept(Exception):
    """The answer must not be stored (a server error, a streamed body, a refusal): roll the
    record back."""

    def __init__(self, response: HttpResponse):
        super().__init__(response.status_code)
        self.response = response


def _stored(record: IdempotencyRecord, accepts_gzip: bool = True) -> HttpResponse:
    """The stored answer. One stored compressed (the first request accepted gzip: the pages compressed
    by ``gzip_page``, the only encoding answers here carry) is given to a repeat that does not accept it
    decompressed, without its ``Content-Encoding``; bytes that do not decompress are given as stored."""
    body = bytes(record.body)
    headers = dict(record.headers)
    encoding = next((name for name in headers if name.lower() == "content-encoding"), None)
    if encoding is not None and not accepts_gzip and headers[encoding].strip().lower() == "gzip":
        try:
            body = gzip.decompress(body)
        except (OSError, EOFError, zlib.error):
            logger.warning("idempotency record %s: its gzipped answer does not decompress", record.pk)
        else:
            del headers[encoding]
    response = HttpResponse(body, status=record.status)
    for name, value in headers.items():
        response[name] = value
    response[REPLAYED_HEADER] = "true"
    return response


def _answer_of(
    record: IdempotencyRecord,
    fingerprint: str,
    again: Callable[[], HttpResponse | Mismatch | InProgress],
    legacy: Callable[[], str] | None = None,
    accepts_gzip: bool = True,
) -> HttpResponse | Mismatch | InProgress:
    """The stored answer, once the first request is done. A record still being written is only seen where
    the database shows uncommitted rows (one connection shared by threads); wait for it, and start again
    if it was rolled back. ``legacy``: the request's fingerprint as records stored before the present
    form were made (asked only when the present one differs); ``accepts_gzip``: whether the repeat
    accepts a compressed answer."""
    if record.fingerprint != fingerprint and (legacy is None or record.fingerprint != legacy()):
        return Mismatch(record)
    deadline = time.monotonic() + wait_seconds()
    while record.status == 0:
        if time.monotonic() > deadline:
            return InProgress()
        time.sleep(0.05)
        latest = IdempotencyRecord.objects.filter(pk=record.pk).first()
        if latest is None:
            return again()
        record = latest
    return _stored(record, accepts_gzip)


class _WithSavepoints(Exception):
    """A failure inside the request was caught without a savepoint to roll back to: do it again with them."""


def first_try_broken() -> bool:
    """True inside a first try without savepoints whose transaction a failure has already marked for
    rollback: whatever fails next is that failure's echo, and the request is done again with savepoints
    (``_first_run``). An exception handler lets such an exception go instead of answering it."""
    wrapper = connections[DEFAULT_DB_ALIAS]  # ``connection`` is a proxy: its own attributes are elsewhere
    return "_savepoint_allowed" in vars(wrapper) and wrapper.needs_rollback


@contextmanager
def _without_savepoints():
    """Nested ``transaction.atomic`` blocks take no savepoint: a failure inside one marks the whole
    transaction for rollback (``connection.needs_rollback``) instead of rolling back to it."""
    connection._savepoint_allowed = lambda: False
    try:
        yield
    finally:
        del connection._savepoint_allowed


class _Again(Exception):
    """The record that blocked this key was rolled back: start again."""


def _claim(*, scope: str, key: str, fingerprint: str, method: str, path: str) -> IdempotencyRecord | None:
    """Insert the record of (scope, key) in the current transaction, in one statement: the new record, or
    None when the key has one already. A concurrent request's record not yet committed blocks this one
    until it commits (then None) or rolls back (then this one is inserted), on the unique constraint."""
    record = IdempotencyRecord(
        scope=scope, key=key, fingerprint=fingerprint, method=method[:8], path=path[:500], status=0, body=b""
    )
    fields = [IdempotencyRecord._meta.get_field(name) for name in _CLAIMED]
    values = [f.get_db_prep_save(getattr(record, f.attname), connection) for f in fields]
    with connection.cursor() as cursor:
        cursor.execute(_claim_sql(connection.vendor), values)
        row = cursor.fetchone()
    if row is None:
        return None
    record.pk = row[0]
    record._state.adding = False
    return record


_CLAIMED = ("scope", "key", "fingerprint", "method", "path", "status", "headers", "body", "created_at")
_ANSWER = ("status", "headers", "body")


@functools.cache
def _claim_sql(vendor: str) -> str:
    quote = connection.ops.quote_name
    meta = IdempotencyRecord._meta
    names = ", ".join(quote(meta.get_field(name).column) for name in _CLAIMED)
    marks = ", ".join(["%s"] * len(_CLAIMED))
    return (
        f"INSERT INTO {quote(meta.db_table)} ({names}) VALUES ({marks}) "
        f'ON CONFLICT ("scope", "key") DO NOTHING RETURNING "id"'
    )


def _store(record: IdempotencyRecord) -> None:
    """Write the answer into the record claimed by this request, in one statement (its SQL written once)."""
    fields = [IdempotencyRecord._meta.get_field(name) for name in _ANSWER]
    values = [f.get_db_prep_save(getattr(record, f.attname), connection) for f in fields]
    with connection.cursor() as cursor:
        cursor.execute(_store_sql(connection.vendor), [*values, record.pk])


@functools.cache
def _store_sql(vendor: str) -> str:
    quote = connection.ops.quote_name
    meta = IdempotencyRecord._meta
    columns = ", ".join(f"{quote(meta.get_field(name).column)} = %s" for name in _ANSWER)
    return f"UPDATE {quote(meta.db_table)} SET {columns} WHERE {quote(meta.pk.column)} = %s"


def idempotent_run(
    *,
    scope: str,
    key: str,
    fingerprint: str,
    method: str,
    path: str,
    run: Callable[[], HttpResponse],
    kept: Callable[[HttpResponse], bool] = lambda response: True,
    savepoints: bool = False,
    legacy: Callable[[], str] | None = None,
    accepts_gzip: bool = True,
) -> HttpResponse | Mismatch | InProgress:
    """The answer of ``run()`` for the first request with (scope, key); the stored answer for a repeat
    with the same fingerprint (decompressed for a repeat that does not ``accepts_gzip``); a ``Mismatch``
    for a repeat with another one. An answer for which ``kept(answer)`` is false (a refusal) is rolled
    back with its record: nothing stored.

    ``run()`` is first called with no savepoint inside the record's transaction (its services' own
    transactions are part of it: a savepoint would cost two statements for nothing, since a failed write
    rolls the record back with it). When something inside it failed and was caught (a refused write
    whose form is shown again, a race lost on a unique constraint), the transaction can only roll back:
    the whole request is then done again, from the record, with savepoints as usual."""
    request = {"scope": scope, "key": key, "fingerprint": fingerprint, "method": method, "path": path}

    def again(with_savepoints: bool = savepoints):
        return idempotent_run(
            **request,
            run=run,
            kept=kept,
            savepoints=with_savepoints,
            legacy=legacy,
            accepts_gzip=accepts_gzip,
        )

    try:
        with transaction.atomic():
            record = _claim(**request)
            if record is None:  # the key was used before (or by a concurrent request, now committed)
                existing = IdempotencyRecord.objects.filter(scope=scope, key=key).first()
                if existing is None:  # pragma: no cover - the other request's record was rolled back
                    raise _Again
                return _answer_of(existing, fingerprint, again, legacy, accepts_gzip)
            response = _first_run(run, savepoints)
            if response.streaming or response.status_code >= 500 or not kept(response):
                raise _NotKept(response)
            record.status = response.status_code
            record.body = response.content
            record.headers = {k: v for k, v in response.items() if k.lower() not in SKIPPED_HEADERS}
            _store(record)
    except _Again:  # pragma: no cover - a race lost twice in a row is not expected
        return again()
    except _WithSavepoints:
        return again(with_savepoints=True)
    except _NotKept as exc:
        return exc.response
    return response


def _first_run(run: Callable[[], HttpResponse], savepoints: bool) -> HttpResponse:
    """``run()``'s answer, rendered, inside the record's transaction: without savepoints unless asked;
    ``_WithSavepoints`` when something failed inside and was caught (the transaction can only roll back)."""
    if savepoints:
        response = run()
    else:
        with _without_savepoints():
            try:
                response = run()
            except Exception:
                if connection.needs_rollback:
                    raise _WithSavepoints from None
                raise
        if connection.needs_rollback:
            raise _WithSavepoints
    if callable(getattr(response, "render", None)) and not getattr(response, "is_rendered", True):
        response = response.render()
    return response


def idempotency_purge(*, now: dt.datetime | None = None) -> int:
    """Forget the keys older than the keeping time; returns how many were removed."""
    cutoff = (now or timezone.now()) - dt.timedelta(hours=keep_hours())
    removed, _ = IdempotencyRecord.objects.filter(created_at__lt=cutoff).delete()
    return removed
