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

from typing import Any

from django.shortcuts import get_object_or_404
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema, inline_serializer
from rest_framework import permissions, serializers, status, viewsets
from rest_framework.exceptions import PermissionDenied
from rest_framework.parsers import JSONParser, MultiPartParser
from rest_framework.response import Response

from rankings.archive import archive_export, archive_import, open_source
from rankings.archive.access import import_allowed
from scoring.rules.base import RuleError
from tournaments.models import Tournament
from tournaments.permissions import can_manage

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


def refusal(exc: RuleError) -> Response:
    return Response({"path": exc.path, "message": exc.message}, status=status.HTTP_400_BAD_REQUEST)


def truthy(value: Any) -> bool:
    return str(value).strip().lower() in ("1", "true", "yes", "on")


class ArchiveViewSet(viewsets.ViewSet):
    """Import a tournament from its archive, or export a tournament's archive."""

    permission_classes = [permissions.IsAuthenticated]
    parser_classes = [JSONParser, MultiPartParser]
    lookup_field = "slug"
    lookup_value_regex = r"[-a-zA-Z0-9_]+"

    @extend_schema(
        request={"application/json": OpenApiTypes.OBJECT, "multipart/form-data": OpenApiTypes.OBJECT},
        parameters=[
            OpenApiParameter("replace", bool, description="replace the tournament with the same slug")
        ],
        responses={201: CREATED, 400: REFUSAL},
        summary="Import a tournament archive (all or nothing)",
    )
    def create(self, request):
        upload = request.FILES.get("file")
        replace = request.query_params.get("replace", "")
        if upload is not None:
            replace = replace or request.data.get("replace", "")
        replace = truthy(replace)
        document = upload if upload is not None else request.data
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

    @extend_schema(responses={200: OpenApiTypes.OBJECT}, summary="The archive of a tournament (directors)")
    def retrieve(self, request, slug=None):
        tournament = get_object_or_404(Tournament, slug=slug)
        if not can_manage(request.user, tournament):
            raise PermissionDenied("You need the director role in this tournament.")
        return Response(archive_export(tournament=tournament))
