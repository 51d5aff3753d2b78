"""A tournament's rule overrides for the MCR, Salamanca and classical presets (``tournament.rules``)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from scoring.rules import classical, mcr, salamanca
from scoring.rules.base import RuleError
from scoring.rules.registry import get_ruleset


def test_the_registry_serves_the_three_presets():
    assert get_ruleset("mcr").family == "mcr"
    assert get_ruleset("salamanca").family == "salamanca"
    assert get_ruleset("classical").family == "classical"
    assert get_ruleset("mcr").config == mcr.PRESETS["mcr"].config


@pytest.mark.parametrize(
    ("key", "rules", "name"),
    [
        ("mcr", {"min_fans": 6}, "min_fans"),
        ("salamanca", {"pot_size": 20}, "pot_size"),
        ("classical", {"east_limit": 1000}, "east_limit"),
    ],
)
def test_an_unknown_rule_is_refused_by_name(key, rules, name):
    with pytest.raises(RuleError) as err:
        get_ruleset(key, rules)
    assert err.value.path == f"rules.{name}"
    assert f"unknown rule '{name}'" in err.value.message


@pytest.mark.parametrize(
    ("key", "rules", "name"),
    [
        ("mcr", {"min_fan": "6"}, "min_fan"),
        ("mcr", {"table_points": [4, 2, 1]}, "table_points"),
        ("mcr", {"table_points": [4, 2, 1, "0"]}, "table_points"),
        ("mcr", {"deductions_before_ranking": "yes"}, "deductions_before_ranking"),
        ("mcr", {"max_hands": 16.0}, "max_hands"),
        ("salamanca", {"pot": 1}, "pot"),
        ("salamanca", {"fan_points": "2,4,8"}, "fan_points"),
        ("classical", {"limit": 500.5}, "limit"),
        ("classical", {"limit_applies_to": "winner"}, "limit_applies_to"),
    ],
)
def test_a_wrong_type_is_refused_by_name(key, rules, name):
    with pytest.raises(RuleError) as err:
        get_ruleset(key, rules)
    assert err.value.path == f"rules.{name}"
    assert f"'{name}'" in err.value.message


@pytest.mark.parametrize(
    ("key", "rules", "name"),
    [
        ("mcr", {"table_points": [0, 1, 2, 4]}, "table_points"),
        ("mcr", {"min_fan": -1}, "min_fan"),
        ("mcr", {"foul_ladder": []}, "foul_ladder"),
        ("mcr", {"late_grace_minutes": 5}, "late_grace_minutes"),
        ("salamanca", {"fan_points": [4, 2]}, "fan_points"),
        ("salamanca", {"rounds": 5}, "rounds"),
        ("classical", {"limit": 0}, "limit"),
    ],
)
def test_a_value_the_rules_cannot_use_is_refused_by_name(key, rules, name):
    with pytest.raises(RuleError) as err:
        get_ruleset(key, rules)
    assert err.value.path == f"rules.{name}"


def test_mcr_minimum_fan_override_accepts_smaller_hands():
    hand = {"result": "win", "winner": 0, "discarder": 1, "fan": 6}
    with pytest.raises(RuleError):
        get_ruleset("mcr").play_game([hand])
    game = get_ruleset("mcr", {"min_fan": 6}).play_game([hand])
    assert game.scores == (30, -14, -8, -8)


def test_mcr_table_points_override_changes_the_shares():
    ruleset = get_ruleset("mcr", {"table_points": [5, 3, 1, 0]})
    result = ruleset.table_result(ruleset.game_from_totals([60, 60, -20, -100]))
    assert [s.table_points for s in result.seats] == [4, 4, 1, 0]
    assert all(isinstance(s.table_points, Fraction) for s in result.seats)


def test_mcr_penalty_amounts_can_be_overridden():
    ruleset = get_ruleset("mcr", {"late_short_penalty": 5, "foul_ladder": [0, 10], "foul_increment": 5})
    assert ruleset.late_arrival(3).points == -5
    assert ruleset.late_arrival(12).points == -20
    assert [ruleset.foul(step) for step in (1, 2, 3, 4)] == [0, -10, -15, -20]


def test_a_full_session_can_be_made_shorter():
    ruleset = get_ruleset("mcr", {"max_hands": 12})
    with pytest.raises(RuleError) as err:
        ruleset.play_game([{"result": "draw"}] * 13)
    assert err.value.path == "hands[12]"
    assert len(get_ruleset("mcr", {"max_hands": None}).play_game([{"result": "draw"}] * 20).steps) == 20


def test_salamanca_overrides_change_the_payments():
    ruleset = get_ruleset("salamanca", {"fan_points": [2, 4, 8, 16, 32], "false_declaration_fan": 2})
    hand = {"result": "win", "winner": 0, "discarder": None, "fan": 9}
    assert ruleset.play_game([hand]).scores == (96, -32, -32, -32)
    assert ruleset.false_hu(0, "") == (-24, 8, 8, 8)


def test_salamanca_shorter_game():
    ruleset = get_ruleset("salamanca", {"rounds": 1})
    hands = [{"result": "win", "winner": (d + 1) % 4, "discarder": None, "fan": 1} for d in range(4)]
    with pytest.raises(RuleError) as err:
        ruleset.play_game([*hands, {"result": "draw"}])
    assert "East round" in err.value.message


def test_classical_limit_override():
    ruleset = get_ruleset("classical", {"limit": 1000})
    hand = {"result": "win", "winner": 1, "values": {0: 0, 1: 800, 2: 0, 3: 0}}
    assert ruleset.play_game([hand]).scores == (-1600, 3200, -800, -800)


def test_overrides_leave_the_preset_untouched():
    get_ruleset("mcr", {"min_fan": 6, "table_points": [5, 3, 1, 0]})
    get_ruleset("salamanca", {"pot": True})
    get_ruleset("classical", {"limit": 1000})
    assert mcr.PRESETS["mcr"].config.min_fan == 8
    assert get_ruleset("mcr").config.table_points == (4, 2, 1, 0)
    assert salamanca.PRESETS["salamanca"].config.pot is False
    assert classical.PRESETS["classical"].config.limit == 500


def test_config_round_trips_through_plain_data():
    # what the archive stores as "rules" can be fed back as overrides
    for key in ("mcr", "salamanca", "classical"):
        ruleset = get_ruleset(key)
        assert get_ruleset(key, ruleset.config.as_dict()).config == ruleset.config
