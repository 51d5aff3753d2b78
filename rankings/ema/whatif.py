"""What a result would do to a player's EMA ranking: "if I play a tournament of this weight and players and
finish in this place".

Pure Python: no Django import. The ranking with the hypothetical results is computed by the ranking's own
engine (:func:`rankings.ema.engine.ema_ranking`), from the player's results and the hypothetical ones, on
the date of the hypothetical tournaments (their last day): the results that count, those that drop out of
Part A or Part B, and those that age (a year or two past their tournament) are the engine's.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date
from fractions import Fraction

from rankings.ema.engine import EmaRanking, EmaResult, ageing, base_rank, ema_ranking, tournament_weight

#: the most hypothetical results one question may hold
MAX_RESULTS = 3
HYPOTHETICAL = "what-if:"  # the ``tournament`` label of a hypothetical result starts so


@dataclass(frozen=True)
class Hypothesis:
    """A tournament the player might play and the place he might finish in."""

    players: int
    place: int
    days: int = 2
    countries: int = 1
    qualifier: bool = False  # qualifies for a European championship (weight + 1)
    given_weight: Fraction | None = None  # the weight itself, when known (else from days, players, countries)

    @property
    def weight(self) -> Fraction:
        if self.given_weight is not None:
            return Fraction(self.given_weight)
        return tournament_weight(
            days=self.days, players=self.players, countries=self.countries, european_qualifier=self.qualifier
        )

    @property
    def base_rank(self) -> int:
        return base_rank(self.place, self.players)


@dataclass(frozen=True)
class Change:
    """One of the player's results, before and after: counted in Part A and B, and its aged weight."""

    result: EmaResult
    hypothetical: bool
    before_a: bool
    before_b: bool
    after_a: bool
    after_b: bool
    ageing_before: Fraction
    ageing_after: Fraction

    @property
    def changed(self) -> bool:
        return (self.before_a, self.before_b, self.ageing_before) != (
            self.after_a,
            self.after_b,
            self.ageing_after,
        )


@dataclass(frozen=True)
class WhatIf:
    before: EmaRanking  # on the ranking's date, as it stands
    after: EmaRanking  # on the hypothetical tournaments' last day, with them
    changes: tuple[Change, ...]  # every result that counts before or after, best after first


def what_if(
    results: Sequence[EmaResult], hypotheses: Sequence[Hypothesis], *, ruleset: str, on: date, ended_on: date
) -> WhatIf:
    """The player's ranking on ``on`` and on ``ended_on`` (not before ``on``) with ``hypotheses`` added,
    each a tournament of ``ruleset`` ending on ``ended_on``."""
    if len(hypotheses) > MAX_RESULTS:
        raise ValueError(f"at most {MAX_RESULTS} hypothetical results")
    if ended_on < on:
        raise ValueError("a hypothetical tournament ends on or after the ranking's date")
    own = [r for r in results if r.ruleset == ruleset]
    added = [
        EmaResult(
            base_rank=h.base_rank,
            weight=h.weight,
            ended_on=ended_on,
            ruleset=ruleset,
            tournament=f"{HYPOTHETICAL}{i}",
        )
        for i, h in enumerate(hypotheses, start=1)
    ]
    before = ema_ranking(own, ruleset=ruleset, on=on)
    after = ema_ranking([*own, *added], ruleset=ruleset, on=ended_on)

    def members(ranking: EmaRanking, part: str) -> set[int]:
        chosen = ranking.part_a_results if part == "a" else ranking.part_b_results
        return {id(c.result) for c in chosen if c.result is not None}

    a0, b0, a1, b1 = members(before, "a"), members(before, "b"), members(after, "a"), members(after, "b")
    order = {id(c.result): i for i, c in enumerate(after.part_a_results) if c.result is not None}
    changes = []
    for result in [*own, *added]:
        hypothetical = any(result is h for h in added)
        share_before = Fraction(0) if hypothetical else ageing(result.ended_on, on)
        share_after = ageing(result.ended_on, ended_on)
        if not share_before and not share_after:
            continue
        changes.append(
            Change(
                result=result,
                hypothetical=hypothetical,
                before_a=id(result) in a0,
                before_b=id(result) in b0,
                after_a=id(result) in a1,
                after_b=id(result) in b1,
                ageing_before=share_before,
                ageing_after=share_after,
            )
        )
    changes.sort(key=lambda c: (order.get(id(c.result), len(order)), -c.result.ended_on.toordinal()))
    return WhatIf(before=before, after=after, changes=tuple(changes))
