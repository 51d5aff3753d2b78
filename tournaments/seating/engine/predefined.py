"""Import a schedule prepared elsewhere, and check it before anyone sits down.

Accepted text:

* one table per line, four player numbers in seat order E, S, W, N, separated by ``-``, ``,``,
  ``;``, tabs or spaces (``1-2-3-4``); sessions separated by a blank line or by a line such as
  ``Session 2`` / ``Round 2`` / ``Hanchan 2``; lines starting with ``#`` are comments;
* or CSV with a header naming the columns: ``session`` (or ``round``/``hanchan``), optionally
  ``table``, and four seat columns (``east, south, west, north``, ``e, s, w, n`` or
  ``p1..p4``/``player1..player4``/``seat1..seat4``).

Every fault is collected and reported at once, each naming its line, session or player.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Sequence

from scoring.rules.text import gettext_noop

from .models import Player, PlayerId, SeatingError, Session

_SESSION_LINE = re.compile(r"^\s*(session|round|hanchan|game|s|r)\s*#?\s*(\d+)\s*:?\s*$", re.IGNORECASE)
_SPLIT = re.compile(r"\s*[-,;\t|]\s*")
_SEAT_NAMES = [
    ("east", "e", "p1", "player1", "seat1", "player 1", "seat 1"),
    ("south", "s", "p2", "player2", "seat2", "player 2", "seat 2"),
    ("west", "w", "p3", "player3", "seat3", "player 3", "seat 3"),
    ("north", "n", "p4", "player4", "seat4", "player 4", "seat 4"),
]
_SESSION_NAMES = ("session", "round", "hanchan", "game")


def _split_line(line: str) -> list[str]:
    line = line.strip()
    parts = _SPLIT.split(line) if _SPLIT.search(line) else line.split()
    return [p.strip() for p in parts if p.strip() != ""]


def _header_columns(tokens: list[str]) -> dict[str, int] | None:
    lowered = [t.strip().lower() for t in tokens]
    columns: dict[str, int] = {}
    for i, name in enumerate(lowered):
        if name in _SESSION_NAMES:
            columns["session"] = i
        elif name == "table":
            columns["table"] = i
        else:
            for seat, names in enumerate(_SEAT_NAMES):
                if name in names:
                    columns[f"seat{seat}"] = i
    if "session" in columns and all(f"seat{k}" in columns for k in range(4)):
        return columns
    return None


def _read_rows(text: str, faults: list[str]) -> list[list[tuple[int, list[str]]]]:
    """Split the text into sessions of ``(line number, four tokens)``."""
    lines = text.splitlines()
    first = next(
        ((i, line) for i, line in enumerate(lines) if line.strip() and not line.lstrip().startswith("#")),
        None,
    )
    if first is not None:
        header = _header_columns(next(csv.reader([first[1]])))
        if header is not None:
            return _read_csv(lines, first[0], header, faults)
    sessions: list[list[tuple[int, list[str]]]] = [[]]
    for number, line in enumerate(lines, start=1):
        stripped = line.strip()
        if not stripped or _SESSION_LINE.match(stripped):
            if sessions[-1]:
                sessions.append([])
            continue
        if stripped.startswith("#"):
            continue
        tokens = _split_line(stripped)
        if len(tokens) != 4:
            faults.append(
                gettext_noop(
                    "line %(_number)s: a table needs 4 players, found %(_count)s (%(stripped)s)",
                    _number=number,
                    _count=len(tokens),
                    stripped=stripped,
                )
            )
        sessions[-1].append((number, tokens))
    return [s for s in sessions if s]


def _read_csv(lines: list[str], header_at: int, columns: dict[str, int], faults: list[str]):
    by_session: dict[str, list[tuple[str, int, list[str]]]] = {}
    reader = csv.reader(io.StringIO("\n".join(lines[header_at + 1 :])))
    for offset, row in enumerate(reader):
        number = header_at + 2 + offset
        if not any(cell.strip() for cell in row):
            continue
        try:
            session = row[columns["session"]].strip()
            seats = [row[columns[f"seat{k}"]].strip() for k in range(4)]
            table = row[columns["table"]].strip() if "table" in columns else ""
        except IndexError:
            faults.append(
                gettext_noop(
                    "line %(_number)s: expected %(_number2)s columns, found %(_count)s",
                    _number=number,
                    _number2=max(columns.values()) + 1,
                    _count=len(row),
                )
            )
            continue
        if any(not s for s in seats):
            faults.append(
                gettext_noop(
                    "line %(_number)s: a table needs 4 players, found %(_value)s",
                    _number=number,
                    _value=sum(1 for s in seats if s),
                )
            )
            seats = [s for s in seats if s]
        by_session.setdefault(session, []).append((table, number, seats))
    out = []
    for rows in by_session.values():
        if all(t.isdigit() for t, _, _ in rows):
            rows = sorted(rows, key=lambda r: int(r[0]))
        out.append([(number, seats) for _, number, seats in rows])
    return out


def parse_predefined(
    text: str,
    players: Sequence[Player],
    sessions: int | None = None,
) -> list[Session]:
    """Read and check a predefined schedule; raise :class:`SeatingError` listing every fault.

    Each session must seat every active (non-substitute) player exactly once, plus as many
    registered substitutes as are needed to fill tables of four. ``sessions``, when given, is
    the number of sessions expected.
    """
    faults: list[str] = []
    by_token: dict[str, Player] = {}
    for p in players:
        by_token[str(p.id)] = p
        by_token.setdefault(str(p.id).lower(), p)
    regulars = [p for p in players if p.active and not p.substitute]
    needed = len(regulars) + (-len(regulars)) % 4
    rows = _read_rows(text, faults)
    if not rows and not faults:
        faults.append(gettext_noop("the schedule is empty"))
    if sessions is not None and rows and len(rows) != sessions:
        faults.append(
            gettext_noop(
                "the schedule has %(_count)s sessions; %(_sessions)s were expected",
                _count=len(rows),
                _sessions=sessions,
            )
        )

    out: list[Session] = []
    for s, session_rows in enumerate(rows, start=1):
        tables, seen = _session_tables(session_rows, by_token, faults)
        _check_session(s, session_rows, tables, seen, regulars, needed, faults)
        out.append(tables)
    if faults:
        raise SeatingError(faults)
    return out


def _session_tables(
    session_rows: list[tuple[int, list[str]]], by_token: dict[str, Player], faults: list[str]
) -> tuple[Session, dict[PlayerId, list[int]]]:
    """One session's tables of known players, and the lines each player is seated on; unknown and
    withdrawn players are faults."""
    seen: dict[PlayerId, list[int]] = {}
    tables: Session = []
    for number, tokens in session_rows:
        table: list[PlayerId] = []
        for token in tokens:
            player = by_token.get(token) or by_token.get(token.lower())
            if player is None:
                faults.append(
                    gettext_noop("line %(_number)s: unknown player %(token)s", _number=number, token=token)
                )
                continue
            if not player.active:
                faults.append(
                    gettext_noop(
                        "line %(_number)s: player %(_id)s has withdrawn", _number=number, _id=player.id
                    )
                )
            seen.setdefault(player.id, []).append(number)
            table.append(player.id)
        tables.append(table)
    return tables, seen


def _check_session(
    s: int,
    session_rows: list[tuple[int, list[str]]],
    tables: Session,
    seen: dict[PlayerId, list[int]],
    regulars: list[Player],
    needed: int,
    faults: list[str],
) -> None:
    """Every regular player seated once, and as many players as tables of four need."""
    for pid, at in seen.items():
        if len(at) > 1:
            lines = ", ".join(str(n) for n in at)
            faults.append(
                gettext_noop(
                    "session %(_s)s: player %(_pid)s is seated %(_count)s times (lines %(_lines)s)",
                    _s=s,
                    _pid=pid,
                    _count=len(at),
                    _lines=lines,
                )
            )
    missing = [str(p.id) for p in regulars if p.id not in seen]
    if missing:
        faults.append(
            gettext_noop(
                "session %(_s)s: players missing: %(_items)s",
                _s=s,
                _items=", ".join(missing),
            )
        )
    seated = sum(len(tokens) for _, tokens in session_rows)
    if seated != needed:
        faults.append(
            gettext_noop(
                "session %(_s)s seats %(_seated)s players in %(_count)s tables; %(_needed)s players are needed",
                _s=s,
                _seated=seated,
                _count=len(tables),
                _needed=needed,
            )
        )
