"""Words the pages show for values the engines and the database keep in English: a seat's wind letter
and the names of fan, yaku and scoring items (the translations are in the catalogue)."""

from __future__ import annotations

import re

from django import template
from django.utils.translation import gettext, gettext_noop, pgettext

register = template.Library()

WIND_LETTERS = {"E": "E", "S": "S", "W": "W", "N": "N"}
POINTS = re.compile(r"(-?\d+) points( \(limit\))?")  # a classical hand's value


@register.filter
def wind(letter: object) -> str:
    """E, S, W, N as the reader's language abbreviates the winds (Spanish: E, S, O, N)."""
    text = str(letter or "")
    if text in WIND_LETTERS:
        return pgettext("wind letter", text)
    return text


@register.filter
def item_name(name: object) -> str:
    """A fan, yaku or scoring item's name in the reader's language (the name itself when the catalogue
    has none, e.g. a riichi yaku kept in romaji)."""
    text = str(name or "")
    return gettext(text) if text else text


@register.filter
def item_names(names) -> str:
    """Several names, translated, separated by commas."""
    return ", ".join(item_name(n) for n in names or ())


@register.filter
def value_label(label: object) -> str:
    """A hand's value as the engines write it (``12 fan``, ``3 han 30 fu (mangan)``, ``double yakuman``,
    ``320 points``) with its English words in the reader's language; fan, han, fu and the limit names
    stay as players say them."""
    text = str(label or "")
    text = text.replace("double yakuman", gettext("double yakuman"))
    found = POINTS.fullmatch(text)
    if found:
        template = gettext("%(n)s points (limit)") if found[2] else gettext("%(n)s points")
        text = template % {"n": found[1]}
    return text


HISTORY_WORDS = {
    "submitted": gettext_noop("submitted"),
    "confirmed": gettext_noop("confirmed"),
    "totals entered": gettext_noop("totals entered"),
    "totals cleared": gettext_noop("totals cleared"),
    "recorded": gettext_noop("recorded"),
    "last hand undone": gettext_noop("last hand undone"),
    "appeal decided": gettext_noop("appeal decided"),
    "appeal recorded": gettext_noop("appeal recorded"),
    "foul ladder recounted": gettext_noop("foul ladder recounted"),
}
HISTORY_HAND = re.compile(r"hand (\d+) (added|changed|undone)(?:: (.*))?", re.S)
HAND_NOTES = {
    "added": gettext_noop("hand %(n)s added"),
    "changed": gettext_noop("hand %(n)s changed"),
    "undone": gettext_noop("hand %(n)s undone"),
}


@register.filter
def history_reason(reason: object) -> str:
    """Why a change was made, as the services note it ("hand 3 added: …", "submitted"), in the reader's
    language; the words a person typed after the colon stay as typed."""
    text = str(reason or "")
    if text in HISTORY_WORDS:
        return gettext(HISTORY_WORDS[text])
    found = HISTORY_HAND.fullmatch(text)
    if found:
        note = gettext(HAND_NOTES[found[2]]) % {"n": found[1]}
        return f"{note}: {found[3]}" if found[3] else note
    return text
