"""REST API of the session clock (the contract venue tools and tests use) and of the announcements.

GET  /api/tournaments/<slug>/clock/           the current session's clock at the server's time (public)
POST /api/tournaments/<slug>/clock/           {"action": "start"|"pause"|"resume"|"extend"|"end",
                                               "seconds": int, "table": int, "session": int}
                                              directors and referees; 403 for everyone else; 409 when
                                              the action does not fit the state; 400 names the field
GET  /api/tournaments/<slug>/announcements/   what the venue screen shows (public)
POST /api/tournaments/<slug>/announcements/   {"text": "…"} (directors)
DELETE /api/tournaments/<slug>/announcements/<id>/   hide one (directors)

Pages count down by themselves from ``ends_at`` and ``server_time`` (correcting for the device's own
clock); the GET answers from the cache without a database query.
"""

from __future__ import annotations

from django.http import Http404
from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import permissions, serializers, status
from rest_framework.exceptions import PermissionDenied
from rest_framework.response import Response
from rest_framework.views import APIView

from tournaments.clock import engine, selectors, services
from tournaments.models import Announcement, Tournament
from tournaments.permissions import can_manage, can_referee, can_view

NOT_ALLOWED = "You need the director or referee role in this tournament."


class ClockTableSerializer(serializers.Serializer):
    table = serializers.IntegerField()
    extra_seconds = serializers.IntegerField(help_text="Added to (or, negative, removed from) this table.")
    ends_at = serializers.DateTimeField(allow_null=True, help_text="When time is up at this table.")
    remaining_seconds = serializers.IntegerField(allow_null=True)
    phase = serializers.ChoiceField(
        choices=[engine.WAITING, engine.NORMAL, engine.SIGNAL, engine.RED, engine.OVER]
    )


class ClockSerializer(serializers.Serializer):
    session = serializers.IntegerField(allow_null=True, help_text="The session number the clock is about.")
    state = serializers.ChoiceField(
        choices=list(engine.STATES), help_text='A running clock whose time is up reads "ended".'
    )
    ends_at = serializers.DateTimeField(allow_null=True, help_text="Null while stopped or paused.")
    remaining_seconds = serializers.IntegerField(allow_null=True)
    server_time = serializers.DateTimeField(help_text="Count down from this, not from the device's clock.")
    tables = ClockTableSerializer(many=True)
    signal_at = serializers.DateTimeField(allow_null=True, help_text="When the warning signal sounds.")
    phase = serializers.ChoiceField(
        choices=[engine.WAITING, engine.NORMAL, engine.SIGNAL, engine.RED, engine.OVER]
    )
    length_seconds = serializers.IntegerField()
    extra_seconds = serializers.IntegerField()
    end_of_time = serializers.ChoiceField(
        choices=list(engine.END_RULES),
        help_text="When time is up: finish the hand in play, it and one more, or stop at once (the hand in "
        "play scores nothing); after_signal: from the signal, the hand in play and one more, with no sound "
        "at the end.",
    )
    signal_seconds = serializers.IntegerField()
    red_zone_seconds = serializers.IntegerField()
    closed = serializers.BooleanField(help_text="Ended by a director or referee (not only time up).")
    version = serializers.IntegerField()


class ClockActionSerializer(serializers.Serializer):
    action = serializers.ChoiceField(choices=list(engine.ACTIONS))
    seconds = serializers.IntegerField(
        required=False,
        min_value=-engine.MAX_ADJUST_SECONDS,
        max_value=engine.MAX_LENGTH_SECONDS,
        help_text="start: the session's length (default: the tournament's); extend: seconds to add, "
        "negative to remove.",
    )
    table = serializers.IntegerField(
        required=False, min_value=1, max_value=9999, help_text="extend: only this table."
    )
    session = serializers.IntegerField(
        required=False,
        min_value=1,
        max_value=999,
        help_text="The session to act on (default: the clock's current session, or the next one to start).",
    )


def _tournament_for_read(request, slug: str) -> dict:
    doc = selectors.document(slug=slug)
    if not doc["tournament"]["is_public"]:
        tournament = get_object_or_404(Tournament, slug=slug)
        if not can_view(request.user, tournament):
            raise Http404("No such tournament.")
    return doc


class ClockView(APIView):
    permission_classes = [permissions.AllowAny]  # writes check the role in the tournament themselves

    @extend_schema(responses=ClockSerializer, summary="The current session's clock")
    def get(self, request, tournament_slug: str):
        doc = _tournament_for_read(request, tournament_slug)
        response = Response(selectors.clock_view(doc))
        response["Cache-Control"] = "no-store"
        return response

    @extend_schema(
        request=ClockActionSerializer,
        responses={
            200: ClockSerializer,
            400: None,
            403: None,
            409: inline_serializer(
                "ClockConflict",
                {
                    "detail": serializers.CharField(help_text="Why the action does not fit the state."),
                    "clock": ClockSerializer(),
                },
            ),
        },
        summary="Start, pause, resume, extend (the session or one table) or end the clock",
    )
    def post(self, request, tournament_slug: str):
        tournament = get_object_or_404(Tournament, slug=tournament_slug)
        if not request.user.is_authenticated or not can_referee(request.user, tournament):
            raise PermissionDenied(NOT_ALLOWED)
        data = ClockActionSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        values = data.validated_data
        try:
            stored = services.clock_act(
                tournament=tournament,
                user=request.user,
                action=values["action"],
                seconds=values.get("seconds"),
                table=values.get("table"),
                session_number=values.get("session"),
            )
        except engine.ClockError as exc:
            if exc.conflict:
                current = selectors.clock_view(selectors.build_document(tournament=tournament))
                return Response({"detail": exc.message, "clock": current}, status=status.HTTP_409_CONFLICT)
            return Response({exc.field: [exc.message], "detail": f"{exc.field}: {exc.message}"}, status=400)
        return Response(
            selectors.clock_view(selectors.build_document(tournament=tournament, session=stored.session))
        )


class AnnouncementSerializer(serializers.ModelSerializer):
    class Meta:
        model = Announcement
        fields = ["id", "text", "created_at"]
        read_only_fields = ["id", "created_at"]


class AnnouncementCreateSerializer(serializers.Serializer):
    text = serializers.CharField(max_length=services.MAX_ANNOUNCEMENT)


class AnnouncementsView(APIView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(responses=AnnouncementSerializer(many=True), summary="Announcements on the venue screen")
    def get(self, request, tournament_slug: str):
        tournament = get_object_or_404(Tournament, slug=tournament_slug)
        if not can_view(request.user, tournament):
            raise Http404("No such tournament.")
        rows = selectors.announcements(tournament=tournament, limit=50)
        return Response(AnnouncementSerializer(rows, many=True).data)

    @extend_schema(request=AnnouncementCreateSerializer, responses={201: AnnouncementSerializer})
    def post(self, request, tournament_slug: str):
        tournament = get_object_or_404(Tournament, slug=tournament_slug)
        if not request.user.is_authenticated or not can_manage(request.user, tournament):
            raise PermissionDenied("You need the director role in this tournament.")
        data = AnnouncementCreateSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        try:
            row = services.announcement_add(
                tournament=tournament, user=request.user, text=data.validated_data["text"]
            )
        except engine.ClockError as exc:
            return Response({exc.field: [exc.message], "detail": f"{exc.field}: {exc.message}"}, status=400)
        return Response(AnnouncementSerializer(row).data, status=status.HTTP_201_CREATED)


class AnnouncementDetailView(APIView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(responses={204: None}, summary="Hide an announcement")
    def delete(self, request, tournament_slug: str, pk: int):
        row = get_object_or_404(Announcement, pk=pk, tournament__slug=tournament_slug)
        if not request.user.is_authenticated or not can_manage(request.user, row.tournament):
            raise PermissionDenied("You need the director role in this tournament.")
        services.announcement_hide(announcement=row, user=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)
