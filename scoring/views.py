"""Result-entry pages: the table page (by role or by the table's private link), hand corrections, the
players' confirmation, and the referees' view of a session.

Each write form posts the table version it was rendered with and one ``action``; the view validates the
form, calls one service and redirects. A rule the engine refuses comes back as the form with the message
next to its field (400); a write based on an old version shows the current table again (409); nothing is
saved in either case.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.cache import patch_vary_headers
from django.utils.functional import cached_property
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.gzip import gzip_page
from django.views.decorators.http import require_GET

from penalties.forms import penalty_kinds
from penalties.presenters import penalty_lines
from scoring import forms as entry
from scoring import policy, selectors, services
from scoring.calls.views import call_context, table_call_url
from scoring.models import TableResult
from scoring.offline.views import offline_stamp
from scoring.presenters import needs_referee
from scoring.rules.base import RuleError
from scoring.services import StaleWrite
from scoring.tiles import forms as tile_forms
from scoring.tiles import services as tiles_services
from scoring.tiles.views import tiles_value_url
from tournaments import pagecache
from tournaments.clock import selectors as clock_selectors
from tournaments.lifecycle import results_closed
from tournaments.models import WIND_LETTERS, Role, Session, Table, Tournament
from tournaments.permissions import Actor, actor_for, can_referee, can_score, user_roles
from tournaments.presenters import WIND_NAMES, SeatLine, TableView
from tournaments.selectors import visible_through

# -- who is at the page ----------------------------------------------------------------------------------


def _role_actor(request: HttpRequest, table: Table) -> Actor:
    """A logged-in scorer, referee or director of the table's tournament (403 for anyone else)."""
    return actor_for(user=request.user, table=table)


def _seen_role_actor(request: HttpRequest, table: Table) -> Actor:
    """The role actor of a table page, refused (403 naming the rule) a confirmed table of a session
    hidden until the reveal that a scorer did not enter."""
    actor = _role_actor(request, table)
    if not actor.is_referee and selectors.result_hidden_from(user=request.user, table=table):
        raise PermissionDenied(selectors.hidden_result_message(table))
    return actor


def _table_urls(table: Table, link_key: str | None) -> dict[str, str]:
    session = table.session
    slug = session.tournament.slug
    if link_key:
        return {
            "page": reverse("table-link", args=[link_key]),
            "edit": reverse("table-link-hand", args=[link_key, 0]).removesuffix("0/"),
        }
    return {
        "page": reverse("table-page", args=[slug, session.number, table.number]),
        "edit": reverse("table-hand", args=[slug, session.number, table.number, 0]).removesuffix("0/"),
    }


# -- the table page ------------------------------------------------------------------------------------


def closed_reopen_url(tournament, session) -> str:
    """Where the director reopens what keeps results from changing: the tournament once finished, else the
    finished session."""
    if tournament.status == Tournament.Status.FINISHED:
        return reverse("console-home", args=[tournament.slug]) + "#reopen-reason"
    return reverse("console-session", args=[tournament.slug, session.number]) + "#reopen-reason"


@dataclass
class Refused:
    """A form the service or the form itself refused: shown again with ``status``."""

    slot: str
    form: Any
    status: int
    stale_version: int | None = None


FRAGMENTS_HEADER = "X-Entry-Fragments"


class TablePage:
    """The state of one table and the forms its visitor may use.

    The state (``selectors.table_state``) is built only when the page is rendered: a write reads what
    its form needs (the seats' names, the result read with the table) and goes to the service."""

    def __init__(self, request: HttpRequest, table: Table, actor: Actor, link_key: str | None):
        self.request = request
        self.table = table
        self.actor = actor
        self.link_key = link_key
        self.urls = _table_urls(table, link_key)

    @cached_property
    def state(self) -> selectors.TableState:
        return selectors.table_state(table=self.table, actor=self.actor)

    def written(self, result: TableResult, notice: str, rows_kept: int = 0) -> HttpResponse:
        """The answer to a write asked by the page's script (``X-Entry-Fragments``): the fragments of the
        page that changed, with ``notice``, from what the write read and stored (its hands, its replayed
        game): one request, one replay, instead of a redirect and a second read of the table.

        ``rows_kept``: the hands the page already shows and keeps (a hand added on top of the version the
        page showed): only the hands after them are drawn, so the answer does not grow with the table; the
        script checks that it shows that many, and reloads the page otherwise. The answer names the hands
        entered after the table's time (``data-late``): a kept row marked so loses its mark once the table's
        time was extended past it."""
        self.__dict__["state"] = selectors.table_state(table=self.table, actor=self.actor, result=result)
        return self.render(notice=notice, rows_kept=rows_kept)

    def refresh(self) -> None:
        """Read the table again (after a write that was refused as stale)."""
        selectors.table_refresh(self.table)
        self.__dict__.pop("state", None)

    # -- what this visitor may do ---------------------------------------------------------------------
    @property
    def is_referee(self) -> bool:
        return self.actor.is_referee

    @property
    def read_only(self) -> bool:
        return self.state.confirmed and not self.is_referee

    @property
    def can_edit(self) -> bool:
        return self.can("edit")

    def can(self, slot: str) -> bool:
        return self.state.can(slot)

    # -- forms ----------------------------------------------------------------------------------------
    @cached_property
    def _posted(self) -> tuple[list[str], TableResult | None]:
        """What a posted form needs: the seats' short names and the result read with the table."""
        if "state" in self.__dict__:
            return self.state.seat_names, self.state.result
        return selectors.table_seat_names(self.table), selectors.table_result_or_none(self.table)

    def build(self, slot: str, data=None):
        if data is None:  # a form shown on the page: from the table's state
            s = self.state
            names, result, rules = s.seat_names, s.result, s.rules
        else:  # a form posted: validated, then the service reads and checks the table itself
            names, result = self._posted
            rules = self.table.session.tournament.get_rules()
        confirmed = result is not None and result.is_confirmed
        initial = {"version": result.version if result is not None else 1}
        tournament = self.table.session.tournament
        if slot == "hand":
            return entry.hand_form_class(rules)(
                data,
                initial=initial,
                seats=names,
                rules=rules,
                tiles_mode=tiles_services.tiles_mode(tournament),
            )
        if slot == "totals":
            if data is None and result is not None and result.scores is not None:
                initial.update({f"score{i}": str(v) for i, v in enumerate(result.scores)})
                initial["imbalance_reason"] = result.imbalance_reason
            return entry.TotalsForm(
                data, initial=initial, seats=names, referee=self.is_referee, reason_required=confirmed
            )
        if slot == "undo":
            return entry.UndoForm(data, initial=initial)
        if slot == "confirm":
            return entry.ConfirmForm(
                data, initial=initial, usual=self.table.session.tournament.get_rules().usual_hands()
            )
        if slot in ("submit", "player_confirm", "clear_totals"):
            return entry.ActionForm(data, initial=initial)
        if slot == "reopen":
            return entry.ReasonForm(data, initial=initial)
        if slot == "seats":
            players = [
                (
                    r.key,
                    _("%(name)s (recorded: %(wind)s)") % {"name": r.player.full_name, "wind": WIND_NAMES[w]},
                )
                for r, w in zip(services.table_registrations(self.table), WIND_LETTERS, strict=True)
            ]
            return entry.SeatsForm(data, initial=initial, players=players, auto_id="seats-%s")
        raise ValueError(slot)

    def forms(self, refused: Refused | None = None, hand_form: bool = True) -> dict[str, Any]:
        """The forms this visitor may use; without ``hand_form`` (the fragments, where the phone keeps its
        own) the hand's slot only says whether a hand may be added, and its form is not built."""
        out: dict[str, Any] = {}
        for slot in ("hand", "totals", "clear_totals", "undo", "submit", "confirm", "reopen", "seats"):
            if refused is not None and refused.slot == slot and self.can(slot):
                out[slot] = refused.form
            elif self.can(slot):
                out[slot] = self.build(slot) if hand_form or slot != "hand" else True
        return out

    def closed_sentence(self) -> str:
        """Why this page takes no more hands (empty while it does), for a phone whose hands were not sent:
        what happened and what to do."""
        if self.can("hand"):
            return ""
        s = self.state
        if s.confirmed:
            return _(
                "A referee confirmed this table: hands can no longer be added here. Hands kept on this phone "
                "were not saved: show them to a referee, who can reopen the table."
            )
        if s.session.status == Session.Status.FINISHED or s.tournament.status == Tournament.Status.FINISHED:
            return _(
                "Session %(n)s is finished: hands can no longer be added here. Hands kept on this phone were "
                "not saved: show them to a referee."
            ) % {"n": s.session.number}
        if s.status == TableResult.Status.SUBMITTED:
            return _(
                "This table was submitted: only a referee changes it now. Hands kept on this phone were not "
                "saved: show them to a referee."
            )
        return _(
            "Hands can no longer be added here. Hands kept on this phone were not saved: show them to a referee."
        )

    def _short_hands(self) -> bool:
        """The table has fewer hands than a full session: confirming it asks for the reason."""
        s = self.state
        usual = s.rules.usual_hands()
        return bool(usual and s.mode == TableResult.Mode.HANDS and s.hands and len(s.hands) < usual)

    # -- rendering -------------------------------------------------------------------------------------
    def _error_target(self, refused: Refused | None) -> tuple[Any, str]:
        """A refused form's messages go in the summary at the top of the page, each linked to its field (or
        to the form when the field is hidden, or to nothing when the form is no longer offered): the form
        and the anchor of its slot."""
        error_form = refused.form if refused is not None and refused.status == 400 else None
        if error_form is None or not self.can(refused.slot):
            return error_form, ""
        return error_form, {"clear_totals": "clear-totals"}.get(refused.slot, refused.slot)

    def _reopen_confirm(self) -> dict | None:
        """The confirmation step before reopening a confirmed table (the reopen form asks for it by GET)."""
        request = self.request
        if request.method != "GET" or request.GET.get("confirm") != "reopen" or not self.can("reopen"):
            return None
        s = self.state
        return {
            "reason": request.GET.get("reason", "").strip()[:500],
            "hands": len(s.hands),
            "rows": s.outcome or [],
        }

    def _staff_context(self) -> dict[str, Any]:
        """What only the staff (and the scorer, for the penalties) see: the table's penalties, the kinds a
        referee may record, the way back to a closed session, the table's history, the session's tables."""
        s, role, tournament = self.state, self.actor.role, self.state.tournament
        positions = {(self.table.pk, seat.registration.pk): seat.position for seat in s.seats}
        return {
            "penalties": penalty_lines(penalties=s.penalties, rules=s.rules, positions=positions)
            if self.is_referee or role == Role.SCORER
            else [],
            "penalty_kinds": penalty_kinds(s.rules) if self.is_referee and not s.closed else [],
            "closed_reopen_url": closed_reopen_url(tournament, s.session)
            if s.closed and role == Role.DIRECTOR
            else "",
            "history": selectors.table_history(table=self.table, state=s) if self.is_referee else None,
            "session_url": reverse("session-tables", args=[tournament.slug, s.session.number])
            if role in (Role.DIRECTOR, Role.REFEREE, Role.SCORER)
            else "",
        }

    def render(self, refused: Refused | None = None, notice: str = "", rows_kept: int = 0) -> HttpResponse:
        s = self.state
        # The page's script asks, after a hand it saved, for what changed only (not the hand form, not the
        # call of a referee, which keeps itself current).
        fragments = refused is None and self.request.headers.get(FRAGMENTS_HEADER) == "1"
        error_form, error_anchor = self._error_target(refused)
        context = {
            "tournament": s.tournament,
            "state": s,
            "page": self,
            "forms": self.forms(refused, hand_form=not fragments),
            "refused": refused,
            "error_form": error_form,
            "reopen_confirm": self._reopen_confirm(),
            "error_anchor": error_anchor,
            "urls": self.urls,
            "via_link": self.link_key is not None and self.actor.role == "table",
            "fu_url": reverse("riichi-fu-options"),
            "tiles_value_url": tiles_value_url(self.table, self.link_key, s.next_hand),
            **self._staff_context(),
            "players_confirm": bool(s.tournament.settings.get("players_confirm")),
            "short_hands": self._short_hands(),
            "closed": self.closed_sentence(),
            "table_clock": clock_selectors.table_clock(table=self.table, hand_times=s.hand_times),
            "notice": notice,
            "rows_kept": rows_kept,
            "hand_rows": s.hands_newest_first[: len(s.hands) - rows_kept],
        }
        status = refused.status if refused is not None else 200
        if not fragments:
            context |= call_context(
                table=self.table, actor=self.actor, call_url=table_call_url(self.table, self.link_key)
            )
        template = "scoring/table_fragments.html" if fragments else "scoring/table.html"
        response = render(self.request, template, context, status=status)
        patch_vary_headers(response, [FRAGMENTS_HEADER])
        return response


def _write(
    page: TablePage,
    slot: str,
    form,
    call: Callable[[int], TableResult],
    success: Callable[[TableResult], str],
) -> Refused | HttpResponse:
    """Validate ``form``, call the service with the version it carries, and redirect on success (or, for
    the page's script, answer the fragments that changed)."""
    if not form.is_valid():
        return Refused(slot, form, 400)
    try:
        result = call(form.cleaned_data["version"])
    except StaleWrite as exc:
        data = page.request.POST.copy()
        data["version"] = str(exc.current_version)
        page.refresh()
        return Refused(slot, page.build(slot, data), 409, stale_version=exc.current_version)
    except RuleError as exc:
        form.add_rule_error(exc)
        return Refused(slot, form, 400)
    if page.request.headers.get(FRAGMENTS_HEADER) == "1":
        # a hand added on top of what the page showed: the page keeps the hands it shows
        return page.written(result, success(result), rows_kept=result.hand_count - 1 if slot == "hand" else 0)
    messages.success(page.request, success(result))
    return redirect(page.urls["page"] + "#" + slot)


# What each form of the table page writes, and what it says when it worked.
TABLE_ACTIONS: dict[str, tuple[Callable[..., Any], Callable[[Any, Table], str]]] = {
    "hand": (
        lambda table, actor, form, v: services.hand_add(
            table=table, hand=form.full_hand(), actor=actor, expected_version=v
        ),
        lambda r, table: _("Hand %(n)s saved.") % {"n": r.hand_count},
    ),
    "undo": (
        lambda table, actor, form, v: services.hand_remove_last(
            table=table, actor=actor, expected_version=v, reason=form.cleaned_data.get("reason", "")
        ),
        lambda r, table: _("The last hand was undone."),
    ),
    "totals": (
        lambda table, actor, form, v: services.totals_set(
            table=table,
            scores=form.scores(),
            actor=actor,
            expected_version=v,
            imbalance_reason=form.cleaned_data.get("imbalance_reason", ""),
            reason=form.cleaned_data.get("reason", ""),
            confirm_unusual=bool(form.cleaned_data.get("confirm_unusual")),
        ),
        lambda r, table: _("Game totals saved."),
    ),
    "clear_totals": (
        lambda table, actor, form, v: services.totals_clear(table=table, actor=actor, expected_version=v),
        lambda r, table: _("The totals were cleared: enter the table hand by hand."),
    ),
    "submit": (
        lambda table, actor, form, v: services.result_submit(table=table, actor=actor, expected_version=v),
        lambda r, table: _("Result submitted. A referee will confirm it."),
    ),
    "confirm": (
        lambda table, actor, form, v: services.result_confirm(
            table=table,
            actor=actor,
            expected_version=v,
            short_reason=form.cleaned_data.get("short_reason", ""),
        ),
        lambda r, table: _("Table %(n)s confirmed.") % {"n": table.number},
    ),
    "reopen": (
        lambda table, actor, form, v: services.result_reopen(
            table=table, actor=actor, reason=form.cleaned_data["reason"], expected_version=v
        ),
        lambda r, table: (
            _("Table %(n)s reopened: it no longer counts until it is confirmed again.") % {"n": table.number}
        ),
    ),
    "seats": (
        lambda table, actor, form, v: services.seats_correct(
            table=table,
            order=form.order(),
            actor=actor,
            expected_version=v,
            reason=form.cleaned_data["reason"],
        ),
        lambda r, table: (
            _("The seats of table %(n)s were corrected: the hands follow the players.") % {"n": table.number}
        ),
    ),
}


def _post(page: TablePage) -> HttpResponse:
    request, table, actor = page.request, page.table, page.actor
    action = request.POST.get("action", "")
    if action not in TABLE_ACTIONS:
        form = entry.ActionForm(request.POST)
        form.is_valid()
        form.add_error(None, _("Unknown action."))
        return page.render(Refused("unknown", form, 400))
    write, message = TABLE_ACTIONS[action]
    form = page.build(action, request.POST)
    outcome = _write(page, action, form, lambda v: write(table, actor, form, v), lambda r: message(r, table))
    if isinstance(outcome, Refused):
        return page.render(outcome)
    return outcome


def _table_view(request: HttpRequest, table: Table, actor: Actor, link_key: str | None) -> HttpResponse:
    page = TablePage(request, table, actor, link_key)
    if request.method == "POST":
        return _post(page)
    return offline_stamp(request, page.render())


def _page_tag(request: HttpRequest, slug: str | None) -> str | None:
    """The validator of a table page as this visitor sees it now: the tournament's publication stamp
    (renewed after every write of the tournament: hands, penalties, seating, clock, roles), the visitor
    and the language. None when the page must be rendered anyway (a write, a query string, a message to
    show). Weak: the bytes differ by the mask of the form's CSRF token, which is as valid in either copy."""
    if request.method != "GET" or request.GET or slug is None:
        return None
    if request.COOKIES.get("messages") or len(messages.get_messages(request)):
        return None
    user = request.user.pk if request.user.is_authenticated else 0
    return f'W/"{pagecache.stamp(slug)}.{user}.{get_language()}"'


def _conditional(
    request: HttpRequest, tag: str | None, render_page: Callable[[], HttpResponse]
) -> HttpResponse:
    """304 when the visitor's copy of the page is the current one (``If-None-Match``), else the page."""
    if tag is not None and pagecache.not_modified(request, tag.removeprefix("W/")):
        # the copy's account and session end travel with the 304 too: the copy kept takes them
        response = offline_stamp(request, HttpResponse(status=304))
    else:
        response = render_page()
    if tag is not None and response.status_code in (200, 304):
        response["ETag"] = tag
        response["Cache-Control"] = "private, no-cache"
    return response


@gzip_page
def table_page(request: HttpRequest, slug: str, session: int, number: int) -> HttpResponse:
    """The table page for the scorers, referees and directors of the tournament."""
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())

    def page() -> HttpResponse:
        table = selectors.table_for_page(slug=slug, session_number=session, table_number=number)
        return _table_view(request, table, _seen_role_actor(request, table), None)

    return _conditional(request, _page_tag(request, slug), page)


@gzip_page
def table_link(request: HttpRequest, key: str) -> HttpResponse:
    """The table page reached by the table's private link, without an account."""

    def page() -> HttpResponse:
        table = selectors.table_for_key(key=key)
        return _table_view(request, table, actor_for(user=request.user, table=table, table_key=key), key)

    tag = _page_tag(request, selectors.tournament_slug_of_key(key=key)) if request.method == "GET" else None
    return _conditional(request, tag, page)


# -- correcting a hand ------------------------------------------------------------------------------------


def _hand_edit(request: HttpRequest, table: Table, actor: Actor, link_key: str | None, number: int):
    page = TablePage(request, table, actor, link_key)
    tournament = table.session.tournament
    if results_closed(session=table.session, tournament=tournament):
        # a finished session or tournament: no correction form; the table says why and where to reopen it
        if request.method != "POST":
            return redirect(page.urls["page"] + "#results-closed")
        response = page.render()
        response.status_code = 400
        return response
    tiles_mode = tiles_services.tiles_mode(tournament)
    posted = None  # (form, status, stale version) of a correction that did not go through
    if request.method == "POST":
        posted = _hand_correct(request, page, actor, number, tiles_mode)
        if isinstance(posted, HttpResponse):
            return posted
    state = page.state
    rows = {h.number: h for h in state.hands}
    if number not in rows:
        return render(
            request,
            "scoring/hand_edit.html",
            {
                "tournament": state.tournament,
                "state": state,
                "page": page,
                "missing": number,
                "urls": page.urls,
            },
            status=404,
        )
    if not page.can("edit"):
        raise PermissionDenied(_("This table is confirmed; a referee must reopen it."))
    form, status, stale = _hand_edit_form(request, state, rows[number], posted, tiles_mode)
    context = {
        "tournament": state.tournament,
        "state": state,
        "page": page,
        "row": rows.get(number),
        "number": number,
        "form": form,
        "stale_version": stale,
        "urls": page.urls,
        "fu_url": reverse("riichi-fu-options"),
        "tiles_value_url": tiles_value_url(table, link_key, number),
    }
    return render(request, "scoring/hand_edit.html", context, status=status)


def _hand_correct(request: HttpRequest, page: TablePage, actor: Actor, number: int, tiles_mode: str):
    """A correction reads what its form needs and goes to the service (the table's state is built only
    when the page is shown again): the redirect when it went through, else (form, status, stale version),
    or None when there is no such hand."""
    table = page.table
    names, result = page._posted
    count = result.hands.count() if result is not None else 0
    if not 1 <= number <= count:
        return None
    facts = services.facts_of(result, count)
    if "edit" not in policy.allowed_actions(facts, referee=actor.is_referee):
        raise PermissionDenied(_("This table is confirmed; a referee must reopen it."))
    rules = table.session.tournament.get_rules()
    form_class = entry.hand_form_class(rules)
    form = form_class(request.POST, seats=names, rules=rules, reason_required=True, tiles_mode=tiles_mode)
    if not form.is_valid():
        return (form, 400, None)
    try:
        services.hand_replace(
            table=table,
            number=number,
            hand=form.full_hand(),
            actor=actor,
            expected_version=form.cleaned_data["version"],
            reason=form.cleaned_data["reason"],
        )
    except StaleWrite as exc:
        page.refresh()
        return (None, 409, exc.current_version)
    except RuleError as exc:
        form.add_rule_error(exc)
        return (form, 400, None)
    messages.success(request, _("Hand %(n)s corrected.") % {"n": number})
    return redirect(page.urls["page"] + "#hands")


def _hand_edit_form(request: HttpRequest, state, row, posted, tiles_mode: str):
    """(form, status, stale version): the posted form again (a stale one with the version the table is
    at now), or the hand's values to correct."""
    form_class = entry.hand_form_class(state.rules)
    kwargs = {
        "seats": state.seat_names,
        "rules": state.rules,
        "reason_required": True,
        "tiles_mode": tiles_mode,
    }
    if posted is not None:
        form, status, stale = posted
        if form is None:  # stale: the posted values again, with the version the table is at now
            data = request.POST.copy()
            data["version"] = str(stale)
            form = form_class(data, **kwargs)
        return form, status, stale
    data = row.data
    initial = form_class.initial_from(data)
    winners = data.get("winners") or [{}]
    initial.update(tile_forms.initial_from(data.get("tiles") or winners[0].get("tiles")))
    initial["version"] = state.version
    return form_class(initial=initial, **kwargs), 200, None


def hand_edit(request: HttpRequest, slug: str, session: int, number: int, hand: int) -> HttpResponse:
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    table = selectors.table_for_page(slug=slug, session_number=session, table_number=number)
    return _hand_edit(request, table, _seen_role_actor(request, table), None, hand)


def hand_edit_link(request: HttpRequest, key: str, hand: int) -> HttpResponse:
    table = selectors.table_for_key(key=key)
    return _hand_edit(request, table, actor_for(user=request.user, table=table, table_key=key), key, hand)


# -- the players confirm ---------------------------------------------------------------------------------


def player_confirm(request: HttpRequest, key: str, player_key: str) -> HttpResponse:
    """A player confirms the table's result with their own private link (tournament setting
    ``players_confirm``); the table is confirmed when all four have."""
    table = selectors.table_for_key(key=key)
    tournament = table.session.tournament
    if not tournament.settings.get("players_confirm"):
        raise PermissionDenied(_("In this tournament a referee confirms the tables."))
    state = selectors.table_state(table=table)
    seat = next((s for s in state.seats if s.registration.player.private_key == player_key), None)
    if seat is None:
        raise PermissionDenied(_("Only the four players of the table can confirm it."))
    form = entry.PlayerConfirmForm(initial={"version": state.version})
    status, stale = 200, None
    if request.method == "POST":
        form = entry.PlayerConfirmForm(request.POST)
        if form.is_valid():
            try:
                services.result_confirm_by_player(
                    table=table, player_key=player_key, expected_version=form.cleaned_data["version"]
                )
            except StaleWrite as exc:
                state = selectors.table_state(table=table)
                form = entry.PlayerConfirmForm(initial={"version": exc.current_version})
                status, stale = 409, exc.current_version
            except RuleError as exc:
                form.add_rule_error(exc)
                status = 400
            else:
                messages.success(
                    request, _("Thank you, %(name)s: your confirmation is recorded.") % {"name": seat.name}
                )
                return redirect(request.path)
        else:
            status = 400
    context = {
        "tournament": tournament,
        "state": state,
        "seat": seat,
        "form": form,
        "stale_version": stale,
        "already": seat.registration.key in state.player_confirmations,
    }
    return render(request, "scoring/player_confirm.html", context, status=status)


# -- the referees' view of a session ------------------------------------------------------------------------


def _without_results(row: TableView) -> TableView:
    seats = [SeatLine(position=s.position, key=s.key, name=s.name, short=s.short) for s in row.seats]
    return dataclasses.replace(row, seats=seats, has_result=False)


def session_tables(request: HttpRequest, slug: str, session: int) -> HttpResponse:
    """Every table of a session with its status, for the referees (and scorers, who cannot confirm)."""
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    session_obj = selectors.session_for_page(slug=slug, session_number=session)
    tournament = session_obj.tournament
    if not can_score(request.user, tournament):
        raise PermissionDenied(_("You need a role in this tournament."))
    referee = can_referee(request.user, tournament)
    status = 200
    errors: list[str] = []
    stale = None
    if request.method == "POST":
        if not referee:
            raise PermissionDenied(_("Only a referee or a director confirms a table."))
        table_id = request.POST.get("table", "")
        table = get_object_or_404(Table, session=session_obj, pk=int(table_id) if table_id.isdigit() else 0)
        form = entry.ActionForm(request.POST)
        if form.is_valid():
            try:
                services.result_confirm(
                    table=table,
                    actor=actor_for(user=request.user, table=table),
                    expected_version=form.cleaned_data["version"],
                    short_reason=request.POST.get("short_reason", "")[:500],
                )
            except StaleWrite as exc:
                status, stale = 409, (table.number, exc.current_version)
            except RuleError as exc:
                status = 400
                errors.append(_("Table %(n)s: %(message)s") % {"n": table.number, "message": exc.message})
            else:
                messages.success(request, _("Table %(n)s confirmed.") % {"n": table.number})
                return redirect(request.path)
        else:
            status = 400
            errors.append(_("The form was incomplete; reload the page."))
    rows = selectors.session_tables(session=session_obj)
    last = visible_through(tournament=tournament, user=request.user)
    if last is not None and session_obj.number > last:  # a scorer: the confirmed results stay hidden
        rows = [_without_results(row) if row.entry == "confirmed" else row for row in rows]
    counts = {
        key: sum(1 for r in rows if r.entry == key) for key in ("empty", "draft", "submitted", "confirmed")
    }
    context = {
        "tournament": tournament,
        "session": session_obj,
        "rows": rows,
        "counts": counts,
        "needs": needs_referee(rows),
        "referee": referee,
        "director": Role.DIRECTOR in user_roles(request.user, tournament),
        "errors": errors,
        "stale": stale,
        "usual_hands": tournament.get_rules().usual_hands(),
    }
    return render(request, "scoring/session_tables.html", context, status=status)


# -- the fu that exist for a han (htmx) -------------------------------------------------------------------


@require_GET
def riichi_fu_options(request: HttpRequest) -> HttpResponse:
    """The fu select of a riichi winner, re-rendered when the han or the kind of win changes."""
    block = request.GET.get("block", "")
    if block not in entry.WINNER_BLOCKS:
        block = ""
    win = "ron" if block else request.GET.get("result", "ron")
    han = request.GET.get(f"han{block}")
    options = entry.fu_options(han, win)
    context = {
        "fu": {
            "block": block,
            "name": f"fu{block}",
            "selected": request.GET.get(f"fu{block}", ""),
            "options": entry.FU_VALUES if options is None else options,
            "needed": options != [],
        },
        "fu_url": reverse("riichi-fu-options"),
    }
    return render(request, "scoring/_fu_select.html", context)
