"""REST API of the tournaments app: public read, director write."""

from __future__ import annotations

from django.db import transaction
from django.db.models import Q
from rest_framework import permissions, serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import PermissionDenied
from rest_framework.parsers import FormParser, MultiPartParser
from rest_framework.response import Response

from tournaments import services
from tournaments.models import Player, Registration, Role, Seat, Session, Table, Tournament, TournamentRole
from tournaments.permissions import TournamentWritePermission, can_manage, is_any_director, user_roles
from tournaments.player_import import PlayerImportError, players_import_csv
from tournaments.search import name_query


def visible_tournaments(user):
    qs = Tournament.objects.all()
    if user.is_authenticated and user.is_superuser:
        return qs
    if user.is_authenticated:
        return qs.filter(Q(is_public=True) | Q(roles__user=user)).distinct()
    return qs.filter(is_public=True)


class TournamentSerializer(serializers.ModelSerializer):
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

    def validate(self, attrs):
        instance = Tournament(**{**({} if self.instance is None else _fields(self.instance)), **attrs})
        instance.clean()
        return attrs


def _fields(instance: Tournament) -> dict:
    return {f: getattr(instance, f) for f in TournamentSerializer.Meta.fields if f != "id"}


class PlayerSerializer(serializers.ModelSerializer):
    class Meta:
        model = Player
        fields = ["id", "first_name", "last_name", "ema_id", "country", "club"]


class RegistrationSerializer(serializers.ModelSerializer):
    player_name = serializers.CharField(source="player.full_name", read_only=True)
    key = serializers.CharField(
        required=False, max_length=40, help_text="Archive key (p1, p2, …); given when absent."
    )

    class Meta:
        model = Registration
        fields = ["id", "tournament", "player", "player_name", "key", "is_substitute", "withdrawn_from"]
        validators = []  # uniqueness is checked in validate() with a message that names the field

    def validate(self, attrs):
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

    def create(self, validated_data):
        return services.registration_create(**validated_data)


class SessionSerializer(serializers.ModelSerializer):
    class Meta:
        model = Session
        fields = ["id", "tournament", "number", "starts_at", "status", "seating_published"]


class SeatSerializer(serializers.ModelSerializer):
    wind = serializers.CharField(read_only=True)
    player = serializers.IntegerField(source="registration.player_id", read_only=True)

    class Meta:
        model = Seat
        fields = ["id", "table", "position", "wind", "registration", "player"]

    def validate(self, attrs):
        table = attrs.get("table") or self.instance.table
        registration = attrs.get("registration") or self.instance.registration
        if registration.tournament_id != table.session.tournament_id:
            raise serializers.ValidationError(
                {"registration": "This player is not registered in this tournament."}
            )
        return attrs


class TableSerializer(serializers.ModelSerializer):
    seats = SeatSerializer(many=True, read_only=True)

    class Meta:
        model = Table
        fields = ["id", "session", "number", "seats"]


class TournamentScopedViewSet(viewsets.ModelViewSet):
    """Objects that belong to one tournament: readable when it is visible, writable by its directors."""

    permission_classes = [TournamentWritePermission]
    tournament_path = "tournament"  # lookup from the object to its tournament
    create_field = "tournament"  # the request field that names the tournament (or the parent)

    def get_permission_tournament(self, obj):
        for part in self.tournament_path.split("__"):
            obj = getattr(obj, part)
        return obj

    def get_create_tournament(self, request):
        serializer = self.get_serializer(data=request.data)
        field = serializer.fields[self.create_field]
        raw = request.data.get(self.create_field)
        if raw in (None, ""):
            raise serializers.ValidationError({self.create_field: ["This field is required."]})
        parent = field.to_internal_value(raw)
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
        serializer.instance = services.tournament_update(
            tournament=serializer.instance, **serializer.validated_data
        )

    @action(
        detail=True,
        methods=["post"],
        parser_classes=[MultiPartParser, FormParser],
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
            report = players_import_csv(tournament=tournament, data=upload.read())
        except PlayerImportError as exc:
            return Response({"file": exc.faults}, status=status.HTTP_400_BAD_REQUEST)
        return Response(
            {
                "summary": report.summary(),
                "registered": [r.key for r in report.registrations],
                "created": len(report.created),
                "reused": len(report.reused),
            },
            status=status.HTTP_201_CREATED,
        )

    @action(detail=True, methods=["get"])
    def roles(self, request, slug=None):
        tournament = self.get_object()
        return Response({"roles": sorted(user_roles(request.user, tournament))})


class PlayerPermission(permissions.BasePermission):
    """Players are shared by all tournaments: directors add them; a player's data can be changed by
    staff or a director of a tournament the player is registered in."""

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
        return (
            user.is_staff
            or TournamentRole.objects.filter(
                user=user, role=Role.DIRECTOR, tournament__registrations__player=obj
            ).exists()
        )


class PlayerViewSet(viewsets.ModelViewSet):
    serializer_class = PlayerSerializer
    permission_classes = [PlayerPermission]
    queryset = Player.objects.all()

    def get_queryset(self):
        qs = super().get_queryset()
        if q := self.request.query_params.get("search"):
            by_name = name_query(q)
            qs = qs.filter((by_name or Q(pk__in=[])) | Q(ema_id=q.strip()[:8]))
        return qs

    def perform_update(self, serializer):
        player = serializer.save()
        for tournament_id in player.registrations.values_list("tournament_id", flat=True):
            services.standings_changed(tournament_id=tournament_id)


class RegistrationViewSet(TournamentScopedViewSet):
    serializer_class = RegistrationSerializer
    queryset = Registration.objects.select_related("player", "tournament")
    tournament_path = "tournament"
    create_field = "tournament"

    def get_queryset(self):
        qs = super().get_queryset()
        if slug := self.request.query_params.get("tournament_slug"):
            qs = qs.filter(tournament__slug=slug)
        return qs

    def perform_update(self, serializer):
        registration = serializer.save()
        services.standings_changed(tournament_id=registration.tournament_id)


class SessionViewSet(TournamentScopedViewSet):
    serializer_class = SessionSerializer
    queryset = Session.objects.select_related("tournament")
    tournament_path = "tournament"
    create_field = "tournament"


class TableViewSet(TournamentScopedViewSet):
    serializer_class = TableSerializer
    queryset = Table.objects.select_related("session__tournament").prefetch_related("seats")
    tournament_path = "session__tournament"
    create_field = "session"


class SeatViewSet(TournamentScopedViewSet):
    serializer_class = SeatSerializer
    queryset = Seat.objects.select_related("table__session__tournament", "registration")
    tournament_path = "table__session__tournament"
    create_field = "table"

    @transaction.atomic
    def perform_create(self, serializer):
        serializer.save(session=serializer.validated_data["table"].session)
