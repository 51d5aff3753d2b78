"""Seating of a tournament's sessions: the bridge between the database and the seating engine.

The engine (:mod:`tournaments.seating.engine`) is pure; the functions here read registrations, the director's
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
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from tournaments import lifecycle, services
from tournaments.models import WIND_LETTERS, Registration, Seat, Session, Tournament
from tournaments.seating.engine import (
    QualityReport,
    SeatingError,
    plan_predefined,
    plan_random_session,
    plan_schedule,
    plan_swiss_session,
    replan_after_withdrawal,
    swap_players,
)
from tournaments.seating.engine import Tournament as SeatingTournament
from tournaments.seating.selectors import (
    DRAFT,
    IMPORT_MAX_CHARS,
    NAMES_AUTO,
    NAMES_KEYS,
    NAMES_NUMBERS,
    PUBLISHED,
    RANDOM,
    STRATEGIES,
    SWISS,
    SeatingConfig,
    SessionFacts,
    Tables,
    config_faults,
    engine_players,
    history_except,
    meeting_sessions,
    ordered_history,
    player_winds,
    quality_of,
    registration_name,
    reseat_refusal,
    seating_config,
    seating_problems,
    session_facts,
    session_state,
    standings_ranks,
    stored_seatings,
    table_pairs,
    tournament_registrations,
    unpublish_refusal,
)
from tournaments.signals import SCHEDULE, SETTINGS, changed_send

# -- the director's settings --------------------------------------------------------------------------


def seating_config_update(*, tournament: Tournament, config: SeatingConfig) -> SeatingConfig:
    """Store the seating settings (other settings of the tournament are left as they are)."""
    keys = Registration.objects.filter(tournament=tournament).values_list("key", flat=True)
    faults = config_faults(replace(config, problems=()), keys)
    if faults:
        raise SeatingError(faults)
    with transaction.atomic():
        locked = Tournament.objects.select_for_update().get(pk=tournament.pk)
        stored = dict(locked.settings or {})
        stored["seating"] = replace(config, problems=()).to_json()
        locked.settings = stored
        locked.save(update_fields=["settings"])
        changed_send(tournament_id=locked.pk, what={SETTINGS})
    tournament.settings = stored
    return seating_config(tournament=tournament)


# -- reading the database -------------------------------------------------------------------------------


def _open_check(tournament: Tournament) -> None:
    """A finished tournament's seating stays as it is until the director reopens it."""
    try:
        lifecycle.tournament_open_check(tournament=tournament)
    except lifecycle.TournamentFinished as exc:
        raise SeatingError(exc.messages) from None


def _lock_sessions(tournament: Tournament, sessions: Iterable[Session]) -> list[Session]:
    _open_check(tournament)
    ids = {s.pk for s in sessions}
    locked = list(
        Session.objects.select_for_update().filter(tournament=tournament, pk__in=ids).order_by("number")
    )
    if len(locked) != len(ids):
        raise SeatingError(_("Choose sessions of this tournament."))
    return locked


def _check_reseatable(sessions: Sequence[Session]) -> dict[int, SessionFacts]:
    facts = session_facts([s.pk for s in sessions])
    faults = [r for s in sessions if (r := reseat_refusal(s, facts[s.pk]))]
    if faults:
        raise SeatingError(faults)
    return facts


def _write(sessions: Sequence[Session], plans: dict[int, Tables], by_key: dict[str, Registration]) -> None:
    """Write the plans of ``sessions`` (unpublished), then send one event for them all."""
    created = []
    for session in sessions:
        tables = [[by_key[k] for k in table] for table in plans[session.number]]
        created += services.session_seat(session=session, tables=tables, replace=True, event=False)
        if session.seating_published:
            session.seating_published = False
            session.save(update_fields=["seating_published"])
    if sessions:
        changed_send(
            tournament_id=sessions[0].tournament_id,
            what={SCHEDULE},
            sessions=[s.pk for s in sessions],
            tables=[t.pk for t in created],
        )


def _chunks(sessions: Sequence[Session], registrations: Sequence[Registration]) -> list[list[Session]]:
    """Consecutive sessions with the same players (a withdrawal, or a player absent from one session,
    starts a new chunk)."""
    out: list[list[Session]] = []
    previous = None
    for session in sessions:
        active = frozenset(r.key for r in registrations if r.plays_in(session))
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
        registrations = tournament_registrations(tournament)
        by_key = {r.key: r for r in registrations}
        faults = config_faults(config, by_key)
        if faults:
            raise SeatingError(faults)
        seed = config.seed if seed is None else seed
        seatings = stored_seatings(tournament)
        history = history_except(seatings, (s.number for s in locked))
        ranks = standings_ranks(tournament) if strategy == SWISS else None
        plans: dict[int, Tables] = {}
        for chunk in _chunks(locked, registrations):
            players = engine_players(
                registrations, config, number=chunk[0].number, ranks=ranks, absent=chunk[0].absent or ()
            )
            if strategy == RANDOM:
                for session in chunk:
                    engine = SeatingTournament(
                        players,
                        ordered_history({**history, **plans}),
                        config.keep_apart,
                        config.engine_settings(seed=seed + session.number),
                    )
                    plans[session.number] = plan_random_session(engine).sessions[0]
                continue
            engine = SeatingTournament(
                players,
                ordered_history({**history, **plans}),
                config.keep_apart,
                config.engine_settings(seed=seed),
            )
            plan = plan_swiss_session(engine) if strategy == SWISS else plan_schedule(engine, len(chunk))
            for session, tables in zip(chunk, plan.sessions, strict=True):
                plans[session.number] = [[str(k) for k in t] for t in tables]
        _write(locked, plans, by_key)
    seatings = {**history, **plans}
    return SeatingOutcome(
        sessions=[s.number for s in locked],
        quality=quality_of(registrations, config, seatings),
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
    """Seat ``sessions`` from a predefined schedule (see :func:`tournaments.seating.engine.parse_predefined`
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
        registrations = tournament_registrations(tournament)
        by_key = {r.key: r for r in registrations}
        faults = config_faults(config, by_key)
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

        seatings = stored_seatings(tournament)
        history = history_except(seatings, (s.number for s in locked))
        players = engine_players(
            registrations, config, number=locked[0].number, ident=ident, absent=locked[0].absent or ()
        )
        engine = SeatingTournament(
            players,
            [[[ident(k) for k in t] for t in tables] for tables in ordered_history(history)],
            [[ident(k) for k in g] for g in config.keep_apart],
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
        quality=quality_of(registrations, config, {**history, **plans}),
        substitutes=_substitutes_seated(registrations, plans, plans),
        notes=[_("Players were read by key.") if mode == NAMES_KEYS else _("Players were read by number.")],
    )


def seating_replan_after_withdrawal(*, tournament: Tournament) -> SeatingOutcome:
    """Re-plan the draft sessions that seat a player who has withdrawn (``Registration.withdrawn_from``),
    and the drafts after them. Played and published sessions stay as they are (a published session that
    seats a withdrawn player is named in the notes: unpublish it to re-plan it). Substitutes take the seats
    of withdrawn players where the engine finds that best."""
    with transaction.atomic():
        _open_check(tournament)
        sessions = list(Session.objects.select_for_update().filter(tournament=tournament).order_by("number"))
        facts = session_facts([s.pk for s in sessions])
        registrations = tournament_registrations(tournament)
        by_key = {r.key: r for r in registrations}
        config = seating_config(tournament=tournament)
        faults = config_faults(config, by_key)
        if faults:
            raise SeatingError(faults)
        seatings = stored_seatings(tournament)

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
                    % {"n": s.number, "names": ", ".join(registration_name(by_key[k]) for k in gone)}
                )
        drafts = [
            s
            for s in sessions
            if session_state(s, facts[s.pk]) == DRAFT and not reseat_refusal(s, facts[s.pk])
        ]
        affected = [s for s in drafts if seats_withdrawn(s)]
        if not affected:
            raise SeatingError(
                [_("No draft session seats a withdrawn player: there is nothing to re-plan."), *notes]
            )
        targets = [s for s in drafts if s.number >= affected[0].number]
        history = history_except(seatings, (s.number for s in targets))
        plans: dict[int, Tables] = {}
        for chunk in _chunks(targets, registrations):
            players = engine_players(
                registrations, config, number=chunk[0].number, absent=chunk[0].absent or ()
            )
            played = ordered_history({**history, **plans})
            engine = SeatingTournament(players, played, config.keep_apart, config.engine_settings())
            previous = [seatings[s.number] for s in chunk]
            plan = replan_after_withdrawal(engine, len(played) + len(chunk), previous)
            for session, tables in zip(chunk, plan.sessions, strict=True):
                plans[session.number] = [[str(k) for k in t] for t in tables]
        _write(targets, plans, by_key)
    return SeatingOutcome(
        sessions=[s.number for s in targets],
        quality=quality_of(registrations, config, {**history, **plans}),
        substitutes=_substitutes_seated(registrations, plans, plans),
        notes=notes,
    )


# -- swapping two players -----------------------------------------------------------------------------------


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
    new_pairs = table_pairs(after[number]) - table_pairs(before[number])
    info = {k: by_key[k] for k in {k for p in new_pairs for k in p}}
    order = {k: i for i, k in enumerate(by_key)}
    club_on = config.avoid_same_club and _in_window(config.club_sessions, number, list(after))
    country_on = config.avoid_same_country and _in_window(config.country_sessions, number, list(after))
    for pair in sorted(new_pairs, key=lambda p: sorted(order.get(k, 0) for k in p)):
        a, b = sorted(pair, key=lambda k: order.get(k, 0))
        ra, rb = info[a], info[b]
        names = {"a": registration_name(ra), "b": registration_name(rb)}
        met = meeting_sessions(after, a, b)
        if len(met) > 1:
            out.append(
                _("%(a)s and %(b)s meet again: %(times)s times, in sessions %(list)s.")
                % {**names, "times": len(met), "list": ", ".join(map(str, met))}
            )
        if any(a in g and b in g for g in config.keep_apart):
            out.append(_("%(a)s and %(b)s were to be kept apart.") % names)
        if country_on and ra.player.country and ra.player.country == rb.player.country:
            out.append(
                _("%(a)s and %(b)s are both from %(country)s.") % {**names, "country": ra.player.country}
            )
        if club_on and ra.player.club and ra.player.club == rb.player.club:
            out.append(_("%(a)s and %(b)s are both members of %(club)s.") % {**names, "club": ra.player.club})
    for key in moved:
        then, now = player_winds(before, key), player_winds(after, key)
        if max(now) - min(now) > max(then) - min(then) and max(now) - min(now) > 1:
            counts = " ".join(f"{w}{c}" for w, c in zip(WIND_LETTERS, now, strict=True))
            out.append(
                _("%(name)s's winds become uneven: %(counts)s.")
                % {"name": registration_name(by_key[key]), "counts": counts}
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
                    % {"name": registration_name(by_key[key]), "table": table, "list": sessions}
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
        registrations = tournament_registrations(tournament)
        by_key = {r.key: r for r in registrations}
        missing = [k for k in (a, b) if k not in seats]
        if missing:
            raise SeatingError(
                [
                    _("%(name)s has no seat in session %(n)s.")
                    % {"name": registration_name(by_key[k]) if k in by_key else k, "n": locked.number}
                    for k in missing
                ]
            )
        config = seating_config(tournament=tournament)
        seatings = stored_seatings(tournament)
        history = history_except(seatings, [locked.number])
        engine = SeatingTournament(
            engine_players(registrations, config, number=locked.number, absent=locked.absent or ()),
            ordered_history(history),
            config.keep_apart,
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
        changed_send(
            tournament_id=locked.tournament_id,
            what={SCHEDULE},
            sessions=[locked.pk],
            tables=[sa.table_id, sb.table_id],
        )
        after = {**history, locked.number: [[str(k) for k in t] for t in plan.sessions[0]]}
    return SeatingOutcome(
        sessions=[locked.number],
        quality=quality_of(registrations, config, after),
        broken=_what_broke(
            number=locked.number, before=seatings, after=after, moved=[a, b], by_key=by_key, config=config
        ),
    )


# -- publishing -------------------------------------------------------------------------------------------


def _move(session: Session, to: str) -> Session:
    """The session's status follows its seating, through the lifecycle (its refusals as seating faults)."""
    try:
        return lifecycle.session_move(session=session, to=to)
    except lifecycle.Blocked as exc:
        raise SeatingError(exc.reasons) from None


def seating_publish(*, session: Session) -> Session:
    """Show the seating of ``session`` to the players. Refuses an empty session and a seating that seats a
    withdrawn player or leaves out a player due to play."""
    with transaction.atomic():
        (locked,) = _lock_sessions(session.tournament, [session])
        if locked.seating_published and locked.status != Session.Status.PLANNED:
            return locked
        facts = session_facts([locked.pk])[locked.pk]
        if not facts.tables:
            raise SeatingError(_("Session %(n)s has no seating to publish.") % {"n": locked.number})
        tables = stored_seatings(locked.tournament).get(locked.number, [])
        faults = seating_problems(
            locked.number, tables, tournament_registrations(locked.tournament), locked.absent or ()
        )
        if faults:
            raise SeatingError(faults)
        locked.seating_published = True
        locked.save(update_fields=["seating_published"])
        if locked.status == Session.Status.PLANNED:  # published: the session's first step
            locked = _move(locked, Session.Status.SEATED)
        else:
            changed_send(tournament_id=locked.tournament_id, what={SCHEDULE}, sessions=[locked.pk])
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
        refusal = unpublish_refusal(locked, session_facts([locked.pk])[locked.pk])
        if refusal:
            raise SeatingError(refusal)
        locked.seating_published = False
        locked.save(update_fields=["seating_published"])
        if locked.status == Session.Status.SEATED:  # a seated session goes back to planned
            locked = _move(locked, Session.Status.PLANNED)
        else:
            changed_send(tournament_id=locked.tournament_id, what={SCHEDULE}, sessions=[locked.pk])
    session.seating_published = False
    session.status = locked.status
    return locked


# -- what the pages and the API show -----------------------------------------------------------------------
