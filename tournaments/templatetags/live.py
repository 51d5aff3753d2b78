"""``{% live_page slug … %}``: the notice and the script that keep a public page current by itself
(static/js/live-page.js): it asks ``/live/`` every few seconds whether the tournaments' pages changed,
fetches the page again when they did and swaps in its ``[data-live-region]`` parts, and says so when it is
showing old data because the network or the server is away."""

from __future__ import annotations

from urllib.parse import urlencode

from django import template
from django.conf import settings
from django.urls import reverse

from tournaments import selectors
from tournaments.models import Tournament

register = template.Library()


def poll_seconds() -> int:
    """As often as the standings: every page a player keeps open refreshes alike."""
    return int(getattr(settings, "STANDINGS_POLL_SECONDS", 20))


@register.inclusion_tag("_live.html", takes_context=True)
def live_page(context, *shown) -> dict:
    """The page follows the tournaments it shows: Tournament objects (or lists of them)."""
    request = context.get("request")
    user = getattr(request, "user", None)
    tournaments: list[Tournament] = []
    for value in shown:
        tournaments.extend(value if isinstance(value, list | tuple) else [value])
    tournaments = tournaments[: selectors.LIVE_MAX_TOURNAMENTS]
    slugs = [t.slug for t in tournaments]
    return {
        "live_url": reverse("live-stamp") + "?" + urlencode([("t", s) for s in slugs]),
        "live_stamp": selectors.live_stamp(slugs=slugs, user=user, tournaments=tournaments),
        "live_seconds": poll_seconds(),
    }
