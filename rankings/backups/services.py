"""Writing and restoring backups: archives (ARCHIVE.md) of running tournaments in ``BACKUP_ROOT``.

Celery beat (with no broker, the server's own scheduler, ``config/scheduler.py``) runs
:func:`backups_write_running` every ``BACKUP_SECONDS`` (15 minutes): each running
tournament's archive goes to ``BACKUP_ROOT/<slug>/<slug>-<UTC time>.json``, written to a temporary file
and renamed, so a backup is never half written; the newest ``BACKUP_KEEP`` of each tournament are kept.
A director restores one as a new tournament (a new slug) or in place (the tournament is replaced: the
same all-or-nothing import as an uploaded archive).
"""

from __future__ import annotations

import json
import logging
import os
import re
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from django.conf import settings

from rankings.archive import archive_export, archive_import
from scoring.rules.base import RuleError
from tournaments.models import Tournament

log = logging.getLogger(__name__)
NAME = re.compile(r"^(?P<slug>[-a-zA-Z0-9_]+)-(?P<stamp>\d{8}T\d{6}Z)\.json$")


@dataclass(frozen=True)
class Backup:
    name: str
    path: Path
    size: int
    taken_at: datetime


def backup_root() -> Path:
    return Path(settings.BACKUP_ROOT)


def _folder(slug: str) -> Path:
    return backup_root() / slug


def backups_list(*, tournament: Tournament) -> list[Backup]:
    """The backups of ``tournament``, newest first."""
    folder = _folder(tournament.slug)
    found = []
    if folder.is_dir():
        for path in folder.iterdir():
            match = NAME.match(path.name)
            if match and match["slug"] == tournament.slug:
                taken = datetime.strptime(match["stamp"], "%Y%m%dT%H%M%SZ").replace(tzinfo=UTC)
                found.append(Backup(path.name, path, path.stat().st_size, taken))
    return sorted(found, key=lambda b: b.name, reverse=True)


def backup_get(*, tournament: Tournament, name: str) -> Backup:
    """One backup of ``tournament`` by its file name (only names of its own listing: no other path)."""
    for backup in backups_list(tournament=tournament):
        if backup.name == name:
            return backup
    raise RuleError(f"there is no backup {name!r} of this tournament", "name")


def backup_write(*, tournament: Tournament, now: datetime | None = None) -> Backup:
    """Write the archive of ``tournament`` now and keep only the newest ``BACKUP_KEEP``."""
    now = now or datetime.now(UTC)
    folder = _folder(tournament.slug)
    folder.mkdir(parents=True, exist_ok=True)
    name = f"{tournament.slug}-{now.strftime('%Y%m%dT%H%M%SZ')}.json"
    target = folder / name
    partial = folder / f".{name}.partial"
    with partial.open("w", encoding="utf-8") as out:
        json.dump(archive_export(tournament=tournament), out, ensure_ascii=False, indent=1)
        out.flush()
        os.fsync(out.fileno())
    partial.replace(target)
    for old in backups_list(tournament=tournament)[settings.BACKUP_KEEP :]:
        old.path.unlink(missing_ok=True)
    return backup_get(tournament=tournament, name=name)


def backups_write_running() -> list[str]:
    """Back up every running tournament; the names written. One failure does not stop the others."""
    written = []
    for tournament in Tournament.objects.filter(status=Tournament.Status.RUNNING).order_by("pk"):
        try:
            written.append(backup_write(tournament=tournament).name)
        except Exception:
            log.exception("backup of %s failed", tournament.slug)
    return written


def backup_restore(*, tournament: Tournament, name: str, in_place: bool, user) -> Tournament:
    """Restore a backup of ``tournament``: in place (the tournament is replaced, all or nothing) or as a
    new tournament whose slug and name say which backup it is."""
    backup = backup_get(tournament=tournament, name=name)
    if in_place:
        return archive_import(document=backup.path, replace=True, user=user)
    document = json.loads(backup.path.read_text(encoding="utf-8"))
    stamp = NAME.match(name)["stamp"].lower()
    slug = f"{tournament.slug}-{stamp}"[:80]
    if Tournament.objects.filter(slug=slug).exists():
        raise RuleError(f"this backup is already restored as the tournament {slug}", "name")
    head = document["tournament"]
    head["slug"] = slug
    head["name"] = f"{head['name']} ({backup.taken_at:%Y-%m-%d %H:%M} UTC)"[:200]
    return archive_import(document=document, user=user)
