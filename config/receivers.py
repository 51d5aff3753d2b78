"""Every listener of the domain event, connected in one place.

Write services send the domain event (``tournaments.signals``) once per write (what changed: results,
entry, roster, schedule, status, clock, settings; where: the tournament, sessions, tables, players).

In the write's transaction (``changing``, once per change; a failure fails the write), the derived data:

1. ``scoring.receivers.rows_rewrite``: the per-seat rows of the confirmed tables the change names;
2. ``rankings.standings.receivers.standings_follow``: the standings' input version;
3. ``rankings.ema.receivers.ranking_follows``: the EMA ranking's input versions (its recompute is queued
   by its own commit callback);
4. ``tournaments.clock.receivers.clocks_follow_status``: clocks start and end with the sessions;
5. ``tournaments.clock.receivers.pages_follow``: the public pages' stamp (again after the commit).

After the commit (``changed``, one merged event per tournament per transaction), the notifications, each
run whatever the others do (a failure is logged with the event; the standings sweep catches up):

1. ``rankings.standings.receivers.standings_queue``: the standings' recompute;
2. ``tournaments.clock.receivers.clock_document_follow``: the clock document;
3. ``rankings.backups.receivers.backup_when_finished``: a finished tournament's last backup;
4. ``notifications.receivers.push_follow``: the Web Push messages the change tells (queued).

Besides the event, two model receivers tidy files: an export job's file goes with its row, and a deleted
tournament's backups are set aside for the site's administrators.

The lifecycle's guards are added here too: what keeps a session from a step that only its results and
penalties know (``tournaments.sessions.guards.session_guard``), asked by ``tournaments.lifecycle``.

This module imports the models: it is imported once the apps are ready (``TournamentsConfig.ready``).
"""

from __future__ import annotations

from django.db.models.signals import post_delete

from notifications.receivers import push_follow
from rankings.backups.receivers import backup_when_finished, tournament_deleted
from rankings.ema.receivers import ranking_follows
from rankings.exports.receivers import export_file_delete
from rankings.models import ExportJob
from rankings.standings.receivers import standings_follow, standings_queue
from scoring.receivers import rows_rewrite
from tournaments import lifecycle
from tournaments.clock.receivers import clock_document_follow, clocks_follow_status, pages_follow
from tournaments.models import Tournament
from tournaments.sessions.guards import session_guard
from tournaments.signals import changed, changing


def connect() -> None:
    lifecycle.session_guard_add(session_guard)
    for listener in (rows_rewrite, standings_follow, ranking_follows, clocks_follow_status, pages_follow):
        changing.connect(listener, dispatch_uid=f"{listener.__module__}.{listener.__name__}")
    for listener in (standings_queue, clock_document_follow, backup_when_finished, push_follow):
        changed.connect(listener, dispatch_uid=f"{listener.__module__}.{listener.__name__}")
    post_delete.connect(export_file_delete, sender=ExportJob, dispatch_uid="export_job_deleted")
    post_delete.connect(tournament_deleted, sender=Tournament, dispatch_uid="backups_tournament_deleted")
