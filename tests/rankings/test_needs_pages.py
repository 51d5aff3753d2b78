"""What each player needs in the last session: the page, the player's page, the CSV and the API, as players
and the director read them; hidden standings and private tournaments."""

from __future__ import annotations

import csv
import io

import pytest
from drf_spectacular.generators import SchemaGenerator

from tests.rankings.test_standings_pages import SESSION_1, _clean_cache, play, seat  # noqa: F401
from tournaments.models import Session
from tournaments.selectors import HIDE_SETTING
from tournaments.teams.services import team_save, team_size_set

pytestmark = pytest.mark.django_db

# After SESSION_1: p1 4 table points, p2 2, p3 1, p4 0, p5-p8 1.75 each. Session 2 seats p1 with p3, p5,
# p6 and p2 with p4, p7, p8.
SEATING_2 = [["p1", "p3", "p5", "p6"], ["p2", "p4", "p7", "p8"]]


def _before_last(tournament, referee):
    play(tournament, referee, SESSION_1)
    seat(tournament, 2, SEATING_2, status="seated")


def _cells(html: str, player: str) -> str:
    start = html.index(f'<tr data-player="{player}">')
    return html[start : html.index("</tr>", start)]


def test_the_leader_reads_what_makes_first_place_sure_and_what_keeps_it_possible(client, tournament, referee):
    _before_last(tournament, referee)
    response = client.get(f"/t/{tournament.slug}/standings/needs/")
    assert response.status_code == 200
    html = response.content.decode()
    assert "session 2" in html
    # p1 (4): a shared first of three (7/3) keeps p2 (2 + 4 = 6) below him; a plain second (2) lets p2 level;
    # a third place (1) keeps first possible (the other table sharing its points four ways)
    row = _cells(html, "p1")
    assert "sure 2.33 · from 1" in row
    assert 'title="sure with 2.33, possible from 1 (place 3)"' in row
    # p4 (0 points) cannot win: even 4 leaves him on 4, behind p1 whatever p1 does
    assert "out" in _cells(html, "p4").split("</td>")[3]
    # every ranked player has a row, in the standings' order
    assert html.count('<tr data-player="') == 8
    assert client.get(f"/t/{tournament.slug}/standings/").content.decode().count("/standings/needs/") == 1


def test_the_player_page_says_what_he_needs(client, tournament, referee):
    _before_last(tournament, referee)
    html = client.get(f"/t/{tournament.slug}/p/p1/").content.decode()
    assert "What you need in session 2" in html
    assert "sure with 2.33, possible from 1 (place 3)" in html


def test_the_csv_for_the_announcement_has_a_row_per_player(client, tournament, referee):
    _before_last(tournament, referee)
    response = client.get(f"/t/{tournament.slug}/standings/needs.csv?cut=5")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/csv")
    lines = list(csv.reader(io.StringIO(response.content.decode("utf-8-sig"))))
    assert lines[0] == ["Rank", "Player", "Table", "Place 1", "Place 2", "Place 3", "Place 5"]
    assert len(lines) == 9
    p1 = next(line for line in lines if line[1] == "Player1 open-2026")
    assert p1[2] == "1" and p1[3] == "sure with 2.33, possible from 1 (place 3)"


def test_the_api_gives_the_same_answer_with_exact_figures(client, tournament, referee):
    _before_last(tournament, referee)
    response = client.get(f"/api/tournaments/{tournament.slug}/needs/?cut=6")
    assert response.status_code == 200
    body = response.json()
    assert body["session"] == 2 and body["places"] == [1, 2, 3, 6] and body["reason"] == ""
    p1 = next(p for p in body["players"] if p["player"] == "p1")
    first = p1["places"][0]
    assert (first["status"], first["guaranteed"], first["possible"]) == ("needs", 2.33, 1)
    assert p1["table"] == 1 and p1["plays"] is True


def test_bad_parameters_are_refused_naming_the_field(client, tournament, referee):
    _before_last(tournament, referee)
    api = client.get(f"/api/tournaments/{tournament.slug}/needs/?session=abc")
    assert api.status_code == 400 and "session" in api.json()
    api = client.get(f"/api/tournaments/{tournament.slug}/needs/?session=9")
    assert api.status_code == 400 and "session" in api.json()
    api = client.get(f"/api/tournaments/{tournament.slug}/needs/?cut=2")
    assert api.status_code == 400 and "cut" in api.json()
    page = client.get(f"/t/{tournament.slug}/standings/needs/?session=9")
    assert page.status_code == 400 and "no session 9" in page.content.decode()
    assert client.get(f"/t/{tournament.slug}/standings/needs.csv?cut=x").status_code == 400


def test_before_the_seating_is_published_the_answers_hold_for_any_seating(client, tournament, referee):
    play(tournament, referee, SESSION_1)
    html = client.get(f"/t/{tournament.slug}/standings/needs/").content.decode()
    assert "The seating of session 2 is not published yet" in html
    assert "whatever the seating" in html
    assert html.count('<tr data-player="') == 8
    # p1 (4): p2 (2) may sit at another table and win it (6), so first is sure only with a shared first of
    # three (7/3), as at the published tables; but a last place (0) keeps it possible with some seating:
    # his table 4, 2, 1 to p4, p3 and p5 (4, 3, 2.75) and the other table four 1.75s (p2 on 3.75)
    row = _cells(html, "p1")
    assert 'title="sure with 2.33, possible from 0 (place 4)"' in row
    # p4 (0), out of reach of first at the published tables, keeps it possible with a win if he sits with
    # p1 and p1 finishes last (both on 4, the score decides)
    assert 'title="possible from 4 (place 1), never sure"' in _cells(html, "p4")
    body = client.get(f"/api/tournaments/{tournament.slug}/needs/").json()
    assert body["any_seating"] is True and body["reason"] == ""
    p1 = next(p for p in body["players"] if p["player"] == "p1")
    assert p1["table"] is None and (p1["places"][0]["guaranteed"], p1["places"][0]["possible"]) == (2.33, 0)


def test_a_finished_session_and_an_unfinished_earlier_one_are_said(client, tournament, referee):
    _before_last(tournament, referee)
    html = client.get(f"/t/{tournament.slug}/standings/needs/?session=1").content.decode()
    assert "Session 1 is finished." in html
    Session.objects.filter(tournament=tournament, number=1).update(status=Session.Status.PLAYING)
    html = client.get(f"/t/{tournament.slug}/standings/needs/").content.decode()
    assert "Session 1 is not finished yet." in html


def test_hidden_standings_stay_hidden(client, make_tournament, director, referee):
    tournament = make_tournament(slug="hidden-cup", director=director, sessions=3)
    from tournaments import services as tservices
    from tournaments.models import Role

    tservices.role_grant(tournament=tournament, user=referee, role=Role.REFEREE)
    play(
        tournament,
        referee,
        SESSION_1,
        [(k, s) for k, s in zip(SEATING_2, ([1, 2, 3, -6], [0, 0, 0, 0]), strict=True)],
    )
    seat(tournament, 3, [["p1", "p2", "p3", "p4"], ["p5", "p6", "p7", "p8"]], status="seated")
    tournament.settings = {**(tournament.settings or {}), HIDE_SETTING: 2}
    tournament.save()
    for user in (None, director):  # the director too: nothing here uses a hidden result
        if user:
            client.force_login(user)
        html = client.get(f"/t/{tournament.slug}/standings/needs/").content.decode()
        assert "The standings after session 2 are hidden until the prize-giving" in html
        assert '<tr data-player="' not in html
        body = client.get(f"/api/tournaments/{tournament.slug}/needs/").json()
        assert body["hidden"] is True and body["players"] == []
        lines = (
            client.get(f"/t/{tournament.slug}/standings/needs.csv").content.decode("utf-8-sig").splitlines()
        )
        assert len(lines) == 2 and "hidden" in lines[1]
    # before session 2 only session 1 counts, which the public sees
    seat_html = client.get(f"/t/{tournament.slug}/standings/needs/?session=2").content.decode()
    assert "Session 2 is finished." in seat_html


def test_a_private_tournament_shows_nothing(client, make_tournament):
    hidden = make_tournament(slug="closed", is_public=False)
    assert client.get(f"/t/{hidden.slug}/standings/needs/").status_code == 404
    assert client.get(f"/t/{hidden.slug}/standings/needs.csv").status_code == 404
    assert client.get(f"/api/tournaments/{hidden.slug}/needs/").status_code == 404


def test_the_page_in_spanish(client, tournament, referee):
    _before_last(tournament, referee)
    html = client.get(f"/t/{tournament.slug}/standings/needs/", HTTP_ACCEPT_LANGUAGE="es").content.decode()
    assert 'lang="es"' in html
    assert "Lo que necesita cada jugador" in html
    assert "seguro 2,33 · desde 1" in _cells(html, "p1")
    player = client.get(f"/t/{tournament.slug}/p/p1/", HTTP_ACCEPT_LANGUAGE="es").content.decode()
    assert "Lo que necesita en la sesión 2" in player


def test_the_teams_podium_is_worked_out_for_the_members_together(client, tournament, referee):
    _before_last(tournament, referee)
    team_size_set(tournament=tournament, size=2)
    # team mates at different tables of session 2: Aces 4 + 0, Bamboo 2 + 1, Circles and Dragons 3.5
    for name, members in (("Aces", ["p1", "p4"]), ("Bamboo", ["p2", "p3"]), ("Circles", ["p5", "p7"])):
        team_save(tournament=tournament, name=name, member_keys=members)
    team_save(tournament=tournament, name="Dragons", member_keys=["p6", "p8"])
    html = client.get(f"/t/{tournament.slug}/standings/needs/").content.decode()
    assert "Teams' podium" in html
    start = html.index('id="team-needs"')
    teams = html[start : html.index("</table>", start)]
    assert teams.count("<tr data-team=") == 4
    # Aces (4) is sure of first with 5.75, worked out at the tables where each team has one member: a win
    # and a four-way share (4 + 1.75) leave any rival at most 2 + 1.75 more (3.5 + 3.75 = 7.25 against
    # 9.75); 4 + 1.5 (a shared second) lets a rival win the other table and level (3.5 + 2 + 4 = 9.5).
    # The bound that ignores the tables said 8 (both members winning). The teams' podium is safe for
    # nobody and out of reach for nobody.
    aces = teams[teams.index(">Aces<") :]
    assert 'title="sure with 5.75' in aces.split("</tr>")[0]
    body = client.get(f"/api/tournaments/{tournament.slug}/needs/").json()
    assert body["team_places"] == [1, 2, 3]
    assert body["teams_exact"] is True  # worked out at the published tables, not a bound
    assert "worked out exactly at the published tables" in html
    first = next(t for t in body["teams"] if t["name"] == "Aces")["places"][0]
    assert (first["status"], first["guaranteed"]) == ("needs", 5.75)
    lines = list(
        csv.reader(
            io.StringIO(client.get(f"/t/{tournament.slug}/standings/needs.csv").content.decode("utf-8-sig"))
        )
    )
    assert ["Rank", "Team", "", "Place 1", "Place 2", "Place 3"] in lines
    spanish = client.get(f"/t/{tournament.slug}/standings/needs/", HTTP_ACCEPT_LANGUAGE="es").content.decode()
    assert "Podio por equipos" in spanish
    # p1 reads his team's answers on his own page
    player = client.get(f"/t/{tournament.slug}/p/p1/").content.decode()
    start = player.index('id="player-team-needs"')
    assert "Teams&#x27; podium: Aces" in player or "Teams' podium: Aces" in player
    assert "sure with 5.75" in player[start : player.index("</dl>", start)]


def test_the_schema_documents_the_seating_and_the_teams():
    schema = SchemaGenerator().get_schema(request=None, public=True)
    needs = schema["components"]["schemas"]["Needs"]["properties"]
    assert {"any_seating", "team_places", "teams", "teams_exact"} <= set(needs)
    assert "team" in schema["components"]["schemas"]["TeamNeeds"]["properties"]
