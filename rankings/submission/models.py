"""What the EMA asks of a tournament that the rest of the product does not record: the observer and the
observer's comments, the prizes, the referees and whether they play, the substitutes' answers."""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _

from tournaments.models import Tournament


class EmaSubmission(models.Model):
    """One per tournament, made on the first write. ``version`` grows with every change (the pack's stamp
    reads it)."""

    tournament = models.OneToOneField(Tournament, on_delete=models.CASCADE, related_name="ema_submission")
    observer = models.CharField(_("EMA observer"), max_length=200, blank=True)
    observer_ema_id = models.CharField(_("observer's EMA number"), max_length=8, blank=True)
    # ERGMT §3.10: the names of the referees, and (§3.11) whether they were playing or non-playing:
    # [{"name": "…", "plays": false}, …]
    referees = models.JSONField(_("referees"), default=list, blank=True)
    # ERGMT §3.12 / §3.11: "Number of prizes and what they are awarded for": one line each.
    prizes = models.JSONField(_("prizes"), default=list, blank=True)
    # ERGMT §3.9: registration key → whether the substitute wants the results counted.
    substitute_answers = models.JSONField(_("substitutes' answers"), default=dict, blank=True)
    # ERGMT §3.11: the observer's own words.
    organisation = models.TextField(_("overall organisation"), blank=True)
    communication = models.TextField(_("information and communication"), blank=True)
    irregularities = models.TextField(_("irregularities"), blank=True)
    complaints = models.TextField(_("complaints and questions"), blank=True)
    conclusion = models.TextField(_("conclusion"), blank=True)
    version = models.PositiveIntegerField(default=1)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name = _("EMA submission")

    def __str__(self) -> str:
        return f"{self.tournament}: EMA submission"
