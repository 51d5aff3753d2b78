"""The tables' calls of a referee are part of the tournament's history: the archive keeps them with their
times, who came, the note, the penalty and the hand that resolved them, and gives them back on import."""

from __future__ import annotations

import copy

import pytest
from django.utils.dateparse import parse_datetime

from penalties.services import penalty_record
from rankings.archive import archive_export, archive_import
from scoring import services as scoring
from scoring.calls import services as calls
from scoring.models import RefereeCall
from scoring.rules.base import RuleError
from tests.scoring.test_referee_overview import publish, seat_all
from tournaments.models import Role
from tournaments.permissions import Actor

pytestmark = pytest.mark.django_db


@pytest.fixture
def document(tournament, referee):
    tables = seat_all(tournament)
    publish(tournament, 1)
    ref = Actor(user=referee, role=Role.REFEREE)
    referee.first_name, referee.last_name = "Ana", "Ruiz"
    referee.save()
    scoring.hand_add(table=tables[0], hand={"result": "draw"}, actor=ref, expected_version=None)
    first, _ = calls.call_create(
        table=tables[0], actor=Actor(role="table", table_id=tables[0].pk), reason="foul"
    )
    calls.call_acknowledge(call=first, actor=ref)
    penalty = penalty_record(
        tournament=tournament,
        registration=tables[0].seats.order_by("position").first().registration,
        kind="referee",
        actor=ref,
        session=tables[0].session,
        table=tables[0],
        points=-10,
        reason="showed tiles",
    )
    calls.call_resolve(call=first, actor=ref, penalty_id=penalty.pk, hand_number=1, note="Tiles shown.")
    second, _ = calls.call_create(
        table=tables[1], actor=Actor(role="table", table_id=tables[1].pk), reason="question"
    )
    calls.call_acknowledge(call=second, actor=ref)
    return archive_export(tournament=tournament)


def test_the_calls_round_trip(document, director):
    kept = document["referee_calls"]
    assert [c["reason"] for c in kept] == ["foul", "question"]
    assert kept[0]["acknowledged_by"] == "Ana Ruiz" and kept[0]["penalty"] == 0 and kept[0]["hand"] == 1
    assert kept[0]["note"] == "Tiles shown." and "resolved_at" in kept[0]
    assert "resolved_at" not in kept[1] and "acknowledged_at" in kept[1]
    copied = copy.deepcopy(document)
    copied["tournament"]["slug"] = "open-2026-copy"
    imported = archive_import(document=copied, user=director)
    assert archive_export(tournament=imported)["referee_calls"] == kept
    first = RefereeCall.objects.get(tournament=imported, table__number=1)
    assert first.status == "resolved" and first.penalty.reason == "showed tiles"
    assert first.called_at == parse_datetime(kept[0]["called_at"])  # kept to the second
    assert RefereeCall.objects.get(tournament=imported, table__number=2).status == "acknowledged"


@pytest.mark.parametrize(
    ("change", "path"),
    [
        ({"table": 9}, "referee_calls[0].table"),
        ({"reason": "lunch"}, "referee_calls[0].reason"),
        ({"penalty": 5}, "referee_calls[0].penalty"),
        ({"called_at": "yesterday"}, "referee_calls[0].called_at"),
        ({"colour": "red"}, "referee_calls[0].colour"),
        ({"resolved_at": "2020-01-01T00:00:00+00:00"}, "referee_calls[0].resolved_at"),
    ],
)
def test_a_faulty_call_is_refused_by_its_path(document, director, change, path):
    copied = copy.deepcopy(document)
    copied["tournament"]["slug"] = "open-2026-copy"
    copied["referee_calls"][0].update(change)
    with pytest.raises(RuleError) as refused:
        archive_import(document=copied, user=director)
    assert refused.value.path == path
    assert not RefereeCall.objects.filter(tournament__slug="open-2026-copy").exists()
