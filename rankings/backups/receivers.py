"""A deleted tournament takes its backups with it (set aside for the site's administrators)."""

from django.db.models.signals import post_delete
from django.dispatch import receiver

from rankings.backups.services import backups_set_aside
from tournaments.models import Tournament


@receiver(post_delete, sender=Tournament, dispatch_uid="backups_tournament_deleted")
def tournament_deleted(sender, instance: Tournament, **kwargs) -> None:
    backups_set_aside(tournament_id=instance.pk)
