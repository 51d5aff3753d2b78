"""Fixtures of the EMA tests."""

import pytest
from django.conf import settings
from django.utils import translation


@pytest.fixture(autouse=True)
def _reader_language():
    """Each test starts, and leaves the thread, in the default language: a request in Spanish activates
    Spanish for the thread, and the results file's faults are rendered in the active language."""
    translation.activate(settings.LANGUAGE_CODE)
    yield
    translation.activate(settings.LANGUAGE_CODE)
