"""The standings snapshot of a tournament: computed in the background, never replacing a newer one with an
older one."""

from __future__ import annotations

from django.db import models

from tournaments.models import Tournament


class StandingsState(models.Model):
    """The tournament's standings and the input version they were computed from.

    ``input_version`` grows with every confirmed or changed result and every penalty change;
    ``computed_version`` is the input version of the stored ``document``. A computation that
    finishes late, for an older input, never replaces a newer document.
    """

    tournament = models.OneToOneField(Tournament, on_delete=models.CASCADE, related_name="standings_state")
    input_version = models.PositiveBigIntegerField(default=1)
    computed_version = models.PositiveBigIntegerField(default=0)
    document = models.JSONField(null=True, blank=True)  # the standings document of ARCHIVE.md
    breakdown = models.JSONField(null=True, blank=True)  # per player: every session's row
    computed_at = models.DateTimeField(null=True, blank=True)
    queued_at = models.DateTimeField(null=True, blank=True)
    queue_error = models.TextField(blank=True)
    queue_failed_at = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return f"standings of {self.tournament} (v{self.computed_version}/{self.input_version})"

    @property
    def is_fresh(self) -> bool:
        return self.document is not None and self.computed_version >= self.input_version

    @property
    def delayed(self) -> bool:
        return not self.is_fresh and self.queue_failed_at is not None
