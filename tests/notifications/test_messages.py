"""A message is bounded whatever it says (within a push message's 4096 bytes once encrypted), in the
phone's language."""

from __future__ import annotations

import json

from notifications.messages import Notice, render
from notifications.webpush import MAX_PAYLOAD


def test_a_message_is_bounded_and_in_the_phone_s_language():
    long = "ñ" * 5000
    payload = render(Notice("announce", {"text": long}, "/"), language="es", tournament="T" * 500)
    assert len(payload) <= MAX_PAYLOAD < 4096 - 103  # the aes128gcm header and tag fit beside it
    data = json.loads(payload)
    assert data["title"] == "Del director" and data["lang"] == "es" and len(data["tournament"]) == 200
    names = ["X" * 3000] * 3
    payload = render(
        Notice("seat", {"session": 2, "table": 9, "wind": 0, "opponents": names}, "/"),
        language="en",
        tournament="T",
    )
    assert len(payload) <= MAX_PAYLOAD and json.loads(payload)["title"] == "Session 2: table 9, East"
