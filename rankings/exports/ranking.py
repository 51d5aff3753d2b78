"""Exporters not bound to a tournament: the EMA ranking of one ruleset family."""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from rankings.ema.selectors import RANKED_FAMILIES, ema_ranking_compute, ema_ranking_entries
from rankings.exports.base import RANKING, Cell, Exporter, Text
from rankings.exports.registry import register
from scoring.rules.base import RuleError


@register
class EmaRankingExporter(Exporter):
    """The stored EMA ranking (as the ranking page shows it), or the ranking as of the date ``on``."""

    identifier = "ema-ranking"
    name = gettext_lazy("EMA ranking")
    description = gettext_lazy(
        "The EMA ranking of every player with an EMA number and at least two results that still count, MCR "
        "or riichi: position, change since the previous computation, name, EMA number, country, ranking, "
        "Part A, Part B and the number of results."
    )
    scope = RANKING
    text_columns = frozenset({1, 4})  # change, EMA number

    def __init__(self, *, query: str = "", country: str = "", **kwargs):
        super().__init__(**kwargs)
        self.query = query
        self.country = country

    def filename_stem(self) -> str:
        stem = f"ema-ranking-{self.family}"
        return f"{stem}-{self.on.isoformat()}" if self.on else stem

    def rows(self) -> Iterator[Sequence[Cell]]:
        if self.family not in RANKED_FAMILIES:
            raise RuleError(
                f"the EMA ranks {' and '.join(RANKED_FAMILIES)}; choose one, not '{self.family}'", "family"
            )
        yield [
            _("Position"),
            _("Change"),
            _("First name"),
            _("Last name"),
            _("EMA number"),
            _("Country"),
            _("Ranking"),
            _("Part A"),
            _("Part B"),
            _("Results"),
        ]
        if self.on is None:
            entries = list(ema_ranking_entries(family=self.family, query=self.query, country=self.country))
            self.report(1, 2)
            for e in entries:
                p = e.player
                yield [
                    e.position,
                    Text(_change(e.position, e.previous_position)),
                    p.first_name,
                    p.last_name,
                    Text(e.ema_id),
                    p.country,
                    e.ranking,
                    e.part_a,
                    e.part_b,
                    e.results,
                ]
            return
        lines = ema_ranking_compute(on=self.on)[self.family]
        self.report(1, 2)
        for line in lines:
            p, r = line.player, line.ranking
            yield [
                line.position,
                Text(""),
                p.first_name,
                p.last_name,
                Text(p.ema_id),
                p.country,
                r.ranking,
                r.part_a,
                r.part_b,
                r.counted,
            ]


def _change(position: int, previous: int | None) -> str:
    """The page's change column: "new", "=", "▲3" (three places up) or "▼2" (two places down)."""
    if previous is None:
        return _("new")
    moved = previous - position
    return "=" if moved == 0 else f"▲{moved}" if moved > 0 else f"▼{-moved}"
