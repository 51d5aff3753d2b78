"""REST API of penalties: public list, recording by referees, cancellation and appeals.

    GET   /api/penalties/?tournament=<slug>&session=<n>&player=<key>&kind=<kind>&table=<n>&status=<…>
    GET   /api/penalties/{id}/
    POST  /api/penalties/                 record one (shaped as in the tournament archive, with player keys)
    POST  /api/penalties/{id}/cancel/     {reason}
    POST  /api/penalties/{id}/appeal/     {appeal, decision}

The public sees the active penalties of public tournaments, with their amounts and reasons; the staff of
a tournament also sees the cancelled ones. Only referees and directors record, cancel and appeal. The
amounts come from the tournament's ruleset through ``penalties.services``; only referee decisions and
table points deductions carry their own. Every write may carry an ``Idempotency-Key`` header: a repeat
gets the first answer and records nothing again (``idempotency``).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from django.db.models import Q
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (
    OpenApiExample,
    OpenApiParameter,
    OpenApiResponse,
    extend_schema,
    extend_schema_field,
)
from rest_framework import mixins, permissions, serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.response import Response

from penalties import services
from penalties.kinds import kind_of
from penalties.models import Kind, Penalty, Scope, Variant
from scoring.rules.base import RuleError
from scoring.rules.numbers import POINTS_LIMIT, TEXT_LIMIT, read_number
from tournaments.fields import plain_number
from tournaments.models import Registration, Role, Session, Table, Tournament
from tournaments.permissions import Actor, user_roles
from tournaments.selectors import HIDE_SETTING, visible_through


def actor_in(user, tournament: Tournament) -> Actor:
    """The user's strongest role in the tournament (none: an actor the services refuse)."""
    roles = user_roles(user, tournament)
    for role in (Role.DIRECTOR, Role.REFEREE, Role.SCORER):
        if role in roles:
            return Actor(user=user, role=role)
    return Actor(user=user, role="")


def _amount(value) -> Any:
    return None if value is None else plain_number(value)


# -- output -------------------------------------------------------------------------------------------------


class TransfersSerializer(serializers.Serializer):
    offender = serializers.FloatField(help_text="What the offender pays in all (MCR: −30 or −60).")
    each_other = serializers.FloatField(help_text="What each other player at the table receives.")


class PenaltySerializer(serializers.ModelSerializer):
    tournament = serializers.CharField(source="tournament.slug")
    player = serializers.CharField(source="registration.key")
    player_name = serializers.CharField(source="registration.player.full_name")
    session = serializers.IntegerField(source="session.number", allow_null=True, default=None)
    table = serializers.IntegerField(source="table.number", allow_null=True, default=None)
    hand = serializers.IntegerField(source="hand_number", allow_null=True)
    by = serializers.CharField(source="substitute.key", allow_null=True, default=None)
    points = serializers.SerializerMethodField(
        help_text="Deducted from the offender's score (0 or negative)."
    )
    table_points = serializers.SerializerMethodField()
    transfers = serializers.SerializerMethodField(help_text="False Hu: the payment at the table.")
    active = serializers.BooleanField(read_only=True)

    class Meta:
        model = Penalty
        fields = [
            "id",
            "tournament",
            "sequence",
            "player",
            "player_name",
            "session",
            "table",
            "hand",
            "kind",
            "variant",
            "minutes_late",
            "persists",
            "scope",
            "by",
            "during",
            "reason",
            "points",
            "table_points",
            "transfers",
            "disqualifies",
            "active",
            "recorded_at",
            "cancelled_at",
            "cancel_reason",
            "appeal",
            "appeal_decision",
            "appeal_decided_at",
        ]

    @extend_schema_field({"type": "number", "nullable": True})
    def get_points(self, obj: Penalty):
        return _amount(obj.points)

    @extend_schema_field({"type": "number", "nullable": True})
    def get_table_points(self, obj: Penalty):
        return _amount(obj.table_points)

    @extend_schema_field(TransfersSerializer(allow_null=True))
    def get_transfers(self, obj: Penalty):
        rules = self._rules(obj.tournament)
        paid = services.penalty_transfers(penalty=obj, rules=rules)
        return None if paid is None else {"offender": _amount(paid[0]), "each_other": _amount(paid[1])}

    def _rules(self, tournament: Tournament):
        cache = self.context.setdefault("rules", {})
        if tournament.pk not in cache:
            cache[tournament.pk] = tournament.get_rules()
        return cache[tournament.pk]


# -- input --------------------------------------------------------------------------------------------------


@extend_schema_field(OpenApiTypes.NUMBER)
class PointsField(serializers.Field):
    """A number given as a JSON number or as text ("-15", "-1/2")."""

    default_error_messages = {"invalid": "must be a number, not {value!r}"}

    def to_internal_value(self, data):
        try:
            return Fraction(read_number(data, field=self.field_name or "points", limit=POINTS_LIMIT))
        except RuleError as exc:
            raise serializers.ValidationError(exc.message) from None

    def to_representation(self, value):
        return _amount(value)


class PenaltyWriteSerializer(serializers.Serializer):
    tournament = serializers.SlugField(help_text="The tournament's slug.")
    player = serializers.CharField(max_length=40, help_text="The offender's key (p1, s1, …).")
    kind = serializers.ChoiceField(choices=Kind.choices)
    session = serializers.IntegerField(min_value=1, max_value=32767, required=False, allow_null=True)
    table = serializers.IntegerField(
        min_value=1,
        max_value=32767,
        required=False,
        allow_null=True,
        help_text="Table number in the session.",
    )
    hand = serializers.IntegerField(min_value=1, max_value=32767, required=False, allow_null=True)
    variant = serializers.ChoiceField(choices=Variant.choices, required=False, allow_blank=True, default="")
    minutes_late = serializers.IntegerField(min_value=0, max_value=32767, required=False, allow_null=True)
    persists = serializers.BooleanField(required=False, default=False)
    scope = serializers.ChoiceField(choices=Scope.choices, required=False, allow_blank=True, default="")
    by = serializers.CharField(
        max_length=40, required=False, allow_blank=True, help_text="The substitute's key."
    )
    during = serializers.BooleanField(
        required=False,
        default=False,
        help_text="A substitution: the substitute took the seat after the game at the table began (MERS §4: "
        "no table points for the seat; riichi 2025 §7.3: the substitute's score does not count for the "
        "others' uma).",
    )
    reason = serializers.CharField(max_length=TEXT_LIMIT, required=False, allow_blank=True, default="")
    points = PointsField(
        required=False, allow_null=True, help_text="Referee decisions and table points only."
    )


class CancelSerializer(serializers.Serializer):
    reason = serializers.CharField(max_length=TEXT_LIMIT, allow_blank=True)


class AppealSerializer(serializers.Serializer):
    appeal = serializers.CharField(max_length=TEXT_LIMIT, allow_blank=True)
    decision = serializers.CharField(max_length=TEXT_LIMIT, required=False, allow_blank=True, default="")


# -- the viewset --------------------------------------------------------------------------------------------

LIST_PARAMS = [
    OpenApiParameter("tournament", OpenApiTypes.STR, description="Tournament slug."),
    OpenApiParameter("session", OpenApiTypes.INT, description="Session number."),
    OpenApiParameter("player", OpenApiTypes.STR, description="Player key."),
    OpenApiParameter("kind", OpenApiTypes.STR, enum=Kind.values),
    OpenApiParameter("table", OpenApiTypes.INT, description="Table number (with session)."),
    OpenApiParameter(
        "status",
        OpenApiTypes.STR,
        enum=["active", "cancelled", "all"],
        description="Staff only see cancelled penalties; default: all that you may see.",
    ),
]


class PenaltyViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet):
    """Penalties of tournaments: public read of active ones, referee write."""

    serializer_class = PenaltySerializer
    permission_classes = [permissions.IsAuthenticatedOrReadOnly]

    def get_queryset(self):
        user = self.request.user
        qs = Penalty.objects.select_related(
            "tournament", "registration__player", "session", "table", "substitute"
        ).order_by("tournament_id", "sequence")
        if not (user.is_authenticated and user.is_superuser):
            visible = Q(tournament__is_public=True, cancelled_at__isnull=True)
            if user.is_authenticated:
                staff_of = Tournament.objects.filter(roles__user=user).values("pk")
                visible |= Q(tournament__in=staff_of)
            qs = qs.filter(visible)
        if not getattr(self, "swagger_fake_view", False):  # the schema reads no tournament
            qs = self._without_hidden_sessions(qs, user)
        params = self.request.query_params
        if slug := params.get("tournament"):
            qs = qs.filter(tournament__slug=slug)
        if (number := params.get("session")) and number.isdigit():
            qs = qs.filter(session__number=int(number))
        if (number := params.get("table")) and number.isdigit():
            qs = qs.filter(table__number=int(number))
        if key := params.get("player"):
            qs = qs.filter(registration__key=key)
        if kind := params.get("kind"):
            qs = qs.filter(kind=kind)
        state = params.get("status")
        if state == "active":
            qs = qs.filter(cancelled_at__isnull=True)
        elif state == "cancelled":
            qs = qs.filter(cancelled_at__isnull=False)
        return qs

    @staticmethod
    def _without_hidden_sessions(qs, user):
        """Leaves out the penalties of the last sessions a tournament hides until the reveal, for
        everyone who does not run them (the penalties would tell the hidden results)."""
        for tournament in Tournament.objects.filter(settings__has_key=HIDE_SETTING):
            last = visible_through(tournament=tournament, user=user)
            if last is not None:
                qs = qs.exclude(tournament=tournament, session__number__gt=last)
        return qs

    @extend_schema(parameters=LIST_PARAMS)
    def list(self, request, *args, **kwargs):
        return super().list(request, *args, **kwargs)

    # -- writes ---------------------------------------------------------------------------------------
    @extend_schema(
        request=PenaltyWriteSerializer,
        responses={
            201: PenaltySerializer,
            400: OpenApiResponse(description="The penalty breaks a rule; the body names the field."),
            403: OpenApiResponse(description="Only referees and directors record penalties."),
        },
        examples=[
            OpenApiExample(
                "Late arrival",
                {
                    "tournament": "open-2026",
                    "player": "p3",
                    "session": 1,
                    "kind": "late_arrival",
                    "minutes_late": 7,
                },
            ),
            OpenApiExample(
                "False Hu",
                {
                    "tournament": "open-2026",
                    "player": "p2",
                    "session": 1,
                    "table": 1,
                    "hand": 4,
                    "kind": "false_hu",
                    "variant": "below_minimum",
                },
            ),
            OpenApiExample(
                "Substitution",
                {
                    "tournament": "open-2026",
                    "player": "p2",
                    "session": 1,
                    "kind": "replaced",
                    "by": "s1",
                    "reason": "illness",
                    "during": True,
                },
            ),
            OpenApiExample(
                "Referee decision",
                {
                    "tournament": "open-2026",
                    "player": "p1",
                    "session": 3,
                    "kind": "referee",
                    "points": -15,
                    "reason": "deliberate slow play",
                },
            ),
        ],
        description="Record a penalty. Amounts come from the tournament's ruleset (late arrival from the "
        "minutes, fouls from the ladder, false Hu as transfers at the table); referee decisions carry "
        "their own `points` within the ruleset's bounds and need a `reason`.",
    )
    def create(self, request, *args, **kwargs):
        data = PenaltyWriteSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        data = data.validated_data
        tournament = Tournament.objects.filter(slug=data["tournament"]).first()
        if tournament is None or not (tournament.is_public or user_roles(request.user, tournament)):
            raise RuleError(_("there is no tournament %(slug)s") % {"slug": data["tournament"]}, "tournament")
        actor = actor_in(request.user, tournament)
        if not actor.is_referee:
            return Response(
                {"detail": _("Only a referee or a director records penalties.")},
                status=status.HTTP_403_FORBIDDEN,
            )
        registration = self._registration(tournament, data["player"], "player")
        session = table = None
        if data.get("session") is not None:
            session = Session.objects.filter(tournament=tournament, number=data["session"]).first()
            if session is None:
                raise RuleError(
                    _("there is no session %(number)s in this tournament") % {"number": data["session"]},
                    "session",
                )
        if data.get("table") is not None:
            if session is None:
                raise RuleError(
                    _("give the session of table %(number)s") % {"number": data["table"]}, "session"
                )
            table = Table.objects.filter(session=session, number=data["table"]).first()
            if table is None:
                raise RuleError(
                    _("there is no table %(table)s in session %(session)s")
                    % {"table": data["table"], "session": session.number},
                    "table",
                )
        substitute = self._registration(tournament, data["by"], "by") if data.get("by") else None
        points = data.get("points")
        penalty = services.penalty_record(
            tournament=tournament,
            registration=registration,
            kind=data["kind"],
            actor=actor,
            session=session,
            table=table,
            hand_number=data.get("hand"),
            variant=data["variant"],
            minutes_late=data.get("minutes_late"),
            persists=data["persists"],
            scope=data["scope"],
            substitute=substitute,
            during=data["during"],
            reason=data["reason"],
            points=points if "points" in kind_of(data["kind"]).fields else None,
            table_points=points if "table_points" in kind_of(data["kind"]).fields else None,
        )
        penalty = Penalty.objects.select_related(
            "tournament", "registration__player", "session", "table", "substitute"
        ).get(pk=penalty.pk)
        return Response(self.get_serializer(penalty).data, status=status.HTTP_201_CREATED)

    @staticmethod
    def _registration(tournament: Tournament, key: str, field: str) -> Registration:
        registration = Registration.objects.filter(tournament=tournament, key=key).first()
        if registration is None:
            raise RuleError(_("%(key)s is not registered in this tournament") % {"key": key}, field)
        return registration

    @extend_schema(request=CancelSerializer, responses={200: PenaltySerializer, 403: None})
    @action(detail=True, methods=["post"])
    def cancel(self, request, pk=None):
        """Cancel a penalty (with a reason): it stops counting; the record and its history stay."""
        penalty = self.get_object()
        data = CancelSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        services.penalty_cancel(
            penalty=penalty,
            actor=actor_in(request.user, penalty.tournament),
            reason=data.validated_data["reason"],
        )
        return Response(self.get_serializer(Penalty.objects.get(pk=penalty.pk)).data)

    @extend_schema(request=AppealSerializer, responses={200: PenaltySerializer, 403: None})
    @action(detail=True, methods=["post"])
    def appeal(self, request, pk=None):
        """Record an appeal against a penalty and, once heard, its decision (MERS 2.1)."""
        penalty = self.get_object()
        data = AppealSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        services.penalty_appeal(
            penalty=penalty,
            actor=actor_in(request.user, penalty.tournament),
            appeal=data.validated_data["appeal"],
            decision=data.validated_data["decision"],
        )
        return Response(self.get_serializer(Penalty.objects.get(pk=penalty.pk)).data)
