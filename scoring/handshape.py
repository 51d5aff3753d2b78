"""The shape of a hand outside the engines: player keys (archive, API) ⇄ seat numbers (engines, storage)."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from scoring.rules.base import RuleError
from scoring.rules.numbers import SCORE_LIMIT, read_number

# Fields that name one player, lists of players, and lists of objects with a "player". ``liable`` is a list
# of objects (Salamanca's shares) or one player (riichi's pao, on a tsumo and on each winner of a ron).
PLAYER_FIELDS = ("winner", "discarder", "loser", "player")
PLAYER_LISTS = ("riichi", "tenpai")
OBJECT_LISTS = ("winners", "liable")
WINNER_FIELDS = ("player", "liable")


def json_number(value: Any) -> Any:
    """An entered number as JSON: int when whole, else a string fraction; other values untouched."""
    if isinstance(value, bool) or value is None:
        return value
    try:
        number = read_number(value, field="", limit=SCORE_LIMIT)
    except RuleError:
        return value
    return number if isinstance(number, int) else str(number)


def exact_number(value: Any) -> Any:
    """A stored or typed total as an exact number for the engines ("43/2" or "21.5" → 43/2); anything that
    is not a number is handed on unchanged so that the engine names the fault."""
    if isinstance(value, str):
        try:
            return read_number(value, field="", limit=SCORE_LIMIT)
        except RuleError:
            return value
    return value


def clean(hand: Mapping[str, Any]) -> dict[str, Any]:
    """A plain JSON copy of a hand (refusing what JSON cannot hold)."""
    if not isinstance(hand, Mapping):
        raise RuleError("a hand must be an object", "")
    try:
        return _shared(json.loads(json.dumps(dict(hand))))
    except (TypeError, ValueError) as exc:
        raise RuleError(f"the hand cannot be stored: {exc}", "") from exc


SHARED_TEXT = 32  # a key or text up to this long is one interned object however many hands repeat it


def _shared(value: Any) -> Any:
    """``value`` (parsed JSON) with its keys and short texts interned: ``json.loads`` makes new ones for
    every hand, and a session's 1,600 hands would each hold their own "result", "winner", "win", …"""
    if isinstance(value, str):
        return sys.intern(value) if len(value) <= SHARED_TEXT else value
    if isinstance(value, dict):
        return {_shared(key): _shared(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_shared(item) for item in value]
    return value


def _convert(hand: Mapping[str, Any], convert: Callable[[Any, str], Any]) -> dict[str, Any]:
    out = dict(hand)
    for name in PLAYER_FIELDS:
        if out.get(name) is not None:
            out[name] = convert(out[name], name)
    for name in PLAYER_LISTS:
        if isinstance(out.get(name), list):
            out[name] = [convert(p, f"{name}[{i}]") for i, p in enumerate(out[name])]
    for name in OBJECT_LISTS:
        if isinstance(out.get(name), list):
            out[name] = [
                {
                    **item,
                    **{
                        field: convert(item[field], f"{name}[{i}].{field}")
                        for field in WINNER_FIELDS
                        if field == "player" or item.get(field) is not None
                    },
                }
                if isinstance(item, Mapping)
                else item
                for i, item in enumerate(out[name])
            ]
    if out.get("liable") is not None and not isinstance(out["liable"], list):
        out["liable"] = convert(out["liable"], "liable")
    if isinstance(out.get("values"), Mapping):
        out["values"] = {str(convert(k, f"values.{k}")): v for k, v in out["values"].items()}
    return out


def to_seats(
    hand: Mapping[str, Any],
    seat_keys: Sequence[str],
    *,
    table_number: int | None = None,
    aliases: Mapping[str, str] | None = None,
) -> dict:
    """Replace player keys by seat numbers; a key not at the table is refused by name.

    ``aliases`` maps the key of a substitute to the key of the player whose seat they took.
    """
    index = {key: seat for seat, key in enumerate(seat_keys)}
    where = f"table {table_number}" if table_number is not None else "this table"

    def convert(value: Any, path: str) -> Any:
        if not isinstance(value, str):
            raise RuleError(f"a player is given by their key (p1, p2, …), not {value!r}", path)
        key = aliases.get(value, value) if aliases else value
        if key in index:
            return index[key]
        raise RuleError(f"{value} is not seated at {where}", path)

    return _convert(hand, convert)


def to_keys(hand: Mapping[str, Any], seat_keys: Sequence[str]) -> dict:
    """Replace seat numbers by player keys (for the archive and the API)."""

    def convert(value: Any, path: str) -> Any:
        try:
            return seat_keys[int(value)]
        except (ValueError, TypeError, IndexError):
            raise RuleError(f"seat {value!r} is not at this table", path) from None

    out = _convert(hand, convert)
    return out


def reseat(hand: Mapping[str, Any], moves: Sequence[int]) -> dict:
    """The stored hand after a seat correction: the player entered at seat ``s`` really sat at
    ``moves[s]``, so every seat number the hand names follows its player."""
    return _convert(hand, lambda value, path: moves[int(value)])
