"""The EMA ranking's stored data: each tournament's results and weight, the ranking's entries and their
version, and the results of tournaments held elsewhere (imported from their EMA results files)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from tournaments.fields import FractionField
from tournaments.models import Player, Registration, Tournament


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
