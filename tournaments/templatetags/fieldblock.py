"""A form field as every page draws it: its label, its input, its help and its errors
(``templates/scoring/_field.html``), written out in Python.

The pages draw about ten fields each (a hand form with its tiles, a totals form); through the template
language each cost about 0.15 ms of a request. The markup is the template's, character for character:
``tests/test_field_block.py`` renders the template this replaced beside it for every kind of field.
"""

from __future__ import annotations

from django import template
from django.forms import BoundField
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString, mark_safe

register = template.Library()

CHOICES = frozenset({"radioselect", "checkboxselectmultiple"})
INVALID = mark_safe(' aria-invalid="true"')


@register.simple_tag
def field_block(field: BoundField) -> SafeString:
    kind = field.widget_type
    errors = field.errors
    if kind in CHOICES:
        head = format_html(
            '<fieldset class="inline-choices"{}>\n  <legend>{}</legend>{}\n</fieldset>',
            INVALID if errors else "",
            field.label,
            field,
        )
    elif kind == "checkbox":
        head = format_html(
            '<label class="check" for="{}">{} {}</label>', field.id_for_label, field, field.label
        )
    else:
        head = format_html('<label for="{}">{}</label>{}', field.id_for_label, field.label, field)
    help_text = (
        format_html('<small class="muted help">{}</small>', field.help_text) if field.help_text else ""
    )
    shown = format_html_join("", '<small class="field-error" role="alert">{}</small>', ((e,) for e in errors))
    return mark_safe(f"{head}\n{help_text}\n{shown}")
