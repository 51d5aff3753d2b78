"""The service worker and the web app manifest of the table entry pages.

The worker is served from the site's root so that its scope covers both table pages (the private link
``/table/<key>/`` and the staff's ``/t/<slug>/s/<n>/table/<m>/``). It keeps the last copy of each table page
it fetched and the static files those pages use, so a page once visited opens without a network; the page's
own script keeps the hands entered meanwhile (see ``static/js/offline-entry.js``). Nothing is cached for
any other page. The copies belong to the account signed in when they were taken, and end with its
session, so the next person finds nothing of the previous account's pages offline:

- a sign-in or a sign-out on the phone (the site's or the admin's, a one-time sign-in link, the first
  organiser's account; even one that fails for want of a network) forgets every page copy;
- each copy carries the account it was taken for (``X-Offline-Account``, a tag that names nobody) and
  every page says which account it was shown to (``<meta name="offline-account">``, read by
  ``static/js/app.js``): a page shown to another account, or to nobody (a session that ended), makes the
  worker forget the copies taken for any other;
- each copy taken in a session carries the session's end (``X-Offline-Until``): past it, the worker
  forgets the copy instead of showing it, network or not.
"""

from __future__ import annotations

import json
import re

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.template.loader import render_to_string
from django.templatetags.static import static
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from scoring.offline.assets import (
    STATIC_FILES,
    TABLE_PAGE,
    account_paths,
    cache_name,
    catalogue_urls,
    sign_in_link_pattern,
)

ACCOUNT_HEADER = "X-Offline-Account"
UNTIL_HEADER = "X-Offline-Until"


def account_tag(request: HttpRequest) -> str:
    """Which account a page is shown to, as a tag that names nobody ("" for nobody signed in)."""
    from django.utils.crypto import salted_hmac

    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return ""
    return salted_hmac("offline-account", str(user.pk)).hexdigest()[:20]


def session_ends(request: HttpRequest):
    """When the signed-in session of ``request`` ends (None: nobody signed in): the stored session's end
    where the sessions are stored in the database, else the end Django would give it now."""
    from django.conf import settings

    user = getattr(request, "user", None)
    session = getattr(request, "session", None)
    if user is None or not user.is_authenticated or session is None:
        return None
    if settings.SESSION_ENGINE.endswith((".db", ".cached_db")) and session.session_key:
        from django.contrib.sessions.models import Session

        stored = (
            Session.objects.filter(session_key=session.session_key)
            .values_list("expire_date", flat=True)
            .first()
        )
        if stored is not None:
            return stored
    return session.get_expiry_date()


def offline_stamp(request: HttpRequest, response: HttpResponse) -> HttpResponse:
    """Mark a table page's answer with the account it was shown to and the end of its session, which the
    service worker keeps with its copy."""
    response[ACCOUNT_HEADER] = account_tag(request)
    ends = session_ends(request)
    if ends is not None:
        response[UNTIL_HEADER] = str(int(ends.timestamp() * 1000))
    return response


def offline_account(request: HttpRequest) -> dict[str, str]:
    """Context processor: the account tag every page states for the service worker."""
    return {"offline_account": account_tag(request)}


def offline_texts() -> dict[str, str]:
    """What the worker answers for a table page never opened on the phone, in each language (the worker
    picks the language of the last page shown, else the browser's)."""
    from django.conf import settings
    from django.utils import translation

    texts = {}
    for code, _name in settings.LANGUAGES:
        with translation.override(code):
            texts[code] = _(
                "This table page has not been opened on this phone yet; open it once with a network."
            )
    return texts


@require_GET
def service_worker(request: HttpRequest) -> HttpResponse:
    body = render_to_string(
        "scoring/offline/sw.js",
        {
            "cache_name": json.dumps(cache_name()),
            "static_urls": json.dumps([static(name) for name in STATIC_FILES] + catalogue_urls()),
            "page_pattern": json.dumps(TABLE_PAGE),
            "account_paths": json.dumps(account_paths()),
            "sign_in_link": json.dumps(sign_in_link_pattern()),
            "account_header": json.dumps(ACCOUNT_HEADER),
            "until_header": json.dumps(UNTIL_HEADER),
            "icon_url": json.dumps(static("icons/entry-192.png")),
            "offline_texts": json.dumps(offline_texts()),
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
