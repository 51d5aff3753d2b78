"""Results listen to the domain event (``tournaments.signals.changed``): the confirmed tables it names in
``rewrite`` (a penalty that belongs to them changed) get their per-seat rows rewritten, in the same
transaction, before the standings read them."""

from __future__ import annotations

from scoring.services import summaries_refresh
from tournaments.models import Table
from tournaments.signals import Change


def rows_rewrite(sender, *, change: Change, **kwargs) -> None:
    if not change.rewrite:
        return
    for table in Table.objects.filter(pk__in=change.rewrite).select_related("session__tournament"):
        summaries_refresh(table=table)
