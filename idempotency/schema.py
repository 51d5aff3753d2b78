"""The OpenAPI schema says, on every write, that it takes an ``Idempotency-Key`` (a drf-spectacular hook)."""

from __future__ import annotations

WRITES = ("post", "put", "patch", "delete")

PARAMETER = {
    "in": "header",
    "name": "Idempotency-Key",
    "required": False,
    "schema": {"type": "string", "maxLength": 255},
    "description": "A key of your choice (a UUID) for this write, up to 255 printable characters. The first "
    "request with a key does the work; a repeat with the same key and the same body gets the first answer "
    "(status and body, with the header `Idempotent-Replayed: true`) and does nothing again; the same key "
    "with another body is refused with 422. Keys belong to the sender (user, token or table link) and are "
    "kept at least 24 hours.",
}
MISMATCH = {
    "description": "The Idempotency-Key was already used for another request (another body or path).",
    "content": {
        "application/json": {
            "schema": {
                "type": "object",
                "properties": {
                    "Idempotency-Key": {"type": "array", "items": {"type": "string"}},
                    "detail": {"type": "string"},
                },
            }
        }
    },
}


def document_idempotency_key(result, generator, request, public):
    for operations in result.get("paths", {}).values():
        for method, operation in operations.items():
            if method not in WRITES:
                continue
            parameters = operation.setdefault("parameters", [])
            if not any(p.get("name") == PARAMETER["name"] for p in parameters):
                parameters.append(dict(PARAMETER))
            operation.setdefault("responses", {}).setdefault("422", MISMATCH)
    return result
