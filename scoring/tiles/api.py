"""API of hands from tiles: the value of a hand's tiles at a table, and a referee's resolution of a held
hand. Writing hands with ``tiles`` goes through the table's result endpoints (scoring.api)."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.db import transaction
from django.http import Http404
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiExample, OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import permissions, serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import PermissionDenied
from rest_framework.parsers import JSONParser
from rest_framework.response import Response

from scoring import api as result_api
from scoring import handshape
from scoring import services as result_services
from scoring.rules.base import RuleError
from tournaments.permissions import can_view

from . import services


class ItemSerializer(serializers.Serializer):
    name = serializers.CharField(help_text="The fan, yaku, points or double, as the rules name it.")
    value = serializers.IntegerField(help_text="What it adds (fan, han, points, doubles, or the limit).")
    unit = serializers.ChoiceField(choices=["fan", "han", "yakuman", "points", "doubles", "limit"])
    count = serializers.IntegerField()


class ComputedSerializer(serializers.Serializer):
    family = serializers.CharField()
    claim = serializers.DictField(
        help_text="The hand fields the value fills: fan (MCR, Salamanca), han/fu/yakuman (riichi), value "
        "(classical)."
    )
    items = ItemSerializer(many=True)
    summary = serializers.CharField()
    payment = serializers.DictField(help_text="Riichi: ron, tsumo_dealer, tsumo_other payments.")


class WinCheckSerializer(serializers.Serializer):
    path = serializers.CharField(help_text="Where the tiles are: tiles, or winners[i].tiles.")
    winner = serializers.CharField(help_text="The winner's player key.")
    computed = ComputedSerializer()
    claimed = serializers.DictField(allow_null=True, help_text="What the table claimed; null: nothing.")
    agrees = serializers.BooleanField()


class ValueSerializer(serializers.Serializer):
    number = serializers.IntegerField(help_text="The hand number the value is computed for.")
    hand = serializers.JSONField(help_text="The hand as it would be stored, values filled from the tiles.")
    status = serializers.ChoiceField(choices=services.STATUSES)
    wins = WinCheckSerializer(many=True)


class ValueRequestSerializer(serializers.Serializer):
    """A hand as in the tournament archive with player keys and ``tiles`` on its win(s)."""

    number = serializers.IntegerField(required=False, min_value=1, help_text="Default: the next hand.")
    result = serializers.CharField()
    tiles = serializers.JSONField(required=False)


class ResolveSerializer(serializers.Serializer):
    version = serializers.IntegerField(min_value=1)
    decision = serializers.ChoiceField(
        choices=["claim", "computed"],
        help_text="claim: accept the claimed value (a ruling, needs the reason); computed: take the tiles' value.",
    )
    reason = serializers.CharField(required=False, allow_blank=True, max_length=500)


TILES_EXAMPLE = OpenApiExample(
    "MCR win with tiles",
    value={
        "result": "win",
        "winner": "p1",
        "discarder": "p3",
        "tiles": {
            "hand": "234m567m99p",
            "melds": ["pung 7z", "chow 345s"],
            "winning_tile": "4m",
            "robbing_kong": True,
        },
    },
)


def _keys_out(record: dict[str, Any], keys: list[str]) -> dict[str, Any]:
    out = dict(record)
    out["hand"] = handshape.to_keys(record["hand"], keys)
    out["wins"] = [{**w, "winner": keys[w["winner"]]} for w in record.get("wins", [])]
    return out


class TableTilesViewSet(viewsets.ViewSet):
    """Hands from tiles at one table."""

    permission_classes = [permissions.AllowAny]  # checked per table, as for result entry
    parser_classes = [JSONParser]

    def _access(self, request, table_pk):
        viewset = result_api.TableResultViewSet()
        table = viewset._table(table_pk)
        try:
            actor = result_services.actor_for(
                user=request.user, table=table, table_key=result_api.table_key_of(request)
            )
        except DjangoPermissionDenied:
            if not can_view(request.user, table.session.tournament):
                raise Http404 from None
            raise PermissionDenied("You need a role in this tournament or this table's key.") from None
        return viewset, table, actor

    @extend_schema(
        parameters=result_api.KEY_PARAMS,
        request=ValueRequestSerializer,
        examples=[TILES_EXAMPLE],
        responses={
            200: ValueSerializer,
            400: OpenApiResponse(
                description="The tiles break a rule; the body names the field (tiles.hand…)."
            ),
            403: OpenApiResponse(description="No role in this tournament and no valid key for this table."),
        },
        description="The value of a hand's tiles at this table, with the fan or yaku named and the "
        "claimed value compared, without saving anything. The game state (dealer, winds, counters) is the "
        "one before hand `number`. Used by the tile picker of the hand form.",
    )
    @action(detail=False, methods=["post"], url_path="value")
    def value(self, request, table_pk=None):
        viewset, table, _actor = self._access(request, table_pk)
        body = request.data if isinstance(request.data, dict) else {}
        number = body.get("number")
        if number is not None and (not isinstance(number, int) or isinstance(number, bool) or number < 1):
            raise RuleError("number must be a hand number from 1", "number")
        hand = result_api._hand_of({k: v for k, v in body.items() if k != "number"})
        keys, _aliases = viewset._seat_keys(table)
        record = services.hand_tiles_value(table=table, hand=viewset._to_seats(table, hand), number=number)
        return Response(_keys_out(record, keys))

    @extend_schema(
        parameters=[
            result_api.TABLE_PARAM,
            OpenApiParameter("number", OpenApiTypes.INT, OpenApiParameter.PATH, description="The hand."),
        ],
        request=ResolveSerializer,
        responses=result_api._responses(),
        description="A referee resolves a hand held because its claimed value differs from its tiles: "
        "accept the claim with a reason (kept on the hand as `ruling`) or take the computed value.",
    )
    @action(detail=False, methods=["post"], url_path=r"hands/(?P<number>[0-9]+)/resolve")
    def resolve(self, request, table_pk=None, number=None):
        _viewset, table, actor = self._access(request, table_pk)
        serializer = ResolveSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        try:
            with transaction.atomic():
                services.hand_tiles_resolve(
                    table=table,
                    number=int(number),
                    actor=actor,
                    expected_version=data["version"],
                    decision=data["decision"],
                    reason=data.get("reason", ""),
                )
                body = result_api.result_state(table)
        except DjangoPermissionDenied as exc:
            raise PermissionDenied(str(exc)) from None
        except result_services.StaleWrite as exc:
            return Response(
                {
                    "detail": str(exc),
                    "current_version": exc.current_version,
                    "result": result_api.result_state(table),
                },
                status=status.HTTP_409_CONFLICT,
            )
        return Response(body)
