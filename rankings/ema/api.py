"""REST API of the EMA ranking and of the results of tournaments held elsewhere.

GET    /api/ranking-imports/                 imported tournaments (public)
POST   /api/ranking-imports/[?check=true]    multipart: ``file`` (CSV/XLSX) and the facts → 201, or 200 with
                                             the preview when checking; refused → 400 {"detail", "faults": […]}
GET    /api/ranking-imports/<id>/            one import with its lines (public)
PATCH  /api/ranking-imports/<id>/            correct the facts (JSON or form fields)
POST   /api/ranking-imports/<id>/replace/    a corrected file (and the facts): the lines are replaced
DELETE /api/ranking-imports/<id>/            remove the import; the ranking follows
GET    /api/ema-ranking/<family>/?q=&country=&page=   the stored ranking (100 a page, public)
GET    /api/ema-ranking/<family>/<ema_number>/        a player's counted results and ranking history

Writes need staff or the model permissions of imported tournaments, checked before the body is read.
"""

from __future__ import annotations

from django.core.paginator import Paginator
from django.http import Http404
from django.shortcuts import get_object_or_404
from drf_spectacular.utils import OpenApiParameter, extend_schema, inline_serializer
from rest_framework import permissions, serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.response import Response

from config.parsers import BoundedFormParser, BoundedJSONParser, BoundedMultiPartParser
from rankings.ema.engine import LISTING_RESULTS, shown
from rankings.ema.forms import FactsForm, ImportForm
from rankings.ema.history import ranking_history
from rankings.ema.imports import (
    ImportPreview,
    ResultsImportError,
    can_change_import,
    can_delete_import,
    can_import_results,
    imported_tournament_delete,
    imported_tournament_facts,
    imported_tournament_update,
    results_import,
    results_import_check,
    results_import_replace,
)
from rankings.ema.models import ImportedResult, ImportedTournament
from rankings.ema.ranking import RANKED_FAMILIES, player_details
from rankings.ema.results_file import MAX_FILE_BYTES, Fault
from rankings.ema.selectors import ema_ranking_entries, ema_ranking_state, player_across, players_found
from rankings.ema.views import body_too_large, change_of, player_moves, player_ranking_facts, what_if_answer
from tournaments.models import Player


def _number(value) -> str | None:
    return None if value is None else str(value)


def _fig(value) -> float:
    return float(shown(value))


class ImportedResultSerializer(serializers.ModelSerializer):
    table_points = serializers.SerializerMethodField()
    score = serializers.SerializerMethodField()

    class Meta:
        model = ImportedResult
        fields = [
            "line",
            "place",
            "base_rank",
            "ema_id",
            "first_name",
            "last_name",
            "country",
            "ema_member",
            "table_points",
            "score",
        ]

    def get_table_points(self, obj) -> str | None:
        return _number(obj.table_points)

    def get_score(self, obj) -> str | None:
        return _number(obj.score)


class ImportedTournamentSerializer(serializers.ModelSerializer):
    weight = serializers.SerializerMethodField()

    class Meta:
        model = ImportedTournament
        fields = [
            "id",
            "name",
            "family",
            "starts_on",
            "ends_on",
            "days",
            "city",
            "country",
            "qualifies_for_championship",
            "players",
            "countries",
            "weight",
            "source_format",
            "filename",
            "imported_at",
            "updated_at",
        ]

    def get_weight(self, obj) -> str:
        return str(obj.weight)


class ImportedTournamentDetailSerializer(ImportedTournamentSerializer):
    results = ImportedResultSerializer(many=True, read_only=True)

    class Meta(ImportedTournamentSerializer.Meta):
        fields = [*ImportedTournamentSerializer.Meta.fields, "results"]


class ImportUploadSerializer(serializers.Serializer):
    """Documents the multipart request; the fields are checked by the import form."""

    file = serializers.FileField(help_text="The results file: CSV or XLSX (at most 2 MB).")
    name = serializers.CharField(max_length=200)
    family = serializers.ChoiceField(choices=[*RANKED_FAMILIES])
    starts_on = serializers.DateField()
    ends_on = serializers.DateField(required=False, help_text="Default: starts_on + days − 1.")
    days = serializers.IntegerField(min_value=1, max_value=30)
    city = serializers.CharField(max_length=100, required=False)
    country = serializers.CharField(max_length=3, required=False, help_text="ISO 3166 alpha-3")
    qualifies_for_championship = serializers.BooleanField(required=False)


REFUSAL = inline_serializer(
    "ResultsRefusal",
    {
        "detail": serializers.CharField(),
        "faults": inline_serializer(
            "ResultsFault",
            {
                "line": serializers.IntegerField(help_text="Line of the file; 0: the file or the facts."),
                "column": serializers.CharField(help_text="Column title, or the fact's field name."),
                "message": serializers.CharField(),
            },
            many=True,
            required=False,
            help_text="The faults of the file or the facts (absent when the request itself was refused).",
        ),
        "more": serializers.IntegerField(required=False, help_text="Faults found beyond those listed."),
    },
)
PREVIEW = inline_serializer(
    "ResultsPreview",
    {
        "players": serializers.IntegerField(),
        "ranked": serializers.IntegerField(help_text="Players with an EMA number."),
        "countries": serializers.IntegerField(),
        "weight": serializers.CharField(),
        "format": serializers.CharField(),
        "new_players": serializers.IntegerField(),
        "notes": serializers.ListField(child=serializers.CharField()),
    },
)


def _refusal(faults, more: int = 0) -> Response:
    return Response(
        {
            "detail": f"The file was refused ({len(faults) + more} faults); nothing was imported.",
            "faults": [f.as_dict() for f in faults],
            "more": more,
        },
        status=status.HTTP_400_BAD_REQUEST,
    )


def _form_refusal(form) -> Response:
    faults = [
        Fault(0, field if field != "__all__" else "", " ".join(str(e) for e in errors))
        for field, errors in form.errors.items()
    ]
    return _refusal(faults)


def _preview(preview: ImportPreview) -> dict:
    return {
        "players": preview.players,
        "ranked": preview.ranked,
        "countries": preview.countries,
        "weight": str(preview.weight),
        "format": preview.file.format,
        "new_players": preview.new_players,
        "notes": preview.notes,
    }


class ImportPermission(permissions.BasePermission):
    """Public reads; imports, corrections and removals by staff or holders of the model permissions."""

    message = "You may not import, correct or remove results of tournaments held elsewhere."

    def has_permission(self, request, view):
        if request.method in permissions.SAFE_METHODS:
            return True
        if request.method == "DELETE":
            return can_delete_import(request.user)
        if view.action == "create":
            return can_import_results(request.user)
        return can_change_import(request.user)


def _truthy(value) -> bool:
    return str(value).strip().lower() in ("1", "true", "yes", "on")


class ImportedTournamentViewSet(viewsets.ViewSet):
    """Results of tournaments held elsewhere: they count in the EMA ranking like local ones."""

    permission_classes = [ImportPermission]
    parser_classes = [BoundedMultiPartParser, BoundedFormParser, BoundedJSONParser]
    lookup_value_regex = r"[0-9]+"

    def get_queryset(self):  # for the schema: the path parameter is an imported tournament's id
        return ImportedTournament.objects.all()

    @extend_schema(responses=ImportedTournamentSerializer(many=True), summary="Imported tournaments")
    def list(self, request):
        page = Paginator(ImportedTournament.objects.all(), 100).get_page(request.query_params.get("page"))
        return Response(ImportedTournamentSerializer(page.object_list, many=True).data)

    @extend_schema(
        responses=ImportedTournamentDetailSerializer, summary="One imported tournament and its lines"
    )
    def retrieve(self, request, pk=None):
        tournament = get_object_or_404(ImportedTournament, pk=_pk(pk))
        return Response(ImportedTournamentDetailSerializer(tournament).data)

    @extend_schema(
        request={"multipart/form-data": ImportUploadSerializer},
        parameters=[OpenApiParameter("check", bool, description="check only: nothing is written")],
        responses={201: ImportedTournamentSerializer, 200: PREVIEW, 400: REFUSAL},
        summary="Import a results file (all or nothing)",
    )
    def create(self, request):
        if body_too_large(request):
            return _refusal([Fault(0, "file", f"the request is larger than {MAX_FILE_BYTES} bytes")])
        form = ImportForm(request.data, request.FILES)
        if not form.is_valid():
            return _form_refusal(form)
        upload = form.cleaned_data["file"]
        data = upload.read()
        check = _truthy(request.query_params.get("check", request.data.get("check", "")))
        try:
            if check:
                return Response(
                    _preview(results_import_check(data=data, facts=form.facts(), filename=upload.name))
                )
            tournament, _ = results_import(
                data=data, facts=form.facts(), filename=upload.name, user=request.user
            )
        except ResultsImportError as exc:
            return _refusal(exc.faults, exc.more)
        return Response(ImportedTournamentSerializer(tournament).data, status=status.HTTP_201_CREATED)

    @extend_schema(
        request=ImportUploadSerializer(partial=True),
        responses={200: ImportedTournamentSerializer, 400: REFUSAL},
        summary="Correct an import's facts",
    )
    def partial_update(self, request, pk=None):
        tournament = get_object_or_404(ImportedTournament, pk=_pk(pk))
        facts = imported_tournament_facts(tournament)
        data = {**{k: v for k, v in facts.__dict__.items() if v is not None}, **_plain(request.data)}
        form = FactsForm(data)
        if not form.is_valid():
            return _form_refusal(form)
        try:
            tournament = imported_tournament_update(tournament=tournament, facts=form.facts())
        except ResultsImportError as exc:
            return _refusal(exc.faults, exc.more)
        return Response(ImportedTournamentSerializer(tournament).data)

    @extend_schema(
        request={"multipart/form-data": ImportUploadSerializer},
        responses={200: ImportedTournamentSerializer, 400: REFUSAL},
        summary="Replace an import's lines with a corrected file",
    )
    @action(detail=True, methods=["post"])
    def replace(self, request, pk=None):
        tournament = get_object_or_404(ImportedTournament, pk=_pk(pk))
        if body_too_large(request):
            return _refusal([Fault(0, "file", f"the request is larger than {MAX_FILE_BYTES} bytes")])
        form = ImportForm(request.data, request.FILES)
        if not form.is_valid():
            return _form_refusal(form)
        upload = form.cleaned_data["file"]
        try:
            tournament, _ = results_import_replace(
                tournament=tournament, data=upload.read(), facts=form.facts(), filename=upload.name
            )
        except ResultsImportError as exc:
            return _refusal(exc.faults, exc.more)
        return Response(ImportedTournamentSerializer(tournament).data)

    @extend_schema(responses={204: None}, summary="Remove an import")
    def destroy(self, request, pk=None):
        tournament = get_object_or_404(ImportedTournament, pk=_pk(pk))
        imported_tournament_delete(tournament=tournament)
        return Response(status=status.HTTP_204_NO_CONTENT)


def _pk(value) -> int:
    try:
        return int(value)
    except (TypeError, ValueError):
        raise Http404 from None


def _plain(data) -> dict:
    if hasattr(data, "dict"):
        return data.dict()
    return dict(data)


# -- the ranking --------------------------------------------------------------------------------------


RANKING_ROW = inline_serializer(
    "EmaRankingRow",
    {
        "position": serializers.IntegerField(),
        "change": serializers.CharField(help_text="up, down, same or new, since the previous computation"),
        "places": serializers.IntegerField(help_text="places won or lost"),
        "first_name": serializers.CharField(),
        "last_name": serializers.CharField(),
        "ema_id": serializers.CharField(),
        "country": serializers.CharField(),
        "ranking": serializers.FloatField(),
        "part_a": serializers.FloatField(),
        "part_b": serializers.FloatField(),
        "results": serializers.IntegerField(),
    },
)


def _row(entry) -> dict:
    change = change_of(entry)
    return {
        "position": entry.position,
        "change": change["kind"],
        "places": change["places"],
        "first_name": entry.player.first_name,
        "last_name": entry.player.last_name,
        "ema_id": entry.ema_id,
        "country": entry.country,
        "ranking": _fig(entry.ranking),
        "part_a": _fig(entry.part_a),
        "part_b": _fig(entry.part_b),
        "results": entry.results,
    }


class EmaRankingViewSet(viewsets.ViewSet):
    """The stored EMA ranking (MCR or riichi) and each player's counted results and history."""

    schema_single_object = True  # ``list`` answers one page document (on, count, results), not a list

    permission_classes = [permissions.AllowAny]
    lookup_field = "ema_id"
    lookup_value_regex = r"[0-9]{8}"

    def _family(self) -> str:
        family = self.kwargs.get("family", "")
        if family not in RANKED_FAMILIES:
            raise Http404("The EMA ranks MCR and riichi.")
        return family

    @extend_schema(
        parameters=[
            OpenApiParameter("family", str, OpenApiParameter.PATH, enum=[*RANKED_FAMILIES]),
            OpenApiParameter("q", str, description="name (accents and case ignored) or EMA number"),
            OpenApiParameter("country", str, description="ISO 3166 alpha-3"),
            OpenApiParameter("page", int),
        ],
        responses=inline_serializer(
            "EmaRankingPage",
            {
                "on": serializers.DateField(allow_null=True, help_text="None: not computed yet."),
                "count": serializers.IntegerField(),
                "results": RANKING_ROW.__class__(many=True),
            },
        ),
        summary="The EMA ranking",
        operation_id="ema_ranking_list",
    )
    def list(self, request, family=None):
        family = self._family()
        query = request.query_params.get("q", "").strip()[:100]
        country = request.query_params.get("country", "").strip()[:3]
        page = Paginator(ema_ranking_entries(family=family, query=query, country=country), 100).get_page(
            request.query_params.get("page")
        )
        state = ema_ranking_state()
        return Response(
            {
                "on": state.computed_on,
                "count": page.paginator.count,
                "results": [_row(e) for e in page.object_list],
            }
        )

    @extend_schema(
        parameters=[OpenApiParameter("family", str, OpenApiParameter.PATH, enum=[*RANKED_FAMILIES])],
        responses=inline_serializer(
            "EmaRankingPlayer",
            {
                "ranking": RANKING_ROW.__class__(allow_null=True),
                "listed": serializers.BooleanField(),
                "counted": serializers.IntegerField(
                    help_text="Results that still count on the ranking date."
                ),
                "missing": serializers.IntegerField(
                    help_text=f"Counting results still needed to be listed ({LISTING_RESULTS} are needed)."
                ),
                "on": serializers.DateField(),
                "results": serializers.ListField(child=serializers.DictField()),
                "history": serializers.ListField(child=serializers.DictField()),
                "moves": serializers.ListField(
                    child=serializers.DictField(),
                    help_text="Week by week, latest first, what moved the ranking: week (its Monday), before, "
                    "after (null: not listed) and reasons (kind: new, half, gone, dropped, back or corrected; "
                    "the tournament).",
                ),
            },
        ),
        summary="A player's ranking, counted results and history",
    )
    def retrieve(self, request, family=None, ema_id=None):
        family = self._family()
        entry, player, on, facts = player_ranking_facts(family, ema_id or "")
        ranking, details = player_details(player_id=player.pk, family=family, on=on, facts=facts)
        history = ranking_history([f.as_result() for f in facts], ruleset=family, until=on)
        moves = player_moves(facts, family=family, on=on)
        return Response(
            {
                "ranking": _row(entry) if entry is not None else None,
                "listed": entry is not None,
                "counted": ranking.counted,
                "missing": ranking.missing,
                "on": on,
                "results": details,
                "history": [
                    {
                        "on": p.on,
                        "ranking": None if p.ranking is None else _fig(p.ranking),
                        "results": p.counted,
                    }
                    for p in history
                ],
                "moves": [
                    {
                        **move,
                        "reasons": [
                            {"kind": r["kind"], "tournament": r["tournament"], "text": str(r["text"])}
                            for r in move["reasons"]
                        ],
                    }
                    for move in moves
                ],
            }
        )

    @extend_schema(
        parameters=[
            OpenApiParameter("family", str, OpenApiParameter.PATH, enum=[*RANKED_FAMILIES]),
            OpenApiParameter(
                "players", int, many=True, description="Players of each hypothetical tournament (2 to 2000)."
            ),
            OpenApiParameter("place", int, many=True, description="The place in it (1 to its players)."),
            OpenApiParameter("days", int, many=True, description="Its days (1 to 7; default 2)."),
            OpenApiParameter(
                "countries", int, many=True, description="Its players' countries (1 to 60; default 1)."
            ),
            OpenApiParameter(
                "weight", str, many=True, description="Its MERS weight, when known (0.5 to 10, in halves)."
            ),
            OpenApiParameter(
                "on",
                str,
                description="The tournaments' last day (YYYY-MM-DD; the ranking's date to two years on).",
            ),
        ],
        responses=inline_serializer(
            "EmaWhatIf",
            {
                "on": serializers.DateField(help_text="The stored ranking's date."),
                "ended_on": serializers.DateField(),
                "now": inline_serializer(
                    "EmaWhatIfNow",
                    {
                        "position": serializers.IntegerField(allow_null=True),
                        "ranking": serializers.FloatField(),
                        "part_a": serializers.FloatField(),
                        "part_b": serializers.FloatField(),
                        "counted": serializers.IntegerField(),
                    },
                ),
                "then": inline_serializer(
                    "EmaWhatIfThen",
                    {
                        "position": serializers.IntegerField(
                            allow_null=True,
                            help_text="Among the other players' stored rankings; null: not listed.",
                        ),
                        "ranking": serializers.FloatField(),
                        "part_a": serializers.FloatField(),
                        "part_b": serializers.FloatField(),
                        "counted": serializers.IntegerField(),
                    },
                ),
                "results": serializers.ListField(
                    child=serializers.DictField(),
                    help_text="Every result that counts now or then: tournament, hypothetical, base_rank, "
                    'weight, ended_on, before and after ("A", "B", "A+B" or ""), ageing before and after.',
                ),
            },
        ),
        summary="What hypothetical results would do to a player's ranking (three at most)",
    )
    @action(detail=True, methods=["get"], url_path="what-if")
    def what_if(self, request, family=None, ema_id=None):
        from rest_framework.exceptions import ValidationError

        family = self._family()
        answer, faults = what_if_answer(family, ema_id or "", request.query_params)
        if faults:
            raise ValidationError(faults)
        entry = answer["entry"]

        def figures(ranking, position):
            return {
                "position": position,
                "ranking": _fig(ranking.ranking),
                "part_a": _fig(ranking.part_a),
                "part_b": _fig(ranking.part_b),
                "counted": ranking.counted,
            }

        return Response(
            {
                "on": answer["on"],
                "ended_on": answer["ended_on"],
                "now": figures(answer["before"], entry.position if entry else None),
                "then": figures(answer["after"], answer["position"]),
                "results": [
                    {
                        "tournament": str(c["tournament"]),
                        "hypothetical": c["hypothetical"],
                        "ended_on": c["ended_on"],
                        "base_rank": c["base_rank"],
                        "weight": str(c["weight"]),
                        "before": c["before"],
                        "after": c["after"],
                        "ageing_before": str(c["ageing_before"]),
                        "ageing_after": str(c["ageing_after"]),
                    }
                    for c in answer["changes"]
                ],
            }
        )


class PlayerRecordViewSet(viewsets.ViewSet):
    """A player across the tournaments of this server: public tournaments only (and those the caller has a
    role in); a player who plays in none of them is unknown (404)."""

    permission_classes = [permissions.AllowAny]
    lookup_value_regex = r"[0-9]+"

    @extend_schema(
        parameters=[
            OpenApiParameter("q", str, description="A name (accents and case ignored) or an EMA number.")
        ],
        responses=inline_serializer(
            "PlayerFound",
            {
                "id": serializers.IntegerField(),
                "first_name": serializers.CharField(),
                "last_name": serializers.CharField(),
                "ema_id": serializers.CharField(allow_null=True),
                "country": serializers.CharField(),
            },
            many=True,
        ),
        summary="Find players by name or EMA number (50 at most)",
    )
    def list(self, request):
        query = request.query_params.get("q", "").strip()[:100]
        return Response(
            [
                {
                    "id": p.pk,
                    "first_name": p.first_name,
                    "last_name": p.last_name,
                    "ema_id": p.ema_id,
                    "country": p.country,
                }
                for p in players_found(query=query, user=request.user)
            ]
        )

    @extend_schema(
        parameters=[OpenApiParameter("id", int, OpenApiParameter.PATH, description="The player's id.")],
        responses=inline_serializer(
            "PlayerRecord",
            {
                "id": serializers.IntegerField(),
                "first_name": serializers.CharField(),
                "last_name": serializers.CharField(),
                "ema_id": serializers.CharField(allow_null=True),
                "tournaments": serializers.ListField(
                    child=serializers.DictField(),
                    help_text="Latest first: slug, name, starts_on, status, key (the player's page), "
                    "substitute, place, players and base_rank (null until the tournament is finished).",
                ),
                "ema_ranking": serializers.ListField(
                    child=serializers.DictField(), help_text="family, position, ranking."
                ),
            },
        ),
        summary="A player across the tournaments of this server",
    )
    def retrieve(self, request, pk=None):
        try:
            player, lines, entries = player_across(player_id=_pk(pk), user=request.user)
        except Player.DoesNotExist:
            raise Http404("No such player.") from None
        return Response(
            {
                "id": player.pk,
                "first_name": player.first_name,
                "last_name": player.last_name,
                "ema_id": player.ema_id,
                "tournaments": [
                    {
                        "slug": line.tournament.slug,
                        "name": line.tournament.name,
                        "starts_on": line.tournament.starts_on,
                        "status": line.tournament.status,
                        "key": line.key,
                        "substitute": line.substitute,
                        "place": line.place,
                        "players": line.players,
                        "base_rank": line.base_rank,
                    }
                    for line in lines
                ],
                "ema_ranking": [
                    {"family": e.family, "position": e.position, "ranking": _fig(e.ranking)} for e in entries
                ],
            }
        )
