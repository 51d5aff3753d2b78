"""Writes of the director's console: opening a tournament, its staff, players, the EMA player list,
check-in, and the life of sessions and of the tournament. Keyword-only, typed, atomic."""

from __future__ import annotations

import csv
import datetime as dt
import io
import secrets
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission
from django.contrib.auth.tokens import default_token_generator
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Q, QuerySet
from django.urls import reverse
from django.utils import timezone
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from tournaments import lifecycle, signals
from tournaments import services as base
from tournaments.console import selectors
from tournaments.console.plan import fold
from tournaments.countries import is_country
from tournaments.models import (
    EMAPlayer,
    Player,
    Registration,
    Role,
    Session,
    Table,
    Tournament,
    TournamentRole,
)
from tournaments.names import ascii_digits, person_key, unsafe_character
from tournaments.selectors import HIDE_SETTING, REVEALED_SETTING  # noqa: F401 (the console's names)
from tournaments.signals import RESULTS, ROSTER, SCHEDULE, changed_send

User = get_user_model()
STAFF_ROLES = (Role.REFEREE, Role.SCORER, Role.DIRECTOR)
MAX_EMA_LIST_BYTES = 5_000_000
MAX_EMA_LIST_ROWS = 50_000
EMA_LIST_CELL_LIMIT = 100


Blocked = lifecycle.Blocked


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


# -- creating and editing a tournament -------------------------------------------------------------------


def unique_slug(name: str) -> str:
    stem = slugify(name)[:60].strip("-") or "tournament"
    slug, n = stem, 2
    while Tournament.objects.filter(slug=slug).exists():
        slug = f"{stem}-{n}"
        n += 1
    return slug


def tournament_open(
    *,
    director,
    name: str,
    ruleset: str,
    starts_on: dt.date,
    days: int = 1,
    city: str = "",
    country: str = "",
    is_public: bool = True,
    rules: Mapping[str, Any] | None = None,
    settings: Mapping[str, Any] | None = None,
    session_starts: Sequence[dt.datetime | None] = (),
    slug: str = "",
) -> Tournament:
    """An organiser opens a tournament: they become its director; one session per start time."""
    with transaction.atomic():
        tournament = base.tournament_create(
            name=name.strip(),
            slug=slug or unique_slug(name),
            ruleset=ruleset,
            starts_on=starts_on,
            days=days,
            rules=dict(rules or {}),
            city=city.strip(),
            country=country,
            is_public=is_public,
            settings=dict(settings or {}),
            director=director,
        )
        for number, start in enumerate(session_starts, start=1):
            Session.objects.create(tournament=tournament, number=number, starts_at=_aware(start))
    return tournament


def _aware(value: dt.datetime | None) -> dt.datetime | None:
    if value is None or timezone.is_aware(value):
        return value
    return timezone.make_aware(value)


def tournament_edit(
    *, tournament: Tournament, fields: Mapping[str, Any], rules: Mapping[str, Any] | None = None
) -> Tournament:
    """Change the tournament's details and rule overrides: the one path of a rules change (the console's
    forms and the API). A change of the rules rewrites the rows of the confirmed tables (they are computed
    again under the new rules); the ruleset itself changes only while no table has results (hands of one
    ruleset mean nothing under another); a finished tournament keeps both until it is reopened."""
    from scoring.models import TableResult

    changes = dict(fields)
    if rules is not None:
        changes["rules"] = dict(rules)
    ruleset_changed = "ruleset" in changes and changes["ruleset"] != tournament.ruleset
    rules_changed = ruleset_changed or ("rules" in changes and changes["rules"] != (tournament.rules or {}))
    with transaction.atomic():
        Tournament.objects.select_for_update().get(pk=tournament.pk)
        if rules_changed:
            lifecycle.tournament_open_check(tournament=tournament)
        if ruleset_changed:
            entered = TableResult.objects.filter(table__session__tournament=tournament).count()
            if entered:
                raise ValidationError(
                    {
                        "ruleset": ngettext(
                            "The ruleset cannot change: %(n)d table already has results under it.",
                            "The ruleset cannot change: %(n)d tables already have results under it.",
                            entered,
                        )
                        % {"n": entered}
                    }
                )
        base.tournament_update(tournament=tournament, **changes)
        if rules_changed:
            confirmed_tables_rewrite(tournament=tournament)
    return tournament


def confirmed_tables_rewrite(*, tournament: Tournament) -> int:
    from scoring.models import TableResult
    from scoring.services import summaries_write

    results = TableResult.objects.filter(
        table__session__tournament=tournament, status=TableResult.Status.CONFIRMED
    ).select_related("table__session__tournament")
    count = 0
    for result in results:
        summaries_write(result=result)
        count += 1
    changed_send(tournament_id=tournament.pk, what={RESULTS})
    return count


def confirmed_table_count(*, tournament: Tournament) -> int:
    from scoring.models import TableResult

    return TableResult.objects.filter(
        table__session__tournament=tournament, status=TableResult.Status.CONFIRMED
    ).count()


def session_times_set(*, tournament: Tournament, starts: Mapping[int, dt.datetime | None]) -> None:
    with transaction.atomic():
        for session in Session.objects.select_for_update().filter(tournament=tournament):
            if session.number in starts and session.starts_at != _aware(starts[session.number]):
                lifecycle.tournament_open_check(tournament=tournament)
                session.starts_at = _aware(starts[session.number])
                session.save(update_fields=["starts_at"])
        changed_send(tournament_id=tournament.pk, what={SCHEDULE})


def session_add(*, tournament: Tournament, starts_at: dt.datetime | None = None) -> Session:
    return base.session_create(tournament=tournament, starts_at=_aware(starts_at))


def session_remove_last(*, tournament: Tournament) -> int:
    """Remove the last session while it has no seating."""
    with transaction.atomic():
        lifecycle.tournament_open_check(tournament=tournament)
        last = Session.objects.select_for_update().filter(tournament=tournament).order_by("-number").first()
        if last is None:
            raise Blocked([_("This tournament has no sessions.")])
        if last.tables.exists() or last.status != Session.Status.PLANNED:
            raise Blocked([_("Session %(n)s is seated: it cannot be removed.") % {"n": last.number}])
        number = last.number
        last.delete()
        changed_send(tournament_id=tournament.pk, what={SCHEDULE})
    return number


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
    from django.utils.http import urlsafe_base64_decode

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


# -- players ---------------------------------------------------------------------------------------------


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
    from penalties.models import Penalty
    from scoring.models import SeatSummary

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


# -- the EMA player list ---------------------------------------------------------------------------------


@dataclass
class EMAListReport:
    created: int = 0
    updated: int = 0
    kept: int = 0  # lines already on the list that the importer may not change
    faults: list[str] = field(default_factory=list)


EMA_HEADERS = {
    "ema_id": ("ema", "ema_id", "ema number", "ema_number", "id", "number"),
    "first_name": ("first_name", "first name", "firstname", "name"),
    "last_name": ("last_name", "last name", "lastname", "surname"),
    "country": ("country", "nationality"),
}


def ema_list_import(*, data: bytes, may_change: bool = True) -> EMAListReport:
    """Import or update the EMA player list from CSV (EMA number, first name, last name, country), with or
    without a header line; all or nothing. The list is shared by every tournament: ``may_change`` False
    (a director, not a site admin) adds new EMA numbers and keeps the lines already known as they are."""
    if len(data) > MAX_EMA_LIST_BYTES:
        raise Blocked([_("The file is larger than 5 MB.")])
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise Blocked([_("The file is not UTF-8 text.")]) from None
    dialect = ";" if text[:2000].count(";") > text[:2000].count(",") else ","
    try:
        rows = list(csv.reader(io.StringIO(text), delimiter=dialect))
    except csv.Error as exc:
        raise Blocked([_("The file cannot be read as CSV: %(error)s.") % {"error": exc}]) from None
    # blank lines before the first one that says something are not lines of the list
    start = next((i for i, row in enumerate(rows) if any(c.strip() for c in row)), len(rows))
    if len(rows) - start > MAX_EMA_LIST_ROWS + 1:
        raise Blocked(
            [_("The list has more than %(limit)s lines (the limit).") % {"limit": f"{MAX_EMA_LIST_ROWS:,}"}]
        )
    order = ["ema_id", "first_name", "last_name", "country"]
    if start < len(rows) and not rows[start][0].strip().isdigit():  # digits of any script: a data line
        header = [fold(c).replace("-", "_") for c in rows[start]]
        order = []
        for cell in header:
            name = next((k for k, names in EMA_HEADERS.items() if cell in names), "")
            order.append(name)
        if "ema_id" not in order or "first_name" not in order:
            raise Blocked([_("The header needs the columns ema_id and first_name.")])
        start += 1
    report = EMAListReport()
    parsed: dict[str, dict[str, str]] = {}
    for line, row in enumerate(rows[start:], start=start + 1):
        if not any(c.strip() for c in row):
            continue
        values = {name: (row[i].strip() if i < len(row) else "") for i, name in enumerate(order) if name}
        unsafe = next(
            ((name, found) for name, v in values.items() if (found := unsafe_character(v)) is not None), None
        )
        if unsafe is not None:
            name, (position, character) = unsafe
            report.faults.append(
                _(
                    "Line %(line)s, %(column)s: %(name)s at character %(position)s; control and "
                    "text-direction characters are not allowed."
                )
                % {"line": line, "column": name, "name": character, "position": position}
            )
            continue
        long = next((name for name, v in values.items() if len(v) > EMA_LIST_CELL_LIMIT), None)
        if long is not None:
            report.faults.append(
                _("Line %(line)s, %(column)s: longer than %(limit)s characters.")
                % {"line": line, "column": long, "limit": EMA_LIST_CELL_LIMIT}
            )
            continue
        ema_id = values.get("ema_id", "")
        if 0 < len(ema_id) < 8 and ascii_digits(ema_id, len(ema_id)):
            ema_id = ema_id.zfill(8)
        if not ascii_digits(ema_id, 8):
            report.faults.append(
                _("Line %(line)s: %(v)s is not an 8-digit EMA number.") % {"line": line, "v": ema_id[:20]}
            )
            continue
        country = values.get("country", "").upper()
        if country and not is_country(country):
            report.faults.append(
                _("Line %(line)s: %(v)s is not a country code.") % {"line": line, "v": country[:20]}
            )
            continue
        if not values.get("first_name"):
            report.faults.append(_("Line %(line)s: the first name is missing.") % {"line": line})
            continue
        parsed[ema_id] = {
            "first_name": values["first_name"][:100],
            "last_name": values.get("last_name", "")[:100],
            "country": country,
        }
        if len(report.faults) > 50:
            break
    if report.faults:
        raise Blocked(report.faults)
    with transaction.atomic():
        known = set(EMAPlayer.objects.filter(ema_id__in=parsed).values_list("ema_id", flat=True))
        for ema_id, values in parsed.items():
            if ema_id in known and not may_change:
                report.kept += 1
                continue
            search = fold(f"{ema_id} {values['first_name']} {values['last_name']}")
            EMAPlayer.objects.update_or_create(ema_id=ema_id, defaults={**values, "search_text": search})
            if ema_id in known:
                report.updated += 1
            else:
                report.created += 1
    return report


# -- check-in --------------------------------------------------------------------------------------------

# What happens to a player who is not here at check-in.
ABSENT_SUBSTITUTE = "substitute"  # absent from this session only: a substitute plays it, the player stays
ABSENT_WITHDRAW = "withdraw"  # withdrawn: leaves the tournament from this session on, listed apart
ABSENT_CHOICES = (ABSENT_SUBSTITUTE, ABSENT_WITHDRAW)


@dataclass
class CheckinReport:
    present: int = 0
    absent: list[str] = field(default_factory=list)  # absent from this session, a substitute plays
    withdrawn: list[str] = field(default_factory=list)
    substitutes: list[str] = field(default_factory=list)
    answers: dict[str, bool] = field(default_factory=dict)  # substitutes' answers recorded here


def _checkin_check(
    session: Session,
    registrations: Mapping[str, Registration],
    present: set[str],
    absent: Mapping[str, str],
    substitutes_present: Iterable[str],
) -> None:
    """Every key of a check-in names someone who can be in that list, or the check-in is refused (400
    naming the list): nothing sent is left out unsaid."""
    for key in sorted(present):
        registration = registrations.get(key)
        if registration is None:
            raise ValidationError(
                {"present": _("%(key)s is not a player of this tournament.") % {"key": key[:40]}}
            )
        if not registration.is_active_in(session.number):
            raise ValidationError(
                {
                    "present": _("%(key)s withdrew before session %(n)s and cannot be checked in.")
                    % {"key": key[:40], "n": registration.withdrawn_from}
                }
            )
    for key in absent:
        registration = registrations.get(key)
        if registration is None:
            raise ValidationError(
                {"absent": _("%(key)s is not a player of this tournament.") % {"key": key[:40]}}
            )
        if registration.is_substitute:
            raise ValidationError(
                {
                    "absent": _(
                        "%(key)s is a substitute: absent lists players; a substitute who is here is "
                        "listed in substitutes_present."
                    )
                    % {"key": key[:40]}
                }
            )
        if key in present:
            raise ValidationError({"absent": _("%(key)s is both present and absent.") % {"key": key[:40]}})
    for key in substitutes_present:
        registration = registrations.get(key)
        if registration is None or not registration.is_substitute:
            raise ValidationError(
                {
                    "substitutes_present": _("%(key)s is not a substitute of this tournament.")
                    % {"key": key[:40]}
                }
            )
        if not registration.is_active_in(session.number):
            raise ValidationError(
                {
                    "substitutes_present": _(
                        "%(key)s withdrew before session %(n)s and cannot be checked in."
                    )
                    % {"key": key[:40], "n": registration.withdrawn_from}
                }
            )


def checkin_apply(
    *,
    session: Session,
    present: Iterable[str],
    absent: Mapping[str, str],
    substitutes_present: Iterable[str] = (),
    new_substitutes: Sequence[str] = (),
    substitute_answers: Mapping[str, bool | None] | None = None,
) -> CheckinReport:
    """Record who is here before ``session`` is seated.

    An absent player is either absent from this session only (``substitute``: a substitute plays it, the
    player stays in the draw for the later sessions and gets nothing for the session missed, MERS-R §4.3)
    or withdrawn (``withdraw``: out of this session and every later one, listed apart from the ranking).
    The substitutes present, and the new ones named here, are registered as substitutes and seated where
    needed. Before the first session, ``substitute_answers`` records each substitute's answer to ERGMT
    §3.9 (``True``: the results count, ranked like a player; ``False``: not ranked; ``None``: not asked),
    the same fact as the EMA submission's answers. One event (roster, schedule) when it commits."""
    report = CheckinReport()
    answers = dict(substitute_answers or {})
    unknown = sorted(set(absent.values()) - set(ABSENT_CHOICES))
    if unknown:
        raise ValidationError(
            {
                "absent": _("%(v)s is not one of: %(list)s.")
                % {"v": unknown[0][:40], "list": ", ".join(ABSENT_CHOICES)}
            }
        )
    with transaction.atomic(), signals.one_event():
        locked = Session.objects.select_for_update().select_related("tournament").get(pk=session.pk)
        tournament = locked.tournament
        if tournament.status == Tournament.Status.FINISHED:
            raise Blocked([_("The tournament is finished: reopen it first.")])
        if locked.status != Session.Status.PLANNED or locked.tables.exists():
            raise Blocked(
                [_("Session %(n)s is already seated: check in before seating it.") % {"n": locked.number}]
            )
        if answers and not selectors.checkin_first_session(locked):
            raise ValidationError(
                {
                    "substitute_answers": _(
                        "A substitute is asked whether the results count before the first session "
                        "(ERGMT §3.9); later, record the answer on the EMA submission page."
                    )
                }
            )
        registrations = {
            r.key: r for r in Registration.objects.filter(tournament=tournament).select_related("player")
        }
        present = set(present)
        _checkin_check(locked, registrations, present, absent, substitutes_present)
        away: list[str] = []
        needed = 0
        for key, action in absent.items():
            registration = registrations[key]
            if not registration.is_active_in(locked.number):
                continue  # withdrawn already: out of this session whatever is sent
            if action == ABSENT_WITHDRAW:
                registration.withdrawn_from = locked.number
                registration.save(update_fields=["withdrawn_from"])
                report.withdrawn.append(registration.player.full_name)
            else:
                away.append(key)
                report.absent.append(registration.player.full_name)
                needed += 1
        subs = [registrations[k] for k in dict.fromkeys(substitutes_present)]
        for name in new_substitutes:
            first, _sep, last = name.strip().partition(" ")
            if first:
                player = base.player_create(first_name=first, last_name=last)
                subs.append(
                    base.registration_create(tournament=tournament, player=player, is_substitute=True)
                )
        if needed > len(subs):
            need = ngettext(
                "%(n)s absent player needs a substitute", "%(n)s absent players need a substitute", needed
            ) % {"n": needed}
            have = (
                ngettext("only %(m)s substitute is here", "only %(m)s substitutes are here", len(subs))
                % {"m": len(subs)}
                if subs
                else _("no substitute is here")
            )
            raise Blocked(
                [
                    _(
                        "%(need)s, but %(have)s: tick the substitutes who are here, name the new ones, "
                        "or mark a player withdrawn."
                    )
                    % {"need": need, "have": have}
                ]
            )
        if answers:
            from rankings.submission.models import EmaSubmission
            from rankings.submission.services import substitute_answer_set

            stored = (
                EmaSubmission.objects.filter(tournament=tournament)
                .values_list("substitute_answers", flat=True)
                .first()
            ) or {}
            for key, counts in sorted(answers.items()):
                if key not in registrations or not registrations[key].is_substitute:
                    raise ValidationError(
                        {
                            "substitute_answers": _("%(key)s is not a substitute of this tournament.")
                            % {"key": key[:40]}
                        }
                    )
                if stored.get(key) is not counts:
                    substitute_answer_set(tournament=tournament, key=key, counts=counts)
                if counts is not None:
                    report.answers[key] = counts
        report.substitutes = [s.player.full_name for s in subs]
        locked.checked_in = sorted(present | {s.key for s in subs})
        locked.absent = sorted(away)
        locked.save(update_fields=["checked_in", "absent"])
        report.present = len(locked.checked_in)  # the players and substitutes here, as the page counts them
        changed_send(tournament_id=session.tournament_id, what={ROSTER, SCHEDULE}, sessions=[locked.pk])
    return report


# -- the life of a session -------------------------------------------------------------------------------


def _out_without_substitute(session: Session, tables: Iterable[Table] | None = None) -> list[str]:
    """Seated players put out of the session (late past the limit) whom no substitute replaced."""
    from penalties.kinds import Replaced
    from penalties.models import Penalty

    penalties = Penalty.objects.filter(session=session, cancelled_at__isnull=True)
    replaced = set(penalties.filter(kind=Replaced.value).values_list("registration_id", flat=True))
    out = (
        penalties.filter(disqualifies=True)
        .exclude(registration_id__in=replaced)
        .select_related("registration__player")
    )
    if tables is not None:
        seated = set(session.seats.filter(table__in=list(tables)).values_list("registration_id", flat=True))
        out = [p for p in out if p.registration_id in seated]
    return [
        _("%(name)s is out of session %(n)s and nobody replaced them.")
        % {"name": p.registration.player.full_name, "n": session.number}
        for p in out
    ]


def session_blockers(*, session: Session) -> list[str]:
    """What keeps ``session`` from finishing."""
    from scoring.models import TableResult

    tables = list(session.tables.order_by("number"))
    if not tables:
        return [_("Session %(n)s is not seated.") % {"n": session.number}]
    confirmed = set(
        TableResult.objects.filter(table__in=tables, status=TableResult.Status.CONFIRMED).values_list(
            "table_id", flat=True
        )
    )
    open_tables = [str(t.number) for t in tables if t.pk not in confirmed]
    reasons = []
    if open_tables:
        reasons.append(_("Tables not confirmed: %(list)s.") % {"list": ", ".join(open_tables)})
    reasons += _out_without_substitute(session)
    return reasons


def session_seat(*, session: Session) -> None:
    """Seat ``session`` with the engine (the whole plan's history counts; Swiss order from session 2 on
    when the tournament's seating settings say so)."""
    from tournaments.seating import selectors as seating_read
    from tournaments.seating import services as seating

    config = seating_read.seating_config(tournament=session.tournament)
    strategy = seating_read.SCHEDULE
    if getattr(config, "strategy", "") in seating_read.STRATEGIES:
        strategy = config.strategy
    seating.seating_generate(tournament=session.tournament, sessions=[session], strategy=strategy)


def session_advance(*, session: Session) -> Session:
    """Planned → seated (the seating is published) → playing → finished, through the lifecycle."""
    from tournaments.seating import services as seating
    from tournaments.seating.engine import SeatingError

    current = Session.objects.select_related("tournament").get(pk=session.pk)
    if current.tournament.status == Tournament.Status.FINISHED:
        raise Blocked([_("The tournament is finished: reopen it first.")])
    if current.status == Session.Status.PLANNED:
        try:
            return seating.seating_publish(session=current)
        except SeatingError as exc:
            raise Blocked(exc.faults) from None
    if current.status == Session.Status.SEATED:
        return lifecycle.session_move(session=current, to=Session.Status.PLAYING)
    if current.status == Session.Status.PLAYING:
        return lifecycle.session_move(
            session=current, to=Session.Status.FINISHED, blockers=session_blockers(session=current)
        )
    raise Blocked([_("Session %(n)s is already finished.") % {"n": current.number}])


def session_reopen(*, session: Session, reason: str = "", user=None) -> Session:
    """One step back where it is safe: finished → playing (with a reason); playing → seated while no table
    has a result or a penalty; seated → planned (seating hidden again) likewise."""
    from penalties.models import Penalty
    from scoring.models import TableResult

    current = Session.objects.select_related("tournament").get(pk=session.pk)
    if current.tournament.status == Tournament.Status.FINISHED:
        raise Blocked([_("The tournament is finished: reopen it first.")])
    status = current.status
    if status == Session.Status.FINISHED:
        return lifecycle.session_move(session=current, to=Session.Status.PLAYING, reason=reason, user=user)
    if status in (Session.Status.PLAYING, Session.Status.SEATED):
        blockers = []
        if (
            TableResult.objects.filter(table__session=current).exists()
            or Penalty.objects.filter(session=current).exists()
        ):
            blockers.append(
                _("Session %(n)s has results or penalties: it stays in play.") % {"n": current.number}
            )
        to = Session.Status.SEATED if status == Session.Status.PLAYING else Session.Status.PLANNED
        return lifecycle.session_move(session=current, to=to, blockers=blockers)
    raise Blocked([_("Session %(n)s has not started.") % {"n": current.number}])


# -- the tournament --------------------------------------------------------------------------------------


tournament_blockers = lifecycle.tournament_blockers


def tournament_finish(*, tournament: Tournament) -> Tournament:
    """Finish the tournament: it counts for the EMA ranking from now on."""
    return lifecycle.tournament_move(tournament=tournament, to=Tournament.Status.FINISHED)


def tournament_reopen(*, tournament: Tournament, reason: str = "", user=None) -> Tournament:
    """Reopen a finished tournament, with a reason: it leaves the EMA ranking until it is finished again,
    and the exports made before are out of date."""
    return lifecycle.tournament_move(
        tournament=tournament, to=Tournament.Status.RUNNING, reason=reason, user=user
    )


def standings_reveal(*, tournament: Tournament, revealed: bool = True) -> Tournament:
    """Show the hidden last sessions' standings to the public (after the prize-giving), or hide them again."""
    with transaction.atomic():
        locked = Tournament.objects.select_for_update().get(pk=tournament.pk)
        settings = dict(locked.settings or {})
        settings[REVEALED_SETTING] = bool(revealed)
        base.tournament_update(tournament=locked, settings=settings)
    tournament.settings = locked.settings
    return locked
