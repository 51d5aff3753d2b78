"""The abstract background job and the player import jobs.

Every kind of background job (exports, archive imports, player imports) stores the same life on its row:
queued, running (under its worker's lease, ``rankings.jobs.leases``), then done or failed, with its progress
and its times. :class:`BackgroundJob` holds those fields; a kind adds what its work reads and writes.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from tournaments.models import Tournament


class ImportStatus(models.TextChoices):
    """The states of a job that imports: it is done when imported, failed when refused."""

    QUEUED = "queued", _("Queued")
    RUNNING = "running", _("Running")
    DONE = "done", _("Imported")
    FAILED = "failed", _("Refused")


def status_field(choices: type[models.TextChoices]) -> models.CharField:
    """A job's status: one of ``choices`` (queued, running, done, failed, labelled as the kind says)."""
    return models.CharField(_("status"), max_length=10, choices=choices.choices, default=choices.QUEUED)


class BackgroundJob(models.Model):
    """A job run by a worker: queued, then running, then done or failed (``rankings.jobs.runner``).

    A kind sets ``Status`` (its labels) and ``status = status_field(Status)``; a kind with no ``error``
    (it records its faults otherwise) sets ``error = None``.
    """

    Status = ImportStatus

    status = status_field(ImportStatus)
    progress = models.PositiveSmallIntegerField(_("progress"), default=0)
    error = models.TextField(_("error"), blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        abstract = True
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"{self._meta.verbose_name} {self.pk} ({self.get_status_display()})"

    @property
    def pending(self) -> bool:
        return self.status in (self.Status.QUEUED, self.Status.RUNNING)


class PlayerImportJob(BackgroundJob):
    """A director's CSV file of players too long to import within the request, imported in the
    background (``rankings.player_jobs``): all or nothing, with its progress and its outcome."""

    Status = ImportStatus

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="player_import_jobs")
    data = models.BinaryField()  # the file as sent (at most tournaments.player_import.MAX_BYTES)
    rows = models.PositiveIntegerField(default=0)  # players in the file
    substitutes = models.BooleanField(default=False)
    language = models.CharField(max_length=10, blank=True)  # language of the faults and the summary
    error = None  # its faults say why it failed
    summary = models.TextField(blank=True)
    faults = models.JSONField(default=list, blank=True)
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta(BackgroundJob.Meta):
        constraints = [
            models.CheckConstraint(condition=Q(progress__lte=100), name="player_import_progress_at_most_100"),
        ]

    def __str__(self) -> str:
        return f"player import {self.pk} ({self.get_status_display()})"
