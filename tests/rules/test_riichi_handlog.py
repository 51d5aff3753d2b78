"""The 25 published EMA riichi games of tests/data/realdata/ema-riichi-handlogs, replayed hand by hand."""

from __future__ import annotations

from pathlib import Path

import pytest

from scoring.rules.base import RuleError
from scoring.rules.riichi import PRESETS, hand_value, seat_hands
from scoring.rules.riichi_handlog import parse_handlog

EMA = PRESETS["ema-riichi-2016"]
LOG = Path(__file__).resolve().parents[1] / "data" / "realdata" / "ema-riichi-handlogs"
GAMES = parse_handlog((LOG / "games_handlog.txt").read_text(encoding="utf-8"))

# Game 5, hand 7 is "ron player20 from player18 3han 20fu": 002's Ron tables have no 20 fu row; the
# engine pays such a win by the formula, as the log does (20 × 2^5 × 4 = 2560 → 2600).
LOG_FAULTS: dict[int, tuple[int, str]] = {}


def test_the_log_reads_as_published():
    assert len(GAMES) == 25
    assert all(sum(game.scores) == 120000 for game in GAMES)
    players = {p for game in GAMES for p in game.players}
    assert players == {
        line.strip() for line in (LOG / "players.txt").read_text().splitlines() if line.strip()
    }
    # sessions: games 1-8, 9-16 and 17-24 seat all 32 players once each
    for first in (0, 8, 16):
        assert len({p for game in GAMES[first : first + 8] for p in game.players}) == 32
    hands = [hand for game in GAMES for hand in game.hands]
    assert sum(hand["result"] == "chombo" for hand in hands) == 3
    double = [hand for hand in hands if hand["result"] == "ron" and len(hand["winners"]) == 2]
    assert double == [
        {
            "result": "ron",
            "loser": "player4",
            "winners": [
                {"player": "player8", "han": 1, "fu": 40},
                {"player": "player25", "han": 1, "fu": 30},
            ],
            "riichi": ["player8"],
        }
    ]
    assert GAMES[12].hands[0] == {"result": "chombo", "player": "player32"}
    assert GAMES[7].hands[1] == {"result": "draw", "tenpai": list(GAMES[7].players), "riichi": ["player29"]}
    assert GAMES[0].hands[1]["winners"] == [{"player": "player3", "han": 6}]  # no fu above 4 han


@pytest.mark.parametrize("number", range(1, 26))
def test_logged_game_ends_on_the_published_scores(number):
    game = GAMES[number - 1]
    hands = seat_hands(game.hands, game.players)
    result = EMA.play_game(hands)
    assert result.scores == game.scores
    assert sum(result.scores) == 120000
    # the session result: zero-sum but for 20000 per chombo
    table = EMA.table_result(result)
    assert sum(seat.final for seat in table.seats) == -20000 * sum(result.chombos)
    # the same table entered as totals, with its chombos as penalties, gives the same session result
    from_totals = EMA.game_from_totals(list(game.scores))
    assert EMA.table_result(from_totals, chombos=result.chombos) == table


def test_the_log_shows_what_the_rules_say():
    """The features the data is published for: double ron, chombos, sticks over draws, a last stick."""
    results = {
        n: EMA.play_game(seat_hands(g.hands, g.players))
        for n, g in enumerate(GAMES, 1)
        if n not in LOG_FAULTS
    }
    assert sum(sum(r.chombos) for r in results.values()) == 3
    assert [n for n, r in results.items() if r.leftover_sticks] == [3]
    # game 3 ends on a draw with player11's bet on the table: it goes to player9, first with 41000
    last = results[3].steps[-1]
    assert (last.sticks, last.scores[0], results[3].scores[0]) == (1, 41000, 42000)
    assert results[3].scores[1:] == last.scores[1:]
    game9 = results[9]
    ron_step = game9.steps[4]  # player4 deals into player8 (riichi, 1 han 40 fu) and player25 (1 han 30 fu)
    # no counters; player8 (first after player4) 1300 and its own stick back, player25 1000
    assert ron_step.deltas == (-2300, 0, 1300, 1000)
    carried = [step.sticks for r in results.values() for step in r.steps if step.sticks]
    assert carried and max(carried) >= 2


def test_unreadable_lines_are_named():
    with pytest.raises(RuleError) as exc:
        parse_handlog("a:30000 b:30000 c:30000 d:30000\nron a frm b 1han 30fu\n")
    assert exc.value.path == "line 2"
    with pytest.raises(RuleError) as exc:
        parse_handlog("tsumo a 1han 30fu\n")
    assert exc.value.path == "line 1"
    with pytest.raises(RuleError) as exc:
        parse_handlog("a:30000 b:30000 c:30000 d:30000\ntsumo a 1 han\n")
    assert exc.value.path == "line 2"


def test_twenty_fu_on_a_discard_is_paid_by_the_formula_from_two_han():
    """Game 5 records a 3 han 20 fu win on a discard; 002 has no such row, the log pays the formula."""
    assert hand_value(3, 20, dealer=False).ron == 2600  # 20 × 2^5 × 4 = 2560 → 2600
    assert hand_value(2, 20, dealer=True).ron == 2000  # 20 × 2^4 × 6 = 1920 → 2000
