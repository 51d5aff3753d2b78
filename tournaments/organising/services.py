"""Writes of a tournament as a whole: opening it, its details and rules, finishing and reopening it, and the
reveal of the hidden standings. Keyword-only, typed, atomic."""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping, Sequence
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.text import slugify
from django.utils.translation import ngettext

from scoring.models import TableResult
from scoring.services import summaries_write
from tournaments import lifecycle
from tournaments import services as base
from tournaments.models import Session, Tournament
from tournaments.selectors import REVEALED_SETTING
from tournaments.sessions.services import aware
from tournaments.signals import RESULTS, changed_send


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
            Session.objects.create(tournament=tournament, number=number, starts_at=aware(start))
    return tournament


def tournament_edit(
    *, tournament: Tournament, fields: Mapping[str, Any], rules: Mapping[str, Any] | None = None
) -> Tournament:
    """Change the tournament's details and rule overrides: the one path of a rules change (the console's
    forms and the API). A change of the rules rewrites the rows of the confirmed tables (they are computed
    again under the new rules); the ruleset itself changes only while no table has results (hands of one
    ruleset mean nothing under another); a finished tournament keeps both until it is reopened."""
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
    return TableResult.objects.filter(
        table__session__tournament=tournament, status=TableResult.Status.CONFIRMED
    ).count()


# -- the tournament's life ------------------------------------------------------------------------------


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
