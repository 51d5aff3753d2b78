"""Liability (pao) and abortive draws in the archive: a riichi win's ``liable`` player key (on a tsumo, on
a winner of a ron) and a draw's ``abortive`` go through import and export unchanged, and the imported
table pays as the rules say (tests/rules/test_riichi_liability.py has the figures)."""

from __future__ import annotations

import pytest

from rankings.archive import archive_export, archive_import
from scoring.models import Hand, SeatSummary
from scoring.rules.base import RuleError
from tests.archive.conftest import load

pytestmark = pytest.mark.django_db

#: session 1, table 1 seats p1 (East), p2, p3, p4 in both fixtures
LIABILITY_HANDS = [
    {"result": "draw", "tenpai": ["p1"], "riichi": []},
    # p1 (dealer) big three dragons on p2's discard, p3 fed the third dragon set: 24000 each, p2 the counter
    {"result": "ron", "loser": "p2", "winners": [{"player": "p1", "han": 13, "liable": "p3"}], "riichi": []},
    # p4 big four winds by self-draw, p2 fed the fourth wind set: p2 pays everything (two counters)
    {"result": "tsumo", "winner": "p4", "han": 13, "liable": "p2", "riichi": ["p3"]},
]


def _with_hands(ruleset: str, hands: list) -> dict:
    document = load(ruleset)
    table = document["sessions"][0]["tables"][0]
    assert table["seats"] == ["p1", "p2", "p3", "p4"]
    table["hands"] = hands
    return document


def _game_scores(tournament) -> list:
    rows = SeatSummary.objects.filter(tournament=tournament, session__number=1, table__number=1)
    return [r.game_score for r in rows.order_by("position")]


def test_liable_players_go_through_the_archive_and_pay_as_2025_says():
    document = _with_hands("ema-riichi-2025", LIABILITY_HANDS)
    tournament = archive_import(document=document)
    assert archive_export(tournament=tournament) == document
    stored = list(
        Hand.objects.filter(
            result__table__session__tournament=tournament,
            result__table__number=1,
            result__table__session__number=1,
        ).order_by("number")
    )
    assert stored[1].data["winners"][0]["liable"] == 2  # seats inside, player keys outside
    assert stored[2].data["liable"] == 1
    # hand 2: 48000 + 300 to p1; p2 pays 24000 + 300 (2025 §3.3.7: "only the discarder pays for any
    # counters"), p3 24000. Hand 3 (two counters): p2 alone pays 32000 + 600; p3's riichi stick to p4.
    # hand 1: only p1 tenpai, 1000 from each other player
    assert _game_scores(tournament) == [
        30000 + 3000 + 48300,
        30000 - 1000 - 24300 - 32600,
        30000 - 1000 - 24000 - 1000,
        30000 - 1000 + 32600 + 1000,
    ]


def test_abortive_draws_and_liability_go_through_the_archive_under_2008():
    hands = [
        {
            "result": "draw",
            "tenpai": ["p1", "p2", "p3", "p4"],
            "riichi": ["p1", "p2", "p3", "p4"],
            "abortive": True,
        },
        *LIABILITY_HANDS,
    ]
    document = _with_hands("ema-riichi-2008", hands)
    tournament = archive_import(document=document)
    assert archive_export(tournament=tournament) == document
    # two counters before the ron: p2 and p3 share 48000 + 600 (002 §3.3.6 "comparte el pago"); the four
    # riichi sticks of the abortive draw go to p1; three counters on the tsumo, all paid by p2
    # (the abortive draw moves no noten payment; the exhaustive one after it pays p1 1000 from each)
    assert _game_scores(tournament) == [
        30000 - 1000 + 3000 + 48600 + 4000,
        30000 - 1000 - 1000 - 24300 - 32900,
        30000 - 1000 - 1000 - 24300 - 1000,
        30000 - 1000 - 1000 + 32900 + 1000,
    ]


def test_an_archive_naming_the_winner_liable_is_refused_by_path():
    hands = [{"result": "tsumo", "winner": "p4", "han": 13, "liable": "p4", "riichi": []}]
    with pytest.raises(RuleError) as refused:
        archive_import(document=_with_hands("ema-riichi-2025", hands))
    assert refused.value.path == "sessions[0].tables[0].hands[0].liable"


def test_an_abortive_draw_is_refused_where_the_rules_have_none():
    hands = [{"result": "draw", "tenpai": [], "riichi": [], "abortive": True}]
    with pytest.raises(RuleError) as refused:
        archive_import(document=_with_hands("ema-riichi-2025", hands))
    assert refused.value.path == "sessions[0].tables[0].hands[0].abortive"
