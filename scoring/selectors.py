"""Reads for the result-entry pages: a table's state hand by hand, its history, a session's tables, and the
penalties shown beside them. Everything here only reads; the writes are in ``scoring.services`` and
``penalties.services``.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import functools
from collections import defaultdict
from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from django.db.models import Count, Prefetch, Q
from django.http import Http404
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from penalties.kinds import KINDS, Replaced, kind_of
from penalties.models import Penalty
from penalties.selectors import replacements
from penalties.tables import TableEntry as PenaltyTableEntry
from scoring import policy
from scoring.models import Hand, RefereeCall, SeatSummary, TableResult
from scoring.presenters import after_hand, describe_hand, round_label
from scoring.rules.base import RuleError, Ruleset
from scoring.services import facts_of, result_hands, table_outcome
from tournaments import pagecache
from tournaments.fields import plain_number
from tournaments.lifecycle import results_closed
from tournaments.models import WIND_LETTERS, Player, Registration, Seat, Session, Table, Tournament
from tournaments.permissions import Actor
from tournaments.prepared import Prepared
from tournaments.presenters import (
    MINUS,
    WIND_NAMES,
    SeatLine,
    TableView,
    num,
    short_name,
    signed,
    wind_letter,
)
from tournaments.selectors import visible_through

# A table page reads its table with the session, the tournament, the session's clock and the result at once.
TABLE_PAGE_RELATED = ("session__tournament", "session__clock", "result")


def _seats_with_table(**where: Any):
    return (
        Seat.objects.select_related(
            "table", *(f"table__{name}" for name in TABLE_PAGE_RELATED), "registration__player"
        )
        .filter(**{f"table__{name}": value for name, value in where.items()})
        .order_by("position")
    )


# The two ways a table page finds its table, each compiled once (``tournaments.prepared``).
_SEATS_BY_KEY = Prepared(lambda private_key: _seats_with_table(private_key=private_key), private_key=str)
_SEATS_BY_PAGE = Prepared(
    lambda slug, session, number: _seats_with_table(
        session__tournament__slug=slug, session__number=session, number=number
    ),
    slug=str,
    session=int,
    number=int,
)


def _table_with_seats(seats: list[Seat], **where: Any) -> Table:
    """The table (with its session, tournament, clock and result) and its four seats with their players,
    in one read; the seated registrations are kept on the table (``table_seats``, ``table_seat_names``).
    A table not seated with four players is read alone."""
    if [s.position for s in seats] == [0, 1, 2, 3]:
        table = seats[0].table
        table._registrations = [s.registration for s in seats]
        table._seat_rows = seats  # the seats as read, kept while the registrations are these (table_seats)
        return table
    return get_object_or_404(Table.objects.select_related(*TABLE_PAGE_RELATED), **where)


# The API's table: with its session and tournament only (its result is read by the write that locks it).
_SEATS_BY_PK = Prepared(
    lambda pk: (
        Seat.objects.select_related("table__session__tournament", "registration__player")
        .filter(table_id=pk)
        .order_by("position")
    ),
    pk=int,
)


def table_for_api(*, pk: Any) -> Table:
    """The table (with its session and tournament) and its four seats with their players, in one read;
    a table not seated with four players is read with its seats as they are."""
    seats = _SEATS_BY_PK(pk=int(pk)) if str(pk).isdigit() else []
    if [s.position for s in seats] == [0, 1, 2, 3]:
        table = seats[0].table
        table._registrations = [s.registration for s in seats]
        return table
    with_players = Prefetch("seats", queryset=Seat.objects.select_related("registration__player"))
    return get_object_or_404(
        Table.objects.select_related("session__tournament").prefetch_related(with_players), pk=pk
    )


def table_for_page(*, slug: str, session_number: int, table_number: int) -> Table:
    return _table_with_seats(
        _SEATS_BY_PAGE(slug=slug, session=session_number, number=table_number),
        session__tournament__slug=slug,
        session__number=session_number,
        number=table_number,
    )


def table_for_key(*, key: str) -> Table:
    return _table_with_seats(_SEATS_BY_KEY(private_key=key), private_key=key)


def tournament_slug_of_key(*, key: str) -> str | None:
    """The slug of the tournament of the table whose private link is ``key`` (None for no table): read once
    per process and kept (a table never changes tournament), so that a page asked again costs no query."""
    memo = f"table-key:{key}"
    slug = pagecache.local.get(memo)
    if slug is None:
        slug = (
            Table.objects.filter(private_key=key).values_list("session__tournament__slug", flat=True).first()
            if key
            else None
        )
        if slug is not None:
            pagecache.local.set(memo, slug, 3600)
    return slug


def result_hidden_from(*, user, table: Table) -> bool:
    """The table's result is hidden from ``user``, a scorer of the tournament: its session is one of
    the last ones hidden until the reveal, the result is confirmed, and the user neither runs the hidden
    sessions (directors and referees do) nor wrote this result. A table still being entered stays open
    to the tournament's scorers (it is theirs to finish); a confirmed one is everyone else's result."""
    last = visible_through(tournament=table.session.tournament, user=user)
    if last is None or table.session.number <= last:
        return False
    result = table_result_or_none(table)
    if result is None or result.status != TableResult.Status.CONFIRMED:
        return False
    if user is None or not user.is_authenticated:
        return True
    wrote = result.submitted_by_id == user.pk or result.history.filter(history_user=user).exists()
    return not wrote


def hidden_result_message(table: Table) -> str:
    return _(
        "The results of session %(number)s are hidden until the director reveals the standings at the "
        "prize-giving."
    ) % {"number": table.session.number}


def session_for_page(*, slug: str, session_number: int) -> Session:
    return get_object_or_404(
        Session.objects.select_related("tournament"), tournament__slug=slug, number=session_number
    )


def table_result_or_none(table: Table) -> TableResult | None:
    """The table's result: the one read with the table when it was (``TABLE_PAGE_RELATED``)."""
    if Table.result.is_cached(table):
        return getattr(table, "result", None)
    return TableResult.objects.filter(table=table).first()


def table_refresh(table: Table) -> None:
    """Forget what was read with ``table`` (its result, its seats): the next read sees the database."""
    if Table.result.is_cached(table):
        Table.result.related.delete_cached_value(table)
    table.__dict__.pop("_registrations", None)
    table.__dict__.pop("_seat_rows", None)


# -- a table's state -----------------------------------------------------------------------------------


@dataclass
class SeatView:
    position: int
    wind: str  # E, S, W, N
    wind_name: str
    registration: Registration
    name: str
    short: str
    score: str = "0"
    dealer: bool = False
    replaced_by: Registration | None = None


@dataclass
class HandRow:
    """One hand of the table as the page and the API show it. Its words are written when first read: an
    answer that draws only the newest hand writes only that hand's."""

    number: int
    replayed: bool
    data: dict
    valuation: dict | None  # the check of the hand's tiles (scoring.tiles)
    step: Any  # the engine's state after the hand (numbers, for the API)
    rules: Ruleset
    seats: list
    before: tuple[int | None, str | None, int]  # the dealer, the round wind and the counters before it

    @functools.cached_property
    def label(self) -> str:
        """Where in the game the hand was played ("East 2, 1 counter")."""
        return round_label(self.rules, self.seats, *self.before)

    @functools.cached_property
    def description(self) -> str:
        return describe_hand(self.rules, self.data, [s.short for s in self.seats])

    @functools.cached_property
    def deltas(self) -> list[str]:
        return [signed(d) for d in self.step.deltas]

    @functools.cached_property
    def scores(self) -> list[str]:
        return [num(s) for s in self.step.scores]

    @functools.cached_property
    def after(self) -> str:
        """Counters and sticks left after the hand."""
        return after_hand(self.rules, self.step.honba, self.step.sticks)

    @property
    def cells(self) -> list[tuple[str, str]]:
        return list(zip(self.deltas, self.scores, strict=True))


@dataclass
class OutcomeRow:
    seat: SeatView
    credited: str
    game_score: str
    table_points: str
    uma: str
    transfers: str
    chombo: str
    penalties: str
    final: str
    excluded: bool
    cells: list[str] = field(default_factory=list)


OUTCOME_LABELS = {
    "game_score": (gettext_lazy("Game"), gettext_lazy("Game score at the table")),
    "uma": (gettext_lazy("Uma"), gettext_lazy("Uma and oka")),
    "transfers": (gettext_lazy("Hu"), gettext_lazy("False Hu transfers")),
    "chombo": (gettext_lazy("Ch."), gettext_lazy("Chombo")),
    "penalties": (gettext_lazy("Pen."), gettext_lazy("Penalties")),
    "final": (gettext_lazy("Score"), gettext_lazy("Session score")),
    "table_points": (gettext_lazy("TP"), gettext_lazy("Table points")),
}


@dataclass
class TableState:
    table: Table
    session: Session
    tournament: Tournament
    rules: Ruleset
    result: TableResult | None
    seats: list[SeatView]
    hands: list[HandRow] = field(default_factory=list)
    status: str = TableResult.Status.DRAFT
    status_label: str = ""
    version: int = 1
    mode: str = TableResult.Mode.HANDS
    totals: list[str] | None = None
    next_hand: int = 1
    next_label: str = ""
    dealer: int | None = None
    round_wind: str | None = "E"
    honba: int = 0
    sticks: int = 0
    game_over: bool = False
    outcome: list[OutcomeRow] | None = None
    outcome_is_final: bool = False
    replay_error: str = ""
    has_entries: bool = False
    player_confirmations: list[str] = field(default_factory=list)
    actions: frozenset[str] = frozenset()  # what the visitor may do now (scoring.policy)
    closed: str = ""  # why nothing may change now (a finished session or tournament), "" when open
    penalties: list[Penalty] = field(default_factory=list)  # of the table's players in its session
    hand_times: list[tuple[int, Any]] = field(default_factory=list)  # (number, entered at)
    game: Any = None  # the engine's game, replayed once (None when it could not be)
    summary_rows: list[SeatSummary] = field(default_factory=list)  # a confirmed table's stored rows

    def can(self, action: str) -> bool:
        return action in self.actions

    @property
    def confirmed(self) -> bool:
        return self.status == TableResult.Status.CONFIRMED

    @property
    def seat_names(self) -> list[str]:
        return [s.short for s in self.seats]

    @property
    def hands_newest_first(self) -> list[HandRow]:
        return list(reversed(self.hands))

    outcome_header: list[tuple[str, str]] = field(default_factory=list)

    def set_outcome(self, rows: list[OutcomeRow] | None, final: bool) -> None:
        """The session result rows, with only the columns that say something at this table."""
        self.outcome, self.outcome_is_final = rows, final
        if not rows:
            return
        raw = self.rules.raw_scores  # riichi shows points held; the others gains and losses
        optional = {"transfers", "chombo", "penalties"}
        columns = [
            c
            for c in self.rules.outcome_columns
            if c not in optional or any(getattr(r, c) not in ("0", "—") for r in rows)
        ]
        if not raw and not optional & set(columns):
            columns.remove("game_score")  # nothing between the game score and the session score
        self.outcome_header = [(str(OUTCOME_LABELS[c][0]), str(OUTCOME_LABELS[c][1])) for c in columns]
        for row in rows:
            if not raw and row.game_score not in ("0", "—") and not row.game_score.startswith(MINUS):
                row.game_score = (
                    "+" + row.game_score
                )  # game points are gains and losses; riichi shows raw points
            row.cells = [getattr(row, c) for c in columns]


def table_seats(table: Table, active: list[Penalty] | None = None) -> list[SeatView]:
    """The table's seats by wind, with who replaced whom (``active``: the session's active penalties,
    when already read). The seated registrations are kept on ``table`` for the services."""
    read = getattr(table, "_registrations", None)  # the four seats, already read for this table
    rows = getattr(table, "_seat_rows", None)
    if read is not None and rows is not None and [s.registration for s in rows] == read:
        seats = rows
    elif read is not None:
        seats = [Seat(table=table, position=i, registration=r) for i, r in enumerate(read)]
    elif "seats" in getattr(table, "_prefetched_objects_cache", {}):  # read with the table
        seats = sorted(table.seats.all(), key=lambda s: s.position)
    else:
        seats = list(
            Seat.objects.filter(table=table).select_related("registration__player").order_by("position")
        )
    if [s.position for s in seats] == [0, 1, 2, 3]:
        table._registrations = [s.registration for s in seats]
    seated = {s.registration_id for s in seats}
    if active is None:
        active = list(
            Penalty.objects.filter(
                session_id=table.session_id,
                kind=Replaced.value,
                cancelled_at__isnull=True,
                registration_id__in=seated,
            ).select_related("substitute__player")
        )
    replaced = {
        p.registration_id: p.substitute
        for p in active
        if kind_of(p.kind).replaces and p.registration_id in seated
    }
    return [
        SeatView(
            position=s.position,
            wind=WIND_LETTERS[s.position],
            wind_name=str(WIND_NAMES[WIND_LETTERS[s.position]]),
            registration=s.registration,
            name=s.registration.player.full_name,
            short=short_name(s.registration.player),
            replaced_by=replaced.get(s.registration_id),
        )
        for s in seats
    ]


# of the accounts that recorded or cancelled a penalty, the page shows the name only
_ACCOUNT_UNSHOWN = tuple(
    f"{account}__{name}"
    for account in ("recorded_by", "cancelled_by")
    for name in (
        "password",
        "last_login",
        "is_superuser",
        "first_name",
        "last_name",
        "email",
        "is_staff",
        "is_active",
        "date_joined",
    )
)

_PENALTIES_OF_TABLE = Prepared(
    lambda session_id, table_id: (
        Penalty.objects.select_related(
            "registration__player", "substitute__player", "session", "table", "recorded_by", "cancelled_by"
        )
        .defer(*_ACCOUNT_UNSHOWN)
        .filter(
            Q(table_id=table_id)
            | Q(session_id=session_id)
            & (
                Q(registration_id__in=Seat.objects.filter(table_id=table_id).values("registration_id"))
                | Q(
                    registration_id__in=Penalty.objects.filter(
                        session_id=session_id, substitute_id__isnull=False
                    ).values("substitute_id")
                )
            )
        )
        .order_by("sequence")
    ),
    session_id=int,
    table_id=int,
)


def _table_penalties(table: Table) -> list[Penalty]:
    """The penalties that can touch the table, in order, cancelled ones too: those recorded at it, and
    those of its session given to a player seated at it or to a substitute (who may have taken a seat
    here): not the other tables' players', so that the read does not grow with the session. One read per
    table object for the seats, the session result, the page's list and the history (a write of hands,
    totals or a confirmation changes none)."""
    cached = getattr(table, "_penalties_read", None)
    if cached is not None:
        return cached
    table._penalties_read = _PENALTIES_OF_TABLE(session_id=table.session_id, table_id=table.pk)
    return table._penalties_read


def _seats_read(table: Table, active: list[Penalty]) -> list[SeatView]:
    """The table's seats, read once per table object."""
    cached = getattr(table, "_seats_read", None)
    if cached is None:
        cached = table._seats_read = table_seats(table, active)
    return cached


def table_seat_keys(table: Table) -> tuple[list[str], dict[str, str]]:
    """The players' keys by wind, and the substitutes' keys standing for the players they replaced (what
    the API reads hands with); the same reads as the table's state, which reuses them."""
    every_penalty = _table_penalties(table)
    active = [p for p in every_penalty if p.session_id == table.session_id and p.cancelled_at is None]
    seats = _seats_read(table, active)
    if len(seats) != 4:
        raise RuleError(f"table {table.number} is not seated with four players", "table")
    aliases = {s.replaced_by.key: s.registration.key for s in seats if s.replaced_by is not None}
    return [s.registration.key for s in seats], aliases


def table_seat_names(table: Table) -> list[str]:
    """The short names of the table's players by wind: what a posted hand form needs (one read; the
    seated registrations are kept on ``table`` for the service)."""
    read = getattr(table, "_registrations", None)  # the four seats, read with the table
    if read is not None:
        return [short_name(r.player) for r in read]
    seats = list(Seat.objects.filter(table=table).select_related("registration__player").order_by("position"))
    if [s.position for s in seats] == [0, 1, 2, 3]:
        table._registrations = [s.registration for s in seats]
    return [short_name(s.registration.player) for s in seats]


def table_state(*, table: Table, actor: Actor | None = None, result: TableResult | None = None) -> TableState:
    """Everything the table page and the API show of a table: players by wind, each hand with the running
    scores, the state of the next hand (round, dealer, counters, sticks), the session result so far and
    the actions ``actor`` may take (``scoring.policy``).

    One read each of the seats, the penalties, the result (none when it came with the table, or when
    ``result`` is the one a write just stored) and its hands (none when that write read them); the game
    is replayed once (not at all when the write replayed it)."""
    tournament = table.session.tournament
    rules = tournament.get_rules()
    every_penalty = _table_penalties(table)
    active = [p for p in every_penalty if p.session_id == table.session_id and p.cancelled_at is None]
    seats = _seats_read(table, active)
    result = result if result is not None else table_result_or_none(table)
    state = _new_state(table, rules, result, seats, every_penalty)
    referee = bool(actor is not None and actor.is_referee)
    if len(seats) != 4:
        return _unseated(state, result, referee)
    _take_result(state, result)
    hands = _hands_of(result)
    state.hand_times = [(h.number, h.created_at) for h in hands]
    state.has_entries = bool(hands) or bool(result and result.scores is not None)
    scores = _replay(state, rules, result, hands, seats)
    for seat, score in zip(seats, scores, strict=True):
        seat.score = num(score)
        seat.dealer = state.dealer == seat.position and not state.game_over
    _set_actions(state, result, len(hands), referee)
    if result is not None and state.has_entries and not state.replay_error:
        outcome = functools.partial(
            table_outcome,
            hands=hands,
            registrations=[s.registration for s in seats],
            penalties=active,
            game=state.game,
            rules=rules,
        )
        state.set_outcome(*_outcome(result, seats, outcome, state.summary_rows))
    return state


def _new_state(
    table: Table, rules: Ruleset, result: TableResult | None, seats: list, every_penalty: list
) -> TableState:
    """The table's state before its game is replayed: the penalties shown are the table's own and those
    of its players in its session."""
    seated = {s.registration.pk for s in seats}
    return TableState(
        table=table,
        session=table.session,
        tournament=table.session.tournament,
        rules=rules,
        result=result,
        seats=seats,
        status_label=str(TableResult.Status.DRAFT.label),
        penalties=[
            p
            for p in every_penalty
            if p.table_id == table.pk or (p.session_id == table.session_id and p.registration_id in seated)
        ],
    )


def _unseated(state: TableState, result: TableResult | None, referee: bool) -> TableState:
    """A table without four players: nothing to replay, only what the policy allows then."""
    state.replay_error = _("This table is not seated with four players.")
    facts = facts_of(result, 0) if result is not None else None
    state.actions = policy.allowed_actions(
        dataclasses.replace(facts or policy.TableFacts(), replay_error=True), referee=referee
    )
    return state


def _take_result(state: TableState, result: TableResult | None) -> None:
    if result is not None:
        state.status = result.status
        state.status_label = result.get_status_display()
        state.version = result.version
        state.mode = result.mode
        state.player_confirmations = list(result.player_confirmations or [])


def _hands_of(result: TableResult | None) -> list[Hand]:
    """The result's hands: those a write just read, or one read of them."""
    hands: list[Hand] | None = getattr(result, "read_hands", None)
    if hands is None:
        hands = result_hands(result) if result is not None and result.pk else []
    return hands


def _replay(
    state: TableState, rules: Ruleset, result: TableResult | None, hands: list[Hand], seats: list
) -> list[Fraction]:
    """Replay the game into ``state`` (its rows, the next hand, the game): the seats' scores after it;
    the starting scores, with the engine's refusal kept, when it cannot be replayed."""
    try:
        if result is not None and result.mode == TableResult.Mode.TOTALS and result.scores is not None:
            return _replay_totals(state, rules, result)
        return _replay_hands(state, rules, result, hands, seats)
    except RuleError as exc:
        state.replay_error = str(exc)
        return [Fraction(s) for s in rules.start_scores()]


def _replay_totals(state: TableState, rules: Ruleset, result: TableResult) -> list[Fraction]:
    game = rules.game_from_totals(
        [_number(s) for s in result.scores], imbalance_reason=result.imbalance_reason
    )
    state.totals = [num(s) for s in result.scores]
    state.game_over = True
    state.game = game
    return list(game.scores)


def _replay_hands(
    state: TableState, rules: Ruleset, result: TableResult | None, hands: list[Hand], seats: list
) -> list[Fraction]:
    game = getattr(result, "read_game", None) or rules.play_game([h.data for h in hands])
    dealer, wind, honba = 0, "E", 0
    for hand, step in zip(hands, game.steps, strict=True):
        state.hands.append(
            HandRow(
                number=hand.number,
                replayed=step.replayed,
                data=hand.data,
                valuation=hand.valuation,
                step=step,
                rules=rules,
                seats=seats,
                before=(dealer, wind, honba),
            )
        )
        dealer, wind, honba = step.dealer, step.round_wind, step.honba
        state.sticks = step.sticks
    state.honba = honba
    state.dealer = dealer if rules.shows_dealer else None
    state.round_wind = wind
    state.game_over = wind is None
    state.next_hand = len(hands) + 1
    state.next_label = round_label(rules, seats, dealer, wind, honba)
    state.game = game
    return list(game.steps[-1].scores) if game.steps else [Fraction(s) for s in rules.start_scores()]


def _set_actions(state: TableState, result: TableResult | None, hands: int, referee: bool) -> None:
    """What the actor may do (``scoring.policy``): nothing once the results are closed."""
    facts = facts_of(result, hands) if result is not None else policy.TableFacts()
    state.actions = policy.allowed_actions(
        dataclasses.replace(facts, game_over=state.game_over, replay_error=bool(state.replay_error)),
        referee=referee,
    )
    state.closed = results_closed(session=state.table.session, tournament=state.tournament)
    if state.closed:  # no form is offered that the service would refuse
        state.actions = frozenset()


def _number(value: Any) -> Any:
    if isinstance(value, str):
        return Fraction(value)
    return value


def _outcome(
    result: TableResult, seats: list[SeatView], table_outcome, stored: list[SeatSummary]
) -> tuple[list[OutcomeRow] | None, bool]:
    """The session result's rows: a confirmed table's stored rows (kept in ``stored``), else worked out."""
    if result.is_confirmed:
        rows = list(
            SeatSummary.objects.filter(table_id=result.table_id)
            .select_related("registration__player")
            .order_by("position")
        )
        stored[:] = rows
        if len(rows) == 4:
            return [
                OutcomeRow(
                    seat=seats[r.position],
                    credited=short_name(r.registration.player),
                    game_score=num(r.game_score),
                    table_points=num(r.table_points),
                    uma=signed(r.uma),
                    transfers=signed(r.transfers),
                    chombo=signed(r.chombo),
                    penalties=signed(r.penalties),
                    final=signed(r.final),
                    excluded=r.excluded,
                )
                for r in rows
            ], True
    try:
        _, outcome, credited, excluded = table_outcome(result)
    except RuleError:
        return None, False
    return [
        OutcomeRow(
            seat=seats[i],
            credited=short_name(credited[i].player),
            game_score=num(s.game_score),
            table_points=num(s.table_points),
            uma=signed(s.uma),
            transfers=signed(s.transfers),
            chombo=signed(s.chombo),
            penalties=signed(s.penalties),
            final=signed(s.final),
            excluded=i in excluded,
        )
        for i, s in enumerate(outcome.seats)
    ], False


# -- a session's tables (the referees' view) ---------------------------------------------------------


TABLE_STATUSES = ("waiting", "playing", "submitted", "confirmed")


def table_status(table: Table, session: Session) -> str:
    """How far a table is, for the public: waiting, playing, submitted, confirmed."""
    result = getattr(table, "result", None)
    if result is None:
        return "waiting" if session.status in (Session.Status.PLANNED, Session.Status.SEATED) else "playing"
    return {"draft": "playing", "submitted": "submitted", "confirmed": "confirmed"}.get(
        result.status, "playing"
    )


def summary_seat_line(s: SeatSummary, seated: Registration | None) -> SeatLine:
    """A confirmed seat's figures; ``seated`` is who sat there, when a substitute is credited instead."""
    line = SeatLine(
        position=s.position,
        key=s.registration.key,
        name=s.registration.player.full_name,
        short=short_name(s.registration.player),
        game_score=plain_number(s.game_score),
        table_points=plain_number(s.table_points),
        uma=plain_number(s.uma),
        penalties=plain_number(Fraction(s.penalties or 0) + Fraction(s.chombo or 0)),
        final=plain_number(s.final),
        excluded=s.excluded,
    )
    if seated is not None and seated.pk != s.registration_id:
        line.substitute_for = seated.player.full_name
    return line


def session_tables(*, session: Session) -> list[TableView]:
    """Every table of a session with its players, its progress and, once confirmed, its results: three
    queries, and one more for the numbers of the held hands when there are some. The public session page and the referees' view both list these."""
    tables = list(
        Table.objects.filter(session=session)
        .select_related("result")
        .annotate(
            hand_count=Count("result__hands"),
            held_count=Count("result__hands", filter=Q(result__hands__valuation__status="held")),
        )
        .order_by("number")
    )
    seats: dict[int, dict[int, Registration]] = defaultdict(dict)
    for seat in Seat.objects.filter(session=session).select_related("registration__player"):
        seats[seat.table_id][seat.position] = seat.registration
    instead = {r: sub for (_s, r), sub in replacements(sessions=[session]).items()}
    summaries: dict[int, list[SeatSummary]] = defaultdict(list)
    for s in SeatSummary.objects.filter(session=session).select_related("registration__player"):
        summaries[s.table_id].append(s)
    held: dict[int, list[int]] = defaultdict(list)
    if any(table.held_count for table in tables):  # a fourth query only when a hand waits for a referee
        for table_id, number in (
            Hand.objects.filter(result__table__session=session, valuation__status="held")
            .order_by("number")
            .values_list("result__table_id", "number")
        ):
            held[table_id].append(number)
    views = []
    for table in tables:
        result = getattr(table, "result", None)
        if result is None or (
            result.status == TableResult.Status.DRAFT and not table.hand_count and result.scores is None
        ):
            entry, label = "empty", _("Not started")
        else:
            entry, label = result.status, result.get_status_display()
        view = TableView(
            number=table.number,
            pk=table.pk,
            private_key=table.private_key,
            status=table_status(table, session),
            entry=entry,
            status_label=str(label),
            version=result.version if result else 1,
            mode=result.mode if result else TableResult.Mode.HANDS,
            hands=table.hand_count,
            held=table.held_count,
            held_numbers=held.get(table.pk, []),
            has_result=result is not None,
        )
        if view.status == "confirmed" and summaries[table.pk]:
            view.imbalance_reason = result.imbalance_reason if result else ""
            view.short_reason = result.short_reason if result else ""
            view.seats = [
                summary_seat_line(s, seats[table.pk].get(s.position))
                for s in sorted(summaries[table.pk], key=lambda s: s.position)
            ]
        else:
            view.seats = [
                _playing_seat(position, reg, instead.get(reg.pk))
                for position, reg in sorted(seats[table.pk].items())
            ]
        views.append(view)
    return views


def _playing_seat(position: int, seated: Registration, substitute: Registration | None) -> SeatLine:
    """A seat before its table is confirmed: who plays it (the substitute, when one replaced the player)."""
    if substitute is None:
        return SeatLine(
            position=position, key=seated.key, name=seated.player.full_name, short=short_name(seated.player)
        )
    return SeatLine(
        position=position,
        key=substitute.key,
        name=substitute.player.full_name,
        short=short_name(substitute.player),
        substitute=True,
        substitute_for=seated.player.full_name,
    )


def tables_awaiting_player(*, player: Player) -> list[Table]:
    """Submitted tables where ``player`` sits and has not confirmed yet (tournaments where players confirm)."""
    seats = Seat.objects.filter(
        registration__player=player, table__result__status=TableResult.Status.SUBMITTED
    ).select_related("table__result", "table__session__tournament", "registration")
    return [
        s.table
        for s in seats
        if s.table.session.tournament.settings.get("players_confirm")
        and s.registration.key not in (s.table.result.player_confirmations or [])
    ]


def registration_for_page(*, tournament: Tournament, key: str) -> Registration:
    registration = (
        Registration.objects.filter(tournament=tournament, key=key).select_related("player").first()
    )
    if registration is None:
        raise Http404("No such player in this tournament.")
    return registration


def seat_in_session(*, registration: Registration, session: Session) -> Seat | None:
    return Seat.objects.filter(registration=registration, session=session).select_related("table").first()


# -- history -----------------------------------------------------------------------------------------


@dataclass
class HistoryEntry:
    when: Any
    who: str
    what: str
    before: str = ""
    after: str = ""
    why: str = ""


def _who_of(record) -> str:
    user = getattr(record, "history_user", None)
    if user is not None:
        return user.get_username()
    if (number := getattr(record, "history_table_link", None)) is not None:
        return _("table link of table %(number)s") % {"number": number}
    return _("private link")


def seating_at(corrections: Any, when: dt.datetime, current: list[str]) -> list[str]:
    """The table's player keys by wind when a record of ``when`` was written: the seating after the last
    seat correction made by then, the first correction's seating before any, else ``current``. A correction
    without a time (an imported archive's, from before the records) was made before every record."""
    corrections = [c for c in corrections or [] if isinstance(c, Mapping)]
    applied = [c for c in corrections if not c.get("at") or dt.datetime.fromisoformat(c["at"]) <= when]
    if applied:
        return list(applied[-1]["to"])
    return list(corrections[0]["from"]) if corrections else list(current)


def _seating_text(keys: list[str], names: Mapping[str, str]) -> str:
    return " · ".join(f"{wind_letter(WIND_LETTERS[i])} {names.get(k, k)}" for i, k in enumerate(keys))


def _result_text(name: str, value: Any) -> str:
    if value in (None, "", []):
        return "—"
    if name == "status":
        return str(TableResult.Status(value).label) if value in TableResult.Status.values else str(value)
    if name == "mode":
        return str(TableResult.Mode(value).label) if value in TableResult.Mode.values else str(value)
    if name == "scores":
        return ", ".join(num(_number(v)) for v in value)
    if name == "player_confirmations":
        return ", ".join(str(v) for v in value)
    return str(value)


RESULT_FIELDS = {
    "status": gettext_lazy("Status"),
    "mode": gettext_lazy("Mode"),
    "scores": gettext_lazy("Totals"),
    "imbalance_reason": gettext_lazy("Imbalance reason"),
    "player_confirmations": gettext_lazy("Confirmed by the players"),
    "seat_corrections": gettext_lazy("Seats"),
}


def _penalty_summary(record, names: Mapping[int, str]) -> str:
    kind = KINDS.get(record.kind)
    parts = [kind.label if kind else record.kind, names.get(record.registration_id, "?")]
    amount = kind.shown_points(record) if kind else record.points or None
    if amount is not None:
        parts.append(signed(amount))
    if record.hand_number:
        parts.append(_("hand %(n)s") % {"n": record.hand_number})
    if record.reason:
        parts.append(record.reason)
    return " · ".join(str(p) for p in parts)


def table_history(*, table: Table, state: TableState | None = None) -> list[HistoryEntry]:
    """Every change to the table's result, hands and penalties, newest first: who, when, what before and
    after, and why (``state``: the table's state already read, whose seats, result and penalties are
    used)."""
    seats = state.seats if state is not None else table_seats(table)
    result = state.result if state is not None else table_result_or_none(table)
    entries: list[HistoryEntry] = []
    if result is not None:
        short_of = {s.registration.key: s.short for s in seats}
        entries += _result_history(result, short_of)
        entries += _hand_history(result, seats, short_of, table.session.tournament.get_rules())
    if state is not None:
        penalty_ids = [p.pk for p in state.penalties]
    else:
        registrations = [s.registration.pk for s in seats]
        penalty_ids = Penalty.objects.filter(
            Q(table=table) | Q(session_id=table.session_id, registration_id__in=registrations)
        ).values_list("id", flat=True)
    entries += _penalty_history(list(penalty_ids), {s.registration.pk: s.short for s in seats})
    entries += _call_history(table)
    entries.sort(key=lambda e: e.when, reverse=True)
    return entries


def _result_changes(previous, record, short_of: Mapping[str, str]) -> list[tuple[Any, str, str]]:
    """(label, before, after) of each field of the result one historical record changed."""
    changes = []
    for name, label in RESULT_FIELDS.items():
        before = getattr(previous, name) if previous is not None else None
        after = getattr(record, name)
        if previous is None and name in ("status", "mode") and after in ("draft", "hands"):
            continue
        if name == "seat_corrections":
            if after and before != after:
                changes.append(
                    (
                        label,
                        _seating_text(after[-1]["from"], short_of),
                        _seating_text(after[-1]["to"], short_of),
                    )
                )
            continue
        if before != after and not (before in (None, "", []) and after in (None, "", [])):
            changes.append((label, _result_text(name, before), _result_text(name, after)))
    return changes


def _result_history(result: TableResult, short_of: Mapping[str, str]) -> list[HistoryEntry]:
    entries = []
    previous = None
    for record in (
        TableResult.history.filter(id=result.pk)
        .select_related("history_user")
        .order_by("history_date", "history_id")
    ):
        for label, before, after in _result_changes(previous, record, short_of):
            entries.append(
                HistoryEntry(
                    when=record.history_date,
                    who=_who_of(record),
                    what=str(label),
                    before=before,
                    after=after,
                    why=record.history_change_reason or "",
                )
            )
        previous = record
    return entries


def _hand_history(
    result: TableResult, seats: list, short_of: Mapping[str, str], rules: Ruleset
) -> list[HistoryEntry]:
    """Each hand entered, undone or changed, told with the names by wind when it was written."""
    names = [s.short for s in seats]
    current = [s.registration.key for s in seats]

    def names_at(when: dt.datetime) -> list[str]:
        if not result.seat_corrections:
            return names
        return [short_of.get(k, k) for k in seating_at(result.seat_corrections, when, current)]

    entries = []
    last: dict[int, Any] = {}
    for record in (
        Hand.history.filter(result_id=result.pk)
        .select_related("history_user")
        .order_by("history_date", "history_id")
    ):
        text = describe_hand(rules, record.data, names_at(record.history_date))
        entry = HistoryEntry(when=record.history_date, who=_who_of(record), what="")
        if record.history_type == "+":
            entry.what = _("Hand %(n)s entered") % {"n": record.number}
            entry.after = text
        elif record.history_type == "-":
            entry.what = _("Hand %(n)s undone") % {"n": record.number}
            entry.before = text
            entry.why = record.history_change_reason or ""
        else:
            before = last.get(record.id)
            entry.what = _("Hand %(n)s changed") % {"n": record.number}
            entry.before = (
                describe_hand(rules, before.data, names_at(before.history_date)) if before is not None else ""
            )
            entry.after = text
            entry.why = record.history_change_reason or ""
        last[record.id] = record
        entries.append(entry)
    return entries


def _penalty_history(penalty_ids: list[int], penalty_names: Mapping[int, str]) -> list[HistoryEntry]:
    entries = []
    previous_penalty: dict[int, Any] = {}
    for record in (
        Penalty.history.filter(id__in=penalty_ids)
        .select_related("history_user")
        .order_by("history_date", "history_id")
    ):
        before = previous_penalty.get(record.id)
        if record.history_type == "+" or before is None:
            entries.append(
                HistoryEntry(
                    when=record.history_date,
                    who=_who_of(record),
                    what=_("Penalty recorded"),
                    after=_penalty_summary(record, penalty_names),
                    why=record.history_change_reason or "",
                )
            )
        else:
            what, why = _penalty_change(record, before)
            entries.append(
                HistoryEntry(
                    when=record.history_date,
                    who=_who_of(record),
                    what=what,
                    before=_penalty_summary(before, penalty_names),
                    after=_penalty_summary(record, penalty_names),
                    why=why,
                )
            )
        previous_penalty[record.id] = record
    return entries


def _penalty_change(record, before) -> tuple[str, str]:
    """What a later record of a penalty did, and why."""
    if record.cancelled_at and not before.cancelled_at:
        return _("Penalty cancelled"), record.cancel_reason
    if record.appeal_decision != before.appeal_decision:
        return _("Appeal decided"), record.appeal_decision
    if record.appeal != before.appeal:
        return _("Appeal recorded"), record.appeal
    return _("Penalty changed"), record.history_change_reason or ""


def penalty_table_entry(*, table: Table) -> PenaltyTableEntry:
    """How ``table``'s result is entered, as the penalties below read it (one query)."""
    row = (
        TableResult.objects.filter(table=table)
        .annotate(recorded=Count("hands"))
        .values_list("mode", "scores", "recorded")
        .first()
    )
    if row is None:
        return PenaltyTableEntry(mode=None, totals=False, hands=0)
    mode, scores, recorded = row
    return PenaltyTableEntry(mode=mode, totals=scores is not None, hands=recorded)


def penalty_tables_touched(*, session_id: int, registration_id: int, table_id: int | None) -> list[int]:
    """The tables of a session a player's penalty touches: where they sit, where their summary rows are,
    and the penalty's own table."""
    return list(
        Table.objects.filter(session_id=session_id)
        .filter(
            Q(seats__registration=registration_id)
            | Q(summaries__registration=registration_id)
            | Q(pk=table_id)
        )
        .distinct()
        .values_list("pk", flat=True)
    )


def _call_history(table: Table) -> list[HistoryEntry]:
    """The table's calls of a referee: made, a referee on the way, resolved (with the note)."""
    entries = []
    for record in (
        RefereeCall.history.filter(table_id=table.pk)
        .select_related("history_user")
        .order_by("history_date", "history_id")
    ):
        reason = (
            str(RefereeCall.Reason(record.reason).label) if record.reason in RefereeCall.Reason.values else ""
        )
        if record.history_type == "+" and record.status == RefereeCall.Status.OPEN:
            what, after = _("Referee called"), reason
        elif record.status == RefereeCall.Status.ACKNOWLEDGED:
            what, after = _("A referee is on the way"), record.acknowledged_name
        elif record.status == RefereeCall.Status.RESOLVED:
            what, after = _("Call resolved."), record.note
        else:
            continue
        entries.append(
            HistoryEntry(
                when=record.history_date,
                who=_who_of(record),
                what=what,
                after=after,
                why=record.history_change_reason or "",
            )
        )
    return entries
