"""Backups: the archive of every running tournament, written to a folder at intervals, kept, restorable."""
