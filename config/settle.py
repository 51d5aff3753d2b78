"""A server process's objects out of the garbage collector's way, once the application is loaded.

The modules, settings, URLs, models and templates a server process loads live as long as the process.
Python's cyclic collector still walks all of them (some 190,000 objects) at each full collection, which a
page's allocations set off now and then: milliseconds taken from whichever request was running.
``gc.freeze()`` moves every object alive at that moment to a generation the collector no longer scans;
what the requests allocate is collected as before.

The youngest generation is then collected after 10,000 new objects instead of Python's 700: a table
phone's save allocates enough to set off one or two young collections at 700 (and now and then the next
generation's), a few percent of its CPU (`bench/entry/README.md`); at 10,000, about one save in five sets
one off. Objects freed by their count go at once as before; only garbage in cycles waits a little longer.
"""

from __future__ import annotations

import gc

from django.urls import get_resolver

YOUNG_THRESHOLD = 10_000  # new objects between two collections of the youngest generation (Python: 700)


def settle() -> None:
    """Load the URLs (and with them the views) now, collect once, freeze what is alive, and collect the
    youngest generation less often."""
    get_resolver().url_patterns  # noqa: B018 (imported now, not at the first request)
    gc.collect()
    gc.freeze()
    gc.set_threshold(YOUNG_THRESHOLD, *gc.get_threshold()[1:])
