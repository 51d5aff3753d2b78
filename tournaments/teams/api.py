"""REST API of teams: anyone who may see the tournament reads them, directors change them.

GET    /api/tournaments/<slug>/teams/           every team with its members' keys and the team size
POST   /api/tournaments/<slug>/teams/           {"name": "Dragons", "country": "ESP", "club": "", "members": ["p1", "p2"]}
GET    /api/tournaments/<slug>/teams/<id>/
PUT    /api/tournaments/<slug>/teams/<id>/      the same fields; the members list replaces the members
DELETE /api/tournaments/<slug>/teams/<id>/      the members stay registered, without a team
POST   /api/tournaments/<slug>/teams/size/      {"team_size": 4} (null: no size)

A refused change answers 400 naming the field and the rule; nothing is written.
"""

from __future__ import annotations

from django.http import Http404
from django.shortcuts import get_object_or_404
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema, extend_schema_view
from rest_framework import permissions, serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import PermissionDenied
from rest_framework.response import Response

from tournaments.models import Team, Tournament
from tournaments.permissions import can_manage, can_view
from tournaments.teams import selectors as sel
from tournaments.teams import services as svc

DIRECTOR_ONLY = "You need the director role in this tournament."


class TeamSerializer(serializers.Serializer):
    id = serializers.IntegerField(read_only=True)
    name = serializers.CharField(max_length=100)
    country = serializers.CharField(max_length=3, required=False, allow_blank=True, default="")
    club = serializers.CharField(max_length=150, required=False, allow_blank=True, default="")
    members = serializers.ListField(
        child=serializers.CharField(max_length=40),
        max_length=svc.MAX_TEAM_SIZE,
        required=False,
        default=list,
        help_text="Registration keys of the members (p1, p2, …).",
    )


class TeamSizeSerializer(serializers.Serializer):
    team_size = serializers.IntegerField(min_value=2, max_value=svc.MAX_TEAM_SIZE, allow_null=True)


def _as_data(view: sel.TeamView) -> dict:
    t = view.team
    return {"id": t.pk, "name": t.name, "country": t.country, "club": t.club, "members": view.member_keys}


SLUG = OpenApiParameter("tournament_slug", str, OpenApiParameter.PATH, description="The tournament's slug.")
TEAM = OpenApiParameter("id", int, OpenApiParameter.PATH, description="The team's id.")


@extend_schema_view(
    list=extend_schema(parameters=[SLUG]),
    create=extend_schema(parameters=[SLUG]),
    retrieve=extend_schema(parameters=[SLUG, TEAM]),
    update=extend_schema(parameters=[SLUG, TEAM]),
    destroy=extend_schema(parameters=[SLUG, TEAM]),
    size=extend_schema(parameters=[SLUG]),
)
class TeamViewSet(viewsets.ViewSet):
    permission_classes = [permissions.AllowAny]
    serializer_class = TeamSerializer

    def _tournament(self, request, slug: str, *, write: bool) -> Tournament:
        tournament = get_object_or_404(Tournament, slug=slug)
        if not can_view(request.user, tournament):
            raise Http404
        if write and not (request.user.is_authenticated and can_manage(request.user, tournament)):
            raise PermissionDenied(DIRECTOR_ONLY)
        return tournament

    def _refused(self, exc: svc.TeamError) -> Response:
        return Response({exc.field: [str(exc)]}, status=status.HTTP_400_BAD_REQUEST)

    def _one(self, tournament: Tournament, pk) -> dict:
        for view in sel.tournament_teams(tournament=tournament):
            if str(view.team.pk) == str(pk):
                return _as_data(view)
        raise Http404

    @extend_schema(responses=TeamSerializer(many=True))
    def list(self, request, tournament_slug: str):
        tournament = self._tournament(request, tournament_slug, write=False)
        return Response([_as_data(v) for v in sel.tournament_teams(tournament=tournament)])

    @extend_schema(responses=TeamSerializer)
    def retrieve(self, request, tournament_slug: str, pk=None):
        tournament = self._tournament(request, tournament_slug, write=False)
        return Response(self._one(tournament, pk))

    @extend_schema(
        request=TeamSerializer, responses={201: TeamSerializer, 400: OpenApiResponse(description="refused")}
    )
    def create(self, request, tournament_slug: str):
        tournament = self._tournament(request, tournament_slug, write=True)
        data = TeamSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        v = data.validated_data
        try:
            team = svc.team_save(
                tournament=tournament,
                name=v["name"],
                country=v["country"],
                club=v["club"],
                member_keys=v["members"],
            )
        except svc.TeamError as exc:
            return self._refused(exc)
        return Response(self._one(tournament, team.pk), status=status.HTTP_201_CREATED)

    @extend_schema(
        request=TeamSerializer, responses={200: TeamSerializer, 400: OpenApiResponse(description="refused")}
    )
    def update(self, request, tournament_slug: str, pk=None):
        tournament = self._tournament(request, tournament_slug, write=True)
        team = get_object_or_404(Team, pk=pk, tournament=tournament) if str(pk).isdigit() else None
        if team is None:
            raise Http404
        data = TeamSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        v = data.validated_data
        try:
            svc.team_save(
                tournament=tournament,
                team=team,
                name=v["name"],
                country=v["country"],
                club=v["club"],
                member_keys=v["members"],
            )
        except svc.TeamError as exc:
            return self._refused(exc)
        return Response(self._one(tournament, team.pk))

    @extend_schema(responses={204: None})
    def destroy(self, request, tournament_slug: str, pk=None):
        tournament = self._tournament(request, tournament_slug, write=True)
        if not str(pk).isdigit():
            raise Http404
        try:
            svc.team_delete(team=get_object_or_404(Team, pk=pk, tournament=tournament))
        except svc.TeamError as exc:
            return self._refused(exc)
        return Response(status=status.HTTP_204_NO_CONTENT)

    @extend_schema(request=TeamSizeSerializer, responses={200: TeamSizeSerializer})
    @action(detail=False, methods=["post"])
    def size(self, request, tournament_slug: str):
        tournament = self._tournament(request, tournament_slug, write=True)
        data = TeamSizeSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        try:
            svc.team_size_set(tournament=tournament, size=data.validated_data["team_size"])
        except svc.TeamError as exc:
            return self._refused(exc)
        return Response({"team_size": tournament.team_size})
