"""The server's time, in one place: every clock computation asks ``now()``. Tests replace the source
(``override``) to move time forward without waiting; pages never trust the device's own clock."""

from __future__ import annotations

import contextlib
import datetime as dt
from collections.abc import Callable, Iterator

from django.utils import timezone

_source: Callable[[], dt.datetime] = timezone.now


def now() -> dt.datetime:
    return _source()


@contextlib.contextmanager
def override(source: Callable[[], dt.datetime]) -> Iterator[None]:
    """Use ``source`` as the server's time inside the block (tests only)."""
    global _source
    before, _source = _source, source
    try:
        yield
    finally:
        _source = before
