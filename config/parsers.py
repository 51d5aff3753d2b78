"""The project's parsers: every API view reads its body through one of them, never through DRF's own.

JSON bodies: at most ``JSON_MAX_BYTES`` and ``JSON_MAX_DEPTH`` levels of nesting, both checked on the raw
bytes before anything is built: the size as the body is read (never more than one byte past the limit), the
depth by one pass over the brackets outside strings (constant memory). Forms: at most ``FORM_MAX_BYTES``.
Uploads (multipart): at most ``UPLOAD_MAX_BYTES``. A refusal is a 413 or 400 whose message names the rule,
so no body can hold a worker for more than a moment.

Each parser says its limit (``body_limit()``): ``config.middleware.BoundedBodyMiddleware`` refuses a body
whose announced length is over the limit of the parser that would read it, before any middleware or view
reads a byte of it (the idempotency fingerprint included).
"""

from __future__ import annotations

import io
import tempfile

from django.conf import settings
from django.core.files.base import File
from rest_framework import status
from rest_framework.exceptions import APIException, ParseError
from rest_framework.parsers import BaseParser, FormParser, JSONParser, MultiPartParser

from scoring.rules.jsontext import nesting_over

DEFAULT_MAX_BYTES = 1024 * 1024
DEFAULT_MAX_DEPTH = 32
SPOOL_PIECE = 64 * 1024  # bytes of a body copied at a time


def max_bytes() -> int:
    return getattr(settings, "JSON_MAX_BYTES", DEFAULT_MAX_BYTES)


def max_depth() -> int:
    return getattr(settings, "JSON_MAX_DEPTH", DEFAULT_MAX_DEPTH)


def form_max_bytes() -> int:
    return getattr(settings, "FORM_MAX_BYTES", DEFAULT_MAX_BYTES)


def upload_max_bytes() -> int:
    """An upload: the largest file the project takes (an archive) and room for the form around it."""
    return getattr(settings, "UPLOAD_MAX_BYTES", 26 * 1024 * 1024)


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

    @staticmethod
    def body_limit() -> int:
        return max_bytes()

    def parse(self, stream, media_type=None, parser_context=None):
        data = read_bounded(stream, max_bytes())
        check_depth(data, max_depth())
        try:
            value = super().parse(io.BytesIO(data), media_type, parser_context)
        except ParseError as exc:
            detail = str(exc.detail).removeprefix("JSON parse error - ")
            raise ParseError(f"the JSON body is not valid JSON (RFC 8259): {detail}") from None
        if b"\\u0000" in data:  # a NUL can only come escaped: look for where it is
            where = nul_path(value)
            if where is not None:
                raise NulInText(where)
        return value


class NulInText(ParseError):
    """A NUL character in a text of the body: no database stores it (PostgreSQL refuses it outright)."""

    def __init__(self, path: str):
        self.path = path
        super().__init__(f"{path} holds a NUL character (U+0000), which no text may hold")


def nul_path(value, path: str = "") -> str | None:
    """The JSON path (``settings.note``, ``hands[2].reason``) of the first text or key holding a NUL
    character, or None. The body is at most ``JSON_MAX_DEPTH`` deep, so the recursion is bounded."""
    if isinstance(value, str):
        return (path or "body") if "\x00" in value else None
    if isinstance(value, dict):
        for key, item in value.items():
            inner = f"{path}.{key}" if path else str(key)
            if "\x00" in key:
                return inner.replace("\x00", "\\0")
            found = nul_path(item, inner)
            if found is not None:
                return found
    elif isinstance(value, list):
        for i, item in enumerate(value):
            found = nul_path(item, f"{path}[{i}]")
            if found is not None:
                return found
    return None


def spool_bounded(stream, limit: int, what: str, in_memory: int) -> File:
    """At most ``limit`` bytes of ``stream`` (a longer one is refused with 413), copied in pieces into a
    temporary file kept in memory up to ``in_memory`` bytes and on disk beyond (in
    ``FILE_UPLOAD_TEMP_DIR``, as Django's uploads): the body is never held whole."""
    spool = tempfile.SpooledTemporaryFile(max_size=in_memory, dir=settings.FILE_UPLOAD_TEMP_DIR)  # noqa: SIM115 (returned open)
    size = 0
    while stream is not None and (piece := stream.read(min(SPOOL_PIECE, limit + 1 - size))):
        size += len(piece)
        if size > limit:
            spool.close()
            raise PayloadTooLarge(f"{what} is larger than {limit:,} bytes (the limit)")
        spool.write(piece)
    spool.seek(0)
    return File(spool)


class RawJSONParser(BaseParser):
    """A JSON body not parsed, for documents read as a stream (archives): a file of its bounded bytes,
    spooled to disk past ``ARCHIVE_INLINE_BYTES`` (such an archive is stored for a background import).
    Not a ``JSONParser``: DRF hands one of those the body read whole (``request.body``)."""

    media_type = "application/json"
    limit_setting = "ARCHIVE_MAX_BYTES"

    @classmethod
    def body_limit(cls) -> int:
        return getattr(settings, cls.limit_setting, 25 * 1024 * 1024)

    def parse(self, stream, media_type=None, parser_context=None):
        in_memory = getattr(settings, "ARCHIVE_INLINE_BYTES", 256 * 1024)
        return spool_bounded(stream, self.body_limit(), "the archive", in_memory)


class BoundedFormParser(FormParser):
    """A URL-encoded form of at most ``FORM_MAX_BYTES`` (Django's own field count limit applies too)."""

    @staticmethod
    def body_limit() -> int:
        return form_max_bytes()

    def parse(self, stream, media_type=None, parser_context=None):
        data = read_bounded(stream, form_max_bytes(), "the form")
        return super().parse(io.BytesIO(data), media_type, parser_context)


class BoundedMultiPartParser(MultiPartParser):
    """An upload of at most ``UPLOAD_MAX_BYTES`` in all; files are streamed by Django's upload handlers, the
    form fields around them are bounded by Django's ``DATA_UPLOAD_MAX_*`` settings."""

    @staticmethod
    def body_limit() -> int:
        return upload_max_bytes()

    def parse(self, stream, media_type=None, parser_context=None):
        request = (parser_context or {}).get("request")
        length = int(request.META.get("CONTENT_LENGTH") or 0) if request is not None else 0
        if length > upload_max_bytes():
            raise PayloadTooLarge(f"the upload is larger than {upload_max_bytes():,} bytes (the limit)")
        return super().parse(stream, media_type, parser_context)


def body_limit_of(parser_classes, content_type: str) -> int:
    """The limit of the parser among ``parser_classes`` that would read a body of ``content_type`` (DRF
    picks the first that matches); the smallest of them when none does (the body is then refused with 415
    without being read)."""
    from rest_framework.utils.mediatypes import media_type_matches

    limits = [cls.body_limit() for cls in parser_classes if hasattr(cls, "body_limit")]
    for cls in parser_classes:
        if media_type_matches(cls.media_type, content_type or ""):
            return cls.body_limit() if hasattr(cls, "body_limit") else max_bytes()
    return min(limits, default=max_bytes())
