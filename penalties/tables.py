"""What penalties read of a table's result. The results layer sits above this one and answers: it installs
its readers (``scoring.selectors``) when the apps are ready, so penalties never reach scoring's tables
through ORM relations."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from tournaments.models import Table


@dataclass(frozen=True)
class TableEntry:
    """How a table's result is entered: ``mode`` ("hands", "totals", or None before anything is entered),
    whether game totals are entered, and how many hands are recorded."""

    mode: str | None
    totals: bool
    hands: int


@dataclass(frozen=True)
class Readers:
    entry: Callable[..., TableEntry]  # entry(table=...) -> TableEntry
    touched: Callable[..., list[int]]  # touched(session_id=..., registration_id=..., table_id=...) -> ids


_readers: Readers | None = None


def install(readers: Readers) -> None:
    global _readers
    _readers = readers


def _installed() -> Readers:
    if _readers is None:
        raise RuntimeError("the results layer has not installed its table readers (scoring app not ready)")
    return _readers


def entry(*, table: Table) -> TableEntry:
    return _installed().entry(table=table)


def touched(*, session_id: int, registration_id: int, table_id: int | None) -> list[int]:
    """The tables of a session a player's penalty touches: where they sit, where their summary rows are,
    and the penalty's own table."""
    return _installed().touched(session_id=session_id, registration_id=registration_id, table_id=table_id)
