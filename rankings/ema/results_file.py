"""Reading a tournament's EMA results file: the product's own CSV/XLSX and MTS's EMA report.

Pure Python (no Django import). The two formats carry the same eight columns in a different order:

- the product's ``ema-results`` export: Place, First name, Last name, EMA number, Table points, Score,
  EMA member, Country;
- MTS's EMA report: Place, EMA number, Last name, First name, Country, EMA member, Table points, Score.

Columns are found by their header (case, spaces and a few usual aliases do not matter), so either order
reads. Every line is checked and every fault is collected (line, column, rule); a file with any fault is
refused as a whole by the caller. Input is bounded before any work: file size, unpacked XLSX size, rows,
columns, cell length and the magnitude of every number.

Places: rows are listed best first; tied players share the best place (1, 2, 2, 4, …), as the EMA and the
product write them. Every listed player counts in N, with or without an EMA number.
"""

from __future__ import annotations

import csv
import hashlib
import io
import json
import re
import unicodedata
import zipfile
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from fractions import Fraction
from typing import Any

import pycountry

from rankings.ema.engine import base_rank
from scoring.rules.text import Text, gettext_noop

MAX_FILE_BYTES = 2 * 1024 * 1024  # a results file of the largest tournaments is a few tens of kB
MAX_UNPACKED_BYTES = 20 * 1024 * 1024  # XLSX: the zip's members unpacked, against zip bombs
MAX_ROWS = 2000  # players in one tournament (the largest EMA events have a few hundred)
MAX_COLUMNS = 40
MAX_SCANNED_LINES = 10 * MAX_ROWS  # empty lines included
MAX_CELL_CHARS = 200
MAX_NAME_CHARS = 100
MAX_TABLE_POINTS = 10_000
MAX_SCORE = 100_000_000  # riichi scores are written in points (not thousands)
MAX_FAULTS = 200  # faults listed; the count says how many more there were

EMA_RESULTS = "ema-results"
MTS = "mts"
BY_NAME = "columns"

PRODUCT_ORDER = (
    "place",
    "first_name",
    "last_name",
    "ema_id",
    "table_points",
    "score",
    "ema_member",
    "country",
)
MTS_ORDER = (
    "place",
    "ema_id",
    "last_name",
    "first_name",
    "country",
    "ema_member",
    "table_points",
    "score",
)
COLUMN_TITLES = {
    "place": "Place",
    "first_name": "First name",
    "last_name": "Last name",
    "ema_id": "EMA number",
    "table_points": "Table points",
    "score": "Score",
    "ema_member": "EMA member",
    "country": "Country",
}
FACT_FIELDS = frozenset(
    {"name", "family", "starts_on", "ends_on", "days", "city", "country", "qualifies_for_championship"}
)
REQUIRED = ("place", "first_name", "last_name", "ema_id")
ALIASES = {
    "place": "place",
    "rank": "place",
    "position": "place",
    "pos": "place",
    "first name": "first_name",
    "firstname": "first_name",
    "given name": "first_name",
    "last name": "last_name",
    "lastname": "last_name",
    "surname": "last_name",
    "family name": "last_name",
    "ema number": "ema_id",
    "ema no": "ema_id",
    "ema nr": "ema_id",
    "ema id": "ema_id",
    "ema": "ema_id",
    "ema #": "ema_id",
    "table points": "table_points",
    "tp": "table_points",
    "points": "table_points",
    "score": "score",
    "total score": "score",
    "ema member": "ema_member",
    "member": "ema_member",
    "country": "country",
    "nationality": "country",
}
YES = frozenset({"yes", "y", "true", "1", "x", "si", "sí", "ja", "oui"})
NO = frozenset({"no", "n", "false", "0", "", "nein", "non"})
NUMBER = re.compile(r"^[+-]?(\d+([.,]\d*)?|[.,]\d+)$")


@dataclass(frozen=True)
class Fault:
    """One fault of the file: ``line`` 0 means the file as a whole."""

    line: int
    column: str  # a column title ("EMA number") or "" for the whole line or file
    message: Text | str  # rendered in the reader's language when read

    def __str__(self) -> str:
        where = f"line {self.line}" if self.line else "tournament" if self.column in FACT_FIELDS else "file"
        return f"{where}, {self.column}: {self.message}" if self.column else f"{where}: {self.message}"

    def as_dict(self) -> dict[str, Any]:
        return {"line": self.line, "column": self.column, "message": str(self.message)}


class ResultsFileError(ValueError):
    """The file is refused; ``faults`` lists every fault found (at most MAX_FAULTS of them)."""

    def __init__(self, faults: list[Fault], more: int = 0):
        self.faults = faults
        self.more = more
        text = "\n".join(str(f) for f in faults)
        if more:
            text += f"\n… and {more} more"
        super().__init__(text)


@dataclass(frozen=True)
class ResultRow:
    line: int
    place: int
    first_name: str
    last_name: str
    ema_id: str  # 8 digits or ""
    country: str  # ISO 3166 alpha-3 or ""
    ema_member: bool
    table_points: Fraction | None
    score: Fraction | None

    def base_rank(self, players: int) -> int:
        return base_rank(self.place, players)


@dataclass(frozen=True)
class ResultsFile:
    """A results file that passed every check."""

    format: str  # EMA_RESULTS, MTS or BY_NAME (columns found by name in another order)
    rows: tuple[ResultRow, ...]
    ignored_columns: tuple[str, ...] = ()
    notes: tuple[str, ...] = field(default=())

    @property
    def players(self) -> int:
        return len(self.rows)

    @property
    def countries(self) -> int:
        return len({r.country for r in self.rows if r.country})

    @property
    def ranked(self) -> int:
        return sum(1 for r in self.rows if r.ema_id)

    def content_hash(self) -> str:
        """A fingerprint of what the file says, whatever its format, delimiter or column order."""
        canonical = [
            [
                r.place,
                r.first_name.casefold(),
                r.last_name.casefold(),
                r.ema_id,
                r.country,
                r.ema_member,
                _canonical_number(r.table_points),
                _canonical_number(r.score),
            ]
            for r in self.rows
        ]
        return hashlib.sha256(json.dumps(canonical, separators=(",", ":")).encode()).hexdigest()


def _canonical_number(value: Fraction | None) -> str:
    return "" if value is None else f"{value.numerator}/{value.denominator}"


# -- reading ----------------------------------------------------------------------------------------


def read_results_file(data: bytes, *, filename: str = "") -> ResultsFile:
    """Read and check a results file (CSV or XLSX, told apart by content); raise ResultsFileError."""
    if len(data) > MAX_FILE_BYTES:
        raise ResultsFileError(
            [
                Fault(
                    0,
                    "",
                    gettext_noop(
                        "the file has %(size)s bytes; at most %(limit)s are accepted",
                        size=len(data),
                        limit=MAX_FILE_BYTES,
                    ),
                )
            ]
        )
    if not data.strip():
        raise ResultsFileError([Fault(0, "", gettext_noop("the file is empty"))])
    if data[:4] == b"PK\x03\x04":
        table = _xlsx_rows(data)
    elif filename.lower().endswith((".xlsx", ".xlsm")):
        raise ResultsFileError(
            [Fault(0, "", gettext_noop("the file is named .xlsx but is not an Excel workbook"))]
        )
    else:
        table = _csv_rows(data)
    return check_table(table)


def _csv_rows(data: bytes) -> list[tuple[int, list[str]]]:
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        try:
            text = data.decode("cp1252")
        except UnicodeDecodeError as exc:
            raise ResultsFileError(
                [
                    Fault(
                        0,
                        "",
                        gettext_noop(
                            "the file is neither UTF-8 nor Windows-1252 text (byte %(byte)s)", byte=exc.start
                        ),
                    )
                ]
            ) from exc
    if "\x00" in text:
        raise ResultsFileError([Fault(0, "", gettext_noop("the file holds binary data, not CSV text"))])
    first = text.lstrip().split("\n", 1)[0]
    delimiter = max((",", ";", "\t"), key=first.count)
    reader = csv.reader(io.StringIO(text), delimiter=delimiter)
    table: list[tuple[int, list[str]]] = []
    try:
        for values in reader:
            if len(table) > MAX_ROWS + 1 or reader.line_num > MAX_SCANNED_LINES:
                break
            if any(v.strip() for v in values):
                table.append((reader.line_num, values[: MAX_COLUMNS + 1]))
    except csv.Error as exc:
        raise ResultsFileError(
            [Fault(reader.line_num, "", gettext_noop("not readable as CSV: %(_error)s", _error=str(exc)))]
        ) from exc
    return table


def _xlsx_rows(data: bytes) -> list[tuple[int, list[str]]]:
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            unpacked = sum(info.file_size for info in archive.infolist())
    except zipfile.BadZipFile as exc:
        raise ResultsFileError(
            [Fault(0, "", gettext_noop("the file is not a readable Excel (XLSX) workbook"))]
        ) from exc
    if unpacked > MAX_UNPACKED_BYTES:
        raise ResultsFileError(
            [
                Fault(
                    0,
                    "",
                    gettext_noop(
                        "the workbook unpacks to %(size)s bytes; at most %(limit)s",
                        size=unpacked,
                        limit=MAX_UNPACKED_BYTES,
                    ),
                )
            ]
        )
    from openpyxl import load_workbook

    try:
        workbook = load_workbook(io.BytesIO(data), read_only=True, data_only=True)
    except Exception as exc:  # openpyxl raises many kinds for a damaged workbook
        raise ResultsFileError(
            [Fault(0, "", gettext_noop("the file is not a readable Excel (XLSX) workbook"))]
        ) from exc
    try:
        sheet = workbook.worksheets[0]
        table: list[tuple[int, list[str]]] = []
        rows = sheet.iter_rows(max_row=MAX_SCANNED_LINES, max_col=MAX_COLUMNS + 1, values_only=True)
        for number, values in enumerate(rows, start=1):
            if len(table) > MAX_ROWS + 1:
                break
            cells = [_xlsx_text(v) for v in values]
            while cells and not cells[-1].strip():
                cells.pop()
            if cells:
                table.append((number, cells))
    finally:
        workbook.close()
    return table


def _xlsx_text(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    if isinstance(value, float):
        return repr(value)
    return str(value)


def _header_key(title: str) -> str:
    text = unicodedata.normalize("NFKC", title).strip().casefold()
    text = re.sub(r"[\s_.:-]+", " ", text).strip()
    return ALIASES.get(text, "")


def check_table(table: list[tuple[int, list[str]]]) -> ResultsFile:
    """Check the rows of a file (line number, cells as text); the first non-empty row is the header."""
    rows_in = [(line, cells) for line, cells in table if any(c.strip() for c in cells)]
    if not rows_in:
        raise ResultsFileError([Fault(0, "", gettext_noop("the file is empty"))])
    header_line, header = rows_in[0]
    columns, ignored = _header_columns(header_line, header)
    data_rows = _data_rows(rows_in[1:])
    order = tuple(sorted(columns, key=columns.__getitem__))
    fmt = EMA_RESULTS if order == PRODUCT_ORDER else MTS if order == MTS_ORDER else BY_NAME
    rows, faults = _read_rows(data_rows, columns, width=len(header))
    if faults:
        shown = faults[:MAX_FAULTS]
        raise ResultsFileError(shown, more=len(faults) - len(shown))
    return ResultsFile(format=fmt, rows=tuple(rows), ignored_columns=tuple(ignored))


def _header_columns(header_line: int, header: list[str]) -> tuple[dict[str, int], list[str]]:
    """The position of each known column and the titles of the columns ignored; faults of the header."""
    if len(header) > MAX_COLUMNS:
        raise ResultsFileError(
            [Fault(header_line, "", gettext_noop("more than %(limit)s columns", limit=MAX_COLUMNS))]
        )
    faults: list[Fault] = []
    columns: dict[str, int] = {}
    ignored: list[str] = []
    for index, title in enumerate(header):
        key = _header_key(title)
        if not key:
            if title.strip():
                ignored.append(title.strip()[:MAX_NAME_CHARS])
            continue
        if key in columns:
            faults.append(
                Fault(
                    header_line, COLUMN_TITLES[key], gettext_noop("this column appears twice in the header")
                )
            )
            continue
        columns[key] = index
    missing = [COLUMN_TITLES[c] for c in REQUIRED if c not in columns]
    if missing:
        faults.append(
            Fault(
                header_line,
                "",
                gettext_noop(
                    "missing column(s) %(_missing)s; the columns are %(_columns)s (any order)",
                    _missing=", ".join(missing),
                    _columns=", ".join(COLUMN_TITLES[c] for c in PRODUCT_ORDER),
                ),
            )
        )
    if faults:
        raise ResultsFileError(faults)
    return columns, ignored


def _data_rows(data_rows: list[tuple[int, list[str]]]) -> list[tuple[int, list[str]]]:
    """The players' rows, at least one and at most ``MAX_ROWS``."""
    if not data_rows:
        raise ResultsFileError([Fault(0, "", gettext_noop("the file has a header but no players"))])
    if len(data_rows) > MAX_ROWS:
        raise ResultsFileError(
            [
                Fault(
                    0,
                    "",
                    gettext_noop(
                        "more than %(limit)s players; one tournament has at most %(limit)s", limit=MAX_ROWS
                    ),
                )
            ]
        )
    return data_rows


def _read_rows(
    data_rows: list[tuple[int, list[str]]], columns: dict[str, int], *, width: int
) -> tuple[list[ResultRow], list[Fault]]:
    """Every row read, and the faults of the rows that could not be."""
    rows: list[ResultRow] = []
    faults: list[Fault] = []
    seen_ema: dict[str, int] = {}
    previous_place = 0
    for index, (line, cells) in enumerate(data_rows):
        row = _Row(line, cells, columns)
        row.check_shape(width)
        if row.faults:
            faults.extend(row.faults)
            continue
        place = _place(row.cell("place"), index + 1, previous_place, len(data_rows), row.fault)
        previous_place = place if place is not None else index + 1
        result = row.result(place, seen_ema)
        if row.faults:
            faults.extend(row.faults)
            continue
        rows.append(result)
    return rows, faults


class _Row:
    """One player's row of the file: its cells by column, and its faults."""

    def __init__(self, line: int, cells: list[str], columns: dict[str, int]):
        self.line = line
        self.cells = cells
        self.columns = columns
        self.faults: list[Fault] = []

    def cell(self, key: str) -> str:
        position = self.columns.get(key)
        if position is None or position >= len(self.cells):
            return ""
        return self.cells[position].strip()

    def fault(self, key: str, message: str) -> None:
        self.faults.append(Fault(self.line, COLUMN_TITLES[key] if key else "", message))

    def check_shape(self, width: int) -> None:
        """No cell past the header's columns, none too long."""
        if len(self.cells) > width and any(c.strip() for c in self.cells[width:]):
            self.fault(
                "",
                gettext_noop(
                    "%(cells)s cells but the header names %(columns)s columns",
                    cells=len(self.cells),
                    columns=width,
                ),
            )
        for key in self.columns:
            if len(self.cell(key)) > MAX_CELL_CHARS:
                self.fault(key, gettext_noop("longer than %(limit)s characters", limit=MAX_CELL_CHARS))

    def result(self, place: int | None, seen_ema: dict[str, int]) -> ResultRow | None:
        """The row read (None when it has faults); ``seen_ema``: the line of each EMA number so far."""
        first_name, last_name = self._names()
        ema_id = self._ema_number(seen_ema)
        country = _country(self.cell("country"), self.fault)
        member_text = self.cell("ema_member").casefold()
        if member_text not in YES and member_text not in NO:
            self.fault(
                "ema_member", gettext_noop("%(value)s is neither Yes nor No", value=self.cell("ema_member"))
            )
        table_points = _number(self.cell("table_points"), "table_points", MAX_TABLE_POINTS, self.fault)
        score = _number(self.cell("score"), "score", MAX_SCORE, self.fault)
        if table_points is not None and table_points < 0:
            self.fault("table_points", gettext_noop("table points are never negative"))
        if self.faults:
            return None
        assert place is not None
        return ResultRow(
            line=self.line,
            place=place,
            first_name=first_name,
            last_name=last_name,
            ema_id=ema_id,
            country=country,
            ema_member=member_text in YES,
            table_points=table_points,
            score=score,
        )

    def _names(self) -> tuple[str, str]:
        first_name, last_name = self.cell("first_name"), self.cell("last_name")
        for key, value in (("first_name", first_name), ("last_name", last_name)):
            if len(value) > MAX_NAME_CHARS:
                self.fault(key, gettext_noop("longer than %(limit)s characters", limit=MAX_NAME_CHARS))
        if not first_name and not last_name:
            self.fault("last_name", gettext_noop("a player needs a name (first name, last name or both)"))
        return first_name, last_name

    def _ema_number(self, seen_ema: dict[str, int]) -> str:
        ema_id = _ema_id(self.cell("ema_id"), self.fault)
        if ema_id:
            if ema_id in seen_ema:
                self.fault(
                    "ema_id",
                    gettext_noop(
                        "%(_number)s is also on line %(line)s", _number=ema_id, line=seen_ema[ema_id]
                    ),
                )
            else:
                seen_ema[ema_id] = self.line
        return ema_id


def _place(text: str, position: int, previous: int, players: int, fault) -> int | None:
    if not text:
        fault("place", gettext_noop("a place is required"))
        return None
    if text.endswith(".0"):  # a spreadsheet's whole number
        text = text[:-2]
    if not text.isascii() or not text.isdigit() or len(text) > 6:
        fault("place", gettext_noop("%(value)s is not a whole number", value=text))
        return None
    place = int(text)
    if not 1 <= place <= players:
        fault(
            "place",
            gettext_noop(
                "%(place)s is outside 1..%(players)s (the file lists %(players)s players)",
                place=place,
                players=players,
            ),
        )
        return None
    if place != position and place != previous:
        rule = gettext_noop(
            "players are listed best first and tied players share the best place (1, 2, 2, 4, …)"
        )
        if position == 1 or previous == 0:
            fault(
                "place",
                gettext_noop(
                    "%(place)s where %(position)s is expected: %(_rule)s",
                    place=place,
                    position=position,
                    _rule=str(rule),
                ),
            )
        else:
            fault(
                "place",
                gettext_noop(
                    "%(place)s where %(previous)s (a tie) or %(position)s is expected: %(_rule)s",
                    place=place,
                    previous=previous,
                    position=position,
                    _rule=str(rule),
                ),
            )
        return None
    return place


def _ema_id(text: str, fault) -> str:
    if not text or text in ("-", "—"):
        return ""
    digits = text[:-2] if text.endswith(".0") else text
    if not digits.isascii() or not digits.isdigit() or len(digits) not in (7, 8):
        if digits.isdigit() and len(digits) < 7:
            fault(
                "ema_id",
                gettext_noop(
                    "%(value)s is not an EMA number of 8 digits (leading zeros lost? keep the column as text)",
                    value=text,
                ),
            )
        else:
            fault("ema_id", gettext_noop("%(value)s is not an EMA number of 8 digits", value=text))
        return ""
    return digits.zfill(8)  # a spreadsheet dropped the leading zero of a 7-digit number


def _country(text: str, fault) -> str:
    if not text:
        return ""
    if len(text) > 60:
        fault("country", gettext_noop("not a country"))
        return ""
    try:
        country = pycountry.countries.lookup(text)
    except LookupError:
        fault(
            "country",
            gettext_noop("%(value)s is not a country (an ISO 3166 code such as ESP, FRA, NLD)", value=text),
        )
        return ""
    return country.alpha_3


def _number(text: str, key: str, limit: int, fault) -> Fraction | None:
    if not text:
        return None
    compact = text.replace(" ", "").replace("\u00a0", "")
    if compact.count(",") == 1 and "." not in compact:
        compact = compact.replace(",", ".")  # a decimal comma
    if not NUMBER.match(compact) or len(compact) > 20:
        fault(key, gettext_noop("%(value)s is not a number", value=text))
        return None
    try:
        value = Fraction(Decimal(compact))
    except (InvalidOperation, ValueError):
        fault(key, gettext_noop("%(value)s is not a number", value=text))
        return None
    if len(compact.partition(".")[2]) > 4:
        fault(key, gettext_noop("%(value)s has more than 4 decimals", value=text))
        return None
    if abs(value) > limit:
        fault(key, gettext_noop("%(_value)s is beyond ±%(limit)s", _value=text, limit=limit))
        return None
    return value
