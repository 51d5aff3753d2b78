"""Backups: the archive of every running tournament, written to a folder at intervals (``tasks``, on beat;
``receivers``, when a tournament finishes), kept and restorable (``services``, pages in ``views``).

- `rankings/backups/`: beat (or `config/scheduler.py`) writes every running tournament's archive to `BACKUP_ROOT/tournament.<id>/`
  every 15 minutes (the id, never the slug, which can change or be taken by another tournament); the
  director's Backups page downloads and restores them (in place: under the current slug, the tables keep
  their private keys, the backups follow to the new tournament). `receivers.py`: a deleted tournament's
  folder moves to `BACKUP_ROOT/deleted/` when the deletion commits (for the site's administrators only).
"""
