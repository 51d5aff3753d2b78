"""Pages of hands from tiles: the value preview of the tile picker (htmx), a referee's resolution of a
held hand, and the director's setting."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from scoring import forms as entry
from scoring import selectors, services
from scoring.models import Hand
from scoring.rules.base import RuleError
from tournaments.models import Table, Tournament
from tournaments.permissions import actor_for, can_manage, can_referee, can_view, is_any_director

from . import forms as tile_forms
from . import services as tiles_services
from .selectors import held_hand_view, tournament_statistics
from .selectors import notable_hands as entries

MAX_HAND_NUMBER = 1000


def tiles_value_url(table: Table, link_key: str | None, number: int | None) -> str:
    if link_key:
        url = reverse("tiles-value-link", args=[link_key])
    else:
        s = table.session
        url = reverse("tiles-value", args=[s.tournament.slug, s.number, table.number])
    return f"{url}?hand={number}" if number else url


def _preview(request: HttpRequest, table: Table, actor) -> HttpResponse:
    """The value of the tiles typed or picked so far, as a fragment for htmx. Malformed tiles, or tiles
    that are no winning hand, answer 422 with the field and the rule named; a form that only lacks a field
    the value needs (the winner) answers 200 and says which."""
    state = selectors.table_state(table=table, actor=actor)
    try:
        number = int(request.GET.get("hand") or state.next_hand or 1)
    except ValueError:
        number = state.next_hand or 1
    number = max(1, min(number, MAX_HAND_NUMBER))
    form = entry.hand_form_class(state.rules)(
        request.POST, seats=state.seat_names, rules=state.rules, tiles_mode="optional"
    )
    context: dict = {}
    status = 200
    form.is_valid()
    tiles = tile_forms.tiles_of(form.cleaned_data) if hasattr(form, "cleaned_data") else None
    tile_errors = [(name, errors) for name, errors in form.errors.items() if name.startswith("tiles")]
    if tile_errors:
        context["problem"] = _field_error(form, *tile_errors[0])
        status = 422
    elif tiles is None:
        context["empty"] = True
    elif form.errors:
        context["needs"] = _field_error(form, *next(iter(form.errors.items())))
    else:
        try:
            record = tiles_services.hand_tiles_value(table=table, hand=form.full_hand(), number=number)
        except RuleError as exc:
            context["problem"] = exc.message
            status = 422
        else:
            context["wins"] = [
                {
                    **win,
                    "claimed_text": tiles_services.claim_text(state.rules.family, win["claimed"]),
                    "computed_text": tiles_services.claim_text(state.rules.family, win["computed"]["claim"]),
                }
                for win in record["wins"]
            ]
            context["status"] = record["status"]
    if "liable" in form.fields:  # the liable player is asked only for the yakuman the rules name
        context["liability_form"] = form
    return render(request, "scoring/tiles/_value.html", context, status=status)


def _field_error(form, name: str, errors) -> str:
    label = form.fields[name].label if name in form.fields else ""
    return f"{label}: {errors[0]}" if label else str(errors[0])


@require_POST
def tiles_value(request: HttpRequest, slug: str, session: int, number: int) -> HttpResponse:
    # the table first: a missing one answers 404 as a private one does to an outsider
    table = selectors.table_for_page(slug=slug, session_number=session, table_number=number)
    if not request.user.is_authenticated:
        raise PermissionDenied
    actor = actor_for(user=request.user, table=table)
    return _preview(request, table, actor)


@require_POST
def tiles_value_link(request: HttpRequest, key: str) -> HttpResponse:
    table = selectors.table_for_key(key=key)
    actor = actor_for(user=request.user, table=table, table_key=key)
    return _preview(request, table, actor)


def hand_resolve(request: HttpRequest, slug: str, session: int, number: int, hand: int) -> HttpResponse:
    """A referee looks at a held hand (claimed value, computed value, the fan or yaku) and decides."""
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    table = selectors.table_for_page(slug=slug, session_number=session, table_number=number)
    actor = actor_for(user=request.user, table=table)
    if not actor.is_referee:
        raise PermissionDenied(_("Only a referee or a director resolves a held hand."))
    page_url = reverse("table-page", args=[slug, session, number])
    view = held_hand_view(table=table, number=hand)
    if view is None:
        messages.info(request, _("Hand %(n)s is not held.") % {"n": hand})
        return redirect(page_url + "#hands")
    status = 200
    if request.method == "POST":
        form = tile_forms.ResolveForm(request.POST)
        if form.is_valid():
            try:
                services.hand_tiles_resolve(
                    table=table,
                    number=hand,
                    actor=actor,
                    expected_version=form.cleaned_data["version"],
                    decision=form.cleaned_data["decision"],
                    reason=form.cleaned_data.get("reason", ""),
                )
            except services.StaleWrite:
                form.add_error(None, _("Someone else changed this table meanwhile; check the hand again."))
                status = 409
            except RuleError as exc:
                form.add_error("reason" if exc.path == "reason" else None, exc.message)
                status = 400
            else:
                messages.success(request, _("Hand %(n)s resolved.") % {"n": hand})
                return redirect(page_url + "#hands")
        else:
            status = 400
    else:
        form = tile_forms.ResolveForm(initial={"version": view["version"]})
    family = table.session.tournament.get_rules().family
    for win in view["wins"]:  # the claim as the table stated it: only the values it has, in their units
        win["claimed_text"] = tiles_services.claim_text(family, win.get("claimed"))
    context = {
        "tournament": table.session.tournament,
        "table": table,
        "view": view,
        "form": form,
        "page_url": page_url,
        "number": hand,
    }
    return render(request, "scoring/tiles/resolve.html", context, status=status)


@login_required
def tiles_setting(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = get_object_or_404(Tournament, slug=slug)
    if not can_manage(request.user, tournament):
        raise PermissionDenied(_("You need the director role in this tournament."))
    status = 200
    if request.method == "POST":
        form = tile_forms.SettingForm(request.POST)
        if form.is_valid():
            tiles_services.tiles_mode_set(tournament=tournament, mode=form.cleaned_data["tiles"])
            messages.success(request, _("Setting saved."))
            return redirect("tiles-setting", slug=tournament.slug)
        status = 400
    else:
        form = tile_forms.SettingForm(initial={"tiles": tiles_services.tiles_mode(tournament)})
    return render(
        request, "scoring/tiles/setting.html", {"tournament": tournament, "form": form}, status=status
    )


# -- statistics and the register of notable hands ------------------------------------------------------


def statistics(request: HttpRequest, slug: str) -> HttpResponse:
    """A tournament's statistics: per player, the most frequent fan or yaku, the biggest hands."""
    tournament = get_object_or_404(Tournament, slug=slug)
    if not can_view(request.user, tournament):
        raise Http404
    stats = tournament_statistics(tournament=tournament, user=request.user)
    context = {
        "tournament": tournament,
        "stats": stats,
        "ranking": stats.best_hand_ranking(),
        "riichi": stats.declares_riichi,
        "can_register": can_referee(request.user, tournament),
        "register_form": tile_forms.RegisterFromHandForm(),
    }
    return render(request, "scoring/tiles/statistics.html", context)


@require_POST
def register_from_hand(request: HttpRequest, slug: str, session: int, number: int, hand: int) -> HttpResponse:
    """A referee or director puts a recorded hand with tiles into the register of notable hands."""
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    tournament = get_object_or_404(Tournament, slug=slug)
    if not can_referee(request.user, tournament):
        raise PermissionDenied(_("Only a referee or a director registers a hand."))
    target = get_object_or_404(
        Hand,
        result__table__session__tournament=tournament,
        result__table__session__number=session,
        result__table__number=number,
        number=hand,
    )
    form = tile_forms.RegisterFromHandForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Give the hand a title."))
    else:
        try:
            tiles_services.notable_hand_from_hand(
                hand=target, title=form.cleaned_data["title"], user=request.user
            )
        except RuleError as exc:
            messages.error(request, exc.message)
        else:
            messages.success(request, _("The hand is in the register of notable hands."))
    return redirect("tiles-statistics", slug=slug)


def notable_hands(request: HttpRequest) -> HttpResponse:
    """The public register of notable hands, across tournaments; directors add entries by hand."""
    can_add = is_any_director(request.user)
    status = 200
    form = tile_forms.NotableHandForm() if can_add else None
    if request.method == "POST":
        if not can_add:
            raise PermissionDenied(_("Only a tournament director adds to the register."))
        form = tile_forms.NotableHandForm(request.POST)
        if form.is_valid():
            try:
                tiles_services.notable_hand_create(**form.cleaned_data, user=request.user)
            except RuleError as exc:
                form.add_error(exc.path if exc.path in form.fields else None, exc.message)
            else:
                messages.success(request, _("Entry added to the register."))
                return redirect("notable-hands")
        status = 400
    return render(
        request,
        "scoring/tiles/notable_hands.html",
        {"entries": entries(user=request.user)[:500], "form": form},
        status=status,
    )
