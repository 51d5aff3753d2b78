"""The exporter contract: an exporter yields rows, the base class turns them into CSV and XLSX.

An exporter has an ``identifier`` (used in URLs, the API and ``manage.py export``), a ``name`` and a
``description`` for the director's page, a ``scope`` and the ``formats`` it supports:

- scope ``"tournament"``: the exporter needs a tournament (results file, standings, seating, …);
- scope ``"ranking"``: the exporter is not bound to a tournament (the EMA ranking of one ruleset family).

A row exporter implements :meth:`Exporter.rows` (the header first, then one list per row) and gets
CSV and XLSX for free. A document exporter lists only ``"json"`` in ``formats`` and implements
:meth:`Exporter.document`.

Cells are ``str``, ``int``, ``float``, ``Fraction``, ``Decimal``, dates or ``None``. Numbers stay
numbers in XLSX; :class:`Text` (and every cell of a column named in ``text_columns``) stays text, so
an EMA number keeps its leading zeros. Long exports report their progress through ``report``.

- CSV: UTF-8 with a byte order mark (spreadsheets then read accents right), comma-separated.
  A text cell that begins with ``=``, ``+``, ``-``, ``@``, a tab or a carriage return is prefixed with
  an apostrophe so that a spreadsheet never runs it as a formula; numbers are written as they are.
- XLSX: one sheet, bold header row kept in view, column widths from the content, text cells stored
  as text (a cell that begins with ``=`` is never a formula); a text cell that begins like a formula
  carries the quote prefix, so it stays text when edited or saved again as CSV.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import date, datetime
from decimal import Decimal
from fractions import Fraction
from typing import Any, ClassVar

from django.utils import timezone
from openpyxl import Workbook
from openpyxl.cell.cell import ILLEGAL_CHARACTERS_RE
from openpyxl.styles import Font
from openpyxl.utils import get_column_letter

from rankings.standings.engine import printable
from scoring.rules.base import RuleError

CSV = "csv"
XLSX = "xlsx"
JSON = "json"
ZIP = "zip"  # a pack of files (the EMA submission pack)
FORMATS: tuple[str, ...] = (CSV, XLSX, JSON, ZIP)
CONTENT_TYPES = {
    CSV: "text/csv; charset=utf-8",
    XLSX: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    JSON: "application/json",
    ZIP: "application/zip",
}
FORMAT_LABELS = {CSV: "CSV", XLSX: "Excel (XLSX)", JSON: "JSON", ZIP: "ZIP"}

TOURNAMENT = "tournament"
RANKING = "ranking"

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
MIN_WIDTH, MAX_WIDTH = 6, 50
# Share of the progress bar for gathering the rows; writing the file takes the rest.
GATHERING_SHARE = 90

Cell = str | int | float | Fraction | Decimal | date | None
Progress = Callable[[int], None]


class Text(str):
    """A cell that stays text in every format, even when it looks like a number ("04010001")."""

    __slots__ = ()


@dataclass(frozen=True)
class ExportFile:
    filename: str
    content_type: str
    data: bytes


class Exporter:
    """Base class of every exporter; subclasses set the class attributes and implement ``rows``."""

    identifier: ClassVar[str] = ""
    name: ClassVar[Any] = ""  # a lazy translation
    description: ClassVar[Any] = ""
    scope: ClassVar[str] = TOURNAMENT
    formats: ClassVar[tuple[str, ...]] = (CSV, XLSX)
    text_columns: ClassVar[frozenset[int]] = frozenset()  # column numbers (0-based) kept as text
    sheet_title: ClassVar[str] = ""
    do_not_call_in_templates: ClassVar[bool] = True  # templates list the classes themselves

    def __init__(
        self,
        *,
        tournament=None,
        family: str | None = None,
        on: date | None = None,
        progress: Progress | None = None,
    ):
        if self.scope == TOURNAMENT and tournament is None:
            raise RuleError(f"the '{self.identifier}' export needs a tournament", "tournament")
        self.tournament = tournament
        self.family = family
        self.on = on
        self._progress = progress
        self._reported = -1

    # -- what subclasses provide ------------------------------------------------------------------

    @classmethod
    def available_for(cls, tournament) -> bool:
        """Whether the exporter makes sense for ``tournament`` (shown on its exports page)."""
        return True

    def rows(self) -> Iterable[Sequence[Cell]]:
        """The header row, then the data rows (row exporters override this)."""
        raise TypeError(f"the '{self.identifier}' exporter writes a document, not rows")

    def document(self) -> Any:
        """The JSON document of a document exporter (document exporters override this)."""
        raise TypeError(f"the '{self.identifier}' exporter writes rows, not a document")

    def filename_stem(self) -> str:
        if self.tournament is not None:
            return f"{self.tournament.slug}-{self.identifier}"
        return self.identifier

    # -- progress ---------------------------------------------------------------------------------

    def report(self, done: int, total: int) -> None:
        """Report that ``done`` of ``total`` steps of gathering the rows are done."""
        if total > 0:
            self._set_progress(GATHERING_SHARE * min(done, total) // total)

    def _set_progress(self, percent: int) -> None:
        percent = max(0, min(100, int(percent)))
        if self._progress is not None and percent > self._reported:
            self._reported = percent
            self._progress(percent)

    # -- rendering --------------------------------------------------------------------------------

    def render(self, fmt: str) -> ExportFile:
        """The export in ``fmt`` (one of :attr:`formats`)."""
        if fmt not in self.formats:
            supported = ", ".join(self.formats)
            raise RuleError(
                f"the '{self.identifier}' export is available as {supported}, not {fmt}", "format"
            )
        self._set_progress(0)
        if fmt == JSON:
            data = json.dumps(self.document(), ensure_ascii=False, indent=2).encode("utf-8") + b"\n"
        else:
            rows = [list(row) for row in self.rows()]
            self._set_progress(GATHERING_SHARE)
            data = render_csv(rows) if fmt == CSV else self._render_xlsx(rows)
        self._set_progress(100)
        return ExportFile(f"{self.filename_stem()}.{fmt}", CONTENT_TYPES[fmt], data)

    def _render_xlsx(self, rows: list[list[Cell]]) -> bytes:
        return render_xlsx(
            rows,
            text_columns=self.text_columns,
            title=str(self.sheet_title or self.name or self.identifier),
            progress=lambda share: self._set_progress(
                GATHERING_SHARE + (100 - GATHERING_SHARE) * share // 100
            ),
        )


# -- CSV --------------------------------------------------------------------------------------------


def _plain(value: Cell) -> Cell:
    """Exact numbers as the standings print them, aware times in local time, None as empty."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "Yes" if value else "No"
    if isinstance(value, Fraction):
        return printable(value)
    if isinstance(value, datetime):
        if timezone.is_aware(value):
            value = timezone.localtime(value)
        return value.strftime("%Y-%m-%d %H:%M")
    return value


def csv_cell(value: Cell) -> str | int | float | Decimal:
    value = _plain(value)
    if isinstance(value, int | float | Decimal):
        return value
    if isinstance(value, date):
        return value.isoformat()
    text = str(value)
    if text.startswith(FORMULA_STARTS):
        return "'" + text
    return text


def render_csv(rows: Iterable[Sequence[Cell]]) -> bytes:
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\r\n")
    for row in rows:
        writer.writerow([csv_cell(v) for v in row])
    return buffer.getvalue().encode("utf-8-sig")


# -- XLSX -------------------------------------------------------------------------------------------


def _sheet_title(title: str) -> str:
    cleaned = "".join(ch for ch in title if ch not in "[]:*?/\\").strip()
    return cleaned[:31] or "Export"


def render_xlsx(
    rows: Sequence[Sequence[Cell]],
    *,
    text_columns: Iterable[int] = (),
    title: str = "Export",
    progress: Callable[[int], None] | None = None,
) -> bytes:
    text_columns = frozenset(text_columns)
    workbook = Workbook()
    sheet = workbook.active
    sheet.title = _sheet_title(title)
    widths: dict[int, int] = {}
    bold = Font(bold=True)
    total = len(rows)
    for r, row in enumerate(rows, start=1):
        for c, raw in enumerate(row, start=1):
            value = _plain(raw)
            cell = sheet.cell(row=r, column=c)
            as_text = isinstance(raw, Text) or (r > 1 and (c - 1) in text_columns)
            if isinstance(value, str):
                cell.value = ILLEGAL_CHARACTERS_RE.sub("", value)
                cell.data_type = "s"  # never a formula
                if value.startswith(FORMULA_STARTS):
                    cell.quotePrefix = True  # and stays text when edited or saved again as CSV
                if as_text:
                    cell.number_format = "@"
            else:
                cell.value = value
            if r == 1:
                cell.font = bold
            shown = value.isoformat() if isinstance(value, date) else str(value)
            widths[c] = max(widths.get(c, 0), len(shown))
        if progress is not None and total and r % 200 == 0:
            progress(100 * r // total)
    for c, width in widths.items():
        sheet.column_dimensions[get_column_letter(c)].width = min(max(width + 2, MIN_WIDTH), MAX_WIDTH)
    if total > 1:
        sheet.freeze_panes = "A2"
    buffer = io.BytesIO()
    workbook.save(buffer)
    return buffer.getvalue()
