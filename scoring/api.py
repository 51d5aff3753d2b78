"""REST API of result entry: one table's result, its hands and totals, submission and confirmation.

Every route sits under the table it concerns (``{table_pk}`` is the table's id):

    GET        /api/tables/{table_pk}/result/                  the result and the running state after each hand
    POST       /api/tables/{table_pk}/result/hands/            add the next hand
    PUT, PATCH /api/tables/{table_pk}/result/hands/{number}/   correct a hand (with a reason)
    DELETE     /api/tables/{table_pk}/result/hands/last/       undo the last hand
    PUT        /api/tables/{table_pk}/result/totals/           the four totals of the score sheet
    POST       /api/tables/{table_pk}/result/submit/           the table is finished
    POST       /api/tables/{table_pk}/result/confirm/          a referee confirms it: it counts in the standings
    POST       /api/tables/{table_pk}/result/reopen/           a referee takes a confirmed table back
    POST       /api/tables/{table_pk}/result/seats/            a referee corrects the seats the players took
    GET        /api/tables/{table_pk}/result/history/          every change: who, when, what, why (staff)

Who: users with a role in the tournament (scorers enter results; referees and directors also confirm,
reopen, accept unbalanced totals and change confirmed results), or the table's private key, in the
``X-Table-Key`` header or the ``key`` query parameter, which opens that table only and only until it is
confirmed. A confirmed result of a public tournament is public; drafts are not.

Every write names the ``version`` it was based on; a stale one gets 409 with the current version and
state. Every write may carry an ``Idempotency-Key`` header: a repeat gets the first answer and changes
nothing (``idempotency``). Hands are shaped as in the tournament archive, with player keys (``p1``…); the services do the
work (``scoring.services``), this module only translates.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.db import transaction
from django.http import Http404
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiExample, OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import permissions, serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import PermissionDenied
from rest_framework.response import Response

from config.parsers import BoundedJSONParser
from scoring import handshape, lifecycle, policy, selectors, services
from scoring.models import Hand, TableResult
from scoring.rules.base import RuleError
from scoring.rules.numbers import TEXT_LIMIT
from tournaments.fields import plain_number
from tournaments.models import WIND_LETTERS, Table
from tournaments.permissions import Actor, actor_for, can_view, user_roles
from tournaments.selectors import visible_through

TABLE_KEY_HEADER = "X-Table-Key"
RESERVED = ("version", "reason")  # request fields that are not part of the hand
LARGEST = 10**9  # no number in a hand or a score sheet comes near this


def table_key_of(request) -> str | None:
    """The table's private key, from the ``X-Table-Key`` header or the ``key`` query parameter."""
    return request.headers.get(TABLE_KEY_HEADER) or request.query_params.get("key") or None


# -- the state of a result, for reading ---------------------------------------------------------------


def _num(value: Any) -> Any:
    return None if value is None else plain_number(value)


def _nums(values) -> list | None:
    return None if values is None else [_num(v) for v in values]


def _key_of(seat: int | None, keys: list[str]) -> str | None:
    return None if seat is None else keys[seat]


def result_state(
    table: Table, actor: Actor | None = None, written: TableResult | None = None
) -> dict[str, Any]:
    """What the API shows of a table's result: the table's state as the table page shows it
    (``scoring.selectors.table_state``, built once), in plain JSON, with the actions ``actor`` may take
    (none for a reader without a role or the table's key).

    Whole numbers as integers, others rounded to 2 decimals. ``ResultSerializer`` documents this shape.
    ``written``: the result a write just stored, with the hands (and the game) it read, so that the answer
    reads and replays nothing again.
    """
    return result_body(selectors.table_state(table=table, actor=actor, result=written), actor)


def result_body(state: selectors.TableState, actor: Actor | None) -> dict[str, Any]:
    """The API's rendering of a table's state."""
    table, tournament = state.table, state.tournament
    result = state.result or TableResult(table=table)
    seats = state.seats if len(state.seats) == 4 else []
    keys = [s.registration.key for s in seats]
    body: dict[str, Any] = {
        "table": {
            "id": table.pk,
            "number": table.number,
            "session": state.session.number,
            "tournament": tournament.slug,
            "ruleset": tournament.ruleset,
        },
        "seats": [
            {
                "wind": WIND_LETTERS[seat.position],
                "player": seat.registration.key,
                "name": seat.name,
                "substitute": seat.replaced_by.key if seat.replaced_by is not None else None,
            }
            for seat in seats
        ],
        "mode": result.mode,
        "status": result.status,
        "version": result.version,
        "scores": None,
        "imbalance_reason": result.imbalance_reason,
        "short_reason": result.short_reason,
        "hands": [],
        "state": None,
        "problem": state.replay_error,
        "submitted_at": result.submitted_at,
        "confirmed_at": result.confirmed_at,
        "summary": None,
        "actions": sorted(state.actions) if actor is not None else [],
    }
    game = state.game
    if result.mode == result.Mode.TOTALS:
        body["scores"] = _nums(result.scores)
    elif state.hands and game is not None:
        body["scores"] = _nums(game.scores)
    body["hands"] = [_hand_body(row, keys) for row in state.hands]
    if game is not None and result.mode == result.Mode.HANDS and keys:
        body["state"] = _next_hand_body(state, keys)
    if result.is_confirmed:
        body["summary"] = [_summary_row_body(row) for row in state.summary_rows]
    return body


def _hand_body(row: selectors.HandRow, keys: list[str]) -> dict[str, Any]:
    """One hand with the players' keys, its valuation and what it left (none when it was not replayed)."""
    step = row.step
    return {
        "number": row.number,
        "hand": handshape.to_keys(row.data, keys) if keys else row.data,
        "valuation": row.valuation,
        "after": None
        if step is None
        else {
            "deltas": _nums(step.deltas),
            "scores": _nums(step.scores),
            "dealer": _key_of(step.dealer, keys),
            "round_wind": step.round_wind,
            "counters": step.honba,
            "sticks": step.sticks,
            "replayed": step.replayed,
        },
    }


def _next_hand_body(state: selectors.TableState, keys: list[str]) -> dict[str, Any]:
    """Where the game stands after its last hand (the start when there is none)."""
    last = state.hands[-1].step if state.hands else None
    return {
        "hands_played": len(state.hands),
        "scores": _nums(last.scores if last else state.game.scores),
        "dealer": _key_of(last.dealer, keys) if last else (keys[0] if state.rules.shows_dealer else None),
        "round_wind": last.round_wind if last else "E",
        "counters": last.honba if last else 0,
        "sticks": last.sticks if last else 0,
        "game_over": state.game_over,
    }


def _summary_row_body(row) -> dict[str, Any]:
    return {
        "wind": WIND_LETTERS[row.position],
        "player": row.registration.key,
        "game_score": _num(row.game_score),
        "table_points": _num(row.table_points),
        "uma": _num(row.uma),
        "transfers": _num(row.transfers),
        "chombo": _num(row.chombo),
        "penalties": _num(row.penalties),
        "final": _num(row.final),
        "excluded": row.excluded,
    }


# -- serializers: the documented shapes ------------------------------------------------------------------


class TableRefSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    number = serializers.IntegerField()
    session = serializers.IntegerField(help_text="Session number.")
    tournament = serializers.CharField(help_text="Tournament slug.")
    ruleset = serializers.CharField()


class SeatStateSerializer(serializers.Serializer):
    wind = serializers.CharField(help_text="E, S, W or N at the start of the session.")
    player = serializers.CharField(help_text="The seated player's key.")
    name = serializers.CharField()
    substitute = serializers.CharField(
        allow_null=True, help_text="Key of the substitute who took the seat (hands may name either key)."
    )


class StepSerializer(serializers.Serializer):
    deltas = serializers.ListField(child=serializers.FloatField(), help_text="Each seat's change, E S W N.")
    scores = serializers.ListField(child=serializers.FloatField(), help_text="Running scores after the hand.")
    dealer = serializers.CharField(allow_null=True, help_text="Who deals the next hand (riichi, Salamanca).")
    round_wind = serializers.CharField(
        allow_null=True, help_text="Prevailing wind of the next hand; null at the end."
    )
    counters = serializers.IntegerField(help_text="Counters (honba) on the next hand.")
    sticks = serializers.IntegerField(help_text="Riichi sticks left on the table.")
    replayed = serializers.BooleanField(help_text="The hand is dealt again (chombo).")


class HandStateSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    hand = serializers.JSONField(help_text="The hand as in the tournament archive, with player keys.")
    valuation = serializers.JSONField(
        allow_null=True,
        help_text="When the hand carries tiles: status (agreed, filled, held, ruling, computed) and per win "
        "the value computed from the tiles with its fan or yaku, and the claimed value (seats 0..3).",
    )
    after = StepSerializer(allow_null=True)


class RunningStateSerializer(serializers.Serializer):
    hands_played = serializers.IntegerField()
    scores = serializers.ListField(child=serializers.FloatField())
    dealer = serializers.CharField(allow_null=True)
    round_wind = serializers.CharField(allow_null=True)
    counters = serializers.IntegerField()
    sticks = serializers.IntegerField()
    game_over = serializers.BooleanField()


class SummarySerializer(serializers.Serializer):
    wind = serializers.CharField()
    player = serializers.CharField(
        help_text="Who is credited with the seat (a substitute after a replacement)."
    )
    game_score = serializers.FloatField()
    table_points = serializers.FloatField(allow_null=True)
    uma = serializers.FloatField(allow_null=True)
    transfers = serializers.FloatField()
    chombo = serializers.FloatField()
    penalties = serializers.FloatField()
    final = serializers.FloatField()
    excluded = serializers.BooleanField(help_text="No table points for this seat (MERS §4).")


class ResultSerializer(serializers.Serializer):
    table = TableRefSerializer()
    seats = SeatStateSerializer(many=True)
    mode = serializers.ChoiceField(choices=TableResult.Mode.choices)
    status = serializers.ChoiceField(
        choices=TableResult.Status.choices,
        read_only=True,
        help_text="Moved by the actions (submit, confirm, reopen), never written.",
    )
    version = serializers.IntegerField(help_text="Send it back with the next write.")
    scores = serializers.ListField(
        child=serializers.FloatField(), allow_null=True, help_text="Totals, or the game's scores so far."
    )
    imbalance_reason = serializers.CharField(max_length=TEXT_LIMIT, allow_blank=True)
    short_reason = serializers.CharField(
        max_length=TEXT_LIMIT,
        allow_blank=True,
        help_text="Why the table played fewer hands than a full session.",
    )
    hands = HandStateSerializer(many=True)
    state = RunningStateSerializer(allow_null=True, help_text="The state for the next hand.")
    problem = serializers.CharField(allow_blank=True, help_text="Why the stored hands cannot be replayed.")
    submitted_at = serializers.DateTimeField(allow_null=True)
    confirmed_at = serializers.DateTimeField(allow_null=True)
    summary = SummarySerializer(many=True, allow_null=True, help_text="Per-seat result, once confirmed.")
    actions = serializers.ListField(
        child=serializers.ChoiceField(choices=policy.ACTIONS),
        help_text="What the caller may do at the table now, as the table page offers it: hand, edit, undo, "
        "totals, clear_totals, submit, confirm, reopen, seats (none without a role in the tournament or the "
        "table's key).",
    )


class ConflictSerializer(serializers.Serializer):
    detail = serializers.CharField()
    current_version = serializers.IntegerField()
    result = ResultSerializer()


class HandWriteSerializer(serializers.Serializer):
    """A hand as in the tournament archive, with player keys, plus the version it is based on.

    MCR and Salamanca: ``result`` win/draw, ``winner``, ``discarder`` (null: self-drawn), ``fan``
    (Salamanca may add ``liable``, a list of shares). Riichi: ron (``loser``, ``winners``), tsumo
    (``winner``, ``han``, ``fu``), draw (``tenpai``, ``abortive`` where the rules have abortive draws),
    chombo (``player``), each with ``riichi``; a yakuman win (a tsumo, or one of ``winners``) may name the
    ``liable`` player (pao). Classical: ``winner``, ``values``.
    """

    version = serializers.IntegerField(min_value=1)
    reason = serializers.CharField(max_length=TEXT_LIMIT, required=False, allow_blank=True)
    result = serializers.CharField()
    winner = serializers.CharField(required=False, allow_null=True)
    discarder = serializers.CharField(required=False, allow_null=True)
    fan = serializers.IntegerField(required=False)
    loser = serializers.CharField(required=False)
    winners = serializers.ListField(child=serializers.JSONField(), required=False)
    player = serializers.CharField(required=False)
    han = serializers.IntegerField(required=False)
    fu = serializers.IntegerField(required=False)
    yakuman = serializers.IntegerField(required=False)
    riichi = serializers.ListField(child=serializers.CharField(), required=False)
    tiles = serializers.JSONField(
        required=False,
        help_text="The winning hand's tiles (riichi ron: on each winner): hand, melds, winning_tile and the "
        "flags of the archive format. A value not given is computed from them; a differing one is held.",
    )
    ruling = serializers.CharField(
        required=False, help_text="A referee's reason to keep a claim that differs."
    )
    tenpai = serializers.ListField(child=serializers.CharField(), required=False)
    liable = serializers.JSONField(
        required=False,
        help_text="Salamanca: a list of {player, share}. Riichi: the key of the player liable for a big "
        "three dragons or big four winds (pao) on a tsumo, or on one of `winners` of a ron: on a tsumo they "
        "pay the whole hand, on a ron they share it with the discarder.",
    )
    abortive = serializers.BooleanField(
        required=False,
        help_text="Riichi draw: an abortive draw (no noten payments), where the rules have them.",
    )
    values = serializers.DictField(child=serializers.IntegerField(), required=False)


class VersionSerializer(serializers.Serializer):
    version = serializers.IntegerField(min_value=1, help_text="The version the writer last saw.")


class ReasonVersionSerializer(VersionSerializer):
    reason = serializers.CharField(max_length=TEXT_LIMIT, required=False, allow_blank=True, default="")


class ConfirmSerializer(VersionSerializer):
    short_reason = serializers.CharField(
        required=False,
        allow_blank=True,
        default="",
        max_length=500,
        help_text="Why the table played fewer hands than a full session (needed then), e.g. time limit reached.",
    )


class ReopenSerializer(serializers.Serializer):
    version = serializers.IntegerField(min_value=1, required=False)
    reason = serializers.CharField(max_length=TEXT_LIMIT, allow_blank=True)


class SeatsSerializer(serializers.Serializer):
    version = serializers.IntegerField(min_value=1, help_text="The version the writer last saw.")
    order = serializers.ListField(
        child=serializers.CharField(max_length=40),
        min_length=4,
        max_length=4,
        help_text="The table's four player keys in the seats they really took: East, South, West, North.",
    )
    reason = serializers.CharField(max_length=TEXT_LIMIT, help_text="Why the seats are corrected (needed).")


class TotalsSerializer(serializers.Serializer):
    version = serializers.IntegerField(min_value=1)
    scores = serializers.ListField(
        child=serializers.JSONField(),
        help_text="The four totals of the score sheet, E S W N (riichi: raw points; others: game points).",
    )
    imbalance_reason = serializers.CharField(
        max_length=TEXT_LIMIT,
        required=False,
        allow_blank=True,
        default="",
        help_text="Referees only: accept totals that do not balance.",
    )
    confirm_unusual = serializers.BooleanField(
        required=False,
        default=False,
        help_text="Referees only: accept totals beyond what a session can end on under the ruleset.",
    )
    reason = serializers.CharField(max_length=TEXT_LIMIT, required=False, allow_blank=True, default="")


class HistoryEntrySerializer(serializers.Serializer):
    what = serializers.CharField(help_text="result or hand N")
    when = serializers.DateTimeField()
    who = serializers.CharField(allow_null=True)
    change = serializers.CharField(help_text="+ created, ~ changed, - deleted")
    reason = serializers.CharField(max_length=TEXT_LIMIT, allow_null=True)
    version = serializers.IntegerField(allow_null=True)
    status = serializers.CharField(allow_null=True)
    hand = serializers.JSONField(allow_null=True)
    scores = serializers.JSONField(allow_null=True)


# -- input checks ------------------------------------------------------------------------------------------


def _validated(serializer_class, data) -> dict:
    serializer = serializer_class(data=data)
    serializer.is_valid(raise_exception=True)
    return serializer.validated_data


def _check_sizes(value: Any, path: str) -> None:
    """Refuse numbers no score sheet can hold before they reach the database."""
    if isinstance(value, bool):
        return
    if isinstance(value, (int, float)) and abs(value) > LARGEST:
        raise RuleError(f"{value} is too large a number", path)
    if isinstance(value, Mapping):
        for k, v in value.items():
            _check_sizes(v, f"{path}.{k}" if path else str(k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            _check_sizes(v, f"{path}[{i}]")


def _hand_of(data: Any) -> dict[str, Any]:
    if not isinstance(data, Mapping):
        raise RuleError(_("send the hand as a JSON object"), "non_field_errors")
    hand = {k: v for k, v in data.items() if k not in RESERVED}
    _check_sizes(hand, "")
    return hand


def _within_hand(exc: RuleError, number: int) -> RuleError:
    """An engine error about the hand being written names the field of the request (``fan``)."""
    prefix = f"hands[{number - 1}]"
    if exc.path == prefix:
        return RuleError(exc.message, "non_field_errors")
    if exc.path.startswith(prefix + "."):
        return RuleError(exc.message, exc.path[len(prefix) + 1 :])
    return exc


# -- the viewset ------------------------------------------------------------------------------------------

TABLE_PARAM = OpenApiParameter(
    "table_pk", OpenApiTypes.INT, OpenApiParameter.PATH, description="The table's id."
)
KEY_PARAMS = [
    TABLE_PARAM,
    OpenApiParameter(
        "X-Table-Key",
        OpenApiTypes.STR,
        OpenApiParameter.HEADER,
        required=False,
        description="The table's private key (instead of a login): this table only, until it is confirmed.",
    ),
    OpenApiParameter(
        "key", OpenApiTypes.STR, OpenApiParameter.QUERY, required=False, description="Same as X-Table-Key."
    ),
]
WRITE_RESPONSES = {
    200: ResultSerializer,
    400: OpenApiResponse(description="The input breaks a rule; the body names the field and the rule."),
    403: OpenApiResponse(description="No role in this tournament and no valid key for this table."),
    404: OpenApiResponse(description="No such table (or its tournament is private)."),
    409: ConflictSerializer,
}


def _responses(code: int = 200) -> dict:
    responses = dict(WRITE_RESPONSES)
    if code != 200:
        responses[code] = responses.pop(200)
    return responses


class TableResultViewSet(viewsets.ViewSet):
    """The result of one table: hand by hand or as totals, then submitted, confirmed, reopened."""

    permission_classes = [permissions.AllowAny]  # checked per table: a role in the tournament or the key
    parser_classes = [BoundedJSONParser]

    # -- lookups --------------------------------------------------------------------------------------
    def _table(self, table_pk) -> Table:
        return selectors.table_for_api(pk=table_pk)

    def _key_opens(self, request, table: Table) -> bool:
        key = table_key_of(request)
        if not key:
            return False
        try:
            return actor_for(user=None, table=table, table_key=key).role == "table"
        except DjangoPermissionDenied:
            return False

    def _actor(self, request, table: Table) -> services.Actor:
        try:
            return actor_for(user=request.user, table=table, table_key=table_key_of(request))
        except DjangoPermissionDenied:
            if not can_view(request.user, table.session.tournament):
                raise Http404 from None
            raise PermissionDenied(
                _("You need a role in this tournament or this table's key to enter results.")
            ) from None

    def _write(self, request, table_pk, write: Callable[[Table, services.Actor], Any], code=200) -> Response:
        table = self._table(table_pk)
        actor = self._actor(request, table)
        try:
            # the answer is the state this write produced: read before the table's lock is released
            with transaction.atomic():
                written = write(table, actor)
                body = result_state(table, actor, written if isinstance(written, TableResult) else None)
        except services.StaleWrite as exc:
            conflict = {
                "detail": _("The table is at version %(version)s; reload it and try again.")
                % {"version": exc.current_version},
                "current_version": exc.current_version,
                "result": result_state(table, actor),
            }
            return Response(conflict, status=status.HTTP_409_CONFLICT)
        return Response(body, status=code)

    def _seat_keys(self, table: Table) -> tuple[list[str], dict[str, str]]:
        return selectors.table_seat_keys(table)

    def _to_seats(self, table: Table, hand: Mapping[str, Any]) -> dict[str, Any]:
        keys, aliases = self._seat_keys(table)
        return handshape.to_seats(hand, keys, table_number=table.number, aliases=aliases)

    # -- reading --------------------------------------------------------------------------------------
    @extend_schema(
        parameters=KEY_PARAMS,
        responses={
            200: ResultSerializer,
            403: OpenApiResponse(
                description="Not confirmed yet, or a session hidden until the standings are revealed."
            ),
            404: None,
        },
        description="The table's result: mode, status, version, scores, the hands with player keys and "
        "the running state after each (scores, dealer, round wind, counters, sticks), and, once confirmed, "
        "the per-seat summary. Public once confirmed (public tournaments), except the last sessions while "
        "the director hides them for the prize-giving; drafts are shown to the tournament's staff and to "
        "the table's key.",
    )
    @action(detail=False, methods=["get"], url_path="result")
    def result(self, request, table_pk=None):
        table = self._table(table_pk)
        tournament = table.session.tournament
        staff = bool(user_roles(request.user, tournament))
        confirmed = TableResult.objects.filter(table=table, status=lifecycle.CONFIRMED).exists()
        if not staff and not (not confirmed and self._key_opens(request, table)):
            if not can_view(request.user, tournament):
                raise Http404
            if not confirmed:
                raise PermissionDenied(_("This result is public once a referee confirms it."))
        if staff:  # a scorer reads a hidden session's table while it is being entered, or the one entered
            hidden = selectors.result_hidden_from(user=request.user, table=table)
        else:
            last = visible_through(tournament=tournament, user=None)
            hidden = last is not None and table.session.number > last
        if hidden and not self._key_opens(request, table):
            raise PermissionDenied(selectors.hidden_result_message(table))
        try:
            actor = actor_for(user=request.user, table=table, table_key=table_key_of(request))
        except DjangoPermissionDenied:
            actor = None
        return Response(result_state(table, actor))

    @extend_schema(
        parameters=[TABLE_PARAM],
        responses={200: HistoryEntrySerializer(many=True)},
        description="Every change of the result and its hands, oldest first (staff of the tournament).",
    )
    @action(detail=False, methods=["get"], url_path="result/history")
    def history(self, request, table_pk=None):
        table = self._table(table_pk)
        if not user_roles(request.user, table.session.tournament):
            if not can_view(request.user, table.session.tournament):
                raise Http404
            raise PermissionDenied(_("The history of a result is for the tournament's staff."))
        if selectors.result_hidden_from(user=request.user, table=table):
            raise PermissionDenied(selectors.hidden_result_message(table))
        result = TableResult.objects.filter(table=table).first()
        entries: list[dict[str, Any]] = []
        if result is not None:
            keys = [r.key for r in services.table_registrations(table)]
            for h in result.history.select_related("history_user"):
                entries.append(self._entry(h, "result", version=h.version, status=h.status, scores=h.scores))
            for h in Hand.history.filter(result_id=result.pk).select_related("history_user"):
                seated = selectors.seating_at(result.seat_corrections, h.history_date, keys)
                entries.append(self._entry(h, f"hand {h.number}", hand=handshape.to_keys(h.data, seated)))
        entries.sort(key=lambda e: e["when"])
        return Response(HistoryEntrySerializer(entries, many=True).data)

    @staticmethod
    def _entry(h, what: str, **extra) -> dict[str, Any]:
        return {
            "what": what,
            "when": h.history_date,
            "who": h.history_user.get_username()
            if h.history_user
            else (
                f"table link of table {h.history_table_link}" if h.history_table_link is not None else None
            ),
            "change": h.history_type,
            "reason": h.history_change_reason,
            "version": None,
            "status": None,
            "hand": None,
            "scores": None,
            **extra,
        }

    # -- hands ----------------------------------------------------------------------------------------
    @extend_schema(
        parameters=KEY_PARAMS,
        request=HandWriteSerializer,
        responses=_responses(201),
        examples=[
            OpenApiExample(
                "MCR win on a discard",
                {"result": "win", "winner": "p1", "discarder": "p3", "fan": 12, "version": 3},
            ),
            OpenApiExample(
                "Riichi tsumo of big three dragons, paid by the liable player",
                {"result": "tsumo", "winner": "p3", "han": 13, "liable": "p1", "riichi": [], "version": 6},
            ),
            OpenApiExample(
                "Riichi ron",
                {
                    "result": "ron",
                    "loser": "p2",
                    "winners": [{"player": "p1", "han": 3, "fu": 30}],
                    "riichi": ["p1"],
                    "version": 5,
                },
            ),
        ],
        description="Add the next hand. A player key that is not at the table is refused by name "
        '("p5 is not seated at table 3"); the whole game is replayed before anything is saved. On a '
        "confirmed table only a referee may, with a `reason`.",
    )
    @action(detail=False, methods=["post"], url_path="result/hands")
    def hands(self, request, table_pk=None):
        version = _validated(VersionSerializer, request.data)["version"]
        hand = _hand_of(request.data)
        reason = str(request.data.get("reason") or "")

        def write(table, actor):
            data = self._to_seats(table, hand)
            try:
                return services.hand_add(
                    table=table, hand=data, actor=actor, expected_version=version, reason=reason
                )
            except RuleError as exc:  # nothing was written: the new hand would have been the next one
                number = Hand.objects.filter(result__table=table).count() + 1
                raise _within_hand(exc, number) from exc

        return self._write(request, table_pk, write, code=status.HTTP_201_CREATED)

    @extend_schema(
        parameters=[*KEY_PARAMS, OpenApiParameter("number", OpenApiTypes.INT, OpenApiParameter.PATH)],
        request=HandWriteSerializer,
        responses=_responses(),
        description="Correct hand `number` (PUT: the whole hand; PATCH: the fields given, a null removes a "
        "field). Needs a `reason`; the whole game is replayed before anything is saved.",
    )
    @action(detail=False, methods=["put", "patch"], url_path=r"result/hands/(?P<number>[0-9]+)")
    def hand(self, request, table_pk=None, number=None):
        data = _validated(ReasonVersionSerializer, request.data)
        number = int(number)
        given = _hand_of(request.data)

        def write(table, actor):
            hand = given
            if request.method == "PATCH":
                stored = Hand.objects.filter(result__table=table, number=number).first()
                if stored is None:
                    raise RuleError(f"there is no hand {number} at this table", "number")
                keys = [r.key for r in services.table_registrations(table)]
                merged = {**handshape.to_keys(stored.data, keys), **given}
                hand = {k: v for k, v in merged.items() if v is not None or k == "discarder"}
            try:
                return services.hand_replace(
                    table=table,
                    number=number,
                    hand=self._to_seats(table, hand),
                    actor=actor,
                    expected_version=data["version"],
                    reason=data["reason"],
                )
            except RuleError as exc:
                raise _within_hand(exc, number) from exc

        return self._write(request, table_pk, write)

    @extend_schema(
        parameters=[
            *KEY_PARAMS,
            OpenApiParameter("version", OpenApiTypes.INT, OpenApiParameter.QUERY, required=False),
            OpenApiParameter("reason", OpenApiTypes.STR, OpenApiParameter.QUERY, required=False),
        ],
        request=ReasonVersionSerializer,
        responses=_responses(),
        description="Undo the last hand. `version` (and `reason`, needed on a confirmed table) in the body "
        "or the query string.",
    )
    @action(detail=False, methods=["delete"], url_path="result/hands/last")
    def hand_undo(self, request, table_pk=None):
        source = request.data if isinstance(request.data, Mapping) and request.data else request.query_params
        data = _validated(ReasonVersionSerializer, source)

        def write(table, actor):
            return services.hand_remove_last(
                table=table, actor=actor, expected_version=data["version"], reason=data["reason"]
            )

        return self._write(request, table_pk, write)

    # -- totals ---------------------------------------------------------------------------------------
    @extend_schema(
        parameters=KEY_PARAMS,
        request=TotalsSerializer,
        responses=_responses(),
        description="The four totals of the table's score sheet, E S W N. MCR, Salamanca and classical "
        "totals must sum to 0 and riichi totals to the starting points (less riichi sticks), unless a "
        "referee states an `imbalance_reason`.",
    )
    @action(detail=False, methods=["put"], url_path="result/totals")
    def totals(self, request, table_pk=None):
        data = _validated(TotalsSerializer, request.data)
        _check_sizes(data["scores"], "scores")

        def write(table, actor):
            return services.totals_set(
                table=table,
                scores=data["scores"],
                actor=actor,
                expected_version=data["version"],
                imbalance_reason=data["imbalance_reason"],
                reason=data["reason"],
                confirm_unusual=data["confirm_unusual"],
            )

        return self._write(request, table_pk, write)

    # -- status ---------------------------------------------------------------------------------------
    @extend_schema(parameters=KEY_PARAMS, request=VersionSerializer, responses=_responses())
    @action(detail=False, methods=["post"], url_path="result/submit")
    def submit(self, request, table_pk=None):
        """The table is finished: the result waits for a referee's confirmation."""
        version = _validated(VersionSerializer, request.data)["version"]
        return self._write(
            request,
            table_pk,
            lambda table, actor: services.result_submit(table=table, actor=actor, expected_version=version),
        )

    @extend_schema(parameters=[TABLE_PARAM], request=ConfirmSerializer, responses=_responses())
    @action(detail=False, methods=["post"], url_path="result/confirm")
    def confirm(self, request, table_pk=None):
        """A referee or director confirms the table: its per-seat rows count in the standings. A player put
        out of the session with no substitute blocks it; fewer hands than a full session need ``short_reason``."""
        data = _validated(ConfirmSerializer, request.data)
        return self._write(
            request,
            table_pk,
            lambda table, actor: services.result_confirm(
                table=table, actor=actor, expected_version=data["version"], short_reason=data["short_reason"]
            ),
        )

    @extend_schema(parameters=[TABLE_PARAM], request=ReopenSerializer, responses=_responses())
    @action(detail=False, methods=["post"], url_path="result/reopen")
    def reopen(self, request, table_pk=None):
        """A referee or director takes a confirmed table back (with a reason); it stops counting."""
        data = _validated(ReopenSerializer, request.data)
        return self._write(
            request,
            table_pk,
            lambda table, actor: services.result_reopen(
                table=table, actor=actor, reason=data["reason"], expected_version=data.get("version")
            ),
        )

    @extend_schema(
        parameters=[TABLE_PARAM],
        request=SeatsSerializer,
        responses=_responses(),
        examples=[
            OpenApiExample(
                "p3 really sat East, p1 South, p2 West",
                {"order": ["p3", "p1", "p2", "p4"], "reason": "p1 and p3 swapped places", "version": 9},
            )
        ],
        description="A referee or director records that the players sat in other seats than the recorded "
        "ones. The hands already entered follow the players (each winner, discarder, payer and riichi is "
        "the player who really sat there), the winds and the dealer order come from the corrected seating "
        "and the game is replayed. Not on a confirmed table (reopen it first) nor in a finished session.",
    )
    @action(detail=False, methods=["post"], url_path="result/seats")
    def seats(self, request, table_pk=None):
        data = _validated(SeatsSerializer, request.data)

        def write(table, actor):
            _keys, aliases = self._seat_keys(table)
            order = [aliases.get(key, key) for key in data["order"]]
            return services.seats_correct(
                table=table, order=order, actor=actor, expected_version=data["version"], reason=data["reason"]
            )

        return self._write(request, table_pk, write)
