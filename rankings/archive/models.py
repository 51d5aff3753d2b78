"""The archive import jobs: a large archive imported in the background, with its progress and outcome."""

from __future__ import annotations

import secrets

from django.conf import settings
from django.db import models
from django.db.models import Q

from rankings.jobs.models import BackgroundJob, ImportStatus


def import_upload_to(job: ArchiveImportJob, filename: str) -> str:
    return f"imports/{secrets.token_hex(8)}.json"


class ArchiveImportJob(BackgroundJob):
    """One import of a large archive, run in the background; the request that sent it returns at once."""

    Status = ImportStatus

    file = models.FileField(upload_to=import_upload_to, max_length=255)
    replace = models.BooleanField(default=False)
    only_slug = models.CharField(max_length=80, blank=True)  # from a tournament's page: that tournament only
    tournament = models.ForeignKey(
        "tournaments.Tournament", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    error_path = models.CharField(max_length=300, blank=True)
    error = models.TextField(blank=True)  # as it always was: no verbose name
    requested_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")

    class Meta(BackgroundJob.Meta):
        constraints = [
            models.CheckConstraint(condition=Q(progress__lte=100), name="import_progress_at_most_100"),
        ]

    def __str__(self) -> str:
        return f"archive import {self.pk} ({self.get_status_display()})"
