"""What identifies a request for the purpose of repeating it: pure functions, no Django import.

Two requests are "the same" when their method, path, query and body are; form bodies are compared field
by field (the order of fields and the CSRF token, which a page renews, do not count), JSON bodies by their
canonical form (key order and spacing do not count).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable

from scoring.rules.jsontext import nesting_over

MAX_KEY_LENGTH = 255
IGNORED_FIELDS = frozenset({"csrfmiddlewaretoken", "idempotency_key"})


def key_problem(key: str) -> str | None:
    """Why ``key`` cannot be used (None when it can): 1 to 255 printable ASCII characters."""
    if not key or len(key) > MAX_KEY_LENGTH:
        return f"must be 1 to {MAX_KEY_LENGTH} characters"
    if not all(33 <= ord(c) <= 126 for c in key):
        return "must be printable ASCII characters without spaces"
    return None


def canonical_json(raw: bytes, *, max_bytes: int, max_depth: int) -> bytes | None:
    """The canonical form of a JSON body, or None when it is not JSON or not within the bounds the API's
    JSON parser reads (``max_bytes``, ``max_depth`` levels of nesting): such a body is never parsed here,
    its raw bytes are what a repeat must match."""
    if len(raw) > max_bytes or nesting_over(raw, max_depth):
        return None
    try:
        value = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        return None
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode("utf-8")


def canonical_fields(fields: Iterable[tuple[str, list[str]]]) -> bytes:
    """The canonical form of form fields (each name with its list of values)."""
    kept = sorted((name, list(values)) for name, values in fields if name not in IGNORED_FIELDS)
    return json.dumps(kept, separators=(",", ":"), ensure_ascii=False).encode("utf-8")


def fingerprint(*, method: str, path: str, query: str, content_type: str, body: bytes) -> str:
    """sha256 of the request as a repeat must match it."""
    digest = hashlib.sha256()
    for part in (method.upper(), path, query, content_type.split(";")[0].strip().lower()):
        digest.update(part.encode("utf-8"))
        digest.update(b"\0")
    digest.update(body)
    return digest.hexdigest()


def scope_hash(kind: str, secret: str) -> str:
    """A scope naming a credential without storing it: ``kind:`` and a hash of the secret."""
    return f"{kind}:{hashlib.sha256(secret.encode('utf-8')).hexdigest()[:40]}"
