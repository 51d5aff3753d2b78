"""The export jobs: each run of an exporter, its progress and the file it made."""

from __future__ import annotations

import secrets

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from rankings.exports.registry import UnknownExporter, exporter_get
from rankings.jobs.models import BackgroundJob, status_field
from rankings.submission.selectors import stamp as tournament_stamp
from tournaments.lifecycle import last_reopened_at
from tournaments.models import Tournament


def export_upload_to(instance: ExportJob, filename: str) -> str:
    """exports/<"tournament." and the tournament's id, or "ranking">/<job id>-<random>/<file name>, under
    MEDIA_ROOT: the tournament's id, never its slug, which can change or be taken by another tournament.

    Downloads go through a view that checks the director role on the job's tournament; the random part
    keeps the path unguessable wherever MEDIA_ROOT is served as static files. A job's file is deleted
    with the job, and the jobs with their tournament.
    """
    folder = f"tournament.{instance.tournament_id}" if instance.tournament_id else "ranking"
    return f"exports/{folder}/{instance.pk}-{secrets.token_urlsafe(12)}/{filename}"


class ExportJob(BackgroundJob):
    """One run of an exporter, made in the background; the file is kept for later downloads."""

    class Status(models.TextChoices):
        QUEUED = "queued", _("Queued")
        RUNNING = "running", _("Running")
        DONE = "done", _("Ready")
        FAILED = "failed", _("Failed")

    status = status_field(Status)

    tournament = models.ForeignKey(
        Tournament, null=True, blank=True, on_delete=models.CASCADE, related_name="export_jobs"
    )
    exporter = models.CharField(_("exporter"), max_length=40)
    format = models.CharField(_("format"), max_length=8)
    params = models.JSONField(default=dict, blank=True)  # e.g. {"family": "mcr"} for the EMA ranking
    language = models.CharField(max_length=10, blank=True)  # language of the headers and labels
    file = models.FileField(_("file"), upload_to=export_upload_to, max_length=255, blank=True)
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    # the tournament's stamp (rankings.submission.selectors.stamp) when the file was made: the file is out
    # of date once the tournament's stamp is another
    stamp = models.CharField(max_length=32, blank=True, default="")

    class Meta(BackgroundJob.Meta):
        constraints = [
            models.CheckConstraint(condition=Q(progress__lte=100), name="export_progress_at_most_100"),
        ]

    def __str__(self) -> str:
        return f"{self.exporter}.{self.format} ({self.get_status_display()})"

    @property
    def ready(self) -> bool:
        return self.status == self.Status.DONE and bool(self.file)

    @property
    def filename(self) -> str:
        return self.file.name.rsplit("/", 1)[-1] if self.file else ""

    @property
    def out_of_date(self) -> bool:
        """Made from the tournament as it no longer is: its stamp (results, penalties, roster, sessions,
        statuses, the submission's facts) has changed since, for every export alike (the EMA pack too).
        A file made again is current. A file made before files kept their stamp: out of date once the
        tournament (or one of its finished sessions) was reopened after it."""
        if self.tournament_id is None or self.status != self.Status.DONE:
            return False
        if self.stamp:
            now = self.__dict__.get("_stamp_now")
            if now is None:
                now = tournament_stamp(tournament=self.tournament)
            return now != self.stamp
        reopened = last_reopened_at(self.tournament)
        return reopened is not None and self.created_at < reopened

    @staticmethod
    def stamps_read(jobs, tournament) -> list:
        """``jobs`` of ``tournament`` with the tournament's stamp read once for all of them (a list of
        jobs asks ``out_of_date`` of each)."""
        jobs = list(jobs)
        if jobs:
            now = tournament_stamp(tournament=tournament)
            for job in jobs:
                job.__dict__["_stamp_now"] = now
        return jobs

    @property
    def exporter_name(self) -> str:
        try:
            return str(exporter_get(self.exporter).name)
        except UnknownExporter:
            return self.exporter
