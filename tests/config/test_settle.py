"""A server process, once loaded, keeps what it loaded out of the garbage collector's way
(config/settle.py, called by config/wsgi.py and config/asgi.py)."""

from __future__ import annotations

import gc
import sys

from django.conf import settings

from config.settle import settle


def test_what_is_loaded_is_frozen_with_the_urls_and_views():
    try:
        settle()
        assert gc.get_freeze_count() > 10_000
        assert settings.ROOT_URLCONF in sys.modules and "scoring.views" in sys.modules
    finally:
        gc.unfreeze()


def test_both_entry_points_settle():
    root = settings.BASE_DIR / "config"
    for name in ("wsgi.py", "asgi.py"):
        assert "settle()" in (root / name).read_text()
