"""What identifies a request for the purpose of repeating it: pure functions, no Django import.

Two requests are "the same" when their method, path, query and body are; form bodies are compared field
by field (the order of fields and the CSRF token, which a page renews, do not count), JSON bodies by a
digest read as a stream that key order and spacing do not change (``json_digest``; keys stored before it
were fingerprinted with ``canonical_json``, which the middleware still asks a repeat of such a key).
"""

from __future__ import annotations

import hashlib
import io
import json
from collections.abc import Iterable
from typing import Any

from scoring.rules.jsontext import nesting_over

try:  # the streaming parser (a dependency); without it JSON bodies are compared as parsed and dumped again
    import ijson
except ImportError:  # pragma: no cover
    ijson = None

MAX_KEY_LENGTH = 255
IGNORED_FIELDS = frozenset({"csrfmiddlewaretoken", "idempotency_key"})
PAIR_BYTES = 200  # a key held by the digest: its text, its value's digest and the pair around them


def key_problem(key: str) -> str | None:
    """Why ``key`` cannot be used (None when it can): 1 to 255 printable ASCII characters."""
    if not key or len(key) > MAX_KEY_LENGTH:
        return f"must be 1 to {MAX_KEY_LENGTH} characters"
    if not all(33 <= ord(c) <= 126 for c in key):
        return "must be printable ASCII characters without spaces"
    return None


def json_digest(raw: bytes, *, max_bytes: int, max_depth: int) -> bytes | None:
    """A digest of a JSON body that key order and spacing do not change, read as a stream (ijson's
    events): each object is hashed from its keys, sorted, and the digests of their values; each array
    from the digests of its items in order; each number as the value ``json.loads`` reads. Nothing of
    the body is built: the memory is a digest per open level and the keys of the open objects. None when
    the body is not JSON, or not within the bounds the API's parser reads (``max_bytes``, ``max_depth``):
    its raw bytes are then what a repeat must match, and so when its open objects hold more keys at once
    than ``held_pairs(len(raw))``: a wide object's keys are kept until it closes, to be sorted."""
    if len(raw) > max_bytes or nesting_over(raw, max_depth) or ijson is None:
        return None
    stack: list[tuple[list | None, Any]] = []  # (pairs of an object or None for an array, key or hasher)
    done: bytes | None = None
    held, most = 0, held_pairs(len(raw))
    try:
        for event, value in ijson.basic_parse(io.BytesIO(raw), use_float=True, buf_size=8192):
            if event == "start_map":
                stack.append(([], None))
                continue
            if event == "start_array":
                stack.append((None, hashlib.sha256(b"[")))
                continue
            if event == "map_key":
                pairs, _ = stack[-1]
                stack[-1] = (pairs, value)
                continue
            if event == "end_map":
                pairs, _ = stack.pop()
                held -= len(pairs)
                digest = hashlib.sha256(b"{")
                for key, item in sorted(pairs):
                    digest.update(_text(key))
                    digest.update(item)
                child = digest.digest()
            elif event == "end_array":
                child = stack.pop()[1].digest()
            else:
                child = hashlib.sha256(_scalar(event, value)).digest()
            if not stack:
                done = child
                continue
            pairs, slot = stack[-1]
            if pairs is None:
                slot.update(child)
            else:
                pairs.append((slot, child))
                held += 1
                if held > most:
                    return None
    except (ijson.JSONError, UnicodeDecodeError, ValueError):
        return None
    return None if done is None or stack else done.hex().encode()


def held_pairs(size: int) -> int:
    """How many keys (with their values' digests) the digest of a body of ``size`` bytes holds at most
    while its objects are open: about 200 bytes each, so that they stay within its size (a body of many
    short keys in one object would otherwise cost 18 times its size); 1,024 whatever the size."""
    return max(size // PAIR_BYTES, 1024)


def _text(value: str) -> bytes:
    data = value.encode("utf-8", "surrogatepass")
    return b"%d:" % len(data) + data


def _scalar(event: str, value: Any) -> bytes:
    if event == "string":
        return b"s" + _text(value)
    if event == "number":
        return b"n" + repr(value).encode()  # an int, or the float ``json.loads`` reads
    if event == "boolean":
        return b"t" if value else b"f"
    return b"0"  # null


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


def fingerprint(
    *, method: str, path: str, query: str, content_type: str, body: bytes | Iterable[bytes]
) -> str:
    """sha256 of the request as a repeat must match it; ``body``: bytes, or its pieces in order."""
    digest = hashlib.sha256()
    for part in (method.upper(), path, query, content_type.split(";")[0].strip().lower()):
        digest.update(part.encode("utf-8"))
        digest.update(b"\0")
    for piece in (body,) if isinstance(body, (bytes, bytearray)) else body:
        digest.update(piece)
    return digest.hexdigest()


def scope_hash(kind: str, secret: str) -> str:
    """A scope naming a credential without storing it: ``kind:`` and a hash of the secret."""
    return f"{kind}:{hashlib.sha256(secret.encode('utf-8')).hexdigest()[:40]}"
