"""Results listen to the domain event (``tournaments.signals.changing``, in the transaction of the change):
the confirmed tables it names in ``rewrite`` (a penalty that belongs to them changed) get their per-seat
rows rewritten with the penalty, so the standings never read a penalty without its rows."""

from __future__ import annotations

from django.db import transaction

from scoring.services import summaries_refresh
from tournaments.models import Table
from tournaments.signals import Change


def rows_rewrite(sender, *, change: Change, **kwargs) -> None:
    if not change.rewrite:
        return
    with transaction.atomic(savepoint=False):  # the change's own transaction (one of its own if none)
        for table in Table.objects.filter(pk__in=change.rewrite).select_related("session__tournament"):
            summaries_refresh(table=table)
