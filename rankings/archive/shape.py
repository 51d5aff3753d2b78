"""The fields of the archive format and the checks of their values.

Every object of the document has a fixed set of fields; an unknown field is refused with its path, so a
misspelt key never loses data silently. Hands are the exception: their fields are the rule engine's
business (the riichi engine refuses unknown ones; the others keep them).
"""

from __future__ import annotations

import datetime as dt
import json
import re
from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

from scoring.rules.base import RuleError
from scoring.rules.numbers import COUNT_LIMIT, POINTS_LIMIT, read_number
from tournaments.names import unsafe_character

FORMAT = "mahjong-tournament-archive"
VERSION = 1

TOP_REQUIRED = ("format", "version", "tournament", "players")
TOP_OPTIONAL = ("sessions", "penalties", "teams", "ema_submission", "referee_calls")

TOURNAMENT_REQUIRED = ("name", "slug", "ruleset", "starts_on")
TOURNAMENT_OPTIONAL = (
    "rules",
    "days",
    "city",
    "country",
    # written only when they differ from their defaults
    "is_public",
    "qualifies_for_championship",
    "settings",
    "team_size",
    "language",  # the venue screen's and the printouts' language (settings.LANGUAGES)
    "status",  # only when it differs from what the sessions imply (tournament_status_implied)
)

PLAYER_REQUIRED = ("key", "first_name")
PLAYER_OPTIONAL = ("last_name", "ema_id", "country", "club", "substitute", "withdrawn_from", "team")

TEAM_REQUIRED = ("name",)
TEAM_OPTIONAL = ("country", "club")

SESSION_REQUIRED = ("number",)
# status and published: only when they differ from what the tables imply (a backup of a live tournament)
SESSION_OPTIONAL = ("tables", "starts_at", "absent", "status", "published")

TABLE_REQUIRED = ("number", "seats")
# status: a played table not confirmed; seat_corrections: the seatings before the seats really taken
TABLE_OPTIONAL = ("hands", "scores", "imbalance_reason", "status", "seat_corrections")
SEAT_CORRECTION_REQUIRED = ("from", "to")
SEAT_CORRECTION_OPTIONAL = ("at", "by", "reason")
SEAT_CORRECTIONS_MAX = 20

TABLE_STATUSES = ("draft", "submitted", "confirmed")
SESSION_STATUSES = ("planned", "seated", "playing", "finished")
TOURNAMENT_STATUSES = ("draft", "running", "finished")


def table_played(table: Mapping[str, Any]) -> bool:
    """A table with hands or game totals."""
    return bool(table.get("hands")) or table.get("scores") is not None


def session_status_implied(tables: Sequence[Mapping[str, Any]], *, published: bool = False) -> str:
    """A session's status when the document does not say it: every table played and confirmed, finished;
    some played, playing; none, planned (a finished tournament's archive), or seated when its seating is
    published (the status goes with the seating: the next step is to play it)."""
    played = sum(1 for t in tables if table_played(t))
    confirmed = all(t.get("status", "confirmed") == "confirmed" for t in tables)
    if tables and played == len(tables) and confirmed:
        return "finished"
    if played:
        return "playing"
    return "seated" if published and tables else "planned"


def tournament_status_implied(sessions: Sequence[str]) -> str:
    """The tournament's status when the document does not say it, from its sessions' statuses."""
    if sessions and all(s == "finished" for s in sessions):
        return "finished"
    return "running" if any(s != "planned" for s in sessions) else "draft"


CALL_REQUIRED = ("session", "table", "reason", "called_at")
CALL_OPTIONAL = (
    "acknowledged_at",
    "acknowledged_by",
    "resolved_at",
    "resolved_by",
    "note",
    "penalty",
    "hand",
)
PENALTY_COMMON = ("player", "kind", "session", "table", "hand", "reason")
PENALTY_EXTRA: dict[str, tuple[str, ...]] = {
    "late_arrival": ("minutes_late",),
    "false_hu": ("variant",),
    "dead_hand": (),
    "chombo": (),
    "foul": ("persists",),
    "forgot_winning_tile": (),
    "referee": ("points",),
    "disqualified": ("scope",),
    "replaced": ("by", "during"),
    "table_points": ("points",),
}

SLUG = re.compile(r"^[-a-zA-Z0-9_]+$")
EMA_ID = re.compile(r"^[0-9]{8}$")


def join(path: str, key: str | int) -> str:
    if isinstance(key, int):
        return f"{path}[{key}]"
    return f"{path}.{key}" if path else key


def show(value: Any) -> str:
    """A value as it appears in the document, shortened for a message."""
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        text = repr(value)
    return text if len(text) <= 60 else text[:57] + "…"


def fields(
    value: Any, path: str, what: str, required: Sequence[str], optional: Sequence[str] = ()
) -> Mapping[str, Any]:
    """``value`` as an object with exactly the known fields; the first unknown or missing one is refused."""
    if not isinstance(value, Mapping):
        raise RuleError(f"{what} must be an object, not {show(value)}", path)
    known = (*required, *optional)
    for key in value:
        if key not in known:
            raise RuleError(
                f"unknown field '{key}' in {what} (known fields: {', '.join(known)})", join(path, str(key))
            )
    for key in required:
        if key not in value:
            raise RuleError(f"{what} needs '{key}'", join(path, key))
    return value


def text(obj: Mapping[str, Any], key: str, path: str, *, max_length: int, required: bool = False) -> str:
    value = obj.get(key)
    where = join(path, key)
    if value is None:
        value = ""
    if not isinstance(value, str):
        raise RuleError(f"{key} must be text, not {show(value)}", where)
    value = value.strip()
    if required and not value:
        raise RuleError(f"{key} cannot be empty", where)
    if len(value) > max_length:
        raise RuleError(f"{key} has {len(value)} characters; at most {max_length}", where)
    unsafe = unsafe_character(value.replace("\n", " ").replace("\t", " ").replace("\r", " "))
    if unsafe is not None:
        position, name = unsafe
        raise RuleError(
            f"{key} holds {name} at character {position}: control and text-direction characters are not "
            "allowed",
            where,
        )
    return value


def whole(value: Any, path: str, what: str, *, minimum: int = 1) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise RuleError(f"{what} must be a whole number, not {show(value)}", path)
    if value > COUNT_LIMIT:
        raise RuleError(f"{what} is too large: at most {COUNT_LIMIT:,}", path)
    if value < minimum:
        raise RuleError(f"{what} must be at least {minimum}, not {value}", path)
    return value


def flag(obj: Mapping[str, Any], key: str, path: str, default: bool = False) -> bool:
    value = obj.get(key, default)
    if value is None:
        return default
    if not isinstance(value, bool):
        raise RuleError(f"{key} must be true or false, not {show(value)}", join(path, key))
    return value


def number(value: Any, path: str, what: str = "points") -> int | float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise RuleError(f"{what} must be a number, not {show(value)}", path)
    read_number(value, field=path, limit=POINTS_LIMIT)
    return value


def date(obj: Mapping[str, Any], key: str, path: str) -> dt.date:
    value = obj.get(key)
    try:
        if not isinstance(value, str) or len(value) != 10:
            raise ValueError
        return dt.date.fromisoformat(value)
    except ValueError:
        raise RuleError(
            f"{key} must be a date written YYYY-MM-DD, not {show(value)}", join(path, key)
        ) from None


def plain(value: Any) -> Any:
    """A stored number as the archive writes it: int when whole, else a float (exact fractions such as
    "43/2", stored by live entry, become 21.5)."""
    if value is None or isinstance(value, bool):
        return value
    if isinstance(value, str):
        try:
            value = Fraction(value)
        except (ValueError, ZeroDivisionError):
            return value
    if isinstance(value, Fraction):
        return int(value) if value.denominator == 1 else float(value)
    return value
