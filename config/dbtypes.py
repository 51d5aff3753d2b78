"""PostgreSQL's timestamps read by psycopg's compiled loader.

Django's PostgreSQL backend reads every ``timestamptz`` column with a loader of its own, a subclass of
psycopg's pure-Python one (``django.db.backends.postgresql.psycopg_any.BaseTzLoader``): it parses the text
in Python, about three microseconds a value against one compiled, and a table page reads forty of them. psycopg's binary package
has the same loader compiled. Here each new connection reads timestamps with the compiled loader, and the
result is given the connection's time zone exactly as Django's loader gives it (the connection's session
time zone is Django's, set before this runs: the time is the same, the ``tzinfo`` object Django's).

Where psycopg has no compiled loader (its pure-Python build) nothing changes.
"""

from __future__ import annotations

from django.db.backends.signals import connection_created

try:
    from psycopg import adapters
    from psycopg.adapt import Loader
    from psycopg.pq import Format
    from psycopg.types.datetime import TimestamptzLoader as _PythonLoader

    _COMPILED = adapters.get_loader(adapters.types["timestamptz"].oid, Format.TEXT)
except ImportError:  # psycopg 2 or none: Django's own reading stays
    _COMPILED = _PythonLoader = Loader = None

_LOADERS: dict = {}
_SAMPLE = b"2000-01-01 00:00:00+00"


def _loader(timezone, same: bool):
    """A loader giving values the ``timezone`` Django reads with, parsed by the compiled loader (one class
    per time zone; the compiled class cannot be subclassed, so it is called). ``same``: the compiled loader
    gives that very ``tzinfo`` already (the connection's session is in UTC, as Django sets it); each column
    is then read by the compiled loader's own ``load``, with no Python call per value."""
    loader = _LOADERS.get((timezone, same))
    if loader is None:

        class CompiledTzLoader(Loader):
            def __init__(self, oid, context=None):
                super().__init__(oid, context)
                self._parse = _COMPILED(oid, context).load
                if same:
                    self.load = self._parse  # what psycopg calls for each value of the column

            def load(self, data):
                return self._parse(data).replace(tzinfo=self.timezone)

        CompiledTzLoader.timezone = timezone  # what Django's backend compares before using its own
        loader = _LOADERS[(timezone, same)] = CompiledTzLoader
    return loader


def _compiled_timestamps(sender, connection, **kwargs) -> None:
    if connection.vendor != "postgresql" or _COMPILED is None or _COMPILED is _PythonLoader:
        return
    raw = connection.connection
    oid = adapters.types["timestamptz"].oid
    same = _COMPILED(oid, raw).load(_SAMPLE).tzinfo is connection.timezone
    raw.adapters.register_loader("timestamptz", _loader(connection.timezone, same))


def connect() -> None:
    connection_created.connect(_compiled_timestamps, dispatch_uid="config.dbtypes.compiled_timestamps")
