"""The OpenAPI schema documents the errors where they happen and the shapes the API answers."""

from __future__ import annotations

import pytest
from drf_spectacular.generators import SchemaGenerator

pytestmark = pytest.mark.django_db


@pytest.fixture(scope="module")
def schema():
    return SchemaGenerator().get_schema(request=None, public=True)


def operations(schema):
    for path, item in schema["paths"].items():
        for method, operation in item.items():
            yield method.upper(), path, operation


def test_every_operation_documents_its_errors(schema):
    for method, path, operation in operations(schema):
        codes = set(operation["responses"])
        assert "400" in codes, (method, path)
        if method in ("POST", "PUT", "PATCH", "DELETE"):
            assert {"403", "409"} <= codes, (method, path, codes)
        if "{" in path:
            assert "404" in codes, (method, path, codes)


def test_the_standings_are_one_object(schema):
    operation = schema["paths"]["/api/tournaments/{tournament_slug}/standings/"]["get"]
    body = operation["responses"]["200"]["content"]["application/json"]["schema"]
    assert body == {"$ref": "#/components/schemas/Standings"}
    assert schema["components"]["schemas"]["Standings"]["type"] == "object"


def test_the_roles_endpoint_answers_a_list_of_roles(schema):
    operation = schema["paths"]["/api/tournaments/{slug}/roles/"]["get"]
    ref = operation["responses"]["200"]["content"]["application/json"]["schema"]["$ref"]
    roles = schema["components"]["schemas"][ref.rsplit("/", 1)[1]]
    assert roles["properties"]["roles"]["type"] == "array"


def test_nullable_numbers_of_penalties_are_documented(schema):
    penalty = schema["components"]["schemas"]["Penalty"]["properties"]
    assert penalty["table_points"]["nullable"] is True
    assert penalty["points"]["nullable"] is True


def test_the_hand_statistics_are_one_object(schema):
    operation = schema["paths"]["/api/tournaments/{tournament_slug}/statistics/"]["get"]
    body = operation["responses"]["200"]["content"]["application/json"]["schema"]
    assert "$ref" in body and body.get("type") != "array"
