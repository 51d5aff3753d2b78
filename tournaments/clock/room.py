"""What the room's pages show besides the clock: the next published seating by player name, the latest
standings, per-player schedules and the tables' score sheets. Reads only."""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db.models import Count

from penalties.kinds import Replaced
from penalties.models import Penalty
from rankings.models import StandingsState
from rankings.standings.selectors import standings_document
from tournaments.models import WIND_LETTERS, Registration, Seat, Session, Table, Tournament
from tournaments.names import person_key
from tournaments.selectors import visible_through


@dataclass(frozen=True)
class SeatLine:
    name: str
    table: int
    wind: str
    substitute: bool = False  # a substitute plays this seat
    substitute_for: str = ""  # whom the substitute replaces, when a substitution says so


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
    """Every player of ``session`` by last name then first name, where they play: a substitute who
    replaces a seated player (a substitution of that session) is listed at that seat, under their own
    name and with the replaced player's; the replaced player is not listed. A substitute seated directly
    is marked as one."""

    seats = Seat.objects.filter(session=session).select_related("table", "registration__player")
    replaced = {
        p.registration_id: p.substitute
        for p in Penalty.objects.filter(
            session=session, kind=Replaced.value, cancelled_at__isnull=True, substitute__isnull=False
        ).select_related("substitute__player", "registration__player")
    }
    lines = []
    for seat in seats:
        seated = seat.registration
        playing = replaced.get(seated.pk)
        person = (playing or seated).player
        line = SeatLine(
            name=_sort_name(person.first_name, person.last_name),
            table=seat.table.number,
            wind=WIND_LETTERS[seat.position],
            substitute=playing is not None or seated.is_substitute,
            substitute_for=(
                _sort_name(seated.player.first_name, seated.player.last_name) if playing is not None else ""
            ),
        )
        lines.append((person_key(person), seat.pk, line))
    return [line for _key, _pk, line in sorted(lines, key=lambda item: (item[0], item[1]))]


def _sort_name(first: str, last: str) -> str:
    return f"{last.upper()}, {first}" if last else first


@dataclass(frozen=True)
class StandingRow:
    rank: int
    name: str
    value: str  # "table points · score", or the score alone when the ruleset ranks by score
    by_table_points: bool = False


def standings_top(*, tournament: Tournament, limit: int = 24) -> list[StandingRow]:
    """The first rows of the stored standings (nothing is computed here), or, while the last sessions are
    hidden for the prize-giving, of the standings as the public sees them (the screen is public)."""

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
        rows.append(
            StandingRow(
                rank=row.get("rank") or 0,
                name=row.get("name", ""),
                value=text,
                by_table_points=value is not None,
            )
        )
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
