"""Backups: the archive of every running tournament, written to a folder at intervals (``tasks``, on beat;
``receivers``, when a tournament finishes), kept and restorable (``services``, pages in ``views``)."""
