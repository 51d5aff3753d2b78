"""Labels that say the state the pages are in: the dashboard's session header beside its tables, the home
page once the tournament is over and while a session is played, the player page's footnote only under a
starred seat, and the MERS rule that penalties do not change a table's order, said where it surprises."""

from __future__ import annotations

import pytest

from penalties.services import penalty_record
from rankings.standings.selectors import standings_document, standings_lines
from rankings.standings.services import standings_refresh
from tests.rankings.test_standings_pages import _clean_cache, confirm, reg, seat  # noqa: F401
from tournaments.models import Session, Tournament
from tournaments.organising import services as organising_services
from tournaments.permissions import actor_for

pytestmark = pytest.mark.django_db

TABLES = [["p1", "p2", "p3", "p4"], ["p5", "p6", "p7", "p8"]]


def page(client, url: str) -> str:
    response = client.get(url)
    assert response.status_code == 200, url
    return response.content.decode()


def test_the_dashboard_header_follows_its_tables(client, tournament, director):
    tables = seat(tournament, 1, TABLES)
    client.force_login(director)
    confirm(tables[0], [10, 5, -5, -10], director)
    html = page(client, f"/t/{tournament.slug}/director/")
    assert "Session 1: tables not confirmed yet" in html and "Table 2" in html
    confirm(tables[1], [0, 0, 0, 0], director)
    html = page(client, f"/t/{tournament.slug}/director/")
    assert "All 2 tables are confirmed." in html
    assert "Session 1: every table confirmed" in html and "not confirmed yet" not in html


def test_the_home_page_says_the_session_in_play_and_the_end_of_the_tournament(client, tournament, director):
    tables = seat(tournament, 1, TABLES)
    html = page(client, f"/t/{tournament.slug}/")
    assert "Session in play" in html and "Next session" not in html
    for table in tables:
        confirm(table, [10, 5, -5, -10], director)
    Session.objects.filter(tournament=tournament).update(status=Session.Status.FINISHED)
    Tournament.objects.filter(pk=tournament.pk).update(status=Tournament.Status.RUNNING)
    organising_services.tournament_finish(tournament=tournament)
    html = page(client, f"/t/{tournament.slug}/?name=Player1")
    assert "The tournament is over: no session is left to play." in html
    assert "The seating of the next session is not published yet" not in html
    assert "Next session" not in html and "Session in play" not in html


def test_the_home_page_before_a_session_is_played(client, tournament):
    seat(tournament, 1, TABLES, publish=False, status="seated")
    html = page(client, f"/t/{tournament.slug}/?name=Player1")
    assert "Next session" in html and "The seating of the next session is not published yet." in html


def test_the_table_points_footnote_and_the_mers_note(client, tournament, director, referee):
    """The issue's case: a player on −29 with 0 table points beside one on −43 with 1. Under MERS the
    table ranks by the game before penalties: the page says so where a penalty makes it surprising."""
    tables = seat(tournament, 1, TABLES)
    player_page = f"/t/{tournament.slug}/p/p1/"
    confirm(tables[0], [-3, 10, 22, -29], director)
    confirm(tables[1], [0, 0, 0, 0], director)
    standings_refresh(tournament_id=tournament.pk)
    html = page(client, player_page)
    assert "no table points for this seat" not in html  # no starred row, no footnote
    assert 'id="table-order-note"' not in html  # no penalty at the player's tables: nothing to explain
    penalty_record(
        tournament=tournament, registration=reg(tournament, "p1"), kind="referee", points=-40,
        reason="slow play", session=tables[0].session, actor=actor_for(user=referee, table=tables[0]),
    )  # fmt: skip
    standings_refresh(tournament_id=tournament.pk)
    html = page(client, player_page)
    assert "Penalties do not change the order at a table" in html
    standings = page(client, f"/t/{tournament.slug}/standings/")
    assert "Penalties do not change the order at a table" in standings
    # and the order is what the note says: p1 (−43) keeps 1 table point above p4 (−29) with 0
    document = standings_document(tournament=tournament)
    rows = {r.player: r for r in standings_lines(tournament=tournament, document=document)}
    assert str(rows["p1"].table_points) == "1" and str(rows["p4"].table_points) == "0"
    assert str(rows["p1"].score).replace("\u2212", "-") == "-43"


def test_no_mers_note_where_penalties_change_the_order(client, make_tournament, director):
    tournament = make_tournament(
        slug="ranked-after", director=director, rules={"deductions_before_ranking": True}
    )
    html = page(client, f"/t/{tournament.slug}/standings/")
    assert "Penalties do not change the order" not in html
