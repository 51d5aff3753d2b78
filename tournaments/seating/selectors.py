"""Reads of the seating workflow: the director's settings, each session's state and seating as the pages
show them, and the quality report with its details. Writes are in ``tournaments.seating.services``."""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Callable, Collection, Iterable, Sequence
from dataclasses import dataclass, field
from itertools import combinations
from typing import Any

from django.db.models import Count
from django.utils.translation import gettext as _

from penalties.models import Penalty
from penalties.selectors import replacements
from rankings.standings.selectors import standings_view
from scoring.models import TableResult
from tournaments.models import Registration, Seat, Session, Table, Tournament
from tournaments.names import fold
from tournaments.presenters import SeatLine, TableView, name_order, sort_name
from tournaments.seating.engine import (
    Player,
    QualityReport,
    SeatingSettings,
    quality_report,
)

PLAN_TIME_LIMIT = 15.0  # seconds: a safety net for one planning call made from a page or the API
IMPORT_MAX_CHARS = 200_000

SCHEDULE, SWISS, RANDOM = "schedule", "swiss", "random"
STRATEGIES = (SCHEDULE, SWISS, RANDOM)

EMPTY, DRAFT, PUBLISHED, PLAYED = "empty", "draft", "published", "played"

NAMES_AUTO, NAMES_KEYS, NAMES_NUMBERS = "auto", "keys", "numbers"

Tables = list[list[str]]  # one session: tables in number order, each the keys of E, S, W, N


# -- the director's settings --------------------------------------------------------------------------


@dataclass(frozen=True)
class SeatingConfig:
    """The director's seating settings (``Tournament.settings["seating"]``).

    ``problems`` lists what could not be read in hand-edited settings; planning refuses until they are
    fixed, the pages show them.
    """

    seed: int = 0
    avoid_same_club: bool = True
    avoid_same_country: bool = True
    club_sessions: int | None = None
    country_sessions: int | None = None
    fixed_tables: dict[str, int] = field(default_factory=dict)
    separate: tuple[tuple[str, ...], ...] = ()
    problems: tuple[str, ...] = ()
    teams: tuple[tuple[str, ...], ...] = ()
    """The tournament's teams (registration keys): teammates never share a table. Not part of the
    stored settings: teams are their own records."""

    @property
    def keep_apart(self) -> tuple[tuple[str, ...], ...]:
        """Every group whose members must not share a table: the director's groups and the teams."""
        return self.separate + self.teams

    def to_json(self) -> dict[str, Any]:
        return {
            "seed": self.seed,
            "avoid_same_club": self.avoid_same_club,
            "avoid_same_country": self.avoid_same_country,
            "club_sessions": self.club_sessions,
            "country_sessions": self.country_sessions,
            "fixed_tables": dict(self.fixed_tables),
            "separate": [list(group) for group in self.separate],
        }

    def engine_settings(self, *, seed: int | None = None) -> SeatingSettings:
        return SeatingSettings(
            seed=self.seed if seed is None else seed,
            avoid_same_club=self.avoid_same_club,
            avoid_same_country=self.avoid_same_country,
            club_sessions=self.club_sessions,
            country_sessions=self.country_sessions,
            time_limit=PLAN_TIME_LIMIT,
        )


def _whole(value: Any) -> int | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, str) and value.strip().lstrip("-").isdigit():
        return int(value.strip())
    return None


def seating_config(*, tournament: Tournament) -> SeatingConfig:
    """The tournament's seating settings, with defaults for what is absent."""
    teams = team_groups(tournament=tournament)
    raw = (tournament.settings or {}).get("seating")
    if raw is None:
        return SeatingConfig(teams=teams)
    if not isinstance(raw, dict):
        return SeatingConfig(problems=(_("The seating settings are not a JSON object."),), teams=teams)
    problems: list[str] = []
    values: dict[str, Any] = {}
    if "seed" in raw:
        seed = _whole(raw["seed"])
        if seed is None:
            problems.append(_("The seed must be a whole number."))
        else:
            values["seed"] = seed
    for name in ("avoid_same_club", "avoid_same_country"):
        if name in raw and raw[name] is not None:
            values[name] = bool(raw[name])
    for name in ("club_sessions", "country_sessions"):
        if raw.get(name) is not None:
            number = _whole(raw[name])
            if number is None or number < 0:
                problems.append(_("%(name)s must be empty or a whole number from 0.") % {"name": name})
            else:
                values[name] = number
    fixed = raw.get("fixed_tables") or {}
    if isinstance(fixed, dict):
        tables = {}
        for key, number in fixed.items():
            table = _whole(number)
            if table is None or table < 1:
                problems.append(_("The fixed table of %(key)s must be a table number from 1.") % {"key": key})
            else:
                tables[str(key)] = table
        values["fixed_tables"] = tables
    else:
        problems.append(_("The fixed tables must map player keys to table numbers."))
    groups = raw.get("separate") or []
    if isinstance(groups, list) and all(isinstance(g, list) for g in groups):
        values["separate"] = tuple(tuple(str(k) for k in g) for g in groups if len(g) > 1)
    else:
        problems.append(_("The players to keep apart must be a list of groups of player keys."))
    return SeatingConfig(**values, problems=tuple(problems), teams=teams)


def team_groups(*, tournament: Tournament) -> tuple[tuple[str, ...], ...]:
    """The registration keys of each team of two or more members, in team order."""
    members: dict[int, list[str]] = {}
    rows = (
        Registration.objects.filter(tournament=tournament, team__isnull=False)
        .order_by("team__name", "id")
        .values_list("team_id", "key")
    )
    for team_id, key in rows:
        members.setdefault(team_id, []).append(key)
    return tuple(tuple(keys) for keys in members.values() if len(keys) > 1)


def config_faults(config: SeatingConfig, keys: Iterable[str]) -> list[str]:
    """What in the settings names no registered player (besides the unreadable parts)."""
    known = set(keys)
    faults = list(config.problems)
    for key in config.fixed_tables:
        if key not in known:
            faults.append(_("A fixed table is set for %(key)s, who is not registered.") % {"key": key})
    for group in config.keep_apart:
        for key in group:
            if key not in known:
                faults.append(
                    _("The players to keep apart name %(key)s, who is not registered.") % {"key": key}
                )
    return faults


@dataclass(frozen=True)
class SessionFacts:
    tables: int = 0
    results: int = 0
    penalties: int = 0


def session_facts(session_ids: Sequence[int]) -> dict[int, SessionFacts]:
    """Tables, tables with a result and penalties at tables, per session: three queries."""
    tables = dict(
        Table.objects.filter(session_id__in=session_ids)
        .values("session_id")
        .annotate(n=Count("id"))
        .values_list("session_id", "n")
    )
    results = dict(
        TableResult.objects.filter(table__session_id__in=session_ids)
        .values("table__session_id")
        .annotate(n=Count("id"))
        .values_list("table__session_id", "n")
    )
    penalties = dict(
        Penalty.objects.filter(table__session_id__in=session_ids)
        .values("table__session_id")
        .annotate(n=Count("id"))
        .values_list("table__session_id", "n")
    )
    return {
        pk: SessionFacts(tables.get(pk, 0), results.get(pk, 0), penalties.get(pk, 0)) for pk in session_ids
    }


def session_state(session: Session, facts: SessionFacts) -> str:
    if facts.results or session.status == Session.Status.FINISHED:
        return PLAYED
    if not facts.tables:
        return EMPTY
    return PUBLISHED if session.seating_published else DRAFT


def reseat_refusal(session: Session, facts: SessionFacts) -> str | None:
    """Why the seating of ``session`` cannot change now, or None."""
    n = session.number
    if facts.results:
        return _("Session %(n)s has results: its seating can no longer change.") % {"n": n}
    if session.status == Session.Status.FINISHED:
        return _("Session %(n)s is finished: its seating can no longer change.") % {"n": n}
    if facts.penalties:
        return _("Session %(n)s has penalties recorded at its tables: its seating can no longer change.") % {
            "n": n
        }
    if session.seating_published:
        if session.status == Session.Status.PLAYING:
            return _("Session %(n)s is published and being played: its seating can no longer change.") % {
                "n": n
            }
        return _(
            "Session %(n)s is published: unpublish it first (possible while it has no results), "
            "then seat it again."
        ) % {"n": n}
    return None


def unpublish_refusal(session: Session, facts: SessionFacts) -> str | None:
    n = session.number
    if facts.results:
        return _("Session %(n)s has results: it stays published.") % {"n": n}
    if session.status not in (Session.Status.PLANNED, Session.Status.SEATED):
        return _("Session %(n)s is being played: it stays published.") % {"n": n}
    return None


def tournament_registrations(tournament: Tournament) -> list[Registration]:
    return list(Registration.objects.filter(tournament=tournament).select_related("player").order_by("id"))


def stored_seatings(tournament: Tournament) -> dict[int, Tables]:
    """Every seated session's tables (keys by wind), by session number: one query."""
    rows = (
        Seat.objects.filter(session__tournament=tournament)
        .order_by("session__number", "table__number", "position")
        .values_list("session__number", "table__number", "position", "registration__key")
    )
    tables: dict[int, dict[int, list[str | None]]] = defaultdict(dict)
    for session, table, position, key in rows:
        tables[session].setdefault(table, [None] * 4)[position] = key
    return {
        number: [[k for k in seats if k is not None] for _, seats in sorted(by_table.items())]
        for number, by_table in sorted(tables.items())
    }


def _active(registration: Registration, number: int | None, absent: Collection[str] = ()) -> bool:
    if number is None:
        return registration.withdrawn_from is None
    return registration.is_active_in(number) and registration.key not in absent


def engine_players(
    registrations: Sequence[Registration],
    config: SeatingConfig,
    *,
    number: int | None,
    ranks: dict[str, int] | None = None,
    ident: Callable[[str], Any] = str,
    absent: Collection[str] = (),
) -> list[Player]:
    """The engine's players; ``number`` is the session whose withdrawals count (None: withdrawn ever),
    ``absent`` the players absent from it only (checked in as absent: a substitute plays)."""
    return [
        Player(
            id=ident(r.key),
            country=r.player.country,
            club=r.player.club,
            rank=(ranks or {}).get(r.key),
            fixed_table=config.fixed_tables.get(r.key),
            substitute=r.is_substitute,
            active=_active(r, number, absent),
        )
        for r in registrations
    ]


def standings_ranks(tournament: Tournament) -> dict[str, int]:

    return {row.player: row.rank for row in standings_view(tournament=tournament).rows}


def registration_name(registration: Registration) -> str:
    return f"{registration.player.full_name} ({registration.key})"


def history_except(seatings: dict[int, Tables], exclude: Iterable[int]) -> dict[int, Tables]:
    skip = set(exclude)
    return {n: t for n, t in seatings.items() if n not in skip}


def ordered_history(history: dict[int, Tables]) -> list[Tables]:
    return [history[n] for n in sorted(history)]


def quality_of(
    registrations: Sequence[Registration], config: SeatingConfig, seatings: dict[int, Tables]
) -> QualityReport:
    players = engine_players(registrations, config, number=None)
    return quality_report(players, ordered_history(seatings), config.keep_apart, config.teams)


def seating_quality(*, tournament: Tournament) -> QualityReport:
    """The quality report over every seated session (played, published and drafts), in session order."""
    return quality_of(
        tournament_registrations(tournament),
        seating_config(tournament=tournament),
        stored_seatings(tournament),
    )


def table_pairs(tables: Tables) -> set[frozenset[str]]:
    return {frozenset(p) for table in tables for p in combinations(table, 2)}


def meeting_sessions(seatings: dict[int, Tables], a: str, b: str) -> list[int]:
    return [n for n, tables in sorted(seatings.items()) if any(a in t and b in t for t in tables)]


def player_winds(seatings: dict[int, Tables], key: str) -> list[int]:
    counts = [0, 0, 0, 0]
    for tables in seatings.values():
        for table in tables:
            if key in table:
                counts[table.index(key)] += 1
    return counts


def seating_problems(
    number: int, tables: Tables, registrations: Sequence[Registration], absent: Collection[str] = ()
) -> list[str]:
    """Players seated although they withdrew or are absent from the session, and players due to play who
    have no seat."""
    seated = {k: i for i, table in enumerate(tables, start=1) for k in table}
    faults = []
    for r in registrations:
        if r.key in seated and not r.is_active_in(number):
            faults.append(
                _("%(name)s withdrew before session %(n)s but is seated at table %(t)s.")
                % {"name": registration_name(r), "n": number, "t": seated[r.key]}
            )
        elif r.key in seated and r.key in absent:
            faults.append(
                _("%(name)s is absent from session %(n)s (a substitute plays) but is seated at table %(t)s.")
                % {"name": registration_name(r), "n": number, "t": seated[r.key]}
            )
        elif r.key not in seated and not r.is_substitute and r.is_active_in(number) and r.key not in absent:
            faults.append(
                _("%(name)s has no seat in session %(n)s.") % {"name": registration_name(r), "n": number}
            )
    return faults


@dataclass
class SessionView:
    session: Session
    state: str
    tables: list[TableView]
    refusal: str | None  # why the seating cannot change now
    unpublish_refusal: str | None
    problems: list[str]  # what publishing would refuse

    @property
    def number(self) -> int:
        return self.session.number

    @property
    def editable(self) -> bool:
        return self.refusal is None

    @property
    def seats_by_name(self) -> list[SeatLine]:
        return sorted((s for t in self.tables for s in t.seats), key=lambda s: (s.sort_key, s.key))


def seating_sessions(*, tournament: Tournament, numbers: Iterable[int] | None = None) -> list[SessionView]:
    """Every session (or those numbered ``numbers``) with its state and its tables, names by wind."""
    sessions = Session.objects.filter(tournament=tournament).order_by("number")
    if numbers is not None:
        sessions = sessions.filter(number__in=list(numbers))
    sessions = list(sessions)
    facts = session_facts([s.pk for s in sessions])
    registrations = tournament_registrations(tournament)
    tables: dict[int, list[Table]] = defaultdict(list)
    for table in Table.objects.filter(session__in=sessions).order_by("number"):
        tables[table.session_id].append(table)
    with_result = set(
        TableResult.objects.filter(table__session__in=sessions).values_list("table_id", flat=True)
    )
    seats: dict[int, list[Seat]] = defaultdict(list)
    for seat in (
        Seat.objects.filter(session__in=sessions).select_related("registration__player").order_by("position")
    ):
        seats[seat.table_id].append(seat)

    instead = replacements(sessions=sessions)
    out = []
    for session in sessions:
        f = facts[session.pk]
        views = [
            TableView(
                number=t.number,
                pk=t.pk,
                private_key=t.private_key,
                has_result=t.pk in with_result,
                seats=[
                    SeatLine(
                        position=s.position,
                        key=s.registration.key,
                        name=s.registration.player.full_name,
                        country=s.registration.player.country,
                        club=s.registration.player.club,
                        substitute=s.registration.is_substitute,
                        withdrawn=not s.registration.is_active_in(session.number),
                        replaced_by=instead[(session.pk, s.registration_id)].player.full_name
                        if (session.pk, s.registration_id) in instead
                        else "",
                        sort_name=sort_name(s.registration),
                        sort_key=name_order(s.registration),
                    )
                    for s in seats[t.pk]
                ],
            )
            for t in tables[session.pk]
        ]
        keys = [[s.key for s in t.seats] for t in views]
        state = session_state(session, f)
        out.append(
            SessionView(
                session=session,
                state=state,
                tables=views,
                refusal=reseat_refusal(session, f),
                unpublish_refusal=unpublish_refusal(session, f) if session.seating_published else None,
                problems=seating_problems(session.number, keys, registrations, session.absent or ())
                if views
                else [],
            )
        )
    return out


@dataclass(frozen=True)
class PairLine:
    a: str
    b: str
    meetings: int
    sessions: tuple[int, ...]


@dataclass(frozen=True)
class SessionPairs:
    number: int
    count: int
    pairs: tuple[tuple[str, str, str], ...]  # name, name, the country or club they share


@dataclass(frozen=True)
class WindLine:
    name: str
    key: str
    counts: tuple[int, int, int, int]
    spread: int


@dataclass(frozen=True)
class VisitLine:
    name: str
    table: int
    sessions: tuple[int, ...]


@dataclass(frozen=True)
class FixedLine:
    name: str
    fixed: int
    table: int
    session: int


@dataclass
class QualityDetails:
    """The quality report with the players named, for the seating page."""

    report: QualityReport
    sessions: list[int]
    repeated_pairs: list[PairLine]
    separated: list[PairLine]
    country_by_session: list[SessionPairs]
    club_by_session: list[SessionPairs]
    winds: list[WindLine]
    worst_winds: list[WindLine]
    spreads: list[tuple[int, int]]  # (spread, players with it)
    table_visits: list[VisitLine]
    fixed_violations: list[FixedLine]
    problems: list[str]
    keeps_apart: bool = False

    @property
    def per_session(self) -> list[tuple[SessionPairs, SessionPairs]]:
        """(same country, same club) of each seated session."""
        return list(zip(self.country_by_session, self.club_by_session, strict=True))


def seating_quality_details(*, tournament: Tournament) -> QualityDetails:
    """:func:`seating_quality` with the players behind each number named."""
    registrations = tournament_registrations(tournament)
    config = seating_config(tournament=tournament)
    seatings = stored_seatings(tournament)
    report = quality_of(registrations, config, seatings)
    by_key = {r.key: r for r in registrations}

    def name(key: str) -> str:
        r = by_key.get(key)
        return r.player.full_name if r else key

    numbers = sorted(seatings)
    met: dict[frozenset[str], list[int]] = defaultdict(list)
    for n in numbers:
        for table in seatings[n]:
            for a, b in combinations(table, 2):
                met[frozenset((a, b))].append(n)
    repeated = [
        PairLine(name(a), name(b), m, tuple(met[frozenset((a, b))])) for a, b, m in report.repeated_pairs
    ]
    separated = []
    for group in config.keep_apart:
        for a, b in combinations(group, 2):
            if met.get(frozenset((a, b))):
                sessions = tuple(met[frozenset((a, b))])
                separated.append(PairLine(name(a), name(b), len(sessions), sessions))

    def shared(n: int, attribute: str) -> SessionPairs:
        pairs = []
        for table in seatings[n]:
            for a, b in combinations(table, 2):
                ra, rb = by_key.get(a), by_key.get(b)
                if ra and rb:
                    value = getattr(ra.player, attribute)
                    if value and value == getattr(rb.player, attribute):
                        pairs.append((name(a), name(b), value))
        return SessionPairs(n, len(pairs), tuple(pairs))

    winds = [
        WindLine(name(k), k, tuple(c), report.wind_spread[k])  # type: ignore[arg-type]
        for k, c in report.winds.items()
    ]
    winds.sort(key=lambda w: (-w.spread, w.name.lower()))
    worst = [w for w in winds if report.max_wind_spread > 1 and w.spread == report.max_wind_spread]
    spreads = sorted(Counter(w.spread for w in winds).items())

    visits: dict[tuple[str, int], list[int]] = defaultdict(list)
    fixed_lines = []
    for n in numbers:
        for t, table in enumerate(seatings[n], start=1):
            for k in table:
                fixed = config.fixed_tables.get(k)
                if fixed is None:
                    visits[(k, t)].append(n)
                elif fixed != t:
                    fixed_lines.append(FixedLine(name(k), fixed, t, n))
    visit_lines = sorted(
        (VisitLine(name(k), t, tuple(ns)) for (k, t), ns in visits.items() if len(ns) > 1),
        key=lambda v: (fold(v.name), v.name, v.table),
    )
    return QualityDetails(
        report=report,
        sessions=numbers,
        repeated_pairs=repeated,
        separated=separated,
        country_by_session=[shared(n, "country") for n in numbers],
        club_by_session=[shared(n, "club") for n in numbers],
        winds=winds,
        worst_winds=worst,
        spreads=spreads,
        table_visits=visit_lines,
        fixed_violations=fixed_lines,
        problems=config_faults(config, by_key),
        keeps_apart=bool(config.keep_apart),
    )


def seatable_sessions(*, tournament: Tournament) -> list[SessionView]:
    """The sessions a director may seat now: empty or draft, without results."""
    return [s for s in seating_sessions(tournament=tournament) if s.editable and s.state in (EMPTY, DRAFT)]
