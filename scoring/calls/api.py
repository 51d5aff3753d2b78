"""REST API of referee calls.

    GET, POST  /api/tables/{table_pk}/referee-call/                       the table's call; call a referee
    GET        /api/tournaments/{slug}/referee-calls/                     the calls, for referees and directors
    POST       /api/tournaments/{slug}/referee-calls/{id}/acknowledge/    on my way
    POST       /api/tournaments/{slug}/referee-calls/{id}/resolve/        resolved: a note, a penalty, a hand

A table calls with its private key (``X-Table-Key`` or ``key``) or by a user with a role in its tournament;
calling while the table's call is not resolved answers 200 with that call (a new call answers 201).
Referees and directors of the call's tournament list, acknowledge and resolve; nothing crosses tournaments.
"""

from __future__ import annotations

from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.http import Http404
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import permissions, serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import PermissionDenied
from rest_framework.response import Response

from config.api import require_object
from config.parsers import BoundedJSONParser
from scoring.api import KEY_PARAMS, table_key_of
from scoring.models import RefereeCall
from scoring.rules.base import RuleError
from scoring.rules.text import gettext_noop
from tournaments.models import Table, Tournament
from tournaments.permissions import actor_for, can_referee, can_view

from . import selectors, services


class RefereeCallSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    tournament = serializers.CharField(help_text="The tournament's slug.")
    session = serializers.IntegerField(help_text="The session's number.")
    table = serializers.IntegerField(help_text="The table's number in its session.")
    table_id = serializers.IntegerField()
    reason = serializers.ChoiceField(choices=RefereeCall.Reason.values)
    status = serializers.ChoiceField(choices=RefereeCall.Status.values)
    called_at = serializers.DateTimeField()
    acknowledged_at = serializers.DateTimeField(allow_null=True)
    acknowledged_by = serializers.CharField(help_text="The referee on the way, as named to the table.")
    resolved_at = serializers.DateTimeField(allow_null=True)
    resolved_by = serializers.CharField()
    note = serializers.CharField()
    penalty = serializers.IntegerField(allow_null=True, help_text="The penalty that resolved the call.")
    hand_number = serializers.IntegerField(allow_null=True, help_text="The hand corrected to resolve it.")


class CallCreateSerializer(serializers.Serializer):
    reason = serializers.ChoiceField(choices=RefereeCall.Reason.values)


class CallResolveSerializer(serializers.Serializer):
    note = serializers.CharField(required=False, max_length=services.NOTE_LIMIT)
    penalty = serializers.IntegerField(required=False, allow_null=True)
    hand_number = serializers.IntegerField(required=False, allow_null=True)


def call_body(call: RefereeCall) -> dict:
    return {
        "id": call.pk,
        "tournament": call.tournament.slug,
        "session": call.session.number,
        "table": call.table.number,
        "table_id": call.table_id,
        "reason": call.reason,
        "status": call.status,
        "called_at": call.called_at,
        "acknowledged_at": call.acknowledged_at,
        "acknowledged_by": call.acknowledged_name,
        "resolved_at": call.resolved_at,
        "resolved_by": call.resolved_name,
        "note": call.note,
        "penalty": call.penalty_id,
        "hand_number": call.hand_number,
    }


class TableCallViewSet(viewsets.ViewSet):
    """A table's call of a referee."""

    permission_classes = [permissions.AllowAny]  # checked per table: a role in the tournament or the key
    parser_classes = [BoundedJSONParser]

    def _table_actor(self, request, table_pk):
        table = get_object_or_404(Table.objects.select_related("session__tournament"), pk=table_pk)
        try:
            return table, actor_for(user=request.user, table=table, table_key=table_key_of(request))
        except DjangoPermissionDenied:
            if not can_view(request.user, table.session.tournament):
                raise Http404 from None
            raise PermissionDenied(_("You need a role in this tournament or this table's key.")) from None

    @extend_schema(
        parameters=KEY_PARAMS,
        responses={200: RefereeCallSerializer, 204: None, 403: None, 404: None},
        description="The table's call as its page shows it: the one not resolved, or the last one resolved "
        "a moment ago; 204 when there is none.",
    )
    @action(detail=False, methods=["get"], url_path="referee-call")
    def show(self, request, table_pk=None):
        table, _actor = self._table_actor(request, table_pk)
        call = selectors.table_call(table=table)
        if call is None:
            return Response(status=status.HTTP_204_NO_CONTENT)
        return Response(call_body(call))

    @show.mapping.post
    @extend_schema(
        parameters=KEY_PARAMS,
        request=CallCreateSerializer,
        responses={
            201: RefereeCallSerializer,
            200: OpenApiResponse(RefereeCallSerializer, description="The table's call already open."),
            400: OpenApiResponse(description="The reason is not one of the list; the body names the field."),
            403: None,
            404: None,
        },
        description="Call a referee to the table with a reason (dispute, foul, wrong claim, question). One "
        "call per table at a time: while one is open, the answer is that call (200), not a new one.",
    )
    def create_call(self, request, table_pk=None):
        table, actor = self._table_actor(request, table_pk)
        data = require_object(request.data)
        call, created = services.call_create(table=table, actor=actor, reason=data.get("reason"))
        return Response(call_body(call), status=status.HTTP_201_CREATED if created else status.HTTP_200_OK)


STATUS_PARAM = OpenApiParameter(
    "status",
    OpenApiTypes.STR,
    OpenApiParameter.QUERY,
    required=False,
    enum=[*RefereeCall.Status.values, "waiting"],
    description="Only calls of this status; waiting: open or acknowledged.",
)
SLUG_PARAM = OpenApiParameter(
    "tournament_slug", OpenApiTypes.STR, OpenApiParameter.PATH, description="The tournament's slug."
)
ID_PARAM = OpenApiParameter("id", OpenApiTypes.INT, OpenApiParameter.PATH, description="The call's id.")
SESSION_PARAM = OpenApiParameter(
    "session", OpenApiTypes.INT, OpenApiParameter.QUERY, required=False, description="A session's number."
)


class RefereeCallViewSet(viewsets.ViewSet):
    """The calls of a tournament, for its referees and directors."""

    permission_classes = [permissions.IsAuthenticated]
    parser_classes = [BoundedJSONParser]

    def _tournament(self, request) -> Tournament:
        tournament = get_object_or_404(Tournament, slug=self.kwargs["tournament_slug"])
        if not can_referee(request.user, tournament):
            if not can_view(request.user, tournament):
                raise Http404
            raise PermissionDenied(_("You need the director or referee role in this tournament."))
        return tournament

    def _call(self, request, pk) -> RefereeCall:
        tournament = self._tournament(request)
        return get_object_or_404(
            RefereeCall.objects.select_related("tournament", "session", "table"), tournament=tournament, pk=pk
        )

    @extend_schema(
        parameters=[SLUG_PARAM, STATUS_PARAM, SESSION_PARAM],
        responses={200: RefereeCallSerializer(many=True), 400: None, 403: None, 404: None},
        description="The tournament's calls, the longest waiting first among those not resolved, then the "
        "resolved ones in the order they were made.",
    )
    def list(self, request, tournament_slug=None):
        tournament = self._tournament(request)
        calls = selectors.tournament_calls(tournament=tournament).select_related("tournament")
        wanted = request.query_params.get("status")
        if wanted == "waiting":
            calls = calls.exclude(status=RefereeCall.Status.RESOLVED)
        elif wanted:
            if wanted not in RefereeCall.Status.values:
                raise RuleError(
                    gettext_noop("status must be open, acknowledged, resolved or waiting"), "status"
                )
            calls = calls.filter(status=wanted)
        session = request.query_params.get("session")
        if session:
            if not session.isdigit() or len(session) > 4:
                raise RuleError(gettext_noop("session must be a session's number"), "session")
            calls = calls.filter(session__number=int(session))
        rows = sorted(
            calls,
            key=lambda c: (c.status == RefereeCall.Status.RESOLVED, c.status != "open", c.called_at, c.pk),
        )
        return Response([call_body(c) for c in rows])

    @extend_schema(
        parameters=[SLUG_PARAM, ID_PARAM],
        request=None,
        responses={200: RefereeCallSerializer, 400: None, 403: None, 404: None},
        description="On my way: the table's page names the referee. Refused (400 on status) once resolved.",
    )
    @action(detail=True, methods=["post"])
    def acknowledge(self, request, tournament_slug=None, pk=None):
        call = self._call(request, pk)
        call = services.call_acknowledge(call=call, actor=actor_for(user=request.user, table=call.table))
        return Response(call_body(call))

    @extend_schema(
        parameters=[SLUG_PARAM, ID_PARAM],
        request=CallResolveSerializer,
        responses={200: RefereeCallSerializer, 400: None, 403: None, 404: None},
        description="Resolve the call with a note, a penalty recorded at the table since the call "
        "(``penalty``: its id), or a corrected hand of the table (``hand_number``); at least one of them.",
    )
    @action(detail=True, methods=["post"])
    def resolve(self, request, tournament_slug=None, pk=None):
        call = self._call(request, pk)
        data = require_object(request.data)
        call = services.call_resolve(
            call=call,
            actor=actor_for(user=request.user, table=call.table),
            note=data.get("note", ""),
            penalty_id=data.get("penalty"),
            hand_number=data.get("hand_number"),
        )
        return Response(call_body(call))
