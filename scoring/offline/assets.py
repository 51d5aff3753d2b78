"""What the table pages' service worker caches: the pages' paths and their static files, and the cache's
name, which changes whenever one of those files does (the worker then replaces its cache)."""

from __future__ import annotations

import hashlib
from functools import cache
from pathlib import Path

from django.contrib.staticfiles import finders

# Paths of the table entry pages: the private link and the staff's page (never a hand's correction page).
TABLE_PAGE = r"^/(?:table/[A-Za-z0-9_-]+|t/[-a-zA-Z0-9_]+/s/[0-9]+/table/[0-9]+)/$"
# Every file a table page needs (styles, scripts, icons; the page uses no web fonts), taken in the cache
# when the worker is installed, so that the page opens styled with no network after a single visit.
STATIC_FILES = (
    "vendor/pico-2.1.1.min.css",
    "css/app.css",
    "css/scoring.css",
    "css/tiles.css",
    "css/clock.css",
    "vendor/htmx-2.0.4.min.js",
    "js/app.js",
    "js/offline-entry.js",
    "js/confirm.js",
    "js/session-clock.js",
    "js/referee-call.js",
    "js/push.js",
    "scoring/tiles.js",
    "img/favicon.svg",
    "icons/entry-192.png",
    "icons/entry-512.png",
)


def catalogue_urls() -> list[str]:
    """The scripts' catalogue of every language (``/i18n/js/<language>.js``): a table page opened offline
    shows its script's strings in its language."""
    from django.conf import settings
    from django.urls import reverse

    return [reverse("javascript-catalog", args=[code]) for code, _name in settings.LANGUAGES]


def _catalogue_files() -> list:
    """The compiled scripts' catalogues: a change of a translation renews the worker's cache."""
    from django.conf import settings

    return sorted(
        path for folder in settings.LOCALE_PATHS for path in Path(folder).glob("*/LC_MESSAGES/djangojs.mo")
    )


def account_paths() -> list[str]:
    """Where a phone signs in or out: the service worker forgets its page copies on a POST to these (the
    site's and the admin's sign-in and sign-out, and the first organiser's account)."""
    from django.urls import reverse

    return [
        reverse("login"),
        reverse("logout"),
        reverse("admin:login"),
        reverse("admin:logout"),
        reverse("first-organiser"),
    ]


def sign_in_link_pattern() -> str:
    """The one-time sign-in links (``/welcome/<uid>/<token>/``): a POST to one signs another account in."""
    import re

    from django.urls import reverse

    sample = reverse("console-sign-in", args=["UID", "TOKEN"])
    return "^" + re.escape(sample).replace("UID", "[^/]+").replace("TOKEN", "[^/]+") + "$"


@cache
def _files_digest() -> str:
    digest = hashlib.sha256()
    for name in STATIC_FILES:
        found = finders.find(name)
        digest.update(name.encode())
        if found:
            with open(found, "rb") as f:
                digest.update(f.read())
    for path in _catalogue_files():
        digest.update(str(path.parent.parent.name).encode() + path.read_bytes())
    return digest.hexdigest()[:12]


def cache_name() -> str:
    return f"entry-{_files_digest()}"
