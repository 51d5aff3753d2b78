"""The standings listen to ``tournaments.signals.results_changed``: every change queues a recompute."""

from django.dispatch import receiver

from rankings.standings.services import standings_touch
from tournaments.signals import results_changed


@receiver(results_changed, dispatch_uid="standings-touch")
def _touch(sender, *, tournament_id: int, **kwargs) -> None:
    standings_touch(tournament_id=tournament_id)
