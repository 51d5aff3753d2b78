"""Forms of the results import pages: the file and the tournament's facts, bounded before any work."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from rankings.ema.imports import MAX_DAYS, TournamentFacts
from rankings.ema.results_file import MAX_FILE_BYTES
from tournaments.countries import validate_country


class FactsForm(forms.Form):
    name = forms.CharField(label=_("Tournament"), max_length=200)
    family = forms.ChoiceField(label=_("Rules"), choices=[("mcr", "MCR"), ("riichi", _("Riichi"))])
    starts_on = forms.DateField(label=_("First day"), widget=forms.DateInput(attrs={"type": "date"}))
    ends_on = forms.DateField(
        label=_("Last day"),
        required=False,
        widget=forms.DateInput(attrs={"type": "date"}),
        help_text=_("Leave empty when the days of play follow one another."),
    )
    days = forms.IntegerField(label=_("Days of play"), min_value=1, max_value=MAX_DAYS, initial=1)
    city = forms.CharField(label=_("City"), max_length=100, required=False)
    country = forms.CharField(
        label=_("Country"),
        max_length=3,
        required=False,
        validators=[validate_country],
        help_text=_("Three-letter code: ESP, FRA, NLD…"),
    )
    qualifies_for_championship = forms.BooleanField(
        label=_("Qualifies for a European championship"), required=False
    )

    def clean_country(self) -> str:
        return self.cleaned_data["country"].strip().upper()

    def facts(self) -> TournamentFacts:
        data = self.cleaned_data
        return TournamentFacts(
            name=data["name"].strip(),
            family=data["family"],
            starts_on=data["starts_on"],
            ends_on=data.get("ends_on"),
            days=data["days"],
            city=data.get("city", "").strip(),
            country=data.get("country", ""),
            qualifies_for_championship=bool(data.get("qualifies_for_championship")),
        )


class ResultsFileField(forms.FileField):
    def clean(self, data, initial=None):
        upload = super().clean(data, initial)
        if upload and upload.size > MAX_FILE_BYTES:
            raise forms.ValidationError(
                _("The file has more than %(limit)s bytes.") % {"limit": MAX_FILE_BYTES}, code="too_large"
            )
        return upload


class ImportForm(FactsForm):
    file = ResultsFileField(
        label=_("Results file"),
        help_text=_(
            "CSV or Excel (XLSX): this product's EMA results file or MTS's EMA report (Place, EMA number, "
            "Last name, First name, Country, EMA member, Table points, Score)."
        ),
        widget=forms.ClearableFileInput(attrs={"accept": ".csv,.xlsx,text/csv"}),
    )
    field_order = ["file", "name", "family", "starts_on", "ends_on", "days", "city", "country"]


class CorrectForm(FactsForm):
    file = ResultsFileField(
        label=_("Corrected results file"),
        required=False,
        help_text=_("Leave empty to keep the lines imported; a new file replaces them all."),
        widget=forms.ClearableFileInput(attrs={"accept": ".csv,.xlsx,text/csv"}),
    )
