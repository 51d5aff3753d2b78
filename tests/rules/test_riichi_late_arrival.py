"""Riichi late arrival: a tournament setting; of the presets only ema-riichi-2025 has a default, its text's
§7.2 (tests/rules/test_riichi_2025_tournament_rules.py), the others' texts give no figures
(docs/rules-notes-riichi.md). The scale is steps of (from minutes, points) and a limit past which the player is
out of the session and a substitute plays; the points come off the final score, where the WRC rules put point
penalties (WRCR 2015 §7.1: "1 overall score point is equivalent to 1,000 points at the table")."""

from __future__ import annotations

import pytest

from scoring.rules import riichi
from scoring.rules.base import LateArrival, RuleError
from scoring.rules.registry import get_ruleset

RIICHI = ("ema-riichi-2008", "ema-riichi-2016", "ema-riichi-2025", "wrc-riichi")
#: a scale shaped like the MERS one (under 10 minutes, up to 15, later out), in riichi points
SCALE = {"late_arrival_minutes": [0, 10], "late_arrival_points": [5000, 10000], "late_arrival_limit": 15}


@pytest.mark.parametrize("key", [k for k in RIICHI if k != "ema-riichi-2025"])
def test_no_preset_but_2025_sets_a_scale_so_a_late_arrival_is_refused_naming_the_settings(key):
    rules = get_ruleset(key)
    with pytest.raises(RuleError) as caught:
        rules.late_arrival(5)
    assert caught.value.path == "minutes_late"
    assert caught.value.message == (
        f"late arrival has no amount under the {key} rules until the tournament sets "
        "'late_arrival_minutes' and 'late_arrival_points' (or 'late_arrival_limit')"
    )


@pytest.mark.parametrize(
    ("minutes", "expected"),
    [
        (0, LateArrival(points=-5000, disqualified=False)),
        (9, LateArrival(points=-5000, disqualified=False)),
        (10, LateArrival(points=-10000, disqualified=False)),
        (15, LateArrival(points=-10000, disqualified=False)),  # the limit itself is still within it
        (16, LateArrival(points=0, disqualified=True)),  # out: the substitute plays, no points deducted
        (240, LateArrival(points=0, disqualified=True)),
    ],
)
@pytest.mark.parametrize("key", RIICHI)
def test_a_tournament_scale_charges_the_step_reached_and_puts_out_past_the_limit(key, minutes, expected):
    assert get_ruleset(key, SCALE).late_arrival(minutes) == expected


def test_before_the_first_step_a_late_arrival_costs_nothing():
    rules = get_ruleset(
        "wrc-riichi",
        {"late_arrival_minutes": [5, 10], "late_arrival_points": [2000, 4000], "late_arrival_limit": 20},
    )
    assert [rules.late_arrival(m).points for m in (0, 4, 5, 9, 10, 20)] == [0, 0, -2000, -2000, -4000, -4000]


def test_a_limit_alone_deducts_nothing_and_puts_out_past_it():
    rules = get_ruleset("ema-riichi-2016", {"late_arrival_limit": 15})
    assert rules.late_arrival(15) == LateArrival(points=0, disqualified=False)
    assert rules.late_arrival(16) == LateArrival(points=0, disqualified=True)


def test_steps_without_a_limit_never_put_a_player_out():
    rules = get_ruleset("ema-riichi-2016", {"late_arrival_minutes": [0], "late_arrival_points": [3000]})
    assert rules.late_arrival(300) == LateArrival(points=-3000, disqualified=False)


def test_the_deduction_reaches_the_final_score_point_for_point():
    """WRCR §7.1: a point penalty comes off the overall score, not the table's; 1 overall point = 1000 table
    points, the product's final score being kept in table points (a chombo is 20000)."""
    rules = get_ruleset("wrc-riichi", SCALE)
    game = rules.game_from_totals([45000, 32000, 25000, 18000])
    late = rules.late_arrival(12).points
    result = rules.table_result(game, deductions=(0, late, 0, 0))
    # 32000 − 30000 + 5000 uma − 10000 late = −3000 (−3 overall points); the others keep their result.
    assert [s.final for s in result.seats] == [30000, -3000, -10000, -27000]
    assert result.seats[1].penalties == -10000


def test_minutes_late_must_be_whole_and_not_negative():
    rules = get_ruleset("wrc-riichi", SCALE)
    for bad in (-1, 2.5, "7", True):
        with pytest.raises(RuleError) as caught:
            rules.late_arrival(bad)
        assert caught.value.path == "minutes_late"


@pytest.mark.parametrize(
    ("overrides", "path"),
    [
        ({"late_arrival_minutes": [0, 10], "late_arrival_points": [5000]}, "rules.late_arrival_points"),
        ({"late_arrival_minutes": [10, 0], "late_arrival_points": [1, 2]}, "rules.late_arrival_minutes"),
        ({"late_arrival_minutes": [5, 5], "late_arrival_points": [1, 2]}, "rules.late_arrival_minutes"),
        ({"late_arrival_minutes": [-1], "late_arrival_points": [1]}, "rules.late_arrival_minutes"),
        ({"late_arrival_minutes": [0], "late_arrival_points": [-5000]}, "rules.late_arrival_points"),
        (
            {"late_arrival_minutes": [20], "late_arrival_points": [1], "late_arrival_limit": 15},
            "rules.late_arrival_limit",
        ),
        ({"late_arrival_limit": 601}, "rules.late_arrival_limit"),
        ({"late_arrival_minutes": "0, 10"}, "rules.late_arrival_minutes"),
        ({"late_arrival_limit": "15"}, "rules.late_arrival_limit"),
    ],
)
def test_a_scale_the_rules_cannot_use_is_refused_naming_the_setting(overrides, path):
    with pytest.raises(RuleError) as caught:
        get_ruleset("ema-riichi-2025", overrides)
    assert caught.value.path == path


def test_the_scale_round_trips_through_plain_data():
    config = get_ruleset("wrc-riichi", SCALE).config
    plain = config.as_dict()
    assert {k: plain[k] for k in SCALE} == SCALE
    assert riichi.PRESET_CONFIGS["wrc-riichi"].with_overrides({k: plain[k] for k in SCALE}) == config
