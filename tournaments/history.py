"""The models' change history (django-simple-history), with the history manager's class made once per model,
and historical rows inserted with SQL written once.

simple-history's descriptor builds a new manager class (``Manager.from_queryset``, which inspects every
method of the queryset class) each time ``instance.history`` or ``Model.history`` is read, and it reads it
once for every historical row it writes: a hand saved writes two. The class is the same every time; here
it is built on first use and kept.

A historical row is only ever inserted, whole, by simple-history: the ``INSERT`` Django's ``save()`` writes
for it is the same every time but for its values. ``QuickInsert`` (a base of the historical models that
ask for it) writes it once per model and database, and inserts each row with its values, prepared by each
field as ``save()`` prepares them. Any other save (an update, a row with an expression among its values, a
database that cannot return the new id) is Django's own.
"""

from __future__ import annotations

from django.db import connections, models, router, transaction
from django.db.models.sql import InsertQuery
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


class QuickInsert(models.Model):
    """A historical model whose new rows are inserted with SQL written once (see the module). No
    ``pre_save`` or ``post_save`` signal is sent for such a row: nothing listens to a historical model's."""

    class Meta:
        abstract = True

    def save(self, *args, **kwargs):
        alias = kwargs.get("using") or router.db_for_write(type(self), instance=self)
        quick = not (args or kwargs.keys() - {"using"} or not self._state.adding or self.pk is not None)
        if not (quick and self._quick_insert(alias)):
            super().save(*args, **kwargs)

    def _quick_insert(self, alias: str) -> bool:
        """Insert this new row with the model's SQL written once; False (nothing done) where it cannot."""
        connection = connections[alias]
        meta = self._meta
        if not connection.features.can_return_columns_from_insert:
            return False
        fields = [f for f in meta.local_concrete_fields if f is not meta.auto_field]
        values = [field.pre_save(self, True) for field in fields]
        if any(hasattr(v, "resolve_expression") for v in values):
            return False  # an expression among the values: its SQL is its own
        inserts = type(self).__dict__.get("_quick_inserts")
        if inserts is None:
            inserts = type(self)._quick_inserts = {}
        insert = inserts.get(alias)
        if insert is None:
            insert = inserts[alias] = _Insert(type(self), alias, self, fields)
        if not insert.sql:
            return False
        params = [f.get_db_prep_save(v, connection=connection) for f, v in zip(fields, values, strict=True)]
        with transaction.mark_for_rollback_on_error(alias), connection.cursor() as cursor:
            cursor.execute(insert.sql, params)
            returned = connection.ops.fetch_returned_insert_columns(cursor, insert.returning)
        for value, field, col, converters in zip(
            returned, insert.returning, insert.columns, insert.converters, strict=True
        ):
            for converter in converters:
                value = converter(value, col, connection)
            setattr(self, field.attname, value)
        self._state.adding = False
        self._state.db = alias
        return True


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
