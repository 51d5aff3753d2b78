"""Reads of the tournaments app."""

from __future__ import annotations

from django.db.models import Count, Q, QuerySet
from django.shortcuts import get_object_or_404

from tournaments import pagecache
from tournaments.models import Player, Registration, Role, Session, Tournament
from tournaments.names import person_key
from tournaments.permissions import can_view, is_any_director, user_roles

# settings of a tournament whose last sessions are hidden for the prize-giving (the console sets them)
HIDE_SETTING = "hide_last_sessions"
REVEALED_SETTING = "standings_revealed"


def hidden_after(*, tournament: Tournament) -> int | None:
    """The last session whose results the public sees while the last sessions are hidden; None when
    nothing is hidden (no setting, or the standings were revealed)."""
    settings = tournament.settings or {}
    try:
        hide = int(settings.get(HIDE_SETTING) or 0)
    except (TypeError, ValueError):
        return None
    if hide <= 0 or settings.get(REVEALED_SETTING):
        return None
    total = Session.objects.filter(tournament=tournament).count()
    return max(total - hide, 0)


def sees_hidden(*, user, tournament: Tournament) -> bool:
    """Directors and referees see the hidden sessions (they run them); nobody else does."""
    return user is not None and bool(user_roles(user, tournament) & {Role.DIRECTOR, Role.REFEREE})


def visible_through(*, tournament: Tournament, user=None) -> int | None:
    """The last session whose results ``user`` (None: the public, a projector) may see; None: all of
    them. Every channel that shows results (pages, API, venue screen, statistics) asks this."""
    last = hidden_after(tournament=tournament)
    if last is None or sees_hidden(user=user, tournament=tournament):
        return None
    return last


def tournament_list_visible(*, user) -> QuerySet[Tournament]:
    qs = Tournament.objects.annotate(
        player_count=Count("registrations", filter=Q(registrations__is_substitute=False), distinct=True)
    )
    if user.is_authenticated and user.is_superuser:
        return qs
    if user.is_authenticated:
        return qs.filter(Q(is_public=True) | Q(roles__user=user)).distinct()
    return qs.filter(is_public=True)


def tournament_get_visible(*, slug: str, user) -> Tournament:
    from django.http import Http404

    tournament = get_object_or_404(Tournament, slug=slug)
    if not can_view(user, tournament):
        raise Http404("No such tournament.")
    return tournament


def players_visible(*, user) -> QuerySet[Player]:
    """Players ``user`` may see: those who play in a tournament the user may see. Directors also see the
    players registered nowhere yet (to register them); staff see everyone. Every door that finds or
    reuses a player (by id, EMA number, name or archive) looks among these only."""
    qs = Player.objects.all()
    if user is not None and user.is_authenticated and (user.is_staff or user.is_superuser):
        return qs
    visible = Q(registrations__tournament__is_public=True)
    if user is not None and user.is_authenticated:
        visible |= Q(registrations__tournament__roles__user=user)
        if is_any_director(user):
            visible |= Q(registrations__isnull=True)
    return qs.filter(pk__in=qs.filter(visible).values("pk"))


def registration_list(*, tournament: Tournament) -> list[Registration]:
    """The registrations by name (tournaments.names: folded surname, then first name)."""
    registrations = Registration.objects.filter(tournament=tournament).select_related("player")
    return sorted(registrations, key=lambda r: (person_key(r.player), r.pk))


def session_list(*, tournament: Tournament) -> QuerySet[Session]:
    return (
        Session.objects.filter(tournament=tournament).annotate(table_count=Count("tables")).order_by("number")
    )


def next_session(*, tournament: Tournament) -> Session | None:
    return (
        Session.objects.filter(tournament=tournament)
        .exclude(status=Session.Status.FINISHED)
        .order_by("number")
        .first()
    )


def absent_sessions(*, registration: Registration) -> list[int]:
    """The sessions ``registration`` missed as checked in absent (a substitute played them): one query."""
    rows = Session.objects.filter(tournament_id=registration.tournament_id).exclude(absent=[])
    return [
        number
        for number, absent in rows.values_list("number", "absent")
        if registration.key in (absent or ())
    ]


LIVE_MAX_TOURNAMENTS = 20  # the tournaments one page follows (a player's private page lists theirs)


def live_stamp(*, slugs: list[str], user, tournaments: list[Tournament] | None = None) -> str:
    """What a page that follows ``slugs`` compares to know whether to fetch itself again: the publication
    stamps of those tournaments (changed by every write their public pages show), "-" for a tournament
    this visitor may not see or that does not exist. One query, none when the page passes the
    ``tournaments`` it shows; the stamps come from the cache."""
    slugs = [slug for slug in slugs[:LIVE_MAX_TOURNAMENTS] if slug]
    if tournaments is None:
        tournaments = list(Tournament.objects.filter(slug__in=slugs))
    found = {t.slug: t for t in tournaments}
    return ".".join(
        pagecache.stamp(slug) if slug in found and can_view(user, found[slug]) else "-" for slug in slugs
    )


def checkin_first_session(session: Session) -> bool:
    """Check-in before the tournament's first session: the moment ERGMT §3.9 asks a substitute who plays
    from the start whether his results count."""
    first = Session.objects.filter(tournament_id=session.tournament_id).order_by("number").first()
    return first is not None and first.pk == session.pk
