"""The static files' storage of production: whitenoise's compressed manifest, with each file's address
worked out once per process.

``{% static %}`` asks the storage for a file's address on every page: the manifest's lookup, the name
split and quoted, the address joined, a few dozen microseconds each, for an answer that cannot change while
the process runs (the manifest is read once, when the process starts). The answers are kept; collecting the
files again forgets them."""

from __future__ import annotations

from whitenoise.storage import CompressedManifestStaticFilesStorage


class StaticFilesStorage(CompressedManifestStaticFilesStorage):
    def __init__(self, *args, **kwargs):
        self._urls: dict[str, str] = {}
        super().__init__(*args, **kwargs)

    def url(self, name, force=False):
        if force:
            return super().url(name, force)
        url = self._urls.get(name)
        if url is None:
            url = self._urls[name] = super().url(name)
        return url

    def post_process(self, *args, **kwargs):
        self._urls.clear()
        yield from super().post_process(*args, **kwargs)
        self._urls.clear()
