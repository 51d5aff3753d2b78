"""What the room's pages show besides the clock: the next published seating by player name, the latest
standings, per-player schedules and the tables' score sheets. Reads only."""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db.models import Count

from tournaments.models import WIND_LETTERS, Registration, Seat, Session, Table, Tournament
from tournaments.names import person_key


@dataclass(frozen=True)
class SeatLine:
    name: str
    table: int | None
    wind: str
    substitute_for: str = ""  # a substitute who plays this seat instead of the player seated there
    replaced_by: str = ""  # the player seated here does not play: this substitute does


def screen_session(*, tournament: Tournament, current: Session | None) -> Session | None:
    """The seating the venue screen shows: the first published session whose clock has not started;
    else the current session when published."""
    sessions = Session.objects.filter(tournament=tournament, seating_published=True).select_related("clock")
    for session in sessions.order_by("number"):
        clock = getattr(session, "clock", None)
        if clock is None or clock.state == "stopped":
            return session
    if current is not None and current.seating_published:
        return current
    return None


def seating_by_name(*, session: Session) -> list[SeatLine]:
    """Every seated player of ``session``, by last name then first name: where to sit. A seat a substitute
    plays instead (a ``replaced`` penalty: a late player, illness) lists the substitute there, and the
    replaced player with no seat, "replaced by" the substitute."""
    from penalties.selectors import replacements

    seats = Seat.objects.filter(session=session).select_related("table", "registration__player")
    instead = {r: sub for (_s, r), sub in replacements(sessions=[session]).items()}
    lines = []
    for s in seats:
        player = s.registration.player
        sub = instead.get(s.registration_id)
        if sub is None:
            lines.append(
                (person_key(player), s.pk, SeatLine(_name(player), s.table.number, WIND_LETTERS[s.position]))
            )
            continue
        lines.append(
            (
                person_key(sub.player),
                s.pk,
                SeatLine(
                    _name(sub.player),
                    s.table.number,
                    WIND_LETTERS[s.position],
                    substitute_for=player.full_name,
                ),
            )
        )
        lines.append(
            (person_key(player), s.pk, SeatLine(_name(player), None, "", replaced_by=sub.player.full_name))
        )
    return [line for *_order, line in sorted(lines, key=lambda x: (x[0], x[1]))]


def _name(player) -> str:
    return _sort_name(player.first_name, player.last_name)


def _sort_name(first: str, last: str) -> str:
    return f"{last.upper()}, {first}" if last else first


@dataclass(frozen=True)
class StandingRow:
    rank: int
    name: str
    value: str


def standings_top(*, tournament: Tournament, limit: int = 24) -> list[StandingRow]:
    """The first rows of the stored standings (nothing is computed here), or, while the last sessions are
    hidden for the prize-giving, of the standings as the public sees them (the screen is public)."""
    from rankings.models import StandingsState
    from rankings.standings.selectors import standings_document
    from tournaments.selectors import visible_through

    last = visible_through(tournament=tournament, user=None)
    if last is not None:
        document = standings_document(tournament=tournament, upto_session=last)
    else:
        document = (
            StandingsState.objects.filter(tournament=tournament).values_list("document", flat=True).first()
        )
    rows = []
    for row in (document or {}).get("standings", [])[:limit]:
        value = row.get("table_points")
        score = row.get("score")
        text = f"{_num(value)} · {_num(score)}" if value is not None else _num(score)
        rows.append(StandingRow(rank=row.get("rank") or 0, name=row.get("name", ""), value=text))
    return rows


def _num(value) -> str:
    if value is None:
        return "–"
    text = str(value)
    if text.endswith(".0"):
        text = text[:-2]
    return text.replace("-", "−")


# -- printouts ---------------------------------------------------------------------------------------


@dataclass
class ScheduleEntry:
    session: int
    starts_at: object
    table: int | None
    wind: str
    published: bool


@dataclass
class Schedule:
    registration: Registration
    entries: list[ScheduleEntry] = field(default_factory=list)


def schedules(*, tournament: Tournament, published_only: bool) -> list[Schedule]:
    """Each registered player's sessions: table and seat (every session, also those not seated yet)."""
    sessions = list(Session.objects.filter(tournament=tournament).order_by("number"))
    seats: dict[int, dict[int, Seat]] = {}
    query = Seat.objects.filter(session__tournament=tournament).select_related("table")
    if published_only:
        query = query.filter(session__seating_published=True)
    for seat in query:
        seats.setdefault(seat.registration_id, {})[seat.session_id] = seat
    out = []
    registrations = sorted(
        Registration.objects.filter(tournament=tournament).select_related("player"),
        key=lambda r: (person_key(r.player), r.pk),
    )
    for registration in registrations:
        schedule = Schedule(registration=registration)
        mine = seats.get(registration.pk, {})
        if registration.is_substitute and not mine:
            continue
        for session in sessions:
            seat = mine.get(session.pk)
            schedule.entries.append(
                ScheduleEntry(
                    session=session.number,
                    starts_at=session.starts_at,
                    table=seat.table.number if seat else None,
                    wind=WIND_LETTERS[seat.position] if seat else "",
                    published=session.seating_published,
                )
            )
        out.append(schedule)
    return out


@dataclass
class SheetSeat:
    wind: str
    name: str
    key: str
    ema_id: str


@dataclass
class Sheet:
    table: Table
    seats: list[SheetSeat]


def score_sheets(*, session: Session) -> list[Sheet]:
    tables = (
        Table.objects.filter(session=session)
        .prefetch_related("seats__registration__player")
        .annotate(n=Count("seats"))
        .order_by("number")
    )
    sheets = []
    for table in tables:
        seats = sorted(table.seats.all(), key=lambda s: s.position)
        sheets.append(
            Sheet(
                table=table,
                seats=[
                    SheetSeat(
                        wind=WIND_LETTERS[s.position],
                        name=s.registration.player.full_name,
                        key=s.registration.key,
                        ema_id=s.registration.player.ema_id or "",
                    )
                    for s in seats
                ],
            )
        )
    return sheets
