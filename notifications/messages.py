"""The text of each message, in the language the phone chose when it subscribed.

A notice is what an event tells one subscription: its topic, the facts it names (numbers, names, choice
values: nothing translated yet) and the page a tap opens. ``render`` writes it in the subscription's
language; the payload is bounded (``webpush.MAX_PAYLOAD``) and holds only what the recipient may see.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from notifications import topics as t
from notifications.webpush import MAX_PAYLOAD
from penalties.models import Kind as PenaltyKind
from scoring.models import RefereeCall
from tournaments.models import Wind

MAX_BODY = 600


@dataclass(frozen=True)
class Notice:
    topic: str
    facts: dict[str, Any] = field(default_factory=dict)
    url: str = "/"


def _wind(value) -> str:
    try:
        return str(Wind(int(value)).label)
    except (TypeError, ValueError):
        return ""


def _seat(f) -> tuple[str, str]:
    title = _("Session %(session)s: table %(table)s, %(wind)s") % {**f, "wind": _wind(f.get("wind"))}
    body = _("Opponents: %(names)s.") % {"names": ", ".join(f.get("opponents", []))}
    return title, body


def _start(f) -> tuple[str, str]:
    title = _("Session %(session)s has started") % f
    return title, _("Your table: %(table)s, %(wind)s.") % {**f, "wind": _wind(f.get("wind"))}


def _clock(f) -> tuple[str, str]:
    if f.get("phase") == "signal":
        minutes = int(f.get("minutes", 0))
        body = ngettext(
            "%(minutes)s minute left at your table.", "%(minutes)s minutes left at your table.", minutes
        ) % {"minutes": minutes}
        return _("Table %(table)s: the signal") % f, body
    return _("Table %(table)s: time is up") % f, _("Play ends at your table as the rules say.")


def _result(f) -> tuple[str, str]:
    title = _("Table %(table)s: result confirmed") % f
    if f.get("score") is not None:
        return title, _("Session %(session)s. Your score: %(score)s.") % f
    return title, _("Session %(session)s.") % f


def _penalty(f) -> tuple[str, str]:
    try:
        kind = str(PenaltyKind(f.get("kind")).label)
    except ValueError:
        kind = ""
    title = _("A penalty against you: %(kind)s") % {"kind": kind}
    reason = f.get("reason") or ""
    return title, (_("Reason: %(reason)s") % {"reason": reason}) if reason else ""


def _rank(f) -> tuple[str, str]:
    title = _("After session %(session)s: rank %(rank)s of %(count)s") % f
    return title, _("The standings are on the tournament's page.")


def _announce(f) -> tuple[str, str]:
    return _("From the director"), f.get("text", "")


def _call(f) -> tuple[str, str]:
    try:
        reason = str(RefereeCall.Reason(f.get("reason")).label)
    except ValueError:
        reason = ""
    return _("Table %(table)s calls a referee") % f, reason


def _held(f) -> tuple[str, str]:
    title = _("Table %(table)s: hand %(hand)s is held") % f
    return title, _("Its claimed value differs from its tiles: a referee decides.")


def _wait(f) -> tuple[str, str]:
    minutes = int(f.get("minutes", 0))
    body = ngettext(
        "Submitted %(minutes)s minute ago, not confirmed yet.",
        "Submitted %(minutes)s minutes ago, not confirmed yet.",
        minutes,
    ) % {"minutes": minutes}
    return _("Table %(table)s waits for confirmation") % f, body


WRITERS = {
    t.SEAT: _seat,
    t.START: _start,
    t.CLOCK: _clock,
    t.RESULT: _result,
    t.PENALTY: _penalty,
    t.RANK: _rank,
    t.ANNOUNCE: _announce,
    t.CALL: _call,
    t.HELD: _held,
    t.WAIT: _wait,
}


def render(notice: Notice, *, language: str, tournament: str) -> bytes:
    """The message's JSON (title, body, the page a tap opens, its tag), in ``language``, at most
    MAX_PAYLOAD bytes (the body is shortened when it has to be)."""
    with translation.override(language):
        title, body = WRITERS[notice.topic](notice.facts)
    data = {
        "title": f"{title}"[:200],
        "body": body[:MAX_BODY],
        "tournament": tournament[:200],
        "url": notice.url,
        "tag": notice.topic,
        "lang": language,
    }
    payload = json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode()
    while len(payload) > MAX_PAYLOAD and data["body"]:
        data["body"] = data["body"][: len(data["body"]) // 2] + "…"
        if len(data["body"]) <= 2:
            data["body"] = ""
        payload = json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode()
    return payload
