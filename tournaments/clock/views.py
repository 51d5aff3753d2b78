"""Pages of the session clock: the clock (projector and phone), the venue screen, the referees'
overview of every table, the clock's controls, and the printouts (personal schedules, score sheets).

The clock page and the venue screen are the same for every anonymous visitor: rendered once per
publication stamp and served from the page cache (``tournaments.pagecache``); the time on them is
counted by ``static/js/session-clock.js`` from the clock API.
"""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.text import capfirst
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_GET, require_POST

from scoring.calls.selectors import session_queue
from scoring.presenters import needs_referee
from scoring.selectors import session_tables
from tournaments import pagecache
from tournaments.clock import engine, room, selectors, services
from tournaments.models import Announcement, Session, SessionClock, Tournament
from tournaments.permissions import can_manage, can_referee, can_score, can_view, user_roles

ADJUST_MINUTES = (1, 5, 10)


def poll_seconds() -> float:
    return float(getattr(settings, "CLOCK_POLL_SECONDS", 15))


def _visible(request, slug: str) -> Tournament:
    tournament = get_object_or_404(Tournament, slug=slug)
    if not can_view(request.user, tournament):
        raise Http404("No such tournament.")
    return tournament


def _clock_context(tournament: Tournament) -> dict:
    return {
        "tournament": tournament,
        "api_url": reverse("clock-api", args=[tournament.slug]),
        "poll_seconds": poll_seconds(),
        "rule": selectors.end_rule(tournament),
    }


@require_GET
def clock_page(request, slug: str):
    """The clock, huge: a projector at 1920 × 1080 or a phone."""
    tournament = _visible(request, slug)

    def page(extra: dict) -> str:
        return render_to_string("clock/clock.html", {**_clock_context(tournament), **extra}, request=request)

    if tournament.is_public:
        cached = pagecache.public_page(request, slug=slug, render=page)
        if cached is not None:
            return cached
    roles = user_roles(request.user, tournament)
    context = {**_clock_context(tournament), "roles": roles}
    if can_referee(request.user, tournament):
        current = selectors.current_session(tournament=tournament)
        context.update(
            control=True,
            director=can_manage(request.user, tournament),
            current=current,
            sessions=list(Session.objects.filter(tournament=tournament).order_by("number")),
            default_minutes=selectors.default_length_seconds(tournament) // 60,
            adjust_minutes=ADJUST_MINUTES,
            announcements=selectors.announcements(tournament=tournament, limit=20),
        )
    return render(request, "clock/clock.html", context)


def _safe_next(request, fallback: str) -> str:
    target = request.POST.get("next", "")
    if target and url_has_allowed_host_and_scheme(target, {request.get_host()}, request.is_secure()):
        return target
    return fallback


def _int_or_none(value: str | None, field: str) -> int | None:
    if value in (None, ""):
        return None
    try:
        return int(value)
    except (TypeError, ValueError):
        raise engine.ClockError(_("%(field)s must be a whole number") % {"field": field}, field) from None


@require_POST
def clock_control(request, slug: str):
    """The clock's buttons (directors and referees): the same actions as the API."""
    if not request.user.is_authenticated:
        return redirect_to_login(reverse("clock-page", args=[slug]))
    tournament = get_object_or_404(Tournament, slug=slug)
    if not can_referee(request.user, tournament):
        raise PermissionDenied(_("You need the director or referee role in this tournament."))
    back = _safe_next(request, reverse("clock-page", args=[slug]) + "#controls")
    action = request.POST.get("action", "")
    session_number = None
    try:
        session_number = _int_or_none(request.POST.get("session"), "session")
        if action == "length":
            minutes = _int_or_none(request.POST.get("minutes"), "minutes")
            services.clock_length_set(
                tournament=tournament,
                user=request.user,
                session_number=session_number,
                minutes=minutes if minutes is not None else -1,
            )
            messages.success(request, _("Session length saved."))
        else:
            table = _int_or_none(request.POST.get("table"), "table")
            stored = services.clock_act(
                tournament=tournament,
                user=request.user,
                action=action,
                seconds=_seconds_asked(request, action),
                table=table,
                session_number=session_number,
            )
            done = TABLE_CONFIRMATION if table is not None else CONFIRMATIONS.get(action, _("Done."))
            messages.success(request, done % {"n": stored.session.number, "table": table})
    except engine.ClockError as exc:
        messages.error(request, _refusal(tournament, session_number, exc))
    return redirect(back)


def _seconds_asked(request, action: str) -> int | None:
    """The seconds an action asks for: the buttons send minutes (checked as minutes), the API seconds."""
    minutes = _int_or_none(request.POST.get("minutes"), "minutes")
    if minutes is None:
        return _int_or_none(request.POST.get("seconds"), "seconds")
    most = (engine.MAX_ADJUST_SECONDS if action == "extend" else engine.MAX_LENGTH_SECONDS) // 60
    if action == "extend" and (minutes == 0 or abs(minutes) > most):
        raise engine.ClockError(
            _("minutes must be a whole number from -%(most)s to %(most)s, not 0") % {"most": most}, "minutes"
        )
    if action == "start" and not 1 <= minutes <= most:
        raise engine.ClockError(_("minutes must be a whole number from 1 to 480"), "minutes")
    return minutes * 60


def _refusal(tournament: Tournament, number: int | None, exc: engine.ClockError) -> str:
    """A refusal headed by the session it is about (the page's buttons act on the current one), unless
    it names the session or the table itself."""
    text = capfirst(exc.message)
    if exc.field in ("session", "table"):
        return text
    if number is None:
        current = selectors.current_session(tournament=tournament)
        if current is None:
            return text
        number = current.number
    return _("Session %(n)s: %(message)s") % {"n": number, "message": text}


CONFIRMATIONS = {
    "start": gettext_lazy("Session %(n)s: clock started."),
    "pause": gettext_lazy("Session %(n)s: clock paused."),
    "resume": gettext_lazy("Session %(n)s: clock resumed."),
    "extend": gettext_lazy("Session %(n)s: time changed."),
    "end": gettext_lazy("Session %(n)s: time is up."),
}
TABLE_CONFIRMATION = gettext_lazy("Session %(n)s, table %(table)s: time changed.")


@require_POST
def announcement_post(request, slug: str):
    if not request.user.is_authenticated:
        return redirect_to_login(reverse("clock-page", args=[slug]))
    tournament = get_object_or_404(Tournament, slug=slug)
    if not can_manage(request.user, tournament):
        raise PermissionDenied(_("You need the director role in this tournament."))
    hide = request.POST.get("hide", "")
    try:
        if hide:
            row = get_object_or_404(Announcement, tournament=tournament, pk=_int_or_none(hide, "hide") or 0)
            services.announcement_hide(announcement=row, user=request.user)
            messages.success(request, _("Announcement hidden."))
        else:
            services.announcement_add(
                tournament=tournament, user=request.user, text=request.POST.get("text", "")
            )
            messages.success(request, _("Announcement shown on the venue screen."))
    except engine.ClockError as exc:
        messages.error(request, exc.message)
    return redirect(_safe_next(request, reverse("clock-page", args=[slug])))


# -- the venue screen ---------------------------------------------------------------------------------

SCREEN_STANDINGS = 40  # the first rows of the standings on the venue screen (paged like the seating)


def _screen_context(tournament: Tournament) -> dict:
    current = selectors.current_session(tournament=tournament)
    seating_session = room.screen_session(tournament=tournament, current=current)
    return {
        **_clock_context(tournament),
        "seating_session": seating_session,
        # every player: the screen pages through them as many as its size shows at once
        "seating": room.seating_by_name(session=seating_session) if seating_session else [],
        "standings": room.standings_top(tournament=tournament, limit=SCREEN_STANDINGS),
        "announcements": selectors.announcements(tournament=tournament),
        "panels_url": reverse("venue-screen-panels", args=[tournament.slug]),
    }


@require_GET
def venue_screen(request, slug: str):
    """Projector mode: the clock, the next seating by name, the standings and the announcements, in turn."""
    tournament = _visible(request, slug)

    def page(extra: dict) -> str:
        return render_to_string(
            "clock/screen.html", {**_screen_context(tournament), **extra}, request=request
        )

    if tournament.is_public:
        cached = pagecache.public_page(request, slug=slug, render=page)
        if cached is not None:
            return cached
    return HttpResponse(page({}))


@require_GET
def venue_screen_panels(request, slug: str):
    """The screen's changing part, fetched again every half minute (a failed fetch keeps what is shown)."""
    tournament = _visible(request, slug)

    def part(extra: dict) -> str:
        return render_to_string("clock/_screen_panels.html", {**_screen_context(tournament), **extra})

    if tournament.is_public:
        cached = pagecache.public_page(request, slug=slug, render=part)
        if cached is not None:
            return cached
    return HttpResponse(part({}))


# -- the referees' overview ------------------------------------------------------------------------------


def tables_overview(request, slug: str, number: int):
    """Every table of a session with its time left, hands played, status and hands entered after time."""
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    tournament = get_object_or_404(Tournament, slug=slug)
    if not can_score(request.user, tournament):
        raise PermissionDenied(_("You need a role in this tournament."))
    session = get_object_or_404(Session, tournament=tournament, number=number)

    rows = session_tables(session=session)

    late = selectors.late_hand_counts(session=session)
    calls = {call.table.number: call for call in session_queue(session=session)}
    for row in rows:
        row.late_hands = late.get(row.number, 0)
        row.call = calls.get(row.number)
    current = selectors.current_session(tournament=tournament) or session
    return render(
        request,
        "clock/tables.html",
        {
            **_clock_context(tournament),
            "session": session,
            "rows": rows,
            "needs": needs_referee(rows),
            "referee": can_referee(request.user, tournament),
            "adjust_minutes": ADJUST_MINUTES,
            "is_current": current.pk == session.pk,
            "current_number": current.number,
            # asked only of a session the clock is not on (the current one shows its own time)
            "time_is_up": current.pk != session.pk
            and (
                session.status == Session.Status.FINISHED
                or SessionClock.objects.filter(session=session, state=engine.ENDED).exists()
            ),
        },
    )


# -- printouts ---------------------------------------------------------------------------------------------

PAPERS = {"a4": "A4", "letter": "letter"}


def _staff_tournament(request, slug: str) -> Tournament:
    tournament = get_object_or_404(Tournament, slug=slug)
    if not can_referee(request.user, tournament):
        raise PermissionDenied(_("You need the director or referee role in this tournament."))
    return tournament


def _paper(request) -> str:
    return request.GET.get("paper", "a4") if request.GET.get("paper") in PAPERS else "a4"


def print_schedules(request, slug: str):
    """Each player's schedule (every session: table and seat), one a page or four a sheet."""
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    tournament = _staff_tournament(request, slug)
    per_sheet = 4 if request.GET.get("per") == "4" else 1
    published_only = request.GET.get("drafts") != "1"
    return render(
        request,
        "clock/print_schedules.html",
        {
            "tournament": tournament,
            "schedules": room.schedules(tournament=tournament, published_only=published_only),
            "per_sheet": per_sheet,
            "paper": _paper(request),
            "page_size": PAPERS[_paper(request)],
            "published_only": published_only,
        },
    )


def print_sheets(request, slug: str, number: int):
    """Paper score sheets of a session's tables, for the tournament's ruleset, filled with players and winds."""
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    tournament = _staff_tournament(request, slug)
    session = get_object_or_404(Session, tournament=tournament, number=number)
    rules = tournament.get_rules()
    rows = rules.score_sheet_rows()
    start_points = rules.start_scores()[0] if rules.raw_scores else None
    return render(
        request,
        "clock/print_sheets.html",
        {
            "tournament": tournament,
            "session": session,
            "sheets": room.score_sheets(session=session),
            "sheet_partial": rules.score_sheet_partial,
            "rows": range(1, rows + 1),
            "paper": _paper(request),
            "page_size": PAPERS[_paper(request)],
            "start_points": start_points,
            "rule": selectors.end_rule(tournament),
            "liability": bool(rules.liable_yakuman()),
        },
    )
