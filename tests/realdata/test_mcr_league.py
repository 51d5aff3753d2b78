"""The 2026 MCR university team league (tests/data/realdata/mcr-league-2026), imported as an archive.

games.csv gives each of the 120 games (60 rounds of 2 tables) with its four players in placement order and
their scores; winds are not published, so that order is used as the seating. Each round is a session.
Eight score sheets do not sum to zero and were published as they are: they are imported with an
imbalance_reason. penalties.csv deducts table points (``table_points`` penalties). The standings must give
every player the table points, total score and rank of standings.csv.
"""

from __future__ import annotations

import csv
from collections import defaultdict
from fractions import Fraction

import pytest

from rankings.archive import archive_export, archive_import
from rankings.standings.selectors import standings_view
from scoring.models import TableResult
from tests.realdata import data_dir

pytestmark = pytest.mark.django_db

IMBALANCE = "Published as it is: this score sheet does not sum to zero."
PENALTY_REASON = "Table points deducted by the organisers (lateness and the like)."


def read_csv(name: str) -> list[dict[str, str]]:
    with (data_dir("mcr-league-2026") / name).open(encoding="utf-8", newline="") as f:
        return list(csv.DictReader(f))


def league_archive() -> dict:
    games = read_csv("games.csv")
    standings = read_csv("standings.csv")
    keys: dict[str, str] = {}
    for game in games:
        for n in range(1, 5):
            keys.setdefault(game[f"player_{n}"], f"p{len(keys) + 1}")
    team = {row["player"]: row["team"] for row in standings}
    players = [
        {
            "key": key,
            "first_name": name,
            "last_name": "",
            "ema_id": None,
            "country": "",
            "club": team.get(name, ""),
            "substitute": False,
        }
        for name, key in keys.items()
    ]
    sessions: dict[int, list[dict]] = defaultdict(list)
    first_session: dict[str, int] = {}
    for game in games:
        number = int(game["session"])
        scores = [int(game[f"score_{n}"]) for n in range(1, 5)]
        seats = [keys[game[f"player_{n}"]] for n in range(1, 5)]
        table = {"number": "AB".index(game["table"]) + 1, "seats": seats, "hands": [], "scores": scores}
        if sum(scores) != 0:
            table["imbalance_reason"] = IMBALANCE
        sessions[number].append(table)
        for key in seats:
            first_session.setdefault(key, number)
    penalties = [
        {
            "player": keys[row["player"]],
            "session": first_session[keys[row["player"]]],
            "kind": "table_points",
            "points": -int(row["table_point_penalty"]),
            "reason": PENALTY_REASON,
        }
        for row in read_csv("penalties.csv")
    ]
    return {
        "format": "mahjong-tournament-archive",
        "version": 1,
        "tournament": {
            "name": "MCR university team league 2026",
            "slug": "mcr-league-2026",
            "ruleset": "mcr",
            "rules": {},
            "starts_on": "2026-01-10",
            "days": 3,
            "city": "",
            "country": "CHN",
        },
        "players": players,
        "sessions": [
            {"number": n, "tables": sorted(tables, key=lambda t: t["number"])}
            for n, tables in sorted(sessions.items())
        ],
        "penalties": penalties,
    }


def number(text: str) -> Fraction:
    return Fraction(text)


def test_the_league_standings_are_the_published_ones():
    archive = league_archive()
    assert len(archive["players"]) == 40 and len(archive["sessions"]) == 60
    tournament = archive_import(document=archive)
    assert archive_export(tournament=tournament) == archive

    imbalanced = TableResult.objects.filter(table__session__tournament=tournament).exclude(
        imbalance_reason=""
    )
    assert imbalanced.count() == 8

    document = standings_view(tournament=tournament).to_document(tournament.slug, tournament.ruleset)
    assert document["complete_sessions"] == 60
    rows = {row["name"]: row for row in document["standings"]}
    published = read_csv("standings.csv")
    assert len(rows) == len(published) == 40
    for expected in published:
        row = rows[expected["player"]]
        assert number(expected["table_points_raw"]) - number(expected["table_point_penalty"]) == number(
            expected["table_points"]
        )
        assert (row["rank"], Fraction(str(row["table_points"])), row["score"]) == (
            int(expected["rank"]),
            number(expected["table_points"]),
            int(expected["total"]),
        ), expected["player"]
    # the penalised players: the deduction is not part of the score
    assert rows["小黄鸭"]["table_points"] == 16 and rows["小黄鸭"]["penalties"] == 0
    # players who missed rounds: each has the sessions of the games they played (6 to 23 of 60)
    played = defaultdict(int)
    for game in read_csv("games.csv"):
        for n in range(1, 5):
            played[game[f"player_{n}"]] += 1
    assert {name: row["sessions"] for name, row in rows.items()} == played
    assert (min(played.values()), max(played.values())) == (6, 23)
