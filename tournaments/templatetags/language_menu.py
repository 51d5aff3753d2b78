"""The language menu of every page: each language of the site written in itself."""

from __future__ import annotations

from django import template

from tournaments import languages

register = template.Library()


@register.simple_tag
def language_choices() -> list[tuple[str, str]]:
    """(code, the language's name in itself) for each language of the site, in the settings' order."""
    return [(code, languages.native_name(code)) for code in languages.codes()]
