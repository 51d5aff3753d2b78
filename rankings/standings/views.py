"""Pages of the rankings app: the public standings, refreshed by htmx polling.

Everything a standings page shows is rendered once per snapshot, freshness state and language, and kept in
the cache (Redis when configured) under a key that holds the snapshot's version: a cached page is never
older than the stored snapshot, and a request costs one small query (the tournament and its freshness) and
one cache read whatever the number of players.

Anonymous visitors (players on their phones) get the whole page from the cache; the only per-visitor part of
it, the CSRF token of the language switch and of htmx requests, is put in when it is served. Visitors with a
session (staff) get the page rendered around the cached rows.
"""

from __future__ import annotations

from django import forms
from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.safestring import mark_safe
from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_GET, require_POST

from rankings.exports.base import render_csv
from rankings.standings import needs_selectors, selectors, services
from rankings.standings.engine import TIEBREAKS, method_of
from scoring.rules.base import RuleError
from tournaments import pagecache, presenters
from tournaments.console import selectors as console
from tournaments.models import Tournament
from tournaments.permissions import can_view, tournament_for_director, user_roles

POLL_SECONDS = 20
CSRF_MARKER = "csrf-token-marker-7c1d3e"


def poll_seconds() -> int:
    return int(getattr(settings, "STANDINGS_POLL_SECONDS", POLL_SECONDS))


def _visible(request, slug: str) -> tuple[Tournament, selectors.Freshness]:
    tournament, freshness = selectors.tournament_with_freshness(slug=slug)
    if not can_view(request.user, tournament):
        raise Http404("No such tournament.")
    return tournament, freshness


def _by_table_points(tournament: Tournament) -> bool:
    try:
        return method_of(tournament.get_rules()) == "table_points"
    except Exception:  # an unknown ruleset in old data: show the score only
        return False


def _table_order_note(tournament: Tournament) -> str:
    """Under table points that penalties do not change (MERS), the sentence that explains a player with
    more table points and a lower score than the next one."""
    try:
        rules = tournament.get_rules()
    except Exception:  # an unknown ruleset in old data, as above
        return ""
    return str(presenters.TABLE_ORDER_NOTE) if presenters.penalties_keep_table_order(rules) else ""


# A few rendered pages kept in this process too, in front of the shared cache: the keys name the
# snapshot, so a page is the same in every process, and a hit costs no round trip to Redis.
local_pages = pagecache.LocalCache(32)


def _cache_get(key: str):
    return pagecache.cached(local_pages, key, settings.PUBLIC_PAGE_CACHE_SECONDS)


def _cache_set(key: str, value: str) -> None:
    pagecache.keep(local_pages, key, value, settings.PUBLIC_PAGE_CACHE_SECONDS)


def standings_rows_html(*, tournament: Tournament, freshness: selectors.Freshness) -> str:
    """The rendered rows of the standings table, from the cache when this snapshot was rendered before."""
    key = f"standings:rows:{selectors.page_stamp(tournament)}:{freshness.token}:{get_language()}"
    html = _cache_get(key)
    if html is None:
        document = selectors.standings_document(tournament=tournament)
        html = render_to_string(
            "rankings/_standings_rows.html",
            {
                "lines": selectors.standings_lines(tournament=tournament, document=document),
                "by_table_points": _by_table_points(tournament),
                "player_base": _player_base(tournament),
            },
        )
        _cache_set(key, str(html))
    return mark_safe(html)  # rendered by our own template above


def _context(tournament: Tournament, freshness: selectors.Freshness) -> dict:
    return {
        "tournament": tournament,
        "freshness": freshness,
        "rows": standings_rows_html(tournament=tournament, freshness=freshness),
        "by_table_points": _by_table_points(tournament),
        "table_order_note": _table_order_note(tournament),
        "poll_seconds": poll_seconds(),
        "teams": selectors.team_lines(document=selectors.standings_document(tournament=tournament)),
    }


def _player_base(tournament: Tournament) -> str:
    return reverse("player-public", args=[tournament.slug, "KEY"]).removesuffix("KEY/")


def _hidden_standings(request, tournament: Tournament) -> HttpResponse | None:
    """The page shown instead while the last sessions' standings are hidden from the public: the
    standings (and teams) as after the last session the public may see. None: show the live standings."""
    last = console.hidden_after(tournament=tournament)
    if last is None or console.sees_hidden(user=request.user, tournament=tournament):
        return None
    document = selectors.standings_document(tournament=tournament, upto_session=last)
    return render(
        request,
        "rankings/hidden_standings.html",
        {
            "tournament": tournament,
            "roles": user_roles(request.user, tournament),
            "last": last,
            "lines": selectors.standings_lines(tournament=tournament, document=document),
            "teams": selectors.team_lines(document=document),
            "by_table_points": _by_table_points(tournament),
            "player_base": _player_base(tournament),
        },
    )


@require_GET
def standings(request, slug: str):
    tournament, freshness = _visible(request, slug)
    hidden = _hidden_standings(request, tournament)
    if hidden is not None:
        return hidden
    if tournament.is_public:  # anonymous visitors: one rendering per snapshot, served by pagecache

        def page(extra: dict) -> str:
            context = {**_context(tournament, freshness), "roles": set(), **extra}
            return render_to_string("rankings/standings.html", context, request=request)

        cached = pagecache.public_page(request, slug=slug, render=page)
        if cached is not None:
            return cached
    context = {**_context(tournament, freshness), "roles": user_roles(request.user, tournament)}
    return render(request, "rankings/standings.html", context)


@require_GET
def standings_rows(request, slug: str):
    """The polled part: 204 when nothing changed since ``v``, else the new table body and freshness line."""
    tournament, freshness = _visible(request, slug)
    if request.GET.get("v") == freshness.token or _hidden_standings(request, tournament) is not None:
        return HttpResponse(status=204)
    response = render(request, "rankings/_standings_poll.html", _context(tournament, freshness))
    response["Cache-Control"] = "no-store"
    return response


# -- director actions (the dashboard lives in tournaments.views) -------------------------------------

TIEBREAK_LABELS = {
    "first_places": (_("First places"), _("More sessions finished first at the table.")),
    "best_session": (_("Best session"), _("The better best single session.")),
    "head_to_head": (_("Head to head"), _("Points won in the sessions against the other tied players.")),
    "fewer_penalties": (_("Fewer penalties"), _("Fewer penalty points.")),
}
TIEBREAK_SLOTS = 4


class TiebreakForm(forms.Form):
    """The order of the tie-breaks after table points and score (MCR) or score (other rulesets)."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        choices = [("", "—")] + [(key, TIEBREAK_LABELS.get(key, (key,))[0]) for key in TIEBREAKS]
        for i in range(1, TIEBREAK_SLOTS + 1):
            self.fields[f"tiebreak_{i}"] = forms.ChoiceField(
                label=_("Tie-break %(n)s") % {"n": i}, choices=choices, required=False
            )

    @classmethod
    def for_tournament(cls, tournament: Tournament) -> TiebreakForm:
        order = selectors.tiebreak_order(tournament=tournament)
        return cls(initial={f"tiebreak_{i}": key for i, key in enumerate(order, start=1)})

    def clean(self):
        data = super().clean()
        keys = [data.get(f"tiebreak_{i}") for i in range(1, TIEBREAK_SLOTS + 1)]
        keys = [k for k in keys if k]
        if len(set(keys)) != len(keys):
            raise forms.ValidationError(_("Each tie-break can be chosen once."))
        data["keys"] = keys
        return data


@login_required
@require_POST
def director_recompute(request, slug: str):
    """Recompute the standings now, in this request (also when the broker is down)."""
    tournament = tournament_for_director(user=request.user, slug=slug)
    try:
        state = services.standings_refresh(tournament_id=tournament.pk)
    except Exception as exc:  # wrong data: say what failed, keep the dashboard up
        services.standings_failed(tournament_id=tournament.pk, error=f"{type(exc).__name__}: {exc}")
        messages.error(request, _("The standings could not be computed: %(error)s") % {"error": exc})
    else:
        messages.success(
            request,
            _("Standings recomputed (version %(v)s).") % {"v": state.computed_version if state else 0},
        )
    return redirect("director-dashboard", slug=tournament.slug)


@login_required
@require_POST
def director_tiebreaks(request, slug: str):
    tournament = tournament_for_director(user=request.user, slug=slug)
    form = TiebreakForm(request.POST)
    if form.is_valid():
        try:
            services.standings_tiebreaks_set(tournament=tournament, tiebreaks=form.cleaned_data["keys"])
        except RuleError as exc:
            messages.error(request, str(exc))
        else:
            messages.success(request, _("Tie-break order saved; the standings are being recomputed."))
    else:
        messages.error(
            request, " ".join(str(e) for e in form.non_field_errors()) or _("Check the tie-breaks.")
        )
    return redirect("director-dashboard", slug=tournament.slug)


# -- what each player needs in a session -------------------------------------------------------------


class NeedsParams(forms.Form):
    """The session (default: the last) and a cut line (finish in that place or better) a visitor asks
    about; both bounded."""

    session = forms.IntegerField(label=_("Session"), min_value=1, max_value=999, required=False)
    cut = forms.IntegerField(label=_("Cut line"), min_value=4, max_value=9999, required=False)


def needs_params(data) -> tuple[int | None, tuple[int, ...], dict[str, list[str]]]:
    """The session number, the cuts and the faults (field → messages) of a request's query."""
    form = NeedsParams(data)
    if not form.is_valid():
        return None, (), {k: [str(m) for m in v] for k, v in form.errors.items()}
    cut = form.cleaned_data.get("cut")
    return form.cleaned_data.get("session"), ((cut,) if cut else ()), {}


def _needs_context(request, tournament: Tournament) -> tuple[dict, int]:
    number, cuts, faults = needs_params(request.GET)
    table = None
    if not faults:
        table = needs_selectors.needs_table(tournament=tournament, session_number=number, cuts=cuts)
        if number is not None and table.session is None:
            faults = {"session": [_("This tournament has no session %(n)s.") % {"n": number}]}
    context = {
        "tournament": tournament,
        "needs": table,
        "faults": faults,
        "form": NeedsParams(request.GET or None),
        "query": request.GET.urlencode(),
        "player_base": _player_base(tournament),
        "roles": user_roles(request.user, tournament),
    }
    return context, (400 if faults else 200)


@require_GET
def needs(request, slug: str):
    """What each player needs in a session for the podium (and a cut line), worked out from the rules."""
    tournament, _freshness = _visible(request, slug)
    if tournament.is_public and not request.GET:

        def page(extra: dict) -> str:
            context, _status = _needs_context(request, tournament)
            return render_to_string(
                "rankings/needs.html", {**context, "roles": set(), **extra}, request=request
            )

        cached = pagecache.public_page(request, slug=slug, render=page)
        if cached is not None:
            return cached
    context, status = _needs_context(request, tournament)
    return render(request, "rankings/needs.html", context, status=status)


@require_GET
def needs_csv(request, slug: str):
    """The table of what each player needs, as CSV for the director's announcement."""
    tournament, _freshness = _visible(request, slug)
    number, cuts, faults = needs_params(request.GET)
    if faults:
        return HttpResponse(
            "\n".join(f"{k}: {' '.join(v)}" for k, v in faults.items()), status=400, content_type="text/plain"
        )
    table = needs_selectors.needs_table(tournament=tournament, session_number=number, cuts=cuts)
    if table.session is None and number is not None:
        return HttpResponse(f"session: no session {number}", status=400, content_type="text/plain")
    response = HttpResponse(
        render_csv(needs_selectors.needs_rows(table)), content_type="text/csv; charset=utf-8"
    )
    name = f"{tournament.slug}-needs-session-{table.session.number if table.session else 0}.csv"
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    return response
