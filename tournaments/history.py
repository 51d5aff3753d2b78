"""The models' change history (django-simple-history), with the history manager's class made once per model,
and historical rows inserted with SQL written once.

simple-history's descriptor builds a new manager class (``Manager.from_queryset``, which inspects every
method of the queryset class) each time ``instance.history`` or ``Model.history`` is read, and it reads it
once for every historical row it writes: a hand saved writes two. The class is the same every time; here
it is built on first use and kept.

A new row's ``INSERT``, and a row's ``UPDATE`` of given columns, are the same every time but for their
values, yet Django's ``save()`` compiles them anew for each row. ``QuickSave`` (a base of the historical
models that ask for it, and of the hands and table results, the rows a table's phone writes) has each
compiled once per model, database and set of columns, and sends each row with its values, prepared by
each field as ``save()`` prepares them. A historical row, which nothing listens to, is inserted without
the rest of ``save()``; a hand or a result goes through ``save()`` and its signals, only its SQL being the
one compiled once. Anything else (a value that is an expression, a field that writes its own SQL, a
database that cannot return the new id, a model with parents or ``select_on_save``) is Django's own.
"""

from __future__ import annotations

from django.db import connections, models, router, transaction
from django.db.models import signals
from django.db.models.sql import InsertQuery, UpdateQuery
from simple_history import models as simple_history
from simple_history.manager import HistoryDescriptor


class _Insert:
    """A model's ``INSERT`` for one database: its SQL, its fields, the columns it returns and their
    converters. Written by Django's compiler once, from a first row with plain values."""

    def __init__(self, model, alias: str, obj, fields: list):
        meta = model._meta
        connection = connections[alias]
        self.fields = fields
        self.returning = meta.db_returning_fields
        self.columns = [f.get_col(meta.db_table) for f in self.returning]
        # what Django applies to the returned columns (the backend's converters, then the field's)
        self.converters = [
            connection.ops.get_db_converters(col) + f.get_db_converters(connection)
            for f, col in zip(self.returning, self.columns, strict=True)
        ]
        query = InsertQuery(model)
        query.insert_values(fields, [obj])
        compiler = query.get_compiler(using=alias)
        compiler.returning_fields = self.returning
        statements = compiler.as_sql()
        self.sql = statements[0][0] if len(statements) == 1 else ""
        if self.sql.count("%s") != len(fields) or any(hasattr(f, "get_placeholder") for f in fields):
            self.sql = ""  # a field that writes its own SQL for its value: Django's save inserts the row


class QuickSave(models.Model):
    """A model whose rows are inserted and updated with SQL compiled once (see the module).

    A new row nothing listens to (no ``pre_save`` or ``post_save`` receiver for its model: a historical
    row) is inserted without Django's ``save()``; any other save goes through Django's ``save()`` (its
    signals, its related fields checked), which asks this model for the ``INSERT`` (``_do_insert``) or
    the ``UPDATE`` (``_do_update``)."""

    class Meta:
        abstract = True

    def save(self, *args, **kwargs):
        alias = kwargs.get("using") or router.db_for_write(type(self), instance=self)
        plain = not (args or kwargs.keys() - {"using"} or not self._state.adding or self.pk is not None)
        plain = plain and not self._meta.parents
        if plain and not _listened(type(self)):
            fields = [
                f
                for f in self._meta.local_concrete_fields
                if f is not self._meta.auto_field and not f.generated
            ]
            returned = self._quick_insert(alias, fields)
            if returned is not None:
                for value, field in zip(returned, self._meta.db_returning_fields, strict=True):
                    setattr(self, field.attname, value)
                self._state.adding = False
                self._state.db = alias
                return
        super().save(*args, **kwargs)

    def _do_insert(self, manager, using, fields, returning_fields, raw):
        if (
            not raw
            and not self._meta.parents
            and list(returning_fields) == list(self._meta.db_returning_fields)
        ):
            returned = self._quick_insert(using, fields)
            if returned is not None:
                return [returned]
        return super()._do_insert(manager, using, fields, returning_fields, raw)

    def _quick_insert(self, alias: str, fields: list) -> tuple | None:
        """Insert this new row's ``fields`` with the model's SQL written once: the returned columns,
        converted as Django converts them; None (nothing done) where it cannot."""
        connection = connections[alias]
        if not connection.features.can_return_columns_from_insert:
            return None
        values = [field.pre_save(self, True) for field in fields]
        if any(hasattr(v, "resolve_expression") for v in values):
            return None  # an expression among the values: its SQL is its own
        inserts = _compiled(type(self), "_quick_inserts")
        key = (alias, tuple(f.attname for f in fields))
        insert = inserts.get(key)
        if insert is None:
            insert = inserts[key] = _Insert(type(self), alias, self, fields)
            values = [field.pre_save(self, True) for field in fields]  # the compiler asked them again
        if not insert.sql:
            return None
        params = [f.get_db_prep_save(v, connection=connection) for f, v in zip(fields, values, strict=True)]
        with transaction.mark_for_rollback_on_error(alias), connection.cursor() as cursor:
            cursor.execute(insert.sql, params)
            if not insert.returning:  # nothing for the database to give back (no RETURNING)
                return ()
            returned = connection.ops.fetch_returned_insert_columns(cursor, insert.returning)
        converted = []
        for value, col, converters in zip(returned, insert.columns, insert.converters, strict=True):
            for converter in converters:
                value = converter(value, col, connection)
            converted.append(value)
        return tuple(converted)

    def _do_update(self, base_qs, using, pk_val, values, update_fields, forced_update):
        if values and not self._meta.select_on_save and not self._meta.parents:
            updated = self._quick_update(base_qs, using, pk_val, values)
            if updated is not None:
                return updated
        return super()._do_update(base_qs, using, pk_val, values, update_fields, forced_update)

    def _quick_update(self, base_qs, alias: str, pk_val, values: list) -> bool | None:
        """Update this row's columns in ``values`` (Django's (field, model, value) triples) with the SQL
        compiled once for those columns: whether a row was updated; None (nothing done) where it cannot."""
        connection = connections[alias]
        prepared = []
        for field, _, value in values:
            if hasattr(value, "resolve_expression") or hasattr(value, "prepare_database_save"):
                return None  # an expression, or a model where a value goes: Django's compiler
            if hasattr(field, "get_placeholder"):
                return None
            value = field.get_db_prep_save(value, connection=connection)
            if hasattr(value, "as_sql"):
                return None
            prepared.append(value)
        updates = _compiled(type(self), "_quick_updates")
        # a column set to None is written NULL in the SQL itself
        key = (alias, tuple(f.attname for f, _, _ in values), tuple(v is None for v in prepared))
        sql = updates.get(key)
        params = [v for v in prepared if v is not None]
        if sql is None:
            sql = updates[key] = _update_sql(base_qs, alias, pk_val, values, len(params))
        if not sql:
            return None
        params.append(self._meta.pk.get_db_prep_value(pk_val, connection, prepared=False))
        with transaction.mark_for_rollback_on_error(alias), connection.cursor() as cursor:
            cursor.execute(sql, params)
            return cursor.rowcount > 0


def _compiled(model, name: str) -> dict:
    """The statements ``model`` compiled (its own, not a parent class's), by what they were compiled for."""
    kept = model.__dict__.get(name)
    if kept is None:
        kept = {}
        setattr(model, name, kept)
    return kept


def _update_sql(base_qs, alias: str, pk_val, values: list, given: int) -> str:
    """The ``UPDATE`` of ``values``' columns of one row by its primary key, as Django's compiler writes
    it; empty when it has other parameters than the ``given`` values and the key (a manager that filters)."""
    query = base_qs.filter(pk=pk_val).query.chain(UpdateQuery)
    query.add_update_fields(values)
    sql, params = query.get_compiler(alias).as_sql()
    if len(params) != given + 1 or sql.count("%s") != len(params):
        return ""
    return sql


def _listened(model) -> bool:
    return signals.pre_save.has_listeners(model) or signals.post_save.has_listeners(model)


class KeptHistoryDescriptor(HistoryDescriptor):
    """``HistoryDescriptor`` whose manager class is built once."""

    def __get__(self, instance, owner):
        manager_class = self.__dict__.get("_manager_class")
        if manager_class is None:
            manager_class = self._manager_class = self.manager_class.from_queryset(self.queryset_class)
        return manager_class(self.model, instance)


class HistoricalRecords(simple_history.HistoricalRecords):
    """simple-history's ``HistoricalRecords`` with the kept manager class."""

    def finalize(self, sender, **kwargs):
        super().finalize(sender, **kwargs)
        descriptor = sender.__dict__.get(self.manager_name)
        if sender is self.cls and type(descriptor) is HistoryDescriptor:
            kept = KeptHistoryDescriptor(
                descriptor.model, manager=descriptor.manager_class, queryset=descriptor.queryset_class
            )
            setattr(sender, self.manager_name, kept)
