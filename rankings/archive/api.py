"""REST API of the tournament archive (ARCHIVE.md).

POST /api/archives/[?replace=true]   the document as the JSON body, or a multipart upload in ``file``
                                     → 201 {"slug": …, "url": …}; a refused document → 400 {"path", "message"}
GET  /api/archives/<slug>/           the archive of a tournament, for its directors

Who may import: users who may create tournaments; replacing an existing tournament (``replace``) needs the
director role in it. The archive is served to the tournament's directors only: it is the full record of the
tournament (every penalty and its reason, players' clubs and EMA numbers), a backup rather than a
publication; the public standings and results pages are what the public sees.
"""

from __future__ import annotations

import io
from typing import Any

from django.conf import settings
from django.shortcuts import get_object_or_404
from django.urls import reverse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema, inline_serializer
from rest_framework import permissions, serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import PermissionDenied
from rest_framework.response import Response

from config.parsers import BoundedMultiPartParser, PayloadTooLarge, RawJSONParser
from rankings.archive import archive_export, archive_import, open_source
from rankings.archive.access import import_allowed
from rankings.archive.jobs import archive_import_job_create, job_progress
from rankings.archive.models import ArchiveImportJob
from scoring.rules.base import RuleError
from tournaments.models import Tournament
from tournaments.permissions import can_create_tournament, can_manage, is_any_director

REFUSAL = inline_serializer(
    "ArchiveRefusal",
    {
        "path": serializers.CharField(
            help_text="JSON path of the first fault, e.g. sessions[1].tables[3].hands[7].fan"
        ),
        "message": serializers.CharField(),
    },
)
CREATED = inline_serializer(
    "ArchiveImported", {"slug": serializers.CharField(), "url": serializers.CharField()}
)


JOB = inline_serializer(
    "ArchiveImportJob",
    {
        "job": serializers.IntegerField(),
        "url": serializers.CharField(help_text="Where to follow the job"),
        "status": serializers.ChoiceField(choices=["queued", "running", "done", "failed"]),
        "progress": serializers.IntegerField(help_text="0 to 100"),
        "slug": serializers.CharField(allow_null=True, help_text="The imported tournament, once done"),
        "path": serializers.CharField(
            allow_blank=True, help_text="JSON path of the first fault, once refused"
        ),
        "message": serializers.CharField(allow_blank=True),
    },
)


def job_state(request, job: ArchiveImportJob) -> dict[str, Any]:
    return {
        "job": job.pk,
        "url": request.build_absolute_uri(reverse("archive-job", kwargs={"job_id": job.pk})),
        "status": job.status,
        "progress": job_progress(job),
        "slug": job.tournament.slug if job.tournament_id else None,
        "path": job.error_path,
        "message": job.error,
    }


def refusal(exc: RuleError) -> Response:
    return Response({"path": exc.path, "message": exc.message}, status=status.HTTP_400_BAD_REQUEST)


def truthy(value: Any) -> bool:
    return str(value).strip().lower() in ("1", "true", "yes", "on")


class ArchiveViewSet(viewsets.ViewSet):
    """Import a tournament from its archive, or export a tournament's archive."""

    permission_classes = [permissions.IsAuthenticated]
    parser_classes = [RawJSONParser, BoundedMultiPartParser]
    lookup_field = "slug"
    lookup_value_regex = r"[-a-zA-Z0-9_]+"

    @extend_schema(
        request={"application/json": OpenApiTypes.OBJECT, "multipart/form-data": OpenApiTypes.OBJECT},
        parameters=[
            OpenApiParameter("replace", bool, description="replace the tournament with the same slug")
        ],
        responses={
            201: CREATED,
            202: JOB,
            400: REFUSAL,
            403: OpenApiTypes.OBJECT,
            413: OpenApiTypes.OBJECT,
        },
        summary="Import a tournament archive (all or nothing)",
        description="Archives up to ARCHIVE_INLINE_BYTES (256 KiB) are imported at once (201). Larger ones are "
        "imported in the background: 202 with the job, whose `url` tells its progress and outcome.",
    )
    def create(self, request):
        # Permission first: nothing of the body is read for an account that could import nothing.
        if not (can_create_tournament(request.user) or is_any_director(request.user)):
            raise PermissionDenied("You may not create tournaments, or replace one.")
        replace = request.query_params.get("replace", "")
        if request.content_type.startswith("multipart/"):
            upload = request.FILES.get("file")
            if upload is None:
                return refusal(RuleError("send the archive as the file field of the upload", "file"))
            if upload.size > settings.ARCHIVE_MAX_BYTES:
                raise PayloadTooLarge(
                    f"the archive is larger than {settings.ARCHIVE_MAX_BYTES:,} bytes (the limit)"
                )
            replace = replace or request.data.get("replace", "")
            document = upload
        else:
            document = (
                request.data
            )  # a file of the body's bounded bytes (on disk when large), read as a stream
        replace = truthy(replace)
        size = document.size if hasattr(document, "size") else len(document)
        if size > settings.ARCHIVE_INLINE_BYTES:  # a large archive: imported in the background
            upload = document if hasattr(document, "read") else io.BytesIO(document)
            job = archive_import_job_create(upload=upload, replace=replace, user=request.user)
            job.refresh_from_db()
            return Response(job_state(request, job), status=status.HTTP_202_ACCEPTED)
        try:
            source = open_source(document)
            if not import_allowed(request.user, source.head, replace):
                raise PermissionDenied("You may not create tournaments, or replace this one.")
            tournament = archive_import(document=source, replace=replace, user=request.user)
        except RuleError as exc:
            return refusal(exc)
        return Response(
            {"slug": tournament.slug, "url": request.build_absolute_uri(tournament.get_absolute_url())},
            status=status.HTTP_201_CREATED,
        )

    @extend_schema(
        responses={200: JOB, 404: OpenApiTypes.OBJECT}, summary="An archive import job (its requester)"
    )
    @action(detail=False, methods=["get"], url_path=r"jobs/(?P<job_id>[0-9]+)")
    def job(self, request, job_id=None):
        job = get_object_or_404(ArchiveImportJob, pk=job_id, requested_by=request.user)
        return Response(job_state(request, job))

    @extend_schema(responses={200: OpenApiTypes.OBJECT}, summary="The archive of a tournament (directors)")
    def retrieve(self, request, slug=None):
        tournament = get_object_or_404(Tournament, slug=slug)
        if not can_manage(request.user, tournament):
            raise PermissionDenied("You need the director role in this tournament.")
        return Response(archive_export(tournament=tournament))
