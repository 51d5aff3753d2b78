"""A private tournament's existence does not show in the answers: for someone who may not see it, every
API operation on it answers as for a tournament that does not exist (the same status, the same body)."""

from __future__ import annotations

import re

import pytest
from rest_framework.test import APIClient

from tests.trust.urlmap import api_operations
from tests.trust.world import build_world

pytestmark = pytest.mark.django_db

MISSING = "no-such-cup"
FILLED = {"number": "1", "key": "p1", "format": "csv", "exporter": "standings", "family": "mcr"}


def operations_on_a_tournament():
    """(method, path template) of every operation whose path names a tournament by its slug, with the
    other parameters ones the test can fill."""
    chosen = []
    for method, path in api_operations():
        names = re.findall(r"{(\w+)}", path)
        slug = [n for n in names if n in ("slug", "tournament_slug")]
        if len(slug) == 1 and all(n in FILLED or n == slug[0] for n in names):
            chosen.append((method, path, slug[0]))
    return chosen


def fill(path: str, slug_name: str, slug: str) -> str:
    path = path.replace("{" + slug_name + "}", slug)
    return re.sub(r"{(\w+)}", lambda m: FILLED[m.group(1)], path)


def answer(client, method: str, path: str):
    response = getattr(client, method.lower())(path, {}, format="json")
    body = response.content.decode(errors="replace") if response.status_code >= 400 else ""
    return response.status_code, body


@pytest.mark.parametrize("who", ["anonymous", "plain", "other_director"])
def test_a_private_tournament_answers_as_a_missing_one(who):
    world = build_world(public=False)
    client = APIClient()
    if who != "anonymous":
        client.force_login(world.users[who])
    operations = operations_on_a_tournament()
    assert len(operations) > 20
    differ = []
    for method, path, slug_name in operations:
        private = answer(client, method, fill(path, slug_name, world.tournament.slug))
        missing = answer(client, method, fill(path, slug_name, MISSING).replace(MISSING, MISSING))
        private_shown = (private[0], private[1].replace(world.tournament.slug, MISSING))
        if private_shown != missing:
            differ.append(f"{method} {path}: private {private} / missing {missing}")
    assert differ == []
