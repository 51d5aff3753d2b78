"""Writes of the tournaments app: keyword-only, typed, atomic."""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Sequence
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Max
from django.utils.translation import gettext as _

from tournaments.deletion import seating_holders
from tournaments.lifecycle import tournament_open_check
from tournaments.models import (
    Player,
    Registration,
    Role,
    Seat,
    Session,
    Table,
    Tournament,
    TournamentRole,
)
from tournaments.selectors import players_visible
from tournaments.signals import RESULTS, ROSTER, SCHEDULE, SETTINGS, changed_send


def tournament_create(
    *,
    name: str,
    slug: str,
    ruleset: str,
    starts_on: dt.date,
    days: int = 1,
    rules: dict[str, Any] | None = None,
    city: str = "",
    country: str = "",
    is_public: bool = True,
    qualifies_for_championship: bool = False,
    settings: dict[str, Any] | None = None,
    language: str = "",
    director=None,
    sessions: int = 0,
) -> Tournament:
    """Create a tournament (a draft: its status then follows the lifecycle); ``director`` (a user) gets the
    director role; ``sessions`` empty sessions."""
    tournament = Tournament(
        name=name,
        slug=slug,
        ruleset=ruleset,
        rules=rules or {},
        starts_on=starts_on,
        days=days,
        city=city,
        country=(country or "").upper(),
        is_public=is_public,
        qualifies_for_championship=qualifies_for_championship,
        settings=settings or {},
        language=language,
    )
    tournament.full_clean()
    with transaction.atomic():
        tournament.save()
        if director is not None:
            TournamentRole.objects.create(tournament=tournament, user=director, role=Role.DIRECTOR)
        for number in range(1, sessions + 1):
            Session.objects.create(tournament=tournament, number=number)
        changed_send(tournament_id=tournament.pk, what={SETTINGS, SCHEDULE})
    return tournament


def role_grant(*, tournament: Tournament, user, role: str) -> TournamentRole:
    obj, _ = TournamentRole.objects.get_or_create(tournament=tournament, user=user, role=role)
    return obj


def player_create(
    *, first_name: str, last_name: str = "", ema_id: str | None = None, country: str = "", club: str = ""
) -> Player:
    player = Player(
        first_name=first_name.strip(),
        last_name=(last_name or "").strip(),
        ema_id=(ema_id or "").strip() or None,
        country=(country or "").strip().upper(),
        club=(club or "").strip(),
    )
    player.full_clean()
    player.save()
    changed_send(tournament_id=None, what={ROSTER}, players=[player.pk])
    return player


def player_write(*, player: Player | None = None, **fields: Any) -> Player:
    """Create a player (``player`` None) or change one, from fields already checked (the API's serializer);
    every tournament of the player follows."""
    with transaction.atomic():
        if player is None:
            player = Player.objects.create(**fields)
        else:
            for name, value in fields.items():
                setattr(player, name, value)
            player.save()
        player_changed(player=player)
    return player


def player_delete(*, player: Player) -> None:
    """Remove a player; the tournaments the player played in are told before the player goes."""
    with transaction.atomic():
        player_changed(player=player)
        player.delete()


def players_hidden(*, ids, user) -> set[int]:
    """Of the players ``ids``, those ``user`` may not see (a private tournament's players of another
    organiser): never matched nor reused by any door. ``user`` None is the server's operator (a command),
    who sees everyone."""
    ids = {int(i) for i in ids if i is not None}
    if user is None or not ids:
        return set()

    return ids - set(players_visible(user=user).filter(pk__in=ids).values_list("pk", flat=True))


def player_hidden_error(*, field: str, ema_id: str | None = None) -> ValidationError:
    """The refusal of a player the caller may not see: it names the field and tells nothing of him."""
    if ema_id:
        message = _(
            "The EMA number %(ema)s belongs to a player of a tournament you cannot see: check the number, "
            "or ask that tournament's director or the site's staff to register him."
        ) % {"ema": ema_id}
    else:
        message = _("There is no player you may register with this id.")
    return ValidationError({field: message})


def next_registration_key(tournament: Tournament) -> str:
    numbers = [
        int(m.group(1))
        for key in Registration.objects.filter(tournament=tournament).values_list("key", flat=True)
        if (m := re.fullmatch(r"p(\d+)", key))
    ]
    return f"p{max(numbers, default=0) + 1}"


def registration_create(
    *,
    tournament: Tournament,
    player: Player,
    key: str | None = None,
    is_substitute: bool = False,
    nickname: str = "",
    withdrawn_from: int | None = None,
) -> Registration:
    tournament_open_check(tournament=tournament)
    registration = Registration(
        tournament=tournament,
        player=player,
        key=key or next_registration_key(tournament),
        is_substitute=is_substitute,
        nickname=nickname,
        withdrawn_from=withdrawn_from,
    )
    registration.full_clean()
    registration.save()
    roster_changed(tournament_id=tournament.pk, players=[player.pk])
    return registration


def registration_withdraw(*, registration: Registration, from_session: int) -> Registration:
    if from_session < 1:
        raise ValidationError({"withdrawn_from": "The first session a player misses is 1 or later."})
    tournament_open_check(tournament=registration.tournament_id)
    registration.withdrawn_from = from_session
    registration.save(update_fields=["withdrawn_from"])
    roster_changed(tournament_id=registration.tournament_id, players=[registration.player_id])
    return registration


def registration_update(*, registration: Registration, **fields: Any) -> Registration:
    """Change a registration's fields, already checked (the API's serializer): its nickname, key,
    substitute flag or withdrawal. The tournament must not be finished."""
    with transaction.atomic():
        tournament_open_check(tournament=registration.tournament_id)
        for name, value in fields.items():
            setattr(registration, name, value)
        registration.save()
        roster_changed(tournament_id=registration.tournament_id, players=[registration.player_id])
    return registration


def player_changed(*, player: Player) -> None:
    """A player's name, EMA number, country or club changed: every tournament of the player follows."""
    changed_send(tournament_id=None, what={ROSTER}, players=[player.pk])


def roster_changed(*, tournament_id: int, players=()) -> None:
    """Players of the tournament, their names or registrations changed (the standings follow)."""
    changed_send(tournament_id=tournament_id, what={ROSTER}, players=players)


def tournament_update(*, tournament: Tournament, **fields: Any) -> Tournament:
    """Change a tournament's fields; a change of ruleset, rules or settings recomputes the standings. The
    ruleset, the rules and the team size of a finished tournament stay as they are until it is reopened."""
    if {"ruleset", "rules", "team_size"} & set(fields) and any(
        fields[name] != getattr(tournament, name)
        for name in ("ruleset", "rules", "team_size")
        if name in fields
    ):
        tournament_open_check(tournament=tournament)
    for name, value in fields.items():
        setattr(tournament, name, value)
    tournament.full_clean()
    tournament.save()
    what = {SETTINGS}
    if {"ruleset", "rules", "settings"} & set(fields):
        what.add(RESULTS)  # the results are read with the rules and settings: the standings follow
    changed_send(tournament_id=tournament.pk, what=what)
    return tournament


def session_create(
    *, tournament: Tournament, number: int | None = None, starts_at=None, absent: Sequence[str] = ()
) -> Session:
    """A new session; ``absent``: keys of players absent from it only (a substitute plays it), as an
    archive records them (check-in records them live, ``registrations.checkin.checkin_apply``)."""
    tournament_open_check(tournament=tournament)
    if number is None:
        number = (tournament.sessions.aggregate(m=Max("number"))["m"] or 0) + 1
    session = Session(tournament=tournament, number=number, starts_at=starts_at, absent=sorted(absent))
    session.full_clean()
    session.save()
    changed_send(tournament_id=tournament.pk, what={SCHEDULE}, sessions=[session.pk])
    return session


def _schedule_write(obj: Session | Table | Seat, tournament_id: int, fields: dict[str, Any]) -> None:
    """Store a session, table or seat with ``fields`` (already checked by the API's serializer) while the
    tournament is not finished, and tell the schedule changed."""
    with transaction.atomic():
        tournament_open_check(tournament=tournament_id)
        for name, value in fields.items():
            setattr(obj, name, value)
        obj.save()
        changed_send(tournament_id=tournament_id, what={SCHEDULE})


def session_save(*, session: Session | None = None, **fields: Any) -> Session:
    """Create (``session`` None) or change a session from checked fields (the API's)."""
    tournament = fields.get("tournament") or session.tournament
    session = session or Session()
    _schedule_write(session, tournament.pk, fields)
    return session


def table_save(*, table: Table | None = None, **fields: Any) -> Table:
    """Create (``table`` None) or change a table from checked fields (the API's)."""
    table = table or Table()
    session = fields.get("session") or table.session
    _schedule_write(table, session.tournament_id, fields)
    return table


def seat_save(*, seat: Seat | None = None, **fields: Any) -> Seat:
    """Create (``seat`` None: in its table's session) or change a seat from checked fields (the API's)."""
    table = fields.get("table") or seat.table
    if seat is None:
        seat = Seat(session=table.session)
    _schedule_write(seat, table.session.tournament_id, fields)
    return seat


@transaction.atomic
def session_seat(
    *, session: Session, tables: Sequence[Sequence[Registration]], replace: bool = False, event: bool = True
) -> list[Table]:
    """Seat a session: each entry is a table's four registrations in seat order E, S, W, N.

    Tables are numbered 1..n in the given order. With ``replace``, the session's existing tables are removed
    first; tables that hold a record (results, penalties recorded at them, calls of a referee) refuse it,
    naming what they hold. ``event=False``: the caller seats several sessions in one write and sends one
    event for them all.
    """
    tournament_open_check(tournament=session.tournament_id)
    if replace and (holders := seating_holders(session)):
        raise ValidationError(
            {
                "session": _("Session %(n)s cannot be seated again: its tables hold %(what)s.")
                % {"n": session.number, "what": "; ".join(holders)}
            }
        )
    if replace:
        Table.objects.filter(session=session).delete()
    elif session.tables.exists():
        raise ValidationError({"session": f"Session {session.number} is already seated."})
    for number, registrations in enumerate(tables, start=1):
        if len(registrations) != 4:
            raise ValidationError({"tables": f"Table {number} has {len(registrations)} players, not 4."})
    # two statements for the whole session, whatever its size: the tables, then their seats
    created = Table.objects.bulk_create(
        [Table(session=session, number=number) for number in range(1, len(tables) + 1)]
    )
    Seat.objects.bulk_create(
        Seat(table=table, session=session, position=position, registration=registration)
        for table, registrations in zip(created, tables, strict=True)
        for position, registration in enumerate(registrations)
    )
    if event:
        changed_send(
            tournament_id=session.tournament_id,
            what={SCHEDULE},
            sessions=[session.pk],
            tables=[t.pk for t in created],
        )
    return created
