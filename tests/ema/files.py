"""Results files of the EMA tests, written as the tools write them."""

from __future__ import annotations

import io

from openpyxl import Workbook

MTS_HEADER = [
    "Place",
    "EMA number",
    "Last name",
    "First name",
    "Country",
    "EMA member",
    "Table points",
    "Score",
]
PRODUCT_HEADER = [
    "Place",
    "First name",
    "Last name",
    "EMA number",
    "Table points",
    "Score",
    "EMA member",
    "Country",
]


def csv_bytes(rows, *, header=MTS_HEADER, delimiter=",", bom=True) -> bytes:
    lines = [delimiter.join(header)] + [delimiter.join(str(c) for c in row) for row in rows]
    text = "\r\n".join(lines) + "\r\n"
    return ("\ufeff" + text if bom else text).encode()


def xlsx_bytes(rows, *, header=PRODUCT_HEADER) -> bytes:
    workbook = Workbook()
    sheet = workbook.active
    sheet.append(header)
    for row in rows:
        sheet.append(list(row))
    out = io.BytesIO()
    workbook.save(out)
    return out.getvalue()


def mts_rows(players):
    """``players``: (place, ema, last, first, country, member, tp, score)."""
    return [list(p) for p in players]
