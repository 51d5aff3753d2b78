"""Two MCR tournaments built through the services: one that meets every EMA requirement, one that fails
every check. Each session is seated and confirmed (totals), its clock started at the planned time (or
not), and the session finished through the console."""

from __future__ import annotations

import datetime as dt

from django.utils import timezone

from penalties.models import Kind
from penalties.services import penalty_appeal, penalty_record
from rankings.submission import services as submission
from scoring.services import result_reopen
from tests.exports.helpers import play_totals
from tournaments import lifecycle, services
from tournaments.clock import servertime
from tournaments.clock.services import clock_act
from tournaments.lifecycle import CLOCK_SETTING
from tournaments.models import Registration, Role, Session
from tournaments.organising.services import tournament_finish
from tournaments.permissions import Actor
from tournaments.registrations.ema_list import ema_list_import
from tournaments.sessions.services import session_advance, session_times_set

COUNTRIES = ("ESP", "FRA", "NLD", "DEU")
SCORES = [(40, 10, -20, -30), (60, 0, -25, -35), (30, 20, -10, -40), (25, 15, -15, -25)]


def _at(day: dt.date, hour: int, minute: int = 0) -> dt.datetime:
    return timezone.make_aware(dt.datetime.combine(day, dt.time(hour, minute)))


def _play(tournament, number: int, keys: list[str], director, *, clock_at: dt.datetime | None) -> None:
    """Seat and confirm session ``number`` (four keys a table, rotated each session), run its clock at
    ``clock_at`` (none when None) and finish it."""
    shift = number - 1
    tables = []
    for t in range(len(keys) // 4):
        group = keys[t * 4 : t * 4 + 4]
        group = group[shift % 4 :] + group[: shift % 4]
        tables.append((group, SCORES[(t + shift) % len(SCORES)]))
    play_totals(tournament, number, tables, director)
    session = tournament.sessions.get(number=number)
    session_advance(session=session)
    if clock_at is not None:  # starting the clock by hand starts the session (seated → playing)
        with servertime.override(lambda: clock_at):
            clock_act(tournament=tournament, user=director, action="start", session_number=number)
    else:
        session_advance(session=tournament.sessions.get(number=number))
    session_advance(session=tournament.sessions.get(number=number))


def passing_tournament(director, referee_user, *, late_substitute: str = "") -> object:
    """1 day, 4 sessions of 120 minutes with breaks of 30 minutes or more, 16 players from four EMA
    countries with EMA numbers the EMA list knows by the same name and country, a substitute asked, a
    referee, an observer and a prize; every clock ran, every session's results confirmed before the next
    session started (the sessions lie ahead of the confirmations). ``late_substitute`` ("First Last"): a
    substitute registered after session 1, who is never seated."""
    day = timezone.localdate() + dt.timedelta(days=30)
    tournament = services.tournament_create(
        name="Open de Ødegaard", slug="passes", ruleset="mcr", starts_on=day, director=director, sessions=4,
        city="Valencia", country="ESP",
    )  # fmt: skip
    session_times_set(
        tournament=tournament,
        starts={1: _at(day, 9), 2: _at(day, 11, 30), 3: _at(day, 14, 30), 4: _at(day, 17)},
    )
    lines = ["ema_id,first_name,last_name,country"]
    for i in range(1, 17):
        first, last = ("Ana", "Martín Ñúñez") if i == 1 else (f"Player{i}", "Passing")
        ema_id = f"0400{i:04d}"
        country = COUNTRIES[i % 4]
        lines.append(f"{ema_id},{first},{last},{country}")
        player = services.player_create(first_name=first, last_name=last, country=country, ema_id=ema_id)
        services.registration_create(tournament=tournament, player=player, key=f"p{i}")
    ema_list_import(data="\n".join(lines).encode())
    sub = services.player_create(first_name="Sub", last_name="Stitute", country="ESP")
    services.registration_create(tournament=tournament, player=sub, key="s1", is_substitute=True)
    services.role_grant(tournament=tournament, user=referee_user, role=Role.REFEREE)
    submission.submission_update(
        tournament=tournament,
        changes={
            "observer": "Jan Novák",
            "referees": [{"name": "Rita Referee", "plays": False}],
            "prizes": ["Trophies for the three best players"],
            "conclusion": "A well run tournament.",
        },
    )
    submission.substitute_answer_set(tournament=tournament, key="s1", counts=False)
    keys = [f"p{i}" for i in range(1, 17)]
    for number, start in ((1, _at(day, 9)), (2, _at(day, 11, 30)), (3, _at(day, 14, 30)), (4, _at(day, 17))):
        _play(tournament, number, keys, director, clock_at=start)
        if number == 1 and late_substitute:
            first, last = late_substitute.split(" ", 1)
            late = services.player_create(first_name=first, last_name=last, country="POL")
            services.registration_create(tournament=tournament, player=late, key="s2", is_substitute=True)
    tournament_finish(tournament=tournament)
    return tournament


def failing_tournament(director) -> object:
    """1 day, 2 sessions planned one hour apart (120 minutes each), 8 players of whom only some from EMA
    countries, EMA numbers faulty in every way the check knows, a substitute never asked, no referee, no
    observer, no prize; session 1 had no clock, its results came after session 2's clock started, a
    table reopened afterwards, a table whose totals are off, penalties above a warning and an appeal."""
    day = dt.date(2026, 3, 14)
    tournament = services.tournament_create(
        name="Fails", slug="fails", ruleset="mcr", starts_on=day, director=director, sessions=2
    )
    session_times_set(tournament=tournament, starts={1: _at(day, 10), 2: _at(day, 11)})
    # the director starts the clocks by hand (session 1 is played without one)
    services.tournament_update(tournament=tournament, settings={**tournament.settings, CLOCK_SETTING: False})
    ema_list_import(
        data=(
            "ema_id,first_name,last_name,country\n"
            "04010001,Lars,Ødegaard,NOR\n"
            "04010002,Maria,Garcia,ESP\n"
            "04010003,Pierre,Dupont,FRA\n"
        ).encode()
    )
    people = [
        ("Lars", "Odegard", "04010009", "NOR"),  # not in the list; closest: Lars Ødegaard
        ("Marta", "Garcia", "04010002", "ESP"),  # another name in the list
        ("Pierre", "Dupont", "04010003", "BEL"),  # another country in the list
        ("Guest", "Player", "", "USA"),  # no EMA number
        ("Ann", "Other", "", "JPN"),
        ("Bo", "Other", "", "CHN"),
        ("Cy", "Other", "", "ESP"),
        ("Di", "Other", "", "FRA"),
    ]
    for i, (first, last, ema_id, country) in enumerate(people, start=1):
        player = services.player_create(
            first_name=first, last_name=last, country=country, ema_id=ema_id or None
        )
        services.registration_create(tournament=tournament, player=player, key=f"p{i}")
    sub = services.player_create(first_name="Never", last_name="Asked", country="ESP")
    services.registration_create(tournament=tournament, player=sub, key="s1", is_substitute=True)
    keys = [f"p{i}" for i in range(1, 9)]
    _play(tournament, 1, keys, director, clock_at=None)
    actor = Actor(user=director, role="director")
    # the results of session 1 are confirmed now; session 2's clock started back on the day
    tables = [(keys[0:4], (30, 10, -20, -20)), (keys[4:8], (10, 10, 10, -10))]
    from scoring.services import result_confirm, totals_set

    session2 = tournament.sessions.get(number=2)
    regs = {r.key: r for r in Registration.objects.filter(tournament=tournament)}
    made = services.session_seat(session=session2, tables=[[regs[k] for k in g] for g, _ in tables])
    totals_set(table=made[0], scores=list(tables[0][1]), actor=actor, expected_version=None)
    result_confirm(table=made[0], actor=actor, expected_version=None)
    totals_set(
        table=made[1],
        scores=list(tables[1][1]),
        actor=actor,
        expected_version=None,
        imbalance_reason="the score sheet says so",
    )
    result_confirm(table=made[1], actor=actor, expected_version=None)
    session_advance(session=session2)
    with servertime.override(lambda: _at(day, 11)):
        clock_act(tournament=tournament, user=director, action="start", session_number=2)
    session_advance(session=tournament.sessions.get(number=2))
    # afterwards the director reopens both sessions (a finished session's results are read-only): a table
    # of session 1 is reopened and left so, a penalty is given in session 2
    for number in (1, 2):
        lifecycle.session_move(
            session=tournament.sessions.get(number=number),
            to=Session.Status.PLAYING,
            reason="a score was typed wrong",
            user=director,
        )
    table = tournament.sessions.get(number=1).tables.get(number=2)
    result_reopen(table=table, actor=actor, reason="a score was typed wrong")
    penalty = penalty_record(
        tournament=tournament,
        registration=regs["p2"],
        kind=Kind.REFEREE,
        actor=actor,
        session=session2,
        table=made[0],
        reason="Showed tiles to a neighbour",
        points=-30,
    )
    penalty_appeal(penalty=penalty, actor=actor, appeal="The tiles fell", decision="Penalty stands")
    session_advance(session=tournament.sessions.get(number=2))  # session 1 stays open: its table 2 is not
    return tournament
