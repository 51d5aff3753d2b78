"""The clock's messages (``{% clock_messages rule %}``), rendered once per language and rule.

The messages a clock can show (not started, paused, the signal, the red zone, each way time can be up,
the session over) depend on the language and on the end rule only, and a table's page shows them on
every save. Each process renders them once for each language and rule, and keeps them; a template
changed on disk (the development server) or a changed setting (the tests) drops what is kept."""

from __future__ import annotations

from django import template
from django.core.signals import setting_changed
from django.template.loader import get_template
from django.utils.autoreload import file_changed
from django.utils.translation import get_language

from tournaments.clock.engine import EndRule

register = template.Library()

MESSAGES = "clock/_messages.html"
KEPT_AT_MOST = 64  # languages × rules a process keeps; past that it starts again
_kept: dict[tuple[str | None, EndRule], str] = {}


@register.simple_tag
def clock_messages(rule: EndRule) -> str:
    key = (get_language(), rule)
    text = _kept.get(key)
    if text is None:
        text = get_template(MESSAGES).render({"rule": rule})
        if len(_kept) >= KEPT_AT_MOST:
            _kept.clear()
        _kept[key] = text
    return text


def forget(**kwargs) -> None:
    _kept.clear()


setting_changed.connect(forget, dispatch_uid="tournaments.templatetags.clock.settings")
file_changed.connect(forget, dispatch_uid="tournaments.templatetags.clock.files")
