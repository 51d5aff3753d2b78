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


def _attributes(obj, depth: int = 0) -> dict:
    """An object's field values and those of the related objects read with it, as far as ``depth``."""
    out = {f.attname: getattr(obj, f.attname) for f in obj._meta.concrete_fields}
    if depth:
        for field in obj._meta.get_fields():
            if field.is_relation and field.is_cached(obj):
                related = field.get_cached_value(obj)
                out[field.name] = None if related is None else _attributes(related, depth - 1)
    return out


def test_a_read_with_its_related_objects_builds_them_as_the_queryset_does(tournament, referee):
    """The table page's read of a table by its key: the seats with their table, its session, tournament,
    clock and result (none yet: a relation that is empty), each seat's registration and player; built
    from kept populators, the same objects as the queryset's, call after call."""
    from scoring import services
    from scoring.models import TableResult
    from scoring.selectors import _SEATS_BY_KEY, _seats_with_table
    from tests.clock.conftest import seat_session
    from tournaments.models import Role, Table
    from tournaments.permissions import Actor

    seat_session(tournament, 1)
    first, second = Table.objects.filter(session__tournament=tournament).order_by("number")[:2]
    services.hand_add(
        table=second,
        hand={"result": "draw"},
        actor=Actor(user=referee, role=Role.REFEREE),
        expected_version=None,
    )
    for table in (first, second, first):
        got = _SEATS_BY_KEY(private_key=table.private_key)
        expected = list(_seats_with_table(private_key=table.private_key))
        assert [_attributes(s, depth=4) for s in got] == [_attributes(s, depth=4) for s in expected]
        assert [s.position for s in got] == [0, 1, 2, 3]
        assert got[0].table.session.tournament.settings == tournament.settings
        has_result = TableResult.objects.filter(table=table).exists()
        assert (getattr(got[0].table, "result", None) is not None) == has_result


def test_rows_naming_the_same_related_object_share_it_and_others_get_their_own(tournament):
    """The four seats of a table share the one table built for the first (with its session and
    tournament); seats read across tables in turn each get their own table, as the queryset gives them."""
    from scoring.selectors import _SEATS_BY_KEY
    from tests.clock.conftest import seat_session
    from tournaments.models import Seat, Table

    seat_session(tournament, 1)
    first = Table.objects.filter(session__tournament=tournament).order_by("number").first()
    seats = _SEATS_BY_KEY(private_key=first.private_key)
    assert len({id(s.table) for s in seats}) == 1 and seats[0].table.pk == first.pk
    assert len({id(s.registration) for s in seats}) == 4
    assert seats[3].table.session.tournament.slug == tournament.slug

    by_turns = Prepared(
        lambda tournament_id: (
            Seat.objects.select_related("table__session", "registration")
            .filter(session__tournament_id=tournament_id)
            .order_by("position", "table__number")
        ),
        tournament_id=int,
    )
    got = by_turns(tournament_id=tournament.pk)
    expected = list(by_turns._build(tournament_id=tournament.pk))
    assert len({s.table_id for s in got[:3]}) > 1  # the rows alternate between tables
    assert [(s.pk, s.table.pk, s.table.number, s.registration.pk) for s in got] == [
        (s.pk, s.table.pk, s.table.number, s.registration.pk) for s in expected
    ]
    assert all(s.table.pk == s.table_id for s in got)
