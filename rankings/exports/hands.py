"""Exporters of a tournament's hands: the statistics per player, the best-hand ranking, and the entries
of the register of notable hands that belong to the tournament."""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from rankings.exports.base import Cell, Exporter
from rankings.exports.registry import register
from scoring.tiles.selectors import notable_hands, tournament_statistics
from tournaments.presenters import item_name, item_names, value_label


@register
class HandStatisticsExporter(Exporter):
    identifier = "hand-statistics"
    name = gettext_lazy("Hand statistics")
    description = gettext_lazy(
        "One row per player: hands played, wins, self-drawn, on a discard, deal-ins, draws, average and "
        "biggest hand, riichi rate (riichi)."
    )
    sheet_title = gettext_lazy("Statistics")

    def rows(self) -> Iterator[Sequence[Cell]]:
        stats = tournament_statistics(tournament=self.tournament, everything=True)  # the directors' file
        yield [
            _("Player"),
            _("Name"),
            _("Hands"),
            _("Wins"),
            _("Self-drawn"),
            _("On a discard"),
            _("Deal-ins"),
            _("Draws"),
            _("Average hand"),
            _("Biggest hand"),
            _("Riichi rate"),
        ]
        for p in stats.players:
            yield [
                p.key,
                p.name,
                p.hands,
                p.wins,
                p.self_drawn,
                p.discard_wins,
                p.deal_ins,
                p.draws,
                p.average,
                value_label(p.biggest.label) if p.biggest else None,
                p.riichi_rate if stats.declares_riichi else None,
            ]


@register
class BestHandsExporter(Exporter):
    identifier = "best-hands"
    name = gettext_lazy("Best-hand ranking")
    description = gettext_lazy("Players ranked by their biggest winning hand, with its fan or yaku.")
    sheet_title = gettext_lazy("Best hands")

    def rows(self) -> Iterator[Sequence[Cell]]:
        stats = tournament_statistics(tournament=self.tournament, everything=True)  # the directors' file
        yield [_("Rank"), _("Player"), _("Name"), _("Biggest hand"), _("Fan or yaku")]
        for rank, p in enumerate(stats.best_hand_ranking(), start=1):
            yield [rank, p.key, p.name, value_label(p.biggest.label), item_names(p.biggest.items)]


@register
class NotableHandsExporter(Exporter):
    identifier = "notable-hands"
    name = gettext_lazy("Register of notable hands")
    description = gettext_lazy(
        "The tournament's entries of the register: person, title, value, hand, opponents, date."
    )
    sheet_title = gettext_lazy("Notable hands")

    def rows(self) -> Iterator[Sequence[Cell]]:
        yield [_("Date"), _("Person"), _("Title"), _("Value"), _("Unit"), _("Hand"), _("Opponents")]
        for e in notable_hands(tournament=self.tournament, everything=True):  # the directors' file
            yield [e.date, e.person, e.title, e.value, item_name(e.unit), e.hand_text, e.opponents]
