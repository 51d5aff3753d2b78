"""A server process, once loaded, keeps what it loaded out of the garbage collector's way
(config/settle.py, called by config/wsgi.py and config/asgi.py)."""

from __future__ import annotations

import gc
import sys

from django.conf import settings

from config.settle import settle


def test_what_is_loaded_is_frozen_with_the_urls_and_views():
    before = gc.get_threshold()
    try:
        settle()
        assert gc.get_freeze_count() > 10_000
        assert settings.ROOT_URLCONF in sys.modules and "scoring.views" in sys.modules
        # the youngest generation collected after 10,000 new objects, the older ones as Python does
        assert gc.get_threshold() == (10_000, *before[1:])
    finally:
        gc.unfreeze()
        gc.set_threshold(*before)


def test_both_entry_points_settle():
    root = settings.BASE_DIR / "config"
    for name in ("wsgi.py", "asgi.py"):
        assert "settle()" in (root / name).read_text()
