"""Domain signals: how a lower layer says that something changed, without knowing who listens.

``results_changed`` is the one way a change reaches the standings. Services send it inside their
transaction when anything a standings computation reads has changed: a table confirmed or reopened, a
penalty recorded, changed or cancelled, a registration added, renamed or withdrawn, the ranking settings.

- ``tournament_id``: the tournament whose standings must be computed again;
- ``tables``: ids of confirmed tables whose per-seat rows must be rewritten first (a penalty that
  touches them changed); empty when the rows are already right.

Receivers: ``scoring.receivers`` rewrites the rows of the named tables; ``rankings.standings.receivers``
queues the recompute once the transaction commits.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.dispatch import Signal

results_changed = Signal()


def results_changed_send(*, tournament_id: int, tables: Iterable[int] = ()) -> None:
    results_changed.send(sender=None, tournament_id=tournament_id, tables=tuple(tables))
