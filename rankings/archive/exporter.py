"""Exporting a tournament as an archive document, always in the canonical form.

The canonical form (the one the exporter writes; the importer accepts it and the variants listed in
``rankings/archive/README.md``):

- every field of ARCHIVE.md's example is written: a table always has ``hands`` (a list, empty unless the
  table was entered hand by hand) and ``scores`` (null unless it was entered as game totals); a player
  always has ``last_name``, ``ema_id`` (null without one), ``country``, ``club`` and ``substitute``;
- optional fields are written only when they carry something: ``imbalance_reason`` when not empty,
  a penalty's ``table``, ``hand``, ``reason`` and ``variant`` when given, ``persists`` and ``during``
  when true, ``session`` except for a disqualification from the tournament;
- fields the product adds to ARCHIVE.md are written only when they differ from their defaults:
  ``tournament.is_public`` (false), ``tournament.qualifies_for_championship`` (true),
  ``tournament.settings`` (not empty), ``players[].withdrawn_from``, ``sessions[].starts_at``,
  ``sessions[].absent``;
- teams: ``tournament.team_size`` when set, ``players[].team`` (the team's name) for players in a
  team, and the top-level ``teams`` (name, country, club, by name) when the tournament has teams;
- players in registration order, sessions by number, tables by number, penalties in recorded order;
  cancelled penalties are left out (they count for nothing);
- numbers are integers when whole, else decimals.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from django.utils import timezone

from penalties.kinds import kind_of
from penalties.models import Penalty
from rankings.submission.models import EmaSubmission
from scoring import handshape
from scoring.models import Hand, RefereeCall, TableResult
from tournaments.models import Registration, Seat, Session, Table, Team, Tournament

from . import shape
from .shape import FORMAT, VERSION, plain


def archive_export(*, tournament: Tournament) -> dict[str, Any]:
    """The archive document of ``tournament`` (see ARCHIVE.md), in the canonical form."""
    registrations = list(
        Registration.objects.filter(tournament=tournament).select_related("player", "team").order_by("id")
    )
    key_of = {r.pk: r.key for r in registrations}
    sessions = _sessions(tournament, key_of)
    doc = {
        "format": FORMAT,
        "version": VERSION,
        "tournament": _tournament(tournament),
        "players": [_player(r) for r in registrations],
        "sessions": sessions,
        "penalties": _penalties(tournament, key_of),
    }
    statuses = [
        s.get(
            "status",
            shape.session_status_implied(s["tables"], published=s.get("published", bool(s["tables"]))),
        )
        for s in sessions
    ]
    if tournament.status != shape.tournament_status_implied(statuses):
        doc["tournament"]["status"] = tournament.status
    calls = _referee_calls(tournament)
    if calls:
        doc["referee_calls"] = calls
    teams = [
        {"name": t.name, "country": t.country, "club": t.club}
        for t in Team.objects.filter(tournament=tournament).order_by("name")
    ]
    if teams:
        doc["teams"] = teams
    submission = _ema_submission(tournament)
    if submission:
        doc["ema_submission"] = submission
    return doc


def _ema_submission(t: Tournament) -> dict[str, Any]:
    """The EMA submission's facts that carry something (none: the key is left out)."""
    stored = EmaSubmission.objects.filter(tournament=t).first()
    if stored is None:
        return {}
    doc = {
        "observer": stored.observer,
        "observer_ema_id": stored.observer_ema_id,
        "referees": [{"name": r["name"], "plays": bool(r.get("plays"))} for r in stored.referees or []],
        "prizes": list(stored.prizes or []),
        "substitute_answers": dict(sorted((stored.substitute_answers or {}).items())),
        "organisation": stored.organisation,
        "communication": stored.communication,
        "irregularities": stored.irregularities,
        "complaints": stored.complaints,
        "conclusion": stored.conclusion,
    }
    return {key: value for key, value in doc.items() if value}


def _tournament(t: Tournament) -> dict[str, Any]:
    doc: dict[str, Any] = {
        "name": t.name,
        "slug": t.slug,
        "ruleset": t.ruleset,
        "rules": t.rules or {},
        "starts_on": t.starts_on.isoformat(),
        "days": t.days,
        "city": t.city,
        "country": t.country,
    }
    if not t.is_public:
        doc["is_public"] = False
    if t.qualifies_for_championship:
        doc["qualifies_for_championship"] = True
    if t.settings:
        doc["settings"] = t.settings
    if t.team_size is not None:
        doc["team_size"] = t.team_size
    if t.language:
        doc["language"] = t.language
    return doc


def _player(r: Registration) -> dict[str, Any]:
    p = r.player
    doc: dict[str, Any] = {
        "key": r.key,
        "first_name": p.first_name,
        "last_name": p.last_name,
        "ema_id": p.ema_id or None,
        "country": p.country,
        "club": p.club,
        "substitute": r.is_substitute,
    }
    if r.withdrawn_from is not None:
        doc["withdrawn_from"] = r.withdrawn_from
    if r.team is not None:
        doc["team"] = r.team.name
    return doc


def _sessions(tournament: Tournament, key_of: dict[int, str]) -> list[dict[str, Any]]:
    sessions = list(Session.objects.filter(tournament=tournament).order_by("number"))
    tables_of: dict[int, list[Table]] = defaultdict(list)
    for table in Table.objects.filter(session__tournament=tournament).order_by("session_id", "number"):
        tables_of[table.session_id].append(table)
    seats_of: dict[int, list[str | None]] = defaultdict(lambda: [None] * 4)  # None: an empty seat
    for table_id, position, registration_id in Seat.objects.filter(
        session__tournament=tournament
    ).values_list("table_id", "position", "registration_id"):
        seats_of[table_id][position] = key_of[registration_id]
    results = {r.table_id: r for r in TableResult.objects.filter(table__session__tournament=tournament)}
    hands_of: dict[int, list[dict[str, Any]]] = defaultdict(list)
    hands = (
        Hand.objects.filter(result__table__session__tournament=tournament)
        .order_by("result_id", "number")
        .values_list("result__table_id", "data")
    )
    for table_id, data in hands.iterator(chunk_size=2000):
        hands_of[table_id].append(handshape.to_keys(data, seats_of[table_id]))

    out = []
    for session in sessions:
        doc: dict[str, Any] = {"number": session.number}
        if session.starts_at is not None:
            doc["starts_at"] = timezone.localtime(session.starts_at).isoformat()
        if session.absent:
            doc["absent"] = sorted(session.absent)
        doc["tables"] = [
            _table(table, seats_of[table.pk], results.get(table.pk), hands_of.get(table.pk, []))
            for table in tables_of.get(session.pk, [])
        ]
        # a live session's state, when the tables do not imply it (a backup taken while it runs)
        implied = shape.session_status_implied(doc["tables"], published=session.seating_published)
        if session.status != implied:
            doc["status"] = session.status
        if session.seating_published != bool(doc["tables"]):
            doc["published"] = session.seating_published
        out.append(doc)
    return out


def _table(
    table: Table, seats: list[str], result: TableResult | None, hands: list[dict[str, Any]]
) -> dict[str, Any]:
    scores = None
    reason = ""
    if result is not None and result.mode == TableResult.Mode.TOTALS and result.scores is not None:
        scores = [plain(s) for s in result.scores]
        reason = result.imbalance_reason
        hands = []
    doc: dict[str, Any] = {"number": table.number, "seats": seats, "hands": hands, "scores": scores}
    if reason:
        doc["imbalance_reason"] = reason
    if result is not None and shape.table_played(doc) and result.status != TableResult.Status.CONFIRMED:
        doc["status"] = result.status  # still being entered, or submitted: not confirmed by a restore
    if result is not None and result.seat_corrections and shape.table_played(doc):
        doc["seat_corrections"] = [
            {
                "at": c.get("at"),
                "from": list(c["from"]),
                "to": list(c["to"]),
                "by": c.get("by", ""),
                "reason": c.get("reason", ""),
            }
            for c in result.seat_corrections
        ]
    return doc


def _exported_penalties(tournament: Tournament):
    """The penalties an archive holds, in its order (cancelled ones are left out)."""
    return (
        Penalty.objects.filter(tournament=tournament, cancelled_at__isnull=True)
        .select_related("session", "table")
        .order_by("sequence")
    )


def _penalties(tournament: Tournament, key_of: dict[int, str]) -> list[dict[str, Any]]:
    return [_penalty(p, key_of) for p in _exported_penalties(tournament)]


def _when(value) -> str:
    return timezone.localtime(value).isoformat(timespec="seconds")


def _referee_calls(tournament: Tournament) -> list[dict[str, Any]]:
    """The tables' calls of a referee, in the order they were made, with their times; ``penalty`` is the
    place (from 0) in ``penalties`` of the penalty that resolved the call."""
    place = {pk: i for i, pk in enumerate(_exported_penalties(tournament).values_list("pk", flat=True))}
    rows = []
    for call in (
        RefereeCall.objects.filter(tournament=tournament)
        .select_related("session", "table")
        .order_by("called_at", "pk")
    ):
        doc: dict[str, Any] = {
            "session": call.session.number,
            "table": call.table.number,
            "reason": call.reason,
            "called_at": _when(call.called_at),
        }
        if call.acknowledged_at is not None:
            doc["acknowledged_at"] = _when(call.acknowledged_at)
        if call.acknowledged_name:
            doc["acknowledged_by"] = call.acknowledged_name
        if call.resolved_at is not None:
            doc["resolved_at"] = _when(call.resolved_at)
        if call.resolved_name:
            doc["resolved_by"] = call.resolved_name
        if call.note:
            doc["note"] = call.note
        if call.penalty_id in place:
            doc["penalty"] = place[call.penalty_id]
        if call.hand_number is not None:
            doc["hand"] = call.hand_number
        rows.append(doc)
    return rows


def _penalty(p: Penalty, key_of: dict[int, str]) -> dict[str, Any]:
    doc: dict[str, Any] = {"player": key_of[p.registration_id]}
    kind = kind_of(p.kind)
    if kind.archive_session(p):
        doc["session"] = p.session.number
    if p.table is not None:
        doc["table"] = p.table.number
    if p.hand_number is not None:
        doc["hand"] = p.hand_number
    doc["kind"] = p.kind
    doc.update(kind.archive_fields(p, key_of, plain))
    if p.reason:
        doc["reason"] = p.reason
    return doc
