"""The forms' renderer: Django's, with its commonest widgets written out without their templates.

A table page shows some twenty fields (the hand form with its radio buttons and selects, the totals, the
forms' versions); Django renders each through small templates (``input.html`` including ``attrs.html``,
``multiple_input.html`` including an option template per choice…), a template render each. Here the same
markup is written directly, character for character as those templates write it (their new lines
included): every value shown as a template shows it (localized, escaped unless marked safe), ``%s`` where
the template formats with ``stringformat``. Used only while those templates are the ones this module was
written against (``TEMPLATES_DIGEST``: no project template overrides them, no other Django version);
any other widget goes through its template as usual.
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

import django.forms
from django.forms.renderers import DjangoTemplates
from django.utils.formats import localize
from django.utils.functional import cached_property
from django.utils.html import conditional_escape
from django.utils.safestring import SafeData, mark_safe
from django.utils.timezone import template_localtime

_WIDGETS = Path(django.forms.__file__).parent / "templates" / "django" / "forms" / "widgets"
# the widgets whose template is only ``{% include "django/forms/widgets/input.html" %}``
_INPUTS = frozenset(
    f"django/forms/widgets/{name}.html"
    for name in ("input", "text", "number", "hidden", "email", "password", "url", "search", "tel", "color")
)


def _shown(value: Any) -> str:
    """``{{ value }}`` in an escaping template: localized, then escaped unless marked safe."""
    return conditional_escape(localize(template_localtime(value)))


def _formatted(value: Any) -> str:
    """``{{ value|stringformat:'s' }}`` in an escaping template."""
    shown = str(value) if isinstance(value, tuple) else value
    try:
        text = "%s" % shown  # noqa: UP031 (the filter's own formatting, tuples and all)
    except (ValueError, TypeError):
        text = ""
    return conditional_escape(mark_safe(text) if isinstance(value, SafeData) else text)


def _attrs_html(attrs: dict[str, Any]) -> str:
    """``attrs.html``: each attribute (``True``: its name alone; ``False``: left out)."""
    parts = []
    for name, value in attrs.items():
        if value is not False:
            parts.append(f" {_shown(name)}")
            if value is not True:
                parts.append(f'="{_formatted(value)}"')
    return "".join(parts)


def input_html(widget: dict[str, Any]) -> str:
    """``input.html`` with its ``attrs.html``, for one widget's context."""
    value = ""
    if widget["value"] != None:  # noqa: E711 (the template's comparison)
        value = f' value="{_formatted(widget["value"])}"'
    kind, name = _shown(widget["type"]), _shown(widget["name"])
    return mark_safe(f'<input type="{kind}" name="{name}"{value}{_attrs_html(widget["attrs"])}>')


def _option_html(option: dict[str, Any]) -> str:
    """``radio_option.html`` and ``checkbox_option.html``: ``input_option.html``, the input in its label
    when it wraps one (each template ends with a new line, kept inside the option's ``div``)."""
    if not option["wrap_label"]:
        return f"{input_html(option)}\n\n\n"
    target = option["attrs"].get("id")
    opening = f' for="{_shown(target)}"' if target else ""
    return f"<label{opening}>{input_html(option)}\n {_shown(option['label'])}</label>\n\n"


def choices_html(widget: dict[str, Any]) -> str:
    """``multiple_input.html`` (radio buttons, checkboxes), its options through ``input_option.html``."""
    target, css = widget["attrs"].get("id"), widget["attrs"].get("class")
    parts = ["<div"]
    if target:
        parts.append(f' id="{_shown(target)}"')
    if css:
        parts.append(f' class="{_shown(css)}"')
    parts.append(">")
    for group, options, _index in widget["optgroups"]:
        if group:
            parts.append(f"\n  <div><label>{_shown(group)}</label>")
        for option in options:
            parts.append(f"<div>\n    {_option_html(option)}</div>")
        if group:
            parts.append("\n  </div>")
    parts.append("\n</div>")
    return mark_safe("".join(parts))


def select_html(widget: dict[str, Any]) -> str:
    """``select.html``, its options through ``select_option.html``."""
    parts = [f'<select name="{_shown(widget["name"])}"{_attrs_html(widget["attrs"])}>']
    for group, options, _index in widget["optgroups"]:
        if group:
            parts.append(f'\n  <optgroup label="{_shown(group)}">')
        for option in options:
            value, label = _formatted(option["value"]), _shown(option["label"])
            parts.append(f'\n  <option value="{value}"{_attrs_html(option["attrs"])}>{label}</option>\n')
        if group:
            parts.append("\n  </optgroup>")
    parts.append("\n</select>")
    return mark_safe("".join(parts))


_CHOICES = frozenset(f"django/forms/widgets/{name}.html" for name in ("radio", "checkbox_select"))
_OPTIONS = frozenset(f"django/forms/widgets/{name}_option.html" for name in ("radio", "checkbox"))
_CHECKED = (
    *_INPUTS,
    *_CHOICES,
    *_OPTIONS,
    "django/forms/widgets/attrs.html",
    "django/forms/widgets/input_option.html",
    "django/forms/widgets/multiple_input.html",
    "django/forms/widgets/select.html",
    "django/forms/widgets/select_option.html",
)


def _options_are(widget: dict[str, Any], templates: frozenset[str]) -> bool:
    return all(o["template_name"] in templates for _g, options, _i in widget["optgroups"] for o in options)


# The SHA-256 of the templates this module writes out (_CHECKED, sorted), as Django 5.2 has them: another
# version's templates go through the templates until this module is checked against them again.
TEMPLATES_DIGEST = "598fe9387216e316d66c53421b96bf55f41da420d41f71fdec47440a2a4af19b"


class FormRenderer(DjangoTemplates):
    """Django's template renderer, with the plain inputs, the radio buttons, the checkboxes and the selects
    written directly."""

    @cached_property
    def _inputs_are_django_s(self) -> bool:
        """The widgets' templates are Django's, as written when this was (else each goes through its own)."""
        digest = hashlib.sha256()
        for name in sorted(_CHECKED):
            origin = Path(self.get_template(name).origin.name)
            if origin.parent != _WIDGETS:
                return False
            digest.update(origin.read_bytes())
        return digest.hexdigest() == TEMPLATES_DIGEST

    def render(self, template_name, context, request=None):
        widget = context.get("widget")
        if widget is not None and self._inputs_are_django_s:
            if template_name in _INPUTS:
                return input_html(widget)
            if template_name in _CHOICES and _options_are(widget, _OPTIONS):
                return choices_html(widget)
            if template_name == "django/forms/widgets/select.html" and _options_are(
                widget, frozenset({"django/forms/widgets/select_option.html"})
            ):
                return select_html(widget)
        return super().render(template_name, context, request=request)
