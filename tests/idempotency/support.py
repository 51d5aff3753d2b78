"""Helpers of the repeatable-write tests (no tests here)."""

from __future__ import annotations

import uuid

from penalties.models import Penalty
from scoring.models import Hand, TableResult


def new_key() -> str:
    return uuid.uuid4().hex


def effects(table) -> tuple[int, int, int]:
    """Every write leaves a history row: of the result, of a hand, or of a penalty."""
    return (
        TableResult.history.filter(table_id=table.pk).count(),
        Hand.history.filter(result_id__in=TableResult.objects.filter(table=table).values("pk")).count(),
        Penalty.history.count(),
    )


def same_answer(first, second) -> None:
    assert first.status_code == second.status_code
    assert first.content == second.content
    assert first.get("Location") == second.get("Location")
    assert second["Idempotent-Replayed"] == "true"
