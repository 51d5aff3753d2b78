"""Seating engine: who sits where, session by session, for tables of four.

Pure Python (no Django). The public API:

* data: :class:`Player`, :class:`Tournament`, :class:`SeatingSettings`, :class:`SeatingPlan`,
  :class:`QualityReport`, :class:`SeatingError`;
* strategies: :func:`plan_schedule` (whole schedule in advance), :func:`plan_swiss_session`,
  :func:`plan_random_session`, :func:`plan_predefined` / :func:`parse_predefined`,
  :func:`replan_after_withdrawal`;
* tools: :func:`quality_report`, :func:`balance_winds`, :func:`swap_players`,
  :func:`seated_players`, :func:`format_schedule`, :func:`plan_cli` (with
  :func:`read_countries`) behind ``manage.py plan_seating``.
"""

from .models import (
    WINDS,
    Player,
    PlayerId,
    QualityReport,
    SeatingError,
    SeatingPlan,
    SeatingSettings,
    Session,
    Table,
    Tournament,
)
from .predefined import parse_predefined
from .quality import format_schedule, quality_report
from .strategies import (
    balance_winds,
    plan_cli,
    plan_predefined,
    plan_random_session,
    plan_schedule,
    plan_swiss_session,
    read_countries,
    replan_after_withdrawal,
    seated_players,
    swap_players,
)

__all__ = [
    "WINDS",
    "Player",
    "PlayerId",
    "QualityReport",
    "SeatingError",
    "SeatingPlan",
    "SeatingSettings",
    "Session",
    "Table",
    "Tournament",
    "balance_winds",
    "format_schedule",
    "parse_predefined",
    "plan_cli",
    "plan_predefined",
    "plan_random_session",
    "plan_schedule",
    "plan_swiss_session",
    "quality_report",
    "read_countries",
    "replan_after_withdrawal",
    "seated_players",
    "swap_players",
]
