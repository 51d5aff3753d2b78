"""The clock's arithmetic, with no database: states, time left, per-table extra, signal and red zone."""

from __future__ import annotations

import datetime as dt

import pytest

from tournaments.clock import engine
from tournaments.clock.engine import Clock, ClockError, EndRule

T0 = dt.datetime(2026, 5, 1, 10, 0, tzinfo=dt.UTC)


def at(seconds: float) -> dt.datetime:
    return T0 + dt.timedelta(seconds=seconds)


def started(length=5400) -> Clock:
    return Clock(length_seconds=length).apply("start", T0)


def test_a_running_clock_counts_down_from_the_server_time():
    clock = started()
    assert clock.state == engine.RUNNING
    assert clock.ends_at == at(5400)
    assert clock.remaining(at(600)) == 4800
    assert clock.public_state(at(5399)) == engine.RUNNING
    assert clock.public_state(at(5400)) == engine.ENDED  # time is up: the room sees the end


def test_pause_keeps_what_is_left_and_resume_ends_later_by_the_pause():
    clock = started().apply("pause", at(1000))
    assert clock.state == engine.PAUSED and clock.ends_at is None
    assert clock.remaining(at(99999)) == 4400  # paused time does not run
    resumed = clock.apply("resume", at(1600))
    assert resumed.ends_at == at(6000)
    assert resumed.remaining(at(1600)) == 4400


def test_extend_the_session_and_one_table():
    clock = started().apply("extend", at(10), seconds=300)
    assert clock.ends_at == at(5700) and clock.extra_seconds == 300
    clock = clock.apply("extend", at(20), seconds=120, table=3)
    assert clock.table_ends_at(3) == at(5820)
    assert clock.table_ends_at(4) == at(5700)
    assert clock.table_remaining(3, at(5700)) == 120
    assert not clock.table_over(3, at(5700)) and clock.table_over(4, at(5700))
    # removing time again; back to zero forgets the table
    clock = clock.apply("extend", at(30), seconds=-120, table=3)
    assert 3 not in clock.table_extra


def test_time_removed_while_paused_and_before_the_start():
    clock = Clock(length_seconds=600).apply("extend", T0, seconds=-60)
    assert clock.remaining(T0) == 540  # before the start, the clock shows the length it will run
    assert clock.apply("extend", T0, seconds=120, table=2).table_remaining(2, T0) == 660
    assert clock.apply("start", T0).ends_at == at(540)
    paused = started().apply("pause", at(100)).apply("extend", at(200), seconds=-300)
    assert paused.remaining(at(200)) == 5000


def test_adding_time_after_the_end_brings_the_session_back():
    clock = started(600)
    assert clock.is_over(at(700))
    back = clock.apply("extend", at(700), seconds=300)
    assert back.public_state(at(700)) == engine.RUNNING
    assert back.remaining(at(700)) == 200


def test_end_by_hand_ends_every_table_at_that_instant():
    clock = started().apply("extend", T0, seconds=600, table=2).apply("end", at(100))
    assert clock.state == engine.ENDED
    assert clock.remaining(at(200)) == 0
    assert clock.table_ends_at(2) == at(100)
    assert clock.table_over(2, at(100))


def test_ending_early_keeps_the_end_of_a_table_whose_time_was_cut():
    """Table 2 had 10 minutes less and its time was up at 4800 s; the clock ended by hand at 5000 s ends the
    others there, and table 2 keeps its own end (not 5000 - 600: hands entered before would turn late)."""
    cut = started().apply("extend", T0, seconds=-600, table=2).apply("extend", T0, seconds=300, table=3)
    clock = cut.apply("end", at(5000))
    assert clock.session_ends_at() == at(5000)
    assert clock.table_ends_at(1) == at(5000) and clock.table_ends_at(3) == at(5000)
    assert clock.table_ends_at(2) == at(4800)
    # ended before table 2's time was up: every table ends at that instant
    assert cut.apply("end", at(3000)).table_ends_at(2) == at(3000)
    # ended after the session's time was up: each table as it was, a table with extra time at the end
    late = cut.apply("end", at(5600))
    assert late.session_ends_at() == at(5400)
    assert (late.table_ends_at(1), late.table_ends_at(2), late.table_ends_at(3)) == (
        at(5400),
        at(4800),
        at(5600),
    )


def test_ending_a_paused_clock_ends_every_table_with_time_left_at_that_instant():
    clock = (
        started().apply("extend", T0, seconds=-600, table=2).apply("pause", at(1000)).apply("end", at(2000))
    )
    assert clock.session_ends_at() == at(2000)
    assert clock.table_ends_at(1) == clock.table_ends_at(2) == at(2000)
    assert clock.remaining(at(2500)) == 0


def test_a_pause_keeps_the_end_of_a_table_whose_time_was_up_before_it():
    """Table 2 had 400 s less: its time was up at 200 s of 600. The clock is paused at 300 s, resumed at
    1000 s and ended at 1100 s: table 2's end stays at 200 s all along (its hands of 200-300 s stay late)."""
    cut = started(600).apply("extend", T0, seconds=-400, table=2)
    paused = cut.apply("pause", at(300))
    assert paused.table_ends_at(2) == at(200) and paused.table_over(2, at(400))
    assert paused.table_ends_at(1) is None  # the others wait with the session
    resumed = paused.apply("resume", at(1000))
    assert resumed.table_ends_at(2) == at(200) and resumed.table_ends_at(1) == at(1300)
    ended = resumed.apply("end", at(1100))
    assert ended.table_ends_at(2) == at(200) and ended.table_ends_at(1) == at(1100)
    assert paused.apply("end", at(900)).table_ends_at(2) == at(200)  # ended while paused, the same
    rule = EndRule(end_of_time=engine.AFTER_SIGNAL, signal_seconds=60, red_zone_seconds=0)
    assert resumed.table_last_hands_from(2, rule) == at(140)  # its own signal, before its own end


def test_time_given_back_to_a_table_whose_time_was_up_before_a_pause():
    paused = started(600).apply("extend", T0, seconds=-400, table=2).apply("pause", at(300))
    # 60 s more still ends it in the past: it stays an instant, and its extra time says the 60 s
    more = paused.apply("extend", at(350), seconds=60, table=2)
    assert more.table_ends_at(2) == at(260) and more.extra_of(2) == -340
    # 300 s more: 150 s left at 350 s, which wait with the session and run again after the resume
    back = paused.apply("extend", at(350), seconds=300, table=2)
    assert 2 not in back.table_ended and back.table_remaining(2, at(350)) == 150
    assert back.apply("resume", at(1000)).table_ends_at(2) == at(1150)
    with pytest.raises(ClockError) as info:
        paused.apply("extend", at(350), seconds=-60, table=2)
    assert info.value.field == "seconds" and "table 2" in info.value.message
    # the session's time no longer reaches it, either way: its end stays where its hands were judged
    assert paused.apply("extend", at(350), seconds=-120).table_ends_at(2) == at(200)
    assert paused.apply("extend", at(350), seconds=-120).apply("extend", at(360), seconds=120).table_ends_at(
        2
    ) == at(200)
    assert paused.apply("extend", at(350), seconds=14400).table_ends_at(2) == at(200)  # and never refuses it


def test_the_signal_of_a_clock_ended_before_it_is_the_end():
    rule = EndRule(signal_seconds=900)
    assert started().apply("end", at(3000)).signal_at(rule) == at(3000)
    assert started().apply("end", at(5000)).signal_at(rule) == at(4500)


def test_time_removed_from_the_session_cannot_leave_a_cut_table_with_less_than_nothing():
    clock = started(600).apply("extend", T0, seconds=-300, table=2)
    with pytest.raises(ClockError) as info:
        clock.apply("extend", at(200), seconds=-120)  # the session keeps 280 s; table 2 would have -20
    assert info.value.field == "seconds" and "table 2" in info.value.message
    assert clock.apply("extend", at(200), seconds=-100).table_remaining(2, at(200)) == 0
    assert clock.apply("extend", at(200), seconds=60).table_remaining(2, at(200)) == 160  # adding is free
    over = started(600).apply("extend", T0, seconds=-300, table=2)
    with pytest.raises(ClockError):
        over.apply("extend", at(400), seconds=-60)  # table 2's time is already up: its end stays


@pytest.mark.parametrize(
    ("clock", "action", "kwargs"),
    [
        (Clock(length_seconds=600), "pause", {}),
        (Clock(length_seconds=600), "resume", {}),
        (Clock(length_seconds=600), "end", {}),
        (started(), "start", {}),
        (started(), "resume", {}),
        (started().apply("pause", at(1)), "pause", {}),
        (started().apply("end", at(1)), "extend", {"seconds": 60}),
        (started().apply("end", at(1)), "end", {}),
    ],
)
def test_actions_that_do_not_fit_the_state_are_conflicts(clock, action, kwargs):
    with pytest.raises(ClockError) as info:
        clock.apply(action, at(2), **kwargs)
    assert info.value.conflict


def test_pause_once_time_is_up_is_a_conflict():
    with pytest.raises(ClockError) as info:
        started(600).apply("pause", at(601))
    assert info.value.conflict


@pytest.mark.parametrize(
    ("action", "kwargs", "field"),
    [
        ("extend", {"seconds": 0}, "seconds"),
        ("extend", {}, "seconds"),
        ("extend", {"seconds": 10**6}, "seconds"),
        ("extend", {"seconds": -6000}, "seconds"),  # more than is left
        ("extend", {"seconds": 60, "table": 0}, "table"),
        ("extend", {"seconds": -6000, "table": 2}, "seconds"),
        ("pause", {"table": 2}, "table"),
        ("jump", {}, "action"),
    ],
)
def test_bad_values_name_the_field(action, kwargs, field):
    with pytest.raises(ClockError) as info:
        started().apply(action, at(1), **kwargs)
    assert not info.value.conflict
    assert info.value.field == field


@pytest.mark.parametrize("seconds", [0, 59, 8 * 3600 + 1, True])
def test_start_length_is_bounded(seconds):
    with pytest.raises(ClockError) as info:
        Clock(length_seconds=600).apply("start", T0, seconds=seconds)
    assert info.value.field == "seconds"


def test_phases_signal_red_over():
    rule = EndRule(signal_seconds=900, red_zone_seconds=300)
    assert engine.phase(901, rule) == engine.NORMAL
    assert engine.phase(900, rule) == engine.SIGNAL
    assert engine.phase(300, rule) == engine.RED
    assert engine.phase(0, rule) == engine.OVER
    assert engine.phase(5000, rule, started=False) == engine.WAITING


def test_hands_left_after_the_end():
    assert engine.hands_left_after_end(EndRule(end_of_time=engine.LAST_HAND), 0) == 1
    assert engine.hands_left_after_end(EndRule(end_of_time=engine.LAST_HAND), 1) == 0
    assert engine.hands_left_after_end(EndRule(end_of_time=engine.ONE_MORE_HAND), 1) == 1
    assert engine.hands_left_after_end(EndRule(end_of_time=engine.ONE_MORE_HAND), 3) == 0
    # MCR's Green Book §3.5.6: play stops at once, no hand is entered after time
    assert engine.hands_left_after_end(EndRule(end_of_time=engine.AT_ONCE), 0) == 0


def test_end_rule_is_checked():
    with pytest.raises(ClockError):
        EndRule(end_of_time="never")
    with pytest.raises(ClockError):
        EndRule(signal_seconds=60, red_zone_seconds=120)


def test_clock_text():
    assert engine.format_clock(5400) == "1:30:00"
    assert engine.format_clock(61.2) == "1:02"
    assert engine.format_clock(-3) == "0:00"
    assert engine.format_clock(None) == "–"
