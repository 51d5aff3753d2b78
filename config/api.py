"""API plumbing shared by every app.

Errors become bodies that name the field and the rule: rule errors and validation errors → 400, stale
writes and deletions of what is still in use → 409. The exception handler is the last line: whatever
escapes a view becomes a JSON answer (a 500 with no internals when nothing else fits), never Django's
HTML error page.
"""

from __future__ import annotations

import logging
import uuid
from collections.abc import Mapping

from django.conf import settings
from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.core.exceptions import RequestDataTooBig, SuspiciousOperation, TooManyFieldsSent
from django.core.exceptions import ValidationError as DjangoValidationError
from django.db import DataError, IntegrityError
from django.db.models import ProtectedError, RestrictedError
from django.http import Http404, JsonResponse
from rest_framework import status
from rest_framework.exceptions import (
    NotFound,
    ParseError,
    PermissionDenied,
    UnsupportedMediaType,
    ValidationError,
)
from rest_framework.pagination import LimitOffsetPagination
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler
from rest_framework.views import set_rollback

from config.parsers import NulInText, PayloadTooLarge
from idempotency.services import first_try_broken
from scoring.rules.base import RuleError
from tournaments.deletion import DeletionRefused
from tournaments.models import Tournament
from tournaments.permissions import can_view

logger = logging.getLogger("config.api")

MAX_LIMIT = 1000
MAX_OFFSET = 10**9


class BoundedLimitOffsetPagination(LimitOffsetPagination):
    """``limit`` and ``offset`` are whole numbers in a range; anything else is a 400 naming the parameter."""

    max_limit = MAX_LIMIT

    @staticmethod
    def _bounded(request, name: str, low: int, high: int, default):
        raw = request.query_params.get(name)
        if raw is None or raw == "":
            return default
        text = raw.strip()
        if (
            not (text.isdigit() and text.isascii() and len(text) <= len(str(high)))
            or not low <= int(text) <= high
        ):
            raise ValidationError({name: [f"{name} must be a whole number from {low} to {high}."]})
        return int(text)

    def get_limit(self, request):
        return self._bounded(request, self.limit_query_param, 1, self.max_limit, self.default_limit)

    def get_offset(self, request):
        return self._bounded(request, self.offset_query_param, 0, MAX_OFFSET, 0)

    def get_schema_operation_parameters(self, view):
        parameters = super().get_schema_operation_parameters(view)
        for parameter in parameters:
            if parameter["name"] == self.limit_query_param:
                parameter["schema"].update(minimum=1, maximum=self.max_limit)
            elif parameter["name"] == self.offset_query_param:
                parameter["schema"].update(minimum=0, maximum=MAX_OFFSET)
        return parameters


def require_object(data, what: str = "the request body") -> Mapping:
    """A JSON array or a scalar where an object is expected is a 400, not a crash further on."""
    if not isinstance(data, Mapping):
        raise ValidationError(
            {"non_field_errors": [f"Expected a JSON object as {what}, got {type(data).__name__}."]}
        )
    return data


def _holders(exc: ProtectedError | RestrictedError) -> str:
    counts: dict[str, int] = {}
    for obj in getattr(exc, "protected_objects", None) or getattr(exc, "restricted_objects", None) or ():
        label = str(obj._meta.verbose_name_plural)
        counts[label] = counts.get(label, 0) + 1
    return ", ".join(f"{n} {label}" for label, n in sorted(counts.items())) or "other records"


NOT_FOUND = "Not found."


def _hidden_tournament(context) -> bool:
    """Whether the view was asked about a tournament (by its slug) that the caller may not see."""
    kwargs = (context or {}).get("kwargs") or {}
    slug = kwargs.get("tournament_slug") or kwargs.get("slug")
    request = (context or {}).get("request")
    if not slug or request is None or not str(request.path).startswith("/api/"):
        return False

    tournament = Tournament.objects.filter(slug=str(slug)[:80]).first()
    return tournament is not None and not can_view(getattr(request, "user", None), tournament)


def field_error(field: str, message: str, status_code: int) -> Response:
    """A refusal naming the field (``body``, ``Content-Type``, …) and the rule."""
    return Response({field: [message], "detail": f"{field}: {message}"}, status=status_code)


def conflict_body(detail: str) -> dict:
    return {"detail": detail}


def exception_handler(exc, context):
    if isinstance(exc, DeletionRefused):
        return Response({"detail": str(exc), "held_by": exc.holders}, status=status.HTTP_409_CONFLICT)
    if isinstance(exc, RuleError):
        field = exc.path or "non_field_errors"
        return Response({field: [exc.message], "detail": str(exc)}, status=status.HTTP_400_BAD_REQUEST)
    if isinstance(exc, DjangoValidationError):
        if hasattr(exc, "error_dict"):
            body = {k: [m for e in v for m in e.messages] for k, v in exc.error_dict.items()}
        else:
            body = {"non_field_errors": exc.messages}
        body["detail"] = "; ".join(f"{k}: {' '.join(v)}" for k, v in body.items())
        set_rollback()
        return Response(body, status=status.HTTP_400_BAD_REQUEST)
    if isinstance(exc, (ProtectedError, RestrictedError)):
        set_rollback()
        detail = f"This cannot be deleted: it is still used by {_holders(exc)}."
        return Response(conflict_body(detail), status=status.HTTP_409_CONFLICT)
    if isinstance(exc, IntegrityError):
        set_rollback()
        logger.warning("integrity error answered as 409: %s", exc)
        detail = "This conflicts with data already stored (a value that must be unique, or a record in use)."
        return Response(conflict_body(detail), status=status.HTTP_409_CONFLICT)
    if isinstance(exc, (DataError, OverflowError)):
        set_rollback()
        return Response({"detail": "A value is too large or malformed."}, status=status.HTTP_400_BAD_REQUEST)
    if isinstance(exc, RequestDataTooBig):
        limit = getattr(settings, "DATA_UPLOAD_MAX_MEMORY_SIZE", 0) or 0
        return field_error("body", f"The request body is larger than {limit:,} bytes (the limit).", 413)
    if isinstance(exc, TooManyFieldsSent):
        limit = getattr(settings, "DATA_UPLOAD_MAX_NUMBER_FIELDS", 0) or 0
        return field_error("body", f"The form has more than {limit:,} fields (the limit).", 400)
    if isinstance(exc, SuspiciousOperation):
        return field_error("request", f"The request was refused: {exc}", 400)
    if isinstance(exc, NulInText):
        return field_error(exc.path, str(exc.detail), 400)
    if isinstance(exc, (ParseError, PayloadTooLarge)):
        return field_error("body", str(exc.detail), exc.status_code)
    if isinstance(exc, UnsupportedMediaType):
        return field_error("Content-Type", str(exc.detail), exc.status_code)
    if isinstance(exc, (Http404, NotFound)) or (
        isinstance(exc, (PermissionDenied, DjangoPermissionDenied)) and _hidden_tournament(context)
    ):
        # One answer for what does not exist and what the caller may not see: the words of a 404 (which
        # differ by the lookup that failed) and a refusal on a private tournament would tell them apart.
        set_rollback()
        return Response({"detail": NOT_FOUND}, status=status.HTTP_404_NOT_FOUND)
    response = drf_exception_handler(exc, context)
    if response is not None:
        return response
    if first_try_broken():
        return None  # raised again: the idempotent request is done again with savepoints, nothing to log
    # The last line: a fault of ours. Logged with an id the answer gives, no internals shown.
    set_rollback()
    incident = uuid.uuid4().hex[:12]
    logger.error("unhandled API error %s", incident, exc_info=exc)
    return Response(
        {"detail": f"Something went wrong on the server; it was logged as {incident}."},
        status=status.HTTP_500_INTERNAL_SERVER_ERROR,
    )


def _api_error(request, status_code: int, field: str, message: str):
    return JsonResponse({field: [message], "detail": f"{field}: {message}"}, status=status_code)


def bad_request(request, exception=None, *args, **kwargs):
    """Django's 400 handler (a request the framework refused: a bad host, a form too big, …): JSON under
    /api/, the error page elsewhere."""
    if request.path.startswith("/api/"):
        if isinstance(exception, RequestDataTooBig):
            limit = getattr(settings, "DATA_UPLOAD_MAX_MEMORY_SIZE", 0) or 0
            return _api_error(
                request, 413, "body", f"The request body is larger than {limit:,} bytes (the limit)."
            )
        if isinstance(exception, TooManyFieldsSent):
            limit = getattr(settings, "DATA_UPLOAD_MAX_NUMBER_FIELDS", 0) or 0
            return _api_error(request, 400, "body", f"The form has more than {limit:,} fields (the limit).")
        return _api_error(request, 400, "request", "The request is malformed (its headers or its body).")
    from django.views.defaults import bad_request as page_bad_request

    return page_bad_request(request, exception, *args, **kwargs)


def permission_denied(request, exception=None, *args, **kwargs):
    if request.path.startswith("/api/"):
        return _api_error(request, 403, "detail", "You do not have permission to perform this action.")
    from django.views.defaults import permission_denied as page_permission_denied

    return page_permission_denied(request, exception, *args, **kwargs)


def page_not_found(request, exception=None, *args, **kwargs):
    if request.path.startswith("/api/"):
        return JsonResponse({"detail": NOT_FOUND}, status=404)
    from django.views.defaults import page_not_found as page_page_not_found

    return page_page_not_found(request, exception, *args, **kwargs)


def csrf_failure(request, reason: str = "", template_name=None):
    """The CSRF check's refusal: JSON naming the rule under /api/, Django's page elsewhere."""
    if request.path.startswith("/api/"):
        return _api_error(request, 403, "csrf", f"CSRF check failed: {reason}")
    from django.views.csrf import csrf_failure as page_csrf_failure

    return page_csrf_failure(request, reason=reason)


def server_error(request, *args, **kwargs):
    """Django's 500 handler: JSON under /api/, the error page elsewhere."""
    if request.path.startswith("/api/"):
        return JsonResponse({"detail": "Something went wrong on the server."}, status=500)
    from django.views.defaults import server_error as page_server_error

    return page_server_error(request, *args, **kwargs)
