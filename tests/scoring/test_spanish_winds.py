"""A Spanish page names the winds one way everywhere (E, S, O, N): the scoreboard, the drop-downs of the
hand form and of a penalty, the hands table; and a penalty's message agrees with "penalización"."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from tests.scoring.test_referee_overview import hand, publish, seat_all

pytestmark = pytest.mark.django_db

ES = {"Accept-Language": "es"}


@pytest.fixture
def tournament(make_tournament, director):
    return make_tournament(director=director, players=4)


def test_a_spanish_table_page_says_o_for_west_everywhere(client, referee, scorer, tournament, api_as):
    (table,) = seat_all(tournament)
    publish(tournament, 1)
    hand(api_as(scorer), table, 1, result="win", winner="p3", discarder="p1", fan=8)
    client.force_login(referee)
    html = client.get(reverse("table-page", args=[tournament.slug, 1, 1]), headers=ES).content.decode()
    seats = html.split('class="seats"', 1)[1].split("</div>\n</div>", 1)[0]
    assert re.findall(r'<span class="wind"[^>]*>(\w)</span>', seats) == ["E", "S", "O", "N"]
    options = re.findall(r"<option value=\"\d\"[^>]*>(\w) · ", html)
    assert options and set(options) == {"E", "S", "O", "N"}  # the hand form's drop-downs
    assert "W · " not in html
    penalty = client.get(reverse("table-penalty", args=[tournament.slug, 1, 1, "foul"]), headers=ES)
    text = penalty.content.decode()
    assert "O · " in text and "W · " not in text


def test_a_recorded_penalty_is_said_in_the_feminine(client, referee, tournament):
    seat_all(tournament)
    publish(tournament, 1)
    client.force_login(referee)
    url = reverse("table-penalty", args=[tournament.slug, 1, 1, "late_arrival"])
    page = client.get(url, headers=ES)
    assert page.status_code == 200
    data = {"kind": "late_arrival", "player": "p1", "minutes_late": "3", "reason": "tarde"}
    response = client.post(url, data, headers=ES, follow=True)
    text = response.content.decode()
    assert "Penalización registrada para" in text
    assert "registrado para" not in text
