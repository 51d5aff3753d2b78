"""Reader of plain-text riichi hand logs, turned into archive-shaped hands.

The log holds games separated by blank lines. A game's first line gives the final raw scores as
``name:score`` in seat order East, South, West, North; each following line is one hand::

    ron W from L <han>han [<fu>fu] (yaku) [riichi P ...]
    also W2 <han>han [<fu>fu] (yaku) [riichi P ...]      a second winner on the same discard
    tsumo W <han>han [<fu>fu] (yaku) [riichi P ...]
    draw tempai <P ...|all|nobody> [riichi P ...]
    chombo P

Hands come out as in ARCHIVE.md, with player names as keys; the yaku in brackets are dropped.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from .base import SEATS, RuleError
from .text import gettext_noop


@dataclass(frozen=True)
class LoggedGame:
    players: tuple[str, str, str, str]  # by seat, East first
    scores: tuple[int, int, int, int]  # published final raw scores
    hands: tuple[dict[str, Any], ...]  # archive-shaped, players by name


_VALUE = re.compile(r"^(\d+)han(?:\s+(\d+)fu)?$")


def _split(rest: str) -> tuple[list[str], list[str]]:
    """Words before the bracketed yaku and the riichi declarers after them."""
    rest = re.sub(r"\([^)]*\)", " ", rest)
    words = rest.split()
    if "riichi" in words:
        at = words.index("riichi")
        return words[:at], words[at + 1 :]
    return words, []


def _value(words: list[str], line_no: int) -> dict[str, int]:
    match = _VALUE.match(" ".join(words))
    if not match:
        raise RuleError(
            gettext_noop("expected '<han>han [<fu>fu]', not %(_items)s", _items=" ".join(words)),
            f"line {line_no}",
        )
    value = {"han": int(match[1])}
    if match[2]:
        value["fu"] = int(match[2])
    return value


def _hand(line: str, line_no: int, hands: list[dict[str, Any]]) -> None:
    kind, _, rest = line.partition(" ")
    words, riichi = _split(rest)
    if kind == "ron" and len(words) >= 3 and words[1] == "from":
        winner = {"player": words[0], **_value(words[3:], line_no)}
        hands.append({"result": "ron", "loser": words[2], "winners": [winner], "riichi": riichi})
    elif kind == "also" and hands and hands[-1]["result"] == "ron" and words:
        hands[-1]["winners"].append({"player": words[0], **_value(words[1:], line_no)})
        hands[-1]["riichi"] += [p for p in riichi if p not in hands[-1]["riichi"]]
    elif kind == "tsumo" and words:
        hands.append({"result": "tsumo", "winner": words[0], **_value(words[1:], line_no), "riichi": riichi})
    elif kind == "draw" and words[:1] == ["tempai"]:
        hands.append({"result": "draw", "tenpai": words[1:], "riichi": riichi})
    elif kind == "chombo" and len(words) == 1:
        hands.append({"result": "chombo", "player": words[0]})
    else:
        raise RuleError(gettext_noop("cannot read the hand %(line)s", line=line), f"line {line_no}")


def parse_handlog(text: str) -> list[LoggedGame]:
    """Every game of the log, in order. A line that cannot be read raises RuleError (path ``line N``)."""
    games: list[LoggedGame] = []
    header: tuple[tuple[str, ...], tuple[int, ...], int] | None = None
    hands: list[dict[str, Any]] = []

    def close() -> None:
        if header is not None:
            players, scores, _ = header
            for hand in hands:
                if hand["result"] == "draw" and hand["tenpai"] in (["all"], ["nobody"]):
                    hand["tenpai"] = list(players) if hand["tenpai"] == ["all"] else []
            games.append(LoggedGame(players, scores, tuple(hands)))  # type: ignore[arg-type]

    for line_no, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line:
            continue
        if re.match(r"^\S+:-?\d+(\s+\S+:-?\d+){3}$", line):
            close()
            pairs = [item.rsplit(":", 1) for item in line.split()]
            names = tuple(name for name, _ in pairs)
            if len(set(names)) != SEATS:
                raise RuleError(
                    gettext_noop("a game needs four different players, not %(line)s", line=line),
                    f"line {line_no}",
                )
            header = (names, tuple(int(score) for _, score in pairs), line_no)
            hands = []
        elif header is None:
            raise RuleError(
                gettext_noop("a game must start with its final scores, not %(line)s", line=line),
                f"line {line_no}",
            )
        else:
            _hand(line, line_no, hands)
    close()
    return games
