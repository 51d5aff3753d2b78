"""Subscribing a phone, and removing it: only the holder of the link or the account it belongs to.

An owner is resolved from what the request holds (a private link's key, the account signed in) by one of
the ``owner_*`` functions; every read and write of subscriptions goes through an owner, so nobody lists or
removes another's phone.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.http import Http404
from django.utils import timezone
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from notifications import topics as t
from notifications.models import Subscription
from notifications.webpush import endpoint_fault, key_fault
from tournaments.models import Registration, Table, Tournament
from tournaments.permissions import can_manage, can_referee, can_view
from tournaments.signals import SETTINGS, changed_send

WAIT_SETTING = "push_wait_minutes"  # tournament.settings: minutes a submitted table may wait
MAX_PER_OWNER = 10  # phones per link or account and tournament


class PushInputError(ValueError):
    """Bad input: the field and the rule (HTTP 400)."""

    def __init__(self, field: str, message: str):
        super().__init__(f"{field}: {message}")
        self.field = field
        self.message = message


@dataclass(frozen=True)
class Owner:
    tournament: Tournament
    audience: str
    registration: Registration | None = None
    table: Table | None = None
    user: object | None = None

    @property
    def topics(self) -> tuple[str, ...]:
        return {
            Subscription.Audience.PLAYER: t.PLAYER_TOPICS,
            Subscription.Audience.TABLE: t.TABLE_TOPICS,
            Subscription.Audience.STAFF: t.STAFF_TOPICS,
        }[self.audience]

    def lookup(self) -> dict:
        return {
            "tournament": self.tournament,
            "audience": self.audience,
            "registration": self.registration,
            "table": self.table,
            "user": self.user,
        }


def owner_player_link(*, key: str, slug: str) -> Owner:
    """The holder of a player's private link, in one of the player's tournaments."""
    registration = (
        Registration.objects.select_related("tournament", "player")
        .filter(player__private_key=str(key)[:40], tournament__slug=str(slug)[:80])
        .first()
    )
    if registration is None:
        raise Http404("No such player in this tournament.")
    return Owner(registration.tournament, Subscription.Audience.PLAYER, registration=registration)


def owner_player_account(*, user, slug: str, key: str) -> Owner:
    """A player signed in with the account the player's record names, on the player's public page."""
    registration = (
        Registration.objects.select_related("tournament", "player")
        .filter(tournament__slug=str(slug)[:80], key=str(key)[:40])
        .first()
    )
    if registration is None or not can_view(user, registration.tournament):
        raise Http404("No such player in this tournament.")
    if not user.is_authenticated or registration.player.user_id != user.pk:
        raise PermissionDenied(
            "Only the player's own account, or the private link, subscribes for the player."
        )
    return Owner(registration.tournament, Subscription.Audience.PLAYER, registration=registration, user=user)


def owner_table_link(*, key: str) -> Owner:
    table = Table.objects.select_related("session__tournament").filter(private_key=str(key)[:40]).first()
    if table is None:
        raise Http404("No such table.")
    return Owner(table.session.tournament, Subscription.Audience.TABLE, table=table)


def owner_staff(*, user, slug: str) -> Owner:
    tournament = Tournament.objects.filter(slug=str(slug)[:80]).first()
    if tournament is None or not can_view(user, tournament):
        raise Http404("No such tournament.")
    if not can_referee(user, tournament):
        raise PermissionDenied("You need the director or referee role in this tournament.")
    return Owner(tournament, Subscription.Audience.STAFF, user=user)


def _read(owner: Owner, data) -> tuple[str, str, str, list[str]]:
    if not isinstance(data, dict):
        raise PushInputError("subscription", "must be a JSON object")
    endpoint = data.get("endpoint")
    fault = endpoint_fault(endpoint)
    if fault:
        raise PushInputError("endpoint", fault)
    keys = data.get("keys")
    if not isinstance(keys, dict):
        raise PushInputError("keys", "must be an object with p256dh and auth")
    p256dh, auth = keys.get("p256dh"), keys.get("auth")
    fault = key_fault(p256dh, 65)
    if fault:
        raise PushInputError("keys.p256dh", fault)
    fault = key_fault(auth, 16)
    if fault:
        raise PushInputError("keys.auth", fault)
    chosen = data.get("topics")
    if not isinstance(chosen, list) or not chosen or len(chosen) > len(owner.topics):
        raise PushInputError("topics", f"must be a list of one or more of: {', '.join(owner.topics)}")
    if any(topic not in owner.topics for topic in chosen):
        raise PushInputError("topics", f"must be chosen from: {', '.join(owner.topics)}")
    return endpoint, p256dh.rstrip("="), auth.rstrip("="), sorted(set(chosen))


def subscription_save(*, owner: Owner, data) -> Subscription:
    """Subscribe a phone (or change what it is told): in the language the page was shown in."""
    endpoint, p256dh, auth, chosen = _read(owner, data)
    language = (get_language() or "en")[:16]
    with transaction.atomic():
        mine = Subscription.objects.select_for_update().filter(**owner.lookup())
        existing = mine.filter(endpoint=endpoint).first()
        if existing is None and mine.count() >= MAX_PER_OWNER:
            raise PushInputError("endpoint", f"at most {MAX_PER_OWNER} phones per link or account")
        if existing is None:
            # one phone, one owner per tournament: a phone moved to another link is the new link's
            Subscription.objects.filter(tournament=owner.tournament, endpoint=endpoint).delete()
            existing = Subscription(**owner.lookup(), endpoint=endpoint)
        existing.p256dh, existing.auth = p256dh, auth
        existing.topics, existing.language = t.stored(chosen), language
        existing.save()
    return existing


def subscription_remove(*, owner: Owner, pk=None, endpoint: str | None = None) -> int:
    """Remove one of the owner's phones (by its id, or by its endpoint: the phone itself); how many went."""
    mine = Subscription.objects.filter(**owner.lookup())
    if pk is not None:
        if not str(pk).isdigit():
            raise PushInputError("id", "must be a subscription number")
        mine = mine.filter(pk=int(pk))
    elif isinstance(endpoint, str) and 0 < len(endpoint) <= 1024:
        mine = mine.filter(endpoint=endpoint)
    else:
        raise PushInputError("endpoint", "must name the phone's subscription")
    removed, _ = mine.delete()
    return removed


def subscriptions_of(*, owner: Owner) -> list[Subscription]:
    return list(Subscription.objects.filter(**owner.lookup()).order_by("created_at", "pk"))


def gone(*, ids) -> int:
    """Subscriptions the push service answered 404 or 410 for: the phone unsubscribed; they go."""
    removed, _ = Subscription.objects.filter(pk__in=list(ids)).delete()
    return removed


def sent(*, ids) -> None:
    Subscription.objects.filter(pk__in=list(ids)).update(last_sent_at=timezone.now())


def wait_minutes_set(*, tournament: Tournament, user, minutes) -> Tournament:
    """The director's setting: how long a submitted table may wait for confirmation before the staff who
    chose so are told (1 to 240 minutes)."""
    if not can_manage(user, tournament):
        raise PermissionDenied("Only the tournament's directors change this.")
    text = str(minutes).strip()[:4]
    if not text.isdigit() or not 1 <= int(text) <= 240:
        raise PushInputError("minutes", _("Give a whole number of minutes from 1 to 240."))
    with transaction.atomic():
        locked = Tournament.objects.select_for_update().get(pk=tournament.pk)
        locked.settings = {**(locked.settings or {}), WAIT_SETTING: int(text)}
        locked.save(update_fields=["settings"])
        changed_send(tournament_id=locked.pk, what={SETTINGS}, slug=locked.slug)
    tournament.settings = locked.settings
    return locked
