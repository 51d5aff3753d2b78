"""Penalties as pages show them: what each costs under the ruleset, where it happened, its details."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext as _

from penalties.kinds import kind_of
from penalties.models import Penalty
from scoring.rules.base import Ruleset
from tournaments.fields import plain_number
from tournaments.models import Seat


@dataclass
class PenaltyLine:
    """One penalty as every page shows it (the table page, the penalty list, a player's page, the
    director's dashboard)."""

    penalty: Penalty
    player: str
    key: str
    kind: str  # the code, e.g. "false_hu"
    label: str  # the kind as the reader's language says it
    session: int | None
    table: int | None
    hand: int | None
    where: str  # "S1 T3 H5"
    amount: str  # what it costs as the ruleset computes it: "−10", "out", "warning"
    note: str  # how it is paid
    detail: str
    points: Any  # offender-only deduction as a plain number, or None
    table_points: Any
    cancelled: bool


def penalty_amount(penalty: Penalty, rules: Ruleset, position: int | None = None) -> tuple[str, str]:
    """What the penalty costs, as the ruleset computes it: the amount, and a note on how it is paid."""
    return kind_of(penalty.kind).amount(penalty, rules, position)


def penalty_detail(p: Penalty) -> str:
    return " · ".join(kind_of(p.kind).details(p))


def _penalty_where(p: Penalty) -> str:
    parts = []
    if p.session_id:
        parts.append(_("S%(n)s") % {"n": p.session.number})
    if p.table_id:
        parts.append(_("T%(n)s") % {"n": p.table.number})
    if p.hand_number:
        parts.append(_("H%(n)s") % {"n": p.hand_number})
    return " ".join(parts) or _("tournament")


def penalty_lines(
    *, penalties: Iterable[Penalty], rules: Ruleset, positions: Mapping[tuple[int, int], int] | None = None
) -> list[PenaltyLine]:
    """``positions``: the seat of each (table id, registration id) the penalties name, when the caller
    has read the seats (a table's page); otherwise they are read here."""
    penalties = list(penalties)
    if positions is None:
        positions = {
            (s.table_id, s.registration_id): s.position
            for s in Seat.objects.filter(
                table_id__in={p.table_id for p in penalties if p.table_id},
                registration_id__in={p.registration_id for p in penalties},
            )
        }
    return [
        PenaltyLine(
            penalty=p,
            player=p.registration.player.full_name,
            key=p.registration.key,
            kind=p.kind,
            label=str(p.get_kind_display()),
            session=p.session.number if p.session_id else None,
            table=p.table.number if p.table_id else None,
            hand=p.hand_number,
            where=_penalty_where(p),
            amount=amount,
            note=note,
            detail=penalty_detail(p),
            points=plain_number(p.points) if p.points else None,
            table_points=plain_number(p.table_points) if p.table_points else None,
            cancelled=p.cancelled_at is not None,
        )
        for p in penalties
        for amount, note in [penalty_amount(p, rules, positions.get((p.table_id, p.registration_id)))]
    ]
