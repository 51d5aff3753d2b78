"""manage.py export_tournament SLUG > FILE.json"""

import json

from django.core.management.base import BaseCommand, CommandError

from rankings.archive import archive_export
from tournaments.models import Tournament


class Command(BaseCommand):
    help = "Write a tournament's archive (ARCHIVE.md) as JSON on standard output."

    def add_arguments(self, parser):
        parser.add_argument("slug")

    def handle(self, *args, slug, **options):
        try:
            tournament = Tournament.objects.get(slug=slug)
        except Tournament.DoesNotExist:
            raise CommandError(f"no tournament with slug '{slug}'") from None
        document = archive_export(tournament=tournament)
        self.stdout.write(json.dumps(document, ensure_ascii=False, indent=1))
