"""Penalties recorded from the table page and the player page get the ruleset's amounts."""

import re

import pytest
from django.urls import reverse

from penalties.models import Kind, Penalty
from scoring.models import SeatSummary
from tests.scoring.test_pages_support import post, seat_session, table_url, text, version

MINUS = "\u2212"


def record(client, table, kind, **fields):
    url = reverse(
        "table-penalty", args=[table.session.tournament.slug, table.session.number, table.number, kind]
    )
    return client.post(url, {"kind": kind, **fields})


@pytest.fixture
def tables(tournament):
    return seat_session(tournament)


@pytest.mark.django_db
@pytest.mark.parametrize(("minutes", "points"), [(5, -10), (9, -10), (12, -20), (15, -20)])
def test_a_late_arrival_costs_what_mers_says(client, tournament, tables, referee, minutes, points):
    client.force_login(referee)
    response = record(client, tables[0], "late_arrival", player="p2", minutes_late=minutes)
    assert response.status_code == 302
    penalty = Penalty.objects.get(kind=Kind.LATE_ARRIVAL)
    assert penalty.points == points and not penalty.disqualifies
    page = text(client.get(response["Location"]))
    assert f"Late arrival recorded for Player2 open-2026: {MINUS}{-points}" in page
    assert f"{minutes} minutes late" in page


@pytest.mark.django_db
def test_late_past_fifteen_minutes_offers_the_substitution_at_once(client, make_tournament, director):
    tournament = make_tournament(slug="subs", director=director, substitutes=2)
    table = seat_session(tournament)[0]
    client.force_login(director)
    response = record(client, table, "late_arrival", player="p3", minutes_late=16)
    assert response.status_code == 302
    late = Penalty.objects.get(kind=Kind.LATE_ARRIVAL)
    assert late.disqualifies
    # straight to the substitution form, with the player and the reason already chosen
    assert "/penalty/replaced/" in response["Location"]
    form = client.get(response["Location"])
    page = text(form)
    assert "Player3 subs is out of this session (late past the limit). Choose the substitute" in page
    html = form.content.decode()
    assert '<option value="p3" selected>' in html
    assert 'value="late_arrival" required id="id_reason_0" checked' in html
    assert "Sub1 subs (s1) · substitute" in page
    response = client.post(
        response["Location"],
        {"kind": "replaced", "player": "p3", "substitute": "s1", "reason": "late_arrival"},
    )
    assert response.status_code == 302
    replaced = Penalty.objects.get(kind=Kind.REPLACED)
    assert replaced.substitute.key == "s1" and replaced.reason == "late_arrival"
    # the table shows who sits in the seat now, and the substitute is credited with it
    page = text(client.get(table_url(table)))
    assert re.search(r"Sub1 subs \S* ?substitute for Player3 subs", page), page  # the substitute in his seat
    post(client, table_url(table), "hand", table, result="win", winner=2, discarder=0, fan=8)
    post(client, table_url(table), "confirm", table)
    row = SeatSummary.objects.get(table=table, position=2)
    assert row.registration.key == "s1"


@pytest.mark.django_db
def test_the_foul_ladder_goes_warning_five_ten_and_restarts_next_session(client, tournament, referee):
    first = seat_session(tournament, 1)[0]
    second = seat_session(tournament, 2, keys=["p1", "p5", "p6", "p7", "p2", "p3", "p4", "p8"])[0]
    client.force_login(referee)
    for reason in ("took a tile out of turn", "discarded before drawing", "talked about the hand"):
        assert record(client, first, "foul", player="p1", reason=reason).status_code == 302
    assert record(client, second, "foul", player="p1", reason="slow discard").status_code == 302
    fouls = list(Penalty.objects.filter(kind=Kind.FOUL).order_by("sequence"))
    assert [f.points for f in fouls] == [0, -5, -10, 0]
    page = text(client.get(reverse("player-penalties", args=[tournament.slug, "p1"])))
    assert page.count("warning") >= 2 and f"{MINUS}5" in page and f"{MINUS}10" in page
    # cancelling the first foul moves the others down the ladder
    url = reverse("penalty-cancel", args=[tournament.slug, fouls[0].pk])
    assert client.post(url, {"reason": ""}).status_code == 400  # a reason is required
    assert client.post(url, {"reason": "it was the neighbour"}).status_code == 302
    assert [f.points for f in Penalty.objects.filter(kind=Kind.FOUL).order_by("sequence")] == [0, 0, -5, 0]


@pytest.mark.django_db
def test_a_persisting_foul_carries_the_count_into_the_next_session(client, tournament, referee):
    seat_session(tournament, 1)
    seat_session(tournament, 2)
    client.force_login(referee)
    url = reverse("player-penalties", args=[tournament.slug, "p1"])
    assert (
        client.post(
            url, {"kind": "foul", "session": "1", "persists": "on", "reason": "time wasting"}
        ).status_code
        == 302
    )
    assert client.post(url, {"kind": "foul", "session": "2", "reason": "slow again"}).status_code == 302
    assert [f.points for f in Penalty.objects.filter(kind=Kind.FOUL).order_by("sequence")] == [0, -5]


@pytest.mark.django_db
def test_a_false_hu_from_the_table_page_transfers_points_at_the_table(client, tournament, tables, referee):
    table = tables[0]
    client.force_login(referee)
    response = record(client, table, "false_hu", player="p4", hand_number=1)
    assert response.status_code == 400  # which kind of false Hu is required
    assert not Penalty.objects.exists()
    response = record(client, table, "false_hu", player="p4", hand_number=1, variant="invalid_hand")
    assert response.status_code == 302
    page = text(client.get(response["Location"]))
    assert f"False Hu recorded for Player4 open-2026: {MINUS}60 (pays 20 to each other player)" in page
    post(client, table_url(table), "hand", table, result="draw")
    post(client, table_url(table), "confirm", table)
    rows = list(SeatSummary.objects.filter(table=table).order_by("position"))
    assert [r.transfers for r in rows] == [20, 20, 20, -60]
    assert [r.final for r in rows] == [20, 20, 20, -60]
    # a transfer counts for the table's ranking: the offender is last
    assert rows[3].table_points == 0


@pytest.mark.django_db
def test_a_referee_decision_needs_a_reason_and_points_within_the_bounds(client, tournament, tables, referee):
    table = tables[0]
    client.force_login(referee)
    response = record(client, table, "referee", player="p2", points="-15")
    assert response.status_code == 400 and "This field is required." in text(response)
    response = record(client, table, "referee", player="p2", points="-5000", reason="slow play")
    assert response.status_code == 400
    html = response.content.decode()
    assert "points -5000 is outside the ruleset's bounds -1000 to 0" in text(response)
    assert html.rindex("outside the ruleset&#x27;s bounds") > html.index(
        'name="points"'
    )  # beside the field, and in the summary above
    assert not Penalty.objects.exists()
    assert (
        record(client, table, "referee", player="p2", points="−15", reason="deliberate slow play").status_code
        == 302
    )
    assert Penalty.objects.get().points == -15


@pytest.mark.django_db
def test_a_player_not_at_the_table_cannot_be_chosen_there(client, tournament, tables, referee):
    client.force_login(referee)
    response = record(client, tables[0], "foul", player="p5")
    assert response.status_code == 400
    assert not Penalty.objects.exists()


@pytest.mark.django_db
def test_the_penalty_list_is_newest_first_filtered_and_strikes_cancelled_ones(client, tournament, referee):
    first = seat_session(tournament, 1)[0]
    second = seat_session(tournament, 2)[0]
    client.force_login(referee)
    record(client, first, "late_arrival", player="p1", minutes_late=3)
    record(client, first, "foul", player="p2", reason="out of turn")
    record(client, second, "foul", player="p3", reason="loud")
    late = Penalty.objects.get(kind=Kind.LATE_ARRIVAL)
    client.post(reverse("penalty-cancel", args=[tournament.slug, late.pk]), {"reason": "the clock was wrong"})
    url = reverse("penalty-list", args=[tournament.slug])
    html = client.get(url).content.decode()
    html = html[html.index("newest first") :]
    assert html.index("Player3 open-2026") < html.index("Player2 open-2026") < html.index("Player1 open-2026")
    assert f'id="penalty-{late.pk}" class="cancelled"' in html
    assert "the clock was wrong" in html
    only_fouls = text(client.get(url, {"kind": "foul"})).split("newest first")[1]
    assert "Player1 open-2026" not in only_fouls and "Player2 open-2026" in only_fouls
    session_two = text(client.get(url, {"session": "2"})).split("newest first")[1]
    assert "Player3 open-2026" in session_two and "Player2 open-2026" not in session_two


@pytest.mark.django_db
def test_an_appeal_and_its_decision_are_kept_with_the_penalty(client, tournament, tables, referee):
    client.force_login(referee)
    record(client, tables[0], "referee", player="p2", points="-15", reason="slow play")
    penalty = Penalty.objects.get()
    url = reverse("penalty-appeal", args=[tournament.slug, penalty.pk])
    assert client.post(url, {"appeal": "I was waiting for the referee"}).status_code == 302
    page = text(client.get(reverse("player-penalties", args=[tournament.slug, "p2"])))
    assert "Appeal: I was waiting for the referee · not decided yet" in page
    client.post(url, {"appeal": "I was waiting for the referee", "decision": "Rejected after the session"})
    page = text(client.get(reverse("player-penalties", args=[tournament.slug, "p2"])))
    assert "Decision: Rejected after the session" in page


@pytest.mark.django_db
def test_a_disqualification_from_the_whole_tournament_needs_no_session(client, tournament, tables, director):
    client.force_login(director)
    url = reverse("player-penalties", args=[tournament.slug, "p6"])
    response = client.post(
        url, {"kind": "disqualified", "scope": "tournament", "reason": "serious misconduct"}
    )
    assert response.status_code == 302
    penalty = Penalty.objects.get()
    assert penalty.scope == "tournament" and penalty.session is None
    assert "for the tournament" in text(client.get(url))


@pytest.mark.django_db
def test_kinds_the_ruleset_has_no_amount_for_are_not_offered(client, make_tournament, director):
    tournament = make_tournament(slug="riichi-p", ruleset="ema-riichi-2016", director=director, players=4)
    table = seat_session(tournament)[0]
    client.force_login(director)
    page = client.get(table_url(table)).content.decode()
    assert (
        "/penalty/chombo/" in page and "/penalty/late_arrival/" not in page and "/penalty/foul/" not in page
    )
    assert record(client, table, "late_arrival", player="p1", minutes_late=5).status_code == 404
    # a riichi chombo at a table entered as totals is a penalty of −20000 after uma
    post(
        client,
        table_url(table),
        "totals",
        table,
        score0="40000",
        score1="30000",
        score2="30000",
        score3="20000",
    )
    assert version(table) > 1
    assert record(client, table, "chombo", player="p3").status_code == 302
    assert Penalty.objects.get().points == -20000
