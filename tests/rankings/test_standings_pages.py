"""The public standings, player and session pages, the home page's seat finder and the dashboard, as players
and directors see them. The helpers at the top are shared by the other standings tests."""

from __future__ import annotations

import re
from fractions import Fraction

import pytest
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from penalties.services import penalty_cancel, penalty_record
from rankings.models import StandingsState
from rankings.standings.services import standings_refresh
from rankings.standings.views import local_pages
from scoring.models import SeatSummary
from scoring.services import result_confirm, result_submit, totals_set
from tournaments import services as tservices
from tournaments.models import Player, Registration, Session, Table
from tournaments.permissions import actor_for

# -- helpers -----------------------------------------------------------------------------------------


@pytest.fixture(autouse=True)
def _clean_cache():
    cache.clear()
    local_pages.clear()
    yield
    cache.clear()
    local_pages.clear()


def reg(tournament, key: str) -> Registration:
    return Registration.objects.get(tournament=tournament, key=key)


def seat(tournament, number: int, tables: list[list[str]], *, publish=True, status="playing") -> list[Table]:
    """Seat session ``number`` with the given keys (E, S, W, N per table) and publish it."""
    session = Session.objects.get(tournament=tournament, number=number)
    created = tservices.session_seat(
        session=session, tables=[[reg(tournament, k) for k in keys] for keys in tables]
    )
    session.seating_published = publish
    session.status = status
    session.save()
    return created


def confirm(table: Table, scores, user) -> None:
    actor = actor_for(user=user, table=table)
    totals_set(table=table, scores=scores, actor=actor, expected_version=None)
    result_confirm(table=table, actor=actor, expected_version=None)


def rows(html: str) -> list[tuple[str, int]]:
    """(player key, rank) of the standings rows, in page order."""
    return [(k, int(r)) for k, r in re.findall(r'<tr data-player="([^"]+)"[^>]*><td>(\d+)</td>', html)]


# The tie-break scenario: p1 and p2 end on 4 table points and 0 points each; p1 won a table, p2 did not.
SESSION_1 = [(["p1", "p2", "p3", "p4"], [10, 5, -5, -10]), (["p5", "p6", "p7", "p8"], [0, 0, 0, 0])]
SESSION_2 = [(["p1", "p3", "p5", "p6"], [-10, 20, -5, -5]), (["p2", "p4", "p7", "p8"], [-5, 30, -10, -15])]


def play(tournament, user, *sessions) -> None:
    for number, session in enumerate(sessions, start=1):
        tables = seat(tournament, number, [keys for keys, _ in session])
        for table, (_, scores) in zip(tables, session, strict=True):
            confirm(table, scores, user)
        Session.objects.filter(pk=tables[0].session_id).update(status=Session.Status.FINISHED)
    standings_refresh(tournament_id=tournament.pk)


def standings_html(client, tournament, **extra) -> str:
    response = client.get(f"/t/{tournament.slug}/standings/", **extra)
    assert response.status_code == 200
    return response.content.decode()


# -- standings ---------------------------------------------------------------------------------------


@pytest.mark.django_db
def test_mcr_standings_rank_by_table_points_then_score_with_shared_ranks(client, tournament, referee):
    play(tournament, referee, SESSION_1, SESSION_2)
    html = standings_html(client, tournament)
    assert rows(html) == [
        ("p3", 1),  # 5 table points
        ("p4", 2),  # 4 table points, 20 points
        ("p1", 3),  # 4 table points, 0 points: tied with p2, both third
        ("p2", 3),
        ("p5", 5),  # 3.25 each: shared 1.75 in session 1, 1.5 in session 2
        ("p6", 5),
        ("p7", 7),
        ("p8", 8),
    ]
    assert "3.25" in html
    assert "Last updated at" in html


@pytest.mark.django_db
def test_the_directors_tie_break_separates_tied_players(client, tournament, referee, director):
    play(tournament, referee, SESSION_1, SESSION_2)
    client.force_login(director)
    response = client.post(
        f"/t/{tournament.slug}/director/standings/tiebreaks/", {"tiebreak_1": "first_places"}, follow=True
    )
    assert response.status_code == 200
    tournament.refresh_from_db()
    assert tournament.settings["tiebreaks"] == ["first_places"]
    standings_refresh(tournament_id=tournament.pk)
    order = rows(standings_html(client, tournament))
    assert order[2:4] == [("p1", 3), ("p2", 4)]  # p1 won a table in session 1
    assert order[4:6] == [("p5", 5), ("p6", 5)]  # still equal on every key


@pytest.mark.django_db
def test_a_tie_break_listed_twice_is_refused(client, tournament, director):
    client.force_login(director)
    client.post(
        f"/t/{tournament.slug}/director/standings/tiebreaks/",
        {"tiebreak_1": "first_places", "tiebreak_2": "first_places"},
    )
    tournament.refresh_from_db()
    assert "tiebreaks" not in tournament.settings


@pytest.mark.django_db
def test_only_the_director_sets_tie_breaks_or_recomputes(client, tournament, referee):
    client.force_login(referee)
    assert client.post(f"/t/{tournament.slug}/director/standings/tiebreaks/", {}).status_code == 403
    assert client.post(f"/t/{tournament.slug}/director/standings/recompute/").status_code == 403
    assert client.get(f"/t/{tournament.slug}/director/").status_code == 403


@pytest.mark.django_db
def test_disqualified_at_the_bottom_substitutes_unranked_withdrawn_apart(
    client, make_tournament, director, referee
):
    tournament = make_tournament(slug="dq-open", director=director, sessions=3, substitutes=1)
    tservices.role_grant(tournament=tournament, user=referee, role="referee")
    play(tournament, referee, SESSION_1, SESSION_2)
    tservices.registration_withdraw(registration=reg(tournament, "p8"), from_session=3)
    actor = actor_for(user=referee, table=Table.objects.filter(session__tournament=tournament).first())
    penalty_record(
        tournament=tournament, registration=reg(tournament, "p3"), kind="disqualified", scope="tournament",
        actor=actor, reason="serious misconduct",
    )  # fmt: skip
    standings_refresh(tournament_id=tournament.pk)
    html = standings_html(client, tournament)
    order = rows(html)
    assert order[-1] == ("p3", 7)  # disqualified: last of the ranking, with 0 table points and the score kept
    assert order[0] == ("p4", 1)
    assert "s1" not in dict(order)
    assert "p8" not in dict(order)  # withdrawn: not ranked...
    apart = html.index('id="withdrawn-apart"')
    assert html.index('data-player="p3"') < apart < html.index('data-player="p8"')  # ...listed apart, below
    assert "Withdrawn: not ranked" in html
    row_p3 = re.search(r'<tr data-player="p3".*?</tr>', html).group(0)
    assert "disqualified" in row_p3 and "<td>0</td><td>15</td>" in row_p3  # 0 table points, 15 points
    row_p8 = re.search(r'<tr data-player="p8".*?</tr>', html).group(0)
    assert "withdrawn from session 3" in row_p8 and "<td>—</td>" in row_p8
    state = StandingsState.objects.get(tournament=tournament)
    (p8,) = state.document["withdrawn"]
    assert p8["player"] == "p8" and p8["rank"] is None and p8["withdrawn_from"] == 3 and p8["sessions"] == 2
    p3 = next(r for r in state.document["standings"] if r["player"] == "p3")
    assert p3["table_points"] == 0 and p3["score"] == 15 and p3["disqualified"] is True


@pytest.mark.django_db
def test_riichi_standings_rank_by_score_without_table_points(client, make_tournament, director, make_user):
    tournament = make_tournament(slug="riichi-cup", ruleset="ema-riichi-2016", director=director, sessions=1)
    tables = seat(tournament, 1, [["p1", "p2", "p3", "p4"], ["p5", "p6", "p7", "p8"]])
    confirm(tables[0], [42300, 31700, 25000, 21000], director)
    confirm(tables[1], [30000, 30000, 30000, 30000], director)
    standings_refresh(tournament_id=tournament.pk)
    html = standings_html(client, tournament)
    assert [k for k, _ in rows(html)][:2] == ["p1", "p2"]
    assert ">TP<" not in html
    document = StandingsState.objects.get(tournament=tournament).document
    assert document["standings"][0]["score"] == 27300 and document["standings"][0]["table_points"] is None


@pytest.mark.django_db
def test_standings_in_spanish(client, tournament, referee):
    play(tournament, referee, SESSION_1)
    html = standings_html(client, tournament, HTTP_ACCEPT_LANGUAGE="es")
    assert 'lang="es"' in html and "Buscar por nombre" in html
    assert "1,75" in html  # decimals as Spanish readers write them
    for text in ("Clasificación", "Soy yo", "Última actualización a las"):
        assert text in html, text


@pytest.mark.django_db
def test_a_private_tournament_hides_its_standings(client, make_tournament):
    hidden = make_tournament(slug="closed", is_public=False)
    assert client.get(f"/t/{hidden.slug}/standings/").status_code == 404
    assert client.get(f"/t/{hidden.slug}/standings/rows/").status_code == 404
    assert client.get(f"/t/{hidden.slug}/s/1/").status_code == 404
    assert client.get(f"/t/{hidden.slug}/p/p1/").status_code == 404


@pytest.mark.django_db
def test_standings_page_before_any_result_lists_everybody_at_rank_one(client, tournament):
    html = standings_html(client, tournament)
    assert len(rows(html)) == 8 and {r for _, r in rows(html)} == {1}


@pytest.mark.django_db
def test_a_hand_edited_unknown_tie_break_does_not_break_the_standings(client, tournament, referee):
    tournament.settings = {"tiebreaks": ["no_such_rule", "first_places", "first_places"]}
    tournament.save()
    play(tournament, referee, SESSION_1, SESSION_2)
    order = rows(standings_html(client, tournament))
    assert order[2:4] == [("p1", 3), ("p2", 4)]


# -- freshness, polling and the cache ------------------------------------------------------------------


@pytest.mark.django_db
def test_the_polled_rows_answer_204_until_the_snapshot_changes(client, tournament, referee):
    play(tournament, referee, SESSION_1)
    html = standings_html(client, tournament)
    token = re.search(r'id="standings-freshness"[^>]* data-token="([^"]+)"', html).group(1)
    poll_url = f"/t/{tournament.slug}/standings/rows/?v={token}"
    assert client.get(poll_url).status_code == 204

    tables = seat(tournament, 2, [keys for keys, _ in SESSION_2])
    confirm(tables[0], SESSION_2[0][1], referee)
    standings_refresh(tournament_id=tournament.pk)
    response = client.get(poll_url)
    assert response.status_code == 200
    body = response.content.decode()
    assert body.startswith("<tbody") and 'hx-swap-oob="true"' in body
    assert "<html" not in body  # only the table body and the freshness line, not a page
    new_token = re.search(r'id="standings-freshness"[^>]* data-token="([^"]+)"', body).group(1)
    new_url = f"/t/{tournament.slug}/standings/rows/?v={new_token}"
    assert new_url != poll_url and client.get(new_url).status_code == 204


@pytest.mark.django_db
def test_a_cached_page_is_never_older_than_the_snapshot(client, tournament, referee):
    play(tournament, referee, SESSION_1)
    first = standings_html(client, tournament)
    assert ("p1", 1) in rows(first)
    tables = seat(tournament, 2, [keys for keys, _ in SESSION_2])
    confirm(tables[0], SESSION_2[0][1], referee)  # p1 loses: -10, 0 table points
    standings_refresh(tournament_id=tournament.pk)
    second = standings_html(client, tournament)
    assert ("p1", 1) not in rows(second)
    assert rows(second)[0] == ("p3", 1)


@pytest.mark.django_db
def test_pages_say_when_the_update_is_delayed(client, tournament, referee):
    play(tournament, referee, SESSION_1)
    StandingsState.objects.filter(tournament=tournament).update(
        input_version=999,
        queue_error="OperationalError: connection refused",
        queue_failed_at="2026-05-01T10:00Z",
        queued_at=timezone.now(),  # just queued again: the sweep leaves it to the queue
    )
    html = standings_html(client, tournament)
    assert "updating delayed" in html and "Last updated at" in html
    assert ("p1", 1) in rows(html)  # the last snapshot is still shown


def _bulk_tournament(make_tournament, slug: str, players: int):
    """A one-session MCR tournament with ``players`` players and every table confirmed, written in bulk."""
    tournament = make_tournament(slug=slug, players=0, sessions=1)
    people = Player.objects.bulk_create(
        Player(first_name=f"Bulk{i}", last_name=slug, private_key=f"{slug}-{i}") for i in range(players)
    )
    registrations = Registration.objects.bulk_create(
        Registration(tournament=tournament, player=p, key=f"p{i + 1}") for i, p in enumerate(people)
    )
    session = Session.objects.get(tournament=tournament, number=1)
    tables = Table.objects.bulk_create(
        Table(session=session, number=n + 1, private_key=f"{slug}-t{n}") for n in range(players // 4)
    )
    points = [Fraction(4), Fraction(2), Fraction(1), Fraction(0)]
    scores = [30, 10, -10, -30]
    SeatSummary.objects.bulk_create(
        SeatSummary(
            tournament=tournament, session=session, table=tables[i // 4], position=i % 4,
            registration=r, game_score=scores[i % 4], table_points=points[i % 4], uma=None,
            final=scores[i % 4] + (i % 7), result_version=2,
        )
        for i, r in enumerate(registrations)
    )  # fmt: skip
    return tournament


@pytest.mark.django_db
def test_the_standings_page_costs_the_same_queries_for_400_players_as_for_8(client, make_tournament):
    counts = {}
    for players in (8, 400):
        tournament = _bulk_tournament(make_tournament, f"bulk-{players}", players)
        with CaptureQueriesContext(connection) as compute:
            standings_refresh(tournament_id=tournament.pk)
        cache.clear()
        with CaptureQueriesContext(connection) as cold:
            html = standings_html(client, tournament)
        with CaptureQueriesContext(connection) as warm:
            standings_html(client, tournament)
        assert len(rows(html)) == players
        counts[players] = (len(compute), len(cold), len(warm))
    assert counts[400] == counts[8], counts
    assert counts[400][2] <= 2  # a cached page: the tournament with its state, nothing per player


# -- player, session and home pages ------------------------------------------------------------------


@pytest.mark.django_db
def test_the_player_page_shows_every_session_opponents_scores_and_penalties(client, tournament, referee):
    tables = seat(tournament, 1, [keys for keys, _ in SESSION_1])
    actor = actor_for(user=referee, table=tables[0])
    penalty_record(
        tournament=tournament, registration=reg(tournament, "p1"), kind="referee", points=-5,
        reason="deliberate slow play", session=tables[0].session, actor=actor,
    )  # fmt: skip
    late = penalty_record(
        tournament=tournament, registration=reg(tournament, "p1"), kind="late_arrival", minutes_late=7,
        session=tables[0].session, actor=actor,
    )  # fmt: skip
    penalty_cancel(penalty=late, actor=actor, reason="the clock was wrong")
    for table, (_, scores) in zip(tables, SESSION_1, strict=True):
        confirm(table, scores, referee)
    standings_refresh(tournament_id=tournament.pk)
    html = client.get(f"/t/{tournament.slug}/p/p1/").content.decode()
    assert "Session 1 · table 1" in html
    for name in ("Player2 open-2026", "Player3 open-2026", "Player4 open-2026"):
        assert name in html  # the opponents by name
    assert "Referee decision" in html and "deliberate slow play" in html and "-5" in html
    assert "Late arrival" not in html  # cancelled
    me = re.search(r'<tr class="me"><td>E</td><td>Player1 open-2026</td>(.*?)</tr>', html).group(1)
    assert re.findall(r'<td class="num">([^<]*)</td>', me) == ["10", "4", "5"]  # score, table points, total
    assert "Rank" in html


@pytest.mark.django_db
def test_the_next_seat_shows_once_it_is_published(client, tournament, referee):
    seat(tournament, 1, [keys for keys, _ in SESSION_1], publish=False, status="planned")
    url = f"/t/{tournament.slug}/p/p6/"
    assert "Your seat" not in client.get(url).content.decode()
    assert "Table 2" not in client.get(f"/t/{tournament.slug}/s/1/").content.decode()
    Session.objects.filter(tournament=tournament, number=1).update(seating_published=True)
    cache.clear()
    html = client.get(url).content.decode()
    assert "Your seat in session 1" in html and "Table 2" in html and "seat South" in html


@pytest.mark.django_db
def test_the_private_link_shows_the_players_tournaments_and_marks_them(client, tournament, referee):
    play(tournament, referee, SESSION_1)
    player = reg(tournament, "p2").player
    html = client.get(f"/me/{player.private_key}/").content.decode()
    assert tournament.name in html and "Session 1 · table 1" in html
    assert 'data-key="p2"' in html and "js/player_private.js" in html
    assert ">Open 2026</a></h2>" in html  # the year is not said twice when the name holds it


@pytest.mark.django_db
def test_the_session_page_shows_each_table_status_and_confirmed_results(client, tournament, referee):
    tables = seat(tournament, 1, [keys for keys, _ in SESSION_1])
    html = client.get(f"/t/{tournament.slug}/s/1/").content.decode()
    assert html.count(">playing<") == 2
    actor = actor_for(user=referee, table=tables[1])
    totals_set(table=tables[1], scores=[0, 0, 0, 0], actor=actor, expected_version=None)
    result_submit(table=tables[1], actor=actor, expected_version=None)
    confirm(tables[0], SESSION_1[0][1], referee)
    html = client.get(f"/t/{tournament.slug}/s/1/").content.decode()
    assert ">confirmed<" in html and ">submitted<" in html
    table_1 = html[html.index("Table 1") : html.index("Table 2")]
    assert "Player1 open-2026" in table_1 and '<td class="num">10</td>' in table_1
    table_2 = html[html.index("Table 2") :]
    assert "1.75" not in table_2  # submitted, not confirmed: no result yet


@pytest.mark.django_db
def test_find_my_seat_by_name_on_the_tournament_home(client, tournament):
    seat(tournament, 1, [keys for keys, _ in SESSION_1])
    home = client.get(f"/t/{tournament.slug}/", {"name": "player6"}).content.decode()
    assert "Player6 open-2026" in home and "table 2, seat S" in home
    partial = client.get(f"/t/{tournament.slug}/", {"name": "nobody"}, HTTP_HX_REQUEST="true")
    assert "<html" not in partial.content.decode() and "Nobody called" in partial.content.decode()
    assert f"/t/{tournament.slug}/standings/" in client.get(f"/t/{tournament.slug}/").content.decode()


@pytest.mark.django_db
def test_find_my_seat_before_the_seating_is_published(client, tournament):
    seat(tournament, 1, [keys for keys, _ in SESSION_1], publish=False, status="planned")
    home = client.get(f"/t/{tournament.slug}/", {"name": "player6"}).content.decode()
    assert "not published yet" in home and "table 2" not in home


# -- the director's dashboard --------------------------------------------------------------------------


@pytest.mark.django_db
def test_the_dashboard_lists_open_tables_recent_penalties_and_freshness(
    client, tournament, referee, director
):
    tables = seat(tournament, 1, [keys for keys, _ in SESSION_1])
    confirm(tables[0], SESSION_1[0][1], referee)
    penalty_record(
        tournament=tournament, registration=reg(tournament, "p5"), kind="foul", reason="tile out of turn",
        session=tables[1].session, actor=actor_for(user=referee, table=tables[1]),
    )  # fmt: skip
    StandingsState.objects.filter(tournament=tournament).update(
        queue_error="OperationalError: connection refused", queue_failed_at="2026-05-01T10:00Z"
    )
    client.force_login(director)
    html = client.get(f"/t/{tournament.slug}/director/").content.decode()
    pending = html[html.index('id="pending"') : html.index('id="penalties"')]
    assert "Table 2" in pending and "Table 1 ·" not in pending
    assert "tile out of turn" in html and "Player5 open-2026" in html
    assert "updating delayed" in html and "connection refused" in html

    response = client.post(f"/t/{tournament.slug}/director/standings/recompute/", follow=True)
    assert "Standings recomputed" in response.content.decode()
    state = StandingsState.objects.get(tournament=tournament)
    assert state.is_fresh and state.queue_error == ""
    assert next(r for r in state.document["standings"] if r["player"] == "p1")["table_points"] == 4


def test_a_penalty_at_a_table_still_playing_counts_at_once_as_the_table_page_says(
    client, tournament, referee
):
    """The rule and the text agree: the game waits for the referee's confirmation, a penalty does not."""
    tables = seat(tournament, 1, [keys for keys, _ in SESSION_1])
    actor = actor_for(user=referee, table=tables[0])
    totals_set(table=tables[0], scores=[10, 5, -5, -10], actor=actor, expected_version=None)
    penalty_record(
        tournament=tournament, registration=reg(tournament, "p2"), kind="referee", points=-7,
        reason="deliberate slow play", session=tables[0].session, actor=actor,
    )  # fmt: skip
    standings_refresh(tournament_id=tournament.pk)
    html = standings_html(client, tournament)
    p2 = re.search(r'<tr data-player="p2".*?</tr>', html, re.S).group(0)
    assert "\u22127" in p2 or "-7" in p2  # counted before any table is confirmed
    client.force_login(referee)
    table_page = client.get(f"/t/{tournament.slug}/s/1/table/{tables[0].number}/").content.decode()
    assert "penalties count as soon as they are recorded" in table_page
