"""A whole MCR session entered through the table page by a scorer, confirmed by a referee."""

from fractions import Fraction

import pytest

from scoring.models import SeatSummary, TableResult
from tests.scoring.test_pages_support import (
    m,
    post,
    seat_scores,
    seat_session,
    table_url,
    text,
    version,
)

# (winner, discarder or None for self-drawn, fan) or None for a draw; seats E S W N = 0 1 2 3
HANDS = [
    (0, 2, 8),
    (1, None, 10),
    None,
    (3, 0, 12),
    (2, 1, 8),
    (2, None, 16),
    (0, 3, 24),
    None,
    (1, 0, 9),
    (3, None, 8),
    (0, 1, 11),
    (2, 3, 8),
    None,
    (1, 2, 32),
    (3, 1, 13),
    (0, None, 8),
]


def mers(winner, discarder, fan):
    """RULES.md: on a discard the discarder pays 8+F and the others 8; self-drawn each pays 8+F."""
    deltas = [0, 0, 0, 0]
    for seat in range(4):
        if seat != winner:
            deltas[seat] = -(8 + fan) if discarder is None or seat == discarder else -8
    deltas[winner] = -sum(deltas)
    return deltas


def hand_fields(hand):
    if hand is None:
        return {"result": "draw"}
    winner, discarder, fan = hand
    return {
        "result": "win",
        "winner": winner,
        "discarder": "self" if discarder is None else discarder,
        "fan": fan,
    }


@pytest.mark.django_db
def test_a_scorer_enters_sixteen_hands_and_a_referee_confirms_the_table_points(
    client, tournament, scorer, referee
):
    table = seat_session(tournament)[0]
    url = table_url(table)
    client.force_login(scorer)
    running = [0, 0, 0, 0]
    for number, hand in enumerate(HANDS, start=1):
        response = post(client, url, "hand", table, **hand_fields(hand))
        assert response.status_code == 302, text(client.get(url))
        if hand is not None:
            running = [a + b for a, b in zip(running, mers(*hand), strict=True)]
        page = client.get(url)
        assert seat_scores(page) == [m(v) for v in running], f"after hand {number}"
    assert sum(running) == 0
    page = text(client.get(url))
    assert "Game over." in page  # 16 hands: the form to add a hand is gone
    assert "Save hand 17" not in page
    # a 17th hand is refused by the rules, and nothing is saved
    response = post(client, url, "hand", table, result="draw")
    assert response.status_code == 400
    assert "at most 16 hands" in text(response)
    assert table.result.hands.count() == 16

    # the scorer submits but cannot confirm
    assert post(client, url, "submit", table).status_code == 302
    response = post(client, url, "confirm", table)
    assert response.status_code == 403
    assert TableResult.objects.get(table=table).status == TableResult.Status.SUBMITTED

    client.force_login(referee)
    assert post(client, url, "confirm", table).status_code == 302
    rows = list(SeatSummary.objects.filter(table=table).order_by("position"))
    assert [r.game_score for r in rows] == running
    # 4/2/1/0 by rank of the session scores (RULES.md)
    order = sorted(range(4), key=lambda s: -running[s])
    expected = {order[0]: 4, order[1]: 2, order[2]: 1, order[3]: 0}
    assert [r.table_points for r in rows] == [Fraction(expected[s]) for s in range(4)]
    assert sum(r.table_points for r in rows) == 7
    page = text(client.get(url))
    assert "Confirmed." in page
    assert "Session result" in page


@pytest.mark.django_db
def test_the_page_shows_each_hand_with_names_and_the_running_scores(client, tournament, scorer):
    table = seat_session(tournament)[0]
    url = table_url(table)
    client.force_login(scorer)
    post(client, url, "hand", table, result="win", winner=0, discarder=2, fan=8)
    post(client, url, "hand", table, result="win", winner=1, discarder="self", fan=10)
    page = text(client.get(url))
    # players by wind, the hands with names and the deltas after each hand
    assert "Player1 o." in page and "Player3 o." in page
    assert "Player1 o. wins on Player3 o.'s discard, 8 fan" in page
    assert "Player2 o. self-drawn, 10 fan" in page
    assert "+32" in page and f"{m(-16)}" in page
    assert "+54" in page
    assert "Next: hand 3" in page


@pytest.mark.django_db
def test_a_table_confirmed_early_says_how_many_hands_were_played_not_which_comes_next(
    client, tournament, scorer, referee
):
    table = seat_session(tournament)[0]
    url = table_url(table)
    client.force_login(scorer)
    post(client, url, "hand", table, result="win", winner=0, discarder=2, fan=8)
    post(client, url, "hand", table, result="win", winner=1, discarder="self", fan=10)
    post(client, url, "submit", table)
    client.force_login(referee)
    post(client, url, "confirm", table, reason="time limit reached")
    page = text(client.get(url))
    assert "Confirmed." in page
    assert "Next: hand" not in page and "2 hands played." in page


@pytest.mark.django_db
def test_an_mcr_hand_below_eight_fan_is_refused_next_to_the_fan_and_nothing_is_saved(
    client, tournament, scorer
):
    table = seat_session(tournament)[0]
    url = table_url(table)
    client.force_login(scorer)
    response = post(client, url, "hand", table, result="win", winner=0, discarder=2, fan=6)
    assert response.status_code == 400
    html = response.content.decode()
    assert "fan 6 is below the MCR minimum of 8" in html
    # the message sits right after the fan input
    fan_at = html.index('name="fan"')
    assert (
        html.rindex("fan 6 is below the MCR minimum of 8") > fan_at
    )  # beside the field, and in the summary above
    assert html.index("fan 6 is below the MCR minimum of 8") - fan_at < 400
    assert not TableResult.objects.filter(table=table, hands__isnull=False).exists()
    # the entered values stay in the form
    assert 'value="6"' in html


@pytest.mark.django_db
def test_rule_errors_speak_the_readers_language_and_show_values_as_typed(client, tournament, scorer):
    table = seat_session(tournament)[0]
    url = table_url(table)
    client.force_login(scorer)
    data = {
        "action": "hand",
        "version": version(table),
        "result": "win",
        "winner": 0,
        "discarder": 2,
        "fan": 6,
    }
    html = client.post(url, data, HTTP_ACCEPT_LANGUAGE="es").content.decode()
    assert "6 fan está por debajo del mínimo MCR de 8 (las flores no cuentan)" in html
    api = client.post(
        f"/api/tables/{table.pk}/result/hands/",
        {"result": "win", "winner": "p1", "discarder": "p3", "fan": 10.5, "version": version(table)},
        content_type="application/json",
        HTTP_ACCEPT_LANGUAGE="es",
    )
    assert api.status_code == 400
    assert api.json()["fan"] == ["fan debe ser un número entero, no 10.5"]


@pytest.mark.django_db
def test_a_win_without_a_discarder_is_refused_by_the_form(client, tournament, scorer):
    table = seat_session(tournament)[0]
    client.force_login(scorer)
    response = post(client, table_url(table), "hand", table, result="win", winner=0, discarder="", fan=8)
    assert response.status_code == 400
    assert "This field is required for this result." in text(response)
    assert not TableResult.objects.filter(table=table, hands__isnull=False).exists()


@pytest.mark.django_db
def test_totals_from_the_paper_sheet_must_balance_unless_a_referee_gives_the_reason(
    client, tournament, scorer, referee
):
    table = seat_session(tournament)[0]
    url = table_url(table)
    client.force_login(scorer)
    response = post(client, url, "totals", table, score0="40", score1="-10", score2="-10", score3="-30")
    assert response.status_code == 400
    assert "MCR totals sum to -10, not 0" in text(response)
    assert not TableResult.objects.filter(table=table, scores__isnull=False).exists()
    # a scorer cannot give an imbalance reason: the field is not even there
    assert 'name="imbalance_reason"' not in response.content.decode()
    client.force_login(referee)
    page = client.get(url).content.decode()
    assert 'name="imbalance_reason"' in page
    response = post(
        client,
        url,
        "totals",
        table,
        score0="40",
        score1="-10",
        score2="-10",
        score3="-30",
        imbalance_reason="10 points deducted at the table for a late arrival",
    )
    assert response.status_code == 302
    result = TableResult.objects.get(table=table)
    assert result.scores == [40, -10, -10, -30]
    page = text(client.get(url))
    assert "Imbalance accepted by a referee: 10 points deducted at the table" in page
    assert post(client, url, "confirm", table).status_code == 302
    rows = list(SeatSummary.objects.filter(table=table).order_by("position"))
    # +50/−10/−10/−30 → 4/1.5/1.5/0 (RULES.md), here 40/−10/−10/−30
    assert [r.table_points for r in rows] == [4, Fraction(3, 2), Fraction(3, 2), 0]


@pytest.mark.django_db
def test_undo_removes_the_last_hand_only(client, tournament, scorer):
    table = seat_session(tournament)[0]
    url = table_url(table)
    client.force_login(scorer)
    post(client, url, "hand", table, result="win", winner=0, discarder=2, fan=8)
    post(client, url, "hand", table, result="win", winner=1, discarder="self", fan=10)
    assert post(client, url, "undo", table, reason="wrong winner").status_code == 302
    hands = list(table.result.hands.order_by("number"))
    assert [h.number for h in hands] == [1]
    assert seat_scores(client.get(url)) == ["32", m(-8), m(-16), m(-8)]


@pytest.mark.django_db
def test_the_table_page_and_its_forms_render_in_spanish(client, tournament, scorer):
    table = seat_session(tournament)[0]
    client.force_login(scorer)
    post(client, table_url(table), "hand", table, result="win", winner=0, discarder=2, fan=8)
    response = client.get(table_url(table), HTTP_ACCEPT_LANGUAGE="es")
    assert response.status_code == 200
    assert '<html lang="es">' in response.content.decode()
    refused = client.post(
        table_url(table),
        {
            "action": "hand",
            "version": table.result.version,
            "result": "win",
            "winner": 1,
            "discarder": 3,
            "fan": 7,
        },
        HTTP_ACCEPT_LANGUAGE="es",
    )
    assert refused.status_code == 400
