"""Exporters: a registry of classes that yield rows and get CSV and XLSX from a shared base.

``exporter_get("standings")`` gives the class; ``cls(tournament=t).render("csv")`` the file.
See :mod:`rankings.exporters.base` for the contract and :mod:`rankings.exporters.jobs` for the
background jobs that run them.
"""

from rankings.exporters import hands, ranking, tournament  # noqa: F401  (registers the exporters)
from rankings.exporters.base import CSV, FORMATS, JSON, RANKING, TOURNAMENT, XLSX, Exporter, ExportFile, Text
from rankings.exporters.registry import UnknownExporter, exporter_get, exporter_list, register

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
