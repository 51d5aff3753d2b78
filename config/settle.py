"""A server process's objects out of the garbage collector's way, once the application is loaded.

The modules, settings, URLs, models and templates a server process loads live as long as the process.
Python's cyclic collector still walks all of them (some 190,000 objects) at each full collection, which a
page's allocations set off now and then: milliseconds taken from whichever request was running.
``gc.freeze()`` moves every object alive at that moment to a generation the collector no longer scans;
what the requests allocate is collected as before.
"""

from __future__ import annotations

import gc

from django.urls import get_resolver


def settle() -> None:
    """Load the URLs (and with them the views) now, collect once, and freeze what is alive."""
    get_resolver().url_patterns  # noqa: B018 (imported now, not at the first request)
    gc.collect()
    gc.freeze()
