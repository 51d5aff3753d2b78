"""Sessions hidden for the prize-giving are hidden in every channel until the reveal.

The tournament of ``build_world`` (public) plays a fourth session whose table 1 ends with a score that
appears nowhere else (1753); with ``hide_last_sessions = 1`` every page and every API read, discovered from
the URL resolver and the OpenAPI schema, is swept as the public (anonymous, a signed-in user with no role,
another tournament's director) for that score. The same sweep after the reveal, and as the referee, must
find it: the sweep is not vacuous.
"""

from __future__ import annotations

import re

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from penalties import services as penalty_services
from rankings.standings.services import standings_refresh
from scoring import services as scoring_services
from scoring.models import Hand
from scoring.tiles.services import notable_hand_from_hand
from tests.trust.test_private_tournaments import KEY_PAGES, page_kwargs
from tests.trust.urlmap import api_operations, page_patterns
from tests.trust.world import build_world
from tournaments import services
from tournaments.models import Role, Session

pytestmark = pytest.mark.django_db

HIDDEN_SCORE = [1753, -253, -700, -800]
NOTABLE_TILES = {
    "hand": "234m567m99p",
    "melds": ["pung 7z", "chow 345s"],
    "winning_tile": "4m",
    "robbing_kong": True,
}
MARKERS = ("1753", "1,753", "1.753", "1 753", "1\xa0753", "1\u202f753")
# the rows' own ids and those they point to: after a long run of tests a row's id can be 1753 too
ROW_IDS = re.compile(
    r'"(?:id|[a-z_]+_id|table|session|registration|player|seat|tournament|team|result|hand|substitute)":\s*\d+'
)


def hidden_world():
    world = build_world(public=True, prefix="hs-")
    tournament = world.tournament
    regs = list(tournament.registrations.filter(is_substitute=False).order_by("pk"))
    last = tournament.sessions.get(number=4)
    # table 1: p9–p12, who scored nothing before, so that their totals in the standings are the hidden score
    order = regs[8:12] + regs[:8] + regs[12:20]
    tables = services.session_seat(session=last, tables=[order[i : i + 4] for i in range(0, 20, 4)])
    last.seating_published = True
    last.status = Session.Status.PLAYING
    last.save()
    director = scoring_services.Actor(user=world.users["director"], role=Role.DIRECTOR)
    scoring_services.totals_set(table=tables[0], scores=HIDDEN_SCORE, actor=director, expected_version=None)
    scoring_services.result_submit(table=tables[0], actor=director, expected_version=None)
    scoring_services.result_confirm(table=tables[0], actor=director, expected_version=None)
    for _ in range(2):  # table 2 plays hand by hand: two draws, for the statistics
        scoring_services.hand_add(
            table=tables[1], hand={"result": "draw"}, actor=director, expected_version=None
        )
    # and a win with its tiles, registered as a notable hand whose title carries the hidden score
    scoring_services.hand_add(
        table=tables[1],
        hand={"result": "win", "winner": 0, "discarder": 2, "tiles": NOTABLE_TILES},
        actor=director,
        expected_version=None,
    )
    notable_hand_from_hand(
        hand=Hand.objects.get(result__table=tables[1], number=3),
        title="The 1753 hand",
        user=world.users["director"],
    )
    penalty_services.penalty_record(  # a penalty of the hidden session, whose reason carries the score
        tournament=tournament,
        registration=regs[12],
        kind="late_arrival",
        actor=director,
        session=last,
        minutes_late=3,
        reason="Came in at 1753 by the hall clock",
    )
    tournament.settings = {**(tournament.settings or {}), "hide_last_sessions": 1}
    tournament.save(update_fields=["settings"])
    standings_refresh(tournament_id=tournament.pk)
    world.hidden_table = tables[0]
    world.hidden_session = last
    return world


def leaked(content: bytes) -> list[str]:
    text = ROW_IDS.sub("", content.decode("utf-8", "replace"))
    return [m for m in MARKERS if m in text]


def public_callers(world) -> dict:
    callers = {"anonymous": APIClient()}
    for name in ("plain", "other_director"):
        client = APIClient()
        client.force_login(world.users[name])
        callers[name] = client
    return callers


def page_urls(world) -> list[str]:
    urls = []
    for name, route in sorted(page_patterns().items()):
        if name in KEY_PAGES:
            continue
        kwargs = page_kwargs(world, name, route)
        variants = [kwargs]
        if "session" in kwargs:  # the hidden session, and its table 1
            variants.append({**kwargs, "session": 4})
        for variant in variants:
            urls.append(reverse(name, kwargs=variant))
    return urls


def api_urls(world) -> list[str]:
    hidden = world.hidden_table
    values = {
        "slug": world.tournament.slug,
        "tournament_slug": world.tournament.slug,
        "table_pk": hidden.pk,
        "number": 4,
        "family": "mcr",
        "ema_id": "04000009",
    }
    urls = []
    for method, path in api_operations():
        if method != "GET":
            continue

        def value(match, path=path):
            name = match.group(1)
            if name in values:
                return str(values[name])
            if path.startswith("/api/sessions/"):
                return str(world.hidden_session.pk)
            if path.startswith("/api/tables/"):
                return str(hidden.pk)
            if path.startswith("/api/seats/"):
                return str(hidden.seats.first().pk)
            if path.startswith("/api/registrations/"):
                return str(hidden.seats.get(position=0).registration_id)
            if path.startswith("/api/players/"):
                return str(hidden.seats.get(position=0).registration.player_id)
            if path.startswith("/api/penalties/"):
                return str(world.penalty.pk)
            if "/exports/" in path:
                return str(world.job.pk)
            return "1"

        url = re.sub(r"\{(\w+)\}", value, path)
        for query in (
            "",
            f"?tournament_slug={world.tournament.slug}",
            f"?tournament={world.tournament.slug}",
        ):
            urls.append(url + query)
    return urls


def sweep(world, clients: dict) -> list[str]:
    found = []
    for who, client in clients.items():
        for url in page_urls(world) + api_urls(world):
            response = client.get(url)
            assert response.status_code < 500, (who, url, response.status_code)
            body = (
                b"".join(response.streaming_content)
                if getattr(response, "streaming", False)
                else response.content
            )
            if leaked(body):
                found.append(f"{who} {url}")
    return found


def test_no_public_page_or_api_read_shows_a_hidden_session_until_the_reveal():
    world = hidden_world()
    found = sweep(world, public_callers(world))
    assert not found, "the hidden session shows in:\n" + "\n".join(found)


def test_the_sweep_finds_the_hidden_score_for_the_staff_and_after_the_reveal():
    """Not vacuous: the referee sees the hidden session, and everyone does after the reveal."""
    world = hidden_world()
    referee = APIClient()
    referee.force_login(world.users["referee"])
    assert sweep(world, {"referee": referee})
    world.tournament.settings = {**world.tournament.settings, "standings_revealed": True}
    world.tournament.save(update_fields=["settings"])
    revealed = sweep(world, {"anonymous": APIClient()})
    assert any("/api/" in line for line in revealed) and any("/api/" not in line for line in revealed)


def test_the_statistics_leave_out_the_hidden_sessions_hands():
    """Session 1 has one hand entered hand by hand (a draw), the hidden session three more."""
    world = hidden_world()
    url = f"/api/tournaments/{world.tournament.slug}/statistics/"
    assert APIClient().get(url).json()["hands"] == 1
    referee = APIClient()
    referee.force_login(world.users["referee"])
    assert referee.get(url).json()["hands"] == 4
    page = APIClient().get(reverse("tiles-statistics", args=[world.tournament.slug]))
    assert page.status_code == 200


def test_the_register_of_notable_hands_shows_a_hidden_sessions_hand_after_the_reveal():
    world = hidden_world()
    assert "The 1753 hand" not in APIClient().get("/notable-hands/").content.decode()
    assert not [e for e in APIClient().get("/api/notable-hands/").json() if e["title"] == "The 1753 hand"]
    referee = APIClient()
    referee.force_login(world.users["referee"])
    assert "The 1753 hand" in referee.get("/notable-hands/").content.decode()
    world.tournament.settings = {**world.tournament.settings, "standings_revealed": True}
    world.tournament.save(update_fields=["settings"])
    assert [e["title"] for e in APIClient().get("/api/notable-hands/").json()] == ["The 1753 hand"]


def test_the_table_result_api_names_the_rule_for_a_hidden_session():
    world = hidden_world()
    response = APIClient().get(f"/api/tables/{world.hidden_table.pk}/result/")
    assert response.status_code == 403
    assert "hidden until the director reveals the standings" in response.json()["detail"]
    referee = APIClient()
    referee.force_login(world.users["referee"])  # the staff who run the hidden sessions read them
    assert referee.get(f"/api/tables/{world.hidden_table.pk}/result/").status_code == 200


def test_a_scorer_reads_only_the_hidden_tables_still_being_entered_or_entered_by_them():
    """A scorer enters the hidden session's tables, so a table still being entered stays open; a
    confirmed table that someone else entered is hidden from the scorer as from the public, in the API,
    on the table page, on its hand pages and in the session's list of tables."""
    world = hidden_world()
    slug = world.tournament.slug
    scorer = APIClient()
    scorer.force_login(world.users["scorer"])
    hidden = scorer.get(f"/api/tables/{world.hidden_table.pk}/result/")
    assert hidden.status_code == 403
    assert "hidden until the director reveals the standings" in hidden.json()["detail"]
    for page in (reverse("table-page", args=[slug, 4, 1]), reverse("table-hand", args=[slug, 4, 1, 1])):
        response = scorer.get(page)
        assert response.status_code == 403 and not leaked(response.content), page
    listed = scorer.get(reverse("session-tables", args=[slug, 4]))
    assert listed.status_code == 200 and not leaked(listed.content)
    being_entered = world.hidden_session.tables.get(number=2)
    assert scorer.get(f"/api/tables/{being_entered.pk}/result/").status_code == 200
    assert scorer.get(reverse("table-page", args=[slug, 4, 2])).status_code == 200
    # the table's own private link still reads its result: its players entered it
    keyed = APIClient().get(
        f"/api/tables/{world.hidden_table.pk}/result/", HTTP_X_TABLE_KEY=world.hidden_table.private_key
    )
    assert keyed.status_code == 200 and leaked(keyed.content)


def test_no_page_or_api_read_shows_a_scorer_the_hidden_table_someone_else_entered():
    world = hidden_world()
    scorer = APIClient()
    scorer.force_login(world.users["scorer"])
    found = sweep(world, {"scorer": scorer})
    assert not found, "the confirmed hidden table shows a scorer:\n" + "\n".join(found)


def test_a_scorer_who_entered_a_hidden_table_still_reads_it():
    world = hidden_world()
    table = world.hidden_session.tables.get(number=3)
    scorer_actor = scoring_services.Actor(user=world.users["scorer"], role=Role.SCORER)
    scoring_services.totals_set(table=table, scores=HIDDEN_SCORE, actor=scorer_actor, expected_version=None)
    referee = scoring_services.Actor(user=world.users["referee"], role=Role.REFEREE)
    scoring_services.result_submit(table=table, actor=referee, expected_version=None)
    scoring_services.result_confirm(table=table, actor=referee, expected_version=None)
    scorer = APIClient()
    scorer.force_login(world.users["scorer"])
    response = scorer.get(f"/api/tables/{table.pk}/result/")
    assert response.status_code == 200 and leaked(response.content)


def test_the_penalties_of_a_hidden_session_are_hidden_until_the_reveal():
    world = hidden_world()
    url = f"/api/penalties/?tournament={world.tournament.slug}&session=4"
    assert not leaked(APIClient().get(url).content)
    assert not leaked(APIClient().get(f"/api/penalties/?tournament={world.tournament.slug}").content)
    referee = APIClient()
    referee.force_login(world.users["referee"])
    assert leaked(referee.get(url).content)
    world.tournament.settings = {**world.tournament.settings, "standings_revealed": True}
    world.tournament.save(update_fields=["settings"])
    assert leaked(APIClient().get(url).content)


def test_the_ema_ranking_counts_the_tournament_once_the_hidden_sessions_are_revealed():
    """The tournament is finished: while its last session is hidden its places (which would tell the
    hidden results) stay out of the public EMA ranking; the reveal puts them in."""
    from rankings.ema.services import ema_ranking_recompute
    from rankings.models import EmaTournament, TournamentResult
    from tournaments import lifecycle

    world = hidden_world()
    sessions = world.tournament.sessions.all()
    finished = lifecycle.statuses_load(
        tournament=world.tournament, sessions={s.pk: Session.Status.FINISHED for s in sessions}
    )
    assert finished == "finished"
    ema_ranking_recompute(refresh_all=True)
    assert not EmaTournament.objects.get(tournament=world.tournament).counted
    assert not TournamentResult.objects.filter(tournament=world.tournament).exists()
    player = APIClient().get(reverse("ema-ranking-player", args=["mcr", "04000009"]))
    assert world.tournament.name not in player.content.decode()
    world.tournament.settings = {**world.tournament.settings, "standings_revealed": True}
    world.tournament.save(update_fields=["settings"])
    ema_ranking_recompute(refresh_all=True)
    assert EmaTournament.objects.get(tournament=world.tournament).counted
    winner = TournamentResult.objects.get(tournament=world.tournament, place=1)
    assert winner.player.ema_id == "04000009"  # the hidden session's 1753 made p9 the winner


def test_a_row_whose_id_is_the_hidden_score_is_not_a_leak_but_the_score_is():
    assert leaked(b'{"id":1753,"table":1753,"seats":[{"registration_id":1753}]}') == []
    assert leaked(b'{"id":3,"scores":[1753,-253,-700,-800]}') == ["1753"]
    assert leaked("<td>+1\u202f753</td>".encode()) == ["1\u202f753"]
