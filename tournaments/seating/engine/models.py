"""Plain data for the seating engine: players, settings, plans and the error directors see."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from scoring.rules.text import Text, gettext_noop

PlayerId = int | str
Table = list[PlayerId]
"""Four player ids in seat order East, South, West, North."""
Session = list[Table]
"""Tables in table-number order: ``session[0]`` is table 1."""

WINDS = ("E", "S", "W", "N")


class SeatingError(ValueError):
    """A fault in what the director asked for, worded for the director.

    ``faults`` lists every problem found (not only the first), each in the reader's language when read;
    the message joins them.
    """

    def __init__(self, faults: str | Text | Sequence[str | Text]):
        self._faults = [faults] if isinstance(faults, str | Text) else list(faults)
        super().__init__(*self._faults)

    @property
    def faults(self) -> list[str]:
        return [str(fault) for fault in self._faults]

    @property
    def message(self) -> str:
        faults = self.faults
        if len(faults) == 1:
            return faults[0]
        heading = str(gettext_noop("%(count)s problems:", count=len(faults)))
        return heading + "\n" + "\n".join(f"- {f}" for f in faults)

    def __str__(self) -> str:
        return self.message


@dataclass(frozen=True)
class Player:
    """A registered player.

    ``rank`` (1 = leader) or, failing that, ``score`` (higher is better) orders the standings
    for Swiss sessions. ``fixed_table`` pins the player to one table number in every session
    (accessibility). A ``substitute`` is only seated when needed to complete tables of four.
    A player who withdrew has ``active=False``.
    """

    id: PlayerId
    country: str = ""
    club: str = ""
    rank: int | None = None
    score: float | None = None
    fixed_table: int | None = None
    substitute: bool = False
    active: bool = True


@dataclass(frozen=True)
class SeatingSettings:
    """How to plan.

    ``club_sessions`` / ``country_sessions``: players of the same club / country are kept apart
    only in the first K sessions of the tournament (counting sessions already played); ``None``
    keeps them apart in every session. ``time_limit`` (seconds) is a safety net for one planning
    call; results are deterministic for a seed unless the limit cuts a search short. ``effort``
    scales the search budgets.
    """

    seed: int = 0
    avoid_same_club: bool = True
    avoid_same_country: bool = True
    club_sessions: int | None = None
    country_sessions: int | None = None
    time_limit: float = 25.0
    effort: float = 1.0


@dataclass(frozen=True)
class Tournament:
    """Everything the engine needs to know about a tournament.

    ``played``: sessions already played, each a list of tables (in table-number order) of player
    ids in seat order E, S, W, N. ``separate``: groups of players of whom no two may share a table.
    """

    players: Sequence[Player]
    played: Sequence[Session] = ()
    separate: Sequence[Sequence[PlayerId]] = ()
    settings: SeatingSettings = field(default_factory=SeatingSettings)


@dataclass
class QualityReport:
    """How good a schedule is, over the sessions played and planned.

    * ``repeated_meetings``: meetings of a pair beyond its first, summed over pairs.
    * ``max_pair_meetings``: the most times any two players share a table.
    * ``same_country_meetings`` / ``same_club_meetings``: pair-meetings of compatriots / club
      mates (each session counted), with the per-session breakdown.
    * ``separated_meetings``: meetings of players who were to be kept apart (teams included);
      ``teammate_meetings``: those of them between members of the same team.
    * ``winds``: per player, how often they sat East, South, West, North; ``wind_spread`` is the
      max minus the min of those four; ``max_wind_spread`` the largest spread.
    * ``same_country_least`` / ``same_club_least``: meetings of compatriots / club mates that no
      seating of these sessions with no more repeats than this one can avoid. A player meets three
      others a session; those beyond the number of other players from elsewhere are repeats or
      meetings of compatriots (32 players of four countries over 10 sessions: 96).
    * ``repeated_table_visits``: visits to a table number a player had already sat at (players
      with a fixed table are left out: they stay on purpose); ``fixed_table_violations``: seats
      of such players away from their table.
    """

    sessions: int
    players: int
    repeated_meetings: int
    max_pair_meetings: int
    repeated_pairs: list[tuple[PlayerId, PlayerId, int]]
    same_country_meetings: int
    same_club_meetings: int
    same_country_by_session: list[int]
    same_club_by_session: list[int]
    separated_meetings: int
    winds: dict[PlayerId, tuple[int, int, int, int]]
    wind_spread: dict[PlayerId, int]
    max_wind_spread: int
    repeated_table_visits: int
    fixed_table_violations: int
    teammate_meetings: int = 0
    same_country_least: int = 0
    same_club_least: int = 0

    def to_dict(self) -> dict[str, Any]:
        return {
            "sessions": self.sessions,
            "players": self.players,
            "repeated_meetings": self.repeated_meetings,
            "max_pair_meetings": self.max_pair_meetings,
            "repeated_pairs": [{"players": [a, b], "meetings": m} for a, b, m in self.repeated_pairs],
            "same_country_meetings": self.same_country_meetings,
            "same_club_meetings": self.same_club_meetings,
            "same_country_least": self.same_country_least,
            "same_club_least": self.same_club_least,
            "same_country_by_session": list(self.same_country_by_session),
            "same_club_by_session": list(self.same_club_by_session),
            "separated_meetings": self.separated_meetings,
            "teammate_meetings": self.teammate_meetings,
            "max_wind_spread": self.max_wind_spread,
            "winds": [
                {"player": p, **dict(zip(WINDS, counts, strict=True)), "spread": self.wind_spread[p]}
                for p, counts in self.winds.items()
            ],
            "repeated_table_visits": self.repeated_table_visits,
            "fixed_table_violations": self.fixed_table_violations,
        }


@dataclass
class SeatingPlan:
    """Planned sessions and the quality of the whole tournament with them.

    ``sessions[i]`` is session ``first_session + i`` (1-based); its tables are in table-number
    order and each lists four player ids in seat order E, S, W, N. ``substitutes`` names the
    substitutes seated to complete tables.
    """

    sessions: list[Session]
    quality: QualityReport
    first_session: int = 1
    substitutes: list[PlayerId] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {
            "first_session": self.first_session,
            "sessions": [[list(t) for t in s] for s in self.sessions],
            "substitutes": list(self.substitutes),
            "quality": self.quality.to_dict(),
        }
