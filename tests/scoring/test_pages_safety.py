"""Who may write at a table, and what happens when two people write at once."""

import pytest
from django.urls import reverse

from scoring.models import Hand, SeatSummary, TableResult
from tests.scoring.test_pages_support import (
    link_url,
    post,
    seat_scores,
    seat_session,
    table_url,
    text,
    version,
)
from tournaments import services
from tournaments.models import Role

WIN = {"result": "win", "winner": 0, "discarder": 2, "fan": 8}


def _confirmed(client, table, referee):
    client.force_login(referee)
    post(client, table_url(table), "hand", table, **WIN)
    post(client, table_url(table), "confirm", table)
    client.logout()
    assert TableResult.objects.get(table=table).status == TableResult.Status.CONFIRMED


@pytest.mark.django_db
def test_a_stale_version_gives_409_with_the_current_table_and_overwrites_nothing(
    client, tournament, scorer, referee
):
    table = seat_session(tournament)[0]
    url = table_url(table)
    client.force_login(scorer)
    seen = version(table)  # both scorers loaded the page at this version
    assert client.post(url, {"action": "hand", "version": seen, **WIN}).status_code == 302
    other = {"result": "win", "winner": 1, "discarder": "self", "fan": 10}
    response = client.post(url, {"action": "hand", "version": seen, **other})
    assert response.status_code == 409
    page = text(response)
    assert "Someone else changed this table while you were entering." in page
    assert "Nothing was saved." in page
    # the current state is shown (the first hand), the second entry is not saved
    assert "Player1 o. wins on Player3 o.'s discard, 8 fan" in page
    assert seat_scores(response) == ["32", "\u22128", "\u221216", "\u22128"]
    assert Hand.objects.filter(result__table=table).count() == 1
    # the entry is kept in the form, now carrying the current version, ready to be sent again on purpose
    html = response.content.decode()
    assert f'name="version" value="{version(table)}"' in html
    assert 'name="fan" value="10"' in html
    # the same for a stale submit, confirm and undo
    for action in ("submit", "undo"):
        assert client.post(url, {"action": action, "version": seen}).status_code == 409
    client.force_login(referee)
    assert client.post(url, {"action": "confirm", "version": seen}).status_code == 409
    assert TableResult.objects.get(table=table).status == TableResult.Status.DRAFT
    assert Hand.objects.filter(result__table=table).count() == 1


@pytest.mark.django_db
def test_a_stale_hand_correction_gives_409_and_keeps_the_other_correction(client, tournament, referee):
    table = seat_session(tournament)[0]
    client.force_login(referee)
    post(client, table_url(table), "hand", table, **WIN)
    seen = version(table)
    edit = table_url(table) + "hand/1/"
    first = {"action": "hand", "version": seen, **WIN, "fan": 9, "reason": "fan miscounted"}
    assert client.post(edit, first).status_code == 302
    second = {"action": "hand", "version": seen, **WIN, "fan": 12, "reason": "other sheet"}
    response = client.post(edit, second)
    assert response.status_code == 409
    assert "This table changed since this form was opened" in text(response) and "Nothing was saved" in text(
        response
    )
    assert Hand.objects.get(result__table=table).data["fan"] == 9


@pytest.mark.django_db
def test_the_private_link_opens_only_its_own_table_and_stops_writing_once_confirmed(
    client, tournament, referee
):
    first, second = seat_session(tournament)
    # no account needed: the link's page and its forms
    page = client.get(link_url(first))
    assert page.status_code == 200
    assert "Hand 1" in text(page)
    assert post(client, link_url(first), "hand", first, **WIN).status_code == 302
    assert Hand.objects.filter(result__table=first).count() == 1
    assert not Hand.objects.filter(result__table=second).exists()
    # the table's own pages by number stay closed to the link
    assert client.get(table_url(second)).status_code == 302  # to the login page
    assert post(client, table_url(second), "hand", second, **WIN).status_code == 302
    assert not Hand.objects.filter(result__table=second).exists()
    assert client.get(reverse("table-link", args=["not-a-key"])).status_code == 404
    # a referee confirms: the link shows the result, read-only
    client.force_login(referee)
    post(client, table_url(first), "confirm", first)
    client.logout()
    response = client.get(link_url(first))
    assert response.status_code == 200
    html = response.content.decode()
    assert "Confirmed." in text(response)
    assert 'name="action"' not in html  # no forms at all
    assert "edit</a>" not in html
    response = post(client, link_url(first), "hand", first, **WIN)
    assert response.status_code == 400
    assert "this table is confirmed; a referee must reopen it" in text(response)
    assert client.get(link_url(first) + "hand/1/").status_code == 403
    response = client.post(
        link_url(first) + "hand/1/", {"version": version(first), **WIN, "fan": 20, "reason": "x"}
    )
    assert response.status_code == 403
    assert Hand.objects.filter(result__table=first).count() == 1
    assert Hand.objects.get(result__table=first).data["fan"] == 8


@pytest.mark.django_db
def test_a_scorer_cannot_confirm_reopen_edit_a_confirmed_table_or_log_penalties(
    client, tournament, scorer, referee
):
    table = seat_session(tournament)[0]
    _confirmed(client, table, referee)
    url = table_url(table)
    client.force_login(scorer)
    page = client.get(url)
    assert page.status_code == 200
    html = page.content.decode()
    assert 'value="reopen"' not in html and 'value="confirm"' not in html
    assert "History" not in text(page)
    assert "Record a penalty" not in text(page)
    assert post(client, url, "reopen", table, reason="I want to").status_code == 403
    assert client.get(url + "hand/1/").status_code == 403
    response = post(client, url, "hand", table, **WIN)
    assert response.status_code == 400
    assert "this table is confirmed; a referee must reopen it" in text(response)
    response = post(client, url, "totals", table, score0="1", score1="-1", score2="0", score3="0")
    assert response.status_code == 400
    penalty = reverse("table-penalty", args=[tournament.slug, 1, table.number, "foul"])
    assert client.get(penalty).status_code == 403
    assert client.post(penalty, {"kind": "foul", "player": "p1"}).status_code == 403
    assert client.get(reverse("penalty-list", args=[tournament.slug])).status_code == 403
    assert TableResult.objects.get(table=table).status == TableResult.Status.CONFIRMED
    assert Hand.objects.filter(result__table=table).count() == 1
    assert not tournament.penalties.exists()


@pytest.mark.django_db
def test_a_referee_of_another_tournament_cannot_write_here(client, tournament, make_tournament, make_user):
    table = seat_session(tournament)[0]
    other = make_tournament(slug="other-open")
    stranger = make_user("stranger")
    services.role_grant(tournament=other, user=stranger, role=Role.REFEREE)
    client.force_login(stranger)
    url = table_url(table)
    assert client.get(url).status_code == 403
    assert post(client, url, "hand", table, **WIN).status_code == 403
    assert client.get(reverse("session-tables", args=[tournament.slug, 1])).status_code == 403
    penalty = reverse("table-penalty", args=[tournament.slug, 1, table.number, "foul"])
    assert client.post(penalty, {"kind": "foul", "player": "p1"}).status_code == 403
    assert client.get(reverse("player-penalties", args=[tournament.slug, "p1"])).status_code == 403
    assert not Hand.objects.exists()
    assert not tournament.penalties.exists()


@pytest.mark.django_db
def test_players_without_a_role_cannot_write(client, tournament, make_user):
    table = seat_session(tournament)[0]
    url = table_url(table)
    # anonymous: sent to the login page, nothing saved
    response = post(client, url, "hand", table, **WIN)
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    assert (
        client.post(reverse("session-tables", args=[tournament.slug, 1]), {"table": table.pk}).status_code
        == 302
    )
    penalty = reverse("table-penalty", args=[tournament.slug, 1, table.number, "foul"])
    assert client.post(penalty, {"kind": "foul", "player": "p1"}).status_code == 302
    # a logged-in player without a role in the tournament
    client.force_login(make_user("player"))
    assert post(client, url, "hand", table, **WIN).status_code == 403
    assert post(client, url, "confirm", table).status_code == 403
    assert not Hand.objects.exists()
    assert not TableResult.objects.filter(status="confirmed").exists()
    assert not tournament.penalties.exists()


@pytest.mark.django_db
def test_a_referee_corrects_a_confirmed_hand_with_a_reason_and_the_history_shows_it(
    client, tournament, referee, director
):
    table = seat_session(tournament)[0]
    _confirmed(client, table, referee)
    url = table_url(table)
    client.force_login(referee)
    edit = url + "hand/1/"
    form = client.get(edit)
    assert form.status_code == 200
    assert 'name="fan" value="8"' in form.content.decode()  # the form starts from the hand as entered
    # a reason is required
    response = client.post(edit, {"action": "hand", "version": version(table), **WIN, "fan": 12})
    assert response.status_code == 400
    assert Hand.objects.get(result__table=table).data["fan"] == 8
    response = client.post(
        edit,
        {"action": "hand", "version": version(table), **WIN, "fan": 12, "reason": "the sheet says 12 fan"},
    )
    assert response.status_code == 302
    assert Hand.objects.get(result__table=table).data["fan"] == 12
    # the confirmed summary follows the correction
    assert [r.game_score for r in SeatSummary.objects.filter(table=table).order_by("position")] == [
        36,
        -8,
        -20,
        -8,
    ]
    client.force_login(director)
    page = text(client.get(url))
    assert "Hand 1 changed" in page
    assert (
        "Player1 o. wins on Player3 o.'s discard, 8 fan → Player1 o. wins on Player3 o.'s discard, 12 fan"
        in page
    )
    assert "Why: the sheet says 12 fan" in page
    assert "· referee" in page  # who
    assert "Hand 1 entered" in page and "Confirmed" in page


@pytest.mark.django_db
def test_a_referee_reopens_a_confirmed_table_with_a_reason(client, tournament, referee):
    table = seat_session(tournament)[0]
    _confirmed(client, table, referee)
    client.force_login(referee)
    url = table_url(table)
    response = post(client, url, "reopen", table, reason="")
    assert response.status_code == 400
    assert TableResult.objects.get(table=table).status == TableResult.Status.CONFIRMED
    assert post(client, url, "reopen", table, reason="wrong winner in hand 1").status_code == 302
    assert TableResult.objects.get(table=table).status == TableResult.Status.SUBMITTED
    assert not SeatSummary.objects.filter(table=table).exists()
    page = text(client.get(url))
    assert "reopened: wrong winner in hand 1" in page
    assert "Confirm the table" in page


@pytest.mark.django_db
def test_the_players_confirm_with_their_own_links_when_the_tournament_says_so(
    client, make_tournament, director
):
    tournament = make_tournament(
        slug="players-confirm", director=director, settings={"players_confirm": True}
    )
    first, second = seat_session(tournament)
    client.force_login(director)
    post(client, table_url(first), "hand", first, **WIN)
    client.logout()
    players = [s.registration.player for s in first.seats.order_by("position")]

    def confirm_url(table, player):
        return reverse("table-player-confirm", args=[table.private_key, player.private_key])

    # not submitted yet
    response = client.post(confirm_url(first, players[0]), {"version": version(first)})
    assert response.status_code == 400
    assert "the table must be submitted before the players confirm it" in text(response)
    post(client, link_url(first), "submit", first)
    # a player of another table cannot confirm this one
    stranger = second.seats.first().registration.player
    assert client.get(confirm_url(first, stranger)).status_code == 403
    for i, player in enumerate(players):
        page = client.get(confirm_url(first, player))
        assert f"I, {player.full_name}, confirm this result" in text(page)
        assert client.post(confirm_url(first, player), {"version": version(first)}).status_code == 302
        status = TableResult.objects.get(table=first).status
        assert status == (TableResult.Status.CONFIRMED if i == 3 else TableResult.Status.SUBMITTED)
    assert SeatSummary.objects.filter(table=first).count() == 4
    assert "you have confirmed this result" in text(client.get(confirm_url(first, players[0])))


@pytest.mark.django_db
def test_the_referees_session_page_lists_every_table_and_confirms_submitted_ones(
    client, tournament, referee, scorer
):
    first, _second = seat_session(tournament)
    client.force_login(scorer)
    post(client, table_url(first), "hand", first, **WIN)
    post(client, table_url(first), "submit", first)
    url = reverse("session-tables", args=[tournament.slug, 1])
    page = client.get(url)
    assert page.status_code == 200
    assert "Table 1" in text(page) and "Submitted" in text(page) and "Not started" in text(page)
    assert 'name="table"' not in page.content.decode()  # no confirm buttons for a scorer
    assert client.post(url, {"table": first.pk, "version": version(first)}).status_code == 403
    client.force_login(referee)
    html = client.get(url).content.decode()
    assert html.count('name="table"') == 1  # one submitted table, one button
    stale = client.post(url, {"table": first.pk, "version": version(first) - 1})
    assert stale.status_code == 409
    assert TableResult.objects.get(table=first).status == TableResult.Status.SUBMITTED
    refused = client.post(url, {"table": first.pk, "version": version(first)})
    assert refused.status_code == 400 and "played 1 hands of the usual 16" in refused.content.decode()
    confirmed = client.post(url, {"table": first.pk, "version": version(first), "short_reason": "Time limit"})
    assert confirmed.status_code == 302
    assert TableResult.objects.get(table=first).status == TableResult.Status.CONFIRMED
    assert "1 confirmed" in text(client.get(url))
