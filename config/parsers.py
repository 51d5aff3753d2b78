"""JSON bodies with limits: at most ``JSON_MAX_BYTES`` and ``JSON_MAX_DEPTH`` levels of nesting.

Both are checked on the raw bytes before anything is built: the size as the body is read (never more than
one byte past the limit), the depth by one pass over the brackets outside strings (constant memory). A
refusal is a 413 or 400 whose message names the rule, so no body can hold a worker for more than a moment.
"""

from __future__ import annotations

import io

from django.conf import settings
from rest_framework import status
from rest_framework.exceptions import APIException, ParseError
from rest_framework.parsers import JSONParser

from scoring.rules.jsontext import nesting_over

DEFAULT_MAX_BYTES = 1024 * 1024
DEFAULT_MAX_DEPTH = 32


def max_bytes() -> int:
    return getattr(settings, "JSON_MAX_BYTES", DEFAULT_MAX_BYTES)


def max_depth() -> int:
    return getattr(settings, "JSON_MAX_DEPTH", DEFAULT_MAX_DEPTH)


class PayloadTooLarge(APIException):
    status_code = status.HTTP_413_REQUEST_ENTITY_TOO_LARGE
    default_code = "too_large"


def read_bounded(stream, limit: int, what: str = "the JSON body") -> bytes:
    """At most ``limit`` bytes of ``stream``; a longer stream is refused with 413."""
    data = stream.read(limit + 1) if stream is not None else b""
    if len(data) > limit:
        raise PayloadTooLarge(f"{what} is larger than {limit:,} bytes (the limit)")
    return data


def check_depth(data: bytes, limit: int, what: str = "the JSON body") -> None:
    if nesting_over(data, limit):
        raise ParseError(f"{what} nests arrays and objects more than {limit} levels deep (the limit)")


class BoundedJSONParser(JSONParser):
    """DRF's JSON parser behind the size and depth limits."""

    def parse(self, stream, media_type=None, parser_context=None):
        data = read_bounded(stream, max_bytes())
        check_depth(data, max_depth())
        return super().parse(io.BytesIO(data), media_type, parser_context)


class RawJSONParser(JSONParser):
    """The bounded bytes of a JSON body, not parsed: for documents read as a stream (archives)."""

    limit_setting = "ARCHIVE_MAX_BYTES"

    def parse(self, stream, media_type=None, parser_context=None):
        limit = getattr(settings, self.limit_setting, 25 * 1024 * 1024)
        return read_bounded(stream, limit, "the archive")
