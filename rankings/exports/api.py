"""REST API of the exports: a tournament's directors start exports, follow them and download the files.

GET  /api/tournaments/<slug>/exports/                 the tournament's export jobs, newest first
POST /api/tournaments/<slug>/exports/                 {"exporter": "ema-results", "format": "xlsx"} → 201, a job
GET  /api/tournaments/<slug>/exports/<id>/            the job: status, progress, error, download URL
GET  /api/tournaments/<slug>/exports/<id>/download/   the file
GET  /api/tournaments/<slug>/exports/exporters/       the exporters available for the tournament
"""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from django.urls import reverse
from django.utils.translation import get_language
from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_view
from rest_framework import mixins, permissions, serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import PermissionDenied
from rest_framework.response import Response

from rankings.exports import FORMATS, exporter_list
from rankings.exports.jobs import export_job_create
from rankings.exports.models import ExportJob
from rankings.exports.views import job_file_response
from tournaments.models import Tournament
from tournaments.permissions import can_manage


class ExportJobSerializer(serializers.ModelSerializer):
    tournament = serializers.SlugRelatedField(slug_field="slug", read_only=True)
    requested_by = serializers.CharField(
        source="requested_by.get_username", read_only=True, default=None, allow_null=True
    )
    filename = serializers.CharField(read_only=True)
    out_of_date = serializers.BooleanField(
        read_only=True,
        help_text="The tournament changed since the file was made (results, penalties, players, sessions, "
        "statuses, the EMA submission's facts): make it again.",
    )
    download = serializers.SerializerMethodField()

    class Meta:
        model = ExportJob
        fields = [
            "id",
            "tournament",
            "exporter",
            "format",
            "status",
            "progress",
            "error",
            "filename",
            "out_of_date",
            "download",
            "requested_by",
            "created_at",
            "started_at",
            "finished_at",
        ]
        read_only_fields = fields

    def get_download(self, job: ExportJob) -> str | None:
        if not job.ready:
            return None
        url = reverse(
            "tournament-export-download", kwargs={"tournament_slug": job.tournament.slug, "pk": job.pk}
        )
        request = self.context.get("request")
        return request.build_absolute_uri(url) if request else url


class ExportRequestSerializer(serializers.Serializer):
    exporter = serializers.CharField(max_length=40, help_text="An exporter identifier, e.g. ema-results.")
    format = serializers.ChoiceField(
        choices=FORMATS,
        required=False,
        help_text="csv or xlsx (archive: json); the exporter's first when absent.",
    )


class ExporterSerializer(serializers.Serializer):
    identifier = serializers.CharField()
    name = serializers.CharField()
    description = serializers.CharField()
    formats = serializers.ListField(child=serializers.CharField())


SLUG = OpenApiParameter("tournament_slug", str, OpenApiParameter.PATH, description="The tournament's slug.")
JOB = OpenApiParameter("id", int, OpenApiParameter.PATH, description="The export job's id.")


@extend_schema_view(
    list=extend_schema(parameters=[SLUG]),
    create=extend_schema(parameters=[SLUG]),
    retrieve=extend_schema(parameters=[SLUG, JOB]),
    download=extend_schema(parameters=[SLUG, JOB]),
    exporters=extend_schema(parameters=[SLUG]),
)
class ExportJobViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet):
    """Export jobs of one tournament; every action needs the director role in it."""

    serializer_class = ExportJobSerializer
    permission_classes = [permissions.IsAuthenticated]
    pagination_class = None

    def get_tournament(self) -> Tournament:
        if not hasattr(self, "_tournament"):
            tournament = get_object_or_404(Tournament, slug=self.kwargs["tournament_slug"])
            if not can_manage(self.request.user, tournament):
                raise PermissionDenied("You need the director role in this tournament.")
            self._tournament = tournament
        return self._tournament

    def get_queryset(self):
        if getattr(self, "swagger_fake_view", False):  # the OpenAPI schema is being generated
            return ExportJob.objects.none()
        return ExportJob.objects.filter(tournament=self.get_tournament()).select_related(
            "tournament", "requested_by"
        )

    def list(self, request, *args, **kwargs):
        jobs = ExportJob.stamps_read(self.get_queryset(), self.get_tournament())
        return Response(self.get_serializer(jobs, many=True).data)

    @extend_schema(request=ExportRequestSerializer, responses={201: ExportJobSerializer})
    def create(self, request, *args, **kwargs):
        tournament = self.get_tournament()
        given = ExportRequestSerializer(data=request.data)
        given.is_valid(raise_exception=True)
        job = export_job_create(
            tournament=tournament,
            exporter=given.validated_data["exporter"],
            fmt=given.validated_data.get("format"),
            user=request.user,
            language=get_language(),
        )
        job.refresh_from_db()  # with no broker the job ran when the request's transaction committed
        return Response(self.get_serializer(job).data, status=status.HTTP_201_CREATED)

    @extend_schema(responses={(200, "application/octet-stream"): bytes})
    @action(detail=True, methods=["get"], url_path="download", url_name="download")
    def download(self, request, *args, **kwargs):
        return job_file_response(self.get_object())

    @extend_schema(responses=ExporterSerializer(many=True))
    @action(detail=False, methods=["get"])
    def exporters(self, request, *args, **kwargs):
        tournament = self.get_tournament()
        return Response(
            [
                {
                    "identifier": e.identifier,
                    "name": str(e.name),
                    "description": str(e.description),
                    "formats": list(e.formats),
                }
                for e in exporter_list(tournament=tournament)
            ]
        )
