"""``{% offline_entry_strings %}``: the translated strings of the table page's queue of hands, for its
script (a JSON block, not executable). Plural patterns come as ``one`` and ``other`` forms of ``%(n)s``."""

from django import template
from django.utils.html import json_script
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from scoring.offline.assets import cache_name

register = template.Library()


def _plural(singular: str, plural: str) -> dict[str, str]:
    return {"one": ngettext(singular, plural, 1), "other": ngettext(singular, plural, 2)}


@register.simple_tag
def offline_cache_name() -> str:
    """The service worker's cache, where the page keeps its newest copy after each hand it sent."""
    return cache_name()


@register.simple_tag
def offline_entry_strings() -> str:
    strings = {
        "waiting": _plural(
            "%(n)s hand waiting to send — it is kept on this phone",
            "%(n)s hands waiting to send — they are kept on this phone",
        ),
        "pendingScores": _plural(
            "The scores above do not count the %(n)s hand waiting to send yet.",
            "The scores above do not count the %(n)s hands waiting to send yet.",
        ),
        "offline": _("No network: the hands you save stay on this phone and are sent when it is back."),
        "sending": _("Sending…"),
        "sendingHand": _("Sending hand %(n)s…"),
        "nextAfterQueue": _("Next: hand %(n)s, after the hands waiting to send."),
        "noAnswer": _("The server did not answer: trying again."),
        "serverError": _("The server could not take the hand just now: trying again."),
        "checkWinner": _("Choose the winner."),
        "checkFu": _("Give the fu (needed below 5 han)."),
        "saveCorrected": _("Save the corrected hand %(n)s"),
        "stopped": _("Sending stopped: the hand marked below needs your decision."),
        "badgeWaiting": _("waiting to send"),
        "badgeRefused": _("not saved"),
        "badgeConflict": _("not sent: the table changed"),
        "hand": _("Hand %(n)s"),
        "queueTitle": _("On this phone, not sent yet"),
        "refused": _("The server refused this hand (nothing after it was sent):"),
        "correct": _("Correct this hand"),
        "discardOne": _("Discard this hand"),
        "discardOneConfirm": _("Discard this hand? It was never saved."),
        "conflictTitle": _("Someone else changed this table before this phone's hands were sent."),
        "conflictText": _("Nothing was lost: compare both versions, then choose."),
        "serverVersion": _("On the server now"),
        "keepMine": _("Add my hands after these"),
        "discardMine": _("Discard my hands"),
        "discardMineConfirm": _("Discard the hands kept on this phone? They were never saved."),
        "noHands": _("No hands entered yet."),
        "refusedUnknown": _(
            "The server did not take this hand. Open the table page again to see what is saved."
        ),
        "closedTitle": _("This table takes no more hands: the hands kept on this phone were not saved."),
        "editing": _("Correcting hand %(n)s: save it to put it back in its place."),
    }
    return json_script(strings, "offline-strings")
