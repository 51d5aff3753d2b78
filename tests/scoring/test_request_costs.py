"""What a table's requests cost: the game is replayed at most once per request, and the SQL statements of
a hand add, a correction, a confirmation and the table page (by the table's key and signed in) stay
within their ceilings and do not grow with the number of hands at the table."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from idempotency.models import IdempotencyRecord
from penalties.services import penalty_record
from scoring import services
from scoring.rules.registry import _PRESETS
from tests.scoring.test_pages_support import link_url, seat_session, table_url, version
from tournaments.models import Role
from tournaments.permissions import Actor

# The most SQL statements each request may run (the demo on PostgreSQL runs the same or fewer: see
# bench/requests). A confirmation also bumps the standings' input version, in its transaction, and
# queues their recompute after its commit (which a test's transaction never reaches).
CEILINGS = {
    "table page by key": 10,
    "table page signed in": 12,  # 10, and the table's call of a referee: its state and its history
    "hand add": 10,
    # the phone's save: the hand with its key, answered with the page's fragments (no redirect, no second
    # request); the key's record is two of these statements
    "phone's save": 12,
    "hand correction": 15,
    "confirm": 15,
}


@pytest.fixture
def replays(monkeypatch):
    """How many games the rule engines build (``play_game`` or ``game_from_totals``), over every ruleset."""
    counter = {"n": 0}
    for cls in {type(r) for r in _PRESETS.values()}:
        for name in ("play_game", "game_from_totals"):
            original = getattr(cls, name)

            def counted(self, *args, _original=original, **kwargs):
                counter["n"] += 1
                return _original(self, *args, **kwargs)

            monkeypatch.setattr(cls, name, counted)
    return counter


@pytest.fixture
def queued_not_run(settings, monkeypatch):
    """As in production: the standings recompute is queued for a worker, not run in the request."""
    from rankings.standings import services as standings

    settings.CELERY_TASK_ALWAYS_EAGER = False
    monkeypatch.setattr(standings, "_publish", lambda tournament_id: None)


def _hand_url(table, number: int) -> str:
    session = table.session
    return reverse("table-hand", args=[session.tournament.slug, session.number, table.number, number])


def _hand(number: int) -> dict:
    return {"result": "win", "winner": number % 4, "discarder": (number + 1) % 4, "fan": 8 + number % 9}


def _costs(tournament, table, count, referee, replays) -> dict[str, tuple[int, int]]:
    actor = Actor(user=referee, role=Role.REFEREE)
    for number in range(1, count + 1):
        services.hand_add(table=table, hand=_hand(number), actor=actor, expected_version=None)
    by_key, signed_in = Client(), Client()
    signed_in.force_login(referee)
    by_key.get(link_url(table))
    signed_in.get(table_url(table))
    costs: dict[str, tuple[int, int]] = {}

    def measure(kind, call, expect):
        before = replays["n"]
        with CaptureQueriesContext(connection) as queries:
            response = call()
        assert response.status_code == expect, (kind, response.status_code)
        costs[kind] = (replays["n"] - before, len(queries))

    measure("table page by key", lambda: by_key.get(link_url(table)), 200)
    measure("table page signed in", lambda: signed_in.get(table_url(table)), 200)
    hand = {
        "action": "hand",
        "version": version(table),
        "result": "win",
        "winner": 0,
        "discarder": 1,
        "fan": 8,
    }
    measure("hand add", lambda: by_key.post(link_url(table), hand), 302)
    phone = {**hand, "version": version(table), "winner": 2, "discarder": 0}
    measure(
        "phone's save",
        lambda: by_key.post(
            link_url(table),
            phone,
            HTTP_IDEMPOTENCY_KEY=f"save-{table.pk}",
            HTTP_X_ENTRY_FRAGMENTS="1",
        ),
        200,
    )
    correction = {
        "version": version(table),
        "result": "win",
        "winner": 2,
        "discarder": 3,
        "fan": 12,
        "reason": "wrong fan",
    }
    measure("hand correction", lambda: signed_in.post(_hand_url(table, 1), correction), 302)
    confirm = {"action": "confirm", "version": version(table), "short_reason": "time limit reached"}
    measure("confirm", lambda: signed_in.post(table_url(table), confirm), 302)
    return costs


def test_requests_replay_once_and_do_not_grow_with_the_hands(
    make_tournament, referee, replays, queued_not_run
):
    tournament = referee.tournament_roles.get().tournament
    few, many = seat_session(tournament)
    # a penalty at each table: the page and the confirmation read them too
    for table in (few, many):
        penalty_record(
            tournament=tournament,
            registration=table.seats.get(position=1).registration,
            kind="foul",
            actor=Actor(user=referee, role=Role.REFEREE),
            session=table.session,
            table=table,
            reason="took a tile out of turn",
        )
    two = _costs(tournament, few, 2, referee, replays)
    twelve = _costs(tournament, many, 12, referee, replays)
    for kind, ceiling in CEILINGS.items():
        (replayed_few, statements_few), (replayed_many, statements_many) = two[kind], twelve[kind]
        assert replayed_few <= 1 and replayed_many <= 1, (kind, replayed_few, replayed_many)
        assert statements_many == statements_few, (kind, statements_few, statements_many)
        assert statements_few <= ceiling, (kind, statements_few, ceiling)


def test_the_phones_save_answers_the_fragments_once_and_a_repeat_replays_them(
    make_tournament, referee, replays, queued_not_run
):
    tournament = referee.tournament_roles.get().tournament
    table = seat_session(tournament)[0]
    phone = Client()
    phone.get(link_url(table))
    hand = {
        "action": "hand",
        "version": version(table),
        "result": "win",
        "winner": 0,
        "discarder": 1,
        "fan": 8,
    }
    headers = {"HTTP_IDEMPOTENCY_KEY": "phone-1", "HTTP_X_ENTRY_FRAGMENTS": "1"}
    first = phone.post(link_url(table), hand, **headers)
    assert first.status_code == 200
    page = first.content.decode()
    assert 'id="entry-fragments"' in page and "Hand 1 saved." in page
    assert version(table) == 2
    before = replays["n"]
    with CaptureQueriesContext(connection) as queries:
        again = phone.post(link_url(table), hand, **headers)
    assert again.status_code == 200 and again.content == first.content
    assert again["Idempotent-Replayed"] == "true"
    assert replays["n"] == before  # the stored answer, not the table read again
    assert not any(q["sql"].startswith('SELECT "scoring_') for q in queries.captured_queries)
    assert version(table) == 2  # stored once
    # the next page visit shows no leftover "saved" message: the answer carried it
    assert "Hand 1 saved." not in phone.get(link_url(table)).content.decode()


def test_the_table_page_and_the_api_show_the_same_actions(client, make_tournament, referee, scorer):
    tournament = referee.tournament_roles.get().tournament
    table = seat_session(tournament)[0]
    actor = Actor(user=referee, role=Role.REFEREE)
    services.hand_add(table=table, hand=_hand(1), actor=actor, expected_version=None)
    client.force_login(referee)
    body = client.get(f"/api/tables/{table.pk}/result/").json()
    assert body["actions"] == ["confirm", "edit", "hand", "seats", "submit", "undo"]
    page = client.get(table_url(table)).content.decode()
    assert 'value="confirm"' in page and 'value="seats"' in page and 'value="reopen"' not in page
    client.force_login(scorer)
    assert client.get(f"/api/tables/{table.pk}/result/").json()["actions"] == [
        "edit",
        "hand",
        "submit",
        "undo",
    ]


def test_the_api_renders_the_table_state_the_page_builds(client, make_tournament, referee, monkeypatch):
    """One state per request, the page's: the API's answer is rendered from it, not worked out again."""
    from scoring import selectors

    tournament = referee.tournament_roles.get().tournament
    table = seat_session(tournament)[0]
    actor = Actor(user=referee, role=Role.REFEREE)
    for number in (1, 2):
        services.hand_add(table=table, hand=_hand(number), actor=actor, expected_version=None)
    built = []
    original = selectors.table_state

    def counted(**kwargs):
        built.append(original(**kwargs))
        return built[-1]

    monkeypatch.setattr(selectors, "table_state", counted)
    client.force_login(referee)
    body = client.get(f"/api/tables/{table.pk}/result/").json()
    (state,) = built
    assert body["actions"] == sorted(state.actions)
    assert [h["number"] for h in body["hands"]] == [row.number for row in state.hands] == [1, 2]
    assert body["seats"][0]["name"] == state.seats[0].name
    assert body["state"]["round_wind"] == state.round_wind


def test_a_refused_save_with_a_key_is_answered_and_kept_like_any_other(
    make_tournament, referee, queued_not_run
):
    """The key's transaction takes no savepoint around the write; a write refused inside it (stale version,
    a rule) is done again with them, so its answer is the usual one; a refusal keeps no key."""
    tournament = referee.tournament_roles.get().tournament
    table = seat_session(tournament)[0]
    phone = Client()
    phone.get(link_url(table))
    headers = {"HTTP_X_ENTRY_FRAGMENTS": "1"}
    ok = {"action": "hand", "version": version(table), "result": "win", "winner": 0, "discarder": 1, "fan": 8}
    assert phone.post(link_url(table), ok, HTTP_IDEMPOTENCY_KEY="a", **headers).status_code == 200
    stale = phone.post(link_url(table), ok | {"fan": 9}, HTTP_IDEMPOTENCY_KEY="b", **headers)
    assert stale.status_code == 409
    # a refusal keeps no key: sent again, it is refused again the same way, and nothing is stored
    assert (
        phone.post(link_url(table), ok | {"fan": 9}, HTTP_IDEMPOTENCY_KEY="b", **headers).status_code == 409
    )
    assert not IdempotencyRecord.objects.filter(key="b").exists()
    too_small = ok | {"version": version(table), "fan": 3}
    refused = phone.post(link_url(table), too_small, HTTP_IDEMPOTENCY_KEY="c", **headers)
    assert refused.status_code == 400
    assert version(table) == 2  # only the first hand was stored
    assert (
        "Hand 1 saved."
        in phone.post(link_url(table), ok, HTTP_IDEMPOTENCY_KEY="a", **headers).content.decode()
    )


def test_a_table_page_reloaded_unchanged_answers_304_and_a_change_gives_the_new_page(
    make_tournament, referee, queued_not_run
):
    tournament = referee.tournament_roles.get().tournament
    table = seat_session(tournament)[0]
    phone, signed_in = Client(), Client()
    signed_in.force_login(referee)
    for client, url in ((phone, link_url(table)), (signed_in, table_url(table))):
        first = client.get(url)
        assert first.status_code == 200
        tag = first["ETag"]
        with CaptureQueriesContext(connection) as queries:
            again = client.get(url, HTTP_IF_NONE_MATCH=tag)
        assert again.status_code == 304 and again.content == b""
        if client is phone:  # by key: the tournament's stamp only, no query
            assert len(queries) == 0, [q["sql"] for q in queries.captured_queries]
        else:  # signed in: the session and the user, nothing of the table
            assert not any(
                "scoring_" in q["sql"] or "tournaments_seat" in q["sql"] for q in queries.captured_queries
            )
    tag = phone.get(link_url(table))["ETag"]
    hand = {
        "action": "hand",
        "version": version(table),
        "result": "win",
        "winner": 0,
        "discarder": 1,
        "fan": 8,
    }
    assert phone.post(link_url(table), hand).status_code == 302
    shown = phone.get(link_url(table), HTTP_IF_NONE_MATCH=tag)
    assert shown.status_code == 200 and "ETag" not in shown  # a page with a message is never a copy
    assert "Hand 1 saved." in shown.content.decode()
    changed = phone.get(link_url(table), HTTP_IF_NONE_MATCH=tag)
    assert changed.status_code == 200 and changed["ETag"] != tag
    later = phone.get(link_url(table), HTTP_IF_NONE_MATCH=changed["ETag"])
    assert later.status_code == 304
    # another visitor's copy (the referee's) is not the phone's
    assert signed_in.get(link_url(table), HTTP_IF_NONE_MATCH=changed["ETag"]).status_code == 200
