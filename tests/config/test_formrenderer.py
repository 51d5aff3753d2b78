"""The forms' renderer writes the plain inputs exactly as Django's templates do (config/formrenderer.py)."""

from __future__ import annotations

import pytest
from django import forms
from django.forms.renderers import DjangoTemplates, get_default_renderer
from django.utils import translation
from django.utils.safestring import mark_safe
from django.utils.translation import gettext_lazy

from config.formrenderer import FormRenderer

WIDGETS = [
    forms.TextInput(),
    forms.NumberInput(attrs={"min": 0, "step": 1, "inputmode": "numeric"}),
    forms.HiddenInput(),
    forms.EmailInput(attrs={"required": True, "disabled": False, "placeholder": gettext_lazy("Reason")}),
    forms.TextInput(attrs={"data-x": '<a href="x">&</a>', "data-safe": mark_safe("<b>"), "data-t": (1, 2)}),
    forms.PasswordInput(render_value=True),
    forms.URLInput(attrs={"size": 1.5}),
]
VALUES = [None, "", "12", 3, 2.5, '"quoted" <tag> & more', mark_safe("<i>safe</i>")]


@pytest.mark.parametrize("widget", WIDGETS, ids=lambda w: type(w).__name__)
def test_each_plain_input_is_written_as_django_s_templates_write_it(widget):
    fast, templates = FormRenderer(), DjangoTemplates()
    for value in VALUES:
        for attrs in (None, {"id": "id_f", "aria-invalid": "true", "class": "a b"}):
            expected = widget.render("field", value, attrs=attrs, renderer=templates)
            assert widget.render("field", value, attrs=attrs, renderer=fast) == expected


CHOICES = [
    ("1", "one"),
    ("2", '<two> & "2"'),
    (3, 3),
    (4.5, 4.5),
    ("l", gettext_lazy("Reason")),
    ("Group <g>", [("a", "A"), ("b", mark_safe("<b>B</b>"))]),
]
CHOICE_WIDGETS = [
    forms.RadioSelect(choices=CHOICES),
    forms.RadioSelect(choices=CHOICES, attrs={"class": "inline", "data-x": "<y>"}),
    forms.CheckboxSelectMultiple(choices=CHOICES),
    forms.Select(choices=CHOICES),
    forms.Select(choices=CHOICES, attrs={"class": "c", "required": True}),
    forms.SelectMultiple(choices=CHOICES),
    forms.NullBooleanSelect(),
]


@pytest.mark.parametrize("widget", CHOICE_WIDGETS, ids=lambda w: type(w).__name__)
@pytest.mark.parametrize("language", ["en", "es"])
def test_choices_and_selects_are_written_as_django_s_templates_write_them(widget, language):
    fast, templates = FormRenderer(), DjangoTemplates()
    with translation.override(language):
        values = [None, "2", 3, "unknown", "true"] + ([["1", "b"]] if widget.allow_multiple_selected else [])
        for value in values:
            for attrs in (None, {"id": "id_f"}):
                expected = widget.render("field", value, attrs=attrs, renderer=templates)
                assert widget.render("field", value, attrs=attrs, renderer=fast) == expected


def test_other_widgets_still_go_through_their_templates():
    fast, templates = FormRenderer(), DjangoTemplates()
    select = forms.SelectDateWidget()
    assert select.render("s", "", renderer=fast) == select.render("s", "", renderer=templates)
    area = forms.Textarea()
    assert area.render("t", "a < b", renderer=fast) == area.render("t", "a < b", renderer=templates)


def test_the_project_s_forms_use_it(settings):
    assert FormRenderer()._inputs_are_django_s  # no template of the project's replaces Django's inputs
    assert settings.FORM_RENDERER == "config.formrenderer.FormRenderer"
    assert isinstance(get_default_renderer(), FormRenderer)
