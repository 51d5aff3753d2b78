"""Recompute a tournament's standings now, in this process (for example while the broker is down)."""

from django.core.management.base import BaseCommand, CommandError

from rankings.standings.services import standings_refresh
from tournaments.models import Tournament


class Command(BaseCommand):
    help = "Recompute the standings of a tournament now, without the background worker."

    def add_arguments(self, parser):
        parser.add_argument("slug", help="the tournament's slug")

    def handle(self, *args, slug: str, **options):
        tournament = Tournament.objects.filter(slug=slug).first()
        if tournament is None:
            raise CommandError(f"no tournament with the slug '{slug}'")
        state = standings_refresh(tournament_id=tournament.pk)
        rows = len((state.document or {}).get("standings", []))
        self.stdout.write(
            f"Standings of {tournament.slug} recomputed: version {state.computed_version}, {rows} players ranked."
        )
