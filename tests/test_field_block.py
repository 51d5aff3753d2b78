"""A form field drawn by ``field_block`` is the markup of the template it replaced, character for
character, for every kind of field the pages have: with help, with errors, without an id, with a label
that needs escaping, and every field of the table page's forms."""

from __future__ import annotations

import pytest
from django import forms
from django.template import engines
from django.template.loader import get_template
from django.utils.translation import gettext_lazy

from tests.scoring.test_pages_support import link_url, seat_session

# templates/scoring/_field.html as it was written in the template language
TEMPLATE = '{% if field.widget_type == "radioselect" or field.widget_type == "checkboxselectmultiple" %}<fieldset class="inline-choices"{% if field.errors %} aria-invalid="true"{% endif %}>\n  <legend>{{ field.label }}</legend>{{ field }}\n</fieldset>{% elif field.widget_type == "checkbox" %}<label class="check" for="{{ field.id_for_label }}">{{ field }} {{ field.label }}</label>{% else %}<label for="{{ field.id_for_label }}">{{ field.label }}</label>{{ field }}{% endif %}\n{% if field.help_text %}<small class="muted help">{{ field.help_text }}</small>{% endif %}\n{% for error in field.errors %}<small class="field-error" role="alert">{{ error }}</small>{% endfor %}\n'

CHOICES = [("a", "Alpha & co"), ("b", "<Beta>")]


class Every(forms.Form):
    text = forms.CharField(label="Name <b>&", help_text='Say "who" & why', max_length=5)
    lazy = forms.CharField(label=gettext_lazy("Reason"), required=False)
    number = forms.IntegerField(min_value=1)
    pick = forms.ChoiceField(choices=CHOICES)
    radio = forms.ChoiceField(choices=CHOICES, widget=forms.RadioSelect, help_text="One")
    several = forms.MultipleChoiceField(choices=CHOICES, widget=forms.CheckboxSelectMultiple)
    flag = forms.BooleanField(label="I agree", help_text="Tick it")
    hidden = forms.CharField(widget=forms.HiddenInput, required=False)


def both(field) -> tuple[str, str]:
    before = engines["django"].from_string(TEMPLATE).render({"field": field})
    return before, get_template("scoring/_field.html").render({"field": field})


@pytest.mark.parametrize(
    "form",
    [
        Every(),
        Every(auto_id=False),
        Every(data={"text": "far too long", "number": "0", "pick": "z", "radio": "z", "several": ["z"]}),
        Every(data={"text": "ok", "number": "3", "pick": "a", "radio": "b", "several": ["a"], "flag": "on"}),
    ],
    ids=["unbound", "no-id", "errors", "valid"],
)
def test_every_kind_of_field_is_drawn_as_the_template_drew_it(form):
    for field in form:
        before, after = both(field)
        assert after == before, field.name


@pytest.mark.django_db
def test_the_table_pages_forms_are_drawn_as_the_template_drew_them(client, tournament, referee):
    table = seat_session(tournament)[0]
    seen = 0
    for response in (client.get(link_url(table)), _signed_in(client, referee, table)):
        for form in response.context["forms"].values():
            for field in form or ():
                before, after = both(field)
                assert after == before, field.name
                seen += 1
    assert seen > 20


def _signed_in(client, referee, table):
    client.force_login(referee)
    session = table.session
    return client.get(f"/t/{session.tournament.slug}/s/{session.number}/table/{table.number}/")
