"""The EMA ranking listens to the domain event (``tournaments.signals.changing``, in the transaction of the
change).

A finished tournament counts; so does a tournament that counted until now (it was reopened, or it was
replaced by an import). When one of them changes its results, roster, settings or status, its input
versions move with the change and the ranking is recomputed once the transaction commits
(:func:`rankings.ema.services.ema_ranking_touch`). A change of players with no tournament (a name, an EMA
number, a country) does the same for every tournament where those players have results. Changes in
tournaments that never counted cost one cheap check, and none when the writer says the tournament is not
finished (``Change.finished``) and its status did not change: only finished tournaments count.
"""

from __future__ import annotations

from django.db.models import Q

from rankings.ema.models import TournamentResult
from rankings.ema.services import ema_ranking_touch
from tournaments.models import Tournament
from tournaments.signals import RESULTS, ROSTER, SETTINGS, STATUS, Change

RANKING_INPUT = frozenset({RESULTS, ROSTER, SETTINGS, STATUS})


def ranking_follows(sender, *, change: Change, **kwargs) -> None:
    if not change.what & RANKING_INPUT:
        return
    touched: set[int] = set()
    if change.tournament_id is not None:
        if change.finished is False and STATUS not in change.what:
            return  # only finished tournaments count; a reopening (a status) took this one out already
        # one read: it counts (finished), or it counted until now (it has stored EMA results)
        counts = (
            Tournament.objects.filter(pk=change.tournament_id)
            .filter(Q(status=Tournament.Status.FINISHED) | Q(ema_state__isnull=False))
            .exists()
        )
        if counts:
            touched.add(change.tournament_id)
    elif change.players:
        touched |= set(
            TournamentResult.objects.filter(player_id__in=change.players).values_list(
                "tournament_id", flat=True
            )
        )
    for tournament_id in sorted(touched):
        ema_ranking_touch(tournament_id=tournament_id)
