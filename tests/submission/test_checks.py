"""The EMA checks on tournaments built through the services: one that fails every check, one that passes
every check, and a planned schedule that is already red at creation."""

from __future__ import annotations

import datetime as dt
from fractions import Fraction

import pytest

from rankings.submission import engine, selectors
from tests.submission.builders import failing_tournament, passing_tournament
from tournaments import services

pytestmark = pytest.mark.django_db


def _messages(tournament) -> dict[str, tuple[str, list[str]]]:
    return {c.key: (c.status, [str(m) for m in c.messages]) for c in selectors.checks(tournament=tournament)}


def test_a_tournament_that_fails_every_check_says_why_each_time(director):
    found = _messages(failing_tournament(director))
    assert found == {
        "schedule": ("fail", ["1 day(s) need at least 4 sessions; 2 are planned."]),
        "breaks": (
            "fail",
            ["Session 2 starts 60 minutes before session 1 ends; a break of at least 15 minutes is needed."],
        ),
        "participants": ("fail", ["5 players from EMA countries; at least 16 are needed."]),
        "referees": ("fail", ["0 referee(s) named; 1 needed for these players."]),
        "ema_numbers": (
            "fail",
            [
                "Lars Odegard: EMA number 04010009 is not in the EMA player list; closest: Lars Ødegaard, "
                "04010001 (NOR).",
                "Marta Garcia: the EMA list has 04010002 as Maria Garcia.",
                "Pierre Dupont: country BEL here, FRA in the EMA list.",
                "Guest Player has no EMA number: a guest, counted in N and never ranked.",
                "Ann Other has no EMA number: a guest, counted in N and never ranked.",
                "Bo Other has no EMA number: a guest, counted in N and never ranked.",
                "Cy Other has no EMA number: a guest, counted in N and never ranked.",
                "Di Other has no EMA number: a guest, counted in N and never ranked.",
            ],
        ),
        "substitutes": (  # never seated, the tournament not over: still to ask
            "pending",
            ["Never Asked has not played: ask whether the results count before they play."],
        ),
        "results": ("fail", ["Session 1, table 2 is not confirmed."]),
        "balance": (
            "fail",
            ["Session 2, table 2: the scores are off by 20 (accepted as: the score sheet says so)."],
        ),
        "clock": ("fail", ["No countdown clock ran in session 1."]),
        "published": ("fail", ["The results of session 1 were not published before session 2 began."]),
        "observer": ("fail", ["No EMA observer is named."]),
        "prizes": ("fail", ["No prize is recorded."]),
    }
    assert list(found) == list(engine.ORDER)


def test_a_tournament_that_meets_every_requirement_is_green(director, make_user):
    tournament = passing_tournament(director, make_user("rita"))
    found = _messages(tournament)
    assert {key: status for key, (status, _) in found.items()} == dict.fromkeys(engine.ORDER, "ok")
    assert found["referees"][1] == ["1 referee(s), 0 playing."]
    assert found["substitutes"][1] == [
        "Sub Stitute: results do not count; as MERS-R §4 says, no ranking result."
    ]
    assert found["observer"][1] == ["Observer: Jan Novák."]
    assert found["prizes"][1] == ["1 prize(s) recorded."]
    for key in (
        "schedule",
        "breaks",
        "participants",
        "ema_numbers",
        "results",
        "balance",
        "clock",
        "published",
    ):
        assert found[key][1] == [], key


def test_the_weight_and_its_parts_and_the_ranking_preview(director, make_user):
    tournament = passing_tournament(director, make_user("rita"))
    weight = selectors.weight(tournament=tournament)
    assert (weight.days, weight.players, weight.countries, weight.qualifier, weight.final) == (
        1,
        16,
        4,
        False,
        True,
    )
    assert (weight.day_part, weight.player_part, weight.country_part, weight.qualifier_part) == (1, 0, 0, 0)
    assert weight.value == 1
    lines = selectors.preview(tournament=tournament)
    assert len(lines) == 16  # every player has an EMA number; the substitute never played
    winner = lines[0]
    # a first result of base rank 1000 and weight 1, padded with four dummy results (0, weight 1):
    # Part A = 1000 / 5 = 200, Part B = 1000 / 4 = 250, ranking = 225
    assert (winner.place, winner.base_rank, winner.before, winner.after) == (1, 1000, 0, 225)
    last = lines[-1]  # four players tie for place 13: each gets its base rank, (16 - 13) / 15 of 1000
    assert (last.place, last.base_rank, last.after) == (13, 200, 45)


def test_the_preview_counts_the_players_earlier_results(director, make_user, make_tournament):
    """A player's ranking before and after: the earlier results count in both, this one only after."""
    from rankings.ema.services import ema_ranking_recompute
    from tests.exports.helpers import place_player

    tournament = passing_tournament(director, make_user("rita"))
    ana = tournament.registrations.get(key="p1").player
    ended = tournament.starts_on - dt.timedelta(days=60)
    place_player(make_tournament, "earlier", ana, place=1, players=20, ends_on=ended)
    ema_ranking_recompute()
    line = next(x for x in selectors.preview(tournament=tournament) if x.name == "Ana Martín Ñúñez")
    # earlier: base rank 1000, weight 1 (1 day, 20 players, 4 countries); padded with three dummies
    assert line.before == (Fraction(1000, 5) + Fraction(1000, 4)) / 2
    both = [1000, line.base_rank, 0, 0, 0]
    assert line.after == (Fraction(sum(both), 5) + Fraction(sum(both[:4]), 4)) / 2
    assert line.after > line.before


def test_a_planned_schedule_that_is_too_short_is_red_at_creation(director):
    day = dt.date(2027, 6, 5)
    tournament = services.tournament_create(
        name="Two days", slug="two-days", ruleset="ema-riichi-2025", starts_on=day, days=2, director=director,
        sessions=6,
    )  # fmt: skip
    checks = {c.key: c for c in selectors.checks(tournament=tournament)}
    assert checks["schedule"].status == "fail"
    assert [str(m) for m in checks["schedule"].messages] == [
        "2 day(s) need at least 7 sessions; 6 are planned."
    ]
    assert checks["schedule"].article == "ERGMT §3.6"
    # nothing has been played: the results, the sums, the clock and the publication are not known yet
    assert {k: checks[k].status for k in ("results", "balance", "clock", "published")} == dict.fromkeys(
        ("results", "balance", "clock", "published"), "pending"
    )


def test_a_ruleset_the_ema_does_not_rank_has_no_checks(director):
    tournament = services.tournament_create(
        name="Sala",
        slug="sala",
        ruleset="salamanca",
        starts_on=dt.date(2027, 1, 1),
        director=director,
        sessions=1,
    )
    assert selectors.checks(tournament=tournament) == []


def test_a_substitute_added_late_who_never_played_leaves_the_finished_tournament_green(director, make_user):
    """A substitute added at a later session's check-in and never seated: nothing of theirs counts, so the
    EMA does not need their answer; the substitute who played was asked."""
    tournament = passing_tournament(director, make_user("rita"), late_substitute="Marek Nowak")
    check = {c.key: c for c in selectors.checks(tournament=tournament)}["substitutes"]
    assert check.status == engine.OK
    assert "Marek Nowak never played: no answer is needed, no results to count." in [
        str(m) for m in check.messages
    ]
