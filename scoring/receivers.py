"""Results listen to the domain event (``tournaments.signals.changed``): the confirmed tables it names in
``rewrite`` (a penalty that belongs to them changed) get their per-seat rows rewritten, in one transaction
of their own once the penalty is committed, before the standings' listener queues their recompute."""

from __future__ import annotations

from django.db import transaction

from scoring.services import summaries_refresh
from tournaments.models import Table
from tournaments.signals import Change


def rows_rewrite(sender, *, change: Change, **kwargs) -> None:
    if not change.rewrite:
        return
    with transaction.atomic():
        for table in Table.objects.filter(pk__in=change.rewrite).select_related("session__tournament"):
            summaries_refresh(table=table)
