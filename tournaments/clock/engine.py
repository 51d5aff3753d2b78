"""The session clock as plain data: states, actions, time left, the signal and the red zone.

Pure Python, no Django import. Times are timezone-aware ``datetime`` values given by the caller (the
server's clock), never read here. The clock keeps, while it runs, the instant it ends (``ends_at``) and,
while it is paused, the time it had left (``remaining_ms``): a restart of the server, or a page that slept,
loses nothing because nothing counts anywhere but in these two numbers and the caller's ``now``.

Tables can have their own extra time (positive or negative), added to the session's end. Ending the clock
by hand ends at that instant every table whose time was not up yet; a table whose time was up before keeps
its own end. The ended clock keeps when time was to be up (``ends_at``) beside when it was ended
(``ended_at``), so neither is lost; a paused clock keeps only the session's time left, and, for a table whose
own time was up before the pause, the instant it was (``table_ended``).
"""

from __future__ import annotations

import dataclasses
import datetime as dt
from collections.abc import Mapping
from dataclasses import dataclass, field

from scoring.rules.text import Text, gettext_noop

STOPPED, RUNNING, PAUSED, ENDED = "stopped", "running", "paused", "ended"
STATES = (STOPPED, RUNNING, PAUSED, ENDED)
ACTIONS = ("start", "pause", "resume", "extend", "end")

LAST_HAND, ONE_MORE_HAND, AT_ONCE = "last_hand", "one_more_hand", "at_once"
# from the signal: the hand in play and one more, however long they take; no sound at the end (riichi
# 2025 §7.4)
AFTER_SIGNAL = "after_signal"
END_RULES = (LAST_HAND, ONE_MORE_HAND, AT_ONCE, AFTER_SIGNAL)
_HANDS_AFTER_END = {AT_ONCE: 0, LAST_HAND: 1, ONE_MORE_HAND: 2, AFTER_SIGNAL: 2}

# Phases of a table's (or the session's) time, for colours and messages.
WAITING, NORMAL, SIGNAL, RED, OVER = "waiting", "normal", "signal", "red", "over"

MAX_LENGTH_SECONDS = 8 * 3600  # a session is never longer than this
MAX_ADJUST_SECONDS = 4 * 3600  # one adjustment adds or removes at most this much


# the states as a sentence names them (the model's labels are for lists and buttons)
STATE_WORDS = {
    STOPPED: gettext_noop("stopped"),
    RUNNING: gettext_noop("running"),
    PAUSED: gettext_noop("paused"),
    ENDED: gettext_noop("ended"),
}


class ClockError(ValueError):
    """A user-facing fault: ``conflict`` when the action does not fit the state (HTTP 409), else a bad
    value (HTTP 400) at ``field``. Its message is read in the reader's language (``Text``)."""

    def __init__(self, message: str | Text, field: str = "action", *, conflict: bool = False):
        super().__init__(message)
        self.text = message
        self.field = field
        self.conflict = conflict

    @property
    def message(self) -> str:
        return str(self.text)


@dataclass(frozen=True)
class EndRule:
    """What happens when time is up, and when the room is warned. From the ruleset's settings."""

    end_of_time: str = LAST_HAND  # finish the hand in play; it and one more; or stop at once (AT_ONCE)
    signal_seconds: int = 15 * 60  # the warning signal this long before the end
    red_zone_seconds: int = 5 * 60  # the last minutes shown in red

    def __post_init__(self) -> None:
        if self.end_of_time not in END_RULES:
            raise ClockError(
                gettext_noop("end_of_time must be one of %(_rules)s", _rules=", ".join(END_RULES)),
                "end_of_time",
            )
        if not 0 <= self.red_zone_seconds <= self.signal_seconds <= MAX_LENGTH_SECONDS:
            raise ClockError(
                gettext_noop("the red zone cannot start before the signal, and neither can be negative"),
                "signal_minutes",
            )

    @property
    def signal_minutes(self) -> int:
        return self.signal_seconds // 60

    @property
    def red_zone_minutes(self) -> int:
        return self.red_zone_seconds // 60

    @property
    def hands_after_end(self) -> int:
        """How many hands may still be entered once time is up (from the signal under ``after_signal``):
        none (play stops at once), the hand in play, or it and one more."""
        return _HANDS_AFTER_END[self.end_of_time]

    @property
    def from_signal(self) -> bool:
        """The last hands count from the signal, not from the end, and no sound marks the end (riichi 2025
        §7.4: "After the sound, the current hand is finished and one more hand is played")."""
        return self.end_of_time == AFTER_SIGNAL


@dataclass(frozen=True)
class Clock:
    state: str = STOPPED
    length_seconds: int = 0
    # running: when time is up; ended: when it was to be up (the end itself is ``session_ends_at``)
    ends_at: dt.datetime | None = None
    remaining_ms: int | None = None  # paused: what was left
    extra_seconds: int = 0  # added (or removed) for the whole session, for the record
    table_extra: Mapping[int, int] = field(default_factory=dict)  # table number -> seconds
    # table number -> when its own time was up, for a table whose time was up when the clock was paused
    # (a pause keeps only the session's time left, which would move that end with the pause)
    table_ended: Mapping[int, dt.datetime] = field(default_factory=dict)
    started_at: dt.datetime | None = None
    ended_at: dt.datetime | None = None  # when the clock was ended by hand

    def __post_init__(self) -> None:
        if self.state not in STATES:
            raise ClockError(gettext_noop("unknown clock state %(state)s", state=self.state), "state")

    # -- reading -----------------------------------------------------------------------------------
    def remaining(self, now: dt.datetime) -> float | None:
        """Seconds left for the whole session (negative once over while running); before the start, its
        length with the time already added or removed."""
        if self.state == RUNNING:
            return (self.ends_at - now).total_seconds()
        if self.state == PAUSED:
            return self.remaining_ms / 1000
        if self.state == ENDED:
            return 0.0
        return float(self.length_seconds + self.extra_seconds)

    def is_over(self, now: dt.datetime) -> bool:
        return self.state == ENDED or (self.state == RUNNING and now >= self.ends_at)

    def public_state(self, now: dt.datetime) -> str:
        """The state the room sees: a running clock whose time is up reads "ended"."""
        return ENDED if self.is_over(now) else self.state

    def session_ends_at(self) -> dt.datetime | None:
        """When time is up for the whole session: while running, its end; once ended, that end or the
        instant the clock was ended by hand, whichever came first; None while stopped or paused."""
        if self.state == RUNNING:
            return self.ends_at
        if self.state == ENDED:
            return self.ends_at if self.ended_at is None else min(self.ends_at, self.ended_at)
        return None

    def extra_of(self, table: int) -> int:
        return int(self.table_extra.get(table, 0))

    def _own_end(self, table: int) -> dt.datetime | None:
        """When time is up at ``table`` by its own time, the clock not ended by hand; None while stopped,
        or while paused for a table whose time was not up."""
        if table in self.table_ended:
            return self.table_ended[table]
        if self.state not in (RUNNING, ENDED):
            return None
        return self.ends_at + dt.timedelta(seconds=self.extra_of(table))

    def table_ends_at(self, table: int) -> dt.datetime | None:
        """When time is up at ``table``; None while stopped or paused (unless its time was up before)."""
        end = self._own_end(table)
        if end is not None and self.ended_at is not None:
            end = min(end, self.ended_at)
        return end

    def table_remaining(self, table: int, now: dt.datetime) -> float | None:
        if table in self.table_ended:
            return (self.table_ended[table] - now).total_seconds()
        if self.state == STOPPED:
            return float(self.length_seconds + self.extra_seconds + self.extra_of(table))
        if self.state == PAUSED:
            return self.remaining_ms / 1000 + self.extra_of(table)
        end = self.table_ends_at(table)
        return (end - now).total_seconds()

    def signal_at(self, rule: EndRule) -> dt.datetime | None:
        """When the signal sounds (or would have, had the clock not been ended by hand before it)."""
        end = self.session_ends_at()
        if end is None:
            return None
        return min(self.ends_at - dt.timedelta(seconds=rule.signal_seconds), end)

    def table_over(self, table: int, now: dt.datetime) -> bool:
        end = self.table_ends_at(table)
        return end is not None and now >= end

    def table_last_hands_from(self, table: int, rule: EndRule) -> dt.datetime | None:
        """From when the table's last hands count: its end, or its signal under ``after_signal`` (2025
        §7.4; a clock ended by hand ends them at once); None while stopped or paused."""
        end = self.table_ends_at(table)
        if end is None or not rule.from_signal:
            return end
        if self.ended_at is not None and end >= self.ended_at:
            return end  # ended by hand before time was up: that instant
        signal = self._own_end(table) - dt.timedelta(seconds=rule.signal_seconds)
        return min(signal, end)

    # -- actions -----------------------------------------------------------------------------------
    def apply(
        self, action: str, now: dt.datetime, *, seconds: int | None = None, table: int | None = None
    ) -> Clock:
        """The clock after ``action``; ClockError when the action or its values do not fit."""
        if action not in ACTIONS:
            raise ClockError(
                gettext_noop(
                    "action must be one of %(_actions)s, not %(action)s",
                    _actions=", ".join(ACTIONS),
                    action=action,
                )
            )
        if table is not None and action != "extend":
            raise ClockError(gettext_noop("only “extend” applies to one table"), "table")
        return getattr(self, f"_{action}")(now, seconds=seconds, table=table)

    def _start(self, now, *, seconds, table) -> Clock:
        if self.state != STOPPED:
            raise ClockError(
                gettext_noop(
                    "the clock is %(_state)s; only a stopped clock starts", _state=STATE_WORDS[self.state]
                ),
                conflict=True,
            )
        length = self.length_seconds if seconds is None else seconds
        if not isinstance(length, int) or isinstance(length, bool) or not 60 <= length <= MAX_LENGTH_SECONDS:
            raise ClockError(
                gettext_noop(
                    "seconds must be a whole number from 60 to %(most)s (the session's length)",
                    most=MAX_LENGTH_SECONDS,
                ),
                "seconds",
            )
        return dataclasses.replace(
            self,
            state=RUNNING,
            length_seconds=length,
            ends_at=now + dt.timedelta(seconds=length + self.extra_seconds),
            remaining_ms=None,
            started_at=now,
            ended_at=None,
        )

    def _pause(self, now, *, seconds, table) -> Clock:
        if self.state != RUNNING:
            raise ClockError(
                gettext_noop(
                    "the clock is %(_state)s; only a running clock pauses", _state=STATE_WORDS[self.state]
                ),
                conflict=True,
            )
        if self.is_over(now):
            raise ClockError(gettext_noop("time is up; there is nothing left to pause"), conflict=True)
        left = self.ends_at - now
        ended = dict(self.table_ended)
        for number, extra in self.table_extra.items():
            end = self.ends_at + dt.timedelta(seconds=extra)
            if extra < 0 and end <= now and number not in ended:
                ended[number] = end  # up before the pause: it stays where it was
        return dataclasses.replace(
            self, state=PAUSED, ends_at=None, remaining_ms=_ms(left), table_ended=ended
        )

    def _resume(self, now, *, seconds, table) -> Clock:
        if self.state != PAUSED:
            raise ClockError(
                gettext_noop(
                    "the clock is %(_state)s; only a paused clock resumes", _state=STATE_WORDS[self.state]
                ),
                conflict=True,
            )
        return dataclasses.replace(
            self,
            state=RUNNING,
            ends_at=now + dt.timedelta(milliseconds=self.remaining_ms),
            remaining_ms=None,
        )

    def _extend(self, now, *, seconds, table) -> Clock:
        if self.state == ENDED:
            raise ClockError(
                gettext_noop("the clock was ended; start the next session instead"), conflict=True
            )
        if (
            not isinstance(seconds, int)
            or isinstance(seconds, bool)
            or seconds == 0
            or abs(seconds) > MAX_ADJUST_SECONDS
        ):
            raise ClockError(
                gettext_noop(
                    "seconds must be a whole number from -%(most)s to %(most)s, not 0 (negative removes time)",
                    most=MAX_ADJUST_SECONDS,
                ),
                "seconds",
            )
        if table is not None:
            return self._extend_table(now, seconds=seconds, table=table)
        extra = self.extra_seconds + seconds
        if self.state == STOPPED:
            if self.length_seconds + extra < 60:
                raise ClockError(gettext_noop("a session lasts at least one minute"), "seconds")
            return dataclasses.replace(self, extra_seconds=extra)
        left = self.remaining(now)
        if seconds < 0 and left + seconds < 0:
            raise ClockError(
                gettext_noop("removing %(seconds)s s leaves the session less than nothing", seconds=-seconds),
                "seconds",
            )
        if seconds < 0:
            self._check_tables_keep_time(seconds, now)
        # a table whose time was up before a pause is over: the session's time no longer reaches it (its own
        # buttons give it time)
        if self.state == PAUSED:
            return dataclasses.replace(
                self, extra_seconds=extra, remaining_ms=self.remaining_ms + seconds * 1000
            )
        # running (time may already be up: adding time brings the session back)
        return dataclasses.replace(
            self, extra_seconds=extra, ends_at=self.ends_at + dt.timedelta(seconds=seconds)
        )

    def _extend_table(self, now: dt.datetime, *, seconds: int, table: int) -> Clock:
        if not isinstance(table, int) or isinstance(table, bool) or table < 1:
            raise ClockError(gettext_noop("table must be a table number of the session"), "table")
        extra = self.extra_of(table) + seconds
        if abs(extra) > MAX_ADJUST_SECONDS:
            raise ClockError(
                gettext_noop("a table's extra time stays within ±%(most)s s", most=MAX_ADJUST_SECONDS),
                "seconds",
            )
        if table in self.table_ended:
            return self._extend_ended_table(now, seconds=seconds, table=table, extra=extra)
        left = self.table_remaining(table, now)
        if seconds < 0 and left + seconds < 0:
            raise _leaves_table_nothing(seconds, table, left)
        tables = {**self.table_extra, table: extra}
        if extra == 0:
            tables.pop(table)
        return dataclasses.replace(self, table_extra=tables)

    def _extend_ended_table(self, now: dt.datetime, *, seconds: int, table: int, extra: int) -> Clock:
        """Time given to a table whose time was up before a pause moves that instant (taking time is
        refused: it has none left); while the instant stays past, the record of its extra time follows."""
        if seconds < 0:
            raise _leaves_table_nothing(seconds, table, self.table_remaining(table, now))
        moved = self._table_end_moved(table, self.table_ended[table] + dt.timedelta(seconds=seconds), now)
        if table not in moved.table_ended:
            return moved
        tables = {**moved.table_extra, table: extra}
        if extra == 0:
            tables.pop(table)
        return dataclasses.replace(moved, table_extra=tables)

    def _table_end_moved(self, table: int, end: dt.datetime, now: dt.datetime) -> Clock:
        """The clock with the end of a table whose time was up before a pause moved to ``end``: still
        past, it stays kept as an instant; else the table counts again with the session, its extra time
        set so that it has what is left until ``end``."""
        ended = dict(self.table_ended)
        if end <= now:
            ended[table] = end
            return dataclasses.replace(self, table_ended=ended)
        ended.pop(table, None)
        scheduled = (
            self.ends_at if self.state == RUNNING else now + dt.timedelta(milliseconds=self.remaining_ms)
        )
        extra = round((end - scheduled).total_seconds())
        if abs(extra) > MAX_ADJUST_SECONDS:
            raise ClockError(
                gettext_noop("a table's extra time stays within ±%(most)s s", most=MAX_ADJUST_SECONDS),
                "seconds",
            )
        tables = {**self.table_extra, table: extra}
        if extra == 0:
            tables.pop(table)
        return dataclasses.replace(self, table_extra=tables, table_ended=ended)

    def _check_tables_keep_time(self, seconds: int, now: dt.datetime) -> None:
        """Time removed from the whole session must not move a table whose own time was cut to an end
        already past: hands entered there would turn "after time" after the fact. (A table whose time
        was up before a pause keeps its end as an instant: removing time does not move it.)"""
        for number in sorted(set(self.table_extra) - set(self.table_ended)):
            left = self.table_remaining(number, now)
            if self.extra_of(number) < 0 and left + seconds < 0:
                raise _leaves_table_nothing(seconds, number, left)

    def _end(self, now, *, seconds, table) -> Clock:
        if self.state in (STOPPED, ENDED):
            raise ClockError(
                gettext_noop(
                    "the clock is %(_state)s; only a started clock ends", _state=STATE_WORDS[self.state]
                ),
                conflict=True,
            )
        # ``ends_at`` keeps when time was to be up, so a table whose own time was cut keeps its own end
        # when that came before this instant (``table_ends_at``)
        if self.state == PAUSED:
            scheduled = now + dt.timedelta(milliseconds=self.remaining_ms)
        else:
            scheduled = self.ends_at
        return dataclasses.replace(self, state=ENDED, ends_at=scheduled, remaining_ms=None, ended_at=now)


def _leaves_table_nothing(seconds: int, table: int, left: float) -> ClockError:
    return ClockError(
        gettext_noop(
            "removing %(seconds)s s leaves table %(table)s less than nothing (%(left)s s left there)",
            seconds=-seconds,
            table=table,
            left=max(0, clock_seconds(left)),
        ),
        "seconds",
    )


def _ms(delta: dt.timedelta) -> int:
    return max(0, round(delta.total_seconds() * 1000))


def phase(remaining: float | None, rule: EndRule, *, started: bool = True) -> str:
    """The colour of a time left: normal, signal (warned), red (the last minutes), over."""
    if remaining is None or not started:
        return WAITING
    if remaining <= 0:
        return OVER
    if remaining <= rule.red_zone_seconds:
        return RED
    if remaining <= rule.signal_seconds:
        return SIGNAL
    return NORMAL


def hands_left_after_end(rule: EndRule, hands_after_end: int) -> int:
    """Hands a table may still enter once its time is up (0: the session is over at this table)."""
    return max(0, rule.hands_after_end - hands_after_end)


def clock_seconds(value: float | None) -> int | None:
    """Whole seconds left as a clock shows them (rounded up: 0.2 s left still shows 0:01)."""
    if value is None:
        return None
    whole = int(value)
    return whole + 1 if value > whole else whole


def format_clock(value: float | None) -> str:
    """H:MM:SS or M:SS; "0:00" once over."""
    if value is None:
        return "–"
    total = max(0, clock_seconds(value))
    hours, rest = divmod(total, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"
