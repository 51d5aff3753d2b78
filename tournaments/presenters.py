"""Text for pages, shared by every domain: exact numbers, signs, short names, winds. No queries here."""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from django.utils.translation import gettext_lazy

from tournaments.models import WIND_LETTERS, Player, Registration
from tournaments.names import person_key

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


def sort_name(registration: Registration) -> str:
    """``Last, First`` for alphabetical lists."""
    player = registration.player
    return f"{player.last_name}, {player.first_name}" if player.last_name else player.first_name


def name_order(registration: Registration) -> tuple[str, str, str, str]:
    """The place of a registration in every list by name: folded surname, then first name."""
    return person_key(registration.player)


@dataclass
class SeatLine:
    """One seat of a table as every page lists it: who sits at which wind and, once the table is confirmed,
    what they scored (plain numbers). Seating pages fill the player's facts, result pages the figures."""

    position: int  # 0..3: East, South, West, North
    key: str
    name: str
    short: str = ""
    country: str = ""
    club: str = ""
    substitute: bool = False  # registered as a substitute
    withdrawn: bool = False
    sort_name: str = ""
    sort_key: tuple = ()  # tournaments.names.name_key: the order of names on every list
    substitute_for: str = ""  # the name of the replaced player when a substitute is credited
    replaced_by: str = ""  # the substitute who plays this seat instead of the player seated there
    game_score: Any = None
    table_points: Any = None
    uma: Any = None
    penalties: Any = None
    final: Any = None
    excluded: bool = False

    @property
    def wind(self) -> str:
        return WIND_LETTERS[self.position]

    @property
    def wind_name(self) -> str:
        return str(WIND_NAMES[self.wind])


@dataclass
class TableView:
    """One table of a session as every page lists it."""

    number: int
    seats: list[SeatLine] = field(default_factory=list)
    pk: int | None = None
    private_key: str = ""
    status: str = ""  # for the public: "waiting", "playing", "submitted", "confirmed"
    entry: str = ""  # for referees: "empty", "draft", "submitted", "confirmed"
    status_label: str = ""
    version: int = 1
    mode: str = "hands"
    hands: int = 0
    held: int = 0  # hands whose claimed value differs from their tiles, waiting for a referee
    has_result: bool = False
    imbalance_reason: str = ""
    short_reason: str = ""  # why the table played fewer hands than a full session

    @property
    def players(self) -> list[str]:
        return [seat.short or seat.name for seat in self.seats]
