"""Forms of the EMA submission pages: what the observer's report needs that the product does not record."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from rankings.submission import services


def _lines(text: str) -> list[str]:
    return [line.strip() for line in (text or "").splitlines() if line.strip()]


class ObserverForm(forms.Form):
    observer = forms.CharField(label=_("EMA observer"), max_length=services.MAX_NAME, required=False)
    observer_ema_id = forms.CharField(label=_("Observer's EMA number"), max_length=8, required=False)
    referees_not_playing = forms.CharField(
        label=_("Referees who do not play"),
        help_text=_("One name per line."),
        widget=forms.Textarea(attrs={"rows": 3}),
        required=False,
    )
    referees_playing = forms.CharField(
        label=_("Referees who also play"),
        help_text=_("One name per line. Leave both empty to list the tournament's referee accounts."),
        widget=forms.Textarea(attrs={"rows": 3}),
        required=False,
    )
    prizes = forms.CharField(
        label=_("Prizes"),
        help_text=_("One prize per line, with what it is awarded for."),
        widget=forms.Textarea(attrs={"rows": 3}),
        required=False,
    )
    organisation = forms.CharField(
        label=_("Overall organisation (venue, equipment, catering)"),
        max_length=services.MAX_TEXT,
        widget=forms.Textarea(attrs={"rows": 3}),
        required=False,
    )
    communication = forms.CharField(
        label=_("Information and communication"),
        max_length=services.MAX_TEXT,
        widget=forms.Textarea(attrs={"rows": 3}),
        required=False,
    )
    irregularities = forms.CharField(
        label=_("Irregularities: comments"),
        max_length=services.MAX_TEXT,
        widget=forms.Textarea(attrs={"rows": 3}),
        required=False,
    )
    complaints = forms.CharField(
        label=_("Complaints received or questions raised"),
        max_length=services.MAX_TEXT,
        widget=forms.Textarea(attrs={"rows": 3}),
        required=False,
    )
    conclusion = forms.CharField(
        label=_("Brief conclusion"),
        max_length=services.MAX_TEXT,
        widget=forms.Textarea(attrs={"rows": 3}),
        required=False,
    )

    @classmethod
    def initial_of(cls, submission) -> dict:
        referees = submission.referees or []
        return {
            "observer": submission.observer,
            "observer_ema_id": submission.observer_ema_id,
            "referees_not_playing": "\n".join(r["name"] for r in referees if not r.get("plays")),
            "referees_playing": "\n".join(r["name"] for r in referees if r.get("plays")),
            "prizes": "\n".join(submission.prizes or []),
            **{name: getattr(submission, name) for name in services.TEXT_FIELDS},
        }

    def changes(self) -> dict:
        data = self.cleaned_data
        referees = [{"name": n, "plays": False} for n in _lines(data["referees_not_playing"])]
        referees += [{"name": n, "plays": True} for n in _lines(data["referees_playing"])]
        return {
            "observer": data["observer"],
            "observer_ema_id": data["observer_ema_id"],
            "referees": referees,
            "prizes": _lines(data["prizes"]),
            **{name: data[name] for name in services.TEXT_FIELDS},
        }


ANSWERS = (("", _("not asked yet")), ("yes", _("results count")), ("no", _("results do not count")))


class SubstituteAnswerForm(forms.Form):
    key = forms.CharField(max_length=40)
    answer = forms.ChoiceField(choices=ANSWERS, required=False)

    def counts(self) -> bool | None:
        return {"yes": True, "no": False}.get(self.cleaned_data["answer"])
