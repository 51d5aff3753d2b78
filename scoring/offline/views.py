"""The service worker and the web app manifest of the table entry pages.

The worker is served from the site's root so that its scope covers both table pages (the private link
``/table/<key>/`` and the staff's ``/t/<slug>/s/<n>/table/<m>/``). It keeps the last copy of each table page
it fetched and the static files those pages use, so a page once visited opens without a network; the page's
own script keeps the hands entered meanwhile (see ``static/js/offline-entry.js``). Nothing is cached for
any other page. The copies belong to the account signed in when they were taken: a sign-in or a sign-out
on the phone (even one that fails for want of a network) forgets every page copy, so the next person
finds nothing of the previous account's pages offline.
"""

from __future__ import annotations

import json
import re

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.template.loader import render_to_string
from django.templatetags.static import static
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from scoring.offline.assets import STATIC_FILES, TABLE_PAGE, account_paths, cache_name


@require_GET
def service_worker(request: HttpRequest) -> HttpResponse:
    body = render_to_string(
        "scoring/offline/sw.js",
        {
            "cache_name": json.dumps(cache_name()),
            "static_urls": json.dumps([static(name) for name in STATIC_FILES]),
            "page_pattern": json.dumps(TABLE_PAGE),
            "account_paths": json.dumps(account_paths()),
            "offline_text": json.dumps(
                _("This table page has not been opened on this phone yet; open it once with a network.")
            ),
        },
    )
    response = HttpResponse(body, content_type="application/javascript; charset=utf-8")
    response["Cache-Control"] = "no-cache"
    response["Service-Worker-Allowed"] = "/"
    return response


@require_GET
def manifest(request: HttpRequest) -> JsonResponse:
    start = request.GET.get("start", "")
    if not re.match(TABLE_PAGE, start):
        start = "/"
    data = {
        "name": _("Mahjong table entry"),
        "short_name": _("Table entry"),
        "description": _("Enter the hands of your table, also while the venue's network is down."),
        "start_url": start,
        "scope": "/",
        "display": "standalone",
        "background_color": "#1b5e20",
        "theme_color": "#1b5e20",
        "icons": [
            {"src": static("icons/entry-192.png"), "sizes": "192x192", "type": "image/png"},
            {"src": static("icons/entry-512.png"), "sizes": "512x512", "type": "image/png"},
        ],
    }
    response = JsonResponse(data, content_type="application/manifest+json")
    response["Cache-Control"] = "no-cache"
    return response
