"""Backups listen to the domain event (``tournaments.signals.changed``): beat backs up running tournaments
every ``BACKUP_SECONDS``, which leaves out the last change of a tournament, the one that finishes it. So a
tournament that becomes finished gets its backup once the transaction commits (a failure is logged, never
raised into the write). A deleted tournament takes its backups with it (set aside for the site's
administrators)."""

from __future__ import annotations

import logging

from django.db import transaction

from rankings.backups.services import backup_write, backups_set_aside
from tournaments.models import Tournament
from tournaments.signals import STATUS, Change

log = logging.getLogger(__name__)


def backup_when_finished(sender, *, change: Change, **kwargs) -> None:
    if STATUS not in change.what or change.tournament_id is None or change.sessions:
        return
    tournament_id = change.tournament_id

    def write() -> None:
        tournament = Tournament.objects.filter(pk=tournament_id, status=Tournament.Status.FINISHED).first()
        if tournament is None:
            return
        try:
            backup_write(tournament=tournament)
        except Exception:
            log.exception("backup of finished tournament %s failed", tournament.slug)

    transaction.on_commit(write)


def tournament_deleted(sender, instance: Tournament, **kwargs) -> None:
    backups_set_aside(tournament_id=instance.pk)
