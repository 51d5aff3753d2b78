"""Writes outside the clock's services that change what the public pages or the clock show (seating,
sessions, tournaments, registrations, players, results) give the tournament a new publication stamp and
a fresh clock document, after their commit."""

from __future__ import annotations

from django.db import transaction
from django.db.models.signals import post_delete, post_save

from tournaments import pagecache


def _slug_of(instance) -> str | None:
    from tournaments.models import (
        Announcement,
        Player,
        Registration,
        Seat,
        Session,
        SessionClock,
        Table,
        Tournament,
    )

    try:
        if isinstance(instance, Announcement):
            return instance.tournament.slug
        if isinstance(instance, SessionClock):
            return instance.session.tournament.slug
        if isinstance(instance, Tournament):
            return instance.slug
        if isinstance(instance, Session):
            return instance.tournament.slug
        if isinstance(instance, Table):
            return instance.session.tournament.slug
        if isinstance(instance, Seat):
            return instance.table.session.tournament.slug
        if isinstance(instance, Registration):
            return instance.tournament.slug
        if isinstance(instance, Player):
            return None  # names: every tournament of the player, below
    except Exception:  # a row whose parent is being deleted
        return None
    return None


def _changed(sender, instance, **kwargs) -> None:
    from tournaments.clock import selectors
    from tournaments.models import Player, Registration

    if isinstance(instance, Player):
        slugs = set(Registration.objects.filter(player=instance).values_list("tournament__slug", flat=True))
    else:
        slug = _slug_of(instance)
        slugs = {slug} if slug else set()
    for slug in slugs:
        pagecache.changed(slug)
        transaction.on_commit(lambda slug=slug: selectors.forget(slug))


def _result_changed(sender, instance, **kwargs) -> None:
    try:
        slug = instance.table.session.tournament.slug
    except Exception:
        return
    pagecache.changed(slug)


def connect() -> None:
    from scoring.models import Hand, TableResult
    from tournaments.models import (
        Announcement,
        Player,
        Registration,
        Seat,
        Session,
        SessionClock,
        Table,
        Tournament,
    )

    for model in (Tournament, Session, Table, Seat, Registration, Player, Announcement, SessionClock):
        post_save.connect(_changed, sender=model, dispatch_uid=f"pub-{model.__name__}-save")
        post_delete.connect(_changed, sender=model, dispatch_uid=f"pub-{model.__name__}-delete")
    post_save.connect(_result_changed, sender=TableResult, dispatch_uid="pub-result-save")
    post_delete.connect(_result_changed, sender=TableResult, dispatch_uid="pub-result-delete")
    from penalties.models import Penalty

    post_save.connect(_penalty_changed, sender=Penalty, dispatch_uid="pub-penalty-save")
    post_delete.connect(_penalty_changed, sender=Penalty, dispatch_uid="pub-penalty-delete")
    post_save.connect(_hand_changed, sender=Hand, dispatch_uid="pub-hand-save")
    post_delete.connect(_hand_changed, sender=Hand, dispatch_uid="pub-hand-delete")


def _hand_changed(sender, instance, **kwargs) -> None:
    try:
        slug = instance.result.table.session.tournament.slug
    except Exception:
        return
    pagecache.changed(slug)


def _penalty_changed(sender, instance, **kwargs) -> None:
    try:
        slug = instance.tournament.slug
    except Exception:
        return
    pagecache.changed(slug)
