"""Writes of the EMA submission: the observer and the observer's comments, the prizes, the referees and
whether they play, the substitutes' answers. Every value is checked here (a fault raises ``RuleError``
naming the field); the caller has checked that the writer directs the tournament.

A substitute's answer (ERGMT §3.9) is the one record of whether his results count: the check-in before
the first session writes it here too, and the standings rank a substitute who plays from the start and
answered yes. A change of answers therefore sends the domain event (roster); the other facts are the
submission's own and no listener reads them."""

from __future__ import annotations

import re
from typing import Any

from django.db import transaction
from django.db.models import F

from rankings.submission.models import EmaSubmission
from scoring.rules.base import RuleError
from tournaments.models import Registration, Tournament
from tournaments.signals import ROSTER, changed_send

MAX_NAME = 200
MAX_TEXT = 2000  # the observer's comments: a few paragraphs each
MAX_LINES = 50  # referees, prizes
TEXT_FIELDS = ("organisation", "communication", "irregularities", "complaints", "conclusion")
EMA_ID = re.compile(r"^[0-9]{8}$")


def _line(value: Any, path: str, *, limit: int = MAX_NAME) -> str:
    if not isinstance(value, str):
        raise RuleError(f"{path} must be text", path)
    if "\x00" in value:
        raise RuleError(f"{path} must not contain a NUL character", path)
    value = value.strip()
    if len(value) > limit:
        raise RuleError(f"{path} is at most {limit} characters", path)
    return value


def clean_referees(value: Any) -> list[dict]:
    if not isinstance(value, list):
        raise RuleError("referees must be a list of {name, plays}", "referees")
    if len(value) > MAX_LINES:
        raise RuleError(f"at most {MAX_LINES} referees", "referees")
    cleaned = []
    for i, item in enumerate(value):
        path = f"referees[{i}]"
        if not isinstance(item, dict) or set(item) - {"name", "plays"}:
            raise RuleError(f"{path} must be an object with name and plays", path)
        name = _line(item.get("name"), f"{path}.name")
        if not name:
            raise RuleError(f"{path}.name must not be empty", f"{path}.name")
        plays = item.get("plays", False)
        if not isinstance(plays, bool):
            raise RuleError(f"{path}.plays must be true or false", f"{path}.plays")
        cleaned.append({"name": name, "plays": plays})
    return cleaned


def clean_prizes(value: Any) -> list[str]:
    if not isinstance(value, list):
        raise RuleError("prizes must be a list of lines", "prizes")
    if len(value) > MAX_LINES:
        raise RuleError(f"at most {MAX_LINES} prizes", "prizes")
    lines = [_line(v, f"prizes[{i}]") for i, v in enumerate(value)]
    return [line for line in lines if line]


def clean_answers(*, tournament: Tournament, value: Any) -> dict[str, bool]:
    if not isinstance(value, dict):
        raise RuleError(
            "substitute_answers must map a substitute's key to true or false", "substitute_answers"
        )
    substitutes = set(
        Registration.objects.filter(tournament=tournament, is_substitute=True).values_list("key", flat=True)
    )
    cleaned = {}
    for key, answer in value.items():
        path = f"substitute_answers.{key}"[:80]
        if key not in substitutes:
            raise RuleError(f"'{str(key)[:40]}' is not a substitute of this tournament", path)
        if not isinstance(answer, bool):
            raise RuleError("an answer is true (results count) or false", path)
        cleaned[key] = answer
    return dict(sorted(cleaned.items()))


def clean(*, tournament: Tournament, changes: dict[str, Any]) -> dict[str, Any]:
    """The changes checked and normalised; unknown fields are refused."""
    known = {"observer", "observer_ema_id", "referees", "prizes", "substitute_answers", *TEXT_FIELDS}
    unknown = sorted(set(changes) - known)
    if unknown:
        raise RuleError(f"unknown field '{unknown[0]}'", unknown[0])
    cleaned: dict[str, Any] = {}
    for name, value in changes.items():
        if name == "observer":
            cleaned[name] = _line(value, name)
        elif name == "observer_ema_id":
            text = _line(value, name, limit=8)
            if text and not EMA_ID.match(text):
                raise RuleError("an EMA number has exactly 8 digits", name)
            cleaned[name] = text
        elif name == "referees":
            cleaned[name] = clean_referees(value)
        elif name == "prizes":
            cleaned[name] = clean_prizes(value)
        elif name == "substitute_answers":
            cleaned[name] = clean_answers(tournament=tournament, value=value)
        else:
            cleaned[name] = _line(value, name, limit=MAX_TEXT)
    return cleaned


def submission_update(*, tournament: Tournament, changes: dict[str, Any]) -> EmaSubmission:
    """Store the changed facts (only those given) and bump the version."""
    cleaned = clean(tournament=tournament, changes=changes)
    with transaction.atomic():
        submission, _ = EmaSubmission.objects.select_for_update().get_or_create(tournament=tournament)
        answers_before = dict(submission.substitute_answers or {})
        for name, value in cleaned.items():
            setattr(submission, name, value)
        submission.version = F("version") + 1
        submission.save()
        submission.refresh_from_db()
        if dict(submission.substitute_answers or {}) != answers_before:
            changed_send(tournament_id=tournament.pk, what={ROSTER}, slug=tournament.slug)
    return submission


def substitute_answer_set(*, tournament: Tournament, key: str, counts: bool | None) -> EmaSubmission:
    """Record one substitute's answer (``None`` forgets it: not asked yet)."""
    with transaction.atomic():
        submission, _ = EmaSubmission.objects.select_for_update().get_or_create(tournament=tournament)
        answers = dict(submission.substitute_answers or {})
        if counts is None:
            answers.pop(key, None)
            if not Registration.objects.filter(tournament=tournament, is_substitute=True, key=key).exists():
                raise RuleError(f"'{key[:40]}' is not a substitute of this tournament", "key")
        else:
            answers.update(clean_answers(tournament=tournament, value={key: counts}))
        changed = answers != dict(submission.substitute_answers or {})
        submission.substitute_answers = dict(sorted(answers.items()))
        submission.version = F("version") + 1
        submission.save()
        submission.refresh_from_db()
        if changed:
            changed_send(tournament_id=tournament.pk, what={ROSTER}, slug=tournament.slug)
    return submission


def submission_import(*, tournament: Tournament, doc: dict[str, Any]) -> EmaSubmission:
    """The archive's ``ema_submission`` object, checked like any other write (the archive import)."""
    return submission_update(tournament=tournament, changes=doc)
