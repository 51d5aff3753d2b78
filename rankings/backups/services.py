"""Writing and restoring backups: archives (ARCHIVE.md) of running tournaments in ``BACKUP_ROOT``.

Celery beat (with no broker, the server's own scheduler, ``config/scheduler.py``) runs
:func:`backups_write_running` every ``BACKUP_SECONDS`` (15 minutes): each running tournament's archive
goes to ``BACKUP_ROOT/tournament.<id>/<slug>-<UTC time>.json``, written to a temporary file and renamed,
so a backup is never half written, and only once it has been imported in a transaction rolled back, so a
backup that would not restore is refused with its reason when it is made (:func:`backup_check`); the newest ``BACKUP_KEEP`` of each tournament are kept. The folder is
the tournament's id, never its slug: a slug can change or be taken by another tournament later, and the
backups stay with the tournament they were taken of.

A director restores one as a new tournament (a new slug) or in place (the tournament is replaced: the
same all-or-nothing import as an uploaded archive, under the tournament's current slug; the tables keep
their private keys, so printed QR cards keep working, and the backups follow the tournament).

When a tournament is deleted its folder is moved to ``BACKUP_ROOT/deleted/tournament.<id>-<UTC time>/``
once the deletion commits: kept for the site's administrators (on the server's disk), listed by no page.
"""

from __future__ import annotations

import json
import logging
import os
import re
import shutil
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from django.conf import settings
from django.db import transaction
from django.utils.translation import gettext as _

from rankings.archive import archive_export, archive_import
from scoring.rules.base import RuleError
from tournaments.models import Table, Tournament

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


def _folder(tournament_id: int) -> Path:
    """The tournament's folder, named by its id ("." is never part of a slug, so no folder of a slug
    written by earlier versions can be taken for it)."""
    return backup_root() / f"tournament.{int(tournament_id)}"


def backups_list(*, tournament: Tournament) -> list[Backup]:
    """The backups of ``tournament`` (taken under any of its slugs), newest first."""
    folder = _folder(tournament.pk)
    found = []
    if folder.is_dir():
        for path in folder.iterdir():
            match = NAME.match(path.name)
            if match and path.is_file():
                taken = datetime.strptime(match["stamp"], "%Y%m%dT%H%M%SZ").replace(tzinfo=UTC)
                found.append(Backup(path.name, path, path.stat().st_size, taken))
    return sorted(found, key=lambda b: b.name, reverse=True)


def backup_get(*, tournament: Tournament, name: str) -> Backup:
    """One backup of ``tournament`` by its file name (only names of its own listing: no other path)."""
    for backup in backups_list(tournament=tournament):
        if backup.name == name:
            return backup
    raise RuleError(_("there is no backup %(name)s of this tournament") % {"name": repr(name[:80])}, "name")


class _DryRun(Exception):
    pass


def backup_check(*, document: dict) -> None:
    """Import ``document`` as a restore would, then roll it back: a backup that would not restore is
    refused when it is made (``RuleError`` with the path and the reason), never found out at a restore."""
    trial = json.loads(json.dumps(document))
    trial["tournament"]["slug"] = f"backup-check-{datetime.now(UTC).strftime('%Y%m%d%H%M%S%f')}"
    try:
        with transaction.atomic():
            archive_import(document=trial)
            raise _DryRun
    except _DryRun:
        pass


def backup_write(*, tournament: Tournament, now: datetime | None = None) -> Backup:
    """Write the archive of ``tournament`` now and keep only the newest ``BACKUP_KEEP``. The archive is
    imported first in a transaction rolled back (:func:`backup_check`): a backup that would not restore is
    refused with its reason (``RuleError``) and no file is written."""
    now = now or datetime.now(UTC)
    document = archive_export(tournament=tournament)
    backup_check(document=document)
    folder = _folder(tournament.pk)
    folder.mkdir(parents=True, exist_ok=True)
    name = f"{tournament.slug}-{now.strftime('%Y%m%dT%H%M%SZ')}.json"
    target = folder / name
    partial = folder / f".{name}.partial"
    with partial.open("w", encoding="utf-8") as out:
        json.dump(document, out, ensure_ascii=False, indent=1)
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
    document = json.loads(backup.path.read_text(encoding="utf-8"))
    head = document["tournament"]
    if in_place:
        return _restore_in_place(tournament=tournament, document=document, user=user)
    stamp = NAME.match(name)["stamp"].lower()
    slug = f"{tournament.slug}-{stamp}"[:80]
    if Tournament.objects.filter(slug=slug).exists():
        raise RuleError(
            _("this backup is already restored as the tournament %(slug)s") % {"slug": slug}, "name"
        )
    head["slug"] = slug
    head["name"] = f"{head['name']} ({backup.taken_at:%Y-%m-%d %H:%M} UTC)"[:200]
    return archive_import(document=document, user=user)


def _restore_in_place(*, tournament: Tournament, document: dict, user) -> Tournament:
    """Replace ``tournament`` by the backup: under its current slug (whatever slug the backup was taken
    under), with its tables' private keys, and with its backups moved to the new tournament's folder."""
    document["tournament"]["slug"] = tournament.slug
    keys = {
        (number, table): key
        for number, table, key in Table.objects.filter(session__tournament=tournament).values_list(
            "session__number", "number", "private_key"
        )
    }
    old_id = tournament.pk
    with transaction.atomic():
        restored = archive_import(document=document, replace=True, user=user)
        for table in Table.objects.filter(session__tournament=restored).select_related("session"):
            key = keys.get((table.session.number, table.number))
            if key is not None and key != table.private_key:
                Table.objects.filter(pk=table.pk).update(private_key=key)
        # after the deletion's own callback (registered during the import), which set the folder aside
        transaction.on_commit(lambda: _folder_move(old_id, restored.pk))
    return restored


def _deleted_folder(tournament_id: int) -> Path:
    return backup_root() / "deleted" / f"tournament.{int(tournament_id)}"


def _folder_move(old_id: int, new_id: int) -> None:
    """Move the backups set aside by the replaced tournament's deletion to the new tournament."""
    source = _deleted_folder(old_id)
    if not source.is_dir():
        source = _folder(old_id)
    if not source.is_dir():
        return
    target = _folder(new_id)
    target.mkdir(parents=True, exist_ok=True)
    for path in source.iterdir():
        path.replace(target / path.name)
    shutil.rmtree(source, ignore_errors=True)


def backups_set_aside(*, tournament_id: int) -> None:
    """A deleted tournament's backups leave the pages: moved under ``deleted/`` when the deletion
    commits, for the site's administrators only."""

    def move() -> None:
        folder = _folder(tournament_id)
        if not folder.is_dir():
            return
        target = _deleted_folder(tournament_id)
        if target.exists():  # an earlier deletion of the same id (a reused SQLite id): keep both
            target.rename(target.with_name(f"{target.name}-{datetime.now(UTC):%Y%m%dT%H%M%S%fZ}"))
        target.parent.mkdir(parents=True, exist_ok=True)
        folder.rename(target)

    transaction.on_commit(move)
