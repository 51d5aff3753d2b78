"""A tournament with everyone around it, for the authorization and privacy tests.

``build_world`` makes tournament ``T`` with its director, referee and scorer: 20 players and a 21st not
seated (a substitute), four sessions: session 1 seated on five tables and published (table 1 confirmed
from its totals, table 2 with one hand, table 3 empty, table 4 with totals, table 5 submitted), session 2
with one table of three seats, session 3 seated and not published, session 4 empty; a late-arrival penalty and an export job; another tournament ``T2`` with its own
director; a player registered nowhere; and a plain signed-in user. Players of ``T``
are called Secretina… with EMA numbers 0400000N and the club "Hidden club", so that a page or an
answer that shows them can be spotted.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any

from django.contrib.auth import get_user_model

from penalties import services as penalty_services
from rankings.models import ExportJob
from scoring import services as scoring_services
from tournaments import services
from tournaments.models import Registration, Role, Seat, Session, Table, Tournament

MARKERS = ("Secretina", "Hidden club", "04000001")


@dataclass
class World:
    tournament: Tournament
    other: Tournament
    users: dict[str, Any]
    table: Table
    free_table: Table
    tables: list
    open_table: Table
    lone_player: Any
    spare_registration: Registration
    session: Session
    spare_session: Session
    registration: Registration
    penalty: Any
    job: ExportJob

    @property
    def table_key(self) -> str:
        return self.table.private_key


def _user(username: str, **extra):
    return get_user_model().objects.create_user(username=username, password="pw-for-tests-123", **extra)


def build_world(*, public: bool = True, ruleset: str = "mcr", prefix: str = "") -> World:
    users = {
        name: _user(f"{prefix}{name}")
        for name in ("director", "referee", "scorer", "other_director", "plain")
    }
    tournament = services.tournament_create(
        name="Closed Cup" if not public else "Open Cup",
        slug=f"{prefix}cup",
        ruleset=ruleset,
        starts_on=dt.date(2026, 5, 1),
        director=users["director"],
        sessions=4,
        is_public=public,
    )
    services.role_grant(tournament=tournament, user=users["referee"], role=Role.REFEREE)
    services.role_grant(tournament=tournament, user=users["scorer"], role=Role.SCORER)
    other = services.tournament_create(
        name="Other Cup",
        slug=f"{prefix}other-cup",
        ruleset=ruleset,
        starts_on=dt.date(2026, 6, 1),
        director=users["other_director"],
        sessions=1,
    )
    regs = []
    for i in range(1, 22):
        player = services.player_create(
            first_name=f"Secretina{i}",
            last_name="Vega",
            country="ESP",
            ema_id=f"04{i:06d}",
            club="Hidden club",
        )
        regs.append(
            services.registration_create(
                tournament=tournament, player=player, key=f"p{i}", is_substitute=i == 21
            )
        )
    for i in range(1, 5):
        player = services.player_create(first_name=f"Other{i}", last_name="Player", country="FRA")
        services.registration_create(tournament=other, player=player, key=f"p{i}")
    session = tournament.sessions.get(number=1)
    tables = services.session_seat(session=session, tables=[regs[i : i + 4] for i in range(0, 20, 4)])
    session.seating_published = True
    session.save()
    director = scoring_services.Actor(user=users["director"], role=Role.DIRECTOR)
    table = tables[0]
    scores = [40, 10, -20, -30] if ruleset == "mcr" else [40000, 30000, 20000, 10000]
    for t in (tables[0], tables[3], tables[4]):
        scoring_services.totals_set(table=t, scores=scores, actor=director, expected_version=None)
        if t is not tables[3]:
            scoring_services.result_submit(table=t, actor=director, expected_version=None)
    scoring_services.result_confirm(table=table, actor=director, expected_version=None)
    scoring_services.hand_add(table=tables[1], hand={"result": "draw"}, actor=director, expected_version=None)
    spare_session = tournament.sessions.get(number=2)
    open_table = Table.objects.create(session=spare_session, number=1)
    for position, registration in enumerate(regs[:3]):
        Seat.objects.create(table=open_table, position=position, registration=registration)
    services.session_seat(
        session=tournament.sessions.get(number=3), tables=[regs[i : i + 4] for i in range(0, 20, 4)]
    )
    penalty = penalty_services.penalty_record(
        tournament=tournament,
        registration=regs[4],
        kind="late_arrival",
        actor=director,
        session=session,
        minutes_late=7,
        reason="late",
    )
    lone_player = services.player_create(first_name="Lone", last_name="Player", country="PRT")
    job = ExportJob.objects.create(tournament=tournament, exporter="standings", format="csv")
    # running: a finished tournament refuses every change of its results until it is reopened
    Tournament.objects.filter(pk=tournament.pk).update(status=Tournament.Status.RUNNING)
    tournament.refresh_from_db()
    return World(
        tournament=tournament,
        other=other,
        users=users,
        table=table,
        free_table=tables[1],
        tables=tables,
        open_table=open_table,
        lone_player=lone_player,
        spare_registration=regs[20],
        session=session,
        spare_session=spare_session,
        registration=regs[0],
        penalty=penalty,
        job=job,
    )
