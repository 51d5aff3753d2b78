"""The director's archive pages: import a tournament from its archive file, download a tournament's archive."""

from __future__ import annotations

import json

from django import forms
from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from rankings.archive import archive_export, archive_import, open_source
from rankings.archive.access import import_allowed
from rankings.archive.jobs import archive_import_job_create, job_progress
from rankings.archive.models import ArchiveImportJob
from scoring.rules.base import RuleError
from tournaments.models import Tournament
from tournaments.permissions import can_create_tournament, tournament_for_director


class ArchiveImportForm(forms.Form):
    file = forms.FileField(
        label=gettext_lazy("Archive file (JSON)"),
        help_text=gettext_lazy("A tournament archive, as exported by this site or written by hand."),
    )

    def clean_file(self):
        upload = self.cleaned_data["file"]
        if upload.size > settings.ARCHIVE_MAX_BYTES:
            raise forms.ValidationError(
                _("The file is larger than %(limit)s bytes, the limit for an archive.")
                % {"limit": f"{settings.ARCHIVE_MAX_BYTES:,}"}
            )
        return upload

    replace = forms.BooleanField(
        label=gettext_lazy("Replace the tournament with the same slug"),
        required=False,
        help_text=gettext_lazy("Its results, penalties and players are replaced by those of the file."),
    )


def _import(
    request, form: ArchiveImportForm, slug: str | None = None
) -> tuple[Tournament | None, RuleError | None]:
    """Import the uploaded archive; on a tournament's page (``slug``) only that tournament's archive."""
    replace = form.cleaned_data["replace"]
    try:
        source = open_source(form.cleaned_data["file"])
        head = source.head.get("tournament")
        found = head.get("slug") if isinstance(head, dict) else None
        if slug is not None and found != slug:
            raise RuleError(
                _("this file holds the tournament %(found)s, not %(slug)s") % {"found": found, "slug": slug},
                "tournament.slug",
            )
        if not import_allowed(request.user, source.head, replace):
            raise PermissionDenied(_("You may not create tournaments, or replace this one."))
        return archive_import(document=source, replace=replace, user=request.user), None
    except RuleError as exc:
        return None, exc


def _render_import(request, template: str, context: dict, form: ArchiveImportForm):
    if request.method == "POST" and form.is_valid():
        slug = context["tournament"].slug if "tournament" in context else None
        upload = form.cleaned_data["file"]
        if upload.size > settings.ARCHIVE_INLINE_BYTES:  # a large archive: imported in the background
            job = archive_import_job_create(
                upload=upload, replace=form.cleaned_data["replace"], user=request.user, only_slug=slug or ""
            )
            return redirect("archive-import-job", pk=job.pk)
        tournament, refusal = _import(request, form, slug)
        if tournament is not None:
            messages.success(
                request,
                _("The tournament %(name)s was imported from its archive.") % {"name": tournament.name},
            )
            return redirect(tournament.get_absolute_url())
        context["refusal"] = refusal
    context["form"] = form
    return render(request, template, context, status=400 if context.get("refusal") else 200)


@login_required
def archive_import_page(request):
    """Upload an archive file: the tournament, or the refusal with the JSON path of its first fault."""
    if not can_create_tournament(request.user):
        raise PermissionDenied(_("You may not create tournaments."))
    form = ArchiveImportForm(request.POST or None, request.FILES or None)
    return _render_import(request, "rankings/archive/import.html", {}, form)


@login_required
def director_archive(request, slug: str):
    """A tournament's archive: download it, or replace the tournament from a file."""
    tournament = tournament_for_director(user=request.user, slug=slug)
    form = ArchiveImportForm(request.POST or None, request.FILES or None)
    return _render_import(request, "rankings/archive/tournament.html", {"tournament": tournament}, form)


@login_required
def archive_import_job(request, pk: int):
    """A large archive being imported: its progress (htmx polls this), then the tournament or the refusal."""
    job = get_object_or_404(ArchiveImportJob, pk=pk, requested_by=request.user)
    context = {"job": job, "progress": job_progress(job)}
    if request.htmx:
        return render(request, "rankings/archive/_job.html", context)
    return render(request, "rankings/archive/job.html", context)


@login_required
def director_archive_download(request, slug: str):
    tournament = tournament_for_director(user=request.user, slug=slug)
    document = archive_export(tournament=tournament)
    response = HttpResponse(
        json.dumps(document, ensure_ascii=False, indent=1), content_type="application/json; charset=utf-8"
    )
    response["Content-Disposition"] = f'attachment; filename="{tournament.slug}.json"'
    return response
