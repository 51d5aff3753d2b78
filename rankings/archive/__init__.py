"""The tournament archive (ARCHIVE.md): one JSON document per tournament, imported and exported.

``archive_import`` validates a document with the rule engines and the services of live entry and writes
it in one transaction; ``archive_export`` writes a tournament back in the canonical form, so that
``archive_export(tournament=archive_import(document=d))`` equals ``d`` for a canonical ``d``.
Large archives are imported in the background (``models.ArchiveImportJob`` and ``jobs``, a kind of
``rankings.jobs`` background job). See README.md in this folder for the canonical form and the variants the
importer accepts.

Modules (rankings/archive/): importer, exporter, shape, source, access (the archive format), views, api, urls

- `rankings/archive/`: the archive format of ARCHIVE.md. Import streams the document (ijson), validates it
  with the same engines and services as live entry, and writes it in one transaction (the first fault's
  JSON path is reported; nothing is written). Export writes the canonical form; export(import(doc)) == doc.
  See `rankings/archive/README.md`.

- An archive larger than `ARCHIVE_INLINE_BYTES` is stored and imported by a task
  (`rankings/archive/jobs.py`, `ArchiveImportJob`): the request answers at once (API 202 with the job's
  URL; the page follows the job's progress), so no request holds a worker for the import.
"""

from __future__ import annotations

from typing import Any

from scoring.rules.base import RuleError
from tournaments.models import Tournament

from .exporter import archive_export
from .importer import ArchiveImport, tournament_delete
from .shape import FORMAT, VERSION
from .source import open_source

__all__ = [
    "FORMAT",
    "VERSION",
    "RuleError",
    "archive_export",
    "archive_import",
    "open_source",
    "tournament_delete",
]


def archive_import(*, document: Any, replace: bool = False, user=None) -> Tournament:
    """Create the tournament of an archive document and return it.

    ``document``: the parsed document (a mapping), its JSON text (str or bytes), a path, or a binary file
    object (read as a stream, one session at a time). An existing slug is refused unless ``replace``, in
    which case that tournament is deleted first (its staff roles are kept). ``user`` becomes a director
    of the tournament and the author of its records.

    Raises :class:`RuleError` whose ``path`` is the JSON path of the first fault; nothing is written then.
    """
    return ArchiveImport(open_source(document), replace=replace, user=user).run()
