"""Table results, their hands, and the per-seat summary rows that standings add up."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.dispatch import receiver
from django.utils.translation import gettext_lazy as _
from simple_history.signals import pre_create_historical_record

from tournaments.fields import FractionField
from tournaments.history import HistoricalRecords, QuickSave
from tournaments.models import Registration, Session, Table, Tournament, Wind


class WriterHistory(QuickSave):
    """What the history keeps of a writer with no account: the number of the table whose private link
    made the change (``history_user`` is empty then). Its rows are inserted with SQL written once
    (``tournaments.history.QuickSave``)."""

    history_table_link = models.PositiveSmallIntegerField(_("table link of table"), null=True, blank=True)

    class Meta:
        abstract = True


@receiver(pre_create_historical_record)
def _stamp_table_link(sender, instance, history_instance, **kwargs):
    if hasattr(history_instance, "history_table_link"):
        history_instance.history_table_link = getattr(instance, "_history_table_link", None)


class TableResult(QuickSave):
    """The result of one table in one session, entered hand by hand or as the four totals.

    ``version`` grows with every change; a write that names an older version is refused (409).
    """

    class Mode(models.TextChoices):
        HANDS = "hands", _("Hand by hand")
        TOTALS = "totals", _("Game totals")

    class Status(models.TextChoices):
        DRAFT = "draft", _("Playing")
        SUBMITTED = "submitted", _("Submitted")
        CONFIRMED = "confirmed", _("Confirmed")

    table = models.OneToOneField(Table, on_delete=models.CASCADE, related_name="result")
    mode = models.CharField(_("mode"), max_length=6, choices=Mode.choices, default=Mode.HANDS)
    status = models.CharField(_("status"), max_length=10, choices=Status.choices, default=Status.DRAFT)
    version = models.PositiveIntegerField(_("version"), default=1)
    scores = models.JSONField(
        _("totals"), null=True, blank=True, help_text=_("Totals mode: four scores, E S W N.")
    )
    imbalance_reason = models.TextField(_("imbalance reason"), blank=True)
    short_reason = models.TextField(
        _("why fewer hands"), blank=True, help_text=_("Given when the table played fewer hands than usual.")
    )
    submitted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    submitted_at = models.DateTimeField(null=True, blank=True)
    confirmed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    confirmed_at = models.DateTimeField(null=True, blank=True)
    player_confirmations = models.JSONField(default=list, blank=True)
    # Seats corrected after the fact, oldest first: when ("at", ISO time), the seating before ("from") and
    # after ("to"), player keys E S W N. The history reads hands written before a correction with the
    # seating of their time.
    seat_corrections = models.JSONField(_("seat corrections"), default=list, blank=True)
    updated_at = models.DateTimeField(auto_now=True)
    # Reasons are free text written by referees: a text column, not the default 100 characters.
    history = HistoricalRecords(
        excluded_fields=["updated_at"],
        history_change_reason_field=models.TextField(null=True),
        bases=[WriterHistory],
    )

    class Meta:
        constraints = [
            models.CheckConstraint(
                condition=~Q(status="confirmed") | Q(confirmed_at__isnull=False), name="confirmed_has_time"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.table} – {self.get_status_display()} v{self.version}"

    @property
    def is_confirmed(self) -> bool:
        return self.status == self.Status.CONFIRMED


class Hand(QuickSave):
    """One hand, in the archive's shape with players given as seat numbers 0..3 (E, S, W, N)."""

    result = models.ForeignKey(TableResult, on_delete=models.CASCADE, related_name="hands")
    number = models.PositiveSmallIntegerField(_("hand"))
    data = models.JSONField(_("hand"))
    # The check of the tiles carried by the hand's wins (scoring.tiles): status ("agreed", "filled", "held",
    # "ruling", "computed"), and per win the computed value with its fan or yaku and the claimed value.
    valuation = models.JSONField(_("value from tiles"), null=True, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    history = HistoricalRecords(
        history_change_reason_field=models.TextField(null=True), bases=[WriterHistory]
    )

    class Meta:
        ordering = ["result", "number"]
        constraints = [
            models.UniqueConstraint(fields=["result", "number"], name="hand_number_unique"),
            models.CheckConstraint(condition=Q(number__gte=1), name="hand_number_positive"),
        ]

    def __str__(self) -> str:
        return f"{self.result.table} hand {self.number}"


class SeatSummary(models.Model):
    """A seat's session result, written when its table is confirmed (and rewritten when the result or a
    penalty that touches it changes). Standings read these rows; they never replay hands."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="seat_summaries")
    session = models.ForeignKey(Session, on_delete=models.CASCADE, related_name="seat_summaries")
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="summaries")
    position = models.PositiveSmallIntegerField(choices=Wind.choices)
    registration = models.ForeignKey(Registration, on_delete=models.PROTECT, related_name="summaries")
    game_score = FractionField()
    table_points = FractionField(null=True)
    uma = FractionField(null=True)
    transfers = FractionField(default=0)
    chombo = FractionField(default=0)
    penalties = FractionField(default=0)
    final = FractionField()
    excluded = models.BooleanField(default=False, help_text=_("No table points for this seat (MERS §4)."))
    result_version = models.PositiveIntegerField()

    class Meta:
        ordering = ["session", "table", "position"]
        constraints = [
            models.UniqueConstraint(fields=["table", "position"], name="summary_seat_unique"),
            models.UniqueConstraint(fields=["session", "registration"], name="summary_once_per_session"),
        ]

    def __str__(self) -> str:
        return f"{self.table} {self.get_position_display()}: {self.final}"


class NotableHand(models.Model):
    """An entry of the register of notable hands (Salamanca rules, appendix A): person, title, fan, the
    hand, opponents, date. Kept across tournaments; filled from a recorded hand with tiles or by hand."""

    person = models.CharField(_("person"), max_length=200)
    title = models.CharField(_("title"), max_length=200)
    value = models.PositiveIntegerField(_("value"))
    unit = models.CharField(_("unit"), max_length=10, default="fan")  # fan, han, points
    hand_text = models.CharField(_("hand"), max_length=200, blank=True)
    tiles = models.JSONField(_("tiles"), null=True, blank=True)
    opponents = models.CharField(_("opponents"), max_length=400, blank=True)
    date = models.DateField(_("date"))
    tournament = models.ForeignKey(
        Tournament, null=True, blank=True, on_delete=models.SET_NULL, related_name="notable_hands"
    )
    source = models.OneToOneField(
        Hand, null=True, blank=True, on_delete=models.SET_NULL, related_name="notable_entry"
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-date", "-value", "pk"]

    def __str__(self) -> str:
        return f"{self.date} {self.person}: {self.title}"


class RefereeCall(models.Model):
    """A table calling a referee: made from the table page (its private link or a scorer), acknowledged by a
    referee on the way, resolved with a note, a penalty recorded at the table or a corrected hand. A table has
    at most one call that is not resolved. Calls are kept: they are the tournament's record of how long tables
    waited."""

    class Reason(models.TextChoices):
        DISPUTE = "dispute", _("A dispute")
        FOUL = "foul", _("A foul")
        WRONG_CLAIM = "wrong_claim", _("A wrong claim")
        QUESTION = "question", _("A question")

    class Status(models.TextChoices):
        OPEN = "open", _("Waiting for a referee")
        ACKNOWLEDGED = "acknowledged", _("A referee is on the way")
        RESOLVED = "resolved", _("Resolved")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="referee_calls")
    session = models.ForeignKey(Session, on_delete=models.CASCADE, related_name="referee_calls")
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="referee_calls")
    reason = models.CharField(_("reason"), max_length=12, choices=Reason.choices)
    status = models.CharField(_("status"), max_length=12, choices=Status.choices, default=Status.OPEN)
    called_at = models.DateTimeField(_("called at"))
    called_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    acknowledged_at = models.DateTimeField(_("acknowledged at"), null=True, blank=True)
    acknowledged_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    acknowledged_name = models.CharField(_("referee"), max_length=150, blank=True)
    resolved_at = models.DateTimeField(_("resolved at"), null=True, blank=True)
    resolved_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    resolved_name = models.CharField(_("resolved by"), max_length=150, blank=True)
    note = models.TextField(_("note"), blank=True)
    penalty = models.ForeignKey(
        "penalties.Penalty", null=True, blank=True, on_delete=models.SET_NULL, related_name="referee_calls"
    )
    hand_number = models.PositiveSmallIntegerField(_("corrected hand"), null=True, blank=True)
    history = HistoricalRecords(
        history_change_reason_field=models.TextField(null=True), bases=[WriterHistory]
    )

    class Meta:
        ordering = ["called_at", "pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["table"], condition=~Q(status="resolved"), name="referee_call_one_open_per_table"
            ),
            models.CheckConstraint(
                condition=~Q(status="acknowledged") | Q(acknowledged_at__isnull=False),
                name="referee_call_acknowledged_has_time",
            ),
            models.CheckConstraint(
                condition=~Q(status="resolved") | Q(resolved_at__isnull=False),
                name="referee_call_resolved_has_time",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.table} – {self.get_reason_display()} ({self.get_status_display()})"
