"""Fouls and penalties: every one kept, cancelled with a reason rather than deleted."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from tournaments.fields import FractionField
from tournaments.history import HistoricalRecords
from tournaments.models import Registration, Session, Table, Tournament


class Kind(models.TextChoices):
    LATE_ARRIVAL = "late_arrival", _("Late arrival")
    FALSE_HU = "false_hu", _("False Hu")
    DEAD_HAND = "dead_hand", _("Dead hand")
    CHOMBO = "chombo", _("Chombo")
    FOUL = "foul", _("Foul")
    FORGOT_WINNING_TILE = "forgot_winning_tile", _("Forgot the winning tile")
    REFEREE = "referee", _("Referee decision")
    DISQUALIFIED = "disqualified", _("Disqualification")
    REPLACED = "replaced", _("Substitution")
    TABLE_POINTS = "table_points", _("Table points deduction")


class Scope(models.TextChoices):
    SESSION = "session", _("Session")
    TOURNAMENT = "tournament", _("Tournament")


class Variant(models.TextChoices):
    BELOW_MINIMUM = "below_minimum", _("Four sets and a pair, under the minimum")
    INVALID_HAND = "invalid_hand", _("Invalid hand (wrong set or tile count)")
    FALSE_DECLARATION = "false_declaration", _("False declaration after the tiles were seen")


class Penalty(models.Model):
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="penalties")
    registration = models.ForeignKey(
        Registration, on_delete=models.PROTECT, related_name="penalties", verbose_name=_("player")
    )
    session = models.ForeignKey(
        Session, null=True, blank=True, on_delete=models.CASCADE, related_name="penalties"
    )
    table = models.ForeignKey(
        Table, null=True, blank=True, on_delete=models.CASCADE, related_name="penalties"
    )
    hand_number = models.PositiveSmallIntegerField(_("hand"), null=True, blank=True)
    kind = models.CharField(_("kind"), max_length=24, choices=Kind.choices)
    variant = models.CharField(_("variant"), max_length=24, choices=Variant.choices, blank=True)
    minutes_late = models.PositiveSmallIntegerField(_("minutes late"), null=True, blank=True)
    persists = models.BooleanField(
        _("obstruction or time-wasting"),
        default=False,
        help_text=_("The foul count does not restart next session."),
    )
    scope = models.CharField(_("scope"), max_length=10, choices=Scope.choices, blank=True)
    substitute = models.ForeignKey(
        Registration,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="substitutions",
        verbose_name=_("replaced by"),
    )
    during = models.BooleanField(_("during the session"), default=False)
    reason = models.TextField(_("reason"), blank=True)
    points = FractionField(_("points"), default=0, help_text=_("Offender-only deduction (0 or negative)."))
    table_points = FractionField(_("table points"), null=True, blank=True)
    disqualifies = models.BooleanField(default=False, help_text=_("Late past the limit: out of the session."))
    sequence = models.PositiveIntegerField(_("order recorded"))
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    recorded_at = models.DateTimeField(auto_now_add=True)
    cancelled_at = models.DateTimeField(null=True, blank=True)
    cancelled_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    cancel_reason = models.TextField(blank=True)
    appeal = models.TextField(_("appeal"), blank=True)
    appeal_decision = models.TextField(_("appeal decision"), blank=True)
    appeal_decided_at = models.DateTimeField(null=True, blank=True)
    appeal_decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    history = HistoricalRecords(history_change_reason_field=models.TextField(null=True))

    class Meta:
        ordering = ["tournament", "sequence"]
        verbose_name_plural = "penalties"
        constraints = [
            models.UniqueConstraint(fields=["tournament", "sequence"], name="penalty_sequence_unique"),
            models.CheckConstraint(
                condition=Q(cancelled_at__isnull=True) | ~Q(cancel_reason=""), name="cancel_needs_reason"
            ),
            models.CheckConstraint(
                condition=~Q(kind="referee") | ~Q(reason=""), name="referee_decision_needs_reason"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} – {self.registration.player}"

    @property
    def active(self) -> bool:
        return self.cancelled_at is None
