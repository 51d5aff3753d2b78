"""Pages of the exports (directors): thin views over services and selectors. The EMA ranking's pages are in
rankings.ema.views."""

from __future__ import annotations

from django import forms
from django.contrib.auth.decorators import login_required
from django.http import FileResponse, Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import get_language, gettext_lazy

from rankings.exports import CSV, JSON, XLSX, exporter_get, exporter_list
from rankings.exports.base import FORMAT_LABELS
from rankings.exports.jobs import export_job_create
from rankings.exports.models import ExportJob
from scoring.rules.base import RuleError
from tournaments.models import Tournament
from tournaments.permissions import tournament_for_director, user_roles

# -- exports (directors) ----------------------------------------------------------------------------


def _job_of(tournament: Tournament, pk: int) -> ExportJob:
    return get_object_or_404(
        ExportJob.objects.select_related("requested_by", "tournament"), pk=pk, tournament=tournament
    )


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
    jobs = ExportJob.stamps_read(tournament.export_jobs.select_related("requested_by")[:50], tournament)
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
