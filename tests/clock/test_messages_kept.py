"""The clock's messages are rendered once per language and end rule and kept: what is kept must be what
the template says, in the visitor's language and with the rule's own minutes."""

from __future__ import annotations

import pytest
from django.template import Context, Template
from django.template.loader import get_template
from django.test import override_settings
from django.utils import translation

from tournaments.clock.engine import EndRule
from tournaments.templatetags import clock as clock_tags

TAG = Template("{% load clock %}{% clock_messages rule %}")


def messages(rule: EndRule, language: str) -> str:
    with translation.override(language):
        return TAG.render(Context({"rule": rule}))


def test_kept_messages_follow_the_language_and_the_rule():
    usual = EndRule()
    shorter = EndRule(signal_seconds=10 * 60, red_zone_seconds=3 * 60)
    english = messages(usual, "en")
    assert "Signal: 15 minutes or less left" in english and "Last 5 minutes" in english
    assert "Aviso: quedan 15 minutos o menos" in messages(usual, "es")
    assert "Signal: noch 15 Minuten oder weniger" in messages(usual, "de")
    other = messages(shorter, "en")
    assert "Signal: 10 minutes or less left" in other and "Last 3 minutes" in other
    # asked again, each language and rule still gets its own
    assert messages(usual, "en") == english
    assert "Aviso: quedan 10 minutos o menos" in messages(shorter, "es")


def test_kept_messages_are_the_templates_whole_text():
    rule = EndRule(signal_seconds=20 * 60, red_zone_seconds=5 * 60)
    for language in ("en", "es"):
        with translation.override(language):
            whole = get_template(clock_tags.MESSAGES).render({"rule": rule})
        assert messages(rule, language) == whole
        assert messages(rule, language) == whole  # the kept copy, the second time


def test_asked_again_the_kept_text_is_given_without_rendering(monkeypatch):
    rule = EndRule(signal_seconds=25 * 60, red_zone_seconds=5 * 60)
    first = messages(rule, "en")
    monkeypatch.setattr(clock_tags, "get_template", lambda name: pytest.fail("rendered again"))
    assert messages(rule, "en") == first


def test_a_changed_setting_drops_what_is_kept():
    messages(EndRule(), "en")
    assert clock_tags._kept
    with override_settings(LANGUAGE_CODE="es"):
        assert not clock_tags._kept
