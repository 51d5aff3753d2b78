"""A prepared read (tournaments.prepared) answers what its queryset answers, with its values, in one
statement, without compiling the queryset again."""

from __future__ import annotations

import pytest
from django.db import connection
from django.db.models import Q
from django.db.models.sql.compiler import SQLCompiler
from django.test.utils import CaptureQueriesContext

from tournaments.models import Player, Tournament
from tournaments.prepared import Prepared

pytestmark = pytest.mark.django_db


def _players():
    return [
        Player.objects.create(first_name=first, last_name=last, country="ES")
        for first, last in (("Ana", "Ruiz"), ("Luis", "Gil"), ("Eva", "Sanz"))
    ]


def test_the_same_objects_as_the_queryset_with_each_call_s_values():
    ana, luis, eva = _players()
    build = lambda first, pk: Player.objects.filter(Q(first_name=first) | Q(pk=pk)).order_by("pk")  # noqa: E731
    read = Prepared(build, first=str, pk=int)
    assert read(first="Ana", pk=eva.pk) == list(build("Ana", eva.pk)) == [ana, eva]
    assert read(first="Luis", pk=0) == [luis]
    got = read(first="Eva", pk=ana.pk)
    assert [(p.first_name, p.last_name) for p in got] == [("Ana", "Ruiz"), ("Eva", "Sanz")]


def test_a_values_list_comes_back_as_the_queryset_builds_it(tournament):
    by_slug = Prepared(
        lambda slug: Tournament.objects.filter(slug=slug).values_list("name", flat=True), slug=str
    )
    assert by_slug(slug=tournament.slug) == [tournament.name]
    assert by_slug(slug="no-such-tournament") == []


def test_one_statement_and_no_compilation_after_the_first(monkeypatch):
    ana, *_ = _players()
    read = Prepared(lambda pk: Player.objects.filter(pk=pk), pk=int)
    read(pk=ana.pk)
    compiled = []
    original = SQLCompiler.as_sql
    monkeypatch.setattr(
        SQLCompiler, "as_sql", lambda self, *a, **k: compiled.append(1) or original(self, *a, **k)
    )
    with CaptureQueriesContext(connection) as queries:
        assert read(pk=ana.pk) == [ana]
    assert len(queries) == 1 and compiled == []


def test_arguments_it_cannot_take_are_refused():
    read = Prepared(lambda pk: Player.objects.filter(pk=pk), pk=int)
    with pytest.raises(TypeError):
        read(pk=None)
    with pytest.raises(TypeError):
        read(other=1)
    with pytest.raises(TypeError):
        Prepared(lambda keys: Player.objects.filter(pk__in=keys), keys=list)(keys=[1])
    # an argument that is not a parameter of the SQL (here: left out of the query) cannot be prepared
    with pytest.raises(ValueError):
        Prepared(lambda pk: Player.objects.all(), pk=int)(pk=1)
