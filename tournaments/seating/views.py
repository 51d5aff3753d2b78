"""The director's seating pages: generate, preview with the quality report, swap, publish, print.

Thin views over :mod:`tournaments.seating.services`; every page needs the director role of the tournament
(the printed table cards carry the tables' private result links).
"""

from __future__ import annotations

import qrcode
import qrcode.image.svg
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST

from tournaments.models import Registration, Seat, Session, Tournament
from tournaments.permissions import tournament_for_director, user_roles
from tournaments.seating import selectors as sel
from tournaments.seating import services as svc
from tournaments.seating.engine import SeatingError
from tournaments.seating.forms import GenerateForm, ImportForm, SettingsForm, SwapForm


def _session(tournament: Tournament, number: int) -> Session:
    return get_object_or_404(Session, tournament=tournament, number=number)


def _redirect_to_session(slug: str, number: int):
    return redirect(f"{reverse('seating', args=[slug])}#session-{number}")


def _numbers(numbers: list[int]) -> str:
    return ", ".join(str(n) for n in numbers)


def _outcome_message(outcome: svc.SeatingOutcome) -> str:
    q = outcome.quality
    text = ngettext(
        "Session %(list)s seated as a draft.",
        "Sessions %(list)s seated as drafts.",
        len(outcome.sessions),
    ) % {"list": _numbers(outcome.sessions)}
    text += " " + ngettext(
        "The tournament now has %(n)s repeated meeting.",
        "The tournament now has %(n)s repeated meetings.",
        q.repeated_meetings,
    ) % {"n": q.repeated_meetings}
    if outcome.substitutes:
        text += " " + _("Substitutes seated: %(keys)s.") % {"keys": ", ".join(outcome.substitutes)}
    text += " " + _("Check them below, then publish.")
    return text


def _main_context(tournament: Tournament, *, swap: dict | None = None) -> dict:
    return {
        "tournament": tournament,
        "sessions": sel.seating_sessions(tournament=tournament),
        "quality": sel.seating_quality_details(tournament=tournament),
        "swap": swap,
    }


def _render_page(request, tournament: Tournament, **extra):
    context = _main_context(tournament)
    context.update(
        roles=user_roles(request.user, tournament),
        generate_form=extra.pop("generate_form", None) or GenerateForm(tournament=tournament),
        import_form=extra.pop("import_form", None) or ImportForm(tournament=tournament),
        withdrawn=Registration.objects.filter(tournament=tournament, withdrawn_from__isnull=False).exists(),
        **extra,
    )
    return render(request, "tournaments/seating/page.html", context)


@login_required
def seating_page(request, slug: str):
    """Sessions and their state, the forms to seat them, the quality report and every table."""
    return _render_page(request, tournament_for_director(user=request.user, slug=slug))


@login_required
@require_POST
def seating_generate(request, slug: str):
    tournament = tournament_for_director(user=request.user, slug=slug)
    form = GenerateForm(request.POST, tournament=tournament)
    if not form.is_valid():
        return _render_page(request, tournament, generate_form=form)
    try:
        outcome = svc.seating_generate(
            tournament=tournament,
            sessions=form.cleaned_data["sessions"],
            strategy=form.cleaned_data["strategy"],
            seed=form.cleaned_data["seed"],
        )
    except SeatingError as exc:
        return _render_page(request, tournament, generate_form=form, generate_faults=exc.faults)
    messages.success(request, _outcome_message(outcome))
    return redirect(f"{reverse('seating', args=[slug])}#quality")


@login_required
@require_POST
def seating_import(request, slug: str):
    tournament = tournament_for_director(user=request.user, slug=slug)
    form = ImportForm(request.POST, request.FILES, tournament=tournament)
    if not form.is_valid():
        return _render_page(request, tournament, import_form=form, import_open=True)
    try:
        outcome = svc.seating_import(
            tournament=tournament,
            sessions=form.cleaned_data["sessions"],
            text=form.cleaned_data["text"],
            names=form.cleaned_data["names"],
        )
    except SeatingError as exc:
        return _render_page(request, tournament, import_form=form, import_faults=exc.faults, import_open=True)
    messages.success(request, " ".join([_outcome_message(outcome), *outcome.notes]))
    return redirect(f"{reverse('seating', args=[slug])}#quality")


@login_required
@require_POST
def seating_replan(request, slug: str):
    tournament = tournament_for_director(user=request.user, slug=slug)
    try:
        outcome = svc.seating_replan_after_withdrawal(tournament=tournament)
    except SeatingError as exc:
        for fault in exc.faults:
            messages.error(request, fault)
        return redirect("seating", slug=slug)
    messages.success(request, " ".join([_outcome_message(outcome), *outcome.notes]))
    return redirect(f"{reverse('seating', args=[slug])}#quality")


@login_required
@require_POST
def seating_swap(request, slug: str, number: int):
    """Swap two players' seats; with htmx the sessions and the report come back with what the swap broke."""
    tournament = tournament_for_director(user=request.user, slug=slug)
    session = _session(tournament, number)
    seated = (
        Seat.objects.filter(session=session)
        .select_related("registration__player")
        .order_by("registration__key")
    )
    form = SwapForm(
        request.POST, players=[(s.registration.key, s.registration.player.full_name) for s in seated]
    )
    faults: list[str] = []
    broken: list[str] = []
    names = {s.registration.key: s.registration.player.full_name for s in seated}
    if form.is_valid():
        a, b = form.cleaned_data["a"], form.cleaned_data["b"]
        try:
            outcome = svc.seating_swap(session=session, a=a, b=b)
        except SeatingError as exc:
            faults = exc.faults
        else:
            broken = outcome.broken
    else:
        faults = [e for errors in form.errors.values() for e in errors]
    done = not faults
    swap = {
        "number": number,
        "done": done,
        "faults": faults,
        "broken": broken,
        "a": names.get(request.POST.get("a", ""), ""),
        "b": names.get(request.POST.get("b", ""), ""),
    }
    if request.htmx:
        return render(request, "tournaments/seating/_main.html", _main_context(tournament, swap=swap))
    if not done:
        for fault in faults:
            messages.error(request, fault)
    else:
        messages.success(request, _("%(a)s and %(b)s swapped seats.") % {"a": swap["a"], "b": swap["b"]})
        for item in broken:
            messages.warning(request, item)
    return _redirect_to_session(slug, number)


def _session_state_change(request, slug: str, number: int, change, done_message: str):
    """Publish or unpublish a session's seating; the engine's faults are shown one by one."""
    tournament = tournament_for_director(user=request.user, slug=slug)
    session = _session(tournament, number)
    try:
        change(session=session)
    except SeatingError as exc:
        for fault in exc.faults:
            messages.error(request, fault)
    else:
        messages.success(request, done_message % {"n": session.number})
    return _redirect_to_session(slug, number)


@login_required
@require_POST
def seating_publish(request, slug: str, number: int):
    return _session_state_change(
        request, slug, number, svc.seating_publish, _("Session %(n)s is published: players see their seats.")
    )


@login_required
@require_POST
def seating_unpublish(request, slug: str, number: int):
    return _session_state_change(
        request,
        slug,
        number,
        svc.seating_unpublish,
        _("Session %(n)s is no longer published: its seating can be changed."),
    )


@login_required
def seating_settings(request, slug: str):
    """Seed, the players to keep apart, fixed tables, and whether clubs and countries are kept apart."""
    tournament = tournament_for_director(user=request.user, slug=slug)
    form = SettingsForm(request.POST or None, tournament=tournament)
    faults: list[str] = []
    if request.method == "POST" and form.is_valid():
        try:
            svc.seating_config_update(tournament=tournament, config=form.config())
        except SeatingError as exc:
            faults = exc.faults
        else:
            messages.success(request, _("The seating settings are saved."))
            return redirect("seating", slug=slug)
    registrations = Registration.objects.filter(tournament=tournament).select_related("player").order_by("id")
    return render(
        request,
        "tournaments/seating/settings.html",
        {
            "tournament": tournament,
            "roles": user_roles(request.user, tournament),
            "form": form,
            "faults": faults,
            "problems": sel.seating_config(tournament=tournament).problems,
            "registrations": registrations,
        },
    )


# -- print ---------------------------------------------------------------------------------------------


def _print_sessions(request, tournament: Tournament, *, one: bool) -> tuple[list[sel.SessionView], str]:
    """The seated sessions asked for with ``?session=N`` (or ``all``). ``one``: a single session, by
    default the next one to play (the first seated session without results)."""
    which = request.GET.get("session", "").strip()
    seated = [s for s in sel.seating_sessions(tournament=tournament) if s.tables]
    if which in ("", "all") and not one:
        return seated, "all"
    if which in ("", "all"):
        upcoming = [s for s in seated if s.state != sel.PLAYED]
        chosen = upcoming[:1] or seated[-1:]
        if not chosen:
            raise Http404(_("No session is seated yet."))
        return chosen, str(chosen[0].number)
    if not which.isdigit():
        raise Http404(_("No such session."))
    chosen = [s for s in seated if s.number == int(which)]
    if not chosen:
        raise Http404(_("Session %(n)s is not seated.") % {"n": which})
    return chosen, which


def _print_context(request, tournament: Tournament, sessions, which: str) -> dict:
    return {
        "tournament": tournament,
        "sessions": sessions,
        "which": which,
        "all_numbers": [s.number for s in sel.seating_sessions(tournament=tournament) if s.tables],
    }


@login_required
def print_tables(request, slug: str):
    """Seating by table: per session, each table's four players by wind."""
    tournament = tournament_for_director(user=request.user, slug=slug)
    sessions, which = _print_sessions(request, tournament, one=False)
    return render(
        request, "tournaments/seating/print_tables.html", _print_context(request, tournament, sessions, which)
    )


@login_required
def print_players(request, slug: str):
    """Seating by player name, alphabetical, for the entrance: name → table and wind."""
    tournament = tournament_for_director(user=request.user, slug=slug)
    sessions, which = _print_sessions(request, tournament, one=False)
    rows: dict[str, dict] = {}
    for s in sessions:
        for t in s.tables:
            for seat in t.seats:
                row = rows.setdefault(
                    seat.key, {"name": seat.sort_name, "order": seat.sort_key, "key": seat.key, "seats": {}}
                )
                row["seats"][s.number] = (t.number, seat)
    ordered = sorted(rows.values(), key=lambda r: (r["order"], r["key"]))
    for row in ordered:
        row["cells"] = [row["seats"].get(s.number) for s in sessions]
    context = _print_context(request, tournament, sessions, which)
    context["rows"] = ordered
    return render(request, "tournaments/seating/print_players.html", context)


def _qr_svg(url: str) -> str:
    image = qrcode.make(url, image_factory=qrcode.image.svg.SvgPathImage, box_size=10, border=2)
    return image.to_string(encoding="unicode")


@login_required
def print_cards(request, slug: str):
    """One card per table: the four names by wind and a QR code of the table's private result link."""
    tournament = tournament_for_director(user=request.user, slug=slug)
    sessions, which = _print_sessions(request, tournament, one=True)
    cards = []
    for s in sessions:
        for t in s.tables:
            url = request.build_absolute_uri(reverse("table-link", args=[t.private_key]))
            cards.append({"session": s, "table": t, "url": url, "qr": mark_safe(_qr_svg(url))})
    context = _print_context(request, tournament, sessions, which)
    context["cards"] = cards
    return render(request, "tournaments/seating/print_cards.html", context)
