"""Check-in before a session is seated: who is here, who is absent from this session only (a substitute
plays it) and who withdraws, the substitutes present and the new ones, and before the first session each
substitute's answer to ERGMT §3.9 (the EMA submission's answers). Keyword-only, typed, atomic."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from rankings.submission.models import EmaSubmission
from rankings.submission.services import substitute_answer_set
from tournaments import services as base
from tournaments import signals
from tournaments.lifecycle import Blocked
from tournaments.models import Registration, Session, Tournament
from tournaments.selectors import checkin_first_session
from tournaments.signals import ROSTER, SCHEDULE, changed_send

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
    _absent_choices_check(absent)
    with transaction.atomic(), signals.one_event():
        locked = _lock_for_checkin(session, answers)
        tournament = locked.tournament
        registrations = {
            r.key: r for r in Registration.objects.filter(tournament=tournament).select_related("player")
        }
        present = set(present)
        _checkin_check(locked, registrations, present, absent, substitutes_present)
        away = _absences_record(locked, registrations, absent, report)
        subs = [registrations[k] for k in dict.fromkeys(substitutes_present)]
        subs += _new_substitutes(tournament, new_substitutes)
        _enough_substitutes_check(len(away), len(subs))
        if answers:
            _answers_record(tournament, registrations, answers, report)
        report.substitutes = [s.player.full_name for s in subs]
        locked.checked_in = sorted(present | {s.key for s in subs})
        locked.absent = sorted(away)
        locked.save(update_fields=["checked_in", "absent"])
        report.present = len(locked.checked_in)  # the players and substitutes here, as the page counts them
        changed_send(tournament_id=session.tournament_id, what={ROSTER, SCHEDULE}, sessions=[locked.pk])
    return report


def _absent_choices_check(absent: Mapping[str, str]) -> None:
    unknown = sorted(set(absent.values()) - set(ABSENT_CHOICES))
    if unknown:
        raise ValidationError(
            {
                "absent": _("%(v)s is not one of: %(list)s.")
                % {"v": unknown[0][:40], "list": ", ".join(ABSENT_CHOICES)}
            }
        )


def _lock_for_checkin(session: Session, answers: Mapping[str, bool | None]) -> Session:
    """The session, locked, once it is sure a check-in may be recorded now."""
    locked = Session.objects.select_for_update().select_related("tournament").get(pk=session.pk)
    if locked.tournament.status == Tournament.Status.FINISHED:
        raise Blocked([_("The tournament is finished: reopen it first.")])
    if locked.status != Session.Status.PLANNED or locked.tables.exists():
        raise Blocked(
            [_("Session %(n)s is already seated: check in before seating it.") % {"n": locked.number}]
        )
    if answers and not checkin_first_session(locked):
        raise ValidationError(
            {
                "substitute_answers": _(
                    "A substitute is asked whether the results count before the first session "
                    "(ERGMT §3.9); later, record the answer on the EMA submission page."
                )
            }
        )
    return locked


def _absences_record(
    session: Session,
    registrations: Mapping[str, Registration],
    absent: Mapping[str, str],
    report: CheckinReport,
) -> list[str]:
    """Withdraw the players who leave; the keys of those absent from this session only."""
    away: list[str] = []
    for key, action in absent.items():
        registration = registrations[key]
        if not registration.is_active_in(session.number):
            continue  # withdrawn already: out of this session whatever is sent
        if action == ABSENT_WITHDRAW:
            registration.withdrawn_from = session.number
            registration.save(update_fields=["withdrawn_from"])
            report.withdrawn.append(registration.player.full_name)
        else:
            away.append(key)
            report.absent.append(registration.player.full_name)
    return away


def _new_substitutes(tournament: Tournament, names: Sequence[str]) -> list[Registration]:
    """Register the new substitutes named at check-in ("First Last"; a blank name is skipped)."""
    registered = []
    for name in names:
        first, _sep, last = name.strip().partition(" ")
        if first:
            player = base.player_create(first_name=first, last_name=last)
            registered.append(
                base.registration_create(tournament=tournament, player=player, is_substitute=True)
            )
    return registered


def _enough_substitutes_check(needed: int, here: int) -> None:
    if needed <= here:
        return
    need = ngettext(
        "%(n)s absent player needs a substitute", "%(n)s absent players need a substitute", needed
    ) % {"n": needed}
    have = (
        ngettext("only %(m)s substitute is here", "only %(m)s substitutes are here", here) % {"m": here}
        if here
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


def _answers_record(
    tournament: Tournament,
    registrations: Mapping[str, Registration],
    answers: Mapping[str, bool | None],
    report: CheckinReport,
) -> None:
    """Each substitute's answer to ERGMT §3.9, stored with the EMA submission's where it changed."""
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
