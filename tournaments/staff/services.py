"""Writes of staff and accounts: organisers, a tournament's staff, helpers' accounts and their one-time
sign-in links. Keyword-only, typed, atomic."""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission
from django.contrib.auth.tokens import default_token_generator
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Q
from django.urls import reverse
from django.utils import timezone
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_decode, urlsafe_base64_encode
from django.utils.translation import gettext as _

from tournaments import services as base
from tournaments.lifecycle import Blocked
from tournaments.models import Role, Tournament, TournamentRole

User = get_user_model()
STAFF_ROLES = (Role.REFEREE, Role.SCORER, Role.DIRECTOR)


# -- organisers ------------------------------------------------------------------------------------------


def organiser_grant(*, user) -> None:
    """Let ``user`` create tournaments (and become their director)."""
    permission = Permission.objects.get(
        codename="organise_tournaments", content_type__app_label="tournaments"
    )
    user.user_permissions.add(permission)


def organiser_revoke(*, user) -> None:
    permission = Permission.objects.get(
        codename="organise_tournaments", content_type__app_label="tournaments"
    )
    user.user_permissions.remove(permission)


# -- staff -----------------------------------------------------------------------------------------------


def _find_user(identifier: str):
    text = (identifier or "").strip()
    if not text:
        raise ValidationError({"who": _("Give a username or an e-mail address.")})
    users = list(User.objects.filter(Q(username__iexact=text) | Q(email__iexact=text))[:2])
    if not users:
        raise ValidationError({"who": _("Nobody has the username or e-mail %(who)s.") % {"who": text}})
    if len(users) > 1:
        raise ValidationError({"who": _("Several accounts use %(who)s: give the username.") % {"who": text}})
    return users[0]


def staff_add(*, tournament: Tournament, identifier: str, role: str) -> TournamentRole:
    if role not in STAFF_ROLES:
        raise ValidationError({"role": _("Choose director, referee or scorer.")})
    return base.role_grant(tournament=tournament, user=_find_user(identifier), role=role)


@dataclass(frozen=True)
class NewHelper:
    user: Any
    role: str
    password: str = ""  # shown once when a password was generated
    sign_in_path: str = ""  # the one-time sign-in link (path), when one was asked for


def sign_in_path(user) -> str:
    """A one-time sign-in link: the token stops working once the account signs in (its last login
    changes) or its password changes."""
    uid = urlsafe_base64_encode(force_bytes(user.pk))
    return reverse("console-sign-in", args=[uid, default_token_generator.make_token(user)])


def sign_in_link_user(*, uid: str, token: str):
    """The active account a one-time sign-in link names, while the link is still valid; else None."""
    try:
        user = User.objects.get(pk=int(urlsafe_base64_decode(uid).decode()))
    except (ValueError, TypeError, OverflowError, User.DoesNotExist, UnicodeDecodeError):
        return None
    if not user.is_active or not default_token_generator.check_token(user, token):
        return None
    return user


def sign_in_link_use(*, uid: str, token: str):
    """Use a one-time sign-in link: the account it names, to sign in, for exactly one of any number of
    simultaneous requests; None for the others and for a link used before.

    The link is consumed by one conditional update: the account's last login moves on only where it is
    still the one the link was made with (the token hashes it), so two requests that both found the link
    valid cannot both use it."""
    user = sign_in_link_user(uid=uid, token=token)
    if user is None:
        return None
    with transaction.atomic():
        used = User.objects.filter(
            pk=user.pk, is_active=True, password=user.password, last_login=user.last_login
        ).update(last_login=timezone.now())
    return user if used == 1 else None


def staff_create(
    *, tournament: Tournament, username: str, email: str = "", role: str, with_link: bool
) -> NewHelper:
    """Create an account for a helper on the spot, with a one-time sign-in link or a generated password."""
    if role not in STAFF_ROLES:
        raise ValidationError({"role": _("Choose director, referee or scorer.")})
    username = (username or "").strip()
    user = User(username=username, email=(email or "").strip())
    try:
        user.full_clean(exclude=["password"])
    except ValidationError as exc:
        raise ValidationError(dict(exc.message_dict.items())) from None
    password = "" if with_link else secrets.token_urlsafe(9)
    with transaction.atomic():
        if with_link:
            user.set_unusable_password()
        else:
            user.set_password(password)
        user.save()
        base.role_grant(tournament=tournament, user=user, role=role)
    return NewHelper(
        user=user, role=role, password=password, sign_in_path=sign_in_path(user) if with_link else ""
    )


def staff_remove(*, tournament: Tournament, role_id: int, acting_user) -> None:
    with transaction.atomic():
        role = TournamentRole.objects.select_for_update().get(pk=role_id, tournament=tournament)
        if role.role == Role.DIRECTOR:
            directors = TournamentRole.objects.filter(tournament=tournament, role=Role.DIRECTOR).count()
            if directors <= 1:
                raise Blocked([_("A tournament keeps at least one director.")])
        role.delete()
