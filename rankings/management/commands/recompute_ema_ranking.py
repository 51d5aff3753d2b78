"""Store the results of every finished tournament again and recompute the stored EMA ranking.

    manage.py recompute_ema_ranking [--on YYYY-MM-DD]

The ranking is otherwise recomputed by itself when a tournament is finished or changed, and the
ranking page brings it to today's date; this command repairs or backdates it by hand.
"""

from __future__ import annotations

from datetime import date

from django.core.management.base import BaseCommand

from rankings.ema.models import EmaRankingEntry, EmaTournament
from rankings.ema.selectors import RANKED_FAMILIES
from rankings.ema.services import ema_ranking_recompute


class Command(BaseCommand):
    help = "Recompute the EMA ranking (MCR and riichi) from every finished tournament."

    def add_arguments(self, parser):
        parser.add_argument(
            "--on", type=date.fromisoformat, help="ranking date (YYYY-MM-DD); today if absent"
        )

    def handle(self, *args, on, **options):
        state = ema_ranking_recompute(on=on, refresh_all=True)
        tournaments = EmaTournament.objects.filter(counted=True).count()
        counts = {f: EmaRankingEntry.objects.filter(family=f).count() for f in RANKED_FAMILIES}
        for failed in EmaTournament.objects.exclude(error="").select_related("tournament"):
            self.stderr.write(f"{failed.tournament.slug}: results not stored: {failed.error}")
        self.stdout.write(
            self.style.SUCCESS(
                f"EMA ranking as of {state.computed_on.isoformat()} from {tournaments} finished tournaments: "
                + ", ".join(f"{f.upper()} {n} players" for f, n in counts.items())
            )
        )
