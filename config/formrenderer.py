"""The forms' renderer: Django's, with the plain ``<input>`` widgets written out without a template.

A table page shows some twenty inputs (the hand form, the totals, the forms' versions); Django renders each
through two small templates (``input.html`` including ``attrs.html``), a template render each. Here the
same markup is written directly, as those two templates write it: the type, the name, the value when there
is one, then each attribute (``True``: its name alone; ``False``: left out), every value formatted with
``%s`` and escaped unless marked safe. Used only while those templates are Django's own (no project
template overrides them); any other widget goes through its template as usual.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import django.forms
from django.forms.renderers import DjangoTemplates
from django.utils.functional import cached_property
from django.utils.html import conditional_escape
from django.utils.safestring import SafeData, mark_safe

_WIDGETS = Path(django.forms.__file__).parent / "templates" / "django" / "forms" / "widgets"
# the widgets whose template is only ``{% include "django/forms/widgets/input.html" %}``
_INPUTS = frozenset(
    f"django/forms/widgets/{name}.html"
    for name in ("input", "text", "number", "hidden", "email", "password", "url", "search", "tel", "color")
)


def _formatted(value: Any) -> str:
    """``{{ value|stringformat:'s' }}`` in an escaping template."""
    shown = str(value) if isinstance(value, tuple) else value
    try:
        text = "%s" % shown  # noqa: UP031 (the filter's own formatting, tuples and all)
    except (ValueError, TypeError):
        text = ""
    return conditional_escape(mark_safe(text) if isinstance(value, SafeData) else text)


def input_html(widget: dict[str, Any]) -> str:
    """``input.html`` with its ``attrs.html``, for one widget's context."""
    parts = [
        f'<input type="{conditional_escape(widget["type"])}" name="{conditional_escape(widget["name"])}"'
    ]
    if widget["value"] != None:  # noqa: E711 (the template's comparison)
        parts.append(f' value="{_formatted(widget["value"])}"')
    for name, value in widget["attrs"].items():
        if value is not False:
            parts.append(f" {conditional_escape(name)}")
            if value is not True:
                parts.append(f'="{_formatted(value)}"')
    parts.append(">")
    return mark_safe("".join(parts))


class FormRenderer(DjangoTemplates):
    """Django's template renderer, with the plain inputs written directly (``input_html``)."""

    @cached_property
    def _inputs_are_django_s(self) -> bool:
        for name in (*_INPUTS, "django/forms/widgets/attrs.html"):
            origin = Path(self.get_template(name).origin.name)
            if origin.parent != _WIDGETS:
                return False
        return True

    def render(self, template_name, context, request=None):
        if template_name in _INPUTS and "widget" in context and self._inputs_are_django_s:
            return input_html(context["widget"])
        return super().render(template_name, context, request=request)
