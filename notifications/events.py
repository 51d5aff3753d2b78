"""What a change tells whom: the notices of one domain event (or of the clock and the sweep), each for one
subscription, every event told once (``PushSent``).

Read after the commit, from the change's ids; nothing here writes but the record of what was told.
"""

from __future__ import annotations

import datetime as dt
import hashlib
from collections import defaultdict
from fractions import Fraction

from django.db import IntegrityError, transaction
from django.db.models import F, Q
from django.urls import reverse

from notifications import topics as t
from notifications.messages import MAX_BODY, Notice
from notifications.models import PushSent, Subscription
from notifications.services import WAIT_SETTING
from penalties.models import Penalty
from rankings.standings.selectors import standings_document
from scoring.models import Hand, RefereeCall, SeatSummary, TableResult
from tournaments.clock import engine
from tournaments.clock import selectors as clock_selectors
from tournaments.models import (
    Announcement,
    Role,
    Seat,
    Session,
    SessionClock,
    Table,
    Tournament,
    TournamentRole,
)
from tournaments.selectors import visible_through
from tournaments.signals import ATTENTION, CLOCK, RESULTS, SCHEDULE, STATUS

Item = tuple[int, Notice]  # (subscription id, what it is told)
RECENT = dt.timedelta(minutes=10)  # penalties and announcements this recent are news
WAIT_DEFAULT = 10


def first_time(key: str) -> bool:
    """True the first time ``key`` is told (the record is kept), False after."""
    try:
        with transaction.atomic():
            _, created = PushSent.objects.get_or_create(key=key[:200])
    except IntegrityError:  # told at the same moment by another process
        return False
    return created


def subscribers(tournament_id: int, topic: str, **owner) -> list[Subscription]:
    """The phones told of ``topic``: a player's by the link, or by the account the player's record still
    names; the staff's while the account is still a referee or director of the tournament."""
    staff = TournamentRole.objects.filter(
        tournament_id=tournament_id, role__in=(Role.DIRECTOR, Role.REFEREE)
    ).values("user_id")
    still = (
        Q(user__isnull=True)
        | Q(audience="player", user_id=F("registration__player__user_id"))
        | Q(audience="staff", user_id__in=staff)
    )
    return list(
        Subscription.objects.filter(
            still, tournament_id=tournament_id, topics__contains=f",{topic},", **owner
        )
        .select_related("registration__player", "table")
        .order_by("pk")
    )


def player_url(sub: Subscription, slug: str) -> str:
    """Where a player's tap lands: the private link for a link's phone, the public page for an account's."""
    if sub.user_id is None:
        return reverse("player-private", args=[sub.registration.player.private_key])
    return reverse("player-public", args=[slug, sub.registration.key])


def _players_by_registration(subs: list[Subscription]) -> dict[int, list[Subscription]]:
    by: dict[int, list[Subscription]] = defaultdict(list)
    for sub in subs:
        if sub.registration_id is not None:
            by[sub.registration_id].append(sub)
    return by


def _tables(subs: list[Subscription]) -> dict[int, list[Subscription]]:
    by: dict[int, list[Subscription]] = defaultdict(list)
    for sub in subs:
        if sub.table_id is not None:
            by[sub.table_id].append(sub)
    return by


# -- the seating published, the session started, the rank after a session ----------------------------------


def seating(session: Session, slug: str) -> list[Item]:
    seats = list(Seat.objects.filter(session=session).select_related("table", "registration__player"))
    digest = hashlib.sha256(
        repr(sorted((s.registration_id, s.table.number, s.position) for s in seats)).encode()
    ).hexdigest()[:16]
    if not seats or not first_time(f"seat:{session.pk}:{digest}"):
        return []
    subs = _players_by_registration(subscribers(session.tournament_id, t.SEAT, audience="player"))
    at_table: dict[int, list[Seat]] = defaultdict(list)
    for seat in seats:
        at_table[seat.table_id].append(seat)
    items = []
    for seat in seats:
        for sub in subs.get(seat.registration_id, ()):
            others = [s.registration.display_name for s in at_table[seat.table_id] if s.pk != seat.pk]
            facts = {"session": session.number, "table": seat.table.number, "wind": seat.position}
            facts["opponents"] = others
            items.append((sub.pk, Notice(t.SEAT, facts, player_url(sub, slug))))
    return items


def started(session: Session, slug: str) -> list[Item]:
    if not first_time(f"start:{session.pk}"):
        return []
    subs = _players_by_registration(subscribers(session.tournament_id, t.START, audience="player"))
    items = []
    for seat in Seat.objects.filter(session=session, registration_id__in=list(subs)).select_related("table"):
        facts = {"session": session.number, "table": seat.table.number, "wind": seat.position}
        items += [
            (sub.pk, Notice(t.START, facts, player_url(sub, slug))) for sub in subs[seat.registration_id]
        ]
    return items


def ranked(session: Session, tournament: Tournament) -> list[Item]:
    """The rank after a finished session, to each player subscribed: never while the session is hidden."""
    last = visible_through(tournament=tournament, user=None)
    if last is not None and session.number > last:
        return []
    if not first_time(f"rank:{session.pk}"):
        return []
    subs = _players_by_registration(subscribers(tournament.pk, t.RANK, audience="player"))
    if not subs:
        return []
    document = standings_document(tournament=tournament, upto_session=session.number)
    rows = document.get("standings", [])
    by_key = {row.get("player"): row for row in rows}
    items = []
    for sub_list in subs.values():
        row = by_key.get(sub_list[0].registration.key)
        if row is None or row.get("rank") is None:
            continue
        facts = {"session": session.number, "rank": row["rank"], "count": len(rows)}
        items += [(sub.pk, Notice(t.RANK, facts, player_url(sub, tournament.slug))) for sub in sub_list]
    return items


# -- results and penalties -------------------------------------------------------------------------------


def _score(value) -> str:
    value = Fraction(value)
    return str(value.numerator) if value.denominator == 1 else f"{float(value):.1f}"


def confirmed(tournament: Tournament, table_ids) -> list[Item]:
    results = TableResult.objects.filter(
        table_id__in=table_ids, status=TableResult.Status.CONFIRMED, table__session__tournament=tournament
    ).select_related("table__session")
    players = _players_by_registration(subscribers(tournament.pk, t.RESULT, audience="player"))
    tables = _tables(subscribers(tournament.pk, t.RESULT, audience="table"))
    last = visible_through(tournament=tournament, user=None)
    items = []
    for result in results:
        table, session = result.table, result.table.session
        if not first_time(f"result:{table.pk}:{result.confirmed_at.isoformat()}"):
            continue
        facts = {"session": session.number, "table": table.number}
        url = reverse("table-link", args=[table.private_key])
        items += [(sub.pk, Notice(t.RESULT, facts, url)) for sub in tables.get(table.pk, ())]
        shown = last is None or session.number <= last
        for row in SeatSummary.objects.filter(table=table, registration_id__in=list(players)):
            mine = {**facts, "score": _score(row.final) if shown else None}
            for sub in players[row.registration_id]:
                items.append((sub.pk, Notice(t.RESULT, mine, player_url(sub, tournament.slug))))
    return items


def penalties(tournament: Tournament, now: dt.datetime) -> list[Item]:
    subs = _players_by_registration(subscribers(tournament.pk, t.PENALTY, audience="player"))
    if not subs:
        return []
    recent = Penalty.objects.filter(
        tournament=tournament,
        registration_id__in=list(subs),
        cancelled_at__isnull=True,
        recorded_at__gte=now - RECENT,
    )
    items = []
    for penalty in recent:
        if not first_time(f"penalty:{penalty.pk}"):
            continue
        facts = {"kind": penalty.kind, "reason": (penalty.reason or "")[:MAX_BODY]}
        for sub in subs[penalty.registration_id]:
            items.append((sub.pk, Notice(t.PENALTY, facts, player_url(sub, tournament.slug))))
    return items


def announcements(tournament: Tournament, now: dt.datetime) -> list[Item]:
    fresh = Announcement.objects.filter(tournament=tournament, is_active=True, created_at__gte=now - RECENT)
    fresh = [a for a in fresh if first_time(f"announce:{a.pk}")]
    if not fresh:
        return []
    items = []
    for sub in subscribers(tournament.pk, t.ANNOUNCE):
        url = (
            reverse("table-link", args=[sub.table.private_key])
            if sub.table_id
            else player_url(sub, tournament.slug)
        )
        items += [(sub.pk, Notice(t.ANNOUNCE, {"text": a.text}, url)) for a in fresh]
    return items


# -- the staff: calls, held hands, tables waiting -----------------------------------------------------------


def _staff(tournament: Tournament, topic: str) -> list[Subscription]:
    return subscribers(tournament.pk, topic, audience="staff")


def calls(tournament: Tournament, table_ids) -> list[Item]:
    open_calls = RefereeCall.objects.filter(
        tournament=tournament, table_id__in=table_ids, status=RefereeCall.Status.OPEN
    ).select_related("table")
    open_calls = [c for c in open_calls if first_time(f"call:{c.pk}")]
    subs = _staff(tournament, t.CALL) if open_calls else []
    items = []
    for call in open_calls:
        facts = {"table": call.table.number, "reason": call.reason}
        url = reverse("referee-call", args=[tournament.slug, call.pk])
        items += [(sub.pk, Notice(t.CALL, facts, url)) for sub in subs]
    return items


def held(tournament: Tournament, table_ids) -> list[Item]:
    hands = Hand.objects.filter(
        result__table_id__in=table_ids,
        result__table__session__tournament=tournament,
        valuation__status="held",
    ).select_related("result__table__session")
    fresh = []
    for hand in hands:
        stamp = hashlib.sha256(repr(hand.valuation).encode()).hexdigest()[:12]
        if first_time(f"held:{hand.pk}:{stamp}"):
            fresh.append(hand)
    subs = _staff(tournament, t.HELD) if fresh else []
    items = []
    for hand in fresh:
        table = hand.result.table
        url = reverse("table-page", args=[tournament.slug, table.session.number, table.number])
        facts = {"table": table.number, "hand": hand.number}
        items += [(sub.pk, Notice(t.HELD, facts, url)) for sub in subs]
    return items


def wait_minutes(tournament: Tournament) -> int:
    try:
        return max(1, min(int((tournament.settings or {}).get(WAIT_SETTING, WAIT_DEFAULT)), 240))
    except (TypeError, ValueError):
        return WAIT_DEFAULT


def waiting(now: dt.datetime) -> list[tuple[Tournament, list[Item]]]:
    """Tables submitted longer ago than their tournament's setting and not confirmed, to the staff."""
    found = []
    staff = Subscription.objects.filter(audience="staff", topics__contains=f",{t.WAIT},")
    for tournament in Tournament.objects.filter(pk__in=staff.values("tournament_id")):
        minutes = wait_minutes(tournament)
        late = TableResult.objects.filter(
            table__session__tournament=tournament,
            status=TableResult.Status.SUBMITTED,
            submitted_at__lte=now - dt.timedelta(minutes=minutes),
        ).select_related("table__session")
        late = [r for r in late if first_time(f"wait:{r.table_id}:{r.submitted_at.isoformat()}")]
        if not late:
            continue
        subs = _staff(tournament, t.WAIT)
        items = []
        for result in late:
            table = result.table
            url = reverse("table-page", args=[tournament.slug, table.session.number, table.number])
            facts = {"table": table.number, "minutes": int((now - result.submitted_at).total_seconds() // 60)}
            items += [(sub.pk, Notice(t.WAIT, facts, url)) for sub in subs]
        found.append((tournament, items))
    return found


# -- the clock: the signal and the end of time at each table ----------------------------------------------


def clock_moments(session: Session) -> tuple[int, list[tuple[dt.datetime, str, list[int]]]]:
    """(the clock's version, [(when, "signal" or "end", table numbers)]) of a running clock; [] otherwise."""
    stored = SessionClock.objects.filter(session=session).first()
    if stored is None or stored.state != engine.RUNNING:
        return (stored.version if stored else 0), []
    clock = clock_selectors.clock_of(session, stored)
    rule = clock_selectors.end_rule(session.tournament)
    moments: dict[tuple[dt.datetime, str], list[int]] = defaultdict(list)
    for number in Table.objects.filter(session=session).values_list("number", flat=True):
        end = clock.table_ends_at(number)
        signal = end - dt.timedelta(seconds=rule.signal_seconds)
        if rule.signal_seconds:
            moments[(signal, "signal")].append(number)
        if not rule.from_signal:  # riichi 2025 §7.4: no sound at the end
            moments[(end, "end")].append(number)
    return stored.version, sorted((when, phase, tables) for (when, phase), tables in moments.items())


def clock_due(session: Session, version: int, now: dt.datetime, *, late: dt.timedelta) -> list[Item]:
    """The clock's messages due now (at most ``late`` ago) for the clock at ``version``: none when the
    clock moved since (a newer schedule tells), or is not running."""
    current, moments = clock_moments(session)
    if current != version:
        return []
    rule = clock_selectors.end_rule(session.tournament)
    due = [(when, phase, tables) for when, phase, tables in moments if now - late <= when <= now]
    if not due:
        return []
    subs = subscribers(session.tournament_id, t.CLOCK)
    by_table = _tables(subs)
    by_player = _players_by_registration(subs)
    seats = Seat.objects.filter(session=session).select_related("table")
    players_at: dict[int, list[int]] = defaultdict(list)
    for seat in seats:
        players_at[seat.table.number].append(seat.registration_id)
    tables = {table.number: table for table in Table.objects.filter(session=session)}
    items = []
    for when, phase, numbers in due:
        for number in numbers:
            if not first_time(f"clock:{session.pk}:{number}:{phase}:{when.isoformat()}"):
                continue
            table = tables[number]
            facts = {"table": number, "phase": phase, "minutes": rule.signal_minutes}
            url = reverse("table-link", args=[table.private_key])
            items += [(sub.pk, Notice(t.CLOCK, facts, url)) for sub in by_table.get(table.pk, ())]
            for registration in players_at[number]:
                for sub in by_player.get(registration, ()):
                    url = player_url(sub, session.tournament.slug)
                    items.append((sub.pk, Notice(t.CLOCK, facts, url)))
    return items


def of_change(tournament: Tournament, what, sessions, tables, now: dt.datetime) -> list[Item]:
    """Everything a domain event tells (the clock's timed messages aside: ``clock_due``)."""
    items: list[Item] = []
    if SCHEDULE in what or STATUS in what:
        for session in Session.objects.filter(pk__in=sessions, tournament=tournament):
            if session.seating_published and session.status in (
                Session.Status.SEATED,
                Session.Status.PLAYING,
            ):
                items += seating(session, tournament.slug)
            if session.status == Session.Status.PLAYING:
                items += started(session, tournament.slug)
            if session.status == Session.Status.FINISHED:
                items += ranked(session, tournament)
    if RESULTS in what and tables:
        items += confirmed(tournament, tables)
    if RESULTS in what:
        items += penalties(tournament, now)
    if CLOCK in what:
        items += announcements(tournament, now)
    if ATTENTION in what and tables:
        items += calls(tournament, tables)
        items += held(tournament, tables)
    return items
