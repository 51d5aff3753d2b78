"""Pages of the tournaments app: thin views over selectors and services."""

from __future__ import annotations

import contextlib

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.cache import cache
from django.http import Http404, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.utils.safestring import mark_safe
from django.utils.translation import get_language

from penalties.presenters import penalty_lines
from penalties.selectors import recent_penalties
from rankings.models import PlayerImportJob
from rankings.player_jobs import job_progress, player_import_start
from rankings.standings import selectors as rk
from rankings.standings.needs_selectors import needs_table
from rankings.standings.views import TIEBREAK_LABELS, TiebreakForm
from rankings.standings.views import _by_table_points as by_table_points
from scoring.presenters import needs_referee
from scoring.selectors import session_tables
from tournaments import pagecache, presenters, selectors
from tournaments.clock import selectors as clock_selectors
from tournaments.console import selectors as console
from tournaments.console.first_run import accounts_exist
from tournaments.forms import PlayerImportForm
from tournaments.models import Player, Registration, Session, Tournament
from tournaments.permissions import can_view, tournament_for_director, user_roles
from tournaments.player_import import PlayerImportError, upload_read
from tournaments.presenters import SeatLine, TableView


def home(request):

    tournaments = selectors.tournament_list_visible(user=request.user).order_by("-starts_on")
    first_run = not request.user.is_authenticated and not accounts_exist()
    return render(request, "tournaments/home.html", {"tournaments": tournaments, "first_run": first_run})


def tournament_home(request, slug: str):
    """The tournament's front page: next session, find my seat, links to everything public."""
    tournament = selectors.tournament_get_visible(slug=slug, user=request.user)
    published = rk.next_published_session(tournament=tournament)
    query = request.GET.get("name", "").strip()[:100]
    found = rk.seat_search(tournament=tournament, query=query, session=published) if query else []
    next_session = selectors.next_session(tournament=tournament)
    # no session left to play: the search says the tournament is over, not that a seating is coming
    over = next_session is None and (
        tournament.status == Tournament.Status.FINISHED or tournament.sessions.exists()
    )
    search = {"tournament": tournament, "query": query, "found": found, "published": published, "over": over}
    if request.htmx and "name" in request.GET:
        return render(request, "tournaments/_seat_search.html", search)
    context = {
        **search,
        "sessions": selectors.session_list(tournament=tournament),
        "next_session": next_session,
        "player_count": tournament.registrations.filter(is_substitute=False).count(),
        "roles": user_roles(request.user, tournament),
    }
    return render(request, "tournaments/tournament_home.html", context)


def tournament_players(request, slug: str):
    tournament = selectors.tournament_get_visible(slug=slug, user=request.user)
    registrations = selectors.registration_list(tournament=tournament)
    return render(
        request,
        "tournaments/players.html",
        {
            "tournament": tournament,
            "registrations": registrations,
            "roles": user_roles(request.user, tournament),
        },
    )


@login_required
def director_players(request, slug: str):
    tournament = tournament_for_director(user=request.user, slug=slug)
    faults: list[str] = []
    if request.method == "POST":
        form = PlayerImportForm(request.POST, request.FILES)
        if form.is_valid():
            try:
                started = player_import_start(
                    tournament=tournament,
                    data=upload_read(form.cleaned_data["file"]),
                    substitutes=form.cleaned_data["substitutes"],
                    user=request.user,
                )
            except PlayerImportError as exc:
                faults = exc.faults
            else:
                if started.job is not None:
                    return redirect("director-players-job", slug=tournament.slug, pk=started.job.pk)
                messages.success(request, started.report.summary())
                return redirect("director-players", slug=tournament.slug)
    else:
        form = PlayerImportForm()
    return render(
        request,
        "tournaments/director_players.html",
        {
            "tournament": tournament,
            "form": form,
            "faults": faults,
            "roles": user_roles(request.user, tournament),
            "registrations": selectors.registration_list(tournament=tournament),
        },
    )


@login_required
def director_players_job(request, slug: str, pk: int):
    """A file of players imported in the background: its progress (htmx polls this), then the outcome."""

    tournament = tournament_for_director(user=request.user, slug=slug)
    job = get_object_or_404(PlayerImportJob, pk=pk, tournament=tournament)
    context = {
        "tournament": tournament,
        "job": job,
        "progress": job_progress(job),
        "roles": user_roles(request.user, tournament),
    }
    if request.htmx:
        return render(request, "tournaments/_player_import_job.html", context)
    return render(request, "tournaments/player_import_job.html", context)


def _player_tournament_context(tournament: Tournament, registration: Registration, user=None) -> dict:

    last = console.hidden_after(tournament=tournament)
    hidden = last is not None and not (
        user is not None and console.sees_hidden(user=user, tournament=tournament)
    )
    # the standings as after the last session the public may see while the last ones are hidden
    document = rk.standings_document(tournament=tournament, upto_session=last if hidden else None)
    published = rk.next_published_session(tournament=tournament)
    next_seat = None
    if published is not None:
        next_seat = (
            registration.seats.filter(session=published).select_related("table__session__tournament").first()
        )
    penalties = rk.player_penalty_lines(registration=registration)
    sessions = rk.player_sessions(registration=registration)
    if hidden:
        for line in sessions:
            if line.number > last:  # seats stay; results wait for the prize-giving
                line.status, line.mine, line.penalties = "hidden", None, []
                line.opponents = _names_only(line.opponents)
    return {
        "tournament": tournament,
        "registration": registration,
        "standing": rk.player_standing(document=document, key=registration.key),
        "absent_sessions": selectors.absent_sessions(registration=registration),
        "sessions": sessions,
        "published": published,
        "next_seat": next_seat,
        "next_seat_clock": clock_selectors.table_clock(table=next_seat.table) if next_seat else None,
        "other_penalties": [p for p in penalties if p.session is None],
        "by_table_points": _by_table_points(tournament),
        # the "*" footnote only under a table that has a starred seat
        "excluded_seats": any(
            line.excluded for s in sessions for line in ([s.mine] if s.mine else []) + list(s.opponents)
        ),
        # a penalty at the player's tables: say that it lowers the score, not the table points (MERS)
        "table_order_note": _table_order_note(tournament, sessions),
        **_player_needs(tournament, registration),
    }


def _player_needs(tournament: Tournament, registration: Registration) -> dict:
    """What the player needs in the last session for the podium, when it can be worked out (not while
    the standings are hidden, not once the session is finished)."""

    if tournament.status == Tournament.Status.FINISHED or registration.withdrawn_from:
        return {"needs": None, "need_line": None}
    table = needs_table(tournament=tournament)
    if table.session is None or table.session.status == table.session.Status.FINISHED:
        return {"needs": None, "need_line": None}
    return {"needs": table, "need_line": table.line(registration.key)}


def _table_order_note(tournament: Tournament, sessions) -> str:
    if not any(s.penalties or (s.mine and s.mine.penalties) for s in sessions):
        return ""
    rules = tournament.get_rules()
    return str(presenters.TABLE_ORDER_NOTE) if presenters.penalties_keep_table_order(rules) else ""


def _by_table_points(tournament: Tournament) -> bool:

    return by_table_points(tournament)


def player_public(request, slug: str, key: str):
    """A player's results in one tournament: every session, penalties with reasons, and the next seat."""
    tournament = selectors.tournament_get_visible(slug=slug, user=request.user)
    registration = get_object_or_404(
        Registration.objects.select_related("player"), tournament=tournament, key=key
    )
    if tournament.is_public:  # anonymous visitors: rendered once per snapshot, served by pagecache

        def page(extra: dict) -> str:
            context = {**_player_tournament_context(tournament, registration), "roles": set(), **extra}
            return render_to_string("tournaments/player.html", context, request=request)

        cached = pagecache.public_page(request, slug=slug, render=page)
        if cached is not None:
            return cached
    context = _player_tournament_context(tournament, registration, request.user)
    context["roles"] = user_roles(request.user, tournament)
    return render(request, "tournaments/player.html", context)


def player_private(request, key: str):
    """A player's own page, reached by the private link (no account needed): every tournament of theirs,
    with the next seat, the standing and the results of each session."""
    player = get_object_or_404(Player, private_key=key)
    registrations = player.registrations.select_related("tournament", "player").order_by(
        "-tournament__starts_on"
    )
    entries = [_player_tournament_context(r.tournament, r) for r in registrations]
    return render(
        request,
        "tournaments/player_private.html",
        {"player": player, "entries": entries, "live_tournaments": [e["tournament"] for e in entries]},
    )


def live_stamp(request):
    """What the public pages ask every few seconds (static/js/live-page.js): 204 while the pages of the
    tournaments ``t`` (one or more) are as the page showing them was, else their new value ``v``."""
    if request.method not in ("GET", "HEAD"):
        return JsonResponse({"detail": "GET only"}, status=405)
    slugs = request.GET.getlist("t")
    if not slugs or len(slugs) > selectors.LIVE_MAX_TOURNAMENTS or any(len(s) > 80 for s in slugs):
        return JsonResponse(
            {"t": [f"one to {selectors.LIVE_MAX_TOURNAMENTS} tournament slugs of at most 80 characters"]},
            status=400,
        )
    value = selectors.live_stamp(slugs=slugs, user=request.user)
    response = HttpResponse(status=204) if request.GET.get("v") == value else JsonResponse({"v": value})
    response["Cache-Control"] = "no-store"
    return response


def session_page(request, slug: str, number: int):
    """Every table of a session with its status and, once confirmed, its results.

    Cached under the standings' input version, which every confirmation or correction changes: results
    show at once; a table that moves from playing to submitted shows within PUBLIC_PAGE_CACHE_SECONDS.
    """
    tournament, freshness = rk.tournament_with_freshness(slug=slug)
    if not can_view(request.user, tournament):
        raise Http404("No such tournament.")
    session = get_object_or_404(Session, tournament=tournament, number=number)
    if tournament.is_public and pagecache.is_anonymous_visit(request):
        return pagecache.public_page(
            request,
            slug=slug,
            render=lambda extra: _session_page_html(request, tournament, freshness, session, extra),
        )
    return HttpResponse(_session_page_html(request, tournament, freshness, session, {}))


def _session_page_html(request, tournament, freshness, session, extra: dict) -> str:
    version = freshness.input_version
    hidden = _results_hidden(request, tournament, session)
    key = (
        f"session:{rk.page_stamp(tournament)}:{session.number}:{session.status}:{session.seating_published}:"
        f"{version}:{get_language()}:{hidden}"
    )
    html = None
    with contextlib.suppress(Exception):
        html = cache.get(key)
    if html is None:
        tables = (
            session_tables(session=session)
            if session.seating_published or session.status != "planned"
            else []
        )
        if hidden:
            tables = [TableView(number=t.number, status="hidden", seats=_names_only(t.seats)) for t in tables]
        html = render_to_string(
            "tournaments/_session_tables.html",
            {
                "tournament": tournament,
                "session": session,
                "tables": tables,
                "by_table_points": _by_table_points(tournament),
            },
        )
        with contextlib.suppress(Exception):
            cache.set(key, str(html), settings.PUBLIC_PAGE_CACHE_SECONDS)
    sessions = (
        Session.objects.filter(tournament=tournament).order_by("number").values_list("number", flat=True)
    )
    return render_to_string(
        "tournaments/session.html",
        {
            "tournament": tournament,
            "session": session,
            "tables_html": mark_safe(html),  # rendered by our own template above
            "numbers": list(sessions),
            "roles": user_roles(request.user, tournament),
            **extra,
        },
        request=request,
    )


def _results_hidden(request, tournament: Tournament, session: Session) -> bool:
    """The session is one of the last ones whose results stay hidden from the public until the reveal."""

    last = console.hidden_after(tournament=tournament)
    return (
        last is not None
        and session.number > last
        and not console.sees_hidden(user=request.user, tournament=tournament)
    )


def _names_only(seats):
    return [SeatLine(position=s.position, key=s.key, name=s.name, short=s.short) for s in seats]


@login_required
def director_dashboard(request, slug: str):
    """What a director watches during a session: tables still out, recent penalties, standings freshness."""

    tournament = tournament_for_director(user=request.user, slug=slug)
    _, freshness = rk.tournament_with_freshness(slug=slug)
    session = rk.current_session(tournament=tournament)
    tables = session_tables(session=session) if session is not None else []
    pending = [t for t in tables if t.status != "confirmed"]
    return render(
        request,
        "tournaments/director_dashboard.html",
        {
            "tournament": tournament,
            "roles": user_roles(request.user, tournament),
            "session": session,
            "table_count": len(tables),
            "pending": pending,
            "needs": needs_referee(tables),
            "penalties": [
                (line.penalty, line)
                for line in penalty_lines(
                    penalties=recent_penalties(tournament=tournament), rules=tournament.get_rules()
                )
            ],
            "freshness": freshness,
            "tiebreak_form": TiebreakForm.for_tournament(tournament),
            "tiebreak_help": [(TIEBREAK_LABELS[k][0], TIEBREAK_LABELS[k][1]) for k in TIEBREAK_LABELS],
            "tiebreak_order": [
                TIEBREAK_LABELS.get(k, (k,))[0] for k in rk.tiebreak_order(tournament=tournament)
            ],
            "by_table_points": _by_table_points(tournament),
        },
    )
