"""Text for pages, shared by every domain: exact numbers, signs, short names, winds. No queries here."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from django.utils.translation import gettext_lazy

from tournaments.models import Player

WIND_NAMES = {
    "E": gettext_lazy("East"),
    "S": gettext_lazy("South"),
    "W": gettext_lazy("West"),
    "N": gettext_lazy("North"),
}
SHARE_NAMES = {"all": gettext_lazy("all"), "half": gettext_lazy("half"), "third": gettext_lazy("a third")}
MINUS = "\u2212"


# -- numbers as shown ---------------------------------------------------------------------------------


def num(value: Any) -> str:
    """An exact number for the page: ``12``, ``−10``, ``1.5``, ``2.33``; ``—`` for nothing."""
    if value is None or value == "":
        return "—"
    v = Fraction(str(value)) if not isinstance(value, (int, Fraction)) else Fraction(value)
    text = str(abs(v.numerator)) if v.denominator == 1 else f"{abs(float(v)):.2f}".rstrip("0").rstrip(".")
    return (MINUS + text) if v < 0 else text


def signed(value: Any) -> str:
    """Like :func:`num`, with ``+`` before a gain."""
    if value is None or value == "":
        return "—"
    text = num(value)
    return "+" + text if Fraction(str(value)) > 0 else text


def short_name(player: Player) -> str:
    """``Ana G.``: short enough for four columns on a phone."""
    if player.last_name:
        return f"{player.first_name} {player.last_name[0]}."
    return player.first_name


# -- finding tables ----------------------------------------------------------------------------------
