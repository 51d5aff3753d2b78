"""Public pages of the EMA ranking: the ranking (country filter, name search, change since the previous
computation), a player's page (every counted result and the chart of the ranking over time), downloads.

The ranking's rows are rendered once per stored computation, filter, page and language and kept in the
cache under a key holding the computation's time, so a new computation is never hidden by an old page.
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections import OrderedDict
from fractions import Fraction
from urllib.parse import urlencode

from django.conf import settings
from django.core.cache import cache
from django.core.paginator import Paginator
from django.http import Http404, HttpResponse
from django.middleware.csrf import get_token
from django.template.loader import render_to_string
from django.utils import timezone
from django.utils.formats import number_format
from django.utils.safestring import mark_safe
from django.utils.translation import get_language, gettext_lazy
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from rankings.ema.history import ranking_chart_svg, ranking_history
from rankings.ema.ranking import RANKED_FAMILIES, player_details, player_history_facts
from rankings.ema_selectors import ema_ranking_entries, ema_ranking_entry, ema_ranking_state
from rankings.ema_services import ema_ranking_refresh_if_stale
from rankings.engine.ema import shown
from rankings.exporters import CSV, RANKING, XLSX, exporter_get
from rankings.models import EmaRankingEntry
from tournaments.countries import country_name, is_country

FAMILY_LABELS = {"mcr": "MCR", "riichi": gettext_lazy("Riichi")}
PAGE_SIZE = 100
MAX_QUERY_CHARS = 100
CACHE_SECONDS = 300


CSRF_MARKER = "csrf-token-marker-3f9a51"


class _LocalPages:
    """A few rendered pages kept in this process in front of the shared cache. Keys name the stored
    computation (its time), so every process serves the same page for the same computation."""

    size = 64

    def __init__(self):
        self._pages: OrderedDict[str, tuple[float, str]] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: str) -> str | None:
        with self._lock:
            entry = self._pages.get(key)
            if entry is None or entry[0] < time.monotonic():
                return None
            self._pages.move_to_end(key)
            return entry[1]

    def set(self, key: str, value: str) -> None:
        with self._lock:
            self._pages[key] = (time.monotonic() + CACHE_SECONDS, value)
            self._pages.move_to_end(key)
            while len(self._pages) > self.size:
                self._pages.popitem(last=False)


local_pages = _LocalPages()


def _cached(key: str) -> str | None:
    html = local_pages.get(key)
    if html is None:
        try:
            html = cache.get(key)
        except Exception:  # a cache outage costs a render, never the page
            return None
        if html is not None:
            local_pages.set(key, html)
    return html


def _keep(key: str, html: str) -> None:
    local_pages.set(key, html)
    with contextlib.suppress(Exception):
        cache.set(key, html, CACHE_SECONDS)


def _anonymous(request) -> bool:
    """A visitor who sees what everybody sees: no session, no pending messages."""
    return settings.SESSION_COOKIE_NAME not in request.COOKIES and "messages" not in request.COOKIES


def _page_key(*parts: str) -> str:
    return ":".join(p.encode("unicode_escape").decode()[:200] for p in parts)


def _current_state():
    """The stored ranking's state; queues a recompute when it is behind its input or of an earlier day."""
    state = ema_ranking_state()
    if state.computed_version < state.input_version or state.computed_on != timezone.localdate():
        ema_ranking_refresh_if_stale()
    return state


def _stamp(state) -> str:
    return state.computed_at.isoformat() if state.computed_at else "-"


def _served(request, key: str, render_page) -> HttpResponse:
    """The page from the cache for anonymous visitors (their CSRF token put in when served)."""
    if not _anonymous(request):
        return HttpResponse(render_page(None))
    html = _cached(key)
    if html is None:
        html = render_page(CSRF_MARKER)
        _keep(key, html)
    return HttpResponse(html.replace(CSRF_MARKER, get_token(request)))


def _family(family: str) -> str:
    if family not in RANKED_FAMILIES:
        raise Http404("The EMA ranks MCR and riichi.")
    return family


def _figure(value: Fraction) -> float:
    return float(shown(value))


def change_of(entry: EmaRankingEntry) -> dict:
    """How the player's position moved since the previous computation (up is better)."""
    if entry.previous_position is None:
        return {"kind": "new", "places": 0}
    moved = entry.previous_position - entry.position
    return {"kind": "up" if moved > 0 else "down" if moved < 0 else "same", "places": abs(moved)}


def ranking_filters(request) -> tuple[str, str]:
    query = request.GET.get("q", "").strip()[:MAX_QUERY_CHARS]
    country = request.GET.get("country", "").strip().upper()[:3]
    if country and not is_country(country):
        country = ""
    return query, country


def _countries(family: str) -> list[tuple[str, str]]:
    codes = (
        EmaRankingEntry.objects.filter(family=family)
        .exclude(country="")
        .values_list("country", flat=True)
        .distinct()
        .order_by("country")
    )
    return [(code, f"{code} · {country_name(code)}") for code in codes]


def _results_html(request, family: str, query: str, country: str, state) -> str:
    page_number = request.GET.get("page", "1")[:6]
    key = _page_key(
        "ema-ranking-rows", family, _stamp(state), get_language() or "", country, page_number, query
    )
    html = _cached(key)
    if html is not None:
        return html
    page = Paginator(ema_ranking_entries(family=family, query=query, country=country), PAGE_SIZE).get_page(
        page_number
    )
    rows = [
        {
            "entry": e,
            "ranking": _figure(e.ranking),
            "part_a": _figure(e.part_a),
            "part_b": _figure(e.part_b),
            "change": change_of(e),
        }
        for e in page.object_list
    ]
    filters = urlencode({k: v for k, v in (("q", query), ("country", country)) if v})
    html = render_to_string(
        "rankings/ema/_results.html",
        {
            "family": family,
            "query": query,
            "country": country,
            "page": page,
            "rows": rows,
            "filters": filters,
        },
        request=request,
    )
    _keep(key, html)
    return html


@require_GET
def ranking_page(request, family: str = "mcr"):
    """The EMA ranking of one family: filter by country, search by name; htmx swaps only the rows.

    Anonymous visitors get the whole page from the cache: one query (the ranking's state) and one read.
    """
    family = _family(family)
    query, country = ranking_filters(request)
    state = _current_state()
    results = mark_safe(_results_html(request, family, query, country, state))
    if request.htmx and request.htmx.target == "ranking-results":
        return HttpResponse(results)
    filters = urlencode({k: v for k, v in (("q", query), ("country", country)) if v})

    def render_page(csrf_token: str | None) -> str:
        context = {
            "family": family,
            "families": [(f, FAMILY_LABELS[f]) for f in RANKED_FAMILIES],
            "family_label": FAMILY_LABELS[family],
            "query": query,
            "country": country,
            "countries": _countries(family),
            "results": results,
            "filters": filters,
            "state": state,
        }
        if csrf_token:
            context["csrf_token"] = csrf_token
        return render_to_string("rankings/ema/ranking.html", context, request=request)

    page_number = request.GET.get("page", "1")[:6]
    key = _page_key(
        "ema-ranking-page", family, _stamp(state), get_language() or "", country, page_number, query
    )
    return _served(request, key, render_page)


@require_GET
def ranking_player(request, family: str, ema_id: str):
    """A player's ranking: every counted result (place, base rank, weight, ageing, Part A/B) and the chart."""
    family = _family(family)
    state = _current_state()
    if not ema_id.isdigit() or len(ema_id) != 8:
        raise Http404("An EMA number has 8 digits.")
    key = _page_key("ema-ranking-player", family, ema_id, _stamp(state), get_language() or "")
    return _served(request, key, lambda csrf_token: _player_page(request, family, ema_id, csrf_token))


def _player_page(request, family: str, ema_id: str, csrf_token: str | None) -> str:
    entry = ema_ranking_entry(family=family, ema_id=ema_id)
    if entry is None:
        raise Http404("No ranked player has this EMA number.")
    facts = player_history_facts(player_id=entry.player_id, family=family, until=entry.on)
    _ranking, details = player_details(player_id=entry.player_id, family=family, on=entry.on, facts=facts)
    results, padding = [], [d for d in details if d.get("padding")]
    for d in details:
        if d.get("padding"):
            continue
        results.append(
            {
                **d,
                "weight": _figure(Fraction(d["weight"])),
                "ageing_percent": int(Fraction(d["ageing"]) * 100),
                "aged_weight": _figure(Fraction(d["aged_weight"])),
            }
        )
    history = ranking_history([f.as_result() for f in facts], ruleset=family, until=entry.on)
    chart = ranking_chart_svg(
        history,
        title=_("Ranking of %(name)s over time") % {"name": entry.player.full_name},
        empty_text=_("No history yet"),
        number_format=lambda v: number_format(round(v, 2), 2),
    )
    context = {
        "family": family,
        "family_label": FAMILY_LABELS[family],
        "entry": entry,
        "ranking": _figure(entry.ranking),
        "part_a": _figure(entry.part_a),
        "part_b": _figure(entry.part_b),
        "change": change_of(entry),
        "results": results,
        "padding": len(padding),
        "padding_in_b": sum(1 for d in padding if d["part_b"]),
        "chart": mark_safe(chart),  # built from numbers and escaped text only
        "history_from": history[0].on if history else None,
        "today": timezone.localdate(),
    }
    if csrf_token:
        context["csrf_token"] = csrf_token
    return render_to_string("rankings/ema/player.html", context, request=request)


@require_GET
def ranking_export(request, family: str, fmt: str):
    """The stored ranking as CSV or XLSX with the page's columns and filters (public data, made at once)."""
    family = _family(family)
    if fmt not in (CSV, XLSX):
        raise Http404("CSV or XLSX.")
    query, country = ranking_filters(request)
    exporter = exporter_get("ema-ranking", scope=RANKING)(family=family, query=query, country=country)
    export = exporter.render(fmt)
    response = HttpResponse(export.data, content_type=export.content_type)
    response["Content-Disposition"] = f'attachment; filename="{export.filename}"'
    return response
