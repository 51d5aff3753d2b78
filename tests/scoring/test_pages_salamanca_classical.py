"""Salamanca (with a liability) and classical games entered through the table page."""

import pytest

from scoring.models import SeatSummary
from tests.scoring.test_pages_support import (
    m,
    post,
    seat_scores,
    seat_session,
    table_url,
    text,
)
from tournaments import services


def _scorer(make_user, tournament):
    user = make_user(f"scorer-{tournament.slug}")
    services.role_grant(tournament=tournament, user=user, role="scorer")
    return user


@pytest.mark.django_db
def test_a_salamanca_game_with_a_liable_player(client, make_tournament, make_user, director):
    tournament = make_tournament(slug="salamanca", ruleset="salamanca", director=director, players=4)
    table = seat_session(tournament)[0]
    url = table_url(table)
    client.force_login(_scorer(make_user, tournament))
    steps = [
        # art. 36: 8 fan (x = 128, the winner gets 256) on West's discard, South liable for half:
        # South 128 + 32, West 64, North 32
        (
            {"result": "win", "winner": 0, "discarder": 2, "fan": 8, "liable1": 1, "share1": "half"},
            [256, -160, -64, -32],
        ),
        # 3 fan self-drawn: x = 16 from each
        ({"result": "win", "winner": 1, "discarder": "self", "fan": 3}, [240, -112, -80, -48]),
        ({"result": "draw"}, [240, -112, -80, -48]),
        # 0 fan on East's discard: x = 2 from the discarder, 1 from the others
        ({"result": "win", "winner": 3, "discarder": 0, "fan": 0}, [238, -113, -81, -44]),
    ]
    for fields, scores in steps:
        assert post(client, url, "hand", table, **fields).status_code == 302
        assert seat_scores(client.get(url)) == [m(s) for s in scores]
    page = text(client.get(url))
    assert "liable: Player2 s. (half)" in page
    # the dealer keeps the deal after his own win and after a draw; West deals the fifth hand
    assert "East round, Player3 s. deals" in page
    post(client, url, "submit", table)
    client.force_login(director)
    post(client, url, "confirm", table)
    rows = list(SeatSummary.objects.filter(table=table).order_by("position"))
    assert [r.final for r in rows] == [238, -113, -81, -44]
    assert all(r.table_points is None for r in rows)


@pytest.mark.django_db
def test_a_liability_that_breaks_the_articles_is_refused_beside_it(
    client, make_tournament, make_user, director
):
    tournament = make_tournament(slug="salamanca", ruleset="salamanca", director=director, players=4)
    table = seat_session(tournament)[0]
    client.force_login(_scorer(make_user, tournament))
    response = post(
        client,
        table_url(table),
        "hand",
        table,
        result="win",
        winner=0,
        discarder="self",
        fan=8,
        liable1=1,
        share1="all",
    )
    assert response.status_code == 400
    html = response.content.decode()
    assert "liable shares cover the whole payment" in html
    # shown with the liability fields, which stay open
    assert html.rindex("liable shares cover the whole payment") > html.index('name="liable1"')
    assert "<details open>" in html
    assert not table.seats.first().session.tables.filter(result__hands__isnull=False).exists()


@pytest.mark.django_db
def test_a_classical_game_settles_the_winner_and_the_losers_differences(
    client, make_tournament, make_user, director
):
    tournament = make_tournament(slug="classical", ruleset="classical", director=director, players=4)
    table = seat_session(tournament)[0]
    url = table_url(table)
    client.force_login(_scorer(make_user, tournament))
    steps = [
        # East wins 40: each pays 40, doubled with East (80 each); the losers settle their differences
        # (West 20, South 10, North 0): South −80 −10 +10, West −80 +10 +20, North −80 −20 −10
        (
            {"result": "win", "winner": 0, "value0": 40, "value1": 10, "value2": 20, "value3": 0},
            [240, -80, -50, -110],
        ),
        # South wins 30: East pays 60, West and North 30; East 8 gets 16 from West and 8 from North,
        # North 4 gets 4 from West
        (
            {"result": "win", "winner": 1, "value0": 8, "value1": 30, "value2": 0, "value3": 4},
            [204, 40, -100, -144],
        ),
        ({"result": "draw"}, [204, 40, -100, -144]),
    ]
    for fields, scores in steps:
        response = post(client, url, "hand", table, **fields)
        assert response.status_code == 302, text(response)
        assert seat_scores(client.get(url)) == [m(s) for s in scores]
    page = text(client.get(url))
    assert "Player1 c. mah jong, 40 points" in page
    # a win with a missing hand value is refused and names the field
    response = post(client, url, "hand", table, result="win", winner=2, value0=4, value1=8, value2=50)
    assert response.status_code == 400
    assert "Give every player's hand value (0 for none)." in text(response)
    post(client, url, "submit", table)
    client.force_login(director)
    post(client, url, "confirm", table)
    assert [r.final for r in SeatSummary.objects.filter(table=table).order_by("position")] == [
        204,
        40,
        -100,
        -144,
    ]
