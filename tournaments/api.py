"""REST API of the tournaments app: public read, director write."""

from __future__ import annotations

import json

from django.db.models import Q
from django_filters.rest_framework import DjangoFilterBackend
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (
    OpenApiResponse,
    extend_schema,
    extend_schema_field,
    extend_schema_view,
    inline_serializer,
)
from rest_framework import permissions, serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import NotFound, PermissionDenied
from rest_framework.response import Response

from config.api import require_object
from config.parsers import BoundedFormParser, BoundedMultiPartParser
from rankings.models import PlayerImportJob
from rankings.player_jobs import job_progress, player_import_start
from rankings.standings.engine import check_tiebreaks
from scoring.rules.base import RuleError
from tournaments import deletion, filters, lifecycle, selectors, services
from tournaments.models import Player, Registration, Role, Seat, Session, Table, Tournament, TournamentRole
from tournaments.organising import services as organising_services
from tournaments.permissions import TournamentWritePermission, can_manage, is_any_director, user_roles
from tournaments.player_import import PlayerImportError, upload_read
from tournaments.search import name_query


class PlayerImportJobSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    url = serializers.CharField()
    status = serializers.ChoiceField(choices=["queued", "running", "done", "failed"])
    progress = serializers.IntegerField(min_value=0, max_value=100)
    players = serializers.IntegerField(help_text="Players in the file.")
    summary = serializers.CharField(help_text="Once done: who was registered.")
    faults = serializers.ListField(child=serializers.CharField(), help_text="Once failed: why.")


def player_import_job_body(job, tournament) -> dict:
    return {
        "id": job.pk,
        "url": f"/api/tournaments/{tournament.slug}/player-imports/{job.pk}/",
        "status": job.status,
        "progress": job_progress(job),
        "players": job.rows,
        "summary": job.summary,
        "faults": job.faults,
    }


def visible_tournaments(user):
    qs = Tournament.objects.all()
    if user.is_authenticated and user.is_superuser:
        return qs
    if user.is_authenticated:
        return qs.filter(Q(is_public=True) | Q(roles__user=user)).distinct()
    return qs.filter(is_public=True)


@extend_schema_field({"type": "object", "additionalProperties": True})
class JSONObjectField(serializers.JSONField):
    """A JSON object (``{}`` when empty). In a form or multipart body the value is JSON text."""

    default_error_messages = {
        "not_object": "Must be a JSON object, not {kind}.",
        "not_json": "Must be a JSON object written as JSON text.",
    }

    def __init__(self, **kwargs):
        kwargs.setdefault("required", False)
        super().__init__(**kwargs)

    def to_internal_value(self, data):
        if isinstance(data, str):
            try:
                data = json.loads(data)
            except ValueError:
                self.fail("not_json")
        if not isinstance(data, dict):
            self.fail("not_object", kind="null" if data is None else type(data).__name__)
        return super().to_internal_value(data)

    def validate_empty_values(self, data):
        if data is None:
            self.fail("not_object", kind="null")
        return super().validate_empty_values(data)


class StatusByActions:
    """``status`` is read-only: a session or a tournament changes its status through the lifecycle's
    actions (the console's advance, reopen and finish), with their guards. A body that names another
    status than the current one is refused by name; the same status (a document read and sent back) is
    accepted."""

    status_actions = ""

    def status_check(self) -> None:
        data = getattr(self, "initial_data", None)
        if not isinstance(data, dict) or "status" not in data:
            return
        current = (
            self.instance.status
            if self.instance is not None
            else self.Meta.model._meta.get_field("status").default
        )
        if data["status"] != current:
            raise serializers.ValidationError(
                {
                    "status": [
                        f"The status cannot be written: it changes through the actions {self.status_actions}."
                    ]
                }
            )


class TournamentSerializer(StatusByActions, serializers.ModelSerializer):
    status_actions = "POST /api/tournaments/<slug>/console/finish/ and …/console/reopen/ (with a reason)"
    rules = JSONObjectField(help_text="Overrides of the ruleset's figures, key by key.")
    settings = JSONObjectField(
        help_text="tiebreaks (list of keys), players_confirm (boolean), seating (object)."
    )

    class Meta:
        model = Tournament
        fields = [
            "id",
            "name",
            "slug",
            "ruleset",
            "rules",
            "starts_on",
            "days",
            "city",
            "country",
            "status",
            "is_public",
            "qualifies_for_championship",
            "settings",
        ]
        read_only_fields = ["status"]

    def validate_settings(self, value):

        if isinstance(value, dict) and isinstance(value.get("tiebreaks"), list):
            try:
                check_tiebreaks(value["tiebreaks"])
            except RuleError as exc:
                raise serializers.ValidationError(str(exc)) from None
        return value

    def validate(self, attrs):
        self.status_check()
        instance = Tournament(**{**({} if self.instance is None else _fields(self.instance)), **attrs})
        instance.clean()
        return attrs


def _fields(instance: Tournament) -> dict:
    return {f: getattr(instance, f) for f in TournamentSerializer.Meta.fields if f != "id"}


class FixedParentSerializer(serializers.ModelSerializer):
    """The parent field (``parent_field``) is set at creation and never changes: a write that names
    another parent is refused by name."""

    parent_field = "tournament"

    def validate(self, attrs):
        name = self.parent_field
        if self.instance is not None and name in attrs and attrs[name] != getattr(self.instance, name):
            raise serializers.ValidationError(
                {name: [f"The {name} cannot change after creation; create a new one there instead."]}
            )
        return super().validate(attrs)


class PlayerSerializer(serializers.ModelSerializer):
    class Meta:
        model = Player
        fields = ["id", "first_name", "last_name", "ema_id", "country", "club"]


class RegistrationSerializer(FixedParentSerializer):
    player_name = serializers.CharField(source="player.full_name", read_only=True)
    key = serializers.CharField(
        required=False, max_length=40, help_text="Archive key (p1, p2, …); given when absent."
    )

    class Meta:
        model = Registration
        fields = [
            "id",
            "tournament",
            "player",
            "player_name",
            "nickname",
            "key",
            "is_substitute",
            "withdrawn_from",
        ]
        validators = []  # uniqueness is checked in validate() with a message that names the field

    def get_fields(self):
        """Only players the caller may see can be chosen: another id is refused as unknown, so neither
        the player's name nor their existence shows."""
        fields = super().get_fields()
        request = self.context.get("request")
        if request is not None and "player" in fields:
            fields["player"].queryset = visible_players(request.user)
        return fields

    def validate(self, attrs):
        attrs = super().validate(attrs)
        tournament = attrs.get("tournament") or self.instance.tournament
        player = attrs.get("player") or self.instance.player
        others = Registration.objects.filter(tournament=tournament)
        if self.instance is not None:
            others = others.exclude(pk=self.instance.pk)
        if others.filter(player=player).exists():
            raise serializers.ValidationError(
                {"player": "This player is already registered in this tournament."}
            )
        if attrs.get("key") and others.filter(key=attrs["key"]).exists():
            raise serializers.ValidationError(
                {"key": f"The key {attrs['key']} is already used in this tournament."}
            )
        return attrs


class SessionSerializer(StatusByActions, FixedParentSerializer):
    status_actions = (
        "POST /api/tournaments/<slug>/console/sessions/<number>/advance/ and …/reopen/ (with a reason once "
        "finished); the seating's publish and unpublish"
    )

    class Meta:
        model = Session
        fields = ["id", "tournament", "number", "starts_at", "status", "seating_published"]
        read_only_fields = ["status", "seating_published"]

    def validate_starts_at(self, value):
        # bounded: before 1901 the tournament's time zone is a local mean time (Madrid: -00:14:44), an
        # offset that no date-time format can state
        if value is not None and not (1970 <= value.year <= 2999):
            raise serializers.ValidationError("A session starts between the years 1970 and 2999.")
        return value

    def validate(self, attrs):
        self.status_check()
        return super().validate(attrs)


class SeatSerializer(FixedParentSerializer):
    parent_field = "table"

    wind = serializers.CharField(read_only=True)
    player = serializers.IntegerField(source="registration.player_id", read_only=True)

    class Meta:
        model = Seat
        fields = ["id", "table", "position", "wind", "registration", "player"]

    def validate(self, attrs):
        attrs = super().validate(attrs)
        table = attrs.get("table") or self.instance.table
        registration = attrs.get("registration") or self.instance.registration
        if registration.tournament_id != table.session.tournament_id:
            raise serializers.ValidationError(
                {"registration": "This player is not registered in this tournament."}
            )
        return attrs


class TableSerializer(FixedParentSerializer):
    parent_field = "session"
    seats = SeatSerializer(many=True, read_only=True)

    class Meta:
        model = Table
        fields = ["id", "session", "number", "seats"]


HELD_DESTROY = extend_schema(
    responses={204: None, 409: OpenApiTypes.OBJECT},
    description="Delete it, unless results or penalties hold it: then 409 with `held_by` naming them "
    "(withdraw a player or cancel a penalty instead). A deletion recomputes the standings.",
)


class TournamentScopedViewSet(viewsets.ModelViewSet):
    """Objects that belong to one tournament: readable when it is visible, writable by its directors."""

    permission_classes = [TournamentWritePermission]
    filter_backends = [DjangoFilterBackend]
    tournament_path = "tournament"  # lookup from the object to its tournament
    create_field = "tournament"  # the request field that names the tournament (or the parent)

    def get_permission_tournament(self, obj):
        for part in self.tournament_path.split("__"):
            obj = getattr(obj, part)
        return obj

    def get_create_tournament(self, request):
        data = require_object(request.data)
        serializer = self.get_serializer(data=data)
        field = serializer.fields[self.create_field]
        raw = data.get(self.create_field)
        if raw in (None, ""):
            raise serializers.ValidationError({self.create_field: ["This field is required."]})
        try:
            parent = field.to_internal_value(raw)
        except serializers.ValidationError as exc:
            raise serializers.ValidationError({self.create_field: exc.detail}) from None
        return self.get_permission_tournament_from_parent(parent)

    def get_permission_tournament_from_parent(self, parent):
        if isinstance(parent, Tournament):
            return parent
        path = self.tournament_path.split("__")[1:]
        obj = parent
        for part in path:
            obj = getattr(obj, part)
        return obj

    def visible_filter(self):
        prefix = self.tournament_path
        user = self.request.user
        if user.is_authenticated and user.is_superuser:
            return Q()
        q = Q(**{f"{prefix}__is_public": True})
        if user.is_authenticated:
            q |= Q(**{f"{prefix}__roles__user": user})
        return q

    def get_queryset(self):
        return super().get_queryset().filter(self.visible_filter()).distinct()

    # A finished tournament's registrations, sessions, tables and seats change only once it is reopened
    # (the lifecycle's guard, after the caller's role is checked: 400 on status).
    def create(self, request, *args, **kwargs):
        lifecycle.tournament_open_check(tournament=self.get_create_tournament(request))
        return super().create(request, *args, **kwargs)

    def update(self, request, *args, **kwargs):
        lifecycle.tournament_open_check(tournament=self.get_permission_tournament(self.get_object()))
        return super().update(request, *args, **kwargs)

    def destroy(self, request, *args, **kwargs):
        lifecycle.tournament_open_check(tournament=self.get_permission_tournament(self.get_object()))
        return super().destroy(request, *args, **kwargs)

    # Every write goes through a service (its guard, its one event): ``write(obj, **fields)`` creates
    # (``obj`` None) or changes the object from the serializer's checked fields.
    @staticmethod
    def write(obj, **fields):
        raise NotImplementedError

    def perform_create(self, serializer):
        serializer.instance = self.write(None, **serializer.validated_data)

    def perform_update(self, serializer):
        serializer.instance = self.write(serializer.instance, **serializer.validated_data)


class TournamentViewSet(viewsets.ModelViewSet):
    serializer_class = TournamentSerializer
    permission_classes = [TournamentWritePermission]
    lookup_field = "slug"

    def get_queryset(self):
        return visible_tournaments(self.request.user)

    def get_permission_tournament(self, obj):
        return obj

    def get_create_tournament(self, request):
        return None

    def perform_create(self, serializer):
        data = serializer.validated_data
        serializer.instance = services.tournament_create(director=self.request.user, **data)

    def perform_update(self, serializer):
        """The console's one path: a change of the rules (or ruleset) rewrites the confirmed tables' rows,
        and a finished tournament's rules stay as they are until it is reopened."""
        fields = dict(serializer.validated_data)
        rules = fields.pop("rules", None)
        serializer.instance = organising_services.tournament_edit(
            tournament=serializer.instance, fields=fields, rules=rules
        )

    @extend_schema(
        responses={
            201: OpenApiResponse(description="Imported in the request: summary, registered keys."),
            202: PlayerImportJobSerializer,
            400: OpenApiResponse(description="`file`: every fault, with its line and column."),
        },
        description="Register players from a CSV file (field `file`), all or nothing. A file of more "
        "than PLAYER_IMPORT_INLINE_ROWS players is checked, then imported in the background: 202 with "
        "the job (its `url` and the `Location` header), to follow with GET.",
    )
    @action(
        detail=True,
        methods=["post"],
        parser_classes=[BoundedMultiPartParser, BoundedFormParser],
        url_path="import-players",
    )
    def import_players(self, request, slug=None):
        """Register players from a CSV file (field ``file``): all or nothing."""
        tournament = self.get_object()
        if not can_manage(request.user, tournament):
            raise PermissionDenied("You need the director role in this tournament.")
        upload = request.FILES.get("file")
        if upload is None:
            return Response({"file": ["Attach the CSV file as 'file'."]}, status=status.HTTP_400_BAD_REQUEST)
        try:
            started = player_import_start(tournament=tournament, data=upload_read(upload), user=request.user)
        except PlayerImportError as exc:
            return Response({exc.field: exc.faults}, status=status.HTTP_400_BAD_REQUEST)
        if started.job is not None:
            body = player_import_job_body(started.job, tournament)
            return Response(body, status=status.HTTP_202_ACCEPTED, headers={"Location": body["url"]})
        report = started.report
        return Response(
            {
                "summary": report.summary(),
                "registered": [r.key for r in report.registrations],
                "created": len(report.created),
                "reused": len(report.reused),
            },
            status=status.HTTP_201_CREATED,
        )

    @extend_schema(
        responses={
            200: PlayerImportJobSerializer,
            403: OpenApiResponse(description="Only the tournament's directors follow its imports."),
            404: OpenApiResponse(description="No such import."),
        },
        description="A file of players imported in the background: its status (queued, running, done, "
        "failed), progress (0–100), and the summary or the faults (every one with its line and column).",
    )
    @action(detail=True, methods=["get"], url_path=r"player-imports/(?P<job_pk>[0-9]+)")
    def player_import(self, request, slug=None, job_pk=None):
        """A background import of players: its state, progress and outcome (a director of the tournament)."""

        tournament = self.get_object()
        if not can_manage(request.user, tournament):
            raise PermissionDenied("You need the director role in this tournament.")
        job = PlayerImportJob.objects.filter(pk=job_pk, tournament=tournament).first()
        if job is None:
            raise NotFound("There is no such import of players in this tournament.")
        return Response(player_import_job_body(job, tournament))

    @extend_schema(
        responses=inline_serializer(
            "TournamentRoles",
            {"roles": serializers.ListField(child=serializers.ChoiceField(choices=Role.choices))},
        ),
        description="Your roles in this tournament (empty when you have none).",
    )
    @action(detail=True, methods=["get"])
    def roles(self, request, slug=None):
        tournament = self.get_object()
        return Response({"roles": sorted(user_roles(request.user, tournament))})


class PlayerPermission(permissions.BasePermission):
    """Players are shared by all tournaments. Directors add them; a director may change or remove a
    player only while the player plays in no tournament the director does not direct (staff always).
    What one tournament wants to show differently (a nickname) belongs to the registration."""

    message = "Only tournament directors can add or change players."

    def has_permission(self, request, view):
        if request.method in permissions.SAFE_METHODS:
            return True
        user = request.user
        return bool(user and user.is_authenticated and (user.is_staff or is_any_director(user)))

    def has_object_permission(self, request, view, obj):
        if request.method in permissions.SAFE_METHODS:
            return True
        user = request.user
        if user.is_staff or user.is_superuser:
            return True
        others = player_foreign_tournaments(player=obj, user=user)
        if others:
            self.message = (
                f"This player also plays in {others} tournament{'s' if others > 1 else ''} you do not "
                "direct, so a change would show there too: only the staff can change this player. "
                "Set a nickname on your tournament's registration instead."
            )
            return False
        return True


def player_foreign_tournaments(*, player: Player, user) -> int:
    """How many tournaments ``player`` plays in that ``user`` does not direct."""
    directed = TournamentRole.objects.filter(user=user, role=Role.DIRECTOR).values("tournament_id")
    return (
        Registration.objects.filter(player=player)
        .exclude(tournament_id__in=directed)
        .values("tournament_id")
        .distinct()
        .count()
    )


def visible_players(user):
    """Players ``user`` may see (tournaments.selectors.players_visible)."""
    return selectors.players_visible(user=user)


class PlayerViewSet(viewsets.ModelViewSet):
    serializer_class = PlayerSerializer
    permission_classes = [PlayerPermission]
    queryset = Player.objects.all()

    def get_queryset(self):
        qs = visible_players(self.request.user)
        if q := self.request.query_params.get("search"):
            by_name = name_query(q)
            qs = qs.filter((by_name or Q(pk__in=[])) | Q(ema_id=q.strip()[:8]))
        return qs

    def perform_create(self, serializer):
        serializer.instance = services.player_write(**serializer.validated_data)

    def perform_update(self, serializer):
        serializer.instance = services.player_write(player=serializer.instance, **serializer.validated_data)

    def perform_destroy(self, instance):
        services.player_delete(player=instance)


@extend_schema_view(destroy=HELD_DESTROY)
class RegistrationViewSet(TournamentScopedViewSet):
    serializer_class = RegistrationSerializer
    queryset = Registration.objects.select_related("player", "tournament")
    tournament_path = "tournament"
    create_field = "tournament"

    filterset_class = filters.RegistrationFilter

    def perform_create(self, serializer):
        serializer.instance = services.registration_create(**serializer.validated_data)

    def perform_update(self, serializer):
        serializer.instance = services.registration_update(
            registration=serializer.instance, **serializer.validated_data
        )

    def perform_destroy(self, instance):
        deletion.registration_delete(registration=instance)


@extend_schema_view(destroy=HELD_DESTROY)
class SessionViewSet(TournamentScopedViewSet):
    serializer_class = SessionSerializer
    queryset = Session.objects.select_related("tournament")
    tournament_path = "tournament"
    create_field = "tournament"
    filterset_class = filters.SessionFilter

    @staticmethod
    def write(session, **fields):
        return services.session_save(session=session, **fields)

    def perform_destroy(self, instance):
        deletion.session_delete(session=instance)


@extend_schema_view(destroy=HELD_DESTROY)
class TableViewSet(TournamentScopedViewSet):
    serializer_class = TableSerializer
    queryset = Table.objects.select_related("session__tournament").prefetch_related("seats")
    tournament_path = "session__tournament"
    create_field = "session"
    filterset_class = filters.TableFilter

    @staticmethod
    def write(table, **fields):
        return services.table_save(table=table, **fields)

    def perform_destroy(self, instance):
        deletion.table_delete(table=instance)


@extend_schema_view(destroy=HELD_DESTROY)
class SeatViewSet(TournamentScopedViewSet):
    serializer_class = SeatSerializer
    queryset = Seat.objects.select_related("table__session__tournament", "registration")
    tournament_path = "table__session__tournament"
    create_field = "table"
    filterset_class = filters.SeatFilter

    @staticmethod
    def write(seat, **fields):
        return services.seat_save(seat=seat, **fields)

    def perform_destroy(self, instance):
        deletion.seat_delete(seat=instance)
