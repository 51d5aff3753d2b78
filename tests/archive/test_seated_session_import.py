"""A session's status goes with its seating: an archive with a session seated and not played imports it as
seated, and the console's advance starts it (not "planned" for ever)."""

from __future__ import annotations

import datetime as dt

import pytest

from rankings.archive import archive_export, archive_import
from scoring import services as scoring
from tournaments import lifecycle, services
from tournaments.models import Role, Session
from tournaments.sessions import services as session_services

pytestmark = pytest.mark.django_db


def _two_sessions_second_seated(director):
    tournament = services.tournament_create(
        name="Seated",
        slug="seated",
        ruleset="mcr",
        starts_on=dt.date(2026, 5, 1),
        director=director,
        sessions=2,
    )
    regs = [
        services.registration_create(
            tournament=tournament,
            player=services.player_create(first_name=f"P{i}", last_name="Seat"),
            key=f"p{i}",
        )
        for i in range(1, 5)
    ]
    actor = scoring.Actor(user=director, role=Role.DIRECTOR)
    first, second = tournament.sessions.order_by("number")
    (table,) = services.session_seat(session=first, tables=[regs])
    session_services.session_advance(session=first)  # seated (published)
    session_services.session_advance(session=first)  # playing
    scoring.hand_add(table=table, hand={"result": "draw"}, actor=actor, expected_version=None)
    scoring.result_confirm(table=table, actor=actor, expected_version=None, short_reason="time limit")
    session_services.session_advance(session=first)  # finished
    services.session_seat(session=second, tables=[[regs[1], regs[2], regs[3], regs[0]]])
    session_services.session_advance(session=second)  # seated: its seating published, not played
    second.refresh_from_db()
    assert (second.status, second.seating_published) == (Session.Status.SEATED, True)
    return tournament


def test_an_imported_seated_session_is_seated_and_starts(director):
    tournament = _two_sessions_second_seated(director)
    document = archive_export(tournament=tournament)
    copy = archive_import(
        document={**document, "tournament": {**document["tournament"], "slug": "seated-copy"}}
    )
    second = copy.sessions.get(number=2)
    assert (second.status, second.seating_published) == (Session.Status.SEATED, True)
    started = session_services.session_advance(session=second)
    assert started.status == Session.Status.PLAYING


def test_a_session_stored_planned_with_its_seating_shown_is_seated_by_the_next_advance(director):
    """Data written before the two facts went together: the advance seats it (one step), then starts it."""
    tournament = _two_sessions_second_seated(director)
    second = tournament.sessions.get(number=2)
    Session.objects.filter(pk=second.pk).update(status=Session.Status.PLANNED)
    assert session_services.session_advance(session=second).status == Session.Status.SEATED
    assert session_services.session_advance(session=second).status == Session.Status.PLAYING


def test_statuses_load_keeps_a_planned_session_with_no_seating_shown_planned(director):
    tournament = _two_sessions_second_seated(director)
    first, second = tournament.sessions.order_by("number")
    Session.objects.filter(pk=second.pk).update(seating_published=False)
    lifecycle.statuses_load(
        tournament=tournament, sessions={first.pk: Session.Status.FINISHED, second.pk: Session.Status.PLANNED}
    )
    assert Session.objects.get(pk=second.pk).status == Session.Status.PLANNED
