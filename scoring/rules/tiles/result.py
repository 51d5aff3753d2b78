"""What a valuation of tiles gives back: plain, immutable data."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Item:
    """One fan, yaku, point or double of the hand, with what it adds."""

    name: str
    value: int
    unit: str  # "fan", "han", "points", "doubles", "limit"
    count: int = 1  # how many times it is counted (MCR lists a fan once with its count)

    def as_dict(self) -> dict[str, Any]:
        return {"name": self.name, "value": self.value, "unit": self.unit, "count": self.count}


@dataclass(frozen=True)
class WinContext:
    """What the game state says about the win (the flags on ``tiles`` may override the winds)."""

    self_drawn: bool
    seat_wind: int = 0  # 0..3: E, S, W, N
    round_wind: int = 0
    riichi: bool = False  # riichi: the winner declared riichi this hand
    honba: int = 0  # riichi: counters on the table
    dealer: bool | None = None  # None: the winner deals when their seat wind is East


@dataclass(frozen=True)
class Valuation:
    """The value of a winning hand computed from its tiles.

    ``claim`` holds the hand fields the value fills, as the hand would record them
    (MCR and Salamanca ``{"fan": n}``, riichi ``{"han": h, "fu": f, "yakuman": k}``, classical
    ``{"value": v}``). ``summary`` is a short line ("32 fan", "3 han 40 fu, 5200").
    """

    family: str
    claim: dict[str, int | None]
    items: tuple[Item, ...]
    summary: str
    payment: dict[str, int] = field(default_factory=dict)  # riichi: ron/tsumo payments

    def as_dict(self) -> dict[str, Any]:
        return {
            "family": self.family,
            "claim": dict(self.claim),
            "items": [i.as_dict() for i in self.items],
            "summary": self.summary,
            "payment": dict(self.payment),
        }
