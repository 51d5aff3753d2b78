from django import forms
from django.utils.translation import gettext_lazy as _


class PlayerImportForm(forms.Form):
    file = forms.FileField(
        label=_("CSV file"),
        help_text=_("Columns: first_name, last_name, ema_id, country, club. UTF-8, comma or semicolon."),
    )
    substitutes = forms.BooleanField(label=_("Register them as substitutes"), required=False)
