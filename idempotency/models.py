"""The answer to each write that carried an ``Idempotency-Key``, kept so that a repeat gets it again."""

from django.db import models
from django.utils import timezone


class IdempotencyRecord(models.Model):
    """One write and its stored answer, per actor and key.

    ``scope`` names the actor (a user, an API credential, a table's private link, or an anonymous session)
    so that two actors never share a key; ``fingerprint`` is the hash of the method, path and body of the
    first request, against which every repeat is compared.
    """

    scope = models.CharField(max_length=80)
    key = models.CharField(max_length=255)
    fingerprint = models.CharField(max_length=64)
    method = models.CharField(max_length=8)
    path = models.CharField(max_length=500)
    status = models.PositiveSmallIntegerField()
    headers = models.JSONField(default=dict)
    body = models.BinaryField()
    created_at = models.DateTimeField(default=timezone.now, db_index=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["scope", "key"], name="idempotency_one_record_per_actor_key")
        ]

    def __str__(self) -> str:
        return f"{self.method} {self.path} [{self.key}] → {self.status}"
