"""Reads compiled once per process: the hot pages' querysets keep their SQL and run it with other values.

Turning a queryset into SQL (the joins of its ``select_related``, its columns, its order) costs Django more
than the database takes to answer it: a couple of milliseconds for a read with several related tables. A
``Prepared`` read builds its queryset once per database with marker values in place of its arguments, keeps
the SQL, its parameters and what the compiler worked out to build the objects, and on each call runs the
same SQL with the caller's values in the markers' places. The objects come back as the queryset would have
built them (``select_related`` and ``values_list`` included).

Only for reads whose SQL does not depend on the values: scalar arguments (an id, a key), never None and
never a list (``__in`` would change the SQL with the list's length). The SQL is checked to be the same
with two sets of markers.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from django.db import connections
from django.db.models import QuerySet
from django.db.models.query import ModelIterable, get_related_populators

# What the compiler works out before running a query, and what the querysets' iterables read from it.
_COMPILER_STATE = ("select", "klass_info", "annotation_col_map", "col_count", "has_extra_select")


def _markers(kinds: dict[str, type], base: int) -> dict[str, Any]:
    """Values no caller passes (in range for any integer field), one set per ``base``."""
    out: dict[str, Any] = {}
    for i, (name, kind) in enumerate(kinds.items()):
        if kind is int:
            out[name] = base - 7 * i
        elif kind is str:
            out[name] = f"\x1fprepared-{base}-{i}\x1f"
        else:
            raise TypeError(f"a prepared read takes int and str arguments, not {kind.__name__}")
    return out


class _Compiled:
    """A queryset compiled for one database: its SQL and parameters, which parameter is which argument,
    and the compiler's state the iterables need."""

    def __init__(self, template: QuerySet, other: QuerySet, markers: dict, others: dict):
        if template._prefetch_related_lookups:
            raise ValueError("a prepared read cannot prefetch")
        alias = template.db
        compiler = template.query.get_compiler(using=alias)
        sql, params = compiler.as_sql()
        other_sql, other_params = other.query.get_compiler(using=alias).as_sql()
        names = {(markers[n], others[n]): n for n in markers}
        slots = []
        for one, two in zip(params, other_params, strict=True):
            slots.append(names.get((one, two), "") if one != two else None)
        if sql != other_sql or set(slots) - {None} != set(markers):
            raise ValueError("a prepared read's SQL must not depend on its arguments, each one a parameter")
        self.template = template
        self.sql = sql
        self.params = tuple(params)
        self.slots = tuple(slots)
        self.state = {name: getattr(compiler, name) for name in _COMPILER_STATE}
        # the columns' converters (what results_iter asks for the selected columns), worked out once too
        self.converters = compiler.get_converters([s[0] for s in compiler.select[0 : compiler.col_count]])
        self.models = _ModelRows.of(template, compiler, alias, self.converters)


class _ModelRows:
    """How a read of model objects turns its rows into objects, worked out once: what ``ModelIterable``
    works out on every run (the columns of each model, the populators of its ``select_related``), kept, since
    none of it depends on the values (the populators hold no row)."""

    def __init__(self, compiler, alias: str, converters: dict):
        klass_info, select = compiler.klass_info, compiler.select
        fields = klass_info["select_fields"]
        self.alias = alias
        self.model = klass_info["model"]
        self.start, self.end = fields[0], fields[-1] + 1
        self.init_list = [f[0].target.attname for f in select[self.start : self.end]]
        self.populators = get_related_populators(klass_info, select, alias)
        # where each related object's primary key is in a row (None: where it cannot be kept, see read)
        self.kept_keys = [
            None if p.reorder_for_init or len(p.model_cls._meta.pk_fields) > 1 else p.cols_start + p.pk_idx
            for p in self.populators
        ]
        self.converters = list(converters.items())

    @classmethod
    def of(cls, template: QuerySet, compiler, alias: str, converters: dict) -> _ModelRows | None:
        """For a plain read of model objects (no annotation, no known related objects), else None: the
        queryset's own iterable builds those."""
        if (
            template._iterable_class is not ModelIterable
            or compiler.annotation_col_map
            or template._known_related_objects
            or compiler.has_extra_select
        ):
            return None
        return cls(compiler, alias, converters)

    def read(self, sql: str, params: tuple) -> list:
        connection = connections[self.alias]
        with connection.cursor() as cursor:
            cursor.execute(sql, params)
            rows = cursor.fetchall()
        out = []
        model, alias, init_list, start, end = self.model, self.alias, self.init_list, self.start, self.end
        populators = list(zip(self.populators, self.kept_keys, strict=True))
        previous: list = [None] * len(populators)  # each related object of the row before, with its key
        for row in rows:
            if self.converters:
                row = list(row)
                for pos, (convs, expression) in self.converters:
                    value = row[pos]
                    for converter in convs:
                        value = converter(value, expression, connection)
                    row[pos] = value
            obj = model.from_db(alias, init_list, row[start:end])
            for i, (populator, key_at) in enumerate(populators):
                if key_at is None:
                    populator.populate(row, obj)
                    continue
                key, kept = row[key_at], previous[i]
                if key is None or kept is None or kept[0] != key:
                    kept = previous[i] = (key, _related(populator, row))
                populator.local_setter(obj, kept[1])
                if kept[1] is not None:
                    populator.remote_setter(kept[1], obj)
            out.append(obj)
        return out


def _related(populator, row):
    """The related object a ``select_related`` populator builds from ``row``, with its own related ones
    (None for an empty relation): what ``RelatedPopulator.populate`` builds before attaching it.

    The rows of one read that name the same related object (four seats and their one table) share the
    object built for the first of them instead of each building the same object again: it and everything
    read with it come from the same row of the same tables, in the same statement."""
    data = row[populator.cols_start : populator.cols_end]
    if data[populator.pk_idx] is None:
        return None
    related = populator.model_cls.from_db(populator.db, populator.init_list, data)
    for inner in populator.related_populators:
        inner.populate(row, related)
    return related


class Prepared:
    """``Prepared(build, key=str)``: ``build(key=…)`` returns the queryset; ``read(key=…)`` returns the list
    that queryset would."""

    def __init__(self, build: Callable[..., QuerySet], **kinds: type):
        self._build = build
        self._kinds = kinds
        self._compiled: dict[str, _Compiled] = {}
        self._lock = threading.Lock()

    def _for(self, alias: str | None) -> _Compiled:
        done = self._compiled.get(alias)
        if done is None:
            with self._lock:
                one, two = _markers(self._kinds, 32719), _markers(self._kinds, 32653)
                template, other = self._build(**one), self._build(**two)
                if alias is not None:
                    template, other = template.using(alias), other.using(alias)
                done = self._compiled[alias] = _Compiled(template, other, one, two)
        return done

    def __call__(self, *, using: str | None = None, **values: Any) -> list:
        if values.keys() != self._kinds.keys() or any(v is None for v in values.values()):
            raise TypeError(f"a prepared read takes {sorted(self._kinds)}, none of them None")
        compiled = self._for(using)
        if compiled.models is not None:
            return compiled.models.read(compiled.sql, self._params(compiled, values))
        return list(self._queryset(compiled, values))

    @staticmethod
    def _params(compiled: _Compiled, values: dict[str, Any]) -> tuple:
        return tuple(
            p if slot is None else values[slot]
            for p, slot in zip(compiled.params, compiled.slots, strict=True)
        )

    @staticmethod
    def _queryset(compiled: _Compiled, values: dict[str, Any]) -> QuerySet:
        """A queryset like the template whose compiler answers with the kept SQL and these values."""
        params = Prepared._params(compiled, values)
        template = compiled.template
        query = object.__new__(type(template.query))
        query.__dict__ = template.query.__dict__.copy()
        query_class = type(query)

        def get_compiler(using=None, connection=None, elide_empty=True):
            compiler = query_class.get_compiler(query, using, connection, elide_empty)
            compiler.__dict__.update(compiled.state)
            compiler.as_sql = lambda *args, **kwargs: (compiled.sql, params)
            compiler.get_converters = lambda expressions: compiled.converters
            return compiler

        query.get_compiler = get_compiler
        queryset = type(template)(
            model=template.model, query=query, using=template._db, hints=template._hints
        )
        queryset._iterable_class = template._iterable_class
        queryset._fields = template._fields
        return queryset
