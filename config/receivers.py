"""Every listener of the domain event, connected in one place.

Write services send ``tournaments.signals.changed`` once per write, after its commit (what changed: results,
entry, roster, schedule, status, clock, settings; where: the tournament, sessions, tables, players). Its
listeners, in the order they run (each after the commit: what they queue "on commit" is queued at once):

1. ``scoring.receivers.rows_rewrite``: the per-seat rows of the confirmed tables the change names;
2. ``rankings.standings.receivers.standings_follow``: the standings' input version, a recompute on commit;
3. ``rankings.ema.receivers.ranking_follows``: the EMA ranking of counted tournaments, on commit;
4. ``tournaments.clock.receivers.pages_follow``: the public pages' stamp, the clock document on commit;
5. ``tournaments.clock.receivers.clocks_follow_status``: clocks start and end with the sessions;
6. ``rankings.backups.receivers.backup_when_finished``: a finished tournament's last backup, on commit.

Besides the event, two model receivers tidy files: an export job's file goes with its row, and a deleted
tournament's backups are set aside for the site's administrators.
"""

from __future__ import annotations

from django.db.models.signals import post_delete

from tournaments.signals import changed


def connect() -> None:
    from rankings.backups.receivers import backup_when_finished, tournament_deleted
    from rankings.ema.receivers import ranking_follows
    from rankings.exports.receivers import export_file_delete
    from rankings.models import ExportJob
    from rankings.standings.receivers import standings_follow
    from scoring.receivers import rows_rewrite
    from tournaments.clock.receivers import clocks_follow_status, pages_follow
    from tournaments.models import Tournament

    for listener in (
        rows_rewrite,
        standings_follow,
        ranking_follows,
        pages_follow,
        clocks_follow_status,
        backup_when_finished,
    ):
        changed.connect(listener, dispatch_uid=f"{listener.__module__}.{listener.__name__}")
    post_delete.connect(export_file_delete, sender=ExportJob, dispatch_uid="export_job_deleted")
    post_delete.connect(tournament_deleted, sender=Tournament, dispatch_uid="backups_tournament_deleted")
