"""EMA riichi rules 2025, §7.4 (ema-riichi-rules-2025.txt, lines 1338-1345), on the session clock: "a clear
sound must indicate when 15 minutes remain. After the sound, the current hand is finished and one more hand
is played (unless a full game is already completed). There is no sound at 90 minutes [...] they will play
until the hands are finished. A chombo after the time signal is treated as one of the remaining hands."
The preset's end of time is ``after_signal``: the last hands count from the signal."""

from __future__ import annotations

import datetime as dt

import pytest

from scoring import services as scoring
from scoring.models import Hand
from scoring.rules.registry import get_ruleset
from tests.clock.conftest import T0, seat_session
from tournaments.clock import engine, services
from tournaments.clock.selectors import table_clock
from tournaments.permissions import actor_for

DRAW = {"result": "draw", "tenpai": [], "riichi": []}
CHOMBO = {"result": "chombo", "player": 1}


def test_the_2025_preset_has_a_90_minute_session_a_signal_at_15_minutes_and_the_last_hands_after_it():
    """Lines 1339-1341: "Often, sessions are scheduled for 90 minutes [...] a clear sound must indicate when
    15 minutes remain. After the sound, the current hand is finished and one more hand is played"."""
    config = get_ruleset("ema-riichi-2025").config
    assert (config.session_minutes, config.signal_minutes, config.end_of_time) == (90, 15, "after_signal")
    rule = engine.EndRule(end_of_time=config.end_of_time, signal_seconds=15 * 60)
    assert rule.from_signal and rule.hands_after_end == 2
    # the other presets keep their end of time: the hand in play (riichi), stop at once (MCR)
    assert get_ruleset("ema-riichi-2016").config.end_of_time == "last_hand"
    assert not engine.EndRule(end_of_time="one_more_hand").from_signal


def test_the_last_hands_count_from_the_signal_of_each_table():
    rule = engine.EndRule(end_of_time=engine.AFTER_SIGNAL, signal_seconds=15 * 60)
    clock = engine.Clock(length_seconds=90 * 60).apply("start", T0)
    clock = clock.apply("extend", T0, seconds=300, table=2)
    assert clock.table_last_hands_from(1, rule) == T0 + dt.timedelta(minutes=75)
    assert clock.table_last_hands_from(2, rule) == T0 + dt.timedelta(minutes=80)  # its extra time moves it
    plain = engine.EndRule(end_of_time=engine.ONE_MORE_HAND)
    assert clock.table_last_hands_from(1, plain) == T0 + dt.timedelta(minutes=90)
    # a clock ended by hand ends the last hands at once
    ended = clock.apply("end", T0 + dt.timedelta(minutes=30))
    assert ended.table_last_hands_from(1, rule) == T0 + dt.timedelta(minutes=30)


@pytest.fixture
def riichi_2025(make_tournament, director):
    tournament = make_tournament("riichi-2025", ruleset="ema-riichi-2025", director=director)
    seat_session(tournament, 1)
    return tournament


def _entered(table, minutes: list[float]) -> None:
    for number, at in enumerate(minutes, start=1):
        Hand.objects.filter(result__table=table, number=number).update(
            created_at=T0 + dt.timedelta(minutes=at)
        )


@pytest.mark.django_db
def test_after_the_signal_the_hand_in_play_and_one_more_then_the_table_is_done_before_90_minutes(
    client, director, riichi_2025, fake_now
):
    """Lines 1340-1341 and 1344-1345: after the sound at 75 minutes the hand in play and one more; a chombo
    after the signal is one of them. At 80 minutes, two hands entered after the signal (a draw and a
    chombo): no further hand, 10 minutes before the clock's end."""
    services.clock_act(tournament=riichi_2025, user=director, action="start")
    table = riichi_2025.sessions.get(number=1).tables.get(number=1)
    actor = actor_for(user=director, table=table)
    for hand in (DRAW, DRAW):
        scoring.hand_add(table=table, hand=hand, actor=actor, expected_version=None)
    _entered(table, [40, 70])
    fake_now.set(T0 + dt.timedelta(minutes=76))
    state = table_clock(table=table, hand_times=[(1, T0), (2, T0 + dt.timedelta(minutes=70))])
    assert state.phase == engine.SIGNAL and state.hands_left == 2  # the hand in play and one more
    scoring.hand_add(table=table, hand=DRAW, actor=actor, expected_version=None)
    scoring.hand_add(table=table, hand=CHOMBO, actor=actor, expected_version=None)
    _entered(table, [40, 70, 77, 79])
    fake_now.set(T0 + dt.timedelta(minutes=80))
    client.force_login(director)
    html = client.get(f"/t/{riichi_2025.slug}/s/1/table/1/").content.decode()
    assert 'data-phase="signal"' in html
    assert "the session is over at this table" in html  # the chombo was the second of the two hands
    assert "entered after time" not in html  # nothing was entered after the clock's end
    assert "Finish this hand, then play one more (unless the game is complete)." in html


@pytest.mark.django_db
def test_at_90_minutes_the_last_hands_go_on_and_nothing_sounds(client, director, riichi_2025, fake_now):
    """Lines 1342-1343: "There is no sound at 90 minutes; [...] they will play until the hands are
    finished." The clock's document says ``after_signal`` (the page's script beeps at the signal only for
    it); a table with one hand after the signal may enter one more after the end."""
    services.clock_act(tournament=riichi_2025, user=director, action="start")
    table = riichi_2025.sessions.get(number=1).tables.get(number=1)
    actor = actor_for(user=director, table=table)
    scoring.hand_add(table=table, hand=DRAW, actor=actor, expected_version=None)
    _entered(table, [80])
    fake_now.set(T0 + dt.timedelta(minutes=95))
    state = table_clock(table=table, hand_times=[(1, T0 + dt.timedelta(minutes=80))])
    assert state.phase == engine.OVER and state.hands_left == 1
    document = client.get(f"/api/tournaments/{riichi_2025.slug}/clock/").json()
    assert document["end_of_time"] == "after_signal" and document["signal_seconds"] == 900
    client.force_login(director)
    html = client.get(f"/t/{riichi_2025.slug}/s/1/table/1/").content.decode()
    assert "the session is over at this table" not in html
    assert "Finish the hands left since the signal" in html
