"""Schema-driven fuzzing of the whole API against the live test server (schemathesis).

Every operation of the OpenAPI schema is called with generated requests, anonymously and as the director
of a throwaway tournament (path parameters point at that tournament's objects, so writes reach real
rows; deletions run last). A response fails when it is a 5xx, has a status code the schema does not
document, or does not match the documented content type or shape. The figures (operations, cases,
failures) are printed; ``FUZZ_EXAMPLES`` sets the examples per operation and actor (default 8), and
``FUZZ_MALFORMED=1`` adds a run of malformed requests as the director (no 5xx allowed).
"""

from __future__ import annotations

import os
import time
from collections import Counter

import pytest
import requests
import schemathesis
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis.errors import Unsatisfiable
from rest_framework.authtoken.models import Token
from schemathesis import GenerationMode
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from tests.trust.world import build_world

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.fuzz]

EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", "8"))
# Malformed requests (schemathesis' negative mode) take far longer to generate: opt in with FUZZ_MALFORMED=1.
MALFORMED = os.environ.get("FUZZ_MALFORMED") == "1"
CHECKS = [not_a_server_error, status_code_conformance, content_type_conformance, response_schema_conformance]
ORDER = {"GET": 0, "POST": 1, "PUT": 2, "PATCH": 2, "DELETE": 3}


def path_parameters(world) -> dict:
    return {
        "slug": world.tournament.slug,
        "tournament_slug": world.tournament.slug,
        "table_pk": world.free_table.pk,
        "number": 1,
    }


def object_id(world, path: str) -> int:
    if path.startswith("/api/players/"):
        return world.registration.player_id
    if path.startswith("/api/registrations/"):
        return world.registration.pk
    if path.startswith("/api/sessions/"):
        return world.spare_session.pk
    if path.startswith("/api/tables/"):
        return world.free_table.pk
    if path.startswith("/api/seats/"):
        return world.free_table.seats.first().pk
    if path.startswith("/api/penalties/"):
        return world.penalty.pk
    return world.job.pk


def describe(exc: BaseException) -> list[str]:
    """One line per failed check: its title and the first lines that say what differed."""
    if isinstance(exc, BaseExceptionGroup):
        return [line for sub in exc.exceptions for line in describe(sub)]
    lines = [x.strip() for x in str(exc).strip().splitlines() if x.strip()]
    return [f"{type(exc).__name__}: {' | '.join(lines[:4])[:300]}"]


def fuzz_operation(operation, *, fixed: dict, negative: bool, call, figures: dict) -> list[str]:
    """Run the generated cases of one operation; the distinct failures, one line each."""
    label = f"{operation.method.upper()} {operation.path}"
    seen: list[str] = []
    mode = GenerationMode.NEGATIVE if negative else GenerationMode.POSITIVE
    checks = [not_a_server_error] if negative else CHECKS

    @settings(
        max_examples=EXAMPLES,
        deadline=None,
        database=None,
        derandomize=True,
        phases=[Phase.explicit, Phase.generate],
        suppress_health_check=list(HealthCheck),
    )
    @given(case=operation.as_strategy(generation_mode=mode, path_parameters=fixed))
    def run(case):
        figures["cases"] += 1
        try:
            response = call(case)
            case.validate_response(response, checks=checks)
        except (Exception, BaseExceptionGroup) as exc:  # every failure is collected, reported together
            seen.extend(f"{label}: {line}" for line in describe(exc))

    try:
        run()
    except Unsatisfiable:  # nothing of this operation can be malformed (only fixed path parameters)
        figures["unsatisfiable"] += 1
    return list(dict.fromkeys(seen))


def fuzz(live_server, *, as_director: bool, negative: bool = False) -> dict:
    world = build_world(public=True, prefix="fz-")
    schema = schemathesis.openapi.from_url(f"{live_server.url}/api/schema/?format=json")
    headers = {}
    if as_director:
        headers["Authorization"] = f"Token {Token.objects.create(user=world.users['director']).key}"
    operations = sorted(
        (result.ok() for result in schema.get_all_operations()),
        key=lambda op: (ORDER.get(op.method.upper(), 9), op.path),
    )
    figures = {"operations": 0, "cases": 0, "failures": [], "call_seconds": 0.0, "unsatisfiable": 0}
    statuses: Counter = Counter()
    session = requests.Session()

    def call(case):
        started = time.perf_counter()
        response = case.call(base_url=live_server.url, session=session, headers=headers, timeout=30)
        figures["call_seconds"] += time.perf_counter() - started
        statuses[response.status_code // 100] += 1
        return response

    for operation in operations:
        fixed = {k: v for k, v in path_parameters(world).items() if f"{{{k}}}" in operation.path}
        if "{id}" in operation.path:
            fixed["id"] = object_id(world, operation.path)
        figures["failures"] += fuzz_operation(
            operation, fixed=fixed, negative=negative, call=call, figures=figures
        )
        figures["operations"] += 1
    figures["statuses"] = dict(sorted(statuses.items()))
    return figures


@pytest.mark.parametrize(
    "as_director, negative",
    [
        (False, False),
        (True, False),
        pytest.param(True, True, marks=pytest.mark.skipif(not MALFORMED, reason="set FUZZ_MALFORMED=1")),
    ],
    ids=["anonymous", "director", "director-malformed"],
)
def test_every_operation_answers_within_its_schema(live_server, as_director, negative):
    """Valid requests (anonymous and director) must get documented answers of the documented shape;
    malformed ones (the director's, which pass the permission checks) must never get a 5xx."""
    figures = fuzz(live_server, as_director=as_director, negative=negative)
    who = ("director" if as_director else "anonymous") + (", malformed requests" if negative else "")
    print(
        f"\nfuzz ({who}): {figures['operations']} operations, {figures['cases']} cases, "
        f"{len(figures['failures'])} distinct failures; responses by class {figures['statuses']}; "
        f"{figures['call_seconds']:.1f} s in requests"
    )
    assert figures["operations"] >= 60
    assert not figures["failures"], "\n".join(figures["failures"])
