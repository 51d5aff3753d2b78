"""Pages of the results of tournaments held elsewhere: list, import (check first), correct, remove.

The list and each imported tournament's page are public (a results file is public data); importing,
correcting and removing need staff or the model permissions of :class:`ImportedTournament`, checked
before the request body is read.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.core.paginator import Paginator
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from rankings.ema.import_forms import CorrectForm, ImportForm
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
from rankings.ema.results_file import MAX_FILE_BYTES
from rankings.models import ImportedTournament

PAGE_SIZE = 50
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
    page = Paginator(ImportedTournament.objects.all(), PAGE_SIZE).get_page(request.GET.get("page"))
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
