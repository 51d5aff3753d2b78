"""Reads of hands from tiles."""

from __future__ import annotations

from typing import Any

from scoring.models import TableResult
from tournaments.models import Table


def held_hand_view(*, table: Table, number: int) -> dict[str, Any] | None:
    """What a referee sees of a held hand: the version, and per win the claimed and computed values with
    the fan or yaku; None when the hand is not held."""
    result = TableResult.objects.filter(table=table).first()
    if result is None:
        return None
    hand = result.hands.filter(number=number).first()
    if hand is None or not hand.valuation or hand.valuation.get("status") != "held":
        return None
    names = {
        s.position: s.registration.player.full_name
        for s in table.seats.select_related("registration__player")
    }
    wins = [{**w, "name": names.get(w["winner"], "")} for w in hand.valuation.get("wins", [])]
    return {"version": result.version, "number": number, "wins": wins, "data": hand.data}
