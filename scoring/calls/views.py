"""Pages of referee calls: the table's call (made from the table page, its state polled by the page) and a
referee's page of one call (on my way, resolve)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from penalties.forms import penalty_kinds
from scoring import selectors as table_selectors
from scoring.models import RefereeCall
from scoring.rules.base import RuleError
from scoring.rules.text import gettext_noop
from tournaments.models import Session, Table, Tournament
from tournaments.permissions import Actor, actor_for, can_referee, can_score

from . import selectors, services


def call_context(*, table: Table, actor: Actor, call_url: str) -> dict:
    """What the table page's call section shows: the call, the form, the referee's link."""
    call = selectors.table_call(table=table)
    if services.calls_closed(table=table):
        call_url = ""  # no call to make: the page shows the last call's state only
    return {
        "call": call,
        "call_url": call_url,
        "call_reasons": RefereeCall.Reason.choices,
        "call_referee_url": reverse("referee-call", args=[table.session.tournament.slug, call.pk])
        if call is not None and actor.is_referee
        else "",
    }


def table_call_url(table: Table, link_key: str | None) -> str:
    if link_key:
        return reverse("table-link-call", args=[link_key])
    return reverse("table-call", args=[table.session.tournament.slug, table.session.number, table.number])


def _table_page_url(table: Table, link_key: str | None) -> str:
    if link_key:
        return reverse("table-link", args=[link_key])
    return reverse("table-page", args=[table.session.tournament.slug, table.session.number, table.number])


def _call(request: HttpRequest, table: Table, actor: Actor, link_key: str | None) -> HttpResponse:
    """GET: the table's call section (the page polls it). POST: call a referee, then back to the page."""
    url = table_call_url(table, link_key)
    if request.method == "POST":
        try:
            _call_made, created = services.call_create(
                table=table, actor=actor, reason=request.POST.get("reason", "")
            )
        except RuleError as exc:
            context = call_context(table=table, actor=actor, call_url=url) | {"call_error": exc.message}
            return render(request, "scoring/_referee_call.html", context, status=400)
        if created:
            messages.success(request, _("A referee has been called to table %(n)s.") % {"n": table.number})
        else:
            messages.info(request, _("A referee was already called to this table: the call stands."))
        return redirect(_table_page_url(table, link_key) + "#referee-call")
    response = render(
        request, "scoring/_referee_call.html", call_context(table=table, actor=actor, call_url=url)
    )
    response["Cache-Control"] = "no-store"
    return response


@require_http_methods(["GET", "POST"])
def table_call(request: HttpRequest, slug: str, session: int, number: int) -> HttpResponse:
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    table = table_selectors.table_for_page(slug=slug, session_number=session, table_number=number)
    return _call(request, table, actor_for(user=request.user, table=table), None)


@require_http_methods(["GET", "POST"])
def table_link_call(request: HttpRequest, key: str) -> HttpResponse:
    table = table_selectors.table_for_key(key=key)
    return _call(request, table, actor_for(user=request.user, table=table, table_key=key), key)


@require_http_methods(["GET", "POST"])
def referee_call(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    """A referee's page of one call: on my way, then resolve it with a note, a penalty recorded at the
    table since the call, or a corrected hand."""
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    call = get_object_or_404(
        RefereeCall.objects.select_related("tournament", "session", "table", "penalty"),
        tournament__slug=slug,
        pk=pk,
    )
    if not can_referee(request.user, call.tournament):
        raise PermissionDenied(_("You need the director or referee role in this tournament."))
    actor = actor_for(user=request.user, table=call.table)
    error, status = "", 200
    if request.method == "POST":
        action = request.POST.get("action", "")
        try:
            if action == "acknowledge":
                services.call_acknowledge(call=call, actor=actor)
                messages.success(request, _("The table sees that you are on your way."))
                return redirect(request.path)
            if action == "resolve":
                services.call_resolve(
                    call=call,
                    actor=actor,
                    note=request.POST.get("note", ""),
                    penalty_id=_int(request.POST.get("penalty"), "penalty"),
                    hand_number=_int(request.POST.get("hand_number"), "hand_number"),
                )
                messages.success(request, _("Call of table %(n)s resolved.") % {"n": call.table.number})
                return redirect(request.path)
            raise RuleError(gettext_noop("action must be acknowledge or resolve"), "action")
        except RuleError as exc:
            error, status = exc.message, 400
            call.refresh_from_db()
    table = call.table
    session = call.session
    penalties = list(services.linkable_penalties(call=call).select_related("registration__player"))
    chosen = request.POST.get("penalty") if status == 400 else request.GET.get("penalty")
    return render(
        request,
        "scoring/referee_call.html",
        {
            "tournament": call.tournament,
            "session": session,
            "call": call,
            "error": error,
            "penalties": penalties,
            "penalty_chosen": next((p.pk for p in penalties if str(p.pk) == (chosen or "").strip()), None),
            "penalty_kinds": _kind_links(call) if call.status != RefereeCall.Status.RESOLVED else [],
            "table_url": reverse("table-page", args=[call.tournament.slug, session.number, table.number]),
            "overview_url": reverse("clock-tables", args=[call.tournament.slug, session.number]),
            "note": request.POST.get("note", "") if status == 400 else "",
        },
        status=status,
    )


@require_http_methods(["GET"])
def referee_calls_part(request: HttpRequest, slug: str, session: int) -> HttpResponse:
    """The calls waiting for a referee in a session (``everywhere=1``: in every session of the
    tournament), as the referees' pages list them: the part their script asks for again."""
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    tournament = get_object_or_404(Tournament, slug=slug)
    if not can_score(request.user, tournament):
        raise PermissionDenied(_("You need a role in this tournament."))
    found = get_object_or_404(Session, tournament=tournament, number=session)
    everywhere = request.GET.get("everywhere") == "1"
    calls = (
        selectors.tournament_open_calls(tournament=tournament)
        if everywhere
        else selectors.session_queue(session=found)
    )
    response = render(
        request,
        "scoring/_referee_calls.html",
        {
            "calls": calls,
            "session": found,
            "tournament": tournament,
            "referee": can_referee(request.user, tournament),
            "everywhere": everywhere,
            "part": True,
        },
    )
    response["Cache-Control"] = "no-store"
    return response


def _kind_links(call: RefereeCall) -> list[tuple[str, str]]:
    """The penalties a referee may record at the call's table, each a link that comes back to the call."""
    table, session = call.table, call.session
    return [
        (
            label,
            reverse("table-penalty", args=[call.tournament.slug, session.number, table.number, value])
            + f"?call={call.pk}",
        )
        for value, label in penalty_kinds(call.tournament.get_rules())
    ]


def _int(value: str | None, field: str) -> int | None:
    if value is None or not value.strip():
        return None
    if len(value.strip()) > 6:
        raise RuleError(
            gettext_noop("%(_field)s must be a whole number, not %(value)s", _field=field, value=value[:20]),
            field,
        )
    try:
        return int(value.strip())
    except ValueError:
        raise RuleError(
            gettext_noop("%(_field)s must be a whole number, not %(value)s", _field=field, value=value[:20]),
            field,
        ) from None
