"""Seating of a tournament's sessions: the bridge between the database and the seating engine.

The engine (:mod:`tournaments.seating`) is pure; the functions here read registrations, the director's
seating settings and the Seat rows, call it, and write its plans as Seat rows (through
:func:`tournaments.services.session_seat`).

* The engine names players by their registration key (``p1``, ``s1``, …).
* A session is *played* when any of its tables has a result or it is finished; *published* when its
  seating is published; a *draft* when it is seated but not published; *empty* when it has no tables.
  Only empty and draft sessions are (re)seated. A published session without results may be unpublished
  by a director (unless it is being played) and seated again.
* Planning counts every other seated session (played, published or draft) as history, in session order,
  so a new session avoids the meetings of the sessions before it and of drafts already made.
* The director's settings live in ``Tournament.settings["seating"]``::

      {"seed": 2026, "avoid_same_club": true, "avoid_same_country": true,
       "club_sessions": null, "country_sessions": null,
       "fixed_tables": {"p7": 1}, "separate": [["p1", "p2"]]}

  ``club_sessions`` / ``country_sessions``: keep club mates / compatriots apart only in the first K sessions
  (null: in every session). ``fixed_tables``: a player who must always sit at one table number.
  ``separate``: groups of players of whom no two may share a table.
* A predefined schedule (:func:`seating_import`) names players either by registration key (``p1``,
  ``s1``) or by their number in the player list (1..N: registrations in the order they were made,
  substitutes and withdrawn players included, as listed on the seating settings page). By default the text
  says which: keys when they outnumber plain numbers in it.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from itertools import combinations
from typing import Any

from django.db import transaction
from django.db.models import Count
from django.utils.translation import gettext as _

from penalties.models import Penalty
from scoring.models import TableResult
from tournaments import services
from tournaments.models import WIND_LETTERS, Registration, Seat, Session, Table, Tournament, Wind
from tournaments.seating import (
    Player,
    QualityReport,
    SeatingError,
    SeatingSettings,
    plan_predefined,
    plan_random_session,
    plan_schedule,
    plan_swiss_session,
    quality_report,
    replan_after_withdrawal,
    swap_players,
)
from tournaments.seating import Tournament as SeatingTournament

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
    raw = (tournament.settings or {}).get("seating")
    if raw is None:
        return SeatingConfig()
    if not isinstance(raw, dict):
        return SeatingConfig(problems=(_("The seating settings are not a JSON object."),))
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
    return SeatingConfig(**values, problems=tuple(problems))


def _config_faults(config: SeatingConfig, keys: Iterable[str]) -> list[str]:
    """What in the settings names no registered player (besides the unreadable parts)."""
    known = set(keys)
    faults = list(config.problems)
    for key in config.fixed_tables:
        if key not in known:
            faults.append(_("A fixed table is set for %(key)s, who is not registered.") % {"key": key})
    for group in config.separate:
        for key in group:
            if key not in known:
                faults.append(
                    _("The players to keep apart name %(key)s, who is not registered.") % {"key": key}
                )
    return faults


def seating_config_update(*, tournament: Tournament, config: SeatingConfig) -> SeatingConfig:
    """Store the seating settings (other settings of the tournament are left as they are)."""
    keys = Registration.objects.filter(tournament=tournament).values_list("key", flat=True)
    faults = _config_faults(replace(config, problems=()), keys)
    if faults:
        raise SeatingError(faults)
    with transaction.atomic():
        locked = Tournament.objects.select_for_update().get(pk=tournament.pk)
        stored = dict(locked.settings or {})
        stored["seating"] = replace(config, problems=()).to_json()
        locked.settings = stored
        locked.save(update_fields=["settings"])
    tournament.settings = stored
    return seating_config(tournament=tournament)


# -- reading the database -------------------------------------------------------------------------------


@dataclass(frozen=True)
class SessionFacts:
    tables: int = 0
    results: int = 0
    penalties: int = 0


def _facts(session_ids: Sequence[int]) -> dict[int, SessionFacts]:
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


def _refusal(session: Session, facts: SessionFacts) -> str | None:
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


def _unpublish_refusal(session: Session, facts: SessionFacts) -> str | None:
    n = session.number
    if facts.results:
        return _("Session %(n)s has results: it stays published.") % {"n": n}
    if session.status not in (Session.Status.PLANNED, Session.Status.SEATED):
        return _("Session %(n)s is being played: it stays published.") % {"n": n}
    return None


def _registrations(tournament: Tournament) -> list[Registration]:
    return list(Registration.objects.filter(tournament=tournament).select_related("player").order_by("id"))


def _seatings(tournament: Tournament) -> dict[int, Tables]:
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


def _active(registration: Registration, number: int | None) -> bool:
    if number is None:
        return registration.withdrawn_from is None
    return registration.is_active_in(number)


def _players(
    registrations: Sequence[Registration],
    config: SeatingConfig,
    *,
    number: int | None,
    ranks: dict[str, int] | None = None,
    ident: Callable[[str], Any] = str,
) -> list[Player]:
    """The engine's players; ``number`` is the session whose withdrawals count (None: withdrawn ever)."""
    return [
        Player(
            id=ident(r.key),
            country=r.player.country,
            club=r.player.club,
            rank=(ranks or {}).get(r.key),
            fixed_table=config.fixed_tables.get(r.key),
            substitute=r.is_substitute,
            active=_active(r, number),
        )
        for r in registrations
    ]


def _ranks(tournament: Tournament) -> dict[str, int]:
    from rankings.selectors import standings_compute

    return {row.player: row.rank for row in standings_compute(tournament=tournament).rows}


def _lock_sessions(tournament: Tournament, sessions: Iterable[Session]) -> list[Session]:
    ids = {s.pk for s in sessions}
    locked = list(
        Session.objects.select_for_update().filter(tournament=tournament, pk__in=ids).order_by("number")
    )
    if len(locked) != len(ids):
        raise SeatingError(_("Choose sessions of this tournament."))
    return locked


def _check_reseatable(sessions: Sequence[Session]) -> dict[int, SessionFacts]:
    facts = _facts([s.pk for s in sessions])
    faults = [r for s in sessions if (r := _refusal(s, facts[s.pk]))]
    if faults:
        raise SeatingError(faults)
    return facts


def _sort_name(registration: Registration) -> str:
    player = registration.player
    return f"{player.last_name}, {player.first_name}" if player.last_name else player.first_name


def _name(registration: Registration) -> str:
    return f"{registration.player.full_name} ({registration.key})"


def _write(sessions: Sequence[Session], plans: dict[int, Tables], by_key: dict[str, Registration]) -> None:
    for session in sessions:
        tables = [[by_key[k] for k in table] for table in plans[session.number]]
        services.session_seat(session=session, tables=tables, replace=True)
        if session.seating_published:
            session.seating_published = False
            session.save(update_fields=["seating_published"])


def _history(seatings: dict[int, Tables], exclude: Iterable[int]) -> dict[int, Tables]:
    skip = set(exclude)
    return {n: t for n, t in seatings.items() if n not in skip}


def _ordered(history: dict[int, Tables]) -> list[Tables]:
    return [history[n] for n in sorted(history)]


def _chunks(sessions: Sequence[Session], registrations: Sequence[Registration]) -> list[list[Session]]:
    """Consecutive sessions with the same players (a withdrawal starts a new chunk)."""
    out: list[list[Session]] = []
    previous = None
    for session in sessions:
        active = frozenset(r.key for r in registrations if r.is_active_in(session.number))
        if out and active == previous:
            out[-1].append(session)
        else:
            out.append([session])
        previous = active
    return out


# -- outcomes ---------------------------------------------------------------------------------------------


@dataclass
class SeatingOutcome:
    """What a seating change did: the sessions written, the substitutes seated, the quality of the whole
    tournament afterwards, and (for a swap) what the change made worse, in words."""

    sessions: list[int]
    quality: QualityReport
    substitutes: list[str] = field(default_factory=list)
    broken: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


def _quality_of(
    registrations: Sequence[Registration], config: SeatingConfig, seatings: dict[int, Tables]
) -> QualityReport:
    players = _players(registrations, config, number=None)
    return quality_report(players, _ordered(seatings), config.separate)


def seating_quality(*, tournament: Tournament) -> QualityReport:
    """The quality report over every seated session (played, published and drafts), in session order."""
    return _quality_of(
        _registrations(tournament), seating_config(tournament=tournament), _seatings(tournament)
    )


def _substitutes_seated(
    registrations: Sequence[Registration], plans: dict[int, Tables], numbers: Iterable[int]
) -> list[str]:
    subs = {r.key for r in registrations if r.is_substitute}
    seated = {k for n in numbers for table in plans.get(n, []) for k in table}
    return sorted(subs & seated)


# -- generating, importing, re-planning -------------------------------------------------------------------


def seating_generate(
    *, tournament: Tournament, sessions: Sequence[Session], strategy: str, seed: int | None = None
) -> SeatingOutcome:
    """Seat ``sessions`` (empty or draft, none published or played) with the engine and write them as
    unpublished Seat rows. ``schedule`` plans them together; ``random`` one after the other; ``swiss``
    seats one session from the current standings. Refuses with a :class:`SeatingError` naming the fault
    (and writes nothing) when a session cannot be seated or the players do not fill tables of four."""
    if strategy not in STRATEGIES:
        raise SeatingError(_("Unknown seating strategy %(s)s.") % {"s": strategy})
    if not sessions:
        raise SeatingError(_("Choose at least one session to seat."))
    if strategy == SWISS and len(sessions) > 1:
        raise SeatingError(
            _("Swiss seating follows the standings after each session: seat one session at a time.")
        )
    with transaction.atomic():
        locked = _lock_sessions(tournament, sessions)
        _check_reseatable(locked)
        config = seating_config(tournament=tournament)
        registrations = _registrations(tournament)
        by_key = {r.key: r for r in registrations}
        faults = _config_faults(config, by_key)
        if faults:
            raise SeatingError(faults)
        seed = config.seed if seed is None else seed
        seatings = _seatings(tournament)
        history = _history(seatings, (s.number for s in locked))
        ranks = _ranks(tournament) if strategy == SWISS else None
        plans: dict[int, Tables] = {}
        for chunk in _chunks(locked, registrations):
            players = _players(registrations, config, number=chunk[0].number, ranks=ranks)
            if strategy == RANDOM:
                for session in chunk:
                    engine = SeatingTournament(
                        players,
                        _ordered({**history, **plans}),
                        config.separate,
                        config.engine_settings(seed=seed + session.number),
                    )
                    plans[session.number] = plan_random_session(engine).sessions[0]
                continue
            engine = SeatingTournament(
                players, _ordered({**history, **plans}), config.separate, config.engine_settings(seed=seed)
            )
            plan = plan_swiss_session(engine) if strategy == SWISS else plan_schedule(engine, len(chunk))
            for session, tables in zip(chunk, plan.sessions, strict=True):
                plans[session.number] = [[str(k) for k in t] for t in tables]
        _write(locked, plans, by_key)
    seatings = {**history, **plans}
    return SeatingOutcome(
        sessions=[s.number for s in locked],
        quality=_quality_of(registrations, config, seatings),
        substitutes=_substitutes_seated(registrations, plans, plans),
    )


def _detect_names(text: str, registrations: Sequence[Registration]) -> str:
    if all(r.key.isdigit() for r in registrations):
        return NAMES_KEYS
    keys = {r.key.lower() for r in registrations if not r.key.isdigit()}
    tokens = re.findall(r"[^\s,;|\-]+", text)
    named = sum(t.lower() in keys for t in tokens)
    numbers = sum(t.isdigit() for t in tokens)
    return NAMES_KEYS if named and named >= numbers else NAMES_NUMBERS


def seating_import(
    *, tournament: Tournament, sessions: Sequence[Session], text: str, names: str = NAMES_AUTO
) -> SeatingOutcome:
    """Seat ``sessions`` from a predefined schedule (see :func:`tournaments.seating.parse_predefined`
    for the text: one table per line ``p1-p2-p3-p4`` with sessions separated by a blank or ``Session 2``
    line, or CSV with a header). The text must hold as many sessions as are chosen; every fault is named
    at once and nothing is written unless the whole schedule is right. ``names``: ``keys``, ``numbers``
    (1..N in registration order) or ``auto``."""
    if not sessions:
        raise SeatingError(_("Choose the sessions the schedule seats."))
    if len(text) > IMPORT_MAX_CHARS:
        raise SeatingError(
            _("The schedule is too long (at most %(n)s characters).") % {"n": IMPORT_MAX_CHARS}
        )
    if names not in (NAMES_AUTO, NAMES_KEYS, NAMES_NUMBERS):
        raise SeatingError(_("Players are named by key or by number."))
    with transaction.atomic():
        locked = _lock_sessions(tournament, sessions)
        _check_reseatable(locked)
        config = seating_config(tournament=tournament)
        registrations = _registrations(tournament)
        by_key = {r.key: r for r in registrations}
        faults = _config_faults(config, by_key)
        if faults:
            raise SeatingError(faults)
        if len(_chunks(locked, registrations)) > 1:
            raise SeatingError(
                _(
                    "A player withdraws between the chosen sessions: "
                    "import the sessions before and after it separately."
                )
            )
        mode = _detect_names(text, registrations) if names == NAMES_AUTO else names
        if mode == NAMES_NUMBERS:
            number_of = {r.key: i for i, r in enumerate(registrations, start=1)}
            key_of = {i: k for k, i in number_of.items()}

            def ident(key: str) -> Any:
                return number_of.get(key, key)

            def back(pid: Any) -> str:
                return key_of[pid] if isinstance(pid, int) else str(pid)
        else:

            def ident(key: str) -> Any:
                return key

            def back(pid: Any) -> str:
                return str(pid)

        seatings = _seatings(tournament)
        history = _history(seatings, (s.number for s in locked))
        players = _players(registrations, config, number=locked[0].number, ident=ident)
        engine = SeatingTournament(
            players,
            [[[ident(k) for k in t] for t in tables] for tables in _ordered(history)],
            [[ident(k) for k in g] for g in config.separate],
            config.engine_settings(),
        )
        plan = plan_predefined(engine, text, sessions=len(locked))
        plans = {
            s.number: [[back(p) for p in t] for t in tables]
            for s, tables in zip(locked, plan.sessions, strict=True)
        }
        _write(locked, plans, by_key)
    return SeatingOutcome(
        sessions=[s.number for s in locked],
        quality=_quality_of(registrations, config, {**history, **plans}),
        substitutes=_substitutes_seated(registrations, plans, plans),
        notes=[_("Players were read by key.") if mode == NAMES_KEYS else _("Players were read by number.")],
    )


def seating_replan_after_withdrawal(*, tournament: Tournament) -> SeatingOutcome:
    """Re-plan the draft sessions that seat a player who has withdrawn (``Registration.withdrawn_from``),
    and the drafts after them. Played and published sessions stay as they are (a published session that
    seats a withdrawn player is named in the notes: unpublish it to re-plan it). Substitutes take the seats
    of withdrawn players where the engine finds that best."""
    with transaction.atomic():
        sessions = list(Session.objects.select_for_update().filter(tournament=tournament).order_by("number"))
        facts = _facts([s.pk for s in sessions])
        registrations = _registrations(tournament)
        by_key = {r.key: r for r in registrations}
        config = seating_config(tournament=tournament)
        faults = _config_faults(config, by_key)
        if faults:
            raise SeatingError(faults)
        seatings = _seatings(tournament)

        def seats_withdrawn(session: Session) -> list[str]:
            seated = {k for table in seatings.get(session.number, []) for k in table}
            return sorted(k for k in seated if not by_key[k].is_active_in(session.number))

        notes = []
        for s in sessions:
            if session_state(s, facts[s.pk]) == PUBLISHED and (gone := seats_withdrawn(s)):
                notes.append(
                    _(
                        "Session %(n)s is published and seats %(names)s, who withdrew: "
                        "unpublish it to re-plan it."
                    )
                    % {"n": s.number, "names": ", ".join(_name(by_key[k]) for k in gone)}
                )
        drafts = [
            s for s in sessions if session_state(s, facts[s.pk]) == DRAFT and not _refusal(s, facts[s.pk])
        ]
        affected = [s for s in drafts if seats_withdrawn(s)]
        if not affected:
            raise SeatingError(
                [_("No draft session seats a withdrawn player: there is nothing to re-plan."), *notes]
            )
        targets = [s for s in drafts if s.number >= affected[0].number]
        history = _history(seatings, (s.number for s in targets))
        plans: dict[int, Tables] = {}
        for chunk in _chunks(targets, registrations):
            players = _players(registrations, config, number=chunk[0].number)
            played = _ordered({**history, **plans})
            engine = SeatingTournament(players, played, config.separate, config.engine_settings())
            previous = [seatings[s.number] for s in chunk]
            plan = replan_after_withdrawal(engine, len(played) + len(chunk), previous)
            for session, tables in zip(chunk, plan.sessions, strict=True):
                plans[session.number] = [[str(k) for k in t] for t in tables]
        _write(targets, plans, by_key)
    return SeatingOutcome(
        sessions=[s.number for s in targets],
        quality=_quality_of(registrations, config, {**history, **plans}),
        substitutes=_substitutes_seated(registrations, plans, plans),
        notes=notes,
    )


# -- swapping two players -----------------------------------------------------------------------------------


def _pairs(tables: Tables) -> set[frozenset[str]]:
    return {frozenset(p) for table in tables for p in combinations(table, 2)}


def _meeting_sessions(seatings: dict[int, Tables], a: str, b: str) -> list[int]:
    return [n for n, tables in sorted(seatings.items()) if any(a in t and b in t for t in tables)]


def _winds(seatings: dict[int, Tables], key: str) -> list[int]:
    counts = [0, 0, 0, 0]
    for tables in seatings.values():
        for table in tables:
            if key in table:
                counts[table.index(key)] += 1
    return counts


def _in_window(window: int | None, number: int, numbers: Sequence[int]) -> bool:
    """Whether session ``number`` is among the first ``window`` seated sessions (None: always)."""
    return window is None or sorted(numbers).index(number) < window


def _what_broke(
    *,
    number: int,
    before: dict[int, Tables],
    after: dict[int, Tables],
    moved: Sequence[str],
    by_key: dict[str, Registration],
    config: SeatingConfig,
) -> list[str]:
    """What the swap of ``moved`` in session ``number`` made worse, in the director's words."""
    out: list[str] = []
    new_pairs = _pairs(after[number]) - _pairs(before[number])
    info = {k: by_key[k] for k in {k for p in new_pairs for k in p}}
    order = {k: i for i, k in enumerate(by_key)}
    club_on = config.avoid_same_club and _in_window(config.club_sessions, number, list(after))
    country_on = config.avoid_same_country and _in_window(config.country_sessions, number, list(after))
    for pair in sorted(new_pairs, key=lambda p: sorted(order.get(k, 0) for k in p)):
        a, b = sorted(pair, key=lambda k: order.get(k, 0))
        ra, rb = info[a], info[b]
        names = {"a": _name(ra), "b": _name(rb)}
        met = _meeting_sessions(after, a, b)
        if len(met) > 1:
            out.append(
                _("%(a)s and %(b)s meet again: %(times)s times, in sessions %(list)s.")
                % {**names, "times": len(met), "list": ", ".join(map(str, met))}
            )
        if any(a in g and b in g for g in config.separate):
            out.append(_("%(a)s and %(b)s were to be kept apart.") % names)
        if country_on and ra.player.country and ra.player.country == rb.player.country:
            out.append(
                _("%(a)s and %(b)s are both from %(country)s.") % {**names, "country": ra.player.country}
            )
        if club_on and ra.player.club and ra.player.club == rb.player.club:
            out.append(_("%(a)s and %(b)s are both members of %(club)s.") % {**names, "club": ra.player.club})
    for key in moved:
        then, now = _winds(before, key), _winds(after, key)
        if max(now) - min(now) > max(then) - min(then) and max(now) - min(now) > 1:
            counts = " ".join(f"{w}{c}" for w, c in zip(WIND_LETTERS, now, strict=True))
            out.append(
                _("%(name)s's winds become uneven: %(counts)s.")
                % {"name": _name(by_key[key]), "counts": counts}
            )
        fixed = config.fixed_tables.get(key)
        table = next(i for i, t in enumerate(after[number], start=1) if key in t)
        if fixed is None:
            visits = [
                n
                for n, tables in sorted(after.items())
                if n != number and len(tables) >= table and key in tables[table - 1]
            ]
            old = next(i for i, t in enumerate(before[number], start=1) if key in t)
            if visits and table != old:
                sessions = ", ".join(map(str, sorted([*visits, number])))
                out.append(
                    _("%(name)s sits at table %(table)s again: sessions %(list)s.")
                    % {"name": _name(by_key[key]), "table": table, "list": sessions}
                )
    return out


def seating_swap(*, session: Session, a: str, b: str) -> SeatingOutcome:
    """Exchange the seats (table and wind) of players ``a`` and ``b`` (registration keys) in an
    unpublished session; the table links stay the same. Returns the new quality report and, in
    ``broken``, what the swap made worse: new repeated meetings, players kept apart, same-country or
    same-club meetings, uneven winds, repeated table visits. A player with a fixed table stays there."""
    tournament = session.tournament
    if a == b:
        raise SeatingError(_("Choose two different players."))
    with transaction.atomic():
        (locked,) = _lock_sessions(tournament, [session])
        _check_reseatable([locked])
        seats = {
            s.registration.key: s
            for s in Seat.objects.filter(session=locked, registration__key__in=[a, b]).select_related(
                "registration__player", "table"
            )
        }
        registrations = _registrations(tournament)
        by_key = {r.key: r for r in registrations}
        missing = [k for k in (a, b) if k not in seats]
        if missing:
            raise SeatingError(
                [
                    _("%(name)s has no seat in session %(n)s.")
                    % {"name": _name(by_key[k]) if k in by_key else k, "n": locked.number}
                    for k in missing
                ]
            )
        config = seating_config(tournament=tournament)
        seatings = _seatings(tournament)
        history = _history(seatings, [locked.number])
        engine = SeatingTournament(
            _players(registrations, config, number=locked.number),
            _ordered(history),
            config.separate,
            config.engine_settings(),
        )
        try:
            plan = swap_players(engine, [seatings[locked.number]], 1, a, b)
        except SeatingError as exc:
            raise SeatingError(
                [
                    _("In session %(n)s: %(fault)s") % {"n": locked.number, "fault": fault}
                    for fault in exc.faults
                ]
            ) from exc
        sa, sb = seats[a], seats[b]
        Seat.objects.filter(pk__in=[sa.pk, sb.pk]).delete()
        Seat.objects.bulk_create(
            [
                Seat(table=sa.table, session=locked, position=sa.position, registration=sb.registration),
                Seat(table=sb.table, session=locked, position=sb.position, registration=sa.registration),
            ]
        )
        after = {**history, locked.number: [[str(k) for k in t] for t in plan.sessions[0]]}
    return SeatingOutcome(
        sessions=[locked.number],
        quality=_quality_of(registrations, config, after),
        broken=_what_broke(
            number=locked.number, before=seatings, after=after, moved=[a, b], by_key=by_key, config=config
        ),
    )


# -- publishing -------------------------------------------------------------------------------------------


def _seating_problems(number: int, tables: Tables, registrations: Sequence[Registration]) -> list[str]:
    """Players seated although they withdrew, and players due to play who have no seat."""
    seated = {k: i for i, table in enumerate(tables, start=1) for k in table}
    faults = []
    for r in registrations:
        if r.key in seated and not r.is_active_in(number):
            faults.append(
                _("%(name)s withdrew before session %(n)s but is seated at table %(t)s.")
                % {"name": _name(r), "n": number, "t": seated[r.key]}
            )
        elif r.key not in seated and not r.is_substitute and r.is_active_in(number):
            faults.append(_("%(name)s has no seat in session %(n)s.") % {"name": _name(r), "n": number})
    return faults


def seating_publish(*, session: Session) -> Session:
    """Show the seating of ``session`` to the players. Refuses an empty session and a seating that seats a
    withdrawn player or leaves out a player due to play."""
    with transaction.atomic():
        (locked,) = _lock_sessions(session.tournament, [session])
        if locked.seating_published:
            return locked
        facts = _facts([locked.pk])[locked.pk]
        if not facts.tables:
            raise SeatingError(_("Session %(n)s has no seating to publish.") % {"n": locked.number})
        tables = _seatings(locked.tournament).get(locked.number, [])
        faults = _seating_problems(locked.number, tables, _registrations(locked.tournament))
        if faults:
            raise SeatingError(faults)
        locked.seating_published = True
        if locked.status == Session.Status.PLANNED:
            locked.status = Session.Status.SEATED  # published: the session's first step
        locked.save(update_fields=["seating_published", "status"])
    session.seating_published = True
    session.status = locked.status
    return locked


def seating_unpublish(*, session: Session) -> Session:
    """Hide the seating of ``session`` again so it can be changed: only while it has no results and is not
    being played."""
    with transaction.atomic():
        (locked,) = _lock_sessions(session.tournament, [session])
        if not locked.seating_published:
            return locked
        refusal = _unpublish_refusal(locked, _facts([locked.pk])[locked.pk])
        if refusal:
            raise SeatingError(refusal)
        locked.seating_published = False
        locked.status = Session.Status.PLANNED  # a seated session goes back to planned
        locked.save(update_fields=["seating_published", "status"])
    session.seating_published = False
    session.status = Session.Status.PLANNED
    return locked


# -- what the pages and the API show -----------------------------------------------------------------------


@dataclass(frozen=True)
class SeatView:
    position: int
    wind: str
    key: str
    name: str
    country: str
    club: str
    substitute: bool
    withdrawn: bool
    sort_name: str = ""  # "Last, First" for alphabetical lists

    @property
    def wind_name(self) -> str:
        return str(Wind(self.position).label)


@dataclass
class TableView:
    number: int
    pk: int
    private_key: str
    seats: list[SeatView]
    has_result: bool = False


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
    def seats_by_name(self) -> list[SeatView]:
        return sorted((s for t in self.tables for s in t.seats), key=lambda s: (s.name.lower(), s.key))


def seating_sessions(*, tournament: Tournament, numbers: Iterable[int] | None = None) -> list[SessionView]:
    """Every session (or those numbered ``numbers``) with its state and its tables, names by wind."""
    sessions = Session.objects.filter(tournament=tournament).order_by("number")
    if numbers is not None:
        sessions = sessions.filter(number__in=list(numbers))
    sessions = list(sessions)
    facts = _facts([s.pk for s in sessions])
    registrations = _registrations(tournament)
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
                    SeatView(
                        position=s.position,
                        wind=WIND_LETTERS[s.position],
                        key=s.registration.key,
                        name=s.registration.player.full_name,
                        country=s.registration.player.country,
                        club=s.registration.player.club,
                        substitute=s.registration.is_substitute,
                        withdrawn=not s.registration.is_active_in(session.number),
                        sort_name=_sort_name(s.registration),
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
                refusal=_refusal(session, f),
                unpublish_refusal=_unpublish_refusal(session, f) if session.seating_published else None,
                problems=_seating_problems(session.number, keys, registrations) if views else [],
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
    registrations = _registrations(tournament)
    config = seating_config(tournament=tournament)
    seatings = _seatings(tournament)
    report = _quality_of(registrations, config, seatings)
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
    for group in config.separate:
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
        key=lambda v: (v.name.lower(), v.table),
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
        problems=_config_faults(config, by_key),
        keeps_apart=bool(config.separate),
    )


def seatable_sessions(*, tournament: Tournament) -> list[SessionView]:
    """The sessions a director may seat now: empty or draft, without results."""
    return [s for s in seating_sessions(tournament=tournament) if s.editable and s.state in (EMPTY, DRAFT)]
