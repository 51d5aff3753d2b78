"""Fixtures of the export tests."""

import pytest


@pytest.fixture
def media(settings, tmp_path):
    """Export files go to a temporary MEDIA_ROOT."""
    settings.MEDIA_ROOT = tmp_path / "media"
    return settings.MEDIA_ROOT
