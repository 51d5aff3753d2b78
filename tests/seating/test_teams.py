"""Teams in the seating engine: teammates are a group that must not meet, counted apart in the report."""

from __future__ import annotations

from tests.seating.helpers import assert_every_player_once, meetings
from tournaments.seating.engine import Player, SeatingSettings, Tournament, plan_schedule, quality_report


def _teams(n: int, size: int) -> list[list[int]]:
    return [list(range(start, start + size)) for start in range(1, n + 1, size)]


def _teammate_meetings(sessions, teams) -> int:
    team_of = {p: i for i, team in enumerate(teams) for p in team}
    return sum(m for pair, m in meetings(sessions).items() if len({team_of[p] for p in pair}) == 1)


def test_forty_players_in_teams_of_four_with_countries_never_meet_a_teammate():
    roster = [Player(i, country=f"C{(i - 1) // 5 + 1}") for i in range(1, 41)]
    teams = _teams(40, 4)
    plan = plan_schedule(Tournament(roster, separate=teams), 8)
    assert_every_player_once(plan.sessions, range(1, 41))
    assert _teammate_meetings(plan.sessions, teams) == 0
    assert plan.quality.separated_meetings == 0
    assert plan.quality.repeated_meetings == 0
    assert plan.quality.max_wind_spread <= 1


def test_sixty_four_players_in_mixed_country_teams_meet_no_teammate_nor_compatriot():
    roster = [Player(i, country=f"C{(i - 1) % 8 + 1}") for i in range(1, 65)]
    teams = _teams(64, 4)
    plan = plan_schedule(Tournament(roster, separate=teams, settings=SeatingSettings(seed=1)), 10)
    assert_every_player_once(plan.sessions, range(1, 65))
    assert _teammate_meetings(plan.sessions, teams) == 0
    assert plan.quality.repeated_meetings == 0
    assert plan.quality.same_country_meetings == 0
    assert plan.quality.max_wind_spread <= 1


def test_quality_report_counts_teammate_meetings_apart_from_other_groups():
    sessions = [[[1, 2, 3, 4], [5, 6, 7, 8]], [[1, 5, 2, 6], [3, 7, 4, 8]]]
    report = quality_report(
        [Player(i) for i in range(1, 9)], sessions, separate=[[1, 2], [3, 8], [5, 7]], teams=[[1, 2], [3, 8]]
    )
    # Teams {1, 2} meet twice, {3, 8} once; the kept-apart group {5, 7} once more.
    assert report.teammate_meetings == 3
    assert report.separated_meetings == 4
    assert report.to_dict()["teammate_meetings"] == 3
