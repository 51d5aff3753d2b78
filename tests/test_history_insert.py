"""A historical row of a hand or a table's result is inserted with SQL written once
(``tournaments.history.QuickSave``): the same row as Django's ``save()`` writes, its new id on the object."""

from __future__ import annotations

import pytest
from django.db import connection, models, transaction
from django.test.utils import CaptureQueriesContext

from scoring import services
from scoring.models import Hand, TableResult
from tests.clock.conftest import seat_session
from tournaments.history import QuickSave
from tournaments.models import Role
from tournaments.permissions import Actor

pytestmark = pytest.mark.django_db

WIN = {"result": "win", "winner": 0, "discarder": 2, "fan": 8}
LEFT_OUT = {
    "history_id",
    "history_date",
    "id",
    "result_id",
    "created_at",
    "updated_at",
}  # the rows' own ids and times


@pytest.fixture
def table(tournament):
    return seat_session(tournament)[0]


def _rows(model) -> list[dict]:
    return [
        {k: v for k, v in row.items() if k not in LEFT_OUT} for row in model.objects.order_by("pk").values()
    ]


def _enter(table, actor) -> None:
    services.hand_add(table=table, hand=WIN, actor=actor, expected_version=None, reason="")
    services.hand_add(table=table, hand={"result": "draw"}, actor=actor, expected_version=None)
    services.hand_replace(
        table=table, number=1, hand={**WIN, "fan": 9}, actor=actor, expected_version=None, reason="9"
    )


def test_the_rows_django_s_save_would_write(table, referee, monkeypatch):
    actor = Actor(user=referee, role=Role.REFEREE)
    history = (Hand.history.model, TableResult.history.model)
    inserts = []
    original = QuickSave.save
    monkeypatch.setattr(
        QuickSave,
        "save",
        lambda self, *a, **k: (isinstance(self, history) and inserts.append(self)) or original(self, *a, **k),
    )
    with CaptureQueriesContext(connection) as queries:
        _enter(table, actor)
    quick = [_rows(model) for model in (*history, Hand, TableResult)]
    assert all(row.history_id is not None and not row._state.adding for row in inserts)
    assert all(
        any(i.sql for i in type(row)._quick_inserts.values()) for row in inserts
    )  # the SQL written once
    # hands: two added, one replaced; the result: created, then three writes
    assert len(inserts) == sum(len(rows) for rows in quick[:2]) == 3 + 4
    assert all(
        row.history_id == type(row).objects.get(history_id=row.history_id).history_id for row in inserts
    )
    assert not any(
        q["sql"].startswith("UPDATE") and "historical" in q["sql"] for q in queries.captured_queries
    )

    # the same writes again with Django's own save, from an empty table again
    Hand.objects.all().delete()
    TableResult.objects.all().delete()
    for model in history:
        model.objects.all().delete()
    monkeypatch.setattr(QuickSave, "save", lambda self, *a, **k: models.Model.save(self, *a, **k))
    monkeypatch.setattr(QuickSave, "_do_insert", models.Model._do_insert)
    monkeypatch.setattr(QuickSave, "_do_update", models.Model._do_update)
    _enter(table, actor)
    assert [_rows(model) for model in (*history, Hand, TableResult)] == quick
    assert quick[0][0]["history_change_reason"] == "hand 1 added"
    assert quick[0][0]["history_user_id"] == referee.pk


def test_an_expression_among_the_values_or_an_update_is_django_s_save(table, referee):
    from django.db.models.functions import Now

    services.hand_add(
        table=table, hand=WIN, actor=Actor(user=referee, role=Role.REFEREE), expected_version=None
    )
    model = Hand.history.model
    first = model.objects.get()
    again = model(**{f.attname: getattr(first, f.attname) for f in model._meta.concrete_fields})
    again.history_id = None
    again.history_date = Now()  # the database's time: Django's save writes its SQL
    again.history_change_reason = "again"
    again.save()
    assert again.history_id is not None and again.history_id != first.history_id
    assert model.objects.get(history_id=again.history_id).history_change_reason == "again"
    again.history_change_reason = "changed"  # a row saved again is updated by Django's save
    again.save()
    assert model.objects.get(history_id=again.history_id).history_change_reason == "changed"
    assert model.objects.count() == 2


def test_a_hand_is_inserted_with_sql_written_once_and_its_signals_sent(table, referee, monkeypatch):
    from django.db.models.signals import post_save

    monkeypatch.setattr(Hand, "_quick_inserts", {}, raising=False)  # written by this test's first hand
    seen = []

    def told(sender, instance, created, **kwargs):
        seen.append((instance, created, instance.pk))

    post_save.connect(told, sender=Hand, dispatch_uid="test-hand-saved")
    try:
        with CaptureQueriesContext(connection) as queries:
            services.hand_add(
                table=table, hand=WIN, actor=Actor(user=referee, role=Role.REFEREE), expected_version=None
            )
            services.hand_add(
                table=table,
                hand={"result": "draw"},
                actor=Actor(user=referee, role=Role.REFEREE),
                expected_version=None,
            )
    finally:
        post_save.disconnect(dispatch_uid="test-hand-saved", sender=Hand)
    (insert,) = Hand._quick_inserts.values()
    hand_inserts = [
        q["sql"] for q in queries.captured_queries if q["sql"].startswith('INSERT INTO "scoring_hand"')
    ]
    assert len(hand_inserts) == 2
    assert [(created, pk is not None) for _, created, pk in seen] == [(True, True), (True, True)]
    for hand, _, pk in seen:  # the object holds what the database holds, its time included
        stored = Hand.objects.get(pk=pk)
        assert (stored.number, stored.data, stored.created_at) == (hand.number, hand.data, hand.created_at)
    assert insert.sql and insert.sql.split(" VALUES")[0] in hand_inserts[0]
    # the history listens to the hand's post_save: each hand has its historical row
    reasons = list(Hand.history.order_by("history_id").values_list("number", "history_change_reason"))
    assert reasons == [(1, "hand 1 added"), (2, "hand 2 added")]


def test_a_result_is_updated_with_sql_written_once(table, referee, monkeypatch):
    import datetime as dt

    from django.db import DatabaseError
    from django.db.models import F

    from tournaments import history

    monkeypatch.setattr(TableResult, "_quick_updates", {}, raising=False)
    compiled = []
    original = history._update_sql
    monkeypatch.setattr(history, "_update_sql", lambda *a: compiled.append(a) or original(*a))
    actor = Actor(user=referee, role=Role.REFEREE)
    with CaptureQueriesContext(connection) as queries:
        services.hand_add(table=table, hand=WIN, actor=actor, expected_version=None)
        services.hand_add(table=table, hand={"result": "draw"}, actor=actor, expected_version=None)
    updates = [
        q["sql"] for q in queries.captured_queries if q["sql"].startswith('UPDATE "scoring_tableresult"')
    ]
    assert len(updates) == 2  # one per hand, the same columns: one SQL compiled for both
    (sql,) = TableResult._quick_updates.values()
    assert sql and all(sql.split(" = %s")[0] in update for update in updates)
    assert len(compiled) == 1  # compiled for the first hand, used again for the second
    result = TableResult.objects.get(table=table)
    assert (result.version, result.mode) == (3, "hands")

    # a column set to None is written NULL, and a value again after it
    when = dt.datetime(2026, 5, 1, 10, 30, tzinfo=dt.UTC)
    for value in (when, None, when):
        result.submitted_at = value
        result.save(update_fields=["submitted_at"])
        assert TableResult.objects.get(pk=result.pk).submitted_at == value
    # an expression is Django's own SQL (a history row cannot hold one: none is written here)
    result.skip_history_when_saving = True
    result.version = F("version") + 5
    result.save(update_fields=["version"])
    assert TableResult.objects.get(pk=result.pk).version == 8
    # a row that is gone is not updated: Django's save says so
    gone = TableResult.objects.get(pk=result.pk)
    TableResult.objects.filter(pk=gone.pk).delete()
    gone.short_reason = "late"
    with pytest.raises(DatabaseError, match="did not affect any rows"), transaction.atomic():
        gone.save(update_fields=["short_reason"])
    # saved whole, a row that is gone is inserted again with its id, as Django's save does
    gone.save()
    assert TableResult.objects.get(pk=gone.pk).short_reason == "late"
