"""A historical row of a hand or a table's result is inserted with SQL written once
(``tournaments.history.QuickInsert``): the same row as Django's ``save()`` writes, its new id on the object."""

from __future__ import annotations

import pytest
from django.db import connection, models
from django.test.utils import CaptureQueriesContext

from scoring import services
from scoring.models import Hand, TableResult
from tests.clock.conftest import seat_session
from tournaments.history import QuickInsert
from tournaments.models import Role
from tournaments.permissions import Actor

pytestmark = pytest.mark.django_db

WIN = {"result": "win", "winner": 0, "discarder": 2, "fan": 8}
LEFT_OUT = {"history_id", "history_date", "id", "result_id", "created_at"}  # the rows' own ids and times


@pytest.fixture
def table(tournament):
    return seat_session(tournament)[0]


def _rows(model) -> list[dict]:
    return [
        {k: v for k, v in row.items() if k not in LEFT_OUT}
        for row in model.objects.order_by("history_id").values()
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
    original = QuickInsert.save
    monkeypatch.setattr(
        QuickInsert, "save", lambda self, *a, **k: inserts.append(self) or original(self, *a, **k)
    )
    with CaptureQueriesContext(connection) as queries:
        _enter(table, actor)
    quick = [_rows(model) for model in history]
    assert all(row.history_id is not None and not row._state.adding for row in inserts)
    assert all(type(row)._quick_inserts[connection.alias].sql for row in inserts)  # the SQL written once
    # hands: two added, one replaced; the result: created, then three writes
    assert len(inserts) == sum(len(rows) for rows in quick) == 3 + 4
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
    monkeypatch.setattr(QuickInsert, "save", lambda self, *a, **k: models.Model.save(self, *a, **k))
    _enter(table, actor)
    assert [_rows(model) for model in history] == quick
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
