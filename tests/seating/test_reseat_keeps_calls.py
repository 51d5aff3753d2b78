"""A session whose tables called a referee keeps its seating: the calls are the tournament's record of how
long tables waited, and seating the session again would delete them with its tables."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError
from django.utils import translation

from scoring.calls import services as calls
from scoring.models import RefereeCall
from tournaments import services as tournament_services
from tournaments.models import Table
from tournaments.permissions import Actor
from tournaments.seating import services as seating
from tournaments.seating.engine.models import SeatingError

pytestmark = pytest.mark.django_db


def seated(tournament):
    regs = list(tournament.registrations.order_by("pk"))
    session = tournament.sessions.get(number=1)
    tables = tournament_services.session_seat(session=session, tables=[regs[:4], regs[4:]])
    return session, regs, tables


def call_from(table):
    call, _created = calls.call_create(
        table=table, actor=Actor(role="table", table_id=table.pk), reason="question"
    )
    return call


def test_seating_again_with_replace_refuses_and_keeps_the_call(tournament):
    session, regs, tables = seated(tournament)
    call = call_from(tables[1])
    with pytest.raises(ValidationError) as caught:
        tournament_services.session_seat(session=session, tables=[regs[4:], regs[:4]], replace=True)
    assert "Session 1 cannot be seated again" in str(caught.value)
    assert "1 call of a referee" in str(caught.value)
    kept = RefereeCall.objects.get(pk=call.pk)
    assert kept.table_id == tables[1].pk and kept.status == "open"
    assert list(Table.objects.filter(session=session).order_by("number")) == tables


def test_the_seating_workflow_names_the_calls_before_writing_anything(tournament):
    session, _regs, tables = seated(tournament)
    call_from(tables[0])
    with translation.override("en"), pytest.raises(SeatingError) as caught:
        seating.seating_generate(tournament=tournament, sessions=[session], strategy="random", seed=1)
    assert "Session 1 has calls of a referee from its tables" in str(caught.value)
    with translation.override("es"), pytest.raises(SeatingError) as caught:
        seating.seating_generate(tournament=tournament, sessions=[session], strategy="random", seed=1)
    assert "llamadas a un árbitro" in str(caught.value)
    assert RefereeCall.objects.filter(table=tables[0]).count() == 1


def test_a_session_without_calls_is_seated_again(tournament):
    session, regs, _tables = seated(tournament)
    again = tournament_services.session_seat(session=session, tables=[regs[4:], regs[:4]], replace=True)
    assert [s.registration_id for s in again[0].seats.order_by("position")] == [r.pk for r in regs[4:]]
