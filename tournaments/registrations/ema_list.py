"""The EMA player list, shared by every tournament: its import from a CSV file (EMA number, first name,
last name, country), all or nothing, every cell bounded."""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass, field

from django.db import transaction
from django.utils.translation import gettext as _

from tournaments.console.plan import fold
from tournaments.countries import is_country
from tournaments.lifecycle import Blocked
from tournaments.models import EMAPlayer
from tournaments.names import ascii_digits, unsafe_character

MAX_EMA_LIST_BYTES = 5_000_000
MAX_EMA_LIST_ROWS = 50_000
EMA_LIST_CELL_LIMIT = 100
MAX_EMA_LIST_FAULTS = 50  # the import stops reading once this many lines are refused


@dataclass
class EMAListReport:
    created: int = 0
    updated: int = 0
    kept: int = 0  # lines already on the list that the importer may not change
    faults: list[str] = field(default_factory=list)


EMA_HEADERS = {
    "ema_id": ("ema", "ema_id", "ema number", "ema_number", "id", "number"),
    "first_name": ("first_name", "first name", "firstname", "name"),
    "last_name": ("last_name", "last name", "lastname", "surname"),
    "country": ("country", "nationality"),
}
EMA_COLUMNS = ["ema_id", "first_name", "last_name", "country"]


def ema_list_import(*, data: bytes, may_change: bool = True) -> EMAListReport:
    """Import or update the EMA player list from CSV (EMA number, first name, last name, country), with or
    without a header line; all or nothing. The list is shared by every tournament: ``may_change`` False
    (a director, not a site admin) adds new EMA numbers and keeps the lines already known as they are."""
    rows = _rows(data)
    # blank lines before the first one that says something are not lines of the list
    start = next((i for i, row in enumerate(rows) if any(c.strip() for c in row)), len(rows))
    if len(rows) - start > MAX_EMA_LIST_ROWS + 1:
        raise Blocked(
            [_("The list has more than %(limit)s lines (the limit).") % {"limit": f"{MAX_EMA_LIST_ROWS:,}"}]
        )
    order, start = _columns(rows, start)
    report = EMAListReport()
    parsed = _parse_lines(rows, start, order, report)
    if report.faults:
        raise Blocked(report.faults)
    _store(parsed, may_change, report)
    return report


def _rows(data: bytes) -> list[list[str]]:
    """The file's rows as CSV (comma or semicolon, whichever the start of the file uses more)."""
    if len(data) > MAX_EMA_LIST_BYTES:
        raise Blocked([_("The file is larger than 5 MB.")])
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise Blocked([_("The file is not UTF-8 text.")]) from None
    dialect = ";" if text[:2000].count(";") > text[:2000].count(",") else ","
    try:
        return list(csv.reader(io.StringIO(text), delimiter=dialect))
    except csv.Error as exc:
        raise Blocked([_("The file cannot be read as CSV: %(error)s.") % {"error": exc}]) from None


def _columns(rows: list[list[str]], start: int) -> tuple[list[str], int]:
    """The column of each cell and the first data line: the header's names, or the default order when the
    first line is data (it starts with digits, of any script)."""
    if start >= len(rows) or rows[start][0].strip().isdigit():
        return list(EMA_COLUMNS), start
    header = [fold(c).replace("-", "_") for c in rows[start]]
    order = [next((k for k, names in EMA_HEADERS.items() if cell in names), "") for cell in header]
    if "ema_id" not in order or "first_name" not in order:
        raise Blocked([_("The header needs the columns ema_id and first_name.")])
    return order, start + 1


def _parse_lines(
    rows: list[list[str]], start: int, order: list[str], report: EMAListReport
) -> dict[str, dict[str, str]]:
    """Every data line by EMA number; a refused line adds its fault to ``report`` (reading stops after
    :data:`MAX_EMA_LIST_FAULTS`)."""
    parsed: dict[str, dict[str, str]] = {}
    for line, row in enumerate(rows[start:], start=start + 1):
        if not any(c.strip() for c in row):
            continue
        values = {name: (row[i].strip() if i < len(row) else "") for i, name in enumerate(order) if name}
        fault = _cell_fault(line, values)
        if fault:
            report.faults.append(fault)
            continue
        ema_id, fault = _ema_number(line, values.get("ema_id", ""))
        country = values.get("country", "").upper()
        if not fault and country and not is_country(country):
            fault = _("Line %(line)s: %(v)s is not a country code.") % {"line": line, "v": country[:20]}
        if not fault and not values.get("first_name"):
            fault = _("Line %(line)s: the first name is missing.") % {"line": line}
        if fault:
            report.faults.append(fault)
            continue
        parsed[ema_id] = {
            "first_name": values["first_name"][:100],
            "last_name": values.get("last_name", "")[:100],
            "country": country,
        }
        if len(report.faults) > MAX_EMA_LIST_FAULTS:
            break
    return parsed


def _cell_fault(line: int, values: dict[str, str]) -> str:
    """A cell with a control or text-direction character, or longer than the limit ("" when none)."""
    unsafe = next(
        ((name, found) for name, v in values.items() if (found := unsafe_character(v)) is not None), None
    )
    if unsafe is not None:
        name, (position, character) = unsafe
        return _(
            "Line %(line)s, %(column)s: %(name)s at character %(position)s; control and "
            "text-direction characters are not allowed."
        ) % {"line": line, "column": name, "name": character, "position": position}
    long = next((name for name, v in values.items() if len(v) > EMA_LIST_CELL_LIMIT), None)
    if long is not None:
        return _("Line %(line)s, %(column)s: longer than %(limit)s characters.") % {
            "line": line,
            "column": long,
            "limit": EMA_LIST_CELL_LIMIT,
        }
    return ""


def _ema_number(line: int, ema_id: str) -> tuple[str, str]:
    """The 8-digit EMA number (a shorter one padded with zeros) and the fault ("" when it is one)."""
    if 0 < len(ema_id) < 8 and ascii_digits(ema_id, len(ema_id)):
        ema_id = ema_id.zfill(8)
    if not ascii_digits(ema_id, 8):
        return ema_id, _("Line %(line)s: %(v)s is not an 8-digit EMA number.") % {
            "line": line,
            "v": ema_id[:20],
        }
    return ema_id, ""


def _store(parsed: dict[str, dict[str, str]], may_change: bool, report: EMAListReport) -> None:
    with transaction.atomic():
        known = set(EMAPlayer.objects.filter(ema_id__in=parsed).values_list("ema_id", flat=True))
        for ema_id, values in parsed.items():
            if ema_id in known and not may_change:
                report.kept += 1
                continue
            search = fold(f"{ema_id} {values['first_name']} {values['last_name']}")
            EMAPlayer.objects.update_or_create(ema_id=ema_id, defaults={**values, "search_text": search})
            if ema_id in known:
                report.updated += 1
            else:
                report.created += 1
