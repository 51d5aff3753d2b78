"""Seats corrected after eight hands, as the phones would do it: the scorer's phone enters eight hands naming
the players, the referee finds that three players sat in each other's seats and corrects them from the table
page, the table is confirmed, and the standings are checked against figures worked out here from the hands
alone, independently of the product's scoring code: MCR (MERS) game scores and table points 4/2/1/0; EMA
riichi 2016 raw scores replayed with the real dealer order (base points, counters, riichi sticks, the noten
payments), then final = raw − 30,000 + uma (+15,000, +5,000, −5,000, −15,000; the EMA presets have no oka).

Table 1 is recorded E p1, S p2, W p3, N p4; really p3 sat East, p1 South and p2 West (p4 North)."""

from __future__ import annotations

import math
import uuid

import pytest
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from tests.scoring.test_referee_overview import publish, seat_all
from tournaments import services as tournament_services
from tournaments.models import Role

pytestmark = pytest.mark.django_db

KEYS = ("p1", "p2", "p3", "p4")
REAL = ("p3", "p1", "p2", "p4")  # E, S, W, N as really sat
WHY = "p1, p2 and p3 each sat one seat to the right of the card"
SHORT = "Time limit reached"


def phone_api(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def enter(client: APIClient, table, hands) -> int:
    version = 1
    for values in hands:
        response = client.post(
            f"/api/tables/{table.pk}/result/hands/",
            {"version": version, **values},
            format="json",
            headers={"Idempotency-Key": uuid.uuid4().hex},
        )
        assert response.status_code == 201, response.content
        version = response.json()["version"]
    return version


def correct_seats_from_the_table_page(referee, table) -> None:
    phone = Client()
    phone.force_login(referee)
    tournament = table.session.tournament
    url = reverse("table-page", args=[tournament.slug, table.session.number, table.number])
    version = phone_api(referee).get(f"/api/tables/{table.pk}/result/").json()["version"]
    fields = {f"seat{i}": key for i, key in enumerate(REAL)}
    response = phone.post(url, {"action": "seats", "version": version, "reason": WHY, **fields})
    assert response.status_code == 302, response.content.decode()[:2000]
    page = phone.get(response.url).content.decode()
    assert "the hands follow the players" in page
    # the table's history says who corrected what and why
    assert "seats corrected to E p3 S p1 W p2 N p4 (recorded E p1 S p2 W p3 N p4)" in page
    assert WHY in page


def confirm(referee, table) -> list[dict]:
    client = phone_api(referee)
    version = client.get(f"/api/tables/{table.pk}/result/").json()["version"]
    response = client.post(
        f"/api/tables/{table.pk}/result/confirm/", {"version": version, "short_reason": SHORT}, format="json"
    )
    assert response.status_code == 200, response.content
    return response.json()["summary"]


def standings(tournament) -> dict[str, dict]:
    body = APIClient().get(f"/api/tournaments/{tournament.slug}/standings/").json()
    return {row["player"]: row for row in body["standings"]}


@pytest.fixture
def staff(make_user, tournament):
    scorer = make_user("scorer-phone")
    referee = make_user("referee-phone")
    tournament_services.role_grant(tournament=tournament, user=scorer, role=Role.SCORER)
    tournament_services.role_grant(tournament=tournament, user=referee, role=Role.REFEREE)
    return scorer, referee


def ranks(scores: dict[str, int]) -> dict[str, int]:
    """Place of each player (0 first); the journeys' games have no ties."""
    order = sorted(scores, key=lambda k: -scores[k])
    assert len(set(scores.values())) == len(scores)
    return {k: order.index(k) for k in scores}


# -- MCR ------------------------------------------------------------------------------------------------

# (winner, discarder or None for self-drawn, fan)
MCR_TABLE_1 = [
    ("p1", "p3", 8),
    ("p2", None, 10),
    ("p3", "p4", 12),
    ("p4", "p1", 9),
    ("p1", None, 16),
    ("p2", "p3", 24),
    ("p3", None, 8),
    ("p4", "p2", 11),
]
MCR_TABLE_2 = [("p5", "p6", 8), ("p7", None, 12)]


def mcr_game(hands, keys) -> dict[str, int]:
    """MCR payments (Green Book): on a discard the discarder pays 8 + fan and the other two 8; self-drawn,
    each of the three pays 8 + fan."""
    score = dict.fromkeys(keys, 0)
    for winner, discarder, fan in hands:
        for other in keys:
            if other != winner:
                pays = 8 + fan if discarder in (None, other) else 8
                score[other] -= pays
                score[winner] += pays
    return score


def mcr_body(winner, discarder, fan) -> dict:
    return {"result": "win", "winner": winner, "discarder": discarder, "fan": fan}


def test_mcr_seats_corrected_after_eight_hands_and_the_standings_follow(tournament, staff):
    scorer, referee = staff
    table, other = seat_all(tournament)
    publish(tournament, 1)
    enter(phone_api(scorer), table, [mcr_body(*h) for h in MCR_TABLE_1])
    enter(phone_api(scorer), other, [mcr_body(*h) for h in MCR_TABLE_2])
    correct_seats_from_the_table_page(referee, table)
    summary = confirm(referee, table)
    confirm(referee, other)

    # the seats are the real ones, and each player keeps the hands he played
    assert [(row["wind"], row["player"]) for row in summary] == list(zip("ESWN", REAL, strict=True))
    hands = phone_api(referee).get(f"/api/tables/{table.pk}/result/").json()["hands"]
    assert [(h["hand"]["winner"], h["hand"]["discarder"]) for h in hands] == [
        (w, d) for w, d, _ in MCR_TABLE_1
    ]

    expected = mcr_game(MCR_TABLE_1, KEYS) | mcr_game(MCR_TABLE_2, ("p5", "p6", "p7", "p8"))
    points = {}
    for keys in (KEYS, ("p5", "p6", "p7", "p8")):
        place = ranks({k: expected[k] for k in keys})
        points |= {k: (4, 2, 1, 0)[place[k]] for k in keys}
    rows = standings(tournament)
    assert {k: (r["table_points"], r["score"]) for k, r in rows.items()} == {
        k: (points[k], expected[k]) for k in expected
    }
    assert [r["player"] for r in sorted(rows.values(), key=lambda r: r["rank"])][:2] == ["p7", "p1"]


# -- EMA riichi 2016 ---------------------------------------------------------------------------------------

START, STICK, HONBA_RON, HONBA_TSUMO, NOTEN = 30000, 1000, 300, 100, 3000
UMA = (15000, 5000, -5000, -15000)

# (result, details, riichi declared); players by key
RIICHI_TABLE_1 = [
    ("ron", {"winner": "p1", "loser": "p2", "han": 2, "fu": 30}, ["p1"]),
    ("tsumo", {"winner": "p1", "han": 3, "fu": 40}, []),
    ("draw", {"tenpai": ["p2", "p4"]}, ["p4"]),
    ("ron", {"winner": "p3", "loser": "p4", "han": 1, "fu": 40}, []),
    ("ron", {"winner": "p4", "loser": "p1", "han": 4, "fu": 30}, ["p1"]),
    ("tsumo", {"winner": "p2", "han": 2, "fu": 20}, []),
    ("draw", {"tenpai": ["p3"]}, []),
    ("ron", {"winner": "p1", "loser": "p3", "han": 3, "fu": 30}, ["p1", "p2"]),
]
RIICHI_TABLE_2 = [
    ("ron", {"winner": "p6", "loser": "p7", "han": 2, "fu": 30}, []),
    ("tsumo", {"winner": "p8", "han": 2, "fu": 30}, []),
]


def up100(value: float) -> int:
    return math.ceil(value / 100) * 100


def base_points(han: int, fu: int) -> int:
    """Below mangan: fu × 2^(2 + han), at most 2,000 (mangan)."""
    return min(fu * 2 ** (2 + han), 2000) if han < 5 else 2000


def riichi_game(hands, seats) -> dict[str, int]:
    """The raw scores of the game played at ``seats`` (E, S, W, N): the dealer starts East and passes on
    when he neither wins nor is tenpai at a draw; counters grow on a draw or the dealer's win."""
    score = dict.fromkeys(seats, START)
    dealer, honba, sticks = 0, 0, 0
    for result, detail, riichi in hands:
        for player in riichi:
            score[player] -= STICK
            sticks += 1
        east = seats[dealer]
        if result == "draw":
            tenpai = detail["tenpai"]
            if 0 < len(tenpai) < 4:
                for player in seats:
                    score[player] += NOTEN // len(tenpai) if player in tenpai else -NOTEN // (4 - len(tenpai))
            stays = east in tenpai
            honba += 1
        else:
            winner, base = detail["winner"], base_points(detail["han"], detail["fu"])
            if result == "ron":
                paid = up100(base * (6 if winner == east else 4)) + honba * HONBA_RON
                score[detail["loser"]] -= paid
                score[winner] += paid
            else:
                for player in seats:
                    if player != winner:
                        paid = up100(base * (2 if east in (winner, player) else 1)) + honba * HONBA_TSUMO
                        score[player] -= paid
                        score[winner] += paid
            score[winner] += sticks * STICK
            sticks = 0
            stays = winner == east
            honba = honba + 1 if stays else 0
        dealer = dealer if stays else (dealer + 1) % 4
    if sticks:  # left on the table at the end: to the first
        first = max(seats, key=lambda k: score[k])
        score[first] += sticks * STICK
    assert sum(score.values()) == 4 * START
    return score


def riichi_body(result, detail, riichi) -> dict:
    body = {"result": result, "riichi": riichi}
    if result == "ron":
        body |= {"loser": detail["loser"], "winners": [{"player": detail["winner"], **_value(detail)}]}
    elif result == "tsumo":
        body |= {"winner": detail["winner"], **_value(detail)}
    else:
        body |= {"tenpai": detail["tenpai"]}
    return body


def _value(detail) -> dict:
    return {"han": detail["han"], "fu": detail["fu"]}


def finals(raw: dict[str, int]) -> dict[str, int]:
    place = ranks(raw)
    return {k: raw[k] - START + UMA[place[k]] for k in raw}


def test_riichi_seats_corrected_after_eight_hands_the_dealer_follows_and_the_standings_follow(
    make_tournament, make_user
):
    director = make_user("riichi-director")
    tournament = make_tournament(slug="riichi-seats", ruleset="ema-riichi-2016", director=director)
    scorer = make_user("riichi-scorer")
    referee = make_user("riichi-referee")
    tournament_services.role_grant(tournament=tournament, user=scorer, role=Role.SCORER)
    tournament_services.role_grant(tournament=tournament, user=referee, role=Role.REFEREE)
    table, other = seat_all(tournament)
    publish(tournament, 1)
    enter(phone_api(scorer), table, [riichi_body(*h) for h in RIICHI_TABLE_1])
    enter(phone_api(scorer), other, [riichi_body(*h) for h in RIICHI_TABLE_2])
    # as entered (p1 dealing first), the game is not the one played
    as_recorded = riichi_game(RIICHI_TABLE_1, KEYS)
    entered = phone_api(referee).get(f"/api/tables/{table.pk}/result/").json()
    assert dict(zip(KEYS, entered["scores"], strict=True)) == as_recorded

    correct_seats_from_the_table_page(referee, table)
    played = riichi_game(RIICHI_TABLE_1, REAL)
    assert played != as_recorded  # p3 dealt first: the winds and the dealer order changed the payments
    replayed = phone_api(referee).get(f"/api/tables/{table.pk}/result/").json()
    assert dict(zip(REAL, replayed["scores"], strict=True)) == played
    summary = confirm(referee, table)
    confirm(referee, other)

    rows = {row["player"]: row for row in summary}
    expected = finals(played) | finals(riichi_game(RIICHI_TABLE_2, ("p5", "p6", "p7", "p8")))
    assert {k: rows[k]["final"] for k in KEYS} == {k: expected[k] for k in KEYS}
    seen = standings(tournament)
    assert {k: r["score"] for k, r in seen.items()} == expected
    assert max(expected, key=expected.get) == next(r for r in seen.values() if r["rank"] == 1)["player"]
