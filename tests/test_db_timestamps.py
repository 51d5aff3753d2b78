"""On PostgreSQL, timestamps are read by psycopg's compiled loader (config/dbtypes.py): the same values,
with the same ``tzinfo``, as Django's own loader reads."""

from __future__ import annotations

import datetime as dt

import pytest
from django.db import connection

from tests.conftest import skip_or_fail
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db

TEXTS = (
    "2026-01-02 03:04:05.123456+02",
    "2026-07-02 03:04:05+00",
    "2026-03-29 01:59:59.999999-09:30",
    "0001-01-01 00:00:00+00",
    "9999-12-31 23:59:59.999999+00",
)


def _read(texts) -> tuple:
    with connection.cursor() as cursor:
        cursor.execute("SELECT " + ", ".join(f"'{t}'::timestamptz" for t in texts) + ", NULL::timestamptz")
        return cursor.fetchone()


def test_the_compiled_loader_reads_what_django_s_reads(make_tournament):
    if connection.vendor != "postgresql":
        skip_or_fail("the timestamps' loader is PostgreSQL's (DATABASE_URL=postgres://…)")
    from django.db.backends.postgresql.psycopg_any import register_tzloader

    from config.dbtypes import _COMPILED, _PythonLoader

    if _COMPILED is _PythonLoader:
        pytest.skip("psycopg without its compiled build: Django's loader stays")
    ours = _read(TEXTS)
    assert type(connection.connection.adapters.get_loader(1184, 0)).__name__ != "SpecificTzLoader"
    with connection.cursor() as cursor:  # Django's loader, on this cursor only
        register_tzloader(connection.timezone, cursor.cursor)
        cursor.execute("SELECT " + ", ".join(f"'{t}'::timestamptz" for t in TEXTS) + ", NULL::timestamptz")
        django_s = cursor.fetchone()
    assert ours == django_s
    assert [v.tzinfo for v in ours[:-1]] == [v.tzinfo for v in django_s[:-1]] == [dt.UTC] * len(TEXTS)
    assert ours[0] == dt.datetime(2026, 1, 2, 1, 4, 5, 123456, tzinfo=dt.UTC)
    assert ours[-1] is None
    # and through the models: a tournament's timestamps come back as they were written
    tournament = make_tournament()
    stamped = Tournament.objects.get(pk=tournament.pk)
    assert stamped.created_at == tournament.created_at and stamped.created_at.tzinfo is dt.UTC


def test_each_value_is_read_by_the_compiled_code_when_the_zones_agree():
    """Django's sessions are in UTC: the compiled loader's values already carry Django's ``tzinfo``, so
    psycopg calls the compiled ``load`` itself for each value; a zone that differs is set on each value."""
    if connection.vendor != "postgresql":
        skip_or_fail("the timestamps' loader is PostgreSQL's (DATABASE_URL=postgres://…)")
    from zoneinfo import ZoneInfo

    from config.dbtypes import _COMPILED, _loader, _PythonLoader

    if _COMPILED is _PythonLoader:
        pytest.skip("psycopg without its compiled build: Django's loader stays")
    connection.ensure_connection()
    raw = connection.connection
    registered = raw.adapters.get_loader(1184, 0)
    loader = registered(1184, raw)
    assert registered.timezone is connection.timezone is dt.UTC
    assert isinstance(loader.load.__self__, _COMPILED)  # the compiled load itself: no Python per value
    madrid = ZoneInfo("Europe/Madrid")
    other = _loader(madrid, same=False)(1184, raw)
    value = other.load(b"2026-07-02 03:04:05+00")
    # as Django's loader gives it: the session's wall time, with Django's zone set on it
    assert value.tzinfo is madrid and value.replace(tzinfo=None) == dt.datetime(2026, 7, 2, 3, 4, 5)
