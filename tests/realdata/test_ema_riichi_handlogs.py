"""25 published EMA riichi games, hand by hand (tests/data/realdata/ema-riichi-handlogs), imported as an archive.

Games 1–8, 9–16 and 17–24 are sessions 1–3, in which all 32 players play once. Game 25 is an extra table:
it is imported as session 4, a session of its own, and counts in the standings of its four players like any
other game. Every hand is replayed under ema-riichi-2016 (chombos are ``chombo`` hands).

The expected standings are computed here, independently of the product, from each game's published first
line (the final raw scores) with the formula of RULES.md: final = raw − 30000 + uma 15000/5000/−5000/−15000
(tied players share the uma of their places), −20000 per chombo.
"""

from __future__ import annotations

import re
from collections import defaultdict
from fractions import Fraction

import pytest

from rankings.archive import archive_export, archive_import
from rankings.standings.selectors import standings_view
from scoring.models import SeatSummary
from scoring.rules.riichi_handlog import parse_handlog
from tests.realdata import data_dir

pytestmark = pytest.mark.django_db

UMA = (15000, 5000, -5000, -15000)


def log_text() -> str:
    return (data_dir("ema-riichi-handlogs") / "games_handlog.txt").read_text(encoding="utf-8")


def published_games() -> list[tuple[list[tuple[str, int]], dict[str, int]]]:
    """Each game's first line (player, raw score) in seat order, and its chombos by player, read from the text."""
    games = []
    for block in re.split(r"\n\s*\n", log_text().strip()):
        lines = [line.strip() for line in block.splitlines() if line.strip()]
        first = [(name, int(score)) for name, score in (item.rsplit(":", 1) for item in lines[0].split())]
        chombos: dict[str, int] = defaultdict(int)
        for line in lines[1:]:
            if line.startswith("chombo "):
                chombos[line.split()[1]] += 1
        games.append((first, chombos))
    return games


def session_of(game_index: int) -> int:
    return min(game_index // 8 + 1, 4)


def handlog_archive() -> dict:
    games = parse_handlog(log_text())
    names = [
        line.strip()
        for line in (data_dir("ema-riichi-handlogs") / "players.txt").read_text().splitlines()
        if line.strip()
    ]
    sessions: dict[int, list[dict]] = defaultdict(list)
    for index, game in enumerate(games):
        tables = sessions[session_of(index)]
        tables.append(
            {
                "number": len(tables) + 1,
                "seats": list(game.players),
                "hands": list(game.hands),
                "scores": None,
            }
        )
    return {
        "format": "mahjong-tournament-archive",
        "version": 1,
        "tournament": {
            "name": "EMA riichi hand logs",
            "slug": "ema-riichi-handlogs",
            "ruleset": "ema-riichi-2016",
            "rules": {},
            "starts_on": "2026-02-07",
            "days": 2,
            "city": "",
            "country": "",
        },
        "players": [
            {
                "key": name,
                "first_name": name,
                "last_name": "",
                "ema_id": None,
                "country": "",
                "club": "",
                "substitute": False,
            }
            for name in names
        ],
        "sessions": [{"number": n, "tables": tables} for n, tables in sorted(sessions.items())],
        "penalties": [],
    }


def uma_shares(scores: list[int]) -> list[Fraction]:
    shares = []
    for score in scores:
        better = sum(1 for other in scores if other > score)
        tied = sum(1 for other in scores if other == score)
        shares.append(Fraction(sum(UMA[better : better + tied]), tied))
    return shares


def test_every_game_ends_on_its_published_scores_and_the_standings_follow():
    archive = handlog_archive()
    assert [len(s["tables"]) for s in archive["sessions"]] == [8, 8, 8, 1]
    for session in archive["sessions"][:3]:
        assert len({key for table in session["tables"] for key in table["seats"]}) == 32
    tournament = archive_import(document=archive)
    assert archive_export(tournament=tournament) == archive

    games = published_games()
    assert len(games) == 25
    # every game, replayed hand by hand, ends on the raw scores of its first line
    for index, (first, _) in enumerate(games):
        table = (index % 8) + 1 if index < 24 else 1
        rows = SeatSummary.objects.filter(
            tournament=tournament, session__number=session_of(index), table__number=table
        ).order_by("position")
        assert [(r.registration.key, r.game_score) for r in rows.select_related("registration")] == first

    # the standings from the published scores, computed here
    expected: dict[str, Fraction] = defaultdict(Fraction)
    chombo_points: dict[str, int] = defaultdict(int)
    sessions: dict[str, int] = defaultdict(int)
    for first, chombos in games:
        scores = [score for _, score in first]
        for (name, raw), uma in zip(first, uma_shares(scores), strict=True):
            expected[name] += raw - 30000 + uma - 20000 * chombos.get(name, 0)
            chombo_points[name] -= 20000 * chombos.get(name, 0)
            sessions[name] += 1
    assert sum(1 for v in chombo_points.values() if v) == 3

    document = standings_view(tournament=tournament).to_document(tournament.slug, tournament.ruleset)
    assert document["complete_sessions"] == 4
    rows = {row["player"]: row for row in document["standings"]}
    assert set(rows) == set(expected)
    ordered = sorted(expected.values(), reverse=True)
    for name, total in expected.items():
        row = rows[name]
        assert row["score"] == pytest.approx(float(total), abs=0.005), name
        assert row["rank"] == 1 + sum(1 for other in ordered if other > total), name
        assert row["penalties"] == chombo_points[name], name
        assert row["sessions"] == sessions[name], name
        assert row["table_points"] is None
