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
from rest_framework.response import Response

from config.parsers import BoundedJSONParser
from scoring import api as result_api
from scoring import handshape
from scoring import services as result_services
from scoring.models import Hand
from scoring.rules.base import RuleError
from scoring.rules.text import gettext_noop
from tournaments.models import Tournament
from tournaments.permissions import actor_for, can_referee, can_view, is_any_director

from . import services
from .selectors import notable_hands, tournament_statistics


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
    parser_classes = [BoundedJSONParser]

    def _access(self, request, table_pk):
        viewset = result_api.TableResultViewSet()
        table = viewset._table(table_pk)
        try:
            actor = actor_for(user=request.user, table=table, table_key=result_api.table_key_of(request))
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
            raise RuleError(gettext_noop("number must be a hand number from 1"), "number")
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
                result_services.hand_tiles_resolve(
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


class NotableHandSerializer(serializers.Serializer):
    id = serializers.IntegerField(read_only=True)
    person = serializers.CharField(max_length=200, required=False)
    title = serializers.CharField(max_length=200)
    value = serializers.IntegerField(min_value=0, max_value=100_000, required=False)
    unit = serializers.ChoiceField(choices=["fan", "han", "points"], default="fan")
    hand_text = serializers.CharField(max_length=200, required=False, allow_blank=True)
    tiles = serializers.JSONField(required=False, allow_null=True)
    opponents = serializers.CharField(max_length=400, required=False, allow_blank=True)
    date = serializers.DateField(required=False)
    tournament = serializers.CharField(
        source="tournament.slug", read_only=True, allow_null=True, default=None
    )
    hand = serializers.IntegerField(
        write_only=True,
        required=False,
        help_text="Register this recorded hand (its id): person, value, tiles, "
        "opponents and date come from it.",
    )


class NotableHandViewSet(viewsets.ViewSet):
    """The register of notable hands (Salamanca rules, appendix A), kept across tournaments."""

    permission_classes = [permissions.AllowAny]
    parser_classes = [BoundedJSONParser]

    @extend_schema(responses={200: NotableHandSerializer(many=True)})
    def list(self, request):
        return Response(NotableHandSerializer(notable_hands(user=request.user)[:1000], many=True).data)

    @extend_schema(
        request=NotableHandSerializer,
        responses={
            201: NotableHandSerializer,
            400: OpenApiResponse(description="The field and the rule."),
            403: OpenApiResponse(description="Not a director (by hand) or referee (from a hand)."),
        },
        description="Add an entry: by hand (a tournament director: person, title, value, unit, date, and "
        "optionally hand_text, tiles, opponents) or from a recorded hand with tiles (`hand` and `title`; a "
        "referee or director of that hand's tournament).",
    )
    def create(self, request):
        serializer = NotableHandSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        if data.get("hand") is not None:
            hand = (
                Hand.objects.select_related("result__table__session__tournament")
                .filter(pk=data["hand"])
                .first()
            )
            if hand is None:
                raise RuleError(gettext_noop("there is no hand %(_value)s", _value=data["hand"]), "hand")
            if not can_referee(request.user, hand.result.table.session.tournament):
                raise PermissionDenied("Only a referee or a director of the tournament registers its hands.")
            entry = services.notable_hand_from_hand(hand=hand, title=data["title"], user=request.user)
        else:
            if not is_any_director(request.user):
                raise PermissionDenied("Only a tournament director adds entries by hand.")
            for name in ("person", "value", "date"):
                if data.get(name) in (None, ""):
                    raise RuleError(
                        gettext_noop("%(_name)s is required for an entry by hand", _name=name), name
                    )
            entry = services.notable_hand_create(
                person=data["person"],
                title=data["title"],
                value=data["value"],
                unit=data["unit"],
                date=data["date"],
                hand_text=data.get("hand_text", ""),
                opponents=data.get("opponents", ""),
                tiles=data.get("tiles"),
                user=request.user,
            )
        return Response(NotableHandSerializer(entry).data, status=status.HTTP_201_CREATED)


class PlayerStatsSerializer(serializers.Serializer):
    player = serializers.CharField()
    name = serializers.CharField()
    hands = serializers.IntegerField()
    wins = serializers.IntegerField()
    self_drawn = serializers.IntegerField()
    discard_wins = serializers.IntegerField()
    deal_ins = serializers.IntegerField()
    draws = serializers.IntegerField()
    average = serializers.FloatField(allow_null=True)
    biggest = serializers.CharField(allow_null=True)
    riichi_rate = serializers.FloatField(allow_null=True)


class StatisticsSerializer(serializers.Serializer):
    hands = serializers.IntegerField()
    with_tiles = serializers.IntegerField()
    players = PlayerStatsSerializer(many=True)
    items = serializers.ListField(
        child=serializers.ListField(), help_text="[fan or yaku, times], most frequent first."
    )
    biggest = serializers.ListField(child=serializers.DictField())
    best_hand_ranking = serializers.ListField(child=serializers.DictField())


class StatisticsViewSet(viewsets.ViewSet):
    permission_classes = [permissions.AllowAny]
    lookup_field = "tournament_slug"
    schema_single_object = True  # ``list`` answers one statistics document, not a list

    @extend_schema(
        parameters=[OpenApiParameter("tournament_slug", str, OpenApiParameter.PATH)],
        responses={200: StatisticsSerializer, 404: None},
        description="A tournament's hand statistics: per player, the most frequent fan or yaku where tiles "
        "are known, the biggest hands and the best-hand ranking.",
    )
    def list(self, request, tournament_slug: str):
        from django.shortcuts import get_object_or_404

        tournament = get_object_or_404(Tournament, slug=tournament_slug)
        if not can_view(request.user, tournament):
            raise Http404
        s = tournament_statistics(tournament=tournament, user=request.user)
        riichi = s.declares_riichi
        return Response(
            {
                "hands": s.hands,
                "with_tiles": s.with_tiles,
                "players": [
                    {
                        "player": p.key,
                        "name": p.name,
                        "hands": p.hands,
                        "wins": p.wins,
                        "self_drawn": p.self_drawn,
                        "discard_wins": p.discard_wins,
                        "deal_ins": p.deal_ins,
                        "draws": p.draws,
                        "average": p.average,
                        "biggest": p.biggest.label if p.biggest else None,
                        "riichi_rate": p.riichi_rate if riichi else None,
                    }
                    for p in s.players
                ],
                "items": [[name, n] for name, n in s.items],
                "biggest": [
                    {
                        "player": b.key,
                        "name": b.name,
                        "hand": b.win.label,
                        "items": list(b.win.items),
                        "session": b.session,
                        "table": b.table,
                        "number": b.hand,
                    }
                    for b in s.biggest
                ],
                "best_hand_ranking": [
                    {"rank": i, "player": p.key, "name": p.name, "hand": p.biggest.label}
                    for i, p in enumerate(s.best_hand_ranking(), start=1)
                ],
            }
        )
