"""The EMA riichi rules 2025, chapter 7 (tournament rules), sentence by sentence through the pure engine.
Lines are those of the text (ema-riichi-rules-2025.txt): §7.2 late arrival 1322-1325, §7.3 substitutes
1326-1337. Through the services, the pages and the standings: tests/penalties/test_riichi_2025_day.py."""

from __future__ import annotations

import pytest

from scoring.rules.base import LateArrival, ReplacementResult
from scoring.rules.registry import RULESET_KEYS, get_ruleset

RULES = get_ruleset("ema-riichi-2025")
#: a table's raw scores, East..North (the 2025 example's order of places: East first, North last)
SCORES = [45000, 32000, 25000, 18000]


# -- §7.2 late arrival ---------------------------------------------------------------------------------


@pytest.mark.parametrize("minutes", range(1, 11))
def test_late_by_10_minutes_or_less_costs_1000_points_a_minute(minutes):
    """Line 1323: "A player who is late by 10 minutes or less is subject to a point penalty of 1,000
    points per minute they are late"."""
    assert RULES.late_arrival(minutes) == LateArrival(points=-1000 * minutes, disqualified=False)


def test_one_minute_late_is_1000_and_nine_minutes_thirty_is_10000_rounded_up():
    """Lines 1324-1325: "a player who is 1 minute late has a 1,000-point penalty, while a player who is 9
    minutes and 30 seconds late has a 10,000-point penalty". Minutes are entered whole; a started minute
    counts as a whole one ("rounded up", line 1324), which the ruleset says so the form can say it."""
    assert RULES.late_arrival(1).points == -1000
    assert RULES.late_minutes_rounded_up() is True
    started = 10  # 9 minutes 30 seconds, rounded up
    assert RULES.late_arrival(started).points == -10000
    assert RULES.late_arrival(0) == LateArrival(points=0, disqualified=False)  # on time
    # elsewhere whole minutes only (MERS 2.2: "under 10 minutes" includes 9 minutes 59 seconds)
    assert get_ruleset("mcr").late_minutes_rounded_up() is False


def test_the_lateness_penalty_comes_off_after_uma():
    """Line 1324: "(after uma is applied)": the points do not change the places or the uma at the table."""
    game = RULES.game_from_totals(SCORES)
    plain = RULES.table_result(game).seats
    late = RULES.table_result(game, deductions=(-6000, 0, 0, 0)).seats
    assert [s.uma for s in late] == [s.uma for s in plain] == [15000, 5000, -5000, -15000]
    assert late[0].final == plain[0].final - 6000 == 15000 + 15000 - 6000
    assert late[0].penalties == -6000


@pytest.mark.parametrize("minutes", [11, 12, 30, 90])
def test_later_than_10_minutes_the_player_is_replaced_with_no_lateness_penalty(minutes):
    """Lines 1331-1332: "A player who is late by more than 10 minutes is replaced with a substitute player
    and no lateness penalty is deducted"."""
    assert RULES.late_arrival(minutes) == LateArrival(points=0, disqualified=True)


# -- §7.3 substitutes ------------------------------------------------------------------------------------


def test_a_substituted_player_scores_minus_15000_points_and_minus_15000_uma_each_session():
    """Lines 1330-1331: "A player who is substituted will score -15,000 points and -15,000 uma at each
    session, i.e. a total of -30,000 points." The raw score written is 15,000 (30,000 - 15,000)."""
    assert RULES.replacement_result() == ReplacementResult(game_score=15000, uma=-15000, final=-30000)


def test_a_substitution_before_the_game_began_counts_the_substitute_for_the_uma():
    """Lines 1333-1335: "If a substitution occurred before the beginning of the game at the table, the
    score of the substitute player is relevant for determining the opponents' uma. E.g. if the substitute
    player wins the game, they will receive -15,000 points uma, and the other players will receive 5,000,
    -5,000 and -15,000 points." The substitute (East) wins the game: -15,000 uma all the same; the others
    take the uma of the places they hold behind him."""
    excluded = RULES.substitution_exclusions(0, "illness", during=False)
    assert excluded == frozenset()
    game = RULES.game_from_totals(SCORES)
    seats = RULES.table_result(game, excluded=excluded, substitutes=frozenset({0})).seats
    assert [s.uma for s in seats] == [-15000, 5000, -5000, -15000]
    assert [s.final for s in seats] == [0, 7000, -10000, -27000]


def test_a_substitution_after_the_game_began_leaves_the_substitute_out_of_the_uma():
    """Lines 1336-1337: "If a substitution occurred after the beginning of the game at the table, the score
    of the substitute player is not relevant; they will always receive -15,000 points uma, and the other
    players will receive 15,000, 5,000 and -5,000 points." The substitute (East) ends first: -15,000; the
    three others by their own places."""
    excluded = RULES.substitution_exclusions(0, "illness", during=True)
    assert excluded == frozenset({0})
    seats = RULES.table_result(RULES.game_from_totals(SCORES), excluded=excluded, substitutes=excluded).seats
    assert [s.uma for s in seats] == [-15000, 15000, 5000, -5000]
    # finals: raw - 30,000 + uma
    assert [s.final for s in seats] == [0, 17000, 0, -17000]
    # the substitute last, or in the middle: always -15,000, the others 15,000, 5,000, -5,000 by place
    middle = RULES.table_result(RULES.game_from_totals([32000, 45000, 25000, 18000]), excluded=excluded)
    assert [s.uma for s in middle.seats] == [-15000, 15000, 5000, -5000]
    north = RULES.table_result(RULES.game_from_totals([45000, 32000, 25000, 18000]), excluded=frozenset({3}))
    assert [s.uma for s in north.seats] == [15000, 5000, -5000, -15000]


def test_tied_players_share_the_uma_of_their_places_among_the_three():
    """§3.7.1 (line 603 ff.): tied places share; with the substitute out, the three share 15,000, 5,000 and
    -5,000."""
    seats = RULES.table_result(
        RULES.game_from_totals([40000, 30000, 30000, 20000]), excluded=frozenset({0})
    ).seats
    assert [s.uma for s in seats] == [-15000, 10000, 10000, -5000]


@pytest.mark.parametrize("key", [k for k in RULESET_KEYS if k.endswith("riichi") or "riichi-" in k])
def test_other_riichi_presets_keep_the_substitute_as_a_full_player(key):
    """Only the 2025 text sets §7.3's rule: under 2008, 2016 and WRC a substitute is a full player at the
    table either way (docs/rules-notes-riichi.md)."""
    rules = get_ruleset(key)
    outside = key == "ema-riichi-2025"
    assert rules.substitute_outside_uma() is outside
    assert rules.substitution_exclusions(0, "illness", during=True) == (
        frozenset({0}) if outside else frozenset()
    )
    game = rules.game_from_totals(SCORES)
    assert rules.table_result(game, substitutes=frozenset({0})).seats[0].uma == (
        -15000 if outside else rules.table_result(game).seats[0].uma
    )
    # a tournament may turn it on or off
    flipped = rules.with_overrides({"substitute_outside_uma": not outside})
    assert flipped.substitute_outside_uma() is (not outside)
