"""Signal receivers: keep the EMA ranking in step with finished tournaments, and tidy export files.

A finished tournament's results change when a referee corrects a table (the result is saved), a
penalty is recorded, cancelled or decided on appeal, a registration changes, or the tournament itself
is saved (finished, reopened, other dates or weight). Each of those marks the tournament changed;
the ranking is recomputed once the transaction commits (see :mod:`rankings.ema.services`).
A change to a player who has results (name, EMA number, country) does the same for the
tournaments of those results. Changes in tournaments that are not finished cost one cheap check.
"""

from __future__ import annotations

from django.db import transaction
from django.db.models.signals import post_delete, post_save
from django.dispatch import receiver

from penalties.models import Penalty
from rankings.ema.services import ema_ranking_touch
from rankings.models import EmaTournament, ExportJob, ImportedTournament, TournamentResult
from scoring.models import TableResult
from tournaments.models import Player, Registration, Tournament

FINISHED = Tournament.Status.FINISHED


def _finished(instance, field: str = "tournament") -> int | None:
    """The id of ``instance``'s tournament when it is finished (no query when it is loaded already)."""
    descriptor = type(instance)._meta.get_field(field)
    if descriptor.is_cached(instance):
        tournament = getattr(instance, field)
        return tournament.pk if tournament.status == FINISHED else None
    tournament_id = getattr(instance, f"{field}_id")
    return tournament_id if Tournament.objects.filter(pk=tournament_id, status=FINISHED).exists() else None


@receiver(post_save, sender=Tournament, dispatch_uid="ema_tournament_saved")
def tournament_saved(sender, instance: Tournament, created: bool, raw: bool = False, **kwargs) -> None:
    if raw:
        return
    if instance.status == FINISHED or (
        not created and EmaTournament.objects.filter(tournament_id=instance.pk).exists()
    ):
        ema_ranking_touch(tournament_id=instance.pk)


@receiver(post_delete, sender=EmaTournament, dispatch_uid="ema_tournament_deleted")
def ema_tournament_deleted(sender, instance: EmaTournament, **kwargs) -> None:
    if instance.counted:
        ema_ranking_touch()


@receiver(post_save, sender=ImportedTournament, dispatch_uid="ema_imported_saved")
@receiver(post_delete, sender=ImportedTournament, dispatch_uid="ema_imported_deleted")
def imported_tournament_changed(sender, instance: ImportedTournament, raw: bool = False, **kwargs) -> None:
    """An imported tournament changed or was removed (also from the admin): the ranking follows."""
    if not raw:
        ema_ranking_touch()


@receiver(post_save, sender=TableResult, dispatch_uid="ema_table_result_saved")
def table_result_saved(sender, instance: TableResult, created: bool, raw: bool = False, **kwargs) -> None:
    if raw or created:  # a new result is empty: nothing counts yet
        return
    table = instance.table
    if type(table)._meta.get_field("session").is_cached(table):
        tournament_id = _finished(table.session)
    else:
        tournament_id = (
            Tournament.objects.filter(sessions__tables=instance.table_id, status=FINISHED)
            .values_list("pk", flat=True)
            .first()
        )
    if tournament_id is not None:
        ema_ranking_touch(tournament_id=tournament_id)


@receiver(post_save, sender=Penalty, dispatch_uid="ema_penalty_saved")
def penalty_saved(sender, instance: Penalty, raw: bool = False, **kwargs) -> None:
    if not raw and (tournament_id := _finished(instance)) is not None:
        ema_ranking_touch(tournament_id=tournament_id)


@receiver(post_save, sender=Registration, dispatch_uid="ema_registration_saved")
def registration_saved(sender, instance: Registration, raw: bool = False, **kwargs) -> None:
    if not raw and (tournament_id := _finished(instance)) is not None:
        ema_ranking_touch(tournament_id=tournament_id)


@receiver(post_delete, sender=Registration, dispatch_uid="ema_registration_deleted")
def registration_deleted(sender, instance: Registration, **kwargs) -> None:
    """Also sent while a whole tournament is deleted: look again once that is committed."""
    tournament_id = instance.tournament_id

    def touch() -> None:
        if Tournament.objects.filter(pk=tournament_id, status=FINISHED).exists():
            ema_ranking_touch(tournament_id=tournament_id)

    transaction.on_commit(touch)


@receiver(post_save, sender=Player, dispatch_uid="ema_player_saved")
def player_saved(sender, instance: Player, created: bool, raw: bool = False, **kwargs) -> None:
    if raw or created:
        return
    tournament_ids = set(
        TournamentResult.objects.filter(player=instance).values_list("tournament_id", flat=True)
    )
    for tournament_id in sorted(tournament_ids):
        ema_ranking_touch(tournament_id=tournament_id)


@receiver(post_delete, sender=ExportJob, dispatch_uid="export_job_deleted")
def export_job_deleted(sender, instance: ExportJob, **kwargs) -> None:
    if instance.file:
        instance.file.delete(save=False)
