"""Seats corrected after the fact: the hands follow the players, the winds and the dealer come from the
corrected seating, the game replays and the standings follow.

Hands here are stored-shape (seat numbers 0..3 = E, S, W, N); p1..p4 are recorded E..N at table 1.
MCR figures (RULES.md): on a discard with F fan the discarder pays 8+F, the others 8, the winner gains
24+F; self-drawn, each of the three pays 8+F. MERS table points 4/2/1/0.
"""

from __future__ import annotations

import pytest
from django.core.exceptions import PermissionDenied

from rankings.standings.selectors import standings_view
from scoring import services
from scoring.models import Hand, SeatSummary, TableResult
from scoring.rules.base import RuleError
from scoring.services import StaleWrite
from tournaments import services as tournament_services
from tournaments.models import Role, Seat
from tournaments.permissions import Actor

pytestmark = pytest.mark.django_db

SHORT = "Time limit reached"
KEYS = ("p1", "p2", "p3", "p4")
# Really seated: p3 East, p1 South, p2 West, p4 North.
REAL = ["p3", "p1", "p2", "p4"]
WHY = "p1 and p3 sat in each other's places; the score sheet shows it"


def seat_tables(tournament):
    regs = {r.key: r for r in tournament.registrations.all()}
    return tournament_services.session_seat(
        session=tournament.sessions.get(number=1),
        tables=[[regs[k] for k in KEYS], [regs[k] for k in ("p5", "p6", "p7", "p8")]],
    )


@pytest.fixture
def table(tournament):
    return seat_tables(tournament)[0]


@pytest.fixture
def as_referee(referee):
    return Actor(user=referee, role=Role.REFEREE)


@pytest.fixture
def as_director(director):
    return Actor(user=director, role=Role.DIRECTOR)


# Eight MCR hands with the players they name (winner, discarder or None for self-drawn, fan).
MCR_HANDS = [
    ("p1", "p3", 8),
    ("p2", None, 10),
    ("p3", "p4", 12),
    ("p4", "p1", 9),
    ("p1", None, 16),
    ("p2", "p3", 24),
    ("p3", None, 8),
    ("p4", "p2", 11),
]


def mcr_scores(hands) -> dict[str, int]:
    """Each player's game score, worked out from the MCR payments."""
    score = dict.fromkeys(KEYS, 0)
    for winner, discarder, fan in hands:
        for other in KEYS:
            if other == winner:
                continue
            pays = 8 + fan if discarder is None or other == discarder else 8
            score[other] -= pays
            score[winner] += pays
    return score


def stored(winner, discarder, fan, seats=KEYS):
    return {
        "result": "win",
        "winner": seats.index(winner),
        "discarder": None if discarder is None else seats.index(discarder),
        "fan": fan,
    }


def enter_mcr(table, actor):
    version = 1
    for hand in MCR_HANDS:
        version = services.hand_add(
            table=table, hand=stored(*hand), actor=actor, expected_version=version
        ).version
    return version


def test_seats_corrected_after_eight_mcr_hands_keep_each_players_hands_and_the_standings_follow(
    tournament, table, as_referee
):
    version = enter_mcr(table, as_referee)
    result = services.seats_correct(
        table=table, order=REAL, actor=as_referee, expected_version=version, reason=WHY
    )
    assert result.version == version + 1
    seated = {s.registration.key: s.position for s in Seat.objects.filter(table=table)}
    assert seated == {"p3": 0, "p1": 1, "p2": 2, "p4": 3}
    # Every hand now names the seat its player really took.
    for number, (winner, discarder, fan) in enumerate(MCR_HANDS, start=1):
        assert Hand.objects.get(result=result, number=number).data == stored(winner, discarder, fan, REAL)

    version = services.result_confirm(
        table=table, actor=as_referee, expected_version=result.version, short_reason=SHORT
    ).version
    expected = mcr_scores(MCR_HANDS)
    assert expected == {"p1": 29, "p2": 19, "p3": -22, "p4": -26}
    rows = {s.registration.key: s for s in SeatSummary.objects.filter(table=table)}
    assert {k: int(r.game_score) for k, r in rows.items()} == expected
    assert {k: r.position for k, r in rows.items()} == {"p3": 0, "p1": 1, "p2": 2, "p4": 3}
    seen = {r.player: (r.table_points, r.score) for r in standings_view(tournament=tournament).rows}
    assert seen["p1"] == (4, 29)
    assert seen["p2"] == (2, 19)
    assert seen["p3"] == (1, -22)
    assert seen["p4"] == (0, -26)


def test_the_history_says_who_corrected_which_seats_and_why(table, as_referee, referee):
    version = enter_mcr(table, as_referee)
    services.seats_correct(table=table, order=REAL, actor=as_referee, expected_version=version, reason=WHY)
    last = TableResult.objects.get(table=table).history.first()
    assert last.history_user == referee
    assert last.history_change_reason == (
        f"seats corrected to E p3 S p1 W p2 N p4 (recorded E p1 S p2 W p3 N p4): {WHY}"
    )
    hand = Hand.history.filter(number=1).first()
    assert hand.history_change_reason.startswith("seats corrected to E p3")


def test_riichi_dealer_follows_the_corrected_seating(make_tournament, make_user):
    director = make_user("riichi-director")
    tournament = make_tournament(slug="riichi-open", ruleset="ema-riichi-2016", director=director)
    table = seat_tables(tournament)[0]
    actor = Actor(user=director, role=Role.DIRECTOR)
    # Entered with p1 East: p1 declares riichi and wins 3 han 30 fu on p3's discard, as the dealer
    # (960 × 6 = 5760 → 5800), then p2 declares riichi and is alone tenpai.
    services.hand_add(
        table=table,
        hand={"result": "ron", "loser": 2, "winners": [{"player": 0, "han": 3, "fu": 30}], "riichi": [0]},
        actor=actor,
        expected_version=1,
    )
    result = services.hand_add(
        table=table, hand={"result": "draw", "tenpai": [1], "riichi": [1]}, actor=actor, expected_version=2
    )
    # The stick left on the table at the end goes to the first (p1): 34800 + 1000.
    assert services.result_game(result).scores == (35800, 32000, 23200, 29000)
    # Really p2 sat East and p1 South: p1's win is a non-dealer's (960 × 4 = 3840 → 3900) and the deal
    # passes to p1; then p2 tenpai alone gets 1000 from each of the three and leaves a stick.
    result = services.seats_correct(
        table=table, order=["p2", "p1", "p3", "p4"], actor=actor, expected_version=3, reason="E and S swapped"
    )
    game = services.result_game(result)
    # seats now: p2 E, p1 S, p3 W, p4 N
    p2, p1, p3, p4 = game.scores
    # p1 is first and takes the stick left on the table.
    assert (p1, p2, p3, p4) == (30000 + 3900 - 1000 + 1000, 30000 + 3000 - 1000, 30000 - 3900 - 1000, 29000)
    # Confirmed, the standings follow the replayed game: score − 30000 plus the uma by rank (EMA: +15000,
    # +5000, −5000, −15000).
    services.result_confirm(table=table, actor=actor, expected_version=4, short_reason=SHORT)
    rows = {s.registration.key: s for s in SeatSummary.objects.filter(table=table)}
    assert {k: r.position for k, r in rows.items()} == {"p2": 0, "p1": 1, "p3": 2, "p4": 3}
    finals = {k: r.final for k, r in rows.items()}
    assert finals == {"p1": 3900 + 15000, "p2": 2000 + 5000, "p4": -1000 - 5000, "p3": -4900 - 15000}


def test_only_a_referee_or_a_director_corrects_seats(table, as_referee, as_director, scorer):
    version = enter_mcr(table, as_referee)
    for actor in (Actor(user=scorer, role=Role.SCORER), Actor(role="table", table_id=table.pk)):
        with pytest.raises(PermissionDenied):
            services.seats_correct(table=table, order=REAL, actor=actor, expected_version=version, reason=WHY)
    assert (
        services.seats_correct(
            table=table, order=REAL, actor=as_director, expected_version=version, reason=WHY
        ).version
        == version + 1
    )


def test_a_stale_version_is_refused_and_nothing_moves(table, as_referee):
    version = enter_mcr(table, as_referee)
    with pytest.raises(StaleWrite) as caught:
        services.seats_correct(
            table=table, order=REAL, actor=as_referee, expected_version=version - 1, reason=WHY
        )
    assert caught.value.current_version == version
    assert [s.registration.key for s in Seat.objects.filter(table=table).order_by("position")] == list(KEYS)


@pytest.mark.parametrize(
    ("order", "path"),
    [
        (["p1", "p2", "p3"], "order"),
        ("p1p2p3p4", "order"),
        (["p1", "p2", "p3", "p5"], "order[3]"),
        (["p1", "p1", "p3", "p4"], "order[1]"),
        (["p1", "p2", "p3", "p4"], "order"),
        (["p1", "p2", 3, "p4"], "order[2]"),
    ],
)
def test_a_bad_order_names_the_field(table, as_referee, order, path):
    version = enter_mcr(table, as_referee)
    with pytest.raises(RuleError) as caught:
        services.seats_correct(
            table=table, order=order, actor=as_referee, expected_version=version, reason=WHY
        )
    assert caught.value.path == path


def test_a_reason_is_required(table, as_referee):
    with pytest.raises(RuleError) as caught:
        services.seats_correct(table=table, order=REAL, actor=as_referee, expected_version=1, reason=" ")
    assert caught.value.path == "reason"


def test_a_confirmed_table_is_refused_until_reopened(table, as_referee):
    version = enter_mcr(table, as_referee)
    version = services.result_confirm(
        table=table, actor=as_referee, expected_version=version, short_reason=SHORT
    ).version
    with pytest.raises(RuleError) as caught:
        services.seats_correct(
            table=table, order=REAL, actor=as_referee, expected_version=version, reason=WHY
        )
    assert caught.value.path == "status"
    version = services.result_reopen(
        table=table, actor=as_referee, reason="seats", expected_version=version
    ).version
    assert (
        services.seats_correct(
            table=table, order=REAL, actor=as_referee, expected_version=version, reason=WHY
        ).version
        == version + 1
    )


# -- the API ---------------------------------------------------------------------------------------------


def seats_url(table):
    return f"/api/tables/{table.pk}/result/seats/"


def test_the_api_corrects_seats_and_answers_with_the_replayed_table(api_as, table, as_referee, referee):
    version = enter_mcr(table, as_referee)
    response = api_as(referee).post(
        seats_url(table), {"order": REAL, "reason": WHY, "version": version}, format="json"
    )
    assert response.status_code == 200, response.content
    body = response.json()
    assert body["version"] == version + 1
    assert [s["player"] for s in body["seats"]] == REAL
    # hand 1: p1 won on p3's discard, as entered: the keys follow the players
    assert body["hands"][0]["hand"]["winner"] == "p1"
    assert body["hands"][0]["hand"]["discarder"] == "p3"


@pytest.mark.parametrize("who", ["scorer", "table_key", "anonymous", "other_referee"])
def test_only_the_tournaments_referees_and_directors_may_call_it(
    api_as, api, table, as_referee, make_user, make_tournament, scorer, who
):
    version = enter_mcr(table, as_referee)
    body = {"order": REAL, "reason": WHY, "version": version}
    if who == "scorer":
        response = api_as(scorer).post(seats_url(table), body, format="json")
    elif who == "table_key":
        response = api.post(seats_url(table), body, format="json", HTTP_X_TABLE_KEY=table.private_key)
    elif who == "anonymous":
        response = api.post(seats_url(table), body, format="json")
    else:
        other = make_tournament(slug="other-open", director=make_user("other-director"))
        stranger = make_user("other-referee")
        tournament_services.role_grant(tournament=other, user=stranger, role=Role.REFEREE)
        response = api_as(stranger).post(seats_url(table), body, format="json")
    assert response.status_code == 403, response.content
    assert [s.registration.key for s in Seat.objects.filter(table=table).order_by("position")] == list(KEYS)
    assert TableResult.objects.get(table=table).version == version


def test_the_api_answers_409_on_a_stale_version(api_as, table, as_referee, referee):
    version = enter_mcr(table, as_referee)
    response = api_as(referee).post(
        seats_url(table), {"order": REAL, "reason": WHY, "version": version - 1}, format="json"
    )
    assert response.status_code == 409
    assert response.json()["current_version"] == version


@pytest.mark.parametrize(
    ("order", "field"),
    [
        (["p1", "p2", "p3"], "order"),
        (["p1", "p2", "p3", "p7"], "order[3]"),
        (["p1", "p1", "p3", "p4"], "order[1]"),
    ],
)
def test_a_bad_permutation_is_a_400_naming_the_field(api_as, table, as_referee, referee, order, field):
    version = enter_mcr(table, as_referee)
    response = api_as(referee).post(
        seats_url(table), {"order": order, "reason": WHY, "version": version}, format="json"
    )
    assert response.status_code == 400
    assert field in response.json()


def test_the_api_refuses_a_confirmed_table_and_a_missing_reason(api_as, table, as_referee, referee):
    version = enter_mcr(table, as_referee)
    client = api_as(referee)
    response = client.post(seats_url(table), {"order": REAL, "reason": "", "version": version}, format="json")
    assert response.status_code == 400
    assert "reason" in response.json()
    version = services.result_confirm(
        table=table, actor=as_referee, expected_version=version, short_reason=SHORT
    ).version
    response = client.post(
        seats_url(table), {"order": REAL, "reason": WHY, "version": version}, format="json"
    )
    assert response.status_code == 400
    assert response.json()["status"] == ["this table is confirmed; reopen it before correcting its seats"]


def test_a_finished_session_is_refused_as_every_result_change_is(table, as_referee):
    from tournaments.models import Session

    version = enter_mcr(table, as_referee)
    Session.objects.filter(pk=table.session_id).update(status=Session.Status.FINISHED)
    table.session.refresh_from_db()
    with pytest.raises(RuleError) as caught:
        services.seats_correct(
            table=table, order=REAL, actor=as_referee, expected_version=version, reason=WHY
        )
    assert caught.value.path == "status"
    assert [s.registration.key for s in Seat.objects.filter(table=table).order_by("position")] == list(KEYS)


def test_a_substitute_is_named_by_the_key_of_the_seat_they_took_over(api_as, make_tournament, make_user):
    """The API reads a substitute's key as the player they replaced (as hands do)."""
    from penalties.services import penalty_record

    director = make_user("sub-director")
    tournament = make_tournament(slug="sub-open", director=director, substitutes=1)
    table = seat_tables(tournament)[0]
    p2 = tournament.registrations.get(key="p2")
    penalty_record(
        tournament=tournament,
        registration=p2,
        kind="replaced",
        session=table.session,
        substitute=tournament.registrations.get(key="s1"),
        reason="illness",
        actor=Actor(user=director, role=Role.DIRECTOR),
    )
    version = TableResult.objects.filter(table=table).values_list("version", flat=True).first() or 1
    response = api_as(director).post(
        seats_url(table),
        {"order": ["s1", "p1", "p3", "p4"], "reason": WHY, "version": version},
        format="json",
    )
    assert response.status_code == 200, response.content
    assert [s.registration.key for s in Seat.objects.filter(table=table).order_by("position")] == [
        "p2",
        "p1",
        "p3",
        "p4",
    ]


def test_the_history_reads_each_hand_with_the_seating_of_its_time(api_as, table, as_referee, referee):
    version = enter_mcr(table, as_referee)
    services.seats_correct(table=table, order=REAL, actor=as_referee, expected_version=version, reason=WHY)
    entries = api_as(referee).get(f"/api/tables/{table.pk}/result/history/").json()
    hand_one = [e for e in entries if e["what"] == "hand 1"]
    # entered with p1 East, corrected with p1 South: both records name p1 winning on p3's discard
    assert [(e["change"], e["hand"]["winner"], e["hand"]["discarder"]) for e in hand_one] == [
        ("+", "p1", "p3"),
        ("~", "p1", "p3"),
    ]
    assert hand_one[1]["who"] == "referee" and hand_one[1]["reason"].endswith(WHY)


def test_the_table_page_history_shows_the_seats_before_and_after(client, table, as_referee, referee):
    from scoring import selectors

    version = enter_mcr(table, as_referee)
    services.seats_correct(table=table, order=REAL, actor=as_referee, expected_version=version, reason=WHY)
    entries = selectors.table_history(table=table)
    seats = [e for e in entries if e.what == "Seats"]
    assert len(seats) == 1
    assert seats[0].before.startswith("E Player1") and seats[0].after.startswith("E Player3")
    assert seats[0].why.endswith(WHY)
    changed = [e for e in entries if e.what == "Hand 1 changed"]
    assert len(changed) == 1 and changed[0].before == changed[0].after  # the hand stayed with its players


def test_a_hand_valued_from_its_tiles_is_valued_again_with_the_real_seat_wind(api_as, table, referee):
    """p2, recorded South, won with a pung of South wind: Robbing the Kong 8 + Seat Wind 2 + Short Straight 1
    = 11 fan. p2 really sat West: the pung is no longer the seat wind, only a pung of honours (1): 10 fan."""
    tiles = {
        "hand": "234m567m99p",
        "melds": ["pung 2z", "chow 345s"],
        "winning_tile": "4m",
        "robbing_kong": True,
    }
    client = api_as(referee)
    response = client.post(
        f"/api/tables/{table.pk}/result/hands/",
        {"version": 1, "result": "win", "winner": "p2", "discarder": "p3", "tiles": tiles},
        format="json",
    )
    assert response.status_code == 201, response.content
    items = {i["name"] for i in response.json()["hands"][0]["valuation"]["wins"][0]["computed"]["items"]}
    assert "Seat Wind" in items and response.json()["hands"][0]["hand"]["fan"] == 11
    response = client.post(seats_url(table), {"order": REAL, "reason": WHY, "version": 2}, format="json")
    assert response.status_code == 200, response.content
    hand = response.json()["hands"][0]
    items = {i["name"]: i["value"] for i in hand["valuation"]["wins"][0]["computed"]["items"]}
    assert items == {"Robbing The Kong": 8, "Short Straight": 1, "Pung of Terminals or Honors": 1}
    assert hand["hand"]["fan"] == 10
    # p2 wins on p3's discard with the new value: p3 pays 8+F, the others 8
    fan = hand["hand"]["fan"]
    seats_now = {key: i for i, key in enumerate(REAL)}
    scores = hand["after"]["scores"]
    assert scores[seats_now["p2"]] == 24 + fan
    assert scores[seats_now["p3"]] == -(8 + fan)


def test_the_seat_rows_keep_their_ids_and_a_seat_read_before_reads_the_real_wind(
    api_as, table, as_referee, referee
):
    version = enter_mcr(table, as_referee)
    before = {s.registration.key: s.pk for s in Seat.objects.filter(table=table)}
    # a three-player cycle and a fixed seat: p3 E, p1 S, p2 W, p4 stays N
    services.seats_correct(table=table, order=REAL, actor=as_referee, expected_version=version, reason=WHY)
    after = {s.registration.key: (s.pk, s.position) for s in Seat.objects.filter(table=table)}
    assert {k: pk for k, (pk, _wind) in after.items()} == before
    assert {k: wind for k, (_pk, wind) in after.items()} == {"p3": 0, "p1": 1, "p2": 2, "p4": 3}
    # the API's seat, by the id a client kept, names the wind really taken
    seat = api_as(referee).get(f"/api/seats/{before['p1']}/")
    assert seat.status_code == 200 and seat.json()["position"] == 1
    # a swap back (two players) also keeps them
    services.seats_correct(
        table=table,
        order=["p1", "p3", "p2", "p4"],
        actor=as_referee,
        expected_version=version + 1,
        reason=WHY,
    )
    assert {s.registration.key: s.pk for s in Seat.objects.filter(table=table)} == before
    assert not Seat.objects.filter(position__gt=3).exists()
