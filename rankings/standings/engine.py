"""Tournament standings from per-seat session rows and penalties.

Pure Python: no Django import. The standings never replay hands: they add up the rows written
when a table result is confirmed (one :class:`SessionRow` per player per played session) and the
penalties that are not part of any row.

Two ranking methods:

- ``"table_points"`` (MCR under MERS): table points, then total score, then the tie-breaks the
  director orders in the tournament settings.
- ``"score"`` (riichi, Salamanca, classical): total score, then the tie-breaks.

A player disqualified from the tournament (MERS §4.4) is listed below everybody else with 0 table
points; the score is kept. Substitutes never get a place (MERS-R §4), except a substitute who plays from
the start and answered that his results count (ERGMT §3.9): he is ranked like a player. A player absent
from a session (a substitute played it) has no row for it (MERS-R §4.3: nothing for the session missed)
and is ranked with what he played. A withdrawn player is not ranked: he is listed apart, below the
ranking (``Standings.withdrawn``), in the same order, with the sessions he played; his ``rank`` there is
the place after every ranked player that the EMA results file gives him. Tied players (equal on every
key) share the best rank of their group: 1, 2, 2, 4.

Sums are exact (``Fraction``); :func:`printable` turns a value into the number printed in the
standings document.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Literal

from scoring.rules.base import EngineError, RuleError, Ruleset
from scoring.rules.text import gettext_noop

Number = int | Fraction
Method = Literal["table_points", "score"]
METHODS: tuple[str, ...] = ("table_points", "score")


def method_of(rules: Ruleset) -> Method:
    """The ranking method of a ruleset (``Ruleset.ranks_by``: MERS ranks by table points, the others by
    score)."""
    if rules.ranks_by not in METHODS:
        raise EngineError(f"no ranking method '{rules.ranks_by}' (the {rules.key} rules)")
    return rules.ranks_by  # type: ignore[return-value]


# -- input ------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class SessionRow:
    """One player's result in one session, as written when the table was confirmed.

    The number fields are those of ``scoring.rules.base.SeatResult``: ``final`` is the session value
    added to the standings' score and already includes ``transfers``, ``chombo`` and ``penalties``.
    """

    player: str
    session: int
    table: int | str
    seat_wind: str  # "E", "S", "W" or "N" at the start of the session
    opponents: tuple[str, ...]  # the other players at the table (substitutes included)
    game_score: Number  # the game score at the table (riichi: raw end points)
    table_points: Fraction | None  # MCR table points (None for rulesets without them)
    uma: Number | None  # riichi: uma plus oka share, in points (None elsewhere)
    transfers: Number  # in-game penalty transfers (false Hu); part of the game
    chombo: Number  # riichi chombo deduction (0 or negative)
    penalties: Number  # offender-only deductions made at this table (0 or negative)
    final: Number  # the session value added to the score


@dataclass(frozen=True)
class PlayerInfo:
    player: str
    name: str
    substitute: bool = False  # sits in for others; never gets a place
    disqualified: bool = False  # disqualified from the tournament (MERS §4.4)
    withdrawn_from: int | None = None  # first session the player no longer plays: listed apart
    counted_substitute: bool = False  # a substitute from the start whose results count (ERGMT §3.9)


@dataclass(frozen=True)
class TablePointsPenalty:
    """An MCR ``table_points`` penalty: deducts table points, does not change the score."""

    player: str
    session: int | None
    points: Number  # 0 or negative


@dataclass(frozen=True)
class ScorePenalty:
    """An offender-only deduction that no :class:`SessionRow` holds.

    For example a late arrival for a session the player did not play, or a referee decision
    recorded after the table was confirmed. It must not repeat a deduction already in a row.
    """

    player: str
    session: int | None
    points: Number  # 0 or negative


# -- output -----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class StandingRow:
    rank: int
    player: str
    name: str
    table_points: Fraction | None  # None when the ranking is by score
    score: Fraction
    penalties: Fraction  # offender-only deductions (chombo included), already in ``score``
    sessions: int  # sessions played
    disqualified: bool
    breakdown: tuple[SessionRow, ...]  # the player's session rows, by session
    table_points_penalty: Fraction = Fraction(0)  # table points deducted by penalties (MCR)
    withdrawn_from: int | None = None
    counted_substitute: bool = False  # a substitute ranked because he asked that his results count
    # The value of each tie-break of the tournament settings, in their order. A tie-break that
    # compares tied players among themselves (head_to_head) has a value only where it was applied.
    tiebreaks: tuple[tuple[str, Any], ...] = ()

    def tiebreak(self, key: str) -> Any:
        for name, value in self.tiebreaks:
            if name == key:
                return value
        raise KeyError(key)

    def as_document(self) -> dict[str, Any]:
        doc = {
            "rank": self.rank,
            "player": self.player,
            "name": self.name,
            "table_points": None if self.table_points is None else printable(self.table_points),
            "score": printable(self.score),
            "penalties": printable(self.penalties),
            "sessions": self.sessions,
            "disqualified": self.disqualified,
        }
        if self.counted_substitute:
            doc["substitute"] = True
        if self.withdrawn_from is not None:
            doc["rank"] = None  # listed apart: not ranked
            doc["withdrawn_from"] = self.withdrawn_from
        return doc


@dataclass(frozen=True)
class Standings:
    method: Method
    rows: tuple[StandingRow, ...]
    complete_sessions: int = 0
    tiebreaks: tuple[str, ...] = ()
    teams: tuple[Any, ...] = ()  # TeamStanding rows (rankings.standings.teams), when there are teams
    # Withdrawn players, listed apart below the ranking in the ranking's order; each ``rank`` is the
    # place after every ranked player (the EMA results file's place), tied players sharing it.
    withdrawn: tuple[StandingRow, ...] = ()

    def row(self, player: str) -> StandingRow:
        for row in (*self.rows, *self.withdrawn):
            if row.player == player:
                return row
        raise KeyError(player)

    @property
    def listed(self) -> tuple[StandingRow, ...]:
        """Every listed player in order: the ranking, then the withdrawn players (the EMA results file)."""
        return (*self.rows, *self.withdrawn)

    def to_document(self, tournament_slug: str, ruleset_key: str) -> dict[str, Any]:
        """The standings document of the tournament archive format (``manage.py standings --json``)."""
        return {
            "tournament": tournament_slug,
            "ruleset": ruleset_key,
            "complete_sessions": self.complete_sessions,
            "standings": [row.as_document() for row in self.rows],
            **({"withdrawn": [row.as_document() for row in self.withdrawn]} if self.withdrawn else {}),
            **({"teams": [team.as_document(printable) for team in self.teams]} if self.teams else {}),
        }


def round_half_away(value: Number, places: int = 2) -> Fraction:
    """``value`` rounded to ``places`` decimals, halves away from zero (2.335 → 2.34, −2.335 → −2.34)."""
    scale = 10**places
    scaled = abs(Fraction(value)) * scale
    whole = int(scaled + Fraction(1, 2))  # floor of a non-negative value
    return Fraction(whole if value >= 0 else -whole, scale)


def printable(value: Number) -> int | float:
    """A number as the standings document prints it.

    Whole values are ``int``; others are a ``float`` rounded to 2 decimals (halves away from zero):
    7/3 → 2.33, 23/2 → 11.5, −10 → −10.
    """
    rounded = round_half_away(value, 2)
    if rounded.denominator == 1:
        return int(rounded)
    return float(rounded)


# -- tie-breaks -------------------------------------------------------------------------------------


@dataclass
class _Tally:
    info: PlayerInfo
    rows: list[SessionRow] = field(default_factory=list)
    table_points: Fraction = Fraction(0)  # after table points penalties; 0 if disqualified
    table_points_penalty: Fraction = Fraction(0)
    score: Fraction = Fraction(0)
    penalties: Fraction = Fraction(0)
    first_places: int = 0

    @property
    def player(self) -> str:
        return self.info.player


@dataclass(frozen=True)
class _Context:
    method: Method


@dataclass(frozen=True)
class TieBreak:
    """One key of the ranking. ``value`` gives a comparable value; higher ranks first.

    ``among_tied`` keys depend on which players are tied (they get the tied group as ``members``).
    """

    key: str
    label: str
    description: str
    value: Callable[[_Tally, frozenset[str], _Context], Any]
    among_tied: bool = False


def _session_value(row: SessionRow, method: Method) -> Fraction:
    if method == "table_points":
        return Fraction(row.table_points or 0)
    return Fraction(row.final)


def _placing(row: SessionRow, method: Method) -> Number:
    """What places a player at the table: table points (MCR), else the game score (only compared)."""
    return (row.table_points or 0) if method == "table_points" else row.game_score


def _first_places(tally: _Tally, members: frozenset[str], ctx: _Context) -> int:
    return tally.first_places


def _best_session(tally: _Tally, members: frozenset[str], ctx: _Context) -> tuple[Any, ...]:
    if not tally.rows:
        return (False,)
    if ctx.method == "table_points":
        best = max((Fraction(r.table_points or 0), Fraction(r.final)) for r in tally.rows)
    else:
        best = (max(Fraction(r.final) for r in tally.rows),)
    return (True, *best)


def _head_to_head(tally: _Tally, members: frozenset[str], ctx: _Context) -> Fraction:
    others = members - {tally.player}
    return sum(
        (_session_value(r, ctx.method) for r in tally.rows if others.intersection(r.opponents)),
        Fraction(0),
    )


def _fewer_penalties(tally: _Tally, members: frozenset[str], ctx: _Context) -> tuple[Fraction, ...]:
    if ctx.method == "table_points":
        return (tally.table_points_penalty, tally.penalties)
    return (tally.penalties,)


TIEBREAKS: Mapping[str, TieBreak] = {
    t.key: t
    for t in (
        TieBreak(
            "first_places",
            "First places",
            "More sessions finished first at the table (shared firsts count).",
            _first_places,
        ),
        TieBreak(
            "best_session",
            "Best session",
            "The better best single session: table points, then score (score only without table points).",
            _best_session,
        ),
        TieBreak(
            "head_to_head",
            "Head to head",
            "Table points (score without table points) won in the sessions where a player met "
            "another of the tied players; compares only the tied players.",
            _head_to_head,
            among_tied=True,
        ),
        TieBreak(
            "fewer_penalties",
            "Fewer penalties",
            "Fewer penalty points: table points deducted first, then points deducted from the score.",
            _fewer_penalties,
        ),
    )
}

_PRIMARY: Mapping[str, TieBreak] = {
    "eligible": TieBreak("eligible", "", "", lambda t, m, c: not t.info.disqualified),
    "table_points": TieBreak("table_points", "Table points", "", lambda t, m, c: t.table_points),
    "score": TieBreak("score", "Score", "", lambda t, m, c: t.score),
}


def check_tiebreaks(keys: Sequence[str]) -> tuple[str, ...]:
    """The tie-break keys of the tournament settings; an unknown key is a :class:`RuleError`."""
    if isinstance(keys, str):
        raise RuleError(gettext_noop("tie-breaks must be a list of keys"), "tiebreaks")
    for i, key in enumerate(keys):
        if key not in TIEBREAKS:
            known = ", ".join(TIEBREAKS)
            raise RuleError(
                gettext_noop(
                    "unknown tie-break '%(_key)s' (known tie-breaks: %(_known)s)", _key=key, _known=known
                ),
                f"tiebreaks[{i}]",
            )
    return tuple(keys)


# -- computation ------------------------------------------------------------------------------------


def compute_standings(
    *,
    players: Iterable[PlayerInfo],
    rows: Iterable[SessionRow],
    method: Method,
    table_points_penalties: Iterable[TablePointsPenalty] = (),
    score_penalties: Iterable[ScorePenalty] = (),
    tiebreaks: Sequence[str] = (),
    complete_sessions: int = 0,
) -> Standings:
    """The standings of a tournament.

    players: every registered player, substitutes included (they are left out of the standings
        but their rows count for their opponents' first places).
    rows: one row per player per played session.
    tiebreaks: keys of :data:`TIEBREAKS` in the order the director set them.
    complete_sessions: passed through to the document.
    """
    if method not in METHODS:
        raise EngineError(f"unknown ranking method '{method}'")
    order = check_tiebreaks(tiebreaks)
    ctx = _Context(method)
    tallies = _tallies(players)
    _count_rows(tallies, rows, method)
    _apply_penalties(tallies, table_points_penalties, score_penalties, method)
    listed = [t for t in tallies.values() if not t.info.substitute or t.info.counted_substitute]
    for tally in listed:
        tally.rows.sort(key=lambda r: r.session)
        if tally.info.disqualified:
            tally.table_points = Fraction(0)
    primary = [_PRIMARY["eligible"]]
    if method == "table_points":
        primary.append(_PRIMARY["table_points"])
    primary.append(_PRIMARY["score"])
    keys = [*primary, *(TIEBREAKS[k] for k in order)]
    shown = _shown_tiebreaks(listed, order, ctx)
    ranked = [t for t in listed if t.info.withdrawn_from is None]
    apart = [t for t in listed if t.info.withdrawn_from is not None]
    result = _ranked(_split(ranked, keys, len(primary), ctx, shown), method, order, shown, start=0)
    withdrawn = _ranked(
        _split(apart, keys, len(primary), ctx, shown), method, order, shown, start=len(result)
    )
    return Standings(
        method=method,
        rows=tuple(result),
        complete_sessions=complete_sessions,
        tiebreaks=order,
        withdrawn=tuple(withdrawn),
    )


def _tallies(players: Iterable[PlayerInfo]) -> dict[str, _Tally]:
    """An empty tally for every player, each listed once."""
    tallies: dict[str, _Tally] = {}
    for info in players:
        if info.player in tallies:
            raise EngineError(f"player '{info.player}' is listed twice")
        tallies[info.player] = _Tally(info)
    return tallies


def _count_rows(tallies: dict[str, _Tally], rows: Iterable[SessionRow], method: Method) -> None:
    """Add every session row to its player's tally, then count the first places of each table."""
    tables: dict[tuple[int, int | str], list[SessionRow]] = defaultdict(list)
    seen: set[tuple[str, int]] = set()
    sums: dict[str, list] = {}  # score, penalties, table points: numerators added up by denominator
    for row in rows:
        tally = _tally_of(tallies, row.player, "session row")
        if (row.player, row.session) in seen:
            raise EngineError(f"player '{row.player}' has two rows for session {row.session}")
        seen.add((row.player, row.session))
        if method == "table_points" and row.table_points is None:
            raise EngineError(f"row of '{row.player}' in session {row.session} has no table points")
        tally.rows.append(row)
        total = sums.setdefault(row.player, [{}, {}, {}])
        _add(total[0], row.final)
        _add(total[1], row.chombo)
        _add(total[1], row.penalties)
        _add(total[2], row.table_points or 0)
        tables[(row.session, row.table)].append(row)
    for player, (score, penalties, table_points) in sums.items():
        tally = tallies[player]
        tally.score += _sum(score)
        tally.penalties += _sum(penalties)
        tally.table_points += _sum(table_points)
    for table_rows in tables.values():
        table_rows = [r for r in table_rows if r.opponents]  # a missed session's fixed row played nobody
        if not table_rows:
            continue
        placings = [_placing(r, method) for r in table_rows]
        best = max(placings)
        for r, placing in zip(table_rows, placings, strict=True):
            if placing == best:
                tallies[r.player].first_places += 1


def _add(parts: dict[int, int], value) -> None:
    """Add ``value`` to a sum kept as numerators by denominator (whole numbers: quick, and exact)."""
    if type(value) is int:
        parts[1] = parts.get(1, 0) + value
        return
    value = value if type(value) is Fraction else Fraction(value)
    parts[value.denominator] = parts.get(value.denominator, 0) + value.numerator


def _sum(parts: dict[int, int]) -> Fraction:
    return sum((Fraction(numerator, denominator) for denominator, numerator in parts.items()), Fraction(0))


def _apply_penalties(
    tallies: dict[str, _Tally],
    table_points_penalties: Iterable[TablePointsPenalty],
    score_penalties: Iterable[ScorePenalty],
    method: Method,
) -> None:
    for penalty in table_points_penalties:
        if method != "table_points":
            raise RuleError(
                gettext_noop("table points penalties exist only for rulesets with table points"), "penalties"
            )
        tally = _tally_of(tallies, penalty.player, "table points penalty")
        tally.table_points_penalty += Fraction(penalty.points)
        tally.table_points += Fraction(penalty.points)
    for penalty in score_penalties:
        tally = _tally_of(tallies, penalty.player, "penalty")
        tally.score += Fraction(penalty.points)
        tally.penalties += Fraction(penalty.points)


def _shown_tiebreaks(listed: list[_Tally], order: Sequence[str], ctx: _Context) -> dict[str, dict[int, Any]]:
    """The value of every tie-break computed over everybody (not only among the tied), by player."""
    shown: dict[str, dict[int, Any]] = defaultdict(dict)
    for position, key in enumerate(order):
        if not TIEBREAKS[key].among_tied:
            everybody = frozenset(t.player for t in listed)
            for tally in listed:
                shown[tally.player][position] = TIEBREAKS[key].value(tally, everybody, ctx)
    return shown


def _ranked(
    groups: list[list[_Tally]],
    method: Method,
    order: Sequence[str],
    shown: dict[str, dict[int, Any]],
    *,
    start: int,
) -> list[StandingRow]:
    """The rows of ``groups`` in order, ranks counted from ``start`` + 1 (tied players share one)."""
    result: list[StandingRow] = []
    for group in groups:
        rank = start + len(result) + 1
        for tally in sorted(group, key=lambda t: (t.info.name.casefold(), t.info.name, t.player)):
            result.append(
                StandingRow(
                    rank=rank,
                    player=tally.player,
                    name=tally.info.name,
                    table_points=tally.table_points if method == "table_points" else None,
                    score=tally.score,
                    penalties=tally.penalties,
                    sessions=len({r.session for r in tally.rows}),
                    disqualified=tally.info.disqualified,
                    breakdown=tuple(tally.rows),
                    table_points_penalty=tally.table_points_penalty,
                    withdrawn_from=tally.info.withdrawn_from,
                    counted_substitute=tally.info.counted_substitute,
                    tiebreaks=tuple((k, shown[tally.player].get(i)) for i, k in enumerate(order)),
                )
            )
    return result


def _tally_of(tallies: Mapping[str, _Tally], player: str, what: str) -> _Tally:
    try:
        return tallies[player]
    except KeyError:
        raise EngineError(f"{what} for unknown player '{player}'") from None


def _split(
    group: list[_Tally],
    keys: Sequence[TieBreak],
    primary: int,
    ctx: _Context,
    shown: dict[str, dict[int, Any]],
    depth: int = 0,
) -> list[list[_Tally]]:
    """Order ``group`` by ``keys[depth:]``; players still equal on every key form one group."""
    if depth == len(keys) or len(group) <= 1:
        return [group]
    key = keys[depth]
    members = frozenset(t.player for t in group)
    values = {t.player: key.value(t, members, ctx) for t in group}
    if key.among_tied:
        for tally in group:
            shown[tally.player][depth - primary] = values[tally.player]
    by_value: dict[Any, list[_Tally]] = defaultdict(list)
    for tally in group:
        by_value[values[tally.player]].append(tally)
    groups: list[list[_Tally]] = []
    for value in sorted(by_value, reverse=True):
        groups.extend(_split(by_value[value], keys, primary, ctx, shown, depth + 1))
    return groups
