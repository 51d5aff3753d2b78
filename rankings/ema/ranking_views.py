"""Public pages of the EMA ranking: the ranking (country filter, name search, change since the previous
computation), a player's page (every counted result and the chart of the ranking over time), downloads.

The ranking's rows are rendered once per stored computation, filter, page and language and kept in the
cache under a key holding the computation's time, so a new computation is never hidden by an old page.
"""

from __future__ import annotations

import contextlib
from fractions import Fraction
from urllib.parse import urlencode

from django.core.cache import cache
from django.core.paginator import Paginator
from django.http import Http404, HttpResponse
from django.shortcuts import render
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
    key = ":".join(
        [
            "ema-ranking-rows",
            family,
            state.computed_at.isoformat() if state.computed_at else "-",
            get_language() or "",
            country,
            page_number,
            query.encode("unicode_escape").decode()[:300],
        ]
    )
    try:
        html = cache.get(key)
    except Exception:  # a cache outage costs a render, never the page
        html = None
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
    with contextlib.suppress(Exception):
        cache.set(key, html, CACHE_SECONDS)
    return html


@require_GET
def ranking_page(request, family: str = "mcr"):
    """The EMA ranking of one family: filter by country, search by name; htmx swaps only the rows."""
    family = _family(family)
    ema_ranking_refresh_if_stale()
    query, country = ranking_filters(request)
    state = ema_ranking_state()
    results = mark_safe(_results_html(request, family, query, country, state))
    if request.htmx and request.htmx.target == "ranking-results":
        return HttpResponse(results)
    filters = urlencode({k: v for k, v in (("q", query), ("country", country)) if v})
    return render(
        request,
        "rankings/ema/ranking.html",
        {
            "family": family,
            "families": [(f, FAMILY_LABELS[f]) for f in RANKED_FAMILIES],
            "family_label": FAMILY_LABELS[family],
            "query": query,
            "country": country,
            "countries": _countries(family),
            "results": results,
            "filters": filters,
            "state": state,
        },
    )


@require_GET
def ranking_player(request, family: str, ema_id: str):
    """A player's ranking: every counted result (place, base rank, weight, ageing, Part A/B) and the chart."""
    family = _family(family)
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
    return render(
        request,
        "rankings/ema/player.html",
        {
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
        },
    )


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
