"""API plumbing shared by every app: errors become 400/409 bodies that name the field and the rule."""

from django.core.exceptions import ValidationError as DjangoValidationError
from rest_framework import status
from rest_framework.exceptions import APIException
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from scoring.rules.base import RuleError
from tournaments.deletion import DeletionRefused


class Conflict(APIException):
    status_code = status.HTTP_409_CONFLICT
    default_detail = "Someone else changed this record; reload it and try again."
    default_code = "conflict"


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
        return Response(body, status=status.HTTP_400_BAD_REQUEST)
    return drf_exception_handler(exc, context)
