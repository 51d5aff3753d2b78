"""The domain event in tests, which run inside one transaction that never commits: ``events()`` collects
the events the writes of its block send, as the block's commit would send them (Django's own helper,
``captureOnCommitCallbacks(execute=True)``, runs the commit callbacks registered in the block at its end;
those of a savepoint rolled back in it are discarded, as in a real commit). Outside such a block the
derived data is written with the write (``tournaments.signals.changing``) and the notifications wait for a
commit that never comes, as the other commit callbacks do (``django_capture_on_commit_callbacks``)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from django.test import TestCase

from tournaments.signals import Change, changed


@contextmanager
def events() -> Iterator[list[Change]]:
    sent: list[Change] = []

    def listen(sender, *, change, **kwargs):
        sent.append(change)

    changed.connect(listen, dispatch_uid="tests.events")
    try:
        with TestCase.captureOnCommitCallbacks(execute=True):
            yield sent
    finally:
        changed.disconnect(dispatch_uid="tests.events")
