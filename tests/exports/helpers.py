"""Helpers of the export and EMA ranking tests: played sessions through the services, or results
written straight into the summary rows when only the final order matters."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from fractions import Fraction

from scoring.models import SeatSummary
from scoring.services import result_confirm, totals_set
from tournaments import lifecycle
from tournaments.models import Registration, Session, Table, Tournament
from tournaments.permissions import Actor
from tournaments.services import player_create, registration_create, session_seat
from tournaments.signals import RESULTS


def play_totals(tournament: Tournament, number: int, tables: Sequence[tuple[Sequence[str], Sequence]], user):
    """Seat session ``number`` and confirm each table's totals: ``[(keys E S W N, scores), …]``."""
    session = tournament.sessions.get(number=number)
    regs = {r.key: r for r in Registration.objects.filter(tournament=tournament)}
    seated = session_seat(session=session, tables=[[regs[k] for k in keys] for keys, _ in tables])
    actor = Actor(user=user, role="director")
    for table, (_, scores) in zip(seated, tables, strict=True):
        totals_set(table=table, scores=list(scores), actor=actor, expected_version=None)
        result_confirm(table=table, actor=actor, expected_version=None)
    return seated


def finish_in_order(tournament: Tournament, order: Sequence[str | tuple[str, ...]], *, finish: bool = True):
    """Write one session of summary rows in which the players end in ``order`` (best first; a tuple of
    keys ties), then finish the tournament (``finish=False``: its sessions are in play). Cheap: no hands, no
    engines; the statuses are set as an archive import sets them, through the lifecycle."""
    session, _ = Session.objects.get_or_create(tournament=tournament, number=1)
    regs = {r.key: r for r in Registration.objects.filter(tournament=tournament)}
    groups = [g if isinstance(g, tuple) else (g,) for g in order]
    keys = [k for g in groups for k in g]
    value_of = {k: Fraction(len(groups) - i) for i, g in enumerate(groups) for k in g}
    mcr = tournament.family == "mcr"
    rows = []
    for start in range(0, len(keys), 4):
        table = Table.objects.create(session=session, number=start // 4 + 1)
        for position, key in enumerate(keys[start : start + 4]):
            value = value_of[key]
            rows.append(
                SeatSummary(
                    tournament=tournament,
                    session=session,
                    table=table,
                    position=position,
                    registration=regs[key],
                    game_score=value,
                    table_points=value if mcr else None,
                    uma=None if mcr else 0,
                    final=value,
                    result_version=1,
                )
            )
    SeatSummary.objects.bulk_create(rows)
    status = Session.Status.FINISHED if finish else Session.Status.PLAYING
    lifecycle.statuses_load(
        tournament=tournament,
        sessions={s.pk: status for s in tournament.sessions.all()},
        also={RESULTS},
    )
    return tournament


def place_player(
    make_tournament,
    slug: str,
    player,
    *,
    place: int,
    players: int,
    ends_on: dt.date,
    ruleset: str = "mcr",
    days: int = 1,
    finish: bool = True,
    **extra,
) -> Tournament:
    """A tournament of ``players`` players ending on ``ends_on`` in which ``player`` (key p0) finished
    at ``place``; the others (p1 …, from four countries) fill the other places."""
    tournament = make_tournament(
        slug,
        ruleset,
        sessions=0,
        players=players - 1,
        days=days,
        starts_on=ends_on - dt.timedelta(days=days - 1),
        **extra,
    )
    registration_create(tournament=tournament, player=player, key="p0")
    others = [f"p{i}" for i in range(1, players)]
    finish_in_order(tournament, [*others[: place - 1], "p0", *others[place - 1 :]], finish=finish)
    return tournament


def ema_player(first_name: str, ema_id: str, country: str = "ESP"):
    return player_create(first_name=first_name, last_name="Ranked", ema_id=ema_id, country=country)
