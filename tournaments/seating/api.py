"""REST API of the seating: public read of published seatings, everything else for directors.

GET  /api/tournaments/<slug>/seating/                  sessions and their seating state (drafts: directors)
GET  /api/tournaments/<slug>/seating/<number>/         one session's tables, names by wind
GET  /api/tournaments/<slug>/seating/quality/          the quality report over every seated session
POST /api/tournaments/<slug>/seating/generate/         {"sessions": [3, 4], "strategy": "schedule", "seed": 7}
POST /api/tournaments/<slug>/seating/import/           {"sessions": [3], "text": "p1-p2-p3-p4 …"}
POST /api/tournaments/<slug>/seating/replan/           re-plan drafts after a withdrawal
POST /api/tournaments/<slug>/seating/<number>/swap/    {"a": "p1", "b": "p7"}
POST /api/tournaments/<slug>/seating/<number>/publish/
POST /api/tournaments/<slug>/seating/<number>/unpublish/

A refused change answers 400 with ``detail`` and ``faults`` (every fault found); nothing is written.
"""

from __future__ import annotations

from django.http import Http404
from django.shortcuts import get_object_or_404
from django.urls import reverse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_view
from rest_framework import permissions, serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import PermissionDenied
from rest_framework.response import Response

from tournaments.models import Session, Tournament
from tournaments.permissions import can_manage, can_view
from tournaments.seating import selectors as sel
from tournaments.seating import services as svc
from tournaments.seating.engine import SeatingError

DIRECTOR_ONLY = "You need the director role in this tournament."


class SeatingSeatSerializer(serializers.Serializer):
    wind = serializers.CharField()
    key = serializers.CharField()
    name = serializers.CharField()


class SeatingTableSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    seats = SeatingSeatSerializer(many=True)
    result_link = serializers.CharField(required=False, help_text="Directors only: the table's private link.")


class SessionSeatingSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    state = serializers.ChoiceField(choices=[sel.EMPTY, sel.DRAFT, sel.PUBLISHED, sel.PLAYED])
    published = serializers.BooleanField()
    tables = SeatingTableSerializer(many=True)


class SeatingStateSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    state = serializers.ChoiceField(choices=[sel.EMPTY, sel.DRAFT, sel.PUBLISHED, sel.PLAYED])
    published = serializers.BooleanField()
    tables = serializers.IntegerField()
    can_change = serializers.BooleanField()
    why_not = serializers.CharField(allow_null=True)


class SeatingGenerateSerializer(serializers.Serializer):
    sessions = serializers.ListField(child=serializers.IntegerField(min_value=1), min_length=1)
    strategy = serializers.ChoiceField(choices=list(sel.STRATEGIES), default=sel.SCHEDULE)
    seed = serializers.IntegerField(min_value=0, max_value=2**31 - 1, required=False, allow_null=True)


class SeatingImportSerializer(serializers.Serializer):
    sessions = serializers.ListField(child=serializers.IntegerField(min_value=1), min_length=1)
    text = serializers.CharField(max_length=sel.IMPORT_MAX_CHARS, trim_whitespace=False)
    names = serializers.ChoiceField(
        choices=[sel.NAMES_AUTO, sel.NAMES_KEYS, sel.NAMES_NUMBERS], default=sel.NAMES_AUTO
    )


class SeatingSwapSerializer(serializers.Serializer):
    a = serializers.CharField(max_length=40, help_text="A registration key seated in the session.")
    b = serializers.CharField(max_length=40, help_text="Another registration key seated in the session.")


class SeatingOutcomeSerializer(serializers.Serializer):
    sessions = serializers.ListField(child=serializers.IntegerField())
    substitutes = serializers.ListField(child=serializers.CharField())
    broken = serializers.ListField(child=serializers.CharField())
    notes = serializers.ListField(child=serializers.CharField())
    quality = serializers.DictField()


class SeatingFaultsSerializer(serializers.Serializer):
    detail = serializers.CharField()
    faults = serializers.ListField(child=serializers.CharField())


SLUG = OpenApiParameter("tournament_slug", str, OpenApiParameter.PATH, description="The tournament's slug.")
NUMBER = OpenApiParameter("number", int, OpenApiParameter.PATH, description="The session number.")
REFUSED = {400: SeatingFaultsSerializer}


def _refused(exc: SeatingError) -> Response:
    return Response({"detail": str(exc), "faults": exc.faults}, status=status.HTTP_400_BAD_REQUEST)


def _outcome(outcome: svc.SeatingOutcome) -> dict:
    return {
        "sessions": outcome.sessions,
        "substitutes": outcome.substitutes,
        "broken": outcome.broken,
        "notes": outcome.notes,
        "quality": outcome.quality.to_dict(),
    }


@extend_schema_view(
    list=extend_schema(parameters=[SLUG], responses=SeatingStateSerializer(many=True)),
    retrieve=extend_schema(parameters=[SLUG, NUMBER], responses=SessionSeatingSerializer),
)
class SeatingViewSet(viewsets.ViewSet):
    """Seating of a tournament's sessions. Reads of published sessions are public; drafts, the quality
    report and every change need the director role."""

    permission_classes = [permissions.IsAuthenticatedOrReadOnly]
    lookup_field = "number"
    lookup_value_regex = "[0-9]+"

    # -- helpers

    def _tournament(self) -> Tournament:
        tournament = get_object_or_404(Tournament, slug=self.kwargs["tournament_slug"])
        if not can_view(self.request.user, tournament):
            raise Http404("No such tournament.")
        return tournament

    def _director_tournament(self) -> Tournament:
        tournament = self._tournament()
        if not can_manage(self.request.user, tournament):
            raise PermissionDenied(DIRECTOR_ONLY)
        return tournament

    def _session(self, tournament: Tournament, number) -> Session:
        return get_object_or_404(Session, tournament=tournament, number=int(number))

    def _sessions(self, tournament: Tournament, numbers: list[int]) -> list[Session]:
        found = {s.number: s for s in Session.objects.filter(tournament=tournament, number__in=numbers)}
        missing = sorted(set(numbers) - set(found))
        if missing:
            raise SeatingError([f"There is no session {n} in this tournament." for n in missing])
        return [found[n] for n in sorted(set(numbers))]

    def _table_data(self, table: sel.TableView, director: bool) -> dict:
        data = {
            "number": table.number,
            "seats": [{"wind": s.wind, "key": s.key, "name": s.name} for s in table.seats],
        }
        if director:
            data["result_link"] = self.request.build_absolute_uri(
                reverse("table-link", args=[table.private_key])
            )
        return data

    # -- reads

    def list(self, request, tournament_slug=None):
        tournament = self._tournament()
        director = can_manage(request.user, tournament)
        views = sel.seating_sessions(tournament=tournament)
        if not director:
            views = [v for v in views if v.session.seating_published and v.tables]
        return Response(
            [
                {
                    "number": v.number,
                    "state": v.state,
                    "published": v.session.seating_published,
                    "tables": len(v.tables),
                    "can_change": v.editable,
                    "why_not": v.refusal,
                }
                for v in views
            ]
        )

    def retrieve(self, request, tournament_slug=None, number=None):
        tournament = self._tournament()
        director = can_manage(request.user, tournament)
        views = sel.seating_sessions(tournament=tournament, numbers=[int(number)])
        if not views or not (director or views[0].session.seating_published):
            raise Http404("This session's seating is not published.")
        view = views[0]
        return Response(
            {
                "number": view.number,
                "state": view.state,
                "published": view.session.seating_published,
                "tables": [self._table_data(t, director) for t in view.tables],
            }
        )

    @extend_schema(parameters=[SLUG], responses=OpenApiTypes.OBJECT)
    @action(detail=False, methods=["get"])
    def quality(self, request, tournament_slug=None):
        """The quality report over every seated session, played and planned (see QualityReport)."""
        tournament = self._director_tournament()
        return Response(sel.seating_quality(tournament=tournament).to_dict())

    # -- writes

    @extend_schema(
        parameters=[SLUG],
        request=SeatingGenerateSerializer,
        responses={200: SeatingOutcomeSerializer, **REFUSED},
    )
    @action(detail=False, methods=["post"])
    def generate(self, request, tournament_slug=None):
        """Seat the given sessions as unpublished drafts with the engine."""
        tournament = self._director_tournament()
        body = SeatingGenerateSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        try:
            outcome = svc.seating_generate(
                tournament=tournament,
                sessions=self._sessions(tournament, body.validated_data["sessions"]),
                strategy=body.validated_data["strategy"],
                seed=body.validated_data.get("seed"),
            )
        except SeatingError as exc:
            return _refused(exc)
        return Response(_outcome(outcome))

    @extend_schema(
        parameters=[SLUG],
        request=SeatingImportSerializer,
        responses={200: SeatingOutcomeSerializer, **REFUSED},
    )
    @action(detail=False, methods=["post"], url_path="import")
    def import_schedule(self, request, tournament_slug=None):
        """Seat the given sessions from a predefined schedule; every fault is named at once."""
        tournament = self._director_tournament()
        body = SeatingImportSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        try:
            outcome = svc.seating_import(
                tournament=tournament,
                sessions=self._sessions(tournament, body.validated_data["sessions"]),
                text=body.validated_data["text"],
                names=body.validated_data["names"],
            )
        except SeatingError as exc:
            return _refused(exc)
        return Response(_outcome(outcome))

    @extend_schema(parameters=[SLUG], request=None, responses={200: SeatingOutcomeSerializer, **REFUSED})
    @action(detail=False, methods=["post"])
    def replan(self, request, tournament_slug=None):
        """Re-plan the drafts that seat a withdrawn player; played and published sessions stay."""
        tournament = self._director_tournament()
        try:
            outcome = svc.seating_replan_after_withdrawal(tournament=tournament)
        except SeatingError as exc:
            return _refused(exc)
        return Response(_outcome(outcome))

    @extend_schema(
        parameters=[SLUG, NUMBER],
        request=SeatingSwapSerializer,
        responses={200: SeatingOutcomeSerializer, **REFUSED},
    )
    @action(detail=True, methods=["post"])
    def swap(self, request, tournament_slug=None, number=None):
        """Exchange two players' seats in an unpublished session; ``broken`` says what got worse."""
        tournament = self._director_tournament()
        session = self._session(tournament, number)
        body = SeatingSwapSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        try:
            outcome = svc.seating_swap(
                session=session, a=body.validated_data["a"], b=body.validated_data["b"]
            )
        except SeatingError as exc:
            return _refused(exc)
        return Response(_outcome(outcome))

    @extend_schema(
        parameters=[SLUG, NUMBER], request=None, responses={200: SeatingStateSerializer, **REFUSED}
    )
    @action(detail=True, methods=["post"])
    def publish(self, request, tournament_slug=None, number=None):
        """Show the session's seating to the players."""
        return self._publish(number, svc.seating_publish)

    @extend_schema(
        parameters=[SLUG, NUMBER], request=None, responses={200: SeatingStateSerializer, **REFUSED}
    )
    @action(detail=True, methods=["post"])
    def unpublish(self, request, tournament_slug=None, number=None):
        """Hide the session's seating again (only while it has no results and is not being played)."""
        return self._publish(number, svc.seating_unpublish)

    def _publish(self, number, change) -> Response:
        tournament = self._director_tournament()
        session = self._session(tournament, number)
        try:
            change(session=session)
        except SeatingError as exc:
            return _refused(exc)
        (view,) = sel.seating_sessions(tournament=tournament, numbers=[session.number])
        return Response(
            {
                "number": view.number,
                "state": view.state,
                "published": view.session.seating_published,
                "tables": len(view.tables),
                "can_change": view.editable,
                "why_not": view.refusal,
            }
        )
