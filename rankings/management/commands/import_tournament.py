"""manage.py import_tournament FILE.json [--replace] [--director USERNAME]"""

import sys
from pathlib import Path

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from rankings.archive import archive_import
from scoring.rules.base import RuleError


class Command(BaseCommand):
    help = (
        "Create a tournament from an archive file (ARCHIVE.md). All or nothing: a refused file names the "
        "JSON path of its first fault. An existing slug is refused unless --replace."
    )

    def add_arguments(self, parser):
        parser.add_argument("file", help="the archive (JSON); - reads standard input")
        parser.add_argument(
            "--replace", action="store_true", help="replace the tournament with the same slug, if any"
        )
        parser.add_argument("--director", metavar="USERNAME", help="give this user the director role")

    def handle(self, *args, file, replace, director, **options):
        user = None
        if director:
            try:
                user = get_user_model().objects.get(username=director)
            except get_user_model().DoesNotExist:
                raise CommandError(f"no user named '{director}'") from None
        if file == "-":
            document = sys.stdin.buffer
        else:
            document = Path(file)
            if not document.is_file():
                raise CommandError(f"cannot read {file}: no such file")
        try:
            tournament = archive_import(document=document, replace=replace, user=user)
        except RuleError as exc:
            raise CommandError(f"the archive was refused, nothing was imported: {exc}") from None
        except OSError as exc:
            raise CommandError(f"cannot read {file}: {exc.strerror or exc}") from None
        players = tournament.registrations.count()
        sessions = tournament.sessions.count()
        self.stdout.write(
            self.style.SUCCESS(
                f"Imported {tournament.slug}: {players} players, {sessions} sessions ({tournament.status})."
            )
        )
