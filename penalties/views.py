"""Penalty pages for referees and directors: record a penalty from a table or a player page, the
tournament's list of penalties, cancel and appeal.

The amount of a penalty is computed by the service from the ruleset (late arrival from the minutes, the
ladder step from the fouls so far, false Hu transfers at the table); the pages show what it recorded.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from penalties import selectors as penalty_selectors
from penalties import services
from penalties.forms import HAND_KINDS, AppealForm, CancelForm, PenaltyFilterForm, PenaltyForm, penalty_kinds
from penalties.kinds import Replaced
from penalties.models import Penalty, Scope
from penalties.presenters import penalty_lines
from scoring import selectors
from scoring.calls.services import open_call
from scoring.models import RefereeCall
from scoring.rules.base import RuleError
from scoring.views import closed_reopen_url
from tournaments.lifecycle import results_closed
from tournaments.models import WIND_LETTERS, Role, Seat, Session, Table, Tournament
from tournaments.permissions import Actor, can_manage, user_roles
from tournaments.presenters import wind_letter


def _referee_actor(request: HttpRequest, tournament: Tournament) -> Actor:
    roles = user_roles(request.user, tournament)
    for role in (Role.DIRECTOR, Role.REFEREE):
        if role in roles:
            return Actor(user=request.user, role=role)
    raise PermissionDenied(_("Only a referee or a director records penalties."))


def _login_needed(request: HttpRequest) -> HttpResponse | None:
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    return None


def _reopen_url(request: HttpRequest, tournament: Tournament, session) -> str:
    """Where a director reopens what keeps the results closed ("" for a referee: the director does)."""
    if not can_manage(request.user, tournament):
        return ""
    return closed_reopen_url(tournament, session)


def _tournament(slug: str) -> Tournament:
    return get_object_or_404(Tournament, slug=slug)


def _recorded_message(penalty: Penalty, rules) -> str:
    row = penalty_lines(penalties=[penalty], rules=rules)[0]
    amount = f"{row.amount} ({row.note})" if row.amount and row.note else row.amount or row.note
    if not amount:
        return _("%(kind)s recorded for %(name)s.") % {
            "kind": penalty.get_kind_display(),
            "name": penalty.registration.player.full_name,
        }
    return _("%(kind)s recorded for %(name)s: %(amount)s") % {
        "kind": penalty.get_kind_display(),
        "name": penalty.registration.player.full_name,
        "amount": amount,
    }


def _record(
    request: HttpRequest,
    *,
    tournament: Tournament,
    actor: Actor,
    form: PenaltyForm,
    session: Session | None,
    table: Table | None,
) -> Penalty | None:
    """Validate and record; None when refused (the form then carries the errors)."""
    if not form.is_valid():
        return None
    session = form.chosen_session(session)
    if form.cleaned_data.get("scope") == Scope.TOURNAMENT:
        table = None
    elif table is None and form.kind in HAND_KINDS and session is not None:
        seat = selectors.seat_in_session(registration=form.registration, session=session)
        table = seat.table if seat else None
    try:
        return services.penalty_record(
            tournament=tournament, actor=actor, **form.service_kwargs(session=session, table=table)
        )
    except RuleError as exc:
        form.add_rule_error(exc)
        return None


def _kind_or_404(kind: str, kinds: list[tuple[str, str]]) -> str:
    if kind not in dict(kinds):
        raise Http404("This ruleset has no such penalty.")
    return kind


# -- from a table --------------------------------------------------------------------------------------------


def _call_answered(table: Table, value: str | None) -> RefereeCall | None:
    """The table's call not resolved yet that the penalty answers (``?call=`` from the call's page)."""
    if not value:
        return None
    call = open_call(table=table)
    if call is None or str(call.pk) != value.strip():
        return None
    return call


def table_penalty(request: HttpRequest, slug: str, session: int, number: int, kind: str) -> HttpResponse:
    """Record a penalty for one of the four players of a table (the session and table are known). From a
    call's page (``?call=``), the referee goes back to the call with the penalty chosen to resolve it."""
    if (response := _login_needed(request)) is not None:
        return response
    table = selectors.table_for_page(slug=slug, session_number=session, table_number=number)
    tournament = table.session.tournament
    actor = _referee_actor(request, tournament)
    rules = tournament.get_rules()
    kinds = penalty_kinds(rules)
    kind = _kind_or_404(kind, kinds)
    seats = list(Seat.objects.filter(table=table).select_related("registration__player").order_by("position"))
    players = [(s.registration, wind_letter(WIND_LETTERS[s.position])) for s in seats]
    substitutes = penalty_selectors.substitutes_free(tournament=tournament, session=table.session)
    initial = {
        "player": request.GET.get("player", ""),
        "reason": request.GET.get("reason", ""),
        "hand_number": request.GET.get("hand") or None,
    }
    table_url = reverse("table-page", args=[slug, session, number])
    call = _call_answered(table, request.GET.get("call"))
    status = 200
    closed = results_closed(session=table.session, tournament=tournament)
    if closed:  # no form the service would refuse: why, and where the director reopens it
        form = None
        status = 400 if request.method == "POST" else 200
    elif request.method == "POST":
        form = PenaltyForm(request.POST, kind=kind, rules=rules, players=players, substitutes=substitutes)
        penalty = _record(
            request, tournament=tournament, actor=actor, form=form, session=table.session, table=table
        )
        if penalty is not None:
            messages.success(request, _recorded_message(penalty, rules))
            if penalty.disqualifies:
                messages.warning(
                    request,
                    _(
                        "%(name)s is out of this session (late past the limit). Choose the substitute who takes "
                        "the seat."
                    )
                    % {"name": penalty.registration.player.full_name},
                )
                url = reverse("table-penalty", args=[slug, session, number, Replaced.value])
                return redirect(f"{url}?player={penalty.registration.key}&reason=late_arrival")
            if call is not None:
                return redirect(reverse("referee-call", args=[slug, call.pk]) + f"?penalty={penalty.pk}")
            return redirect(table_url + "#penalties")
        status = 400
    else:
        form = PenaltyForm(initial=initial, kind=kind, rules=rules, players=players, substitutes=substitutes)
    context = {
        "tournament": tournament,
        "table": table,
        "session": table.session,
        "seats": seats,
        "kind": kind,
        "kind_label": dict(kinds)[kind],
        "kinds": kinds,
        "form": form,
        "back_url": table_url,
        "kind_url": reverse("table-penalty", args=[slug, session, number, "KIND"]),
        "kind_suffix": f"/?call={call.pk}" if call is not None else "/",
        "call": call,
        "closed": closed,
        "closed_reopen_url": _reopen_url(request, tournament, table.session) if closed else "",
    }
    return render(request, "penalties/record.html", context, status=status)


# -- a player's penalties -------------------------------------------------------------------------------------


def player_penalties(request: HttpRequest, slug: str, key: str) -> HttpResponse:
    """A player's penalties in the tournament, with cancel and appeal; ``?kind=`` opens the form to record one."""
    if (response := _login_needed(request)) is not None:
        return response
    tournament = _tournament(slug)
    actor = _referee_actor(request, tournament)
    registration = selectors.registration_for_page(tournament=tournament, key=key)
    rules = tournament.get_rules()
    kinds = penalty_kinds(rules)
    kind = request.POST.get("kind") or request.GET.get("kind") or ""
    sessions = list(Session.objects.filter(tournament=tournament).order_by("number"))
    form = None
    status = 200
    closed = results_closed(session=None, tournament=tournament)
    if closed:
        kind = ""  # no form the service would refuse
        status = 400 if request.method == "POST" else 200
    if kind:
        kind = _kind_or_404(kind, kinds)
        session_number = request.POST.get("session") or request.GET.get("session") or ""
        kwargs = {
            "kind": kind,
            "rules": rules,
            "players": [(registration, "")],
            "sessions": sessions,
            "substitutes": _substitutes(tournament, sessions, session_number),
        }
        if request.method == "POST":
            form = PenaltyForm(request.POST, **kwargs)
            penalty = _record(
                request, tournament=tournament, actor=actor, form=form, session=None, table=None
            )
            if penalty is not None:
                messages.success(request, _recorded_message(penalty, rules))
                return _after_recording(request, penalty, reverse("player-penalties", args=[slug, key]))
            status = 400
        else:
            current = next((s for s in sessions if s.status == Session.Status.PLAYING), None)
            form = PenaltyForm(
                initial={
                    "session": session_number or (str(current.number) if current else ""),
                    "reason": request.GET.get("reason", ""),
                },
                **kwargs,
            )
    penalties = penalty_selectors.player_penalties(registration=registration)
    context = {
        "tournament": tournament,
        "registration": registration,
        "rows": penalty_lines(penalties=penalties, rules=rules),
        "kinds": kinds,
        "kind": kind,
        "kind_label": dict(kinds).get(kind, ""),
        "form": form,
        "here": request.path,
        "closed": closed,
        "closed_reopen_url": _reopen_url(request, tournament, None) if closed else "",
        "seats": Seat.objects.filter(registration=registration)
        .select_related("session", "table")
        .order_by("session__number"),
    }
    return render(request, "penalties/player.html", context, status=status)


def _substitutes(tournament, sessions: list[Session], session_number: str) -> list:
    """The substitutes the form offers: those free in the chosen session, or every substitute."""
    chosen = next((s for s in sessions if str(s.number) == session_number), None)
    if chosen is not None:
        return penalty_selectors.substitutes_free(tournament=tournament, session=chosen)
    return [r for r in tournament.registrations.select_related("player") if r.is_substitute]


def _after_recording(request: HttpRequest, penalty, url: str) -> HttpResponse:
    """Back to the player's page; a player late past the limit opens the substitution next."""
    if not penalty.disqualifies:
        return redirect(url)
    messages.warning(
        request,
        _("%(name)s is out of this session (late past the limit). Choose the substitute who takes the seat.")
        % {"name": penalty.registration.player.full_name},
    )
    return redirect(
        f"{url}?kind={Replaced.value}&session={penalty.session.number}&reason=late_arrival#record"
    )


# -- the tournament's list ------------------------------------------------------------------------------------


def penalty_list(request: HttpRequest, slug: str) -> HttpResponse:
    """Every penalty of the tournament, newest first, filtered by session and kind."""
    if (response := _login_needed(request)) is not None:
        return response
    tournament = _tournament(slug)
    _referee_actor(request, tournament)
    sessions = list(Session.objects.filter(tournament=tournament).order_by("number"))
    filters = PenaltyFilterForm(request.GET or None, sessions=sessions)
    session_number = kind = None
    if filters.is_bound and filters.is_valid():
        session_number = int(filters.cleaned_data["session"]) if filters.cleaned_data["session"] else None
        kind = filters.cleaned_data["kind"] or None
    penalties = penalty_selectors.tournament_penalties(
        tournament=tournament, session_number=session_number, kind=kind
    )
    context = {
        "tournament": tournament,
        "filters": filters,
        "rows": penalty_lines(penalties=penalties, rules=tournament.get_rules()),
        "here": request.get_full_path(),
    }
    return render(request, "penalties/list.html", context)


# -- cancel and appeal --------------------------------------------------------------------------------------


def _next_url(request: HttpRequest, penalty: Penalty) -> str:
    url = request.POST.get("next", "")
    if url and url_has_allowed_host_and_scheme(url, allowed_hosts={request.get_host()}):
        return url
    return reverse("player-penalties", args=[penalty.tournament.slug, penalty.registration.key])


def _penalty_action(request: HttpRequest, slug: str, pk: int, action: str) -> HttpResponse:
    if (response := _login_needed(request)) is not None:
        return response
    tournament = _tournament(slug)
    actor = _referee_actor(request, tournament)
    penalty = get_object_or_404(
        Penalty.objects.select_related("registration__player", "session", "table"),
        pk=pk,
        tournament=tournament,
    )
    form = CancelForm(request.POST) if action == "cancel" else AppealForm(request.POST)
    if form.is_valid():
        try:
            if action == "cancel":
                services.penalty_cancel(penalty=penalty, actor=actor, reason=form.cleaned_data["reason"])
                messages.success(request, _("Penalty cancelled."))
            else:
                services.penalty_appeal(
                    penalty=penalty,
                    actor=actor,
                    appeal=form.cleaned_data["appeal"],
                    decision=form.cleaned_data["decision"],
                )
                messages.success(request, _("Appeal recorded."))
        except RuleError as exc:
            name = exc.path if exc.path in form.fields else None
            form.add_error(name, exc.message)
        else:
            return redirect(_next_url(request, penalty))
    row = penalty_lines(penalties=[penalty], rules=tournament.get_rules())[0]
    context = {
        "tournament": tournament,
        "row": row,
        "row_list": [row],
        "form": form,
        "action": action,
        "next": request.POST.get("next", ""),
    }
    return render(request, "penalties/action.html", context, status=400)


@require_POST
def penalty_cancel(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    return _penalty_action(request, slug, pk, "cancel")


@require_POST
def penalty_appeal(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    return _penalty_action(request, slug, pk, "appeal")
