"""The ruleset contract (scoring/rules/base.py): every part of it, over every ruleset of the registry, and
no code outside ``scoring.rules`` that tells rulesets apart by the family's name instead of asking it."""

from __future__ import annotations

import re
from fractions import Fraction
from pathlib import Path

import pytest
from django.template.loader import get_template

from penalties.forms import LATE_ARRIVAL_HELP, late_arrival_help, penalty_kinds
from penalties.models import Kind
from rankings.standings.engine import METHODS, method_of
from scoring.forms import HAND_FORMS, hand_form_class
from scoring.presenters import after_hand, describe_hand, round_label
from scoring.rules.base import END_OF_TIME_RULES, Ruleset
from scoring.rules.registry import RULESET_KEYS, get_ruleset
from scoring.selectors import OUTCOME_LABELS
from scoring.tiles.forms import FLAG_LABELS

ROOT = Path(__file__).resolve().parents[2]
RULESETS = [pytest.param(get_ruleset(key), id=key) for key in RULESET_KEYS]
SEATS = ["Ana", "Ben", "Cai", "Dan"]


@pytest.mark.parametrize("rules", RULESETS)
def test_a_game_starts_from_the_starting_scores(rules: Ruleset):
    start = rules.start_scores()
    assert len(start) == 4 and all(isinstance(s, (int, Fraction)) for s in start)
    assert tuple(rules.play_game([]).scores) == tuple(start)
    assert rules.raw_scores == any(start), "points held start above 0; gains and losses start at 0"


@pytest.mark.parametrize("rules", RULESETS)
def test_the_hand_form_its_template_and_its_description_exist(rules: Ruleset):
    form_class = hand_form_class(rules)
    assert HAND_FORMS[rules.hand_form] is form_class
    form = form_class(seats=SEATS, rules=rules, tiles_mode="optional")
    assert form.partial == rules.hand_partial
    get_template(rules.hand_partial)
    draw = {"result": "draw"}
    assert describe_hand(rules, draw, SEATS)
    assert set(rules.tile_flags) <= set(FLAG_LABELS)
    assert [value for value, _ in form.fields["tiles_flags"].choices] == list(rules.tile_flags)
    assert rules.tile_extras <= {
        "flowers",
        "own_flowers",
        "flower_sets",
        "kongs_in_a_row",
        "dora",
        "red_fives",
    }
    assert ("tiles_flowers" in form.fields) == ("flowers" in rules.tile_extras)
    assert ("tiles_dora" in form.fields) == ("dora" in rules.tile_extras)
    assert ("tiles_red_fives" in form.fields) == ("red_fives" in rules.tile_extras)
    assert ("liable" in form.fields) == bool(rules.liable_yakuman())
    assert ("abortive" in form.fields) == rules.abortive_draws()


@pytest.mark.parametrize("rules", RULESETS)
def test_the_table_shows_a_dealer_rounds_and_counters_as_the_rules_say(rules: Ruleset):
    label = round_label(rules, [type("Seat", (), {"short": n}) for n in SEATS], 1, "S", 2)
    assert ("Ben" in label) == (rules.shows_dealer and not rules.numbered_rounds)
    assert (label.startswith("South 2")) == rules.numbered_rounds
    assert bool(after_hand(rules, 1, 1)) == rules.counters_and_sticks


@pytest.mark.parametrize("rules", RULESETS)
def test_the_session_result_and_the_standings(rules: Ruleset):
    assert set(rules.outcome_columns) <= set(OUTCOME_LABELS) and "final" in rules.outcome_columns
    assert rules.ranks_by in METHODS and method_of(rules) == rules.ranks_by
    assert rules.session_value in ("table_points", "uma", "final")
    if rules.ranks_by == "table_points" or rules.table_points_deductions:
        assert "table_points" in rules.outcome_columns
    usual = rules.usual_hands()
    assert usual is None or (isinstance(usual, int) and usual >= 1)
    assert rules.score_sheet_rows() >= (usual or 1)
    get_template(rules.score_sheet_partial)


@pytest.mark.parametrize("rules", RULESETS)
def test_the_penalties_the_rules_carry(rules: Ruleset):
    kinds = {kind for kind, _ in penalty_kinds(rules)}
    assert (Kind.TABLE_POINTS in kinds) == rules.table_points_deductions
    if Kind.FALSE_HU in kinds:
        assert len(rules.false_hu(0, rules.false_hu_default)) == 4
    assert (Kind.CHOMBO in kinds) == rules.has_chombo
    assert rules.late_arrival_scale in LATE_ARRIVAL_HELP and late_arrival_help(rules)
    exclusions = rules.substitution_exclusions(0, "illness", during=True)
    assert isinstance(exclusions, frozenset) and exclusions <= {0, 1, 2, 3}
    charges = rules.foul_charges([{"session": 1, "persists": False}])
    assert charges is None or len(charges) == 1


@pytest.mark.parametrize("rules", RULESETS)
def test_limits_and_the_result_of_a_replaced_player(rules: Ruleset):
    assert isinstance(rules.counted_yakuman(), bool)
    # only the riichi 2025 text sets one (§7.3, lines 1330-1331): -15,000 points and -15,000 uma
    expected = (-30000, -15000) if rules.key == "ema-riichi-2025" else None
    fixed_now = rules.replacement_result()
    assert (fixed_now and (fixed_now.final, fixed_now.uma)) == expected
    assert isinstance(rules.substitute_outside_uma(), bool)
    assert isinstance(rules.late_minutes_rounded_up(), bool)
    end = rules.session_end()
    assert end.end_of_time in END_OF_TIME_RULES and 0 <= end.signal_minutes <= end.minutes
    if "replacement_points" in rules.config.as_dict():  # the rules let a tournament set one
        fixed = rules.with_overrides({"replacement_points": -10000, "replacement_uma": -5000})
        result = fixed.replacement_result()
        assert (result.final, result.uma) == (-15000, -5000)


# -- nobody outside scoring.rules asks for the family by name ----------------------------------------------

FAMILIES = "mcr|riichi|salamanca|classical"
TELLS = [
    re.compile(rf"""(==|!=|\bin)\s*\(?\s*["']({FAMILIES})["']"""),  # x == "mcr", x in ("mcr", ...)
    re.compile(rf"""["']({FAMILIES})["']\s*(==|!=)"""),  # "mcr" == x
    re.compile(r"""\.family\s*(==|!=|\bin\b|\bnot in\b)"""),  # rules.family == ...
    re.compile(r"""hasattr\(\s*rules\b"""),  # duck typing instead of the contract
    re.compile(r"""getattr\(\s*[\w.()]*rules\w*(\(\))?\s*,\s*["']config["']"""),  # reading a ruleset's config
]
# The EMA keeps two rankings, MCR and riichi, each with its own requirements (the submission checks):
# there the names are the rankings' own, not a ruleset's branch.
EMA_RANKINGS = (
    "rankings/ema/",
    "rankings/exports/ranking.py",
    "rankings/management/commands/",
    "rankings/submission/",
)
SKIPPED = ("scoring/rules/", "tests/", "bench/", ".venv/", "/migrations/", "locale/", "static/")


def _sources():
    for path in sorted(ROOT.rglob("*")):
        rel = path.relative_to(ROOT).as_posix()
        if path.suffix not in (".py", ".html") or rel.startswith(SKIPPED) or "/migrations/" in rel:
            continue
        if rel.startswith(EMA_RANKINGS):
            continue
        yield rel, path.read_text(encoding="utf-8")


def test_no_code_outside_the_rules_tests_the_family_by_name():
    found = [
        f"{rel}:{number}: {line.strip()}"
        for rel, text in _sources()
        for number, line in enumerate(text.splitlines(), start=1)
        if any(tell.search(line) for tell in TELLS)
    ]
    assert not found, "ask the Ruleset contract instead:\n" + "\n".join(found)


def test_the_family_check_finds_what_it_looks_for():
    assert any(tell.search('if rules.family == "mcr":') for tell in TELLS)
    assert any(tell.search('{% if form.family == "riichi" %}') for tell in TELLS)
    assert any(tell.search('if hasattr(rules, "foul_charges"):') for tell in TELLS)
    assert any(tell.search('config = getattr(rules, "config", None)') for tell in TELLS)
    assert any(tell.search('getattr(tournament.get_rules(), "config", None)') for tell in TELLS)
    assert not any(tell.search("if rules.shows_dealer:") for tell in TELLS)


@pytest.mark.parametrize("rules", RULESETS)
@pytest.mark.parametrize("deltas", [(3000, 1000, -1000, -3000), (2000, 2000, -1000, -3000), (0, 0, 0, 0)])
def test_the_range_of_a_session_is_what_a_confirmed_table_gives(rules: Ruleset, deltas):
    """What each player needs (rankings.standings.needs) counts the places as a confirmed table pays
    them: table points, or uma with the oka, tied players sharing; and every sharing is in the range."""
    scores = [s + d for s, d in zip(rules.start_scores(), deltas, strict=True)]
    seats = rules.table_result(rules.game_from_totals(scores)).seats
    paid = tuple(
        Fraction(s.table_points if rules.ranks_by == "table_points" else (s.uma or 0)) for s in seats
    )
    assert tuple(Fraction(v) for v in rules.session_places(deltas)) == paid
    outcomes = rules.session_outcomes()
    assert tuple(sorted(paid, reverse=True)) in {
        tuple(Fraction(v) for v in vector) for vector in outcomes.places
    }
    assert outcomes.spread >= rules.score_bound()
    assert all(len(vector) == 4 and sum(vector) == sum(paid) for vector in outcomes.places)


def test_running_scores_stay_exact_whatever_the_numbers():
    """The scores after a hand: whole numbers stay ``int``; halves (a pot split two ways) stay exact and
    become ``int`` again once whole; ``True`` is not taken for the number 1 by its type."""
    from fractions import Fraction

    from scoring.rules import common

    assert common.running((100, -20), (8, -8)) == (108, -28)
    assert all(type(v) is int for v in common.running((100, -20), (8, -8)))
    halves = common.running((1, Fraction(1, 2)), (Fraction(1, 2), Fraction(1, 2)))
    assert halves == (Fraction(3, 2), 1) and type(halves[1]) is int
    assert common.running((True, 0), (1, 0)) == (2, 0)
