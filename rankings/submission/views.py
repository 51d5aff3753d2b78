"""Pages of the EMA submission (directors): the checks, the weight and the ranking preview, the pack, the
observer's report (page, form and PDF), and the dashboard's panel."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from rankings.exports.jobs import export_job_create
from rankings.submission import engine, pack, selectors, services
from rankings.submission.forms import ObserverForm, SubstituteAnswerForm
from rankings.submission.report import report_of, report_pdf
from scoring.rules.base import RuleError
from tournaments.models import Registration
from tournaments.permissions import tournament_for_director, user_roles


def _checks_context(tournament) -> dict:
    checks = selectors.checks(tournament=tournament)
    return {
        "tournament": tournament,
        "ranked": tournament.family in engine.RANKED,
        "checks": checks,
        "summary": engine.summary(checks),
        "done": sum(1 for c in checks if c.status in (engine.OK, engine.INFO)),
    }


@login_required
def checks_page(request, slug: str):
    """Every check with its article, the weight, the ranking preview, the substitutes' answers, the pack."""
    tournament = tournament_for_director(user=request.user, slug=slug)
    submission = selectors.submission_of(tournament=tournament)
    answers = submission.substitute_answers or {}
    substitutes = [
        (r, answers.get(r.key))
        for r in Registration.objects.filter(tournament=tournament, is_substitute=True).select_related(
            "player"
        )
    ]
    context = _checks_context(tournament)
    context.update(
        {
            "roles": user_roles(request.user, tournament),
            "weight": selectors.weight(tournament=tournament),
            "preview": selectors.preview(tournament=tournament),
            "pack": pack.pack_state(tournament=tournament),
            "substitutes": substitutes,
        }
    )
    return render(request, "rankings/submission/checks.html", context)


@login_required
def checks_panel(request, slug: str):
    """The dashboard's panel: one line per check, green when met (htmx loads it into the dashboard)."""
    tournament = tournament_for_director(user=request.user, slug=slug)
    return render(request, "rankings/submission/_panel.html", _checks_context(tournament))


@login_required
@require_POST
def substitute_answer(request, slug: str):
    tournament = tournament_for_director(user=request.user, slug=slug)
    form = SubstituteAnswerForm(request.POST)
    if form.is_valid():
        try:
            services.substitute_answer_set(
                tournament=tournament, key=form.cleaned_data["key"], counts=form.counts()
            )
        except RuleError as exc:
            messages.error(request, exc.message)
        else:
            messages.success(request, _("The substitute's answer is recorded."))
    else:
        messages.error(request, _("Choose a substitute and an answer."))
    return redirect(f"{reverse('ema-submission', kwargs={'slug': tournament.slug})}#substitutes")


@login_required
@require_POST
def pack_start(request, slug: str):
    tournament = tournament_for_director(user=request.user, slug=slug)
    try:
        job = export_job_create(
            tournament=tournament,
            exporter=pack.IDENTIFIER,
            fmt="zip",
            user=request.user,
            language=get_language(),
        )
    except RuleError as exc:
        messages.error(request, exc.message)
        return redirect("ema-submission", slug=tournament.slug)
    return redirect("export-job", slug=tournament.slug, pk=job.pk)


@login_required
def report_page(request, slug: str):
    """The observer's report as drafted (printable), and the form for what only people know."""
    tournament = tournament_for_director(user=request.user, slug=slug)
    submission = selectors.submission_of(tournament=tournament)
    if request.method == "POST":
        form = ObserverForm(request.POST)
        if form.is_valid():
            try:
                services.submission_update(tournament=tournament, changes=form.changes())
            except RuleError as exc:
                field = exc.path.split("[")[0].split(".")[0] if exc.path else None
                form.add_error(field if field in form.fields else None, exc.message)
            else:
                messages.success(request, _("The observer's report is saved."))
                return redirect("ema-submission-report", slug=tournament.slug)
    else:
        form = ObserverForm(initial=ObserverForm.initial_of(submission))
    return render(
        request,
        "rankings/submission/report.html",
        {
            "tournament": tournament,
            "roles": user_roles(request.user, tournament),
            "report": report_of(tournament=tournament),
            "form": form,
        },
    )


@login_required
def report_pdf_download(request, slug: str):
    tournament = tournament_for_director(user=request.user, slug=slug)
    data = report_pdf(report_of(tournament=tournament))
    response = HttpResponse(data, content_type="application/pdf")
    response["Content-Disposition"] = f'attachment; filename="{tournament.slug}-observer-report.pdf"'
    return response
