"""Pages of the EMA ranking and of the results of tournaments held elsewhere.

- The ranking (country filter, name search, change since the previous computation), a player's page (every
  counted result and the chart of the ranking over time), downloads. The ranking's rows and pages are rendered
  once per stored computation, filter, page and language and kept in the cache under a key holding the
  computation's time, so a new computation is never hidden by an old page.
- Imported tournaments: the list and each one's page are public (a results file is public data); importing,
  correcting and removing need staff or the model permissions of ImportedTournament, checked before the
  request body is read.
"""

from __future__ import annotations

import hashlib
from fractions import Fraction
from urllib.parse import urlencode

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.core.paginator import Paginator
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from django.utils.formats import number_format
from django.utils.safestring import mark_safe
from django.utils.translation import get_language, gettext_lazy
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from rankings.ema.engine import LISTING_RESULTS, anniversary, shown
from rankings.ema.forms import CorrectForm, ImportForm
from rankings.ema.history import ranking_chart_svg, ranking_history, ranking_moves
from rankings.ema.imports import (
    ResultsImportError,
    can_change_import,
    can_delete_import,
    can_import_results,
    imported_tournament_delete,
    imported_tournament_facts,
    imported_tournament_update,
    results_import,
    results_import_check,
    results_import_replace,
)
from rankings.ema.models import EmaRankingEntry, ImportedTournament
from rankings.ema.ranking import RANKED_FAMILIES, player_details, player_history_facts
from rankings.ema.results_file import MAX_FILE_BYTES
from rankings.ema.selectors import (
    PLAYER_SEARCH_LIMIT,
    ema_player_by_number,
    ema_position_of,
    ema_ranking_entries,
    ema_ranking_entry,
    ema_ranking_state,
    imported_corrections,
    player_across,
    players_found,
    playing_now,
)
from rankings.ema.services import ema_ranking_refresh_if_stale
from rankings.ema.whatif import MAX_RESULTS, Hypothesis, what_if
from rankings.exports import CSV, RANKING, XLSX, exporter_get
from tournaments import pagecache
from tournaments.countries import country_name, is_country
from tournaments.models import Player

FAMILY_LABELS = {"mcr": "MCR", "riichi": gettext_lazy("Riichi")}
PAGE_SIZE = 100
MAX_QUERY_CHARS = 100
CACHE_SECONDS = 300


# A few rendered rows kept in this process in front of the shared cache. Keys name the stored computation
# (its time), so every process serves the same rows for the same computation.
local_pages = pagecache.LocalCache(64)


def _cached(key: str) -> str | None:
    return pagecache.cached(local_pages, key, CACHE_SECONDS)


def _keep(key: str, html: str) -> None:
    pagecache.keep(local_pages, key, html, CACHE_SECONDS)


def _page_key(*parts: str) -> str:
    """A cache key naming every part in full (a digest: searches may be long and in any script)."""
    return f"{parts[0]}:{hashlib.sha256(chr(31).join(parts).encode()).hexdigest()}"


def _current_state():
    """The stored ranking's state; queues a recompute when it is behind its input or of an earlier day."""
    state = ema_ranking_state()
    if state.computed_version < state.input_version or state.computed_on != timezone.localdate():
        ema_ranking_refresh_if_stale()
    return state


def _stamp(state) -> str:
    return state.computed_at.isoformat() if state.computed_at else "-"


def _served(request, render_page) -> HttpResponse:
    """Anonymous visitors get the page from the page cache (``tournaments.pagecache``): rendered once per
    computation of the ranking, path, parameters and language, then served by its middleware with no query;
    everybody else gets it rendered."""
    cached = pagecache.public_page(request, slug=pagecache.EMA_RANKING, render=render_page)
    return cached if cached is not None else HttpResponse(render_page({}))


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

    Anonymous visitors get the whole page from the page cache, with no query.
    """
    family = _family(family)
    query, country = ranking_filters(request)
    state = _current_state()
    results = mark_safe(_results_html(request, family, query, country, state))
    if request.htmx and request.htmx.target == "ranking-results":
        return HttpResponse(results)
    filters = urlencode({k: v for k, v in (("q", query), ("country", country)) if v})

    def render_page(extra: dict) -> str:
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
            **extra,
        }
        return render_to_string("rankings/ema/ranking.html", context, request=request)

    return _served(request, render_page)


@require_GET
def ranking_player(request, family: str, ema_id: str):
    """A player's ranking: every counted result (place, base rank, weight, ageing, Part A/B) and the chart."""
    family = _family(family)
    _current_state()  # queues a recompute when the stored ranking is behind
    if not ema_id.isdigit() or len(ema_id) != 8:
        raise Http404("An EMA number has 8 digits.")
    return _served(request, lambda extra: _player_page(request, family, ema_id, extra))


def player_ranking_facts(family: str, ema_id: str):
    """The player's stored entry (None when not listed), the player, the ranking date and their results.

    A player with an EMA number and results of ``family`` but fewer than ``LISTING_RESULTS`` that still
    count is not listed (the ranking system's §3) and keeps a page saying what is missing; a number with
    no result of ``family`` is a 404.
    """
    entry = ema_ranking_entry(family=family, ema_id=ema_id)
    if entry is not None:
        player, on = entry.player, entry.on
    else:
        player = ema_player_by_number(ema_id=ema_id)
        if player is None:
            raise Http404("No player has this EMA number.")
        on = ema_ranking_state().computed_on or timezone.localdate()
    facts = player_history_facts(player_id=player.pk, family=family, until=on)
    if entry is None and not facts:
        raise Http404("This player has no result in this ranking.")
    return entry, player, on, facts


MOVE_WEEKS = 52  # the weeks a page lists (the API gives every week)
REASON_TEXTS = {
    "new": gettext_lazy("new result"),
    "half": gettext_lazy("a year old: counts half"),
    "gone": gettext_lazy("two years old: no longer counts"),
    "dropped": gettext_lazy("left the counted results"),
    "back": gettext_lazy("back among the counted results"),
    "corrected": gettext_lazy("its results were corrected (figures as corrected)"),
}


def player_moves(facts, *, family: str, on) -> list[dict]:
    """Week by week, latest first, what moved the player's ranking, the tournaments named."""
    names = {f.link: f for f in facts}
    moves = ranking_moves(
        [f.as_result() for f in facts],
        ruleset=family,
        until=on,
        corrections=imported_corrections(links=list(names)),
    )
    return [
        {
            "week": move.week,
            "before": None if move.before is None else _figure(move.before),
            "after": None if move.after is None else _figure(move.after),
            "reasons": [
                {
                    "kind": reason.kind,
                    "text": REASON_TEXTS[reason.kind],
                    "tournament": names[reason.tournament].tournament,
                    "slug": reason.tournament.partition(":")[2]
                    if reason.tournament.startswith("local:")
                    else "",
                    "imported": int(reason.tournament.partition(":")[2])
                    if reason.tournament.startswith("imported:")
                    else None,
                }
                for reason in move.reasons
            ],
        }
        for move in moves
    ]


def _player_page(request, family: str, ema_id: str, extra: dict) -> str:
    entry, player, on, facts = player_ranking_facts(family, ema_id)
    ranking, details = player_details(player_id=player.pk, family=family, on=on, facts=facts)
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
    history = ranking_history([f.as_result() for f in facts], ruleset=family, until=on)
    moves = player_moves(facts, family=family, on=on)
    chart = ranking_chart_svg(
        history,
        title=_("Ranking of %(name)s over time") % {"name": player.full_name},
        empty_text=_("Not listed yet"),
        number_format=lambda v: number_format(round(v, 2), 2),
        marks=[move["week"] for move in moves],
    )
    context = {
        "family": family,
        "family_label": FAMILY_LABELS[family],
        "entry": entry,
        "player": player,
        "ema_id": ema_id,
        "on": on,
        "counted": ranking.counted,
        "missing": ranking.missing,
        "listing_results": LISTING_RESULTS,
        "ranking": _figure(entry.ranking) if entry else None,
        "part_a": _figure(entry.part_a) if entry else None,
        "part_b": _figure(entry.part_b) if entry else None,
        "change": change_of(entry) if entry else None,
        "results": results,
        "padding": len(padding),
        "padding_in_b": sum(1 for d in padding if d["part_b"]),
        "chart": mark_safe(chart),  # built from numbers and escaped text only
        "history_from": history[0].on if history else None,
        "moves": moves,
        # the page of every tournament played here, for a player who played a public one here
        "played_here": player.registrations.filter(tournament__is_public=True).exists(),
        "today": timezone.localdate(),
        **extra,
    }
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


# -- results of tournaments held elsewhere ------------------------------------------------------------

IMPORTS_PAGE_SIZE = 50
MAX_BODY_BYTES = MAX_FILE_BYTES + 64 * 1024  # the file and the facts


def body_too_large(request) -> bool:
    """A request body larger than a results file and its facts can be is refused before it is read."""
    try:
        return int(request.META.get("CONTENT_LENGTH") or 0) > MAX_BODY_BYTES
    except ValueError:
        return True


def _too_large(request) -> HttpResponse:
    return HttpResponse(
        _("The request is larger than a results file may be (%(limit)s bytes).") % {"limit": MAX_FILE_BYTES},
        status=413,
        content_type="text/plain; charset=utf-8",
    )


@require_GET
def imports_page(request):
    """Every imported tournament, newest first."""
    page = Paginator(ImportedTournament.objects.all(), IMPORTS_PAGE_SIZE).get_page(request.GET.get("page"))
    return render(
        request,
        "rankings/ema/imports/list.html",
        {"page": page, "can_import": can_import_results(request.user)},
    )


@login_required
@require_http_methods(["GET", "POST"])
def import_new(request):
    """Upload a results file with the tournament's facts; "Check" shows what would be imported."""
    if not can_import_results(request.user):
        raise PermissionDenied(_("You may not import results."))
    preview = faults = None
    more = 0
    if request.method == "POST" and body_too_large(request):
        return _too_large(request)
    if request.method == "POST":
        form = ImportForm(request.POST, request.FILES)
        if form.is_valid():
            upload = form.cleaned_data["file"]
            data = upload.read()
            try:
                if "check" in request.POST:
                    preview = results_import_check(data=data, facts=form.facts(), filename=upload.name)
                else:
                    imported, _preview = results_import(
                        data=data, facts=form.facts(), filename=upload.name, user=request.user
                    )
                    messages.success(
                        request,
                        _("%(name)s imported: %(n)s players; the ranking follows.")
                        % {"name": imported.name, "n": imported.players},
                    )
                    return redirect("ema-import-detail", pk=imported.pk)
            except ResultsImportError as exc:
                faults, more = exc.faults, exc.more
    else:
        form = ImportForm()
    status = 400 if faults else 200
    return render(
        request,
        "rankings/ema/imports/new.html",
        {"form": form, "preview": preview, "faults": faults, "more": more},
        status=status,
    )


@require_GET
def import_detail(request, pk: int):
    tournament = get_object_or_404(ImportedTournament, pk=pk)
    return render(
        request,
        "rankings/ema/imports/detail.html",
        {
            "tournament": tournament,
            "results": tournament.results.select_related("player").order_by("place", "line"),
            "can_change": can_change_import(request.user),
            "can_delete": can_delete_import(request.user),
        },
    )


@login_required
@require_http_methods(["GET", "POST"])
def import_correct(request, pk: int):
    """Correct the facts, or replace the lines with a corrected file; the ranking follows."""
    if not can_change_import(request.user):
        raise PermissionDenied(_("You may not correct imported results."))
    tournament = get_object_or_404(ImportedTournament, pk=pk)
    faults, more = None, 0
    if request.method == "POST" and body_too_large(request):
        return _too_large(request)
    if request.method == "POST":
        form = CorrectForm(request.POST, request.FILES)
        if form.is_valid():
            upload = form.cleaned_data.get("file")
            try:
                if upload:
                    results_import_replace(
                        tournament=tournament,
                        data=upload.read(),
                        facts=form.facts(),
                        filename=upload.name,
                        user=request.user,
                    )
                else:
                    imported_tournament_update(tournament=tournament, facts=form.facts())
            except ResultsImportError as exc:
                faults, more = exc.faults, exc.more
            else:
                messages.success(request, _("Corrected; the ranking follows."))
                return redirect("ema-import-detail", pk=tournament.pk)
    else:
        facts = imported_tournament_facts(tournament)
        form = CorrectForm(initial=facts.__dict__)
    return render(
        request,
        "rankings/ema/imports/correct.html",
        {"form": form, "tournament": tournament, "faults": faults, "more": more},
        status=400 if faults else 200,
    )


@login_required
@require_POST
def import_delete(request, pk: int):
    if not can_delete_import(request.user):
        raise PermissionDenied(_("You may not remove imported results."))
    tournament = get_object_or_404(ImportedTournament, pk=pk)
    name = tournament.name
    imported_tournament_delete(tournament=tournament)
    messages.success(request, _("%(name)s removed; the ranking follows.") % {"name": name})
    return redirect(reverse("ema-imports"))


# -- what a result would do to a player's ranking --------------------------------------------------------

WHAT_IF_FIELDS = ("players", "place", "days", "countries", "weight")
_WHAT_IF_BOUNDS = {"players": (2, 2000), "place": (1, 2000), "days": (1, 7), "countries": (1, 60)}


def _whole(text: str, field: str, low: int, high: int, faults: dict) -> int | None:
    text = (text or "").strip()
    if not text.isdigit() or len(text) > 5 or not low <= int(text) <= high:
        faults[field] = [_("a whole number from %(low)s to %(high)s") % {"low": low, "high": high}]
        return None
    return int(text)


def what_if_params(data, *, on) -> tuple[list, object, dict[str, list[str]]]:
    """The hypothetical results of a query (``players``, ``place``, ``days``, ``countries`` and an
    optional ``weight`` in halves, each repeated once per result, at most three results) and their
    tournaments' last day (``on``: from the ranking's date to two years after it); the faults by field."""
    import datetime as dt

    faults: dict[str, list[str]] = {}
    columns = {name: data.getlist(name) for name in WHAT_IF_FIELDS}
    rows = max((len(v) for v in columns.values()), default=0)
    if rows > MAX_RESULTS:
        faults["players"] = [_("at most %(n)s results at once") % {"n": MAX_RESULTS}]
        return [], on, faults
    hypotheses = []
    for i in range(rows):
        cell = {name: (values[i] if i < len(values) else "") for name, values in columns.items()}
        if not any(v.strip() for v in cell.values()):
            continue  # an empty row of the form
        at = f"[{i + 1}]"
        figures = {
            name: _whole(
                cell[name] or ("2" if name == "days" else "1" if name == "countries" else ""),
                name + at,
                *_WHAT_IF_BOUNDS[name],
                faults,
            )
            for name in ("players", "place", "days", "countries")
        }
        weight = None
        if cell["weight"].strip():
            text = cell["weight"].strip().replace(",", ".")
            try:
                weight = Fraction(text) if len(text) <= 6 and text.replace(".", "", 1).isdigit() else None
            except (ValueError, ZeroDivisionError):
                weight = None
            if weight is None or weight <= 0 or weight > 10 or (weight * 2).denominator != 1:
                faults["weight" + at] = [_("a weight from 0.5 to 10, in halves")]
        if None in figures.values() or ("weight" + at) in faults:
            continue
        if figures["place"] > figures["players"]:
            faults["place" + at] = [
                _("place %(place)s is outside 1 to %(players)s")
                % {"place": figures["place"], "players": figures["players"]}
            ]
            continue
        hypotheses.append(Hypothesis(**figures, given_weight=weight))
    ended_on = on
    text = (data.get("on") or "").strip()
    if text:
        try:
            ended_on = dt.date.fromisoformat(text[:10])
        except ValueError:
            faults["on"] = [_("a date as YYYY-MM-DD")]
        else:
            if not on <= ended_on <= anniversary(on, 2):
                faults["on"] = [
                    _("a date from %(start)s to %(end)s")
                    % {"start": on.isoformat(), "end": anniversary(on, 2).isoformat()}
                ]
    if not hypotheses and not faults:
        faults["players"] = [_("give at least one result: the players and the place")]
    return hypotheses, ended_on, faults


def what_if_answer(family: str, ema_id: str, data) -> tuple[dict, dict[str, list[str]]]:
    """The player, his ranking now and with the hypothetical results, and the faults of the query."""
    entry, player, on, facts = player_ranking_facts(family, ema_id)
    hypotheses, ended_on, faults = what_if_params(data, on=on)
    answer = {"entry": entry, "player": player, "on": on, "ended_on": ended_on, "hypotheses": hypotheses}
    if faults:
        return answer, faults
    result = what_if([f.as_result() for f in facts], hypotheses, ruleset=family, on=on, ended_on=ended_on)
    labels = {f.link: f for f in facts}
    answer.update(
        {
            "before": result.before,
            "after": result.after,
            "position": ema_position_of(family=family, ranking=result.after.ranking, player_id=player.pk)
            if result.after.listed
            else None,
            "changes": [
                {
                    "tournament": labels[c.result.tournament].tournament
                    if c.result.tournament in labels
                    else _("Result %(n)s (what if)") % {"n": c.result.tournament.rpartition(":")[2]},
                    "hypothetical": c.hypothetical,
                    "ended_on": c.result.ended_on,
                    "base_rank": c.result.base_rank,
                    "weight": c.result.weight,
                    "before": _parts(c.before_a, c.before_b),
                    "after": _parts(c.after_a, c.after_b),
                    "ageing_before": c.ageing_before,
                    "ageing_after": c.ageing_after,
                    "changed": c.changed,
                }
                for c in result.changes
            ],
        }
    )
    return answer, {}


def _parts(in_a: bool, in_b: bool) -> str:
    return "+".join(p for p, yes in (("A", in_a), ("B", in_b)) if yes)


@require_GET
def ranking_what_if(request, family: str, ema_id: str):
    """What hypothetical results would do to a player's ranking: public, read-only, three results at most."""
    family = _family(family)
    if not ema_id.isdigit() or len(ema_id) != 8:
        raise Http404("An EMA number has 8 digits.")
    asked = any(request.GET.getlist(name) for name in WHAT_IF_FIELDS)
    if asked:
        answer, faults = what_if_answer(family, ema_id, request.GET)
    else:
        entry, player, on, _facts = player_ranking_facts(family, ema_id)
        answer, faults = {"entry": entry, "player": player, "on": on, "ended_on": on}, {}
    offers = [
        {
            "offer": offer,
            "query": urlencode(
                {
                    "players": offer.players,
                    "place": offer.place,
                    "days": offer.days,
                    "countries": offer.countries,
                }
            ),
        }
        for offer in playing_now(player_id=answer["player"].pk, family=family)
    ]
    rows = []
    for i in range(3):
        rows.append(
            {
                name: (request.GET.getlist(name)[i] if i < len(request.GET.getlist(name)) else "")
                for name in WHAT_IF_FIELDS
            }
        )
    context = {
        **answer,
        "family": family,
        "family_label": FAMILY_LABELS[family],
        "ema_id": ema_id,
        "faults": faults,
        "asked": asked,
        "rows": rows,
        "on_value": (request.GET.get("on") or "")[:10] or answer["on"].isoformat(),
        "offers": offers,
    }
    return render(request, "rankings/ema/what_if.html", context, status=400 if faults else 200)


# -- a player across the tournaments of this server ----------------------------------------------------


@require_GET
def players_search(request):
    """Find a player by name (accents, case and strokes ignored) or EMA number, among those who play in a
    tournament the visitor may see."""
    query = request.GET.get("q", "").strip()[:MAX_QUERY_CHARS]
    found = players_found(query=query, user=request.user) if query else []
    return render(
        request,
        "rankings/ema/players.html",
        {"query": query, "found": found, "limit": PLAYER_SEARCH_LIMIT},
    )


@require_GET
def player_record(request, pk: int):
    """One player across the tournaments of this server: each one's place and base rank, his EMA ranking."""
    try:
        player, lines, entries = player_across(player_id=pk, user=request.user)
    except Player.DoesNotExist:
        raise Http404("No such player.") from None
    return render(
        request,
        "rankings/ema/player_record.html",
        {
            "player": player,
            "lines": lines,
            "entries": [
                {"entry": e, "label": FAMILY_LABELS.get(e.family, e.family), "ranking": _figure(e.ranking)}
                for e in entries
            ],
        },
    )
