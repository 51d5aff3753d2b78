"""What a phone may be told, and who may choose what. Pure data, no Django."""

from __future__ import annotations

# a player's news (by the private link, the table's link or the player's account)
SEAT = "seat"  # my seat when a session's seating is published
START = "start"  # my session starts
CLOCK = "clock"  # the signal and the end of time at my table (its extra time included)
RESULT = "result"  # my table's result confirmed
PENALTY = "penalty"  # a penalty recorded against me
RANK = "rank"  # my rank after each session (never while the standings are hidden)
ANNOUNCE = "announce"  # the director's announcements
# the staff's news (referees and directors, by their account)
CALL = "call"  # a table calls a referee
HELD = "held"  # a hand is held for a referee (its claimed value differs from its tiles)
WAIT = "wait"  # a table waits for confirmation longer than the director's setting

PLAYER_TOPICS = (SEAT, START, CLOCK, RESULT, PENALTY, RANK, ANNOUNCE)
TABLE_TOPICS = (CLOCK, RESULT, ANNOUNCE)
STAFF_TOPICS = (CALL, HELD, WAIT)
ALL = frozenset(PLAYER_TOPICS + STAFF_TOPICS)

# How long a push service keeps a message for a phone that is off (seconds): news that is stale by then
# is not worth showing.
TTL = {
    SEAT: 6 * 3600,
    START: 3600,
    CLOCK: 10 * 60,
    RESULT: 24 * 3600,
    PENALTY: 24 * 3600,
    RANK: 24 * 3600,
    ANNOUNCE: 2 * 3600,
    CALL: 15 * 60,
    HELD: 15 * 60,
    WAIT: 15 * 60,
}
# Urgency (RFC 8030 §5.3): what the phone wakes up for
URGENCY = {CLOCK: "high", CALL: "high", HELD: "high", SEAT: "normal", START: "high"}


def stored(topics) -> str:
    """The topics as stored: ``,seat,clock,`` (one containment test finds the subscribers of a topic)."""
    return "," + ",".join(sorted(set(topics))) + "," if topics else ""


def read(value: str) -> list[str]:
    return [t for t in (value or "").split(",") if t]
