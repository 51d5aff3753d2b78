"""Reads for the result-entry pages: a table's state hand by hand, its history, a session's tables, and the
penalties shown beside them. Everything here only reads; the writes are in ``scoring.services`` and
``penalties.services``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from django.db.models import Count, Q
from django.http import Http404
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from penalties.models import Kind, Penalty, Scope
from scoring.models import Hand, SeatSummary, TableResult
from scoring.rules.base import RuleError, Ruleset
from tournaments.models import WIND_LETTERS, Player, Registration, Seat, Session, Table, Tournament

WIND_NAMES = {
    "E": gettext_lazy("East"),
    "S": gettext_lazy("South"),
    "W": gettext_lazy("West"),
    "N": gettext_lazy("North"),
}
SHARE_NAMES = {"all": gettext_lazy("all"), "half": gettext_lazy("half"), "third": gettext_lazy("a third")}
MINUS = "\u2212"


# -- numbers as shown ---------------------------------------------------------------------------------


def num(value: Any) -> str:
    """An exact number for the page: ``12``, ``−10``, ``1.5``, ``2.33``; ``—`` for nothing."""
    if value is None or value == "":
        return "—"
    v = Fraction(str(value)) if not isinstance(value, (int, Fraction)) else Fraction(value)
    text = str(abs(v.numerator)) if v.denominator == 1 else f"{abs(float(v)):.2f}".rstrip("0").rstrip(".")
    return (MINUS + text) if v < 0 else text


def signed(value: Any) -> str:
    """Like :func:`num`, with ``+`` before a gain."""
    if value is None or value == "":
        return "—"
    text = num(value)
    return "+" + text if Fraction(str(value)) > 0 else text


def short_name(player: Player) -> str:
    """``Ana G.``: short enough for four columns on a phone."""
    if player.last_name:
        return f"{player.first_name} {player.last_name[0]}."
    return player.first_name


# -- finding tables ----------------------------------------------------------------------------------


def table_for_page(*, slug: str, session_number: int, table_number: int) -> Table:
    return get_object_or_404(
        Table.objects.select_related("session__tournament"),
        session__tournament__slug=slug,
        session__number=session_number,
        number=table_number,
    )


def table_for_key(*, key: str) -> Table:
    return get_object_or_404(Table.objects.select_related("session__tournament"), private_key=key)


def session_for_page(*, slug: str, session_number: int) -> Session:
    return get_object_or_404(
        Session.objects.select_related("tournament"), tournament__slug=slug, number=session_number
    )


def table_result_or_none(table: Table) -> TableResult | None:
    return TableResult.objects.filter(table=table).first()


# -- describing hands ----------------------------------------------------------------------------------


def _names(seats: Sequence[str], values: Iterable[Any]) -> str:
    out = []
    for v in values:
        try:
            out.append(seats[int(v)])
        except (TypeError, ValueError, IndexError):
            out.append(str(v))
    return ", ".join(out)


def _who(seats: Sequence[str], value: Any) -> str:
    return _names(seats, [value])


def riichi_value(han: Any, fu: Any) -> str:
    try:
        han = int(han)
    except (TypeError, ValueError):
        return "?"
    for least, name in ((13, "yakuman"), (11, "sanbaiman"), (8, "baiman"), (6, "haneman"), (5, "mangan")):
        if han >= least:
            return name
    return _("%(han)s han %(fu)s fu") % {"han": han, "fu": fu}


def describe_hand(family: str, data: Mapping[str, Any], seats: Sequence[str]) -> str:
    """A short line for one stored hand (players as seat numbers), with the players' names."""
    result = data.get("result")
    if family == "riichi":
        if result == "ron":
            winners = data.get("winners") or []
            parts = [
                f"{_who(seats, w.get('player'))} {riichi_value(w.get('han'), w.get('fu'))}"
                for w in winners
                if isinstance(w, Mapping)
            ]
            loser = _who(seats, data.get("loser"))
            if len(parts) == 1:
                text = _("Ron: %(winner)s from %(loser)s") % {"winner": parts[0], "loser": loser}
            elif len(parts) == 2:
                text = _("Double ron from %(loser)s: %(winners)s") % {
                    "loser": loser,
                    "winners": "; ".join(parts),
                }
            else:
                text = _("Triple ron from %(loser)s: %(winners)s") % {
                    "loser": loser,
                    "winners": "; ".join(parts),
                }
        elif result == "tsumo":
            text = _("Tsumo: %(winner)s %(value)s") % {
                "winner": _who(seats, data.get("winner")),
                "value": riichi_value(data.get("han"), data.get("fu")),
            }
        elif result == "draw":
            tenpai = data.get("tenpai") or []
            text = (
                _("Draw, tenpai: %(players)s") % {"players": _names(seats, tenpai)}
                if tenpai
                else _("Draw, nobody tenpai")
            )
        elif result == "chombo":
            return _("Chombo by %(player)s (hand replayed)") % {"player": _who(seats, data.get("player"))}
        else:
            return str(result)
        if data.get("riichi"):
            text += " · " + _("riichi: %(players)s") % {"players": _names(seats, data["riichi"])}
        return text
    if family == "classical":
        if result != "win":
            return _("Drawn hand")
        winner = _who(seats, data.get("winner"))
        if data.get("limit_hand"):
            return _("%(winner)s mah jong, limit hand") % {"winner": winner}
        values = data.get("values") or {}
        value = values.get(str(data.get("winner")), values.get(data.get("winner"), "?"))
        others = ", ".join(
            f"{_who(seats, k)} {v}" for k, v in sorted(values.items()) if str(k) != str(data.get("winner"))
        )
        text = _("%(winner)s mah jong, %(value)s points") % {"winner": winner, "value": value}
        return f"{text} ({others})" if others else text
    # MCR and Salamanca
    if result != "win":
        return _("Draw")
    winner = _who(seats, data.get("winner"))
    if data.get("discarder") is None:
        text = _("%(winner)s self-drawn, %(fan)s fan") % {"winner": winner, "fan": data.get("fan")}
    else:
        text = _("%(winner)s wins on %(discarder)s's discard, %(fan)s fan") % {
            "winner": winner,
            "discarder": _who(seats, data.get("discarder")),
            "fan": data.get("fan"),
        }
    liable = data.get("liable") or []
    if liable:
        shares = ", ".join(
            f"{_who(seats, item.get('player'))} ({SHARE_NAMES.get(item.get('share'), item.get('share'))})"
            for item in liable
            if isinstance(item, Mapping)
        )
        text += " · " + _("liable: %(players)s") % {"players": shares}
    return text


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
    number: int
    label: str  # where in the game the hand was played ("East 2, 1 counter")
    description: str
    deltas: list[str]
    scores: list[str]
    after: str  # counters and sticks left after the hand
    replayed: bool
    data: dict

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
    family: str
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
        if self.family == "mcr":
            columns = ["game_score", "transfers", "penalties", "final", "table_points"]
        elif self.family == "riichi":
            columns = ["game_score", "uma", "chombo", "penalties", "final"]
        else:
            columns = ["game_score", "transfers", "penalties", "final"]
        optional = {"transfers", "chombo", "penalties"}
        columns = [
            c for c in columns if c not in optional or any(getattr(r, c) not in ("0", "—") for r in rows)
        ]
        if self.family != "riichi" and not optional & set(columns):
            columns.remove("game_score")  # nothing between the game score and the session score
        self.outcome_header = [(str(OUTCOME_LABELS[c][0]), str(OUTCOME_LABELS[c][1])) for c in columns]
        for row in rows:
            if (
                self.family != "riichi"
                and row.game_score not in ("0", "—")
                and not row.game_score.startswith(MINUS)
            ):
                row.game_score = (
                    "+" + row.game_score
                )  # game points are gains and losses; riichi shows raw points
            row.cells = [getattr(row, c) for c in columns]


def _label(family: str, seats: Sequence[SeatView], dealer: int | None, wind: str | None, honba: int) -> str:
    if wind is None:
        return _("Game over")
    wind_name = str(WIND_NAMES.get(wind, wind))
    if family == "riichi":
        text = f"{wind_name} {(dealer or 0) + 1}"
        if honba:
            text += ", " + (_("%(n)s counter") if honba == 1 else _("%(n)s counters")) % {"n": honba}
        return text
    if family == "mcr" or dealer is None:
        return _("%(wind)s round") % {"wind": wind_name}
    return _("%(wind)s round, %(dealer)s deals") % {"wind": wind_name, "dealer": seats[dealer].short}


def _after(family: str, honba: int, sticks: int) -> str:
    if family != "riichi":
        return ""
    parts = []
    if honba:
        parts.append((_("%(n)s counter") if honba == 1 else _("%(n)s counters")) % {"n": honba})
    if sticks:
        parts.append((_("%(n)s riichi stick") if sticks == 1 else _("%(n)s riichi sticks")) % {"n": sticks})
    return ", ".join(parts)


def table_seats(table: Table) -> list[SeatView]:
    seats = list(Seat.objects.filter(table=table).select_related("registration__player").order_by("position"))
    replaced = {
        p.registration_id: p.substitute
        for p in Penalty.objects.filter(
            session_id=table.session_id,
            kind=Kind.REPLACED,
            cancelled_at__isnull=True,
            registration_id__in=[s.registration_id for s in seats],
        ).select_related("substitute__player")
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


def table_state(*, table: Table) -> TableState:
    """Everything the table page shows: players by wind, each hand with the running scores, the state
    of the next hand (round, dealer, counters, sticks) and the session result so far."""
    from scoring.services import table_outcome

    tournament = table.session.tournament
    rules = tournament.get_rules()
    seats = table_seats(table)
    result = table_result_or_none(table)
    state = TableState(
        table=table,
        session=table.session,
        tournament=tournament,
        rules=rules,
        family=rules.family,
        result=result,
        seats=seats,
        status_label=str(TableResult.Status.DRAFT.label),
    )
    if len(seats) != 4:
        state.replay_error = _("This table is not seated with four players.")
        return state
    state.seats = seats
    if result is not None:
        state.status = result.status
        state.status_label = result.get_status_display()
        state.version = result.version
        state.mode = result.mode
        state.player_confirmations = list(result.player_confirmations or [])
    names = [s.short for s in seats]
    scores = [Fraction(rules.config.start_points)] * 4 if rules.family == "riichi" else [Fraction(0)] * 4
    hands: list[Hand] = list(result.hands.order_by("number")) if result is not None else []
    state.has_entries = bool(hands) or bool(result and result.scores is not None)
    try:
        if result is not None and result.mode == TableResult.Mode.TOTALS and result.scores is not None:
            game = rules.game_from_totals(
                [_number(s) for s in result.scores], imbalance_reason=result.imbalance_reason
            )
            state.totals = [num(s) for s in result.scores]
            scores = list(game.scores)
            state.game_over = True
        else:
            game = rules.play_game([h.data for h in hands])
            dealer, wind, honba = 0, "E", 0
            for hand, step in zip(hands, game.steps, strict=True):
                state.hands.append(
                    HandRow(
                        number=hand.number,
                        label=_label(state.family, seats, dealer, wind, honba),
                        description=describe_hand(state.family, hand.data, names),
                        deltas=[signed(d) for d in step.deltas],
                        scores=[num(s) for s in step.scores],
                        after=_after(state.family, step.honba, step.sticks),
                        replayed=step.replayed,
                        data=hand.data,
                    )
                )
                dealer, wind, honba = step.dealer, step.round_wind, step.honba
                state.sticks = step.sticks
            if game.steps:
                scores = list(game.steps[-1].scores)
            state.honba = honba
            state.dealer = dealer if state.family != "mcr" else None
            state.round_wind = wind
            state.game_over = wind is None
            state.next_hand = len(hands) + 1
            state.next_label = _label(state.family, seats, dealer, wind, honba)
    except RuleError as exc:
        state.replay_error = str(exc)
    for seat, score in zip(seats, scores, strict=True):
        seat.score = num(score)
        seat.dealer = state.dealer == seat.position and not state.game_over
    if result is not None and state.has_entries and not state.replay_error:
        state.set_outcome(*_outcome(result, seats, table_outcome))
    return state


def _number(value: Any) -> Any:
    if isinstance(value, str):
        return Fraction(value)
    return value


def _outcome(
    result: TableResult, seats: list[SeatView], table_outcome
) -> tuple[list[OutcomeRow] | None, bool]:
    if result.is_confirmed:
        rows = list(
            SeatSummary.objects.filter(table=result.table)
            .select_related("registration__player")
            .order_by("position")
        )
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


@dataclass
class SessionTableRow:
    table: Table
    players: list[str]
    status: str  # "empty", "draft", "submitted", "confirmed"
    status_label: str
    version: int
    mode: str
    hands: int


def session_tables(*, session: Session) -> list[SessionTableRow]:
    tables = (
        Table.objects.filter(session=session)
        .select_related("result")
        .prefetch_related("seats__registration__player")
        .annotate(hand_count=Count("result__hands"))
        .order_by("number")
    )
    rows = []
    for t in tables:
        result = getattr(t, "result", None)
        players = [short_name(s.registration.player) for s in sorted(t.seats.all(), key=lambda s: s.position)]
        if result is None or (
            result.status == TableResult.Status.DRAFT and not t.hand_count and result.scores is None
        ):
            status, label = "empty", _("Not started")
        else:
            status, label = result.status, result.get_status_display()
        rows.append(
            SessionTableRow(
                table=t,
                players=players,
                status=status,
                status_label=label,
                version=result.version if result else 1,
                mode=result.mode if result else TableResult.Mode.HANDS,
                hands=t.hand_count,
            )
        )
    return rows


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


# -- penalties as shown ------------------------------------------------------------------------------


@dataclass
class PenaltyRow:
    penalty: Penalty
    player: str
    key: str
    kind: str
    where: str
    amount: str
    note: str
    detail: str
    cancelled: bool


def penalty_amount(penalty: Penalty, rules: Ruleset, position: int | None = None) -> tuple[str, str]:
    """What the penalty costs, as the ruleset computes it: the amount, and a note on how it is paid."""
    kind = penalty.kind
    if kind == Kind.FALSE_HU:
        try:
            transfers = rules.false_hu(position or 0, penalty.variant)
        except RuleError:
            return "—", ""
        own = transfers[position or 0]
        others = sorted({t for i, t in enumerate(transfers) if i != (position or 0)})
        if len(others) == 1:
            return signed(own), _("pays %(each)s to each other player") % {"each": num(others[0])}
        return signed(own), _("paid to the other players")
    if kind == Kind.TABLE_POINTS:
        return signed(penalty.table_points), _("table points")
    if kind == Kind.LATE_ARRIVAL and penalty.disqualifies:
        return _("out"), _("out of the session: a substitute takes the seat")
    if kind == Kind.FOUL and not penalty.points:
        return _("warning"), ""
    if kind in (Kind.LATE_ARRIVAL, Kind.FOUL, Kind.FORGOT_WINNING_TILE, Kind.REFEREE, Kind.CHOMBO):
        return signed(penalty.points), ""
    return "", ""


def _penalty_detail(p: Penalty) -> str:
    parts = []
    if p.kind == Kind.LATE_ARRIVAL and p.minutes_late is not None:
        parts.append(_("%(n)s minutes late") % {"n": p.minutes_late})
    if p.variant:
        parts.append(p.get_variant_display())
    if p.kind == Kind.REPLACED:
        if p.substitute_id:
            parts.append(_("replaced by %(name)s") % {"name": p.substitute.player.full_name})
        reasons = {
            "late_arrival": _("late arrival"),
            "illness": _("illness"),
            "disqualified": _("disqualified"),
        }
        parts.append(str(reasons.get(p.reason, p.reason)))
        if p.during:
            parts.append(_("during the session"))
    elif p.kind == Kind.DISQUALIFIED:
        parts.append(_("for the tournament") if p.scope == Scope.TOURNAMENT else _("for the session"))
        if p.reason:
            parts.append(p.reason)
    elif p.reason:
        parts.append(p.reason)
    if p.persists:
        parts.append(_("obstruction or time-wasting: the count carries on"))
    return " · ".join(parts)


def _penalty_where(p: Penalty) -> str:
    parts = []
    if p.session_id:
        parts.append(_("S%(n)s") % {"n": p.session.number})
    if p.table_id:
        parts.append(_("T%(n)s") % {"n": p.table.number})
    if p.hand_number:
        parts.append(_("H%(n)s") % {"n": p.hand_number})
    return " ".join(parts) or _("tournament")


def penalty_rows(*, penalties: Iterable[Penalty], rules: Ruleset) -> list[PenaltyRow]:
    penalties = list(penalties)
    positions = {
        (s.table_id, s.registration_id): s.position
        for s in Seat.objects.filter(
            table_id__in={p.table_id for p in penalties if p.table_id},
            registration_id__in={p.registration_id for p in penalties},
        )
    }
    return [
        PenaltyRow(
            penalty=p,
            player=p.registration.player.full_name,
            key=p.registration.key,
            kind=p.get_kind_display(),
            where=_penalty_where(p),
            amount=amount,
            note=note,
            detail=_penalty_detail(p),
            cancelled=p.cancelled_at is not None,
        )
        for p in penalties
        for amount, note in [penalty_amount(p, rules, positions.get((p.table_id, p.registration_id)))]
    ]


def _penalty_queryset():
    return Penalty.objects.select_related(
        "registration__player", "substitute__player", "session", "table", "recorded_by", "cancelled_by"
    )


def table_penalties(*, table: Table) -> list[Penalty]:
    """The penalties of the players of a table in its session (and those recorded at the table)."""
    registrations = Seat.objects.filter(table=table).values("registration_id")
    return list(
        _penalty_queryset()
        .filter(Q(table=table) | Q(session_id=table.session_id, registration_id__in=registrations))
        .order_by("sequence")
    )


def tournament_penalties(
    *, tournament: Tournament, session_number: int | None = None, kind: str | None = None
) -> list[Penalty]:
    qs = _penalty_queryset().filter(tournament=tournament)
    if session_number:
        qs = qs.filter(session__number=session_number)
    if kind:
        qs = qs.filter(kind=kind)
    return list(qs.order_by("-sequence"))


def player_penalties(*, registration: Registration) -> list[Penalty]:
    return list(_penalty_queryset().filter(registration=registration).order_by("sequence"))


def registration_for_page(*, tournament: Tournament, key: str) -> Registration:
    registration = (
        Registration.objects.filter(tournament=tournament, key=key).select_related("player").first()
    )
    if registration is None:
        raise Http404("No such player in this tournament.")
    return registration


def seat_in_session(*, registration: Registration, session: Session) -> Seat | None:
    return Seat.objects.filter(registration=registration, session=session).select_related("table").first()


def substitutes_free(*, tournament: Tournament, session: Session) -> list[Registration]:
    """Registrations that may take a seat in ``session``: substitutes first, then players without a seat,
    leaving out whoever already sits or already substitutes in that session."""
    seated = Seat.objects.filter(session=session).values("registration_id")
    substituting = Penalty.objects.filter(
        session=session, kind=Kind.REPLACED, cancelled_at__isnull=True
    ).values("substitute_id")
    qs = (
        Registration.objects.filter(tournament=tournament)
        .exclude(pk__in=seated)
        .exclude(pk__in=substituting)
        .select_related("player")
    )
    return sorted(qs, key=lambda r: (not r.is_substitute, r.player.last_name, r.player.first_name, r.pk))


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
}


def _penalty_summary(record, names: Mapping[int, str]) -> str:
    kind = str(Kind(record.kind).label) if record.kind in Kind.values else record.kind
    parts = [kind, names.get(record.registration_id, "?")]
    if record.kind == Kind.TABLE_POINTS and record.table_points is not None:
        parts.append(signed(record.table_points))
    elif record.points:
        parts.append(signed(record.points))
    if record.hand_number:
        parts.append(_("hand %(n)s") % {"n": record.hand_number})
    if record.reason:
        parts.append(record.reason)
    return " · ".join(str(p) for p in parts)


def table_history(*, table: Table) -> list[HistoryEntry]:
    """Every change to the table's result, hands and penalties, newest first: who, when, what before and
    after, and why."""
    state_seats = table_seats(table)
    family = table.session.tournament.get_rules().family
    names = [s.short for s in state_seats]
    entries: list[HistoryEntry] = []
    result = table_result_or_none(table)
    if result is not None:
        previous = None
        for record in (
            TableResult.history.filter(id=result.pk)
            .select_related("history_user")
            .order_by("history_date", "history_id")
        ):
            changes = []
            for name, label in RESULT_FIELDS.items():
                before = getattr(previous, name) if previous is not None else None
                after = getattr(record, name)
                if previous is None and name in ("status", "mode") and after in ("draft", "hands"):
                    continue
                if before != after and not (before in (None, "", []) and after in (None, "", [])):
                    changes.append((label, _result_text(name, before), _result_text(name, after)))
            for label, before, after in changes:
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
        last: dict[int, Any] = {}
        for record in (
            Hand.history.filter(result_id=result.pk)
            .select_related("history_user")
            .order_by("history_date", "history_id")
        ):
            text = describe_hand(family, record.data, names)
            if record.history_type == "+":
                entry = HistoryEntry(
                    when=record.history_date,
                    who=_who_of(record),
                    what=_("Hand %(n)s entered") % {"n": record.number},
                    after=text,
                )
            elif record.history_type == "-":
                entry = HistoryEntry(
                    when=record.history_date,
                    who=_who_of(record),
                    what=_("Hand %(n)s undone") % {"n": record.number},
                    before=text,
                    why=record.history_change_reason or "",
                )
            else:
                before = last.get(record.id)
                entry = HistoryEntry(
                    when=record.history_date,
                    who=_who_of(record),
                    what=_("Hand %(n)s changed") % {"n": record.number},
                    before=describe_hand(family, before.data, names) if before is not None else "",
                    after=text,
                    why=record.history_change_reason or "",
                )
            last[record.id] = record
            entries.append(entry)
    registrations = [s.registration.pk for s in state_seats]
    penalty_names = {s.registration.pk: s.short for s in state_seats}
    penalty_ids = Penalty.objects.filter(
        Q(table=table) | Q(session_id=table.session_id, registration_id__in=registrations)
    ).values_list("id", flat=True)
    previous_penalty: dict[int, Any] = {}
    for record in (
        Penalty.history.filter(id__in=list(penalty_ids))
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
            if record.cancelled_at and not before.cancelled_at:
                what, why = _("Penalty cancelled"), record.cancel_reason
            elif record.appeal_decision != before.appeal_decision:
                what, why = _("Appeal decided"), record.appeal_decision
            elif record.appeal != before.appeal:
                what, why = _("Appeal recorded"), record.appeal
            else:
                what, why = _("Penalty changed"), record.history_change_reason or ""
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
    entries.sort(key=lambda e: e.when, reverse=True)
    return entries
