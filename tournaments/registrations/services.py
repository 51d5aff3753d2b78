"""Writes of a tournament's registrations: registering a player by hand (and the names that look like a
player already known), editing, reinstating and removing a registration. Keyword-only, typed, atomic."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Q, QuerySet
from django.utils.translation import gettext as _

from penalties.models import Penalty
from scoring.models import SeatSummary
from tournaments import lifecycle
from tournaments import services as base
from tournaments.console.plan import fold
from tournaments.countries import is_country
from tournaments.lifecycle import Blocked
from tournaments.models import Player, Registration, Tournament
from tournaments.names import person_key


def possible_duplicates(
    *,
    tournament: Tournament,
    first_name: str,
    last_name: str,
    ema_id: str | None,
    exclude_registration: Registration | None = None,
    among: QuerySet[Player] | None = None,
) -> list[Player]:
    """Players already known with the same name (ignoring case and accents) or the same EMA number.
    ``among``: the players the caller may see (neither a name nor an EMA number reveals a private
    tournament's player)."""
    name = fold(f"{first_name} {last_name}")
    found: dict[int, Player] = {}
    if ema_id:
        for player in (among if among is not None else Player.objects.all()).filter(ema_id=ema_id):
            found[player.pk] = player
    if name:
        last = fold(last_name).split(" ")[0] if last_name else fold(first_name).split(" ")[0]
        candidates = (
            (among if among is not None else Player.objects.all())
            .filter(Q(last_name__icontains=last[:3]) | Q(first_name__icontains=last[:3]))
            .only("id", "first_name", "last_name", "ema_id", "country", "club")[:2000]
        )
        for player in candidates:
            if fold(player.full_name) == name:
                found[player.pk] = player
    if exclude_registration is not None:
        found.pop(exclude_registration.player_id, None)
    return sorted(found.values(), key=lambda p: (person_key(p), p.pk))


def player_register(
    *,
    tournament: Tournament,
    first_name: str = "",
    last_name: str = "",
    ema_id: str | None = None,
    country: str = "",
    club: str = "",
    is_substitute: bool = False,
    existing: Player | None = None,
    user=None,
) -> Registration:
    """Register one player by hand: ``existing`` (a known player) or a new player from the fields. A
    player known by the EMA number is registered, not duplicated. ``user`` (the caller; None: the
    server's operator) registers only players he may see: another organiser's private player, chosen by
    id or by EMA number, is refused (400 on ``same_player`` or ``ema_id``) and left as he was."""
    with transaction.atomic():
        Tournament.objects.select_for_update().get(pk=tournament.pk)
        lifecycle.tournament_open_check(tournament=tournament)
        ema_id = (ema_id or "").strip() or None
        if existing is not None and base.players_hidden(ids=[existing.pk], user=user):
            raise base.player_hidden_error(field="same_player")
        if existing is None and ema_id:
            existing = Player.objects.filter(ema_id=ema_id).first()
            if existing is not None and base.players_hidden(ids=[existing.pk], user=user):
                raise base.player_hidden_error(field="ema_id", ema_id=ema_id)
        if existing is not None:
            player = existing
        else:
            if country and not is_country(country):
                raise ValidationError({"country": _("%(c)s is not a country code.") % {"c": country}})
            player = base.player_create(
                first_name=first_name, last_name=last_name, ema_id=ema_id, country=country, club=club
            )
        if Registration.objects.filter(tournament=tournament, player=player).exists():
            raise ValidationError(
                {"first_name": _("%(name)s is already registered.") % {"name": player.full_name}}
            )
        return base.registration_create(tournament=tournament, player=player, is_substitute=is_substitute)


def registration_edit(
    *,
    registration: Registration,
    first_name: str,
    last_name: str,
    ema_id: str | None,
    country: str,
    club: str,
    is_substitute: bool,
) -> Registration:
    with transaction.atomic():
        lifecycle.tournament_open_check(tournament=registration.tournament_id)
        player = Player.objects.select_for_update().get(pk=registration.player_id)
        player.first_name = first_name.strip()
        player.last_name = (last_name or "").strip()
        player.ema_id = (ema_id or "").strip() or None
        player.country = (country or "").strip().upper()
        player.club = (club or "").strip()
        player.full_clean()
        player.save()
        registration.is_substitute = is_substitute
        registration.save(update_fields=["is_substitute"])
        base.player_changed(player=player)
    return registration


def registration_reinstate(*, registration: Registration) -> Registration:
    lifecycle.tournament_open_check(tournament=registration.tournament_id)
    registration.withdrawn_from = None
    registration.save(update_fields=["withdrawn_from"])
    base.roster_changed(tournament_id=registration.tournament_id, players=[registration.player_id])
    return registration


def registration_remove(*, registration: Registration) -> None:
    """Remove a registration that has no seat, no result and no penalty."""
    with transaction.atomic():
        locked = Registration.objects.select_for_update().get(pk=registration.pk)
        lifecycle.tournament_open_check(tournament=locked.tournament_id)
        blockers = []
        if locked.seats.exists():
            blockers.append(_("%(name)s has a seat in a session.") % {"name": locked.player.full_name})
        if SeatSummary.objects.filter(registration=locked).exists():
            blockers.append(_("%(name)s has results.") % {"name": locked.player.full_name})
        if Penalty.objects.filter(Q(registration=locked) | Q(substitute=locked)).exists():
            blockers.append(_("%(name)s has penalties or substitutions.") % {"name": locked.player.full_name})
        if blockers:
            raise Blocked([*blockers, _("Withdraw the player instead.")])
        tournament_id = locked.tournament_id
        locked.delete()
        base.roster_changed(tournament_id=tournament_id)
