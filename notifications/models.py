"""A phone's subscription to a tournament's news (Web Push), and the events already told.

A subscription belongs to whoever made it: the player's private link (``registration``, no account), the
table's private link (``table``) or an account (``user``; a player's own account names the player's
``registration`` too, a referee's or director's names neither). It goes with its owner (the link's player or
table, the registration, the account), is listed and removed from the page it was made on, and is never
shown by the API, the archive or an export.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from tournaments.models import Registration, Table, Tournament

MAX_ENDPOINT = 1024
MAX_P256DH = 100  # 65 bytes in base64url: 87 characters
MAX_AUTH = 40  # 16 bytes in base64url: 22 characters


class Subscription(models.Model):
    class Audience(models.TextChoices):
        PLAYER = "player", _("Player")
        TABLE = "table", _("Table")
        STAFF = "staff", _("Staff")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="push_subscriptions")
    audience = models.CharField(max_length=6, choices=Audience.choices)
    registration = models.ForeignKey(
        Registration, null=True, blank=True, on_delete=models.CASCADE, related_name="push_subscriptions"
    )
    table = models.ForeignKey(
        Table, null=True, blank=True, on_delete=models.CASCADE, related_name="push_subscriptions"
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="push_subscriptions",
    )
    endpoint = models.URLField(max_length=MAX_ENDPOINT)
    p256dh = models.CharField(max_length=MAX_P256DH)
    auth = models.CharField(max_length=MAX_AUTH)
    topics = models.CharField(max_length=200, default="")  # ",seat,clock," (notifications.topics.stored)
    language = models.CharField(max_length=16, default="en")
    created_at = models.DateTimeField(auto_now_add=True)
    last_sent_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["created_at", "pk"]
        constraints = [
            models.CheckConstraint(
                condition=Q(registration__isnull=False) | Q(table__isnull=False) | Q(user__isnull=False),
                name="push_subscription_has_owner",
            ),
            models.CheckConstraint(
                condition=(Q(audience="player") & Q(registration__isnull=False) & Q(table__isnull=True))
                | (Q(audience="table") & Q(table__isnull=False) & Q(registration__isnull=True))
                | (
                    Q(audience="staff")
                    & Q(user__isnull=False)
                    & Q(registration__isnull=True)
                    & Q(table__isnull=True)
                ),
                name="push_subscription_audience_owner",
            ),
        ]
        indexes = [models.Index(fields=["tournament", "audience"])]

    def __str__(self) -> str:
        return f"{self.audience} subscription #{self.pk} @ {self.tournament_id}"


class PushSent(models.Model):
    """An event already told (its key: what and which version), so that it is told once."""

    key = models.CharField(max_length=200, unique=True)
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return self.key
