"""The director's backups page: the backups of the tournament, download one, restore one."""

from __future__ import annotations

from django import forms
from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import FileResponse, Http404
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from rankings.backups import services
from scoring.rules.base import RuleError
from tournaments.permissions import tournament_for_director


class RestoreForm(forms.Form):
    name = forms.CharField(widget=forms.HiddenInput, max_length=200)
    mode = forms.ChoiceField(
        label=gettext_lazy("Restore"),
        widget=forms.RadioSelect,
        choices=[
            ("new", gettext_lazy("as a new tournament (this one stays as it is)")),
            ("in_place", gettext_lazy("in place: this tournament goes back to the backup")),
        ],
        initial="new",
    )
    confirm = forms.BooleanField(
        label=gettext_lazy(
            "I understand: restoring in place replaces every result and penalty entered since"
        ),
        required=False,
    )

    def clean(self):
        cleaned = super().clean()
        if cleaned.get("mode") == "in_place" and not cleaned.get("confirm"):
            self.add_error("confirm", _("Confirm that the tournament goes back to the backup."))
        return cleaned


def _context(tournament, rows, **extra) -> dict:
    return {
        "tournament": tournament,
        "rows": rows,
        "backup_minutes": settings.BACKUP_SECONDS // 60,
        "backup_keep": settings.BACKUP_KEEP,
        **extra,
    }


@login_required
def backups_page(request, slug: str):
    tournament = tournament_for_director(user=request.user, slug=slug)
    backups = services.backups_list(tournament=tournament)
    forms_by_name = {
        b.name: RestoreForm(initial={"name": b.name}, prefix=str(i)) for i, b in enumerate(backups)
    }
    return render(
        request,
        "rankings/backups/page.html",
        _context(tournament, [(b, forms_by_name[b.name]) for b in backups]),
    )


@login_required
@require_POST
def backup_now(request, slug: str):
    tournament = tournament_for_director(user=request.user, slug=slug)
    try:
        backup = services.backup_write(tournament=tournament)
    except RuleError as exc:
        messages.error(
            request,
            _("No backup was written: it could not be restored (%(path)s: %(reason)s).")
            % {"path": exc.path, "reason": exc.message},
        )
    else:
        messages.success(request, _("Backup %(name)s written.") % {"name": backup.name})
    return redirect("director-backups", slug=tournament.slug)


@login_required
def backup_download(request, slug: str, name: str):
    tournament = tournament_for_director(user=request.user, slug=slug)
    try:
        backup = services.backup_get(tournament=tournament, name=name)
    except RuleError:
        raise Http404(_("There is no such backup.")) from None
    return FileResponse(backup.path.open("rb"), as_attachment=True, filename=backup.name)


@login_required
@require_POST
def backup_restore(request, slug: str):
    tournament = tournament_for_director(user=request.user, slug=slug)
    backups = services.backups_list(tournament=tournament)
    prefix = request.POST.get("prefix", "0")
    form = RestoreForm(request.POST, prefix=prefix if prefix.isdigit() else "0")
    refusal = None
    if form.is_valid():
        try:
            restored = services.backup_restore(
                tournament=tournament,
                name=form.cleaned_data["name"],
                in_place=form.cleaned_data["mode"] == "in_place",
                user=request.user,
            )
        except RuleError as exc:
            refusal = exc
        else:
            messages.success(
                request,
                _("The backup %(name)s was restored as %(tournament)s.")
                % {"name": form.cleaned_data["name"], "tournament": restored.name},
            )
            return redirect(restored.get_absolute_url())
    rows = [
        (
            b,
            form
            if b.name == form.data.get(f"{form.prefix}-name")
            else RestoreForm(initial={"name": b.name}, prefix=str(i)),
        )
        for i, b in enumerate(backups)
    ]
    return render(
        request, "rankings/backups/page.html", _context(tournament, rows, refusal=refusal), status=400
    )
