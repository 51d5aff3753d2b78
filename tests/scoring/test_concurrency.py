"""Two people entering one table at the same moment: exactly one write wins, the other is told (409).

Real threads, each with its own database connection, released together by a barrier so that their
writes collide on the table's row lock. Runs on PostgreSQL; SQLite serialises all writers on one file
lock, so there is nothing to prove there (skipped, or failed where REQUIRE_SERVICES=1).
"""

from __future__ import annotations

import threading
from collections.abc import Callable

import pytest
from django.db import connection, connections
from rest_framework.test import APIClient

from scoring import services
from scoring.models import Hand, TableResult
from scoring.services import StaleWrite
from tests.conftest import skip_or_fail
from tournaments import services as tournament_services
from tournaments.models import Role
from tournaments.permissions import Actor

pytestmark = pytest.mark.django_db(transaction=True)

DRAW = {"result": "draw"}


@pytest.fixture(autouse=True)
def _postgres_only(db):
    if connection.vendor != "postgresql":
        skip_or_fail(
            "the concurrent-write guarantee is checked on PostgreSQL (DATABASE_URL=postgres://…); "
            "SQLite serialises every writer on one file lock"
        )


@pytest.fixture
def table(tournament):
    regs = {r.key: r for r in tournament.registrations.all()}
    return tournament_services.session_seat(
        session=tournament.sessions.get(number=1), tables=[[regs[k] for k in ("p1", "p2", "p3", "p4")]]
    )[0]


def collide(workers: list[Callable[[], object]]) -> list[object]:
    """Run the workers in threads released together; each returns its outcome or the exception raised."""
    barrier = threading.Barrier(len(workers), timeout=30)
    outcomes: list[object] = [None] * len(workers)

    def run(i: int, work: Callable[[], object]) -> None:
        try:
            barrier.wait()
            outcomes[i] = work()
        except Exception as exc:  # the outcome under test
            outcomes[i] = exc
        finally:
            connections.close_all()  # this thread's connection

    threads = [threading.Thread(target=run, args=(i, w)) for i, w in enumerate(workers)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert not any(t.is_alive() for t in threads), "a writer never finished"
    return outcomes


def hands_of(table) -> list[tuple[int, dict]]:
    return list(Hand.objects.filter(result__table=table).order_by("number").values_list("number", "data"))


def test_two_writers_at_the_same_version_one_wins_the_other_gets_stale_write(table, referee, scorer):
    actors = [Actor(user=referee, role=Role.REFEREE), Actor(user=scorer, role=Role.SCORER)]
    hands = [
        {"result": "win", "winner": 0, "discarder": 2, "fan": 8},
        {"result": "win", "winner": 1, "discarder": None, "fan": 10},
    ]
    for round_number in range(1, 6):
        version = TableResult.objects.get(table=table).version if round_number > 1 else 1
        outcomes = collide(
            [
                lambda a=a, h=h, v=version: services.hand_add(
                    table=table, hand=h, actor=a, expected_version=v
                )
                for a, h in zip(actors, hands, strict=True)
            ]
        )
        won = [o for o in outcomes if isinstance(o, TableResult)]
        stale = [o for o in outcomes if isinstance(o, StaleWrite)]
        assert (len(won), len(stale)) == (1, 1), outcomes
        assert (
            stale[0].current_version == version + 1
        )  # it waited for the winner's row lock, then saw its write
        assert won[0].version == version + 1
        stored = hands_of(table)
        assert [n for n, _ in stored] == list(range(1, round_number + 1))  # no hand lost or duplicated
        assert stored[-1][1] in hands


def test_the_first_write_to_a_fresh_table_is_not_duplicated(table, referee, scorer, director):
    actors = [
        Actor(user=u, role=r)
        for u, r in ((referee, Role.REFEREE), (scorer, Role.SCORER), (director, Role.DIRECTOR))
    ]
    outcomes = collide(
        [lambda a=a: services.hand_add(table=table, hand=DRAW, actor=a, expected_version=1) for a in actors]
    )
    assert sum(isinstance(o, TableResult) for o in outcomes) == 1, outcomes
    assert sum(isinstance(o, StaleWrite) for o in outcomes) == 2, outcomes
    assert TableResult.objects.filter(table=table).count() == 1
    assert hands_of(table) == [(1, DRAW)]
    assert TableResult.objects.get(table=table).version == 2


def test_two_clients_posting_at_the_same_version_get_201_and_409(table, referee, scorer):
    clients = []
    for user in (referee, scorer):
        client = APIClient()
        client.force_authenticate(user)
        clients.append(client)
    url = f"/api/tables/{table.pk}/result/hands/"
    for round_number in range(1, 4):
        version = round_number  # every round adds exactly one hand
        outcomes = collide(
            [lambda c=c, v=version: c.post(url, {**DRAW, "version": v}, format="json") for c in clients]
        )
        codes = sorted(o.status_code for o in outcomes)
        assert codes == [201, 409], [getattr(o, "content", o) for o in outcomes]
        conflict = next(o for o in outcomes if o.status_code == 409).json()
        assert conflict["current_version"] == version + 1
        assert len(hands_of(table)) == round_number
    assert TableResult.objects.get(table=table).version == 4
    # the loser reloads and retries with the current version: it goes through
    retry = clients[1].post(url, {**DRAW, "version": 4}, format="json")
    assert retry.status_code == 201
    assert [n for n, _ in hands_of(table)] == [1, 2, 3, 4]


def test_a_table_key_and_a_referee_collide_on_totals_and_hands(table, referee):
    keyed = APIClient()
    keyed.credentials(HTTP_X_TABLE_KEY=table.private_key)
    staff = APIClient()
    staff.force_authenticate(referee)
    base = f"/api/tables/{table.pk}/result/"
    outcomes = collide(
        [
            lambda: keyed.post(base + "hands/", {**DRAW, "version": 1}, format="json"),
            lambda: staff.put(base + "totals/", {"scores": [10, 0, 0, -10], "version": 1}, format="json"),
        ]
    )
    codes = sorted(o.status_code for o in outcomes)
    assert codes in ([200, 409], [201, 409]), [o.content for o in outcomes]
    result = TableResult.objects.get(table=table)
    # whichever won, the table holds exactly that write and nothing of the other
    if result.mode == "totals":
        assert (result.scores, hands_of(table)) == ([10, 0, 0, -10], [])
    else:
        assert (result.scores, hands_of(table)) == (None, [(1, DRAW)])
