"""Read-only standings API: the standings document of the archive format and how fresh it is."""

from __future__ import annotations

from django.http import Http404
from drf_spectacular.utils import OpenApiParameter, extend_schema, inline_serializer
from rest_framework import permissions, serializers, viewsets
from rest_framework.response import Response

from rankings.standings import selectors
from rankings.standings.engine import printable
from rankings.standings.needs_selectors import needs_table
from rankings.standings.views import needs_params
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


def need_cell(name: str):
    """The serializer of one place's answer, named for the list that holds it (one component each)."""
    return inline_serializer(
        name,
        {
            "place": serializers.IntegerField(help_text="Finish in this place or better."),
            "status": serializers.ChoiceField(
                choices=["safe", "needs", "open", "out"],
                help_text=(
                    "safe: whatever happens; needs: sure with a result (``guaranteed``); open: possible "
                    "(from ``possible``) but no result makes it sure; out: out of reach."
                ),
            ),
            "guaranteed": serializers.FloatField(
                allow_null=True,
                help_text="The least result at the player's table from which every better result makes the "
                "place sure (table points, or uma with the oka, in points); null: none does.",
            ),
            "possible": serializers.FloatField(
                allow_null=True,
                help_text="The least result that keeps the place possible; null: out of reach.",
            ),
            "text": serializers.CharField(help_text="The answer in words, in the request's language."),
        },
    )


class NeedsViewSet(viewsets.ViewSet):
    """GET /api/tournaments/<slug>/needs/: what each player needs in a session for the podium and a
    cut line, worked out from the rules; public for public tournaments."""

    permission_classes = [permissions.AllowAny]
    lookup_field = "tournament_slug"
    schema_single_object = True

    @extend_schema(
        parameters=[
            OpenApiParameter("tournament_slug", str, OpenApiParameter.PATH),
            OpenApiParameter("session", int, description="The session (1 to 999); default: the last."),
            OpenApiParameter(
                "cut", int, description="A cut line: finish in this place or better (4 to 9999)."
            ),
        ],
        responses=inline_serializer(
            "Needs",
            {
                "tournament": serializers.CharField(),
                "session": serializers.IntegerField(allow_null=True),
                "places": serializers.ListField(child=serializers.IntegerField()),
                "unit": serializers.CharField(help_text="What a result counts."),
                "results": serializers.ListField(
                    child=serializers.CharField(), help_text="The results open at a table, worst first."
                ),
                "reason": serializers.CharField(
                    allow_blank=True,
                    help_text="Why nothing is worked out (empty when it is): no session, a session finished "
                    "or not seated yet, an earlier one not finished, or the standings hidden.",
                ),
                "hidden": serializers.BooleanField(
                    help_text="The standings before the session are hidden until the prize-giving: "
                    "nothing is worked out from hidden results."
                ),
                "any_seating": serializers.BooleanField(
                    help_text="The session's seating is not published: every answer holds whatever the "
                    "seating (every ranked player playing); ``table`` is null."
                ),
                "team_places": serializers.ListField(
                    child=serializers.IntegerField(), help_text="The teams' podium (empty without teams)."
                ),
                "teams_exact": serializers.BooleanField(
                    help_text="The teams' answers are exact: worked out at the published tables, team mates "
                    "and rivals sharing a table included. False: a bound that is never wrong (sure is sure, "
                    "out of reach is out of reach; possible may be kinder than the tables allow), as before "
                    "the seating is published or when a tournament is too large to work out exactly."
                ),
                "teams": serializers.ListField(
                    help_text="What each team's playing members need together (the sum of their results) "
                    "for the teams' podium: exact at the published tables, else a bound (``teams_exact``).",
                    child=inline_serializer(
                        "TeamNeeds",
                        {
                            "rank": serializers.IntegerField(),
                            "team": serializers.CharField(),
                            "name": serializers.CharField(),
                            "plays": serializers.BooleanField(),
                            "places": serializers.ListField(child=need_cell("TeamPlaceNeed")),
                        },
                    ),
                ),
                "players": serializers.ListField(
                    child=inline_serializer(
                        "PlayerNeeds",
                        {
                            "rank": serializers.IntegerField(),
                            "player": serializers.CharField(),
                            "name": serializers.CharField(),
                            "table": serializers.IntegerField(allow_null=True),
                            "plays": serializers.BooleanField(),
                            "places": serializers.ListField(child=need_cell("PlaceNeed")),
                        },
                    )
                ),
            },
        ),
    )
    def list(self, request, tournament_slug: str):
        from rest_framework.exceptions import ValidationError

        tournament, _freshness = selectors.tournament_with_freshness(slug=tournament_slug)
        if not can_view(request.user, tournament):
            raise Http404("No such tournament.")
        number, cuts, faults = needs_params(request.query_params)
        if faults:
            raise ValidationError(faults)
        table = needs_table(tournament=tournament, session_number=number, cuts=cuts)
        if number is not None and table.session is None:
            raise ValidationError({"session": [f"This tournament has no session {number}."]})
        return Response(
            {
                "tournament": tournament.slug,
                "session": table.session.number if table.session else None,
                "places": list(table.places),
                "unit": str(table.unit),
                "results": list(table.results),
                "reason": table.reason,
                "hidden": table.hidden,
                "any_seating": table.any_seating,
                "players": [_need_line(line, seated=True) for line in table.lines],
                "team_places": list(table.team_places),
                "teams_exact": table.teams_exact,
                "teams": [_need_line(line, seated=False) for line in table.teams],
            }
        )


def _need_line(line, *, seated: bool) -> dict:
    """One player's (or, ``seated`` False, one team's) line of what it needs, for the API."""
    key = "player" if seated else "team"
    out = {"rank": line.rank, key: line.player, "name": line.name, "plays": line.plays}
    if seated:
        out["table"] = line.table
    out["places"] = [
        {
            "place": cell.place,
            "status": cell.status,
            "guaranteed": None if cell.guaranteed is None else printable(cell.guaranteed),
            "possible": None if cell.possible is None else printable(cell.possible),
            "text": cell.text,
        }
        for cell in line.cells
    ]
    return out
