"""Exporters of one tournament: EMA results file, standings, seating, penalties, chombos, archive.

Headers and labels follow the active language, except the EMA results file, whose header is the
EMA's own (English) so that the ranking office reads it as it is.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from fractions import Fraction
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from penalties.kinds import Chombo, kind_of
from penalties.models import Penalty
from rankings.archive import archive_export
from rankings.ema.engine import EmaPlayer, ema_results_rows
from rankings.exports.base import JSON, Cell, Exporter, Text
from rankings.exports.registry import register
from rankings.standings.engine import Standings
from rankings.standings.selectors import standings_view
from scoring.models import Hand
from scoring.rules.base import RuleError
from tournaments.models import EMAPlayer, Registration, Seat
from tournaments.presenters import wind_letter


def _standings(tournament) -> Standings:
    return standings_view(tournament=tournament)


def _registrations(tournament) -> dict[str, Registration]:
    return {r.key: r for r in Registration.objects.filter(tournament=tournament).select_related("player")}


def ema_players(registrations: dict[str, Registration]) -> dict[str, EmaPlayer]:
    """What the EMA results file says about each player.

    "EMA member" is said only when it is known: with the EMA player list loaded (the console's "EMA player
    list"), "Yes" for a player whose EMA number is on it, "No" otherwise; with no list, the cell is empty
    (the product keeps no other membership record, and an EMA number alone does not say the player's
    membership is current).
    """
    listed: set[str] | None = None
    if EMAPlayer.objects.exists():
        numbers = {r.player.ema_id for r in registrations.values() if r.player.ema_id}
        listed = set(EMAPlayer.objects.filter(ema_id__in=numbers).values_list("ema_id", flat=True))
    return {
        key: EmaPlayer(
            player=key,
            first_name=r.player.first_name,
            last_name=r.player.last_name,
            ema_id=r.player.ema_id or "",
            ema_member=None if listed is None else (r.player.ema_id or "") in listed,
            country=r.player.country,
        )
        for key, r in registrations.items()
    }


@register
class EmaResultsExporter(Exporter):
    identifier = "ema-results"
    name = gettext_lazy("EMA results file")
    description = gettext_lazy(
        "One row per player for the EMA ranking: place (shared by tied players), name, EMA number, "
        "table points, score, EMA member, country. Players without an EMA number are listed too."
    )
    text_columns = frozenset({3})  # EMA number
    sheet_title = "EMA results"

    def rows(self) -> Iterator[Sequence[Cell]]:
        standings = _standings(self.tournament)
        self.report(1, 3)
        players = ema_players(_registrations(self.tournament))
        self.report(2, 3)
        table = ema_results_rows(standings, players)
        yield table[0]
        for row in table[1:]:
            row[3] = Text(row[3])
            yield row
        self.report(3, 3)


def _last_column(rules) -> str:
    """The heading of a session's value (``Ruleset.session_value``)."""
    labels = {"table_points": _("S%(n)s table points"), "uma": _("S%(n)s uma"), "final": _("S%(n)s points")}
    return labels[rules.session_value]


@register
class StandingsExporter(Exporter):
    identifier = "standings"
    name = gettext_lazy("Standings")
    description = gettext_lazy(
        "Full standings: rank, name, table points, score, penalties and sessions, then every "
        "session's table, wind, game score and table points (riichi: uma)."
    )

    def rows(self) -> Iterator[Sequence[Cell]]:
        standings = _standings(self.tournament)
        rules = self.tournament.get_rules()
        self.report(1, 4)
        sessions = sorted({r.session for row in standings.listed for r in row.breakdown})
        header: list[Cell] = [
            _("Rank"),
            _("Name"),
            _("Key"),
            _("Table points"),
            _("Score"),
            _("Penalties"),
            _("Sessions"),
            _("Disqualified"),
        ]
        for number in sessions:
            header += [
                _("S%(n)s table") % {"n": number},
                _("S%(n)s wind") % {"n": number},
                _("S%(n)s game score") % {"n": number},
                _last_column(rules) % {"n": number},
            ]
        yield header
        total = len(standings.listed)
        for i, row in enumerate(standings.listed, start=1):
            cells: list[Cell] = [
                row.rank
                if row.withdrawn_from is None
                else _("withdrawn from session %(n)s") % {"n": row.withdrawn_from},
                row.name,
                row.player,
                row.table_points,
                row.score,
                row.penalties,
                row.sessions,
                _("Yes") if row.disqualified else "",
            ]
            by_session = {r.session: r for r in row.breakdown}
            for number in sessions:
                r = by_session.get(number)
                if r is None:
                    cells += [None, None, None, None]
                    continue
                value = {"table_points": r.table_points, "uma": r.uma, "final": r.final}[rules.session_value]
                cells += [r.table, wind_letter(r.seat_wind), Fraction(r.game_score), value]  # Spanish: O
            yield cells
            self.report(1 + 3 * i // max(total, 1), 4)


@register
class TeamStandingsExporter(Exporter):
    identifier = "team-standings"
    name = gettext_lazy("Team standings")
    description = gettext_lazy(
        "Team events: rank, team, table points and score (the sums of the members'), and the members."
    )

    @classmethod
    def available_for(cls, tournament) -> bool:
        return tournament.teams.exists()

    def rows(self) -> Iterator[Sequence[Cell]]:
        standings = _standings(self.tournament)
        names = {row.player: row.name for row in standings.rows}
        self.report(1, 2)
        yield [_("Rank"), _("Team"), _("Table points"), _("Score"), _("Members"), _("Keys")]
        for team in standings.teams:
            yield [
                team.rank,
                team.name,
                team.table_points,
                team.score,
                ", ".join(names.get(k, k) for k in team.members),
                " ".join(team.members),
            ]
        self.report(2, 2)


@register
class SeatingExporter(Exporter):
    identifier = "seating"
    name = gettext_lazy("Seating")
    description = gettext_lazy("Every session's tables with the East, South, West and North players.")

    def rows(self) -> Iterator[Sequence[Cell]]:
        yield [_("Session"), _("Table"), _("East"), _("South"), _("West"), _("North")]
        seats = (
            Seat.objects.filter(session__tournament=self.tournament)
            .select_related("session", "table", "registration__player")
            .order_by("session__number", "table__number", "position")
        )
        tables: dict[tuple[int, int], list[str]] = {}
        for seat in seats:
            names = tables.setdefault((seat.session.number, seat.table.number), [""] * 4)
            names[seat.position] = seat.registration.player.full_name
        for (session, table), names in tables.items():
            yield [session, table, *names]


def _penalty_amount(penalty: Penalty, rules) -> Cell:
    return kind_of(penalty.kind).export_amount(penalty, rules)


def _penalty_details(penalty: Penalty) -> str:
    return kind_of(penalty.kind).export_details(penalty)


def _user(user) -> str:
    if user is None:
        return ""
    return user.get_full_name() or user.get_username()


@register
class PenaltiesExporter(Exporter):
    identifier = "penalties"
    name = gettext_lazy("Penalties")
    description = gettext_lazy(
        "Every penalty in the order it was recorded, cancelled ones included: session, table, hand, "
        "player, kind, amount, reason, who recorded it and when, cancellation, appeal and decision."
    )

    def rows(self) -> Iterator[Sequence[Cell]]:
        yield [
            _("Order"),
            _("Session"),
            _("Table"),
            _("Hand"),
            _("Player"),
            _("Key"),
            _("Kind"),
            _("Details"),
            _("Amount"),
            _("Table points"),
            _("Reason"),
            _("Recorded by"),
            _("Recorded at"),
            _("Cancelled at"),
            _("Cancelled by"),
            _("Cancel reason"),
            _("Appeal"),
            _("Appeal decision"),
        ]
        rules = self.tournament.get_rules()
        penalties = (
            Penalty.objects.filter(tournament=self.tournament)
            .select_related(
                "session",
                "table",
                "registration__player",
                "substitute__player",
                "recorded_by",
                "cancelled_by",
            )
            .order_by("sequence")
        )
        for p in penalties:
            yield [
                p.sequence,
                p.session.number if p.session else None,
                p.table.number if p.table else None,
                p.hand_number,
                p.registration.player.full_name,
                p.registration.key,
                str(p.get_kind_display()),
                _penalty_details(p),
                _penalty_amount(p, rules),
                p.table_points,
                p.reason,
                _user(p.recorded_by),
                p.recorded_at,
                p.cancelled_at,
                _user(p.cancelled_by),
                p.cancel_reason,
                p.appeal,
                p.appeal_decision,
            ]


@register
class ChombosExporter(Exporter):
    identifier = "chombos"
    name = gettext_lazy("Chombos")
    description = gettext_lazy(
        "Riichi: every chombo, recorded as a hand or as a penalty, with session, table, player and amount."
    )

    @classmethod
    def available_for(cls, tournament) -> bool:
        return tournament.get_rules().has_chombo

    def rows(self) -> Iterator[Sequence[Cell]]:
        if not self.available_for(self.tournament):
            raise RuleError("the chombo list exists for riichi tournaments only", "exporter")
        yield [_("Session"), _("Table"), _("Hand"), _("Player"), _("Key"), _("Recorded as"), _("Amount")]
        amount = self.tournament.get_rules().chombo_points()
        seats = list(
            Seat.objects.filter(session__tournament=self.tournament).select_related(
                "registration__player", "table"
            )
        )
        seated = {(s.table_id, s.position): s.registration for s in seats}
        table_of = {(s.session_id, s.registration_id): s.table.number for s in seats}
        found: list[tuple[Any, ...]] = []
        hands = Hand.objects.filter(
            result__table__session__tournament=self.tournament, data__result="chombo"
        ).select_related("result__table__session")
        for hand in hands:
            table = hand.result.table
            registration = seated.get((table.pk, hand.data.get("player")))
            found.append((table.session.number, table.number, hand.number, registration, _("hand")))
        penalties = Penalty.objects.filter(
            tournament=self.tournament, kind=Chombo.value, cancelled_at__isnull=True
        ).select_related("session", "table", "registration__player")
        for p in penalties:
            table = p.table.number if p.table else table_of.get((p.session_id, p.registration_id))
            found.append(
                (p.session.number if p.session else 0, table, p.hand_number, p.registration, _("penalty"))
            )
        found.sort(key=lambda f: (f[0], f[1] or 0, f[2] or 0))
        for session, table, hand, registration, recorded_as in found:
            yield [
                session,
                table,
                hand,
                registration.player.full_name if registration else "",
                registration.key if registration else "",
                recorded_as,
                amount,
            ]


@register
class ArchiveExporter(Exporter):
    identifier = "archive"
    name = gettext_lazy("Tournament archive")
    description = gettext_lazy(
        "The whole tournament as one JSON document (rules, players, seating, hands, totals, penalties): "
        "a backup that can be imported again."
    )
    formats = (JSON,)

    def document(self) -> dict:
        return archive_export(tournament=self.tournament)
