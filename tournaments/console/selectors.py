"""Reads of the director's console: a person's tournaments, the EMA player list, hidden standings."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Count, Q, QuerySet

from rankings.submission.models import EmaSubmission
from tournaments import selectors as core_selectors
from tournaments.console.plan import fold
from tournaments.models import EMAPlayer, Registration, Role, Session, Tournament, TournamentRole
from tournaments.names import person_key


@dataclass(frozen=True)
class MyTournament:
    tournament: Tournament
    roles: list[str]
    players: int
    # The session whose tables a referee or scorer works on now (None: nothing seated yet, or director only)
    tables_session: int | None = None


def my_tournaments(*, user) -> list[MyTournament]:
    """The tournaments a person directs, referees or scores, newest first."""
    if not user.is_authenticated:
        return []
    roles: dict[int, list[str]] = {}
    for tournament_id, role in TournamentRole.objects.filter(user=user).values_list("tournament_id", "role"):
        roles.setdefault(tournament_id, []).append(role)
    tournaments = Tournament.objects.filter(pk__in=roles).annotate(
        n=Count("registrations", filter=Q(registrations__is_substitute=False))
    )
    order = {Role.DIRECTOR: 0, Role.REFEREE: 1, Role.SCORER: 2}
    staffed = [pk for pk, mine in roles.items() if Role.REFEREE in mine or Role.SCORER in mine]
    working = tables_sessions(tournament_ids=staffed)
    return [
        MyTournament(t, sorted(roles[t.pk], key=lambda r: order.get(r, 9)), t.n, working.get(t.pk))
        for t in tournaments.order_by("-starts_on", "name")
    ]


def tables_sessions(*, tournament_ids: list[int]) -> dict[int, int]:
    """Per tournament, the number of the session whose tables its referees work on: the first one being
    played; else the first seated one; else the last finished one (its tables stay open to corrections).
    A tournament with no seated session yet has none. One query."""
    rank = {Session.Status.PLAYING: 0, Session.Status.SEATED: 1, Session.Status.FINISHED: 2}
    best: dict[int, tuple[int, int]] = {}
    rows = Session.objects.filter(tournament_id__in=tournament_ids).exclude(status=Session.Status.PLANNED)
    for tournament_id, number, status in rows.values_list("tournament_id", "number", "status"):
        key = (rank[status], -number if status == Session.Status.FINISHED else number)
        if tournament_id not in best or key < best[tournament_id]:
            best[tournament_id] = key
    return {pk: abs(key[1]) for pk, key in best.items()}


def ema_list_search(*, query: str, limit: int = 10) -> QuerySet[EMAPlayer]:
    """EMA list lines whose number starts with, or whose name holds, every word typed (ignoring case and
    accents)."""
    words = fold(query).split()[:4]
    if not words:
        return EMAPlayer.objects.none()
    qs = EMAPlayer.objects.all()
    for word in words:
        qs = qs.filter(Q(ema_id__startswith=word) if word.isdigit() else Q(search_text__contains=word[:40]))
    return sorted(
        qs.order_by("last_name", "first_name")[:limit], key=lambda line: (person_key(line), line.ema_id)
    )


def registered_ema_ids(*, tournament: Tournament) -> set[str]:
    return set(
        Registration.objects.filter(tournament=tournament, player__ema_id__isnull=False).values_list(
            "player__ema_id", flat=True
        )
    )


# -- standings hidden for the last sessions --------------------------------------------------------------


# the rule lives in the tournaments core (every channel asks it); these names are the console's
hidden_after = core_selectors.hidden_after
sees_hidden = core_selectors.sees_hidden


def substitute_answers(*, tournament: Tournament) -> dict[str, bool]:
    """Each substitute's recorded answer to ERGMT §3.9 (key → whether his results count): the one record,
    kept with the EMA submission, that check-in and the submission page both show and write."""

    stored = (
        EmaSubmission.objects.filter(tournament=tournament)
        .values_list("substitute_answers", flat=True)
        .first()
    )
    return {k: v for k, v in (stored or {}).items() if isinstance(v, bool)}
