from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from tournaments.models import Tournament
from tournaments.player_import import PlayerImportError, players_import_csv


class Command(BaseCommand):
    help = "Register players in a tournament from a CSV file (all or nothing)."

    def add_arguments(self, parser):
        parser.add_argument("slug")
        parser.add_argument("file", type=Path)
        parser.add_argument("--substitutes", action="store_true", help="register them as substitutes")

    def handle(self, *args, slug, file, substitutes, **options):
        try:
            tournament = Tournament.objects.get(slug=slug)
        except Tournament.DoesNotExist:
            raise CommandError(f"no tournament with slug '{slug}'") from None
        try:
            data = file.read_bytes()
        except OSError as exc:
            raise CommandError(f"cannot read {file}: {exc.strerror}") from exc
        try:
            report = players_import_csv(tournament=tournament, data=data, substitutes=substitutes)
        except PlayerImportError as exc:
            raise CommandError(
                "the file was refused, nothing was imported:\n" + "\n".join(exc.faults)
            ) from exc
        self.stdout.write(self.style.SUCCESS(report.summary()))
