"""Read-only standings API: the standings document of the archive format and how fresh it is."""

from __future__ import annotations

from django.http import Http404
from drf_spectacular.utils import OpenApiParameter, extend_schema, inline_serializer
from rest_framework import permissions, serializers, viewsets
from rest_framework.response import Response

from rankings.standings import selectors
from tournaments.permissions import can_view


class StandingsViewSet(viewsets.ViewSet):
    """GET /api/tournaments/<slug>/standings/: public for public tournaments."""

    permission_classes = [permissions.AllowAny]
    lookup_field = "tournament_slug"
    schema_single_object = True  # ``list`` answers the one standings document, not a list

    @extend_schema(
        parameters=[OpenApiParameter("tournament_slug", str, OpenApiParameter.PATH)],
        responses=inline_serializer(
            "Standings",
            {
                "tournament": serializers.CharField(),
                "ruleset": serializers.CharField(),
                "complete_sessions": serializers.IntegerField(),
                "standings": serializers.ListField(
                    child=serializers.DictField(),
                    help_text=(
                        "One row per ranked player, as in the archive's standings; a substitute whose "
                        'results count (ERGMT §3.9) carries "substitute": true.'
                    ),
                ),
                "withdrawn": serializers.ListField(
                    child=serializers.DictField(),
                    required=False,
                    help_text=(
                        "Withdrawn players, listed apart below the ranking in its order: the same fields "
                        'with "rank": null and "withdrawn_from" (the first session missed). Absent '
                        "when nobody withdrew."
                    ),
                ),
                "freshness": inline_serializer(
                    "StandingsFreshness",
                    {
                        "computed_version": serializers.IntegerField(),
                        "input_version": serializers.IntegerField(),
                        "fresh": serializers.BooleanField(),
                        "delayed": serializers.BooleanField(),
                        "computed_at": serializers.DateTimeField(allow_null=True),
                        "queue_error": serializers.CharField(allow_blank=True),
                    },
                ),
            },
        ),
    )
    def list(self, request, tournament_slug: str):
        tournament, freshness = selectors.tournament_with_freshness(slug=tournament_slug)
        if not can_view(request.user, tournament):
            raise Http404("No such tournament.")
        document = selectors.standings_document_shown(tournament=tournament, user=request.user)
        return Response({**(document or {}), "freshness": freshness.as_dict()})
