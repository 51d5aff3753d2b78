"""Standings snapshots: computed in the background, never replacing a newer one with an older one.

Also the export jobs and the stored EMA results and ranking.
"""

from __future__ import annotations

import secrets

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from tournaments.fields import FractionField
from tournaments.models import Player, Registration, Tournament


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


# -- exports ----------------------------------------------------------------------------------------


def export_upload_to(instance: ExportJob, filename: str) -> str:
    """exports/<"tournament." and the tournament's id, or "ranking">/<job id>-<random>/<file name>, under
    MEDIA_ROOT: the tournament's id, never its slug, which can change or be taken by another tournament.

    Downloads go through a view that checks the director role on the job's tournament; the random part
    keeps the path unguessable wherever MEDIA_ROOT is served as static files. A job's file is deleted
    with the job, and the jobs with their tournament.
    """
    folder = f"tournament.{instance.tournament_id}" if instance.tournament_id else "ranking"
    return f"exports/{folder}/{instance.pk}-{secrets.token_urlsafe(12)}/{filename}"


class ExportJob(models.Model):
    """One run of an exporter, made in the background; the file is kept for later downloads."""

    class Status(models.TextChoices):
        QUEUED = "queued", _("Queued")
        RUNNING = "running", _("Running")
        DONE = "done", _("Ready")
        FAILED = "failed", _("Failed")

    tournament = models.ForeignKey(
        Tournament, null=True, blank=True, on_delete=models.CASCADE, related_name="export_jobs"
    )
    exporter = models.CharField(_("exporter"), max_length=40)
    format = models.CharField(_("format"), max_length=8)
    params = models.JSONField(default=dict, blank=True)  # e.g. {"family": "mcr"} for the EMA ranking
    language = models.CharField(max_length=10, blank=True)  # language of the headers and labels
    status = models.CharField(_("status"), max_length=10, choices=Status.choices, default=Status.QUEUED)
    progress = models.PositiveSmallIntegerField(_("progress"), default=0)
    file = models.FileField(_("file"), upload_to=export_upload_to, max_length=255, blank=True)
    error = models.TextField(_("error"), blank=True)
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    # the tournament's stamp (rankings.submission.selectors.stamp) when the file was made: the file is out
    # of date once the tournament's stamp is another
    stamp = models.CharField(max_length=32, blank=True, default="")

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            models.CheckConstraint(condition=Q(progress__lte=100), name="export_progress_at_most_100"),
        ]

    def __str__(self) -> str:
        return f"{self.exporter}.{self.format} ({self.get_status_display()})"

    @property
    def pending(self) -> bool:
        return self.status in (self.Status.QUEUED, self.Status.RUNNING)

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
                from rankings.submission.selectors import stamp

                now = stamp(tournament=self.tournament)
            return now != self.stamp
        from tournaments.lifecycle import last_reopened_at

        reopened = last_reopened_at(self.tournament)
        return reopened is not None and self.created_at < reopened

    @staticmethod
    def stamps_read(jobs, tournament) -> list:
        """``jobs`` of ``tournament`` with the tournament's stamp read once for all of them (a list of
        jobs asks ``out_of_date`` of each)."""
        from rankings.submission.selectors import stamp

        jobs = list(jobs)
        if jobs:
            now = stamp(tournament=tournament)
            for job in jobs:
                job.__dict__["_stamp_now"] = now
        return jobs

    @property
    def exporter_name(self) -> str:
        from rankings.exports import UnknownExporter, exporter_get

        try:
            return str(exporter_get(self.exporter).name)
        except UnknownExporter:
            return self.exporter


# -- EMA ranking ------------------------------------------------------------------------------------


class EmaTournament(models.Model):
    """A tournament as the EMA ranking counts it: its stored results and its MERS weight.

    A row exists for every tournament that was finished at some time. ``input_version`` grows when
    the tournament or its results change; the results are stored again when ``computed_version`` is
    behind. ``counted`` is true while the tournament is finished and has ranked players.
    """

    tournament = models.OneToOneField(Tournament, on_delete=models.CASCADE, related_name="ema_state")
    input_version = models.PositiveBigIntegerField(default=1)
    computed_version = models.PositiveBigIntegerField(default=0)
    family = models.CharField(max_length=20, blank=True)  # the ruleset family: mcr, riichi, …
    players = models.PositiveIntegerField(default=0)  # N: ranked players, with or without EMA numbers
    countries = models.PositiveSmallIntegerField(default=0)
    weight = FractionField(null=True, blank=True)  # the MERS weight
    ended_on = models.DateField(null=True, blank=True)  # last day of the tournament
    counted = models.BooleanField(default=False)
    computed_at = models.DateTimeField(null=True, blank=True)
    error = models.TextField(blank=True)

    def __str__(self) -> str:
        return f"EMA results of {self.tournament}"


class TournamentResult(models.Model):
    """A player's place and EMA base rank in a finished tournament (substitutes have none)."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="ema_results")
    registration = models.ForeignKey(Registration, on_delete=models.CASCADE, related_name="ema_results")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="ema_results")
    place = models.PositiveIntegerField(_("place"))
    base_rank = models.PositiveSmallIntegerField(_("base rank"))
    table_points = FractionField(_("table points"), null=True, blank=True)
    score = FractionField(_("score"))

    class Meta:
        ordering = ["tournament", "place", "id"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "registration"], name="ema_result_once"),
            models.CheckConstraint(condition=Q(base_rank__lte=1000), name="ema_base_rank_at_most_1000"),
            models.CheckConstraint(condition=Q(place__gte=1), name="ema_place_positive"),
        ]

    def __str__(self) -> str:
        return f"{self.player} #{self.place} ({self.base_rank}) @ {self.tournament}"


class EmaRankingState(models.Model):
    """The one row that versions the stored EMA ranking (pk 1); its row lock serialises recomputes."""

    input_version = models.PositiveBigIntegerField(default=1)
    computed_version = models.PositiveBigIntegerField(default=0)
    computed_on = models.DateField(null=True, blank=True)  # the ranking date of the stored entries
    computed_at = models.DateTimeField(null=True, blank=True)
    queued_at = models.DateTimeField(null=True, blank=True)
    queue_error = models.TextField(blank=True)
    queue_failed_at = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return f"EMA ranking (v{self.computed_version}/{self.input_version}, {self.computed_on})"


class EmaRankingEntry(models.Model):
    """A player's EMA ranking in one ruleset family, as stored by the last recompute."""

    class Family(models.TextChoices):
        MCR = "mcr", "MCR"
        RIICHI = "riichi", "Riichi"

    family = models.CharField(max_length=10, choices=Family.choices)
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="ema_ranking")
    ema_id = models.CharField(_("EMA number"), max_length=8)
    position = models.PositiveIntegerField(_("position"))
    ranking = FractionField(_("ranking"))
    part_a = FractionField(_("Part A"))
    part_b = FractionField(_("Part B"))
    results = models.PositiveSmallIntegerField(_("results"))  # real results that still count
    on = models.DateField(_("ranking date"))
    computed_at = models.DateTimeField()
    # the player's country, copied at each recompute (the ranking's country filter)
    country = models.CharField(_("country"), max_length=3, blank=True)
    # the player's position and ranking in the computation before this one (None: newly ranked)
    previous_position = models.PositiveIntegerField(null=True, blank=True)
    previous_ranking = FractionField(null=True, blank=True)

    class Meta:
        ordering = ["family", "position", "id"]
        constraints = [
            models.UniqueConstraint(fields=["family", "player"], name="ema_ranking_once"),
        ]
        indexes = [
            models.Index(fields=["family", "position"], name="ema_ranking_position"),
            models.Index(fields=["family", "country", "position"], name="ema_ranking_country"),
        ]

    def __str__(self) -> str:
        return f"{self.get_family_display()} #{self.position} {self.player}"


def import_upload_to(job: ArchiveImportJob, filename: str) -> str:
    return f"imports/{secrets.token_hex(8)}.json"


class ArchiveImportJob(models.Model):
    """One import of a large archive, run in the background; the request that sent it returns at once."""

    class Status(models.TextChoices):
        QUEUED = "queued", _("Queued")
        RUNNING = "running", _("Running")
        DONE = "done", _("Imported")
        FAILED = "failed", _("Refused")

    file = models.FileField(upload_to=import_upload_to, max_length=255)
    replace = models.BooleanField(default=False)
    only_slug = models.CharField(max_length=80, blank=True)  # from a tournament's page: that tournament only
    status = models.CharField(_("status"), max_length=10, choices=Status.choices, default=Status.QUEUED)
    progress = models.PositiveSmallIntegerField(_("progress"), default=0)
    tournament = models.ForeignKey(
        "tournaments.Tournament", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    error_path = models.CharField(max_length=300, blank=True)
    error = models.TextField(blank=True)
    requested_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            models.CheckConstraint(condition=Q(progress__lte=100), name="import_progress_at_most_100"),
        ]

    def __str__(self) -> str:
        return f"archive import {self.pk} ({self.get_status_display()})"

    @property
    def pending(self) -> bool:
        return self.status in (self.Status.QUEUED, self.Status.RUNNING)


# -- results of tournaments held elsewhere ----------------------------------------------------------


class ImportedTournament(models.Model):
    """A tournament held elsewhere (scored with another tool), known by its EMA results file.

    It counts in the EMA ranking exactly like a finished tournament of this installation: its players'
    places give base ranks over N (every listed player), its MERS weight comes from its days, players,
    countries and championship qualification, and its results age from ``ends_on``.
    """

    class Family(models.TextChoices):
        MCR = "mcr", "MCR"
        RIICHI = "riichi", "Riichi"

    class Format(models.TextChoices):
        EMA_RESULTS = "ema-results", _("EMA results file of this product")
        MTS = "mts", _("MTS EMA report")
        COLUMNS = "columns", _("EMA columns in another order")

    name = models.CharField(_("name"), max_length=200)
    family = models.CharField(_("rules"), max_length=10, choices=Family.choices)
    starts_on = models.DateField(_("start date"))
    ends_on = models.DateField(_("end date"))
    days = models.PositiveSmallIntegerField(_("days"))
    city = models.CharField(_("city"), max_length=100, blank=True)
    country = models.CharField(_("country"), max_length=3, blank=True)
    qualifies_for_championship = models.BooleanField(
        _("qualifies for a European championship"), default=False
    )
    players = models.PositiveIntegerField(_("players"))  # N: every listed player
    countries = models.PositiveSmallIntegerField(_("countries"))
    weight = FractionField(_("weight"))
    source_format = models.CharField(_("file format"), max_length=12, choices=Format.choices)
    filename = models.CharField(_("file name"), max_length=200, blank=True)
    content_hash = models.CharField(max_length=64, unique=True)  # what the file says, whatever its format
    name_key = models.CharField(max_length=200)  # the name as compared (lower case, accents removed)
    imported_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    imported_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-ends_on", "name", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["family", "starts_on", "name_key"], name="imported_tournament_once"
            ),
            models.CheckConstraint(
                condition=Q(ends_on__gte=models.F("starts_on")), name="imported_ends_after_start"
            ),
            models.CheckConstraint(condition=Q(days__gte=1), name="imported_days_positive"),
            models.CheckConstraint(condition=Q(players__gte=1), name="imported_players_positive"),
        ]
        indexes = [models.Index(fields=["family", "ends_on"], name="imported_family_ended")]

    def __str__(self) -> str:
        return f"{self.name} ({self.starts_on})"


class ImportedResult(models.Model):
    """One line of an imported results file; ``player`` is set for a player with an EMA number."""

    tournament = models.ForeignKey(ImportedTournament, on_delete=models.CASCADE, related_name="results")
    line = models.PositiveIntegerField()  # the line of the file
    place = models.PositiveIntegerField(_("place"))
    base_rank = models.PositiveSmallIntegerField(_("base rank"))
    ema_id = models.CharField(_("EMA number"), max_length=8, blank=True)
    player = models.ForeignKey(
        Player, null=True, blank=True, on_delete=models.SET_NULL, related_name="imported_results"
    )
    first_name = models.CharField(_("first name"), max_length=100, blank=True)
    last_name = models.CharField(_("last name"), max_length=100, blank=True)
    country = models.CharField(_("country"), max_length=3, blank=True)
    ema_member = models.BooleanField(_("EMA member"), default=False)
    table_points = FractionField(_("table points"), null=True, blank=True)
    score = FractionField(_("score"), null=True, blank=True)

    class Meta:
        ordering = ["tournament", "place", "line"]
        constraints = [
            models.CheckConstraint(condition=Q(base_rank__lte=1000), name="imported_base_rank_at_most_1000"),
            models.CheckConstraint(condition=Q(place__gte=1), name="imported_place_positive"),
        ]
        indexes = [models.Index(fields=["player", "tournament"], name="imported_result_player")]

    def __str__(self) -> str:
        return f"{self.first_name} {self.last_name} #{self.place} @ {self.tournament}"


class PlayerImportJob(models.Model):
    """A director's CSV file of players too long to import within the request, imported in the
    background (``rankings.player_jobs``): all or nothing, with its progress and its outcome."""

    class Status(models.TextChoices):
        QUEUED = "queued", _("Queued")
        RUNNING = "running", _("Running")
        DONE = "done", _("Imported")
        FAILED = "failed", _("Refused")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="player_import_jobs")
    data = models.BinaryField()  # the file as sent (at most tournaments.player_import.MAX_BYTES)
    rows = models.PositiveIntegerField(default=0)  # players in the file
    substitutes = models.BooleanField(default=False)
    language = models.CharField(max_length=10, blank=True)  # language of the faults and the summary
    status = models.CharField(_("status"), max_length=10, choices=Status.choices, default=Status.QUEUED)
    progress = models.PositiveSmallIntegerField(_("progress"), default=0)
    summary = models.TextField(blank=True)
    faults = models.JSONField(default=list, blank=True)
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            models.CheckConstraint(condition=Q(progress__lte=100), name="player_import_progress_at_most_100"),
        ]

    def __str__(self) -> str:
        return f"player import {self.pk} ({self.get_status_display()})"

    @property
    def pending(self) -> bool:
        return self.status in (self.Status.QUEUED, self.Status.RUNNING)
