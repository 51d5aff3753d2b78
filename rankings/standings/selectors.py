"""Reads for standings: a fixed number of queries whatever the size of the tournament."""

from __future__ import annotations

import dataclasses
import datetime as dt
import json
from collections import defaultdict
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from django.db import connection
from django.db.models import CharField, Count, Q
from django.db.models.functions import Cast
from django.http import Http404
from django.utils import timezone

from penalties.kinds import kind_of
from penalties.models import Penalty
from penalties.presenters import PenaltyLine, penalty_lines
from penalties.selectors import player_penalties, replacements
from rankings.standings.engine import (
    TIEBREAKS,
    PlayerInfo,
    ScorePenalty,
    SessionRow,
    Standings,
    TablePointsPenalty,
    compute_standings,
    method_of,
)
from rankings.standings.models import StandingsState
from rankings.standings.teams import TeamInfo, figures_of, team_standings
from rankings.submission.models import EmaSubmission
from scoring.models import SeatSummary
from scoring.selectors import summary_seat_line, table_status
from tournaments.models import WIND_LETTERS, Registration, Seat, Session, Tournament
from tournaments.names import person_key
from tournaments.presenters import SeatLine
from tournaments.search import name_query
from tournaments.selectors import visible_through

NUMBER_FIELDS = ("game_score", "table_points", "uma", "transfers", "chombo", "penalties", "final")


def exact(text: str | None):
    """A stored exact number ("12", "7/3") as an int when whole, else a Fraction; None stays None."""
    if text is None or text == "":
        return None
    try:
        return int(text)
    except ValueError:
        value = Fraction(text)
        return int(value) if value.denominator == 1 else value


def standings_inputs(*, tournament: Tournament, upto_session: int | None = None):
    """Players, session rows and penalties of a tournament: four queries.

    The summary rows are read as plain tuples (no model instances; numbers as text, parsed here): the
    read costs the same few queries and stays cheap for 400 players and 10 sessions. ``upto_session``
    leaves out the rows and the penalties of later sessions (and penalties of no session), and counts
    the finished sessions up to it.
    """
    registrations = list(Registration.objects.filter(tournament=tournament).select_related("player"))
    key_of = {r.pk: r.key for r in registrations}
    summaries = _summaries(tournament)
    penalties = list(
        Penalty.objects.filter(tournament=tournament, cancelled_at__isnull=True)
        .select_related("session")
        .order_by("sequence")
    )
    finished = Session.objects.filter(tournament=tournament, status=Session.Status.FINISHED)
    if upto_session is not None:
        summaries = summaries.filter(session__number__lte=upto_session)
        finished = finished.filter(number__lte=upto_session)
    complete = finished.count()
    rows, in_rows = _seat_rows(summaries, key_of)
    rows += replacement_rows(tournament=tournament, penalties=penalties, key_of=key_of, in_rows=in_rows)
    rows += absent_rows(tournament=tournament, registrations=registrations, in_rows=in_rows)
    score_penalties, tp_penalties = _penalty_rows(penalties, key_of, in_rows)
    if upto_session is not None:
        rows = [r for r in rows if r.session <= upto_session]
        score_penalties = [p for p in score_penalties if p.session is not None and p.session <= upto_session]
        tp_penalties = [p for p in tp_penalties if p.session is not None and p.session <= upto_session]
    players = _player_infos(tournament, registrations, penalties, upto_session)
    return players, rows, score_penalties, tp_penalties, complete


def _summaries(tournament: Tournament):
    """The summary rows of the tournament's seats as plain tuples, numbers as text, by table and seat."""
    return (
        SeatSummary.objects.filter(tournament=tournament)
        .order_by("table_id", "position")
        .values_list(
            "table_id",
            "registration_id",
            "position",
            "session__number",
            "table__number",
            *(Cast(name, CharField()) for name in NUMBER_FIELDS),
        )
    )


def _seat_rows(summaries, key_of: dict[int, str]) -> tuple[list[SessionRow], set[tuple[int, int]]]:
    """A session row for each seat's summary, and the (registration, session) pairs that have one."""
    by_table = defaultdict(list)
    for s in summaries:
        by_table[s[0]].append(s)
    rows = []
    in_rows = set()
    for seats in by_table.values():
        keys = [key_of[s[1]] for s in seats]
        for _, registration_id, position, session_number, table_number, *numbers in seats:
            key = key_of[registration_id]
            in_rows.add((registration_id, session_number))
            game_score, table_points, uma, transfers, chombo, penalty, final = (exact(n) for n in numbers)
            rows.append(
                SessionRow(
                    player=key,
                    session=session_number,
                    table=table_number,
                    seat_wind=WIND_LETTERS[position],
                    opponents=tuple(k for k in keys if k != key),
                    game_score=game_score,
                    table_points=None if table_points is None else Fraction(table_points),
                    uma=uma,
                    transfers=transfers or 0,
                    chombo=chombo or 0,
                    penalties=penalty or 0,
                    final=final,
                )
            )
    return rows, in_rows


def _penalty_rows(
    penalties: list[Penalty], key_of: dict[int, str], in_rows: set[tuple[int, int]]
) -> tuple[list[ScorePenalty], list[TablePointsPenalty]]:
    """The penalties on the score of a session the player has no row in, and those on table points."""
    score_penalties, tp_penalties = [], []
    for p in penalties:
        kind, number = kind_of(p.kind), p.session.number if p.session else None
        points, table_points = kind.score_points(p), kind.table_points_off(p)
        if points and (p.registration_id, number) not in in_rows:
            score_penalties.append(
                ScorePenalty(player=key_of[p.registration_id], session=number, points=points)
            )
        elif table_points:
            tp_penalties.append(
                TablePointsPenalty(player=key_of[p.registration_id], session=number, points=table_points)
            )
    return score_penalties, tp_penalties


def _player_infos(
    tournament: Tournament,
    registrations: list[Registration],
    penalties: list[Penalty],
    upto_session: int | None,
) -> list[PlayerInfo]:
    """Every registered player as the engine reads them."""
    disqualified = {p.registration_id for p in penalties if kind_of(p.kind).out_of_tournament(p)}
    counted = counted_substitutes(tournament=tournament, registrations=registrations)
    return [
        PlayerInfo(
            player=r.key,
            name=r.player.full_name,
            substitute=r.is_substitute,
            disqualified=r.pk in disqualified,
            # shown as after ``upto_session``: a later withdrawal is not known yet
            withdrawn_from=r.withdrawn_from
            if upto_session is None or (r.withdrawn_from or 0) <= upto_session
            else None,
            counted_substitute=r.key in counted,
        )
        for r in registrations
    ]


def counted_substitutes(
    *, tournament: Tournament, registrations: list[Registration] | None = None
) -> set[str]:
    """The keys of the substitutes whose results count (ERGMT §3.9): each answered yes (at check-in
    before the first session, or on the EMA submission page: one record, ``EmaSubmission.
    substitute_answers``) and replaces a player from the beginning of the tournament: seated in its first
    session and in every session seated since. A substitute for a player absent from the first session
    only, who comes back, is an 'in tournament' substitute from then on, never ranked (MERS-R §4), like
    every other. Three queries at most."""
    answers = (
        EmaSubmission.objects.filter(tournament=tournament)
        .values_list("substitute_answers", flat=True)
        .first()
    ) or {}
    yes = {key for key, counts in answers.items() if counts is True}
    if registrations is not None:
        yes &= {r.key for r in registrations if r.is_substitute}
    if not yes:
        return set()
    sessions = list(
        Session.objects.filter(tournament=tournament).order_by("number").values_list("pk", "status")
    )
    if not sessions:
        return set()
    first = sessions[0][0]
    seated = {pk for pk, status in sessions if status != Session.Status.PLANNED} | {first}
    played: dict[str, set[int]] = {}
    for key, session_id in (
        Seat.objects.filter(
            session_id__in=seated, registration__key__in=yes, registration__is_substitute=True
        )
        .filter(registration__tournament=tournament)
        .values_list("registration__key", "session_id")
    ):
        played.setdefault(key, set()).add(session_id)
    return {key for key, sessions_played in played.items() if sessions_played >= seated}  # the first included


def replacement_rows(
    *, tournament: Tournament, penalties: list[Penalty], key_of: dict[int, str], in_rows: set
) -> list[SessionRow]:
    """Riichi with ``replacement_points`` set: a player replaced by a substitute carries that fixed result
    (plus ``replacement_uma``) for the session they missed, once their table is confirmed (the substitute,
    who is never ranked, keeps the seat's real result). One query, only when there are replacements."""
    fixed = tournament.get_rules().replacement_result()
    replaced = [p for p in penalties if kind_of(p.kind).replaces and p.session_id]
    if fixed is None or not replaced:
        return []
    wanted = {(p.registration_id, p.session_id) for p in replaced}
    seats = Seat.objects.filter(
        session__tournament=tournament, registration_id__in={r for r, _ in wanted}
    ).values_list("registration_id", "session_id", "position", "table__number", "table_id")
    confirmed = set(
        SeatSummary.objects.filter(tournament=tournament).values_list("table_id", flat=True).distinct()
    )
    out = []
    for registration_id, session_id, position, table_number, table_id in seats:
        if (registration_id, session_id) not in wanted or table_id not in confirmed:
            continue
        penalty = next(
            p for p in replaced if (p.registration_id, p.session_id) == (registration_id, session_id)
        )
        number = penalty.session.number
        if (registration_id, number) in in_rows:
            continue
        out.append(
            _replacement_row(fixed, key_of[registration_id], number, table_number, WIND_LETTERS[position])
        )
    return out


def _replacement_row(fixed, player: str, session: int, table, wind: str) -> SessionRow:
    """The row of a session a substitute played in ``player``'s place: the ruleset's fixed result."""
    return SessionRow(
        player=player, session=session, table=table, seat_wind=wind, opponents=(), game_score=fixed.game_score,
        table_points=None, uma=fixed.uma, transfers=0, chombo=0, penalties=0, final=fixed.final,
    )  # fmt: skip


def absent_rows(
    *, tournament: Tournament, registrations: list[Registration], in_rows: set
) -> list[SessionRow]:
    """Riichi with ``replacement_points`` set: a player absent from a session at check-in (a substitute
    played it, EMA riichi rules §7.3) carries that fixed result (plus ``replacement_uma``) for it, once every
    table of the session is confirmed, like a player replaced at his table. Elsewhere (MCR: MERS-R §4.3, 0
    table points) the session missed has no row. One query, only when the rules set such a result."""
    fixed = tournament.get_rules().replacement_result()
    if fixed is None:
        return []
    by_key = {r.key: r for r in registrations}
    sessions = (
        Session.objects.filter(tournament=tournament)
        .exclude(absent=[])
        .annotate(
            tables_count=Count("tables", distinct=True),
            confirmed=Count("tables", filter=Q(tables__result__status="confirmed"), distinct=True),
        )
    )
    out = []
    for session in sessions:
        if not session.absent or not session.tables_count or session.confirmed < session.tables_count:
            continue
        for key in session.absent:
            registration = by_key.get(key)
            if registration is None or (registration.pk, session.number) in in_rows:
                continue
            out.append(_replacement_row(fixed, key, session.number, "", ""))  # no table: he did not play
    return out


def tiebreak_order(*, tournament: Tournament) -> tuple[str, ...]:
    """The director's tie-breaks; keys that are unknown or repeated (hand-edited settings) are left out."""
    keys = (tournament.settings or {}).get("tiebreaks") or ()
    if isinstance(keys, str):
        keys = (keys,)
    order: list[str] = []
    for key in keys:
        if isinstance(key, str) and key in TIEBREAKS and key not in order:
            order.append(key)
    return tuple(order)


def standings_view(*, tournament: Tournament, upto_session: int | None = None) -> Standings:
    """The standings of ``tournament``, with its teams, computed now from the stored results: after every
    session, or as they stood after ``upto_session`` (the public page while the last sessions are hidden).
    The one computation behind the stored snapshot, the hidden standings, the reveal, the EMA results
    and the exports; it only reads."""
    players, rows, score_penalties, tp_penalties, complete = standings_inputs(
        tournament=tournament, upto_session=upto_session
    )
    rules = tournament.get_rules()
    standings = compute_standings(
        players=players,
        rows=rows,
        method=method_of(rules),
        table_points_penalties=tp_penalties,
        score_penalties=score_penalties,
        tiebreaks=tiebreak_order(tournament=tournament),
        complete_sessions=complete,
    )
    teams = standings_teams(tournament=tournament)
    if not teams:
        return standings
    # a withdrawn member's sessions still count for his team
    ranked = team_standings(teams, figures_of(standings.listed), standings.method == "table_points")
    return dataclasses.replace(standings, teams=ranked)


def standings_teams(*, tournament: Tournament) -> list[TeamInfo]:
    """The tournament's teams with their members' keys (one query); teams without members are left out."""
    teams: dict[int, TeamInfo] = {}
    rows = (
        Registration.objects.filter(tournament=tournament, team__isnull=False)
        .order_by("team__name", "id")
        .values_list("team_id", "team__name", "key")
    )
    for team_id, name, key in rows:
        info = teams.get(team_id)
        teams[team_id] = TeamInfo(team_id, name, (*(info.members if info else ()), key))
    return list(teams.values())


# -- pages ------------------------------------------------------------------------------------------

DELAYED_AFTER_SECONDS = 60  # a queued recompute that has not finished after this long is late


@dataclass(frozen=True)
class Freshness:
    """How up to date the stored standings are, for the pages, the dashboard and the API."""

    computed_version: int
    input_version: int
    computed_at: dt.datetime | None
    queued_at: dt.datetime | None
    queue_failed_at: dt.datetime | None
    queue_error: str
    has_snapshot: bool

    @property
    def fresh(self) -> bool:
        """The snapshot holds the newest input; with no input ever (no state yet: nothing entered), the
        standings the pages compute are as fresh as can be."""
        return self.computed_version >= self.input_version and (self.has_snapshot or self.input_version == 0)

    @property
    def delayed(self) -> bool:
        """Not fresh and not about to be: queueing or computing failed, or the queued run is late."""
        if self.fresh:
            return False
        if self.queue_failed_at is not None:
            return True
        limit = timezone.now() - dt.timedelta(seconds=DELAYED_AFTER_SECONDS)
        return self.queued_at is None or self.queued_at < limit

    @property
    def updating(self) -> bool:
        return not self.fresh and not self.delayed

    @property
    def token(self) -> str:
        """Changes whenever what the standings page shows changes (the polling compares it)."""
        state = "f" if self.fresh else ("d" if self.delayed else "u")
        stamp = int(self.computed_at.timestamp() * 1000) if self.computed_at else 0
        return f"{self.computed_version}-{self.input_version}-{state}-{stamp}"

    def as_dict(self) -> dict:
        return {
            "computed_version": self.computed_version,
            "input_version": self.input_version,
            "fresh": self.fresh,
            "delayed": self.delayed,
            "computed_at": self.computed_at.isoformat() if self.computed_at else None,
            "queue_error": self.queue_error,
        }


def page_stamp(tournament: Tournament) -> str:
    """Part of every cache key of a tournament's pages: a tournament deleted and created again under the
    same id (a restored database) never gets the pages of the old one."""
    created = getattr(tournament, "created_at", None)
    return f"{tournament.pk}.{int(created.timestamp() * 1_000_000) if created else 0}"


def freshness_of(state: StandingsState | None) -> Freshness:
    if state is None:
        return Freshness(0, 0, None, None, None, "", False)
    return Freshness(
        computed_version=state.computed_version,
        input_version=state.input_version,
        computed_at=state.computed_at,
        queued_at=state.queued_at,
        queue_failed_at=state.queue_failed_at,
        queue_error=state.queue_error,
        has_snapshot=state.computed_at is not None,
    )


TOURNAMENT_FIELDS = (
    "id", "name", "slug", "ruleset", "rules", "starts_on", "status", "is_public", "settings", "created_at",
)  # fmt: skip
STATE_FIELDS = (
    "input_version",
    "computed_version",
    "computed_at",
    "queued_at",
    "queue_failed_at",
    "queue_error",
)


def _freshness_sql() -> str:
    tournament, state = Tournament._meta, StandingsState._meta
    columns = [f"t.{tournament.get_field(f).column}" for f in TOURNAMENT_FIELDS]
    columns += [f"s.{state.get_field(f).column}" for f in STATE_FIELDS]
    return (
        f"SELECT {', '.join(columns)} FROM {tournament.db_table} t "
        f"LEFT JOIN {state.db_table} s ON s.{state.get_field('tournament').column} = t.id "
        f"WHERE t.{tournament.get_field('slug').column} = %s"
    )


def tournament_with_freshness(*, slug: str) -> tuple[Tournament, Freshness]:
    """The tournament (the fields the public pages use) and how fresh its standings are, without the
    (large) snapshot itself: one small query, the whole database cost of a cached standings page (written
    as SQL: the ORM's query building cost several times the query itself)."""
    with connection.cursor() as cursor:
        cursor.execute(_freshness_sql(), [slug])
        row = cursor.fetchone()
    if row is None:
        raise Http404("No such tournament.")
    values = dict(zip(TOURNAMENT_FIELDS, row[: len(TOURNAMENT_FIELDS)], strict=True))
    for name in ("rules", "settings"):  # JSON columns: decoded by the driver on PostgreSQL, text on SQLite
        if isinstance(values[name], str):
            values[name] = json.loads(values[name])
    values["created_at"] = _aware(values["created_at"])
    if isinstance(values["starts_on"], str):
        values["starts_on"] = dt.date.fromisoformat(values["starts_on"])
    tournament = Tournament(**values)
    tournament._state.adding = False
    tournament._state.db = connection.alias
    state = dict(zip(STATE_FIELDS, row[len(TOURNAMENT_FIELDS) :], strict=True))
    if state["input_version"] is None:  # no state row yet
        return tournament, freshness_of(None)
    return tournament, Freshness(
        computed_version=state["computed_version"],
        input_version=state["input_version"],
        computed_at=_aware(state["computed_at"]),
        queued_at=_aware(state["queued_at"]),
        queue_failed_at=_aware(state["queue_failed_at"]),
        queue_error=state["queue_error"] or "",
        has_snapshot=state["computed_at"] is not None,
    )


def _aware(value):
    """A timestamp from a raw query as an aware datetime (SQLite returns text)."""
    if value is None:
        return None
    if isinstance(value, str):
        value = dt.datetime.fromisoformat(value)
    if timezone.is_naive(value):
        value = value.replace(tzinfo=dt.UTC)
    return value


def standings_document(*, tournament: Tournament, upto_session: int | None = None) -> dict:
    """The standings document pages and the API show: the stored snapshot (one query), or, when
    ``upto_session`` is given or no snapshot was stored yet, the standings computed now (nothing is
    stored: storing is the recompute's, queued by the writes and by the sweep)."""
    if upto_session is None:
        document = standings_document_if_any(tournament=tournament)
        if document is not None:
            return document
    return standings_view(tournament=tournament, upto_session=upto_session).to_document(
        tournament.slug, tournament.ruleset
    )


def standings_document_shown(*, tournament: Tournament, user=None) -> dict | None:
    """The standings ``user`` may see (None: the public, a projector): while the last sessions are hidden
    for the prize-giving, the standings as after the last session the public sees (directors and
    referees see them all); the stored document otherwise."""
    last = visible_through(tournament=tournament, user=user)
    if last is None:
        return standings_document(tournament=tournament)
    return standings_document(tournament=tournament, upto_session=last)


@dataclass(frozen=True)
class StandingLine:
    rank: int
    player: str
    name: str
    table_points: Any
    score: Any
    penalties: Any
    sessions: int
    disqualified: bool
    withdrawn_from: int | None
    country: str
    apart: bool = False  # withdrawn: listed apart, below the ranking, not ranked
    substitute: bool = False  # a substitute ranked because his results count (ERGMT §3.9)


def standings_lines(*, tournament: Tournament, document: dict | None) -> list[StandingLine]:
    """The rows of the standings page: the document's ranking, then its withdrawn players (listed apart,
    with no rank), with the players' country and withdrawal."""
    if not document:
        return []
    extra = {
        key: (withdrawn, country)
        for key, withdrawn, country in Registration.objects.filter(tournament=tournament).values_list(
            "key", "withdrawn_from", "player__country"
        )
    }
    lines = []
    apart = [(row, True) for row in document.get("withdrawn", [])]
    for row, is_apart in [(row, False) for row in document.get("standings", [])] + apart:
        withdrawn, country = extra.get(row.get("player"), (None, ""))
        lines.append(
            StandingLine(
                rank=None if is_apart else row.get("rank"),
                player=row.get("player", ""),
                name=row.get("name", ""),
                table_points=row.get("table_points"),
                score=row.get("score"),
                penalties=row.get("penalties"),
                sessions=row.get("sessions", 0),
                disqualified=bool(row.get("disqualified")),
                withdrawn_from=row.get("withdrawn_from", withdrawn) if is_apart else withdrawn,
                country=country or "",
                apart=is_apart,
                substitute=bool(row.get("substitute")),
            )
        )
    return lines


# -- sessions, tables and a player's results ---------------------------------------------------------


def next_published_session(*, tournament: Tournament) -> Session | None:
    """Where players sit next: the first published session not finished that still has tables to play
    (a session whose tables are all confirmed is over even if not marked finished), else the last
    published session not finished. One query."""
    sessions = list(
        Session.objects.filter(tournament=tournament, seating_published=True)
        .exclude(status=Session.Status.FINISHED)
        .annotate(
            table_count=Count("tables", distinct=True),
            confirmed_count=Count("tables", filter=Q(tables__result__status="confirmed"), distinct=True),
        )
        .order_by("number")
    )
    for session in sessions:
        if session.confirmed_count < session.table_count:
            return session
    return sessions[-1] if sessions else None


@dataclass(frozen=True)
class SeatFound:
    key: str
    name: str
    table: int | None
    wind: str
    replaced_by: str = ""  # seated, but a substitute plays the seat: no table to go to
    substitute_for: str = ""  # a substitute playing the seat of this player


def seat_search(*, tournament: Tournament, query: str, session: Session | None, limit: int = 10):
    """Players whose name contains ``query`` and their table and wind in ``session``: two queries."""
    condition = name_query(query, field="player__search_name")
    if condition is None or len(query.strip()) < 2:
        return []
    registrations = (
        Registration.objects.filter(tournament=tournament).select_related("player").filter(condition)
    )
    registrations = sorted(registrations, key=lambda r: (person_key(r.player), r.pk))[:limit]
    seat_of = {}
    instead: dict[int, Registration] = {}  # replaced registration id -> the substitute playing the seat
    if session is not None and registrations:
        instead = {r: sub for (_s, r), sub in replacements(sessions=[session]).items()}
        plays_for = {sub.pk: replaced for replaced, sub in instead.items()}
        wanted = {r.pk for r in registrations} | {plays_for[r.pk] for r in registrations if r.pk in plays_for}
        seats = Seat.objects.filter(session=session, registration_id__in=wanted).select_related(
            "table", "registration__player"
        )
        by_registration = {seat.registration_id: seat for seat in seats}
        for r in registrations:
            if r.pk in by_registration:
                seat_of[r.pk] = by_registration[r.pk]
            elif r.pk in plays_for and plays_for[r.pk] in by_registration:
                seat_of[r.pk] = by_registration[plays_for[r.pk]]  # the seat he plays instead
    found = []
    for r in registrations:
        seat = seat_of.get(r.pk)
        sub = instead.get(r.pk) if seat is not None and seat.registration_id == r.pk else None
        found.append(
            SeatFound(
                key=r.key,
                name=r.player.full_name,
                table=seat.table.number if seat and sub is None else None,
                wind=WIND_LETTERS[seat.position] if seat and sub is None else "",
                replaced_by=sub.player.full_name if sub else "",
                substitute_for=seat.registration.player.full_name
                if seat is not None and seat.registration_id != r.pk
                else "",
            )
        )
    return found


@dataclass
class PlayerSession:
    number: int
    status: str  # table status, see TABLE_STATUSES
    table: int | None
    wind: str
    opponents: list[SeatLine] = field(default_factory=list)
    mine: SeatLine | None = None
    penalties: list[PenaltyLine] = field(default_factory=list)
    replaced_by: str = ""  # this player was replaced by a substitute in this session
    substitute_for: str = ""  # this player sat in for someone


def player_penalty_lines(*, registration: Registration) -> list[PenaltyLine]:
    """A player's penalties that stand (cancelled ones left out), as the pages show them."""
    penalties = [p for p in player_penalties(registration=registration) if p.cancelled_at is None]
    return penalty_lines(penalties=penalties, rules=registration.tournament.get_rules())


def player_sessions(*, registration: Registration) -> list[PlayerSession]:
    """A player's sessions: table, wind, opponents, and the results of confirmed tables. Five queries.

    Seats of sessions whose seating is not published yet are left out. A player replaced by a substitute
    sees the substitute's result at their table; a substitute sees the sessions they sat in.
    """
    own_seats = list(
        Seat.objects.filter(registration=registration)
        .filter(Q(session__seating_published=True) | Q(session__status=Session.Status.FINISHED))
        .select_related("session", "table__result")
    )
    credited = list(
        SeatSummary.objects.filter(registration=registration).select_related("session", "table__result")
    )
    tables = {s.table_id: (s.table, s.session) for s in own_seats}
    tables.update({s.table_id: (s.table, s.session) for s in credited})
    seats_at = defaultdict(dict)
    for seat in Seat.objects.filter(table_id__in=tables).select_related("registration__player"):
        seats_at[seat.table_id][seat.position] = seat.registration
    summaries_at = defaultdict(list)
    for s in SeatSummary.objects.filter(table_id__in=tables).select_related("registration__player"):
        summaries_at[s.table_id].append(s)
    penalties = player_penalty_lines(registration=registration)
    fixed = registration.tournament.get_rules().replacement_result()

    by_session: dict[int, PlayerSession] = {}
    for table_id, (table, session) in tables.items():
        status = table_status(table, session)
        my_position = next(
            (s.position for s in summaries_at[table_id] if s.registration_id == registration.pk), None
        )
        if my_position is None:
            my_position = next(
                (pos for pos, reg in seats_at[table_id].items() if reg.pk == registration.pk), None
            )
        entry = PlayerSession(
            number=session.number, status=status, table=table.number, wind=WIND_LETTERS[my_position]
        )
        if status == "confirmed" and summaries_at[table_id]:
            lines = {
                s.position: summary_seat_line(s, seats_at[table_id].get(s.position))
                for s in summaries_at[table_id]
            }
            mine = next((s for s in summaries_at[table_id] if s.registration_id == registration.pk), None)
            if mine is None:  # replaced: the seat is credited to the substitute
                entry.replaced_by = lines[my_position].name
                if fixed is not None:  # the result the rules give the replaced player (riichi 2025 §7.3)
                    entry.mine = SeatLine(
                        position=my_position,
                        key=registration.key,
                        name=registration.player.full_name,
                        game_score=fixed.game_score,
                        uma=fixed.uma,
                        final=fixed.final,
                    )
            else:
                entry.mine = lines[my_position]
                entry.substitute_for = entry.mine.substitute_for
            entry.opponents = [line for pos, line in sorted(lines.items()) if pos != my_position]
        else:
            entry.opponents = [
                SeatLine(position=pos, key=reg.key, name=reg.player.full_name)
                for pos, reg in sorted(seats_at[table_id].items())
                if pos != my_position
            ]
        if session.number in by_session and (entry.mine is None or entry.replaced_by):
            continue  # a substitute's seat counts over the seat this player was replaced in
        by_session[session.number] = entry
    for penalty in penalties:
        if penalty.session is not None and penalty.session in by_session:
            by_session[penalty.session].penalties.append(penalty)
    return [by_session[n] for n in sorted(by_session)]


def player_standing(*, document: dict | None, key: str) -> dict | None:
    """The player's row: in the ranking, or among the withdrawn players listed apart (rank null)."""
    document = document or {}
    for row in [*document.get("standings", []), *document.get("withdrawn", [])]:
        if row.get("player") == key:
            return row
    return None


# -- the director's dashboard -------------------------------------------------------------------------


def current_session(*, tournament: Tournament) -> Session | None:
    """The session being played, else the next one, else the last one."""
    sessions = list(Session.objects.filter(tournament=tournament).order_by("number"))
    for status in (Session.Status.PLAYING,):
        playing = [s for s in sessions if s.status == status]
        if playing:
            return playing[0]
    upcoming = [s for s in sessions if s.status != Session.Status.FINISHED]
    if upcoming:
        return upcoming[0]
    return sessions[-1] if sessions else None


def standings_document_if_any(*, tournament: Tournament) -> dict | None:
    """The stored standings document, or None when none was computed yet (one query, no computing)."""
    return StandingsState.objects.filter(tournament=tournament).values_list("document", flat=True).first()


@dataclass(frozen=True)
class TeamLine:
    rank: int
    name: str
    table_points: Any
    score: Any
    members: list[str]  # names, in the team's order


def team_lines(*, document: dict | None) -> list[TeamLine]:
    """The team standings of a standings document, members named from its rows."""
    if not document or not document.get("teams"):
        return []
    names = {
        row["player"]: row["name"] for row in [*document.get("standings", []), *document.get("withdrawn", [])]
    }
    return [
        TeamLine(
            rank=t["rank"],
            name=t["name"],
            table_points=t["table_points"],
            score=t["score"],
            members=[names.get(k, k) for k in t["members"]],
        )
        for t in document["teams"]
    ]
