"""``{% push_panel audience url %}``: the "Notify me on this phone" panel of a page (no query: the phones
notified are fetched by the page's script, static/js/push.js)."""

from __future__ import annotations

from django import template
from django.urls import reverse
from django.utils.translation import gettext as _

from notifications import topics as t
from notifications import vapid

register = template.Library()


def labels() -> dict[str, str]:
    return {
        t.SEAT: _("My seat when a session's seating is published (table, wind, opponents)"),
        t.START: _("My session starts"),
        t.CLOCK: _("The signal and the end of time at my table (its extra time included)"),
        t.RESULT: _("My table's result is confirmed"),
        t.PENALTY: _("A penalty recorded against me, with its reason"),
        t.RANK: _("My rank after each session (not while the standings are hidden)"),
        t.ANNOUNCE: _("The director's announcements"),
        t.CALL: _("A table calls a referee"),
        t.HELD: _("A hand is held for a referee"),
        t.WAIT: _("A table waits for confirmation longer than the director's setting"),
    }


AUDIENCE_TOPICS = {"player": t.PLAYER_TOPICS, "table": t.TABLE_TOPICS, "staff": t.STAFF_TOPICS}


@register.inclusion_tag("notifications/_panel.html")
def push_panel(audience: str, url: str, name: str = "") -> dict:
    keys = vapid.keys()
    names = labels()
    return {
        "audience": audience,
        "url": url,
        "name": name,
        "vapid_public": keys.public if keys else "",
        "choices": [(topic, names[topic]) for topic in AUDIENCE_TOPICS[audience]],
        "sw_url": reverse("entry-sw"),
    }
