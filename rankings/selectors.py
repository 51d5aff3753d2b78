"""Reads for standings: a fixed number of queries whatever the size of the tournament."""

from __future__ import annotations

from collections import defaultdict

from penalties.models import Kind, Penalty, Scope
from rankings.engine.standings import (
    PlayerInfo,
    ScorePenalty,
    SessionRow,
    Standings,
    TablePointsPenalty,
    compute_standings,
    method_for_family,
)
from scoring.models import SeatSummary
from tournaments.models import WIND_LETTERS, Registration, Session, Tournament

OFFENDER_ONLY = {Kind.LATE_ARRIVAL, Kind.FOUL, Kind.FORGOT_WINNING_TILE, Kind.REFEREE}


def standings_inputs(*, tournament: Tournament):
    """Players, session rows and penalties of a tournament: four queries."""
    registrations = list(Registration.objects.filter(tournament=tournament).select_related("player"))
    key_of = {r.pk: r.key for r in registrations}
    summaries = list(
        SeatSummary.objects.filter(tournament=tournament)
        .select_related("session", "table")
        .order_by("table_id", "position")
    )
    penalties = list(
        Penalty.objects.filter(tournament=tournament, cancelled_at__isnull=True)
        .select_related("session")
        .order_by("sequence")
    )
    complete = Session.objects.filter(tournament=tournament, status=Session.Status.FINISHED).count()

    by_table = defaultdict(list)
    for s in summaries:
        by_table[s.table_id].append(s)
    rows = []
    in_rows = set()
    for seats in by_table.values():
        keys = [key_of[s.registration_id] for s in seats]
        for s in seats:
            key = key_of[s.registration_id]
            in_rows.add((s.registration_id, s.session.number))
            rows.append(
                SessionRow(
                    player=key,
                    session=s.session.number,
                    table=s.table.number,
                    seat_wind=WIND_LETTERS[s.position],
                    opponents=tuple(k for k in keys if k != key),
                    game_score=s.game_score,
                    table_points=s.table_points,
                    uma=s.uma,
                    transfers=s.transfers,
                    chombo=s.chombo,
                    penalties=s.penalties,
                    final=s.final,
                )
            )
    disqualified = {
        p.registration_id for p in penalties if p.kind == Kind.DISQUALIFIED and p.scope == Scope.TOURNAMENT
    }
    score_penalties, tp_penalties = [], []
    for p in penalties:
        number = p.session.number if p.session else None
        if p.kind in OFFENDER_ONLY and p.points and (p.registration_id, number) not in in_rows:
            score_penalties.append(
                ScorePenalty(player=key_of[p.registration_id], session=number, points=p.points)
            )
        elif p.kind == Kind.TABLE_POINTS and p.table_points:
            tp_penalties.append(
                TablePointsPenalty(player=key_of[p.registration_id], session=number, points=p.table_points)
            )
    players = [
        PlayerInfo(
            player=r.key,
            name=r.player.full_name,
            substitute=r.is_substitute,
            disqualified=r.pk in disqualified,
            withdrawn_from=r.withdrawn_from,
        )
        for r in registrations
    ]
    return players, rows, score_penalties, tp_penalties, complete


def standings_compute(*, tournament: Tournament) -> Standings:
    players, rows, score_penalties, tp_penalties, complete = standings_inputs(tournament=tournament)
    rules = tournament.get_rules()
    return compute_standings(
        players=players,
        rows=rows,
        method=method_for_family(rules.family),
        table_points_penalties=tp_penalties,
        score_penalties=score_penalties,
        tiebreaks=tuple(tournament.settings.get("tiebreaks", ())),
        complete_sessions=complete,
    )
