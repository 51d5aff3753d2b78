"""The life of a table's result: the one place that writes ``TableResult.status``.

A result is ``draft`` while the table plays (hands or totals being entered), ``submitted`` when the table
hands it in, ``confirmed`` when a referee (or, where the tournament lets them, the four players) confirms
it; a referee reopens a confirmed result with a reason, back to ``submitted``. A referee may confirm a
draft directly. The steps are in ``RESULT_STEPS``; what a visitor may do in each state, and why not, is the
pure table policy (``scoring.policy``), whose refusals the services raise before they come here.

The services (``scoring.services``) move a result with :func:`result_move` and save it with its version,
its history and its event; the archive import (and so the backup restore) writes the results a document
records with :func:`result_loaded`. The API's and the admin's ``status`` fields are read-only.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping

from django.utils import timezone

from scoring.models import TableResult
from scoring.rules.base import RuleError

DRAFT = TableResult.Status.DRAFT
SUBMITTED = TableResult.Status.SUBMITTED
CONFIRMED = TableResult.Status.CONFIRMED

#: A result's steps: submitted (again after a correction), confirmed (from a draft too), and reopened back
#: to submitted.
RESULT_STEPS: Mapping[str, frozenset[str]] = {
    DRAFT: frozenset({SUBMITTED, CONFIRMED}),
    SUBMITTED: frozenset({SUBMITTED, CONFIRMED}),
    CONFIRMED: frozenset({SUBMITTED}),
}


def step_refusal(current: str, to: str) -> str | None:
    """Why a result cannot go from ``current`` to ``to`` (None: it can)."""
    if to in RESULT_STEPS.get(current, frozenset()):
        return None
    if current == CONFIRMED:
        return "this table is already confirmed"
    if to == CONFIRMED:
        return "the table must be submitted before the players confirm it"
    return "this table is not confirmed"


def result_move(*, result: TableResult, to: str, user=None, at: dt.datetime | None = None) -> TableResult:
    """Move ``result`` (locked by the caller) one step to ``to`` and stamp who and when; the caller saves
    it, with its version, history and event. A step not in ``RESULT_STEPS`` is refused on ``status``."""
    refused = step_refusal(result.status, to)
    if refused is not None:
        raise RuleError(refused, "status")
    at = at or timezone.now()
    if to == SUBMITTED and result.status == CONFIRMED:  # reopened: it stops counting
        result.confirmed_at = None
        result.confirmed_by = None
        result.player_confirmations = []
    elif to == SUBMITTED:
        result.submitted_by = user
        result.submitted_at = at
    elif to == CONFIRMED:
        result.confirmed_by = user
        result.confirmed_at = at
    result.status = to
    return result


def result_loaded(*, table, status: str, user, at: dt.datetime, **fields) -> TableResult:
    """The (unsaved) result of a table as an imported or restored document records it, in ``status``
    (the document was checked as a whole: no step is walked). The caller saves it with the others."""
    if status not in RESULT_STEPS:
        raise RuleError(f"unknown result status {status!r}", "status")
    result = TableResult(table=table, status=status, **fields)
    if status in (SUBMITTED, CONFIRMED):
        result.submitted_by, result.submitted_at = user, at
    if status == CONFIRMED:
        result.confirmed_by, result.confirmed_at = user, at
    return result
