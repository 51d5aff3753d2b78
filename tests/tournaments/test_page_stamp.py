"""The public pages' publication stamp (``tournaments.pagecache``) around a write's transaction."""

from __future__ import annotations

import pytest
from django.core.cache import cache

from tournaments import pagecache
from tournaments.clock import services as clock

pytestmark = pytest.mark.django_db


def test_with_the_stamp_memo_a_write_renews_the_shared_stamp_once_at_its_commit(
    tournament, director, settings, django_capture_on_commit_callbacks
):
    """Other processes read the shared stamp: inside the write's transaction it stays as it was (they
    cannot see the change yet), this process's memo has the new one at once, and the shared one is renewed
    at the commit."""
    settings.PUBLIC_STAMP_MEMO_SECONDS = 1
    slug = tournament.slug
    before = pagecache.stamp(slug)
    key = pagecache._stamp_key(slug)
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        clock.announcement_add(tournament=tournament, user=director, text="Photo at 17:00")
        assert cache.get(key) == before  # the other processes do not see the change before the commit
        assert pagecache.stamp(slug) != before  # this process does
    assert callbacks and cache.get(key) not in (before, None)
    assert pagecache.stamp(slug) == cache.get(key)


def test_without_the_memo_the_shared_stamp_is_renewed_at_once_and_at_the_commit(
    tournament, director, django_capture_on_commit_callbacks
):
    """The embedded file cache keeps no memo: every read asks the shared stamp, which a write renews in
    its transaction (its own reads see the change) and again at the commit."""
    slug = tournament.slug
    before = pagecache.stamp(slug)
    with django_capture_on_commit_callbacks(execute=True):
        clock.announcement_add(tournament=tournament, user=director, text="Photo at 17:00")
        inside = pagecache.stamp(slug)
        assert inside != before
    assert pagecache.stamp(slug) not in (before, inside)
