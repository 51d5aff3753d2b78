"""The embedded default's cache: Django's file cache, shared by every process of the server on one machine,
with an ``add`` that is atomic across those processes.

Django's ``FileBasedCache.add`` checks for the key, then writes: another process's ``set`` between the two
would be overwritten by the older value ``add`` carries (the clock's readers only ever *add* the document
they built, so that a reader that read before a commit cannot put back an older one). Here ``add`` and
``set`` hold one exclusive lock on a file in the cache folder (``flock``; re-entered by ``add``'s own
``set``), so an ``add`` sees every ``set`` made before it and none is made in between.
"""

from __future__ import annotations

import contextlib
import os
import threading

from django.core.cache.backends.base import DEFAULT_TIMEOUT
from django.core.cache.backends.filebased import FileBasedCache

try:
    import fcntl
except ImportError:  # not POSIX: Django's own behaviour
    fcntl = None

LOCK_NAME = ".writes.lock"  # not a cache entry: entries end in ``.djcache``
_held = threading.local()


class SharedFileCache(FileBasedCache):
    @contextlib.contextmanager
    def _writing(self):
        if fcntl is None or getattr(_held, "depth", 0):
            _held.depth = getattr(_held, "depth", 0) + 1
            try:
                yield
            finally:
                _held.depth -= 1
            return
        os.makedirs(self._dir, 0o700, exist_ok=True)
        with open(os.path.join(self._dir, LOCK_NAME), "a+b") as handle:
            fcntl.flock(handle, fcntl.LOCK_EX)
            _held.depth = 1
            try:
                yield
            finally:
                _held.depth = 0
                fcntl.flock(handle, fcntl.LOCK_UN)

    def add(self, key, value, timeout=DEFAULT_TIMEOUT, version=None):
        with self._writing():
            return super().add(key, value, timeout, version)

    def set(self, key, value, timeout=DEFAULT_TIMEOUT, version=None):
        with self._writing():
            super().set(key, value, timeout, version)
