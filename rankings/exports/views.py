"""Pages of the exports (directors) and of the public EMA ranking: thin views over services and selectors."""

from __future__ import annotations

from fractions import Fraction

from django import forms
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import FileResponse, Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import get_language, gettext_lazy
from django.views.decorators.http import require_GET

from rankings.ema.engine import shown
from rankings.ema.selectors import (
    RANKED_FAMILIES,
    ema_ranking_entries,
    ema_ranking_entry,
    ema_ranking_state,
)
from rankings.ema.services import ema_ranking_refresh_if_stale
from rankings.exports import CSV, JSON, RANKING, XLSX, exporter_get, exporter_list
from rankings.exports.base import FORMAT_LABELS
from rankings.exports.jobs import export_job_create
from rankings.models import ExportJob
from scoring.rules.base import RuleError
from tournaments.models import Tournament
from tournaments.permissions import tournament_for_director, user_roles

FAMILY_LABELS = {"mcr": "MCR", "riichi": gettext_lazy("Riichi")}
PAGE_SIZE = 100


# -- exports (directors) ----------------------------------------------------------------------------


def _job_of(tournament: Tournament, pk: int) -> ExportJob:
    return get_object_or_404(ExportJob.objects.select_related("requested_by"), pk=pk, tournament=tournament)


class ExportForm(forms.Form):
    exporter = forms.ChoiceField(label=gettext_lazy("What"), widget=forms.RadioSelect)
    format = forms.ChoiceField(
        label=gettext_lazy("Format"),
        widget=forms.RadioSelect,
        choices=[(CSV, FORMAT_LABELS[CSV]), (XLSX, FORMAT_LABELS[XLSX])],
        initial=CSV,
        required=False,
    )

    def __init__(self, *args, tournament: Tournament, **kwargs):
        super().__init__(*args, **kwargs)
        self.exporters = exporter_list(tournament=tournament)
        self.fields["exporter"].choices = [(e.identifier, e.name) for e in self.exporters]

    def clean(self):
        data = super().clean()
        identifier = data.get("exporter")
        if identifier:
            cls = exporter_get(identifier)
            if data.get("format") not in cls.formats:
                data["format"] = cls.formats[0]  # the archive is JSON whatever was ticked
        return data


@login_required
def exports_page(request, slug: str):
    """Choose an export; every export of the tournament is listed with its progress or its file."""
    tournament = tournament_for_director(user=request.user, slug=slug)
    if request.method == "POST":
        form = ExportForm(request.POST, tournament=tournament)
        if form.is_valid():
            try:
                job = export_job_create(
                    tournament=tournament,
                    exporter=form.cleaned_data["exporter"],
                    fmt=form.cleaned_data["format"],
                    user=request.user,
                    language=get_language(),
                )
            except RuleError as exc:
                form.add_error(None, exc.message)
            else:
                url = reverse("export-list", kwargs={"slug": tournament.slug})
                return redirect(f"{url}#export-job-{job.pk}")
    else:
        form = ExportForm(tournament=tournament)
    jobs = list(tournament.export_jobs.select_related("requested_by")[:50])
    return render(
        request,
        "rankings/exports/exports.html",
        {
            "tournament": tournament,
            "form": form,
            "exporters": form.exporters,
            "jobs": jobs,
            "roles": user_roles(request.user, tournament),
            "json_only": [e.identifier for e in form.exporters if e.formats == (JSON,)],
        },
    )


@login_required
def export_job(request, slug: str, pk: int):
    """One export: the progress bar while it runs (htmx polls this), then the download link."""
    tournament = tournament_for_director(user=request.user, slug=slug)
    job = _job_of(tournament, pk)
    context = {"tournament": tournament, "job": job, "roles": user_roles(request.user, tournament)}
    if request.htmx:
        return render(request, "rankings/exports/_job.html", context)
    return render(request, "rankings/exports/job.html", context)


@login_required
def export_download(request, slug: str, pk: int):
    tournament = tournament_for_director(user=request.user, slug=slug)
    job = _job_of(tournament, pk)
    return job_file_response(job)


def job_file_response(job: ExportJob) -> FileResponse:
    if not job.ready:
        raise Http404("This export has no file (yet).")
    try:
        handle = job.file.open("rb")
    except FileNotFoundError:
        raise Http404("The file of this export is gone.") from None
    return FileResponse(handle, as_attachment=True, filename=job.filename)


# -- the EMA ranking (public) -----------------------------------------------------------------------


def _family(family: str) -> str:
    if family not in RANKED_FAMILIES:
        raise Http404("The EMA ranks MCR and riichi.")
    return family


def _figure(value: Fraction) -> float:
    return float(shown(value))


@require_GET
def ema_ranking_page(request, family: str = "mcr"):
    """The EMA ranking of one family: searchable, 100 players a page; htmx swaps only the rows."""
    family = _family(family)
    ema_ranking_refresh_if_stale()
    query = request.GET.get("q", "").strip()[:100]
    page = Paginator(ema_ranking_entries(family=family, query=query), PAGE_SIZE).get_page(
        request.GET.get("page")
    )
    rows = [
        {
            "entry": e,
            "ranking": _figure(e.ranking),
            "part_a": _figure(e.part_a),
            "part_b": _figure(e.part_b),
        }
        for e in page.object_list
    ]
    context = {
        "family": family,
        "families": [(f, FAMILY_LABELS[f]) for f in RANKED_FAMILIES],
        "family_label": FAMILY_LABELS[family],
        "query": query,
        "page": page,
        "rows": rows,
        "state": ema_ranking_state(),
    }
    if request.htmx and request.htmx.target == "ranking-results":
        return render(request, "rankings/ema/_results.html", context)
    return render(request, "rankings/ema/ranking.html", context)


@require_GET
def ema_ranking_player(request, family: str, ema_id: str):
    """A player's ranking: the results that count, with their weights and ageing, and the padding."""
    family = _family(family)
    entry = ema_ranking_entry(family=family, ema_id=ema_id)
    if entry is None:
        raise Http404("No ranked player has this EMA number.")
    results, padding = [], [d for d in entry.details if d.get("padding")]
    for d in entry.details:
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
            "results": results,
            "padding": len(padding),
            "padding_in_b": sum(1 for d in padding if d["part_b"]),
        },
    )


@require_GET
def ema_ranking_export(request, family: str, fmt: str):
    """The stored ranking as CSV or XLSX, through the exporter registry (public data, made at once)."""
    family = _family(family)
    if fmt not in (CSV, XLSX):
        raise Http404("CSV or XLSX.")
    exporter = exporter_get("ema-ranking", scope=RANKING)(family=family)
    export = exporter.render(fmt)
    response = HttpResponse(export.data, content_type=export.content_type)
    response["Content-Disposition"] = f'attachment; filename="{export.filename}"'
    return response
