"""The OpenAPI schema states the errors each operation can answer with.

Every operation may answer 400 (a malformed query or body, named field by field); writes may answer 403
(no role in the tournament, or not signed in) and 409 (a stale version, or something still in use);
operations on one object, or under one tournament, may answer 404; reads that need a role say 403 too.
An error body is an object with ``detail`` and, for a 400, one entry per field at fault.
"""

from __future__ import annotations

from drf_spectacular.openapi import AutoSchema as SpectacularAutoSchema
from rest_framework import permissions

ERROR_SCHEMA = {
    "type": "object",
    "properties": {
        "detail": {"type": "string", "description": "What is wrong, in one sentence."},
    },
    "additionalProperties": True,
    "description": "An error: ``detail`` and, for a refused input, the messages of each field at fault "
    '(``{"field": ["message"]}``).',
}

DESCRIPTIONS = {
    "400": "The query or the body is malformed; each field at fault is named with its rule.",
    "403": "Not signed in, or no role in this tournament that allows it.",
    "404": "No such object, or one in a tournament you may not see.",
    "409": "Stale version, a duplicate, or something still uses what would be deleted.",
}
WRITES = {"POST", "PUT", "PATCH", "DELETE"}
# Reads that need a role: the view's permission needs a signed-in user, or the action is for staff.
STAFF_READS = {"history", "quality"}


class AutoSchema(SpectacularAutoSchema):
    def _error_codes(self) -> list[str]:
        codes = ["400"]
        if self.method in WRITES or self._read_needs_role():
            codes.append("403")
        if "{" in self.path:
            codes.append("404")
        if self.method in WRITES:
            codes.append("409")
        return codes

    def _read_needs_role(self) -> bool:
        classes = getattr(self.view, "permission_classes", ())
        if any(c is permissions.IsAuthenticated for c in classes):
            return True
        return getattr(self.view, "action", None) in STAFF_READS

    def _is_list_view(self, serializer=None) -> bool:
        # A viewset whose ``list`` answers one document (the standings) says so.
        if getattr(self.view, "schema_single_object", False):
            return False
        return super()._is_list_view(serializer)

    def _get_response_bodies(self, direction="response"):
        responses = super()._get_response_bodies(direction)
        if direction != "response":
            return responses
        for code in self._error_codes():
            responses.setdefault(
                code,
                {
                    "description": DESCRIPTIONS[code],
                    "content": {"application/json": {"schema": ERROR_SCHEMA}},
                },
            )
        return dict(sorted(responses.items()))
