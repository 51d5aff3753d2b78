"""Every language of the site is complete: each message of the source catalogue (the Spanish one, complete
by the house rule) translated in django.po and djangojs.po, with the same placeholders, the language's
plural forms, nothing fuzzy, and the compiled .mo the server reads up to date with its .po.

It checks the languages of settings.LANGUAGES that have a catalogue in locale/ (a language whose catalogue
is still being written is listed, not failed, by ``test_languages_waiting_for_a_catalogue``)."""

from __future__ import annotations

import warnings
from pathlib import Path

import pytest
from django.conf import settings

from tests.i18n.catalogues import catalogue_faults, compiled_faults

LOCALE = Path(settings.BASE_DIR) / "locale"
SOURCE = "es"
DOMAINS = ("django", "djangojs")


def po_path(language: str, domain: str) -> Path:
    return LOCALE / language / "LC_MESSAGES" / f"{domain}.po"


def translated_languages() -> list[str]:
    """The languages other than English with a catalogue in locale/."""
    return [code for code, _name in settings.LANGUAGES if code != "en" and po_path(code, "django").exists()]


@pytest.mark.parametrize("language", translated_languages())
@pytest.mark.parametrize("domain", DOMAINS)
def test_every_message_is_translated_with_its_placeholders_and_plurals(language, domain):
    source = po_path(SOURCE, domain)
    if not source.exists():
        pytest.skip(f"no {domain} source catalogue")
    faults = catalogue_faults(language, source, po_path(language, domain))
    assert faults == [], f"{len(faults)} faults:\n" + "\n".join(faults[:40])


@pytest.mark.parametrize("language", translated_languages())
@pytest.mark.parametrize("domain", DOMAINS)
def test_the_compiled_catalogue_is_up_to_date(language, domain):
    po = po_path(language, domain)
    if not po.exists():
        pytest.skip(f"{language} has no {domain} catalogue (the completeness test says so)")
    assert compiled_faults(po) == []


def test_languages_waiting_for_a_catalogue():
    """English is the source; every other language of the site either has its catalogue or is waiting for
    it (said as a warning, so that a run shows which)."""
    assert settings.LANGUAGE_CODE == "en" and SOURCE in translated_languages()
    waiting = [
        code for code, _name in settings.LANGUAGES if code != "en" and code not in translated_languages()
    ]
    if waiting:
        warnings.warn(f"languages without a catalogue yet: {', '.join(waiting)}", stacklevel=1)
