"""The result entry API: hands with player keys, the running state, totals, versions, confirmation.

Figures (RULES.md, MCR): a win on a discard with F fan: the discarder pays 8+F, the two others 8, the
winner gains 24+F; self-drawn: each pays 8+F.
"""

from __future__ import annotations

import pytest

from scoring.models import Hand, TableResult
from tournaments import services as tournament_services
from tournaments.models import Role

pytestmark = pytest.mark.django_db

KEYS = ("p1", "p2", "p3", "p4")


def seat(tournament, *tables, session=1):
    regs = {r.key: r for r in tournament.registrations.all()}
    return tournament_services.session_seat(
        session=tournament.sessions.get(number=session), tables=[[regs[k] for k in t] for t in tables]
    )


@pytest.fixture
def tables(tournament):
    return seat(tournament, KEYS, ("p5", "p6", "p7", "p8"))


@pytest.fixture
def table(tables):
    return tables[0]


def url(table, tail=""):
    return f"/api/tables/{table.pk}/result/{tail}"


def win(winner, discarder, fan, version, **extra):
    return {
        "result": "win",
        "winner": winner,
        "discarder": discarder,
        "fan": fan,
        "version": version,
        **extra,
    }


def test_a_scorer_enters_hands_with_player_keys_and_reads_the_running_scores(api_as, scorer, table):
    client = api_as(scorer)
    # 8 fan on p3's discard: p1 +24+8 = +32; p3 pays 8+8 = 16; p2 and p4 pay 8.
    first = client.post(url(table, "hands/"), win("p1", "p3", 8, 1), format="json")
    assert first.status_code == 201, first.content
    body = first.json()
    assert body["version"] == 2
    assert body["hands"][0]["hand"] == {"result": "win", "winner": "p1", "discarder": "p3", "fan": 8}
    assert body["hands"][0]["after"]["scores"] == [32, -8, -16, -8]
    # p2 self-drawn 10 fan: each pays 18, p2 +54. Running: 32-18=14, -8+54=46, -16-18=-34, -8-18=-26.
    second = client.post(url(table, "hands/"), win("p2", None, 10, 2), format="json")
    assert second.status_code == 201, second.content
    body = second.json()
    assert body["hands"][1]["after"]["deltas"] == [-18, 54, -18, -18]
    assert body["scores"] == [14, 46, -34, -26]
    assert body["state"]["hands_played"] == 2
    assert body["state"]["round_wind"] == "E"  # four hands to a round under MCR
    assert [s["player"] for s in body["seats"]] == list(KEYS)
    # what is stored uses seat numbers: p2 is seat 1 (South)
    assert Hand.objects.get(result__table=table, number=2).data["winner"] == 1


def test_riichi_running_state_shows_dealer_wind_counters_and_sticks(api_as, make_tournament, make_user):
    director = make_user("riichi-director")
    tournament = make_tournament(slug="riichi-open", ruleset="ema-riichi-2016", director=director)
    table = seat(tournament, KEYS)[0]
    client = api_as(director)
    # East 1: dealer p1 (seat 0) declares riichi and wins 3 han 30 fu on p3's discard:
    # 960 × 6 = 5760 → 5800; p1's own stick comes back. The dealer keeps the deal, +1 counter.
    hand = {
        "result": "ron",
        "loser": "p3",
        "winners": [{"player": "p1", "han": 3, "fu": 30}],
        "riichi": ["p1"],
        "version": 1,
    }
    response = client.post(url(table, "hands/"), hand, format="json")
    assert response.status_code == 201, response.content
    after = response.json()["hands"][0]["after"]
    assert after == {
        "deltas": [5800, 0, -5800, 0],
        "scores": [35800, 30000, 24200, 30000],
        "dealer": "p1",
        "round_wind": "E",
        "counters": 1,
        "sticks": 0,
        "replayed": False,
    }
    # East 1, 1 counter: p2 declares riichi and is alone tenpai: 1000 from each noten player, less the
    # 1000 stick left on the table. The dealer p1 is noten: the deal passes to p2, counters 2.
    draw = {"result": "draw", "tenpai": ["p2"], "riichi": ["p2"], "version": 2}
    body = client.post(url(table, "hands/"), draw, format="json").json()
    assert body["hands"][1]["after"]["deltas"] == [-1000, 2000, -1000, -1000]
    assert body["state"] == {
        "hands_played": 2,
        "scores": [34800, 32000, 23200, 29000],
        "dealer": "p2",
        "round_wind": "E",
        "counters": 2,
        "sticks": 1,
        "game_over": False,
    }


def test_a_player_key_not_at_the_table_is_refused_by_name_and_nothing_is_saved(api_as, scorer, table):
    response = api_as(scorer).post(url(table, "hands/"), win("p5", "p3", 8, 1), format="json")
    assert response.status_code == 400
    assert response.json()["winner"] == ["p5 is not seated at table 1"]
    assert not Hand.objects.filter(result__table=table).exists()


def test_a_hand_below_the_mcr_minimum_names_the_field_and_the_rule(api_as, scorer, table):
    client = api_as(scorer)
    client.post(url(table, "hands/"), win("p1", "p3", 8, 1), format="json")
    response = client.post(url(table, "hands/"), win("p2", "p4", 6, 2), format="json")
    assert response.status_code == 400
    assert response.json()["fan"] == ["fan 6 is below the MCR minimum of 8 (flowers do not count)"]
    result = TableResult.objects.get(table=table)
    assert (result.version, result.hands.count()) == (2, 1)


def test_a_seventeenth_mcr_hand_is_refused(api_as, scorer, table):
    client = api_as(scorer)
    for version in range(1, 17):
        assert (
            client.post(
                url(table, "hands/"), {"result": "draw", "version": version}, format="json"
            ).status_code
            == 201
        )
    response = client.post(url(table, "hands/"), {"result": "draw", "version": 17}, format="json")
    assert response.status_code == 400
    assert "an MCR session has at most 16 hands" in response.json()["detail"]


def test_a_stale_version_gets_409_with_the_current_version_and_state(api_as, scorer, referee, table):
    api_as(referee).post(url(table, "hands/"), win("p1", "p3", 8, 1), format="json")
    response = api_as(scorer).post(url(table, "hands/"), win("p2", "p3", 9, 1), format="json")
    assert response.status_code == 409
    body = response.json()
    assert body["current_version"] == 2
    assert body["result"]["version"] == 2
    assert [h["hand"]["winner"] for h in body["result"]["hands"]] == ["p1"]
    assert Hand.objects.filter(result__table=table).count() == 1


def test_a_write_without_a_version_is_refused(api_as, scorer, table):
    response = api_as(scorer).post(url(table, "hands/"), {"result": "draw"}, format="json")
    assert response.status_code == 400
    assert "version" in response.json()
    assert not TableResult.objects.filter(table=table).exists()


def test_correcting_a_hand_needs_a_reason_and_replays_the_game(api_as, scorer, table):
    client = api_as(scorer)
    client.post(url(table, "hands/"), win("p1", "p3", 8, 1), format="json")
    missing = client.put(url(table, "hands/1/"), win("p1", "p4", 8, 2), format="json")
    assert missing.status_code == 400
    assert missing.json()["reason"] == ["editing a hand needs a reason"]
    # p4 was the discarder, not p3: p4 pays 16, p3 pays 8.
    fixed = client.put(url(table, "hands/1/"), win("p1", "p4", 8, 2, reason="wrong discarder"), format="json")
    assert fixed.status_code == 200, fixed.content
    assert fixed.json()["scores"] == [32, -8, -8, -16]
    # PATCH changes only the fields given: 12 fan on p4's discard → p1 +36, p4 −20.
    patched = client.patch(
        url(table, "hands/1/"), {"fan": 12, "version": 3, "reason": "fan recounted"}, format="json"
    )
    assert patched.status_code == 200, patched.content
    assert patched.json()["hands"][0]["hand"] == {
        "result": "win",
        "winner": "p1",
        "discarder": "p4",
        "fan": 12,
    }
    assert patched.json()["scores"] == [36, -8, -8, -20]
    assert client.put(url(table, "hands/5/"), win("p1", "p4", 8, 4, reason="x"), format="json").json() == {
        "number": ["there is no hand 5 at this table"],
        "detail": "number: there is no hand 5 at this table",
    }


def test_undo_removes_the_last_hand_only(api_as, scorer, table):
    client = api_as(scorer)
    client.post(url(table, "hands/"), win("p1", "p3", 8, 1), format="json")
    client.post(url(table, "hands/"), win("p2", None, 10, 2), format="json")
    response = client.delete(url(table, "hands/last/") + "?version=3")
    assert response.status_code == 200, response.content
    body = response.json()
    assert [h["number"] for h in body["hands"]] == [1]
    assert body["scores"] == [32, -8, -16, -8]
    assert body["version"] == 4


def test_totals_must_balance_unless_a_referee_states_why(api_as, scorer, referee, table):
    sheet = {"scores": [40, 10, -20, -20], "version": 1}
    response = api_as(scorer).put(url(table, "totals/"), sheet, format="json")
    assert response.status_code == 400
    assert response.json()["scores"][0].startswith("MCR totals sum to 10, not 0")
    # a scorer cannot accept an imbalance
    forced = api_as(scorer).put(
        url(table, "totals/"), {**sheet, "imbalance_reason": "sheet says so"}, format="json"
    )
    assert forced.status_code == 403
    accepted = api_as(referee).put(
        url(table, "totals/"),
        {**sheet, "imbalance_reason": "10 deducted at the table for slow play"},
        format="json",
    )
    assert accepted.status_code == 200, accepted.content
    assert accepted.json()["mode"] == "totals"
    assert accepted.json()["scores"] == [40, 10, -20, -20]
    assert accepted.json()["imbalance_reason"] == "10 deducted at the table for slow play"


def test_submit_confirm_and_reopen_show_the_per_seat_summary(api, api_as, scorer, referee, table):
    client = api_as(scorer)
    client.put(url(table, "totals/"), {"scores": [60, 60, -20, -100], "version": 1}, format="json")
    assert client.post(url(table, "submit/"), {"version": 2}, format="json").json()["status"] == "submitted"
    confirmed = api_as(referee).post(
        url(table, "confirm/"), {"version": 3, "short_reason": "Time limit reached"}, format="json"
    )
    assert confirmed.status_code == 200, confirmed.content
    # +60/+60/−20/−100 → the two leaders share 4+2: 3 each; then 1 and 0 (RULES.md).
    summary = {row["player"]: row["table_points"] for row in confirmed.json()["summary"]}
    assert summary == {"p1": 3, "p2": 3, "p3": 1, "p4": 0}
    # a confirmed result of a public tournament is public
    public = api.get(url(table))
    assert public.status_code == 200
    assert public.json()["summary"][0]["game_score"] == 60
    missing_reason = api_as(referee).post(url(table, "reopen/"), {"version": 4, "reason": " "}, format="json")
    assert missing_reason.status_code == 400
    assert missing_reason.json()["reason"] == ["reopening a table needs a reason"]
    reopened = api_as(referee).post(
        url(table, "reopen/"), {"version": 4, "reason": "p3's total misread"}, format="json"
    )
    assert reopened.status_code == 200
    assert (reopened.json()["status"], reopened.json()["summary"]) == ("submitted", None)
    assert api.get(url(table)).status_code == 403  # a draft again


def test_drafts_are_shown_to_staff_and_to_the_table_link_only(api, api_as, scorer, table, tables):
    api_as(scorer).post(url(table, "hands/"), win("p1", "p3", 8, 1), format="json")
    assert api.get(url(table)).status_code == 403
    assert api.get(url(table), HTTP_X_TABLE_KEY=table.private_key).status_code == 200
    assert api.get(url(table) + f"?key={table.private_key}").status_code == 200
    assert api.get(url(tables[1]), HTTP_X_TABLE_KEY=table.private_key).status_code == 403
    assert api_as(scorer).get(url(table)).json()["hands"][0]["hand"]["winner"] == "p1"


def test_results_of_a_private_tournament_are_hidden(api, make_tournament, make_user):
    tournament = make_tournament(slug="closed", director=make_user("closed-director"), is_public=False)
    table = seat(tournament, KEYS)[0]
    assert api.get(url(table)).status_code == 404
    assert api.post(url(table, "hands/"), {"result": "draw", "version": 1}, format="json").status_code == 404
    # the table's own key still opens it
    with_key = api.post(
        url(table, "hands/"),
        {"result": "draw", "version": 1},
        format="json",
        HTTP_X_TABLE_KEY=table.private_key,
    )
    assert with_key.status_code == 201


def test_a_substitute_is_named_by_their_own_key(api_as, make_tournament, make_user):
    from penalties.services import penalty_record
    from tournaments.permissions import Actor

    director = make_user("sub-director")
    tournament = make_tournament(slug="with-subs", director=director, substitutes=1)
    table = seat(tournament, KEYS)[0]
    regs = {r.key: r for r in tournament.registrations.all()}
    penalty_record(
        tournament=tournament,
        registration=regs["p2"],
        kind="replaced",
        actor=Actor(user=director, role=Role.DIRECTOR),
        session=tournament.sessions.get(number=1),
        substitute=regs["s1"],
        reason="illness",
    )
    response = api_as(director).post(url(table, "hands/"), win("s1", "p4", 8, 1), format="json")
    assert response.status_code == 201, response.content
    body = response.json()
    assert body["seats"][1] == {"wind": "S", "player": "p2", "name": "Player2 with-subs", "substitute": "s1"}
    assert body["scores"] == [-8, 32, -8, -16]  # the South seat wins


def test_the_history_lists_every_change_with_user_and_reason(api, api_as, scorer, referee, table):
    api_as(scorer).post(url(table, "hands/"), win("p1", "p3", 8, 1), format="json")
    api_as(referee).put(
        url(table, "hands/1/"), win("p1", "p4", 8, 2, reason="wrong discarder"), format="json"
    )
    assert api.get(url(table, "history/")).status_code == 403
    entries = api_as(referee).get(url(table, "history/")).json()
    hand_entries = [(e["who"], e["change"], e["reason"]) for e in entries if e["what"] == "hand 1"]
    assert hand_entries == [("scorer", "+", "hand 1 added"), ("referee", "~", "wrong discarder")]
    assert [e["hand"]["discarder"] for e in entries if e["what"] == "hand 1"] == ["p3", "p4"]


def test_the_schema_documents_the_result_and_penalty_routes(api):
    schema = api.get("/api/schema/", HTTP_ACCEPT="application/json").content.decode()
    for path in (
        "/api/tables/{table_pk}/result/",
        "/api/tables/{table_pk}/result/hands/",
        "/api/tables/{table_pk}/result/hands/{number}/",
        "/api/tables/{table_pk}/result/hands/last/",
        "/api/tables/{table_pk}/result/totals/",
        "/api/tables/{table_pk}/result/confirm/",
        "/api/penalties/{id}/cancel/",
    ):
        assert path in schema


def test_the_documented_shape_is_the_shape_served(api_as, referee, table):
    from scoring.api import ResultSerializer, RunningStateSerializer, StepSerializer, SummarySerializer

    client = api_as(referee)
    client.post(url(table, "hands/"), win("p1", "p3", 8, 1), format="json")
    body = client.post(
        url(table, "confirm/"), {"version": 2, "short_reason": "Time limit reached"}, format="json"
    ).json()
    assert set(body) == set(ResultSerializer().fields)
    assert set(body["hands"][0]["after"]) == set(StepSerializer().fields)
    assert set(body["state"]) == set(RunningStateSerializer().fields)
    assert set(body["summary"][0]) == set(SummarySerializer().fields)
    assert body["summary"][0]["table_points"] == 4 and isinstance(body["summary"][0]["game_score"], int)


def test_a_table_reads_the_penalties_that_can_touch_it_not_the_other_tables_players(
    api_as, make_tournament, make_user
):
    """A table's state reads its own players' penalties and its substitutes', not those of the session's
    other tables (the save of a hand does not grow with the session); the scores are the same as with
    every penalty of the session."""
    from penalties.services import active_penalties, penalty_record
    from scoring import selectors
    from scoring.services import table_outcome
    from tournaments.models import Table
    from tournaments.permissions import Actor

    director = make_user("reads-director")
    tournament = make_tournament(slug="penalty-reads", director=director, substitutes=1)
    first, _ = seat(tournament, KEYS, ("p5", "p6", "p7", "p8"))
    regs = {r.key: r for r in tournament.registrations.all()}
    session = tournament.sessions.get(number=1)
    actor = Actor(user=director, role=Role.DIRECTOR)

    def record(key, kind, **more):
        return penalty_record(
            tournament=tournament, registration=regs[key], kind=kind, actor=actor, session=session, **more
        )

    elsewhere = record("p6", "referee", points=-9, reason="slow play")
    mine = record("p1", "referee", points=-5, reason="slow play")
    replaced = record("p2", "replaced", substitute=regs["s1"], reason="illness")
    substitute = record("s1", "referee", points=-3, reason="slow play")  # now seated at the first table
    answer = api_as(director).post(url(first, "hands/"), win("s1", "p4", 8, 1), format="json")
    assert answer.status_code == 201, answer.content
    read = selectors._table_penalties(Table.objects.select_related("session__tournament").get(pk=first.pk))
    assert [p.pk for p in read] == [mine.pk, replaced.pk, substitute.pk]
    assert elsewhere.pk not in [p.pk for p in selectors._table_penalties(first)]
    state = selectors.table_state(table=Table.objects.get(pk=first.pk))
    _, every, credited, _ = table_outcome(
        TableResult.objects.get(table=first),
        registrations=[s.registration for s in state.seats],
        penalties=active_penalties(session=session),
    )
    assert [row.final for row in state.outcome] == [selectors.signed(s.final) for s in every.seats]
    assert [r.key for r in credited] == ["p1", "s1", "p3", "p4"]
    assert answer.json()["scores"] == [-8, 32, -8, -16]  # the South seat (s1) wins
    assert [row.final for row in state.outcome] == ["−13", "+29", "−8", "−16"]  # p1 and s1 fined
