"""Exports: a registry of exporters that yield rows and get CSV and XLSX from a shared base, the export jobs
(``models.ExportJob``, a kind of ``rankings.jobs`` background job) that run them in the background, and
their pages and API.

``exporter_get("standings")`` gives the class; ``cls(tournament=t).render("csv")`` the file.
See :mod:`rankings.exports.base` for the contract and :mod:`rankings.exports.jobs` for the
background jobs that run them.

Modules (rankings/exports/): registry, base (CSV/XLSX/JSON from rows), tournament and ranking exporters, jobs
(background export jobs), tasks, views (export pages), api, urls

- `rankings/exports/`: a registry of exporters that yield rows; a shared base writes CSV (UTF-8 with BOM)
  and XLSX (openpyxl; EMA numbers as text). Tournament exporters: `ema-results`, `standings`, `seating`,
  `penalties`, `chombos`, `archive` (JSON), `ema-pack` (ZIP: the EMA submission pack,
  docs/ema-submission.md); the global `ema-ranking`. `manage.py export` runs any of them.
"""

from rankings.exports import hands, ranking, tournament  # noqa: F401  (registers the exporters)
from rankings.exports.base import CSV, FORMATS, JSON, RANKING, TOURNAMENT, XLSX, Exporter, ExportFile, Text
from rankings.exports.registry import UnknownExporter, exporter_get, exporter_list, register

__all__ = [
    "CSV",
    "FORMATS",
    "JSON",
    "RANKING",
    "TOURNAMENT",
    "XLSX",
    "ExportFile",
    "Exporter",
    "Text",
    "UnknownExporter",
    "exporter_get",
    "exporter_list",
    "register",
]
