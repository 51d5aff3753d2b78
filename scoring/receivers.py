"""Results listen to ``tournaments.signals.results_changed``: the confirmed tables it names (touched by a
penalty) get their per-seat rows rewritten before the standings read them."""

from django.dispatch import receiver

from scoring.services import summaries_refresh
from tournaments.models import Table
from tournaments.signals import results_changed


@receiver(results_changed, dispatch_uid="scoring-summaries-refresh")
def _refresh(sender, *, tables=(), **kwargs) -> None:
    for table in Table.objects.filter(pk__in=tables).select_related("session__tournament"):
        summaries_refresh(table=table)
