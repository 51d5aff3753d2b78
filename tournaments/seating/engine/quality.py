"""The quality report of a schedule: meetings, compatriots, seat winds and table visits."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from itertools import combinations

from .models import Player, PlayerId, QualityReport, Session


def _pair(a: PlayerId, b: PlayerId, order: dict[PlayerId, int]) -> tuple[PlayerId, PlayerId]:
    return (a, b) if order.get(a, 0) <= order.get(b, 0) else (b, a)


def quality_report(
    players: Sequence[Player],
    sessions: Sequence[Session],
    separate: Iterable[Sequence[PlayerId]] = (),
    teams: Iterable[Sequence[PlayerId]] = (),
) -> QualityReport:
    """Report on ``sessions`` (played and planned, tables in table-number order, seats E, S, W, N).

    ``players`` supplies countries, clubs and fixed tables; players seated but not listed count
    as having neither. ``separate``: groups whose members must not meet; ``teams``: the teams,
    whose meetings are also counted on their own (``teammate_meetings``).
    """
    info = {p.id: p for p in players}
    order: dict[PlayerId, int] = {p.id: i for i, p in enumerate(players)}
    for session in sessions:
        for table in session:
            for p in table:
                order.setdefault(p, len(order))
    group_of: dict[PlayerId, set[int]] = {}
    for gi, group in enumerate(separate):
        for p in group:
            group_of.setdefault(p, set()).add(gi)
    team_of = {p: ti for ti, team in enumerate(teams) for p in team}
    tally = _Tally(info, order, group_of, team_of)
    for session in sessions:
        tally.add_session(session)
    meetings, winds = tally.meetings, tally.winds
    repeated = sorted(
        ((a, b, m) for (a, b), m in meetings.items() if m > 1),
        key=lambda x: (-x[2], order[x[0]], order[x[1]]),
    )
    repeats = sum(m - 1 for m in meetings.values() if m > 1)
    ordered_players = sorted(winds, key=lambda p: order[p])
    wind_counts = {p: tuple(winds[p]) for p in ordered_players}
    spread = {p: max(c) - min(c) for p, c in wind_counts.items()}
    return QualityReport(
        sessions=len(sessions),
        players=len(winds),
        repeated_meetings=repeats,
        max_pair_meetings=max(meetings.values(), default=0),
        repeated_pairs=repeated,
        same_country_meetings=sum(tally.country_by_session),
        same_club_meetings=sum(tally.club_by_session),
        same_country_by_session=tally.country_by_session,
        same_club_by_session=tally.club_by_session,
        separated_meetings=tally.separated,
        winds=wind_counts,  # type: ignore[arg-type]
        wind_spread=spread,
        max_wind_spread=max(spread.values(), default=0),
        repeated_table_visits=sum(v - 1 for v in tally.visits.values() if v > 1),
        fixed_table_violations=tally.fixed_violations,
        teammate_meetings=tally.teammates,
        same_country_least=_least(winds, info, "country", repeats),
        same_club_least=_least(winds, info, "club", repeats),
    )


@dataclass
class _Tally:
    """What the sessions hold, counted table by table: meetings, seat winds, table visits, compatriots
    and clubmates, separated players and teammates who meet, players away from their fixed table."""

    info: dict[PlayerId, Player]
    order: dict[PlayerId, int]
    group_of: dict[PlayerId, set[int]]
    team_of: dict[PlayerId, int]
    meetings: Counter[tuple[PlayerId, PlayerId]] = field(default_factory=Counter)
    winds: dict[PlayerId, list[int]] = field(default_factory=dict)
    visits: Counter[tuple[PlayerId, int]] = field(default_factory=Counter)
    country_by_session: list[int] = field(default_factory=list)
    club_by_session: list[int] = field(default_factory=list)
    separated: int = 0
    fixed_violations: int = 0
    teammates: int = 0

    def add_session(self, session: Session) -> None:
        info, group_of, team_of = self.info, self.group_of, self.team_of
        same_country = same_club = 0
        for number, table in enumerate(session, start=1):
            for seat, p in enumerate(table):
                self.winds.setdefault(p, [0, 0, 0, 0])[seat] += 1
                fixed = info[p].fixed_table if p in info else None
                if fixed is None:
                    self.visits[(p, number)] += 1
                elif fixed != number:
                    self.fixed_violations += 1
            for a, b in combinations(table, 2):
                self.meetings[_pair(a, b, self.order)] += 1
                pa, pb = info.get(a), info.get(b)
                if pa and pb:
                    if pa.country and pa.country == pb.country:
                        same_country += 1
                    if pa.club and pa.club == pb.club:
                        same_club += 1
                if group_of.get(a, set()) & group_of.get(b, set()):
                    self.separated += 1
                if a in team_of and team_of.get(b) == team_of[a]:
                    self.teammates += 1
        self.country_by_session.append(same_country)
        self.club_by_session.append(same_club)


def _least(
    winds: dict[PlayerId, list[int]], info: dict[PlayerId, Player], attribute: str, repeats: int
) -> int:
    """Meetings of players sharing ``attribute`` that no seating with ``repeats`` repeats avoids.

    A player who sat ``s`` sessions met ``3s`` times; at most ``others - alike`` of those can be
    first meetings with someone from elsewhere, so the rest are repeats or meetings of alike
    players. Summed over players each meeting counts twice.
    """
    values = Counter(getattr(info[p], attribute) for p in winds if p in info)
    others = len(winds) - 1
    excess = 0
    for p, counts in winds.items():
        value = getattr(info[p], attribute) if p in info else ""
        alike = values[value] - 1 if value else 0
        excess += max(0, 3 * sum(counts) - (others - alike))
    return max(0, (excess + 1) // 2 - repeats)


def format_schedule(sessions: Sequence[Session], quality: QualityReport, first_session: int = 1) -> str:
    """A plain-text schedule (one line per table, seats E S W N) followed by the quality report."""
    lines = []
    width = max((len(str(p)) for s in sessions for t in s for p in t), default=1)
    for k, session in enumerate(sessions, start=first_session):
        lines.append(f"Session {k}")
        for number, table in enumerate(session, start=1):
            seats = "  ".join(f"{w} {p!s:>{width}}" for w, p in zip("ESWN", table, strict=True))
            lines.append(f"  Table {number:>{len(str(len(session)))}}:  {seats}")
        lines.append("")
    q = quality
    lines += [
        f"Quality over {q.sessions} sessions and {q.players} players",
        f"  repeated meetings:        {q.repeated_meetings}",
        f"  most meetings of a pair:  {q.max_pair_meetings}",
        f"  same-country meetings:    {q.same_country_meetings}",
        f"  same-club meetings:       {q.same_club_meetings}",
        f"  kept-apart meetings:      {q.separated_meetings}",
        f"  teammate meetings:        {q.teammate_meetings}",
        f"  largest wind spread:      {q.max_wind_spread}",
        f"  repeated table visits:    {q.repeated_table_visits}",
    ]
    if q.repeated_pairs:
        shown = ", ".join(f"{a}-{b} ({m}x)" for a, b, m in q.repeated_pairs[:10])
        more = f" and {len(q.repeated_pairs) - 10} more" if len(q.repeated_pairs) > 10 else ""
        lines.append(f"  pairs meeting again:      {shown}{more}")
    return "\n".join(lines)
