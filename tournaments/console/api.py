"""REST API of the director's console (directors of the tournament only).

POST /api/tournaments/<slug>/console/sessions/<number>/seat/     seat the session with the engine
POST /api/tournaments/<slug>/console/sessions/<number>/advance/  planned → seated → playing → finished
POST /api/tournaments/<slug>/console/sessions/<number>/reopen/   one step back where it is safe
POST /api/tournaments/<slug>/console/sessions/<number>/checkin/  {"present": [...], "absent": {"p3": "substitute",
                                                                 "p9": "withdraw"}, "substitutes_present": ["s1"],
                                                                 "substitute_answers": {"s1": true}}
POST /api/tournaments/<slug>/console/finish/                     finish the tournament (EMA ranking)
POST /api/tournaments/<slug>/console/reopen/                     reopen a finished tournament
POST /api/tournaments/<slug>/console/reveal/                     {"revealed": true} the hidden last sessions
GET  /api/tournaments/<slug>/console/staff/                      the staff; POST {"who": "ana", "role": "referee"}
POST /api/tournaments/<slug>/console/players/                    register one player (possible duplicates: 409)
GET  /api/tournaments/<slug>/console/ema-list/?q=elodie          search the EMA player list

A refused change answers 400 naming every reason (``non_field_errors``) or the field; nothing is written.
"""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import PermissionDenied
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response

from tournaments import services as base_services
from tournaments.api import visible_players
from tournaments.console import selectors
from tournaments.models import Player, Session, Tournament, TournamentRole
from tournaments.organising import services as organising_services
from tournaments.permissions import can_manage
from tournaments.registrations import checkin as checkin_services
from tournaments.registrations import services as registration_services
from tournaments.seating.engine import SeatingError
from tournaments.sessions import services as session_services
from tournaments.staff import services as staff_services


class SessionStateSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    status = serializers.CharField()
    seating_published = serializers.BooleanField()
    blockers = serializers.ListField(child=serializers.CharField())
    checked_in = serializers.ListField(child=serializers.CharField(), help_text="Keys present at check-in.")
    absent = serializers.ListField(
        child=serializers.CharField(), help_text="Keys absent from this session only (a substitute plays)."
    )


class TournamentStateSerializer(serializers.Serializer):
    status = serializers.CharField()
    blockers = serializers.ListField(child=serializers.CharField())
    standings_hidden_after = serializers.IntegerField(allow_null=True)


class ConsoleReopenSerializer(serializers.Serializer):
    reason = serializers.CharField(
        max_length=500,
        required=False,
        default="",
        allow_blank=True,
        help_text="Why: needed to reopen a finished session or tournament (kept with the reopening).",
    )


class CheckinSerializer(serializers.Serializer):
    present = serializers.ListField(child=serializers.CharField(max_length=40), max_length=2000)
    absent = serializers.DictField(
        child=serializers.ChoiceField(choices=list(checkin_services.ABSENT_CHOICES)),
        required=False,
        default=dict,
        help_text=(
            "Key → what happens to a player who is not here: 'substitute' (absent from this session only: "
            "a substitute plays it, the player stays in the draw for the later sessions) or 'withdraw' "
            "(withdrawn from this session on: listed apart from the ranking)."
        ),
    )
    substitute_answers = serializers.DictField(
        child=serializers.BooleanField(allow_null=True),
        required=False,
        default=dict,
        help_text=(
            "Before the first session only (ERGMT §3.9): substitute key → whether his results count "
            "(true: ranked like a player; false: not ranked; null: not asked). The same record as the "
            "EMA submission's substitute_answers."
        ),
    )
    substitutes_present = serializers.ListField(
        child=serializers.CharField(max_length=40), required=False, default=list, max_length=200
    )
    new_substitutes = serializers.ListField(
        child=serializers.CharField(max_length=100), required=False, default=list, max_length=20
    )

    @staticmethod
    def _bounded(value: dict, limit: int) -> dict:
        if len(value) > limit:
            raise serializers.ValidationError(f"at most {limit} players")
        if any(len(str(k)) > 40 for k in value):
            raise serializers.ValidationError("a player's key is at most 40 characters")
        return value

    def validate_absent(self, value: dict) -> dict:
        return self._bounded(value, 2000)

    def validate_substitute_answers(self, value: dict) -> dict:
        return self._bounded(value, 200)


class RevealSerializer(serializers.Serializer):
    revealed = serializers.BooleanField(
        required=False, default=True, help_text="true shows the hidden last sessions; false hides them again."
    )


class StaffSerializer(serializers.Serializer):
    id = serializers.IntegerField(read_only=True)
    who = serializers.CharField(max_length=254, write_only=True, help_text="Username or e-mail.")
    username = serializers.CharField(read_only=True, source="user.username")
    role = serializers.ChoiceField(choices=["director", "referee", "scorer"])


class PlayerInSerializer(serializers.Serializer):
    first_name = serializers.CharField(max_length=100, required=False, allow_blank=True)
    last_name = serializers.CharField(max_length=100, required=False, allow_blank=True)
    ema_id = serializers.RegexField(r"^\d{8}$", required=False, allow_blank=True, allow_null=True)
    country = serializers.CharField(max_length=3, required=False, allow_blank=True)
    club = serializers.CharField(max_length=150, required=False, allow_blank=True)
    is_substitute = serializers.BooleanField(required=False, default=False)
    same_player = serializers.IntegerField(
        required=False,
        allow_null=True,
        help_text="After a 409: the id of the known player to register, or 0 for a new player.",
    )

    def validate(self, attrs):
        if not attrs.get("first_name") and not attrs.get("same_player") and not attrs.get("ema_id"):
            raise serializers.ValidationError({"first_name": ["Give the first name (or an EMA number)."]})
        return attrs


class EMAPlayerSerializer(serializers.Serializer):
    ema_id = serializers.CharField()
    first_name = serializers.CharField()
    last_name = serializers.CharField()
    country = serializers.CharField()


SLUG = OpenApiParameter("tournament_slug", str, OpenApiParameter.PATH, description="The tournament's slug")
NUMBER = OpenApiParameter("number", int, OpenApiParameter.PATH, description="The session's number")


class _ConsoleBase(viewsets.ViewSet):
    permission_classes = [IsAuthenticated]
    lookup_field = "number"
    lookup_value_regex = r"[0-9]+"

    def _tournament(self) -> Tournament:
        tournament = get_object_or_404(Tournament, slug=self.kwargs["tournament_slug"])
        if not can_manage(self.request.user, tournament):
            raise PermissionDenied("You need the director role in this tournament.")
        return tournament

    def _session(self, number) -> Session:
        return get_object_or_404(Session, tournament=self._tournament(), number=int(number))

    @staticmethod
    def _session_state(session: Session) -> Response:
        blockers = (
            session_services.session_blockers(session=session)
            if session.status == Session.Status.PLAYING
            else []
        )
        return Response(
            SessionStateSerializer(
                {
                    "number": session.number,
                    "status": session.status,
                    "seating_published": session.seating_published,
                    "blockers": blockers,
                    "checked_in": list(session.checked_in or []),
                    "absent": list(session.absent or []),
                }
            ).data
        )

    def _tournament_state(self, tournament: Tournament) -> Response:
        tournament.refresh_from_db()
        return Response(
            TournamentStateSerializer(
                {
                    "status": tournament.status,
                    "blockers": organising_services.tournament_blockers(tournament=tournament)
                    if tournament.status != Tournament.Status.FINISHED
                    else [],
                    "standings_hidden_after": selectors.hidden_after(tournament=tournament),
                }
            ).data
        )


@extend_schema(parameters=[SLUG, NUMBER])
class ConsoleSessionViewSet(_ConsoleBase):
    """A session's check-in and state."""

    @extend_schema(request=None, responses=SessionStateSerializer)
    @action(detail=True, methods=["post"], url_path="seat", url_name="seat")
    def seat(self, request, tournament_slug=None, number=None):
        """Seat a planned session with the seating engine (a draft until it is published)."""

        session = self._session(number)
        try:
            session_services.session_seat(session=session)
        except SeatingError as exc:
            return Response({"non_field_errors": exc.faults}, status=status.HTTP_400_BAD_REQUEST)
        return self._session_state(session)

    @extend_schema(request=None, responses=SessionStateSerializer)
    @action(detail=True, methods=["post"])
    def advance(self, request, tournament_slug=None, number=None):
        """Planned → seated (seating published) → playing → finished; finishing names what blocks it."""
        return self._session_state(session_services.session_advance(session=self._session(number)))

    @extend_schema(request=ConsoleReopenSerializer, responses=SessionStateSerializer)
    @action(detail=True, methods=["post"], url_path="reopen", url_name="reopen")
    def reopen_session(self, request, tournament_slug=None, number=None):
        """One step back where it is safe; reopening a finished session needs a ``reason``."""
        data = ConsoleReopenSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        return self._session_state(
            session_services.session_reopen(
                session=self._session(number), reason=data.validated_data["reason"], user=request.user
            )
        )

    @extend_schema(request=CheckinSerializer, responses=SessionStateSerializer)
    @action(detail=True, methods=["post"])
    def checkin(self, request, tournament_slug=None, number=None):
        """Who is present before the session; an absent player misses this session only (a substitute
        plays it) or withdraws; before the first session, the substitutes' answers (ERGMT §3.9)."""
        session = self._session(number)
        data = CheckinSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        checkin_services.checkin_apply(session=session, **data.validated_data)
        session.refresh_from_db()
        return self._session_state(session)


@extend_schema(parameters=[SLUG])
class ConsoleViewSet(_ConsoleBase):
    """The tournament's state, staff and players."""

    @extend_schema(request=None, responses=TournamentStateSerializer)
    @action(detail=False, methods=["post"])
    def finish(self, request, tournament_slug=None):
        """Finish the tournament: it counts for the EMA ranking."""
        tournament = self._tournament()
        organising_services.tournament_finish(tournament=tournament)
        return self._tournament_state(tournament)

    @extend_schema(request=ConsoleReopenSerializer, responses=TournamentStateSerializer)
    @action(detail=False, methods=["post"], url_path="reopen", url_name="reopen")
    def reopen_tournament(self, request, tournament_slug=None):
        """Reopen the finished tournament, with a ``reason``: it leaves the EMA ranking and the exports made
        before are out of date until they are made again."""
        tournament = self._tournament()
        data = ConsoleReopenSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        organising_services.tournament_reopen(
            tournament=tournament, reason=data.validated_data["reason"], user=request.user
        )
        return self._tournament_state(tournament)

    @extend_schema(request=RevealSerializer, responses=TournamentStateSerializer)
    @action(detail=False, methods=["post"])
    def reveal(self, request, tournament_slug=None):
        """Make the hidden last sessions' standings public (``revealed: false`` hides them again)."""
        tournament = self._tournament()
        data = RevealSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        organising_services.standings_reveal(tournament=tournament, revealed=data.validated_data["revealed"])
        return self._tournament_state(tournament)

    # -- staff and players -----------------------------------------------------------------------------
    @extend_schema(methods=["GET"], responses=StaffSerializer(many=True))
    @extend_schema(methods=["POST"], request=StaffSerializer, responses={201: StaffSerializer})
    @action(detail=False, methods=["get", "post"])
    def staff(self, request, tournament_slug=None):
        """The tournament's staff; add someone who has an account by username or e-mail."""
        tournament = self._tournament()
        if request.method == "POST":
            data = StaffSerializer(data=request.data)
            data.is_valid(raise_exception=True)
            role = staff_services.staff_add(
                tournament=tournament, identifier=data.validated_data["who"], role=data.validated_data["role"]
            )
            return Response(StaffSerializer(role).data, status=status.HTTP_201_CREATED)
        roles = TournamentRole.objects.filter(tournament=tournament).select_related("user").order_by("role")
        return Response(StaffSerializer(roles, many=True).data)

    @extend_schema(request=PlayerInSerializer, responses={201: None, 409: None})
    @action(detail=False, methods=["post"])
    def players(self, request, tournament_slug=None):
        """Register one player. A possible duplicate (same name ignoring case and accents, or the same EMA
        number) answers 409 with the known players; send again with ``same_player`` (an id, or 0)."""
        tournament = self._tournament()
        data = PlayerInSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        values = dict(data.validated_data)
        choice = values.pop("same_player", None)
        duplicates = registration_services.possible_duplicates(
            tournament=tournament,
            first_name=values.get("first_name", ""),
            last_name=values.get("last_name", ""),
            ema_id=values.get("ema_id"),
            among=visible_players(request.user),
        )
        if duplicates and choice is None:
            return Response(
                {
                    "detail": "Someone with this name or EMA number is already known: send same_player.",
                    "possible_duplicates": [
                        {"id": p.pk, "name": p.full_name, "ema_id": p.ema_id, "country": p.country}
                        for p in duplicates
                    ],
                },
                status=status.HTTP_409_CONFLICT,
            )
        existing = None
        if choice:
            existing = Player.objects.filter(pk=choice).first()
            if existing is None:
                raise base_services.player_hidden_error(field="same_player")
        registration = registration_services.player_register(
            tournament=tournament, existing=existing, user=request.user, **values
        )
        return Response(
            {
                "key": registration.key,
                "player": registration.player_id,
                "name": registration.player.full_name,
            },
            status=status.HTTP_201_CREATED,
        )

    @extend_schema(
        parameters=[OpenApiParameter("q", str, description="EMA number or name, case and accents ignored")],
        responses=EMAPlayerSerializer(many=True),
    )
    @action(detail=False, methods=["get"], url_path="ema-list", url_name="ema-list")
    def ema_list(self, request, tournament_slug=None):
        self._tournament()
        query = request.query_params.get("q", "")[:60]
        return Response(EMAPlayerSerializer(selectors.ema_list_search(query=query), many=True).data)
