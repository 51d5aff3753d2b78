"""Reads of the session clock.

The clock of a tournament's current session is kept in the cache as a *document* that does not depend
on the time (states and instants only; written again after every change), so that the API and the
pages answer without a database query; ``clock_view`` then computes what is left at the server's now.
"""

from __future__ import annotations

import contextlib
import datetime as dt
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.http import Http404

from scoring.models import Hand
from scoring.rules.base import RuleError
from tournaments.clock import engine, servertime
from tournaments.models import Announcement, Session, SessionClock, Table, Tournament

DOC_SECONDS = 60  # a safety net: every clock write replaces the document after its commit


def _doc_key(slug: str) -> str:
    return f"clock:doc:{slug}"


def forget(slug: str) -> None:
    with contextlib.suppress(Exception):
        cache.delete(_doc_key(slug))


def refresh(slug: str) -> None:
    """Write the document again from the database (after a commit): readers only ever *add* a missing
    document, so a reader that read before the commit cannot put an older one back."""
    tournament = Tournament.objects.filter(slug=slug).first()
    if tournament is None:
        forget(slug)
        return
    with contextlib.suppress(Exception):
        cache.set(_doc_key(slug), build_document(tournament=tournament), DOC_SECONDS)


def end_rule(tournament: Tournament) -> engine.EndRule:
    try:
        config = tournament.get_rules().config
    except RuleError:  # old data with a broken override: the defaults
        return engine.EndRule()
    return engine.EndRule(
        end_of_time=config.end_of_time,
        signal_seconds=config.signal_minutes * 60,
        red_zone_seconds=config.red_zone_minutes * 60,
    )


def default_length_seconds(tournament: Tournament) -> int:
    try:
        return tournament.get_rules().config.session_minutes * 60
    except RuleError:
        return 120 * 60


def current_session(*, tournament: Tournament) -> Session | None:
    """The session the room's clock is about: one running or paused; else the one after the last
    ended; else the last ended; else the first."""
    sessions = list(Session.objects.filter(tournament=tournament).select_related("clock").order_by("number"))
    if not sessions:
        return None

    def state(s: Session) -> str:
        clock = getattr(s, "clock", None)
        return clock.state if clock is not None else engine.STOPPED

    live = [s for s in sessions if state(s) in (engine.RUNNING, engine.PAUSED)]
    if live:
        return live[-1]
    ended = [i for i, s in enumerate(sessions) if state(s) == engine.ENDED]
    if ended:
        last = ended[-1]
        return sessions[last + 1] if last + 1 < len(sessions) else sessions[last]
    return sessions[0]


def clock_of(session: Session, clock: SessionClock | None) -> engine.Clock:
    if clock is None:
        return engine.Clock(length_seconds=default_length_seconds(session.tournament))
    return engine.Clock(
        state=clock.state,
        length_seconds=clock.length_seconds,
        ends_at=clock.ends_at,
        remaining_ms=clock.remaining_ms,
        extra_seconds=clock.extra_seconds,
        table_extra={int(k): int(v) for k, v in (clock.table_extra or {}).items()},
        table_ended={int(k): _from_iso(v) for k, v in (clock.table_ended or {}).items()},
        started_at=clock.started_at,
        ended_at=clock.ended_at,
    )


def _iso(value: dt.datetime | None) -> str | None:
    return value.isoformat() if value is not None else None


def _from_iso(value: str | None) -> dt.datetime | None:
    return dt.datetime.fromisoformat(value) if value else None


def build_document(*, tournament: Tournament, session: Session | None = None) -> dict[str, Any]:
    """The time-independent clock document of the tournament's current session (or ``session``)."""
    session = session or current_session(tournament=tournament)
    rule = end_rule(tournament)
    doc: dict[str, Any] = {
        "tournament": {"slug": tournament.slug, "name": tournament.name, "is_public": tournament.is_public},
        "rule": {
            "end_of_time": rule.end_of_time,
            "signal_seconds": rule.signal_seconds,
            "red_zone_seconds": rule.red_zone_seconds,
        },
        "session": None,
        "clock": None,
        "tables": [],
        "version": 0,
    }
    if session is None:
        return doc
    stored = SessionClock.objects.filter(session=session).first()
    clock = (
        clock_of(session, stored)
        if stored
        else engine.Clock(length_seconds=default_length_seconds(tournament))
    )
    doc["session"] = session.number
    doc["version"] = stored.version if stored else 0
    doc["clock"] = {
        "state": clock.state,
        "length_seconds": clock.length_seconds,
        "ends_at": _iso(clock.ends_at),
        "remaining_ms": clock.remaining_ms,
        "extra_seconds": clock.extra_seconds,
        "table_extra": {str(k): v for k, v in clock.table_extra.items()},
        "table_ended": {str(k): _iso(v) for k, v in clock.table_ended.items()},
        "started_at": _iso(clock.started_at),
        "ended_at": _iso(clock.ended_at),
    }
    doc["tables"] = list(
        Table.objects.filter(session=session).order_by("number").values_list("number", flat=True)
    )
    return doc


def document(*, slug: str) -> dict[str, Any]:
    """The clock document from the cache; built (and cached) when missing. Http404 for no tournament."""
    key = _doc_key(slug)
    doc = None
    with contextlib.suppress(Exception):
        doc = cache.get(key)
    if doc is None:
        tournament = Tournament.objects.filter(slug=slug).first()
        if tournament is None:
            raise Http404("No such tournament.")
        doc = build_document(tournament=tournament)
        with contextlib.suppress(Exception):
            cache.add(key, doc, DOC_SECONDS)
    return doc


def clock_from_document(doc: dict[str, Any]) -> tuple[engine.Clock, engine.EndRule]:
    c = doc["clock"] or {"state": engine.STOPPED, "length_seconds": 0}
    clock = engine.Clock(
        state=c["state"],
        length_seconds=c["length_seconds"],
        ends_at=_from_iso(c.get("ends_at")),
        remaining_ms=c.get("remaining_ms"),
        extra_seconds=c.get("extra_seconds", 0),
        table_extra={int(k): int(v) for k, v in (c.get("table_extra") or {}).items()},
        table_ended={int(k): _from_iso(v) for k, v in (c.get("table_ended") or {}).items()},
        started_at=_from_iso(c.get("started_at")),
        ended_at=_from_iso(c.get("ended_at")),
    )
    return clock, engine.EndRule(**doc["rule"])


def _seconds(value: float | None) -> int | None:
    if value is None:
        return None
    return max(0, engine.clock_seconds(value))


def clock_view(doc: dict[str, Any], now: dt.datetime | None = None) -> dict[str, Any]:
    """The API's answer: the clock at the server's ``now`` (the contract of GET /clock/)."""
    now = now or servertime.now()
    clock, rule = clock_from_document(doc)
    remaining = clock.remaining(now) if doc["session"] is not None else None
    tables = []
    for number in doc["tables"]:
        left = clock.table_remaining(number, now)
        tables.append(
            {
                "table": number,
                "extra_seconds": clock.extra_of(number),
                "ends_at": _iso(clock.table_ends_at(number)),
                "remaining_seconds": _seconds(left),
                "phase": engine.phase(left, rule, started=clock.state != engine.STOPPED),
            }
        )
    signal_at = clock.signal_at(rule)
    return {
        "session": doc["session"],
        "state": clock.public_state(now) if doc["session"] is not None else engine.STOPPED,
        "ends_at": _iso(clock.session_ends_at()),
        "remaining_seconds": _seconds(remaining),
        "server_time": now.isoformat(),
        "tables": tables,
        "signal_at": _iso(signal_at),
        "phase": engine.phase(remaining, rule, started=clock.state != engine.STOPPED),
        "length_seconds": clock.length_seconds,
        "extra_seconds": clock.extra_seconds,
        "end_of_time": rule.end_of_time,
        "signal_seconds": rule.signal_seconds,
        "red_zone_seconds": rule.red_zone_seconds,
        "closed": clock.state == engine.ENDED,
        "version": doc["version"],
    }


# -- a table's time, for the table and player pages ---------------------------------------------------


@dataclass
class TableClock:
    """What a table's page shows of the clock."""

    session: int
    table: int
    state: str  # stopped, running, paused, ended (running with the time up reads ended)
    remaining: int | None
    ends_at: str | None
    extra_seconds: int
    phase: str
    end_of_time: str
    hands_after_end: int  # hands entered once time was up
    hands_left: int | None  # once time is up: hands the table may still enter (None before)
    late_hands: frozenset[int]  # numbers of the hands entered after the table's time was up
    api_url: str
    rule: engine.EndRule
    poll: float = 15

    @property
    def text(self) -> str:
        return engine.format_clock(self.remaining)

    @property
    def extra_text(self) -> str:
        """The table's own extra time as the clock shows it: "+5:00", "−2:00"; "" for none."""
        if not self.extra_seconds:
            return ""
        return ("+" if self.extra_seconds > 0 else "−") + engine.format_clock(abs(self.extra_seconds))

    @property
    def over(self) -> bool:
        return self.phase == engine.OVER

    @property
    def late_list(self) -> list[int]:
        """``late_hands`` in order."""
        return sorted(self.late_hands)


def table_clock(
    *, table: Table, hand_times: list[tuple[int, dt.datetime]] | None = None
) -> TableClock | None:
    """The clock as seen from ``table`` (None when its session is not the clock's current session and its
    clock never started). ``hand_times``: (number, entered at) of its hands, to mark those entered late."""
    from django.urls import reverse

    session = table.session
    if type(session).clock.is_cached(session):  # read with the table (scoring.selectors.TABLE_PAGE_RELATED)
        stored = getattr(session, "clock", None)
    else:
        stored = SessionClock.objects.filter(session=session).first()
    if stored is None:
        return None
    tournament = session.tournament
    clock, rule = clock_of(session, stored), end_rule(tournament)
    now = servertime.now()
    left = clock.table_remaining(table.number, now)
    end = clock.table_ends_at(table.number)
    late = frozenset(n for n, at in (hand_times or []) if end is not None and at > end)
    over = clock.table_over(table.number, now)
    last_from = clock.table_last_hands_from(table.number, rule)
    last_started = last_from is not None and now >= last_from
    last = [n for n, at in (hand_times or []) if last_from is not None and at > last_from]
    state = engine.ENDED if over else clock.state
    return TableClock(
        session=session.number,
        table=table.number,
        state=state,
        remaining=_seconds(left),
        ends_at=_iso(end),
        extra_seconds=clock.extra_of(table.number),
        phase=engine.phase(left, rule, started=clock.state != engine.STOPPED),
        end_of_time=rule.end_of_time,
        hands_after_end=len(late),
        hands_left=engine.hands_left_after_end(rule, len(last)) if last_started else None,
        late_hands=late,
        api_url=reverse("clock-api", args=[tournament.slug]),
        rule=rule,
        poll=float(getattr(settings, "CLOCK_POLL_SECONDS", 15)),
    )


def hand_times(*, table: Table) -> list[tuple[int, dt.datetime]]:

    return list(Hand.objects.filter(result__table=table).values_list("number", "created_at"))


def announcements(*, tournament: Tournament, limit: int = 5) -> list[Announcement]:
    return list(Announcement.objects.filter(tournament=tournament, is_active=True)[:limit])


def late_hand_counts(*, session: Session) -> dict[int, int]:
    """Per table number: hands entered after the table's time was up."""

    stored = SessionClock.objects.filter(session=session).first()
    if stored is None:
        return {}
    clock = clock_of(session, stored)
    counts: dict[int, int] = {}
    for number, created in Hand.objects.filter(result__table__session=session).values_list(
        "result__table__number", "created_at"
    ):
        end = clock.table_ends_at(number)
        if end is not None and created > end:
            counts[number] = counts.get(number, 0) + 1
    return counts
