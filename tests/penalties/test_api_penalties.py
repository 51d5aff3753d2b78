"""The penalties API: archive-shaped penalties with player keys, amounts from the ruleset, public list."""

from __future__ import annotations

import pytest

from penalties.models import Penalty
from tournaments import services as tournament_services

pytestmark = pytest.mark.django_db


@pytest.fixture
def tournament(make_tournament, director):
    return make_tournament(slug="open-2026", director=director, substitutes=1)


@pytest.fixture
def tables(tournament):
    regs = {r.key: r for r in tournament.registrations.all()}
    return tournament_services.session_seat(
        session=tournament.sessions.get(number=1),
        tables=[[regs[k] for k in ("p1", "p2", "p3", "p4")], [regs[k] for k in ("p5", "p6", "p7", "p8")]],
    )


@pytest.fixture
def ref(api_as, referee):
    return api_as(referee)


def post(client, **penalty):
    return client.post("/api/penalties/", {"tournament": "open-2026", "session": 1, **penalty}, format="json")


def test_amounts_come_from_the_ruleset(ref, tables):
    late = post(ref, player="p3", kind="late_arrival", minutes_late=7)
    assert late.status_code == 201, late.content
    assert (late.json()["points"], late.json()["disqualifies"]) == (-10, False)  # < 10 min: 10 (MERS 2.2)
    fouls = [
        post(ref, player="p4", kind="foul", reason="took a tile out of turn").json()["points"]
        for _ in range(3)
    ]
    assert fouls == [0, -5, -10]  # warning, 5, 10 (MERS 3.1)
    false_hu = post(ref, player="p2", table=1, hand=1, kind="false_hu", variant="invalid_hand").json()
    assert false_hu["transfers"] == {"offender": -60, "each_other": 20}  # 20 to each of three (2.9.2)
    assert (false_hu["table"], false_hu["hand"], false_hu["points"]) == (1, 1, 0)
    tile = post(ref, player="p1", table=1, hand=1, kind="forgot_winning_tile").json()
    assert tile["points"] == -10  # MERS 2.8.7


def test_a_referee_decision_carries_its_points_and_reason(ref, tables):
    response = post(ref, player="p1", kind="referee", points=-15, reason="deliberate slow play")
    assert response.status_code == 201
    assert (response.json()["points"], response.json()["reason"]) == (-15, "deliberate slow play")
    out_of_bounds = post(ref, player="p1", kind="referee", points=-2000, reason="x")
    assert out_of_bounds.status_code == 400
    assert out_of_bounds.json()["points"] == ["points -2000 is outside the ruleset's bounds -1000 to 0"]


def test_a_disqualification_from_the_tournament_has_no_session(ref, api, tables):
    response = ref.post(
        "/api/penalties/",
        {
            "tournament": "open-2026",
            "player": "p3",
            "kind": "disqualified",
            "scope": "tournament",
            "reason": "cheating",
        },
        format="json",
    )
    assert response.status_code == 201, response.content
    listed = api.get("/api/penalties/?tournament=open-2026&kind=disqualified").json()["results"]
    assert [(p["player"], p["session"], p["table"], p["scope"]) for p in listed] == [
        ("p3", None, None, "tournament")
    ]


def test_a_substitution_names_the_substitute_by_key(ref, tables):
    response = post(ref, player="p2", kind="replaced", by="s1", reason="illness", during=True)
    assert response.status_code == 201, response.content
    assert (response.json()["player"], response.json()["by"], response.json()["during"]) == ("p2", "s1", True)
    again = post(ref, player="p6", kind="replaced", by="s1", reason="illness")
    assert again.json()["by"] == ["s1 already replaces p2 in session 1"]


@pytest.mark.parametrize(
    ("penalty", "field", "message"),
    [
        (
            {"player": "p99", "kind": "late_arrival", "minutes_late": 3},
            "player",
            "p99 is not registered in this tournament",
        ),
        (
            {"player": "p1", "kind": "late_arrival", "minutes_late": 3, "session": 9},
            "session",
            "there is no session 9 in this tournament",
        ),
        (
            {"player": "p5", "kind": "forgot_winning_tile", "table": 1},
            "player",
            "p5 is not seated at table 1",
        ),
        (
            {"player": "p1", "kind": "forgot_winning_tile", "table": 7},
            "table",
            "there is no table 7 in session 1",
        ),
        (
            {"player": "p1", "kind": "replaced", "by": "s9", "reason": "illness"},
            "by",
            "s9 is not registered in this tournament",
        ),
        ({"player": "p1", "kind": "late_arrival"}, "minutes_late", "a late arrival needs the minutes late"),
        ({"player": "p1", "kind": "chombo"}, "kind", "chombo has no amount under the mcr rules"),
        ({"player": "p1", "kind": "referee", "points": True, "reason": "x"}, "points", None),
        ({"player": "p1", "kind": "late_arrival", "minutes_late": -3}, "minutes_late", None),
        ({"player": "p1", "kind": "sneezing"}, "kind", None),
    ],
)
def test_bad_penalties_get_400_naming_the_field(ref, tables, penalty, field, message):
    response = post(ref, **penalty)
    assert response.status_code == 400, response.content
    if message:
        assert response.json()[field] == [message]
    else:
        assert field in response.json()
    assert not Penalty.objects.exists()


def test_cancel_and_appeal(ref, api, tables):
    penalty = post(ref, player="p3", kind="late_arrival", minutes_late=12).json()
    appealed = ref.post(
        f"/api/penalties/{penalty['id']}/appeal/",
        {"appeal": "the clock was fast", "decision": "upheld: the official clock was right"},
        format="json",
    )
    assert appealed.status_code == 200
    assert appealed.json()["appeal_decision"] == "upheld: the official clock was right"
    no_reason = ref.post(f"/api/penalties/{penalty['id']}/cancel/", {"reason": ""}, format="json")
    assert no_reason.json()["reason"] == ["cancelling a penalty needs a reason"]
    cancelled = ref.post(f"/api/penalties/{penalty['id']}/cancel/", {"reason": "wrong player"}, format="json")
    assert cancelled.status_code == 200
    assert (cancelled.json()["active"], cancelled.json()["cancel_reason"]) == (False, "wrong player")
    # the public no longer sees it; the staff still do
    assert api.get("/api/penalties/?tournament=open-2026").json()["results"] == []
    staff = ref.get("/api/penalties/?tournament=open-2026&status=cancelled").json()["results"]
    assert [p["id"] for p in staff] == [penalty["id"]]


def test_the_list_filters_by_session_player_and_kind(ref, api, tables):
    post(ref, player="p3", kind="late_arrival", minutes_late=12)
    post(ref, player="p4", kind="foul", reason="slow")
    post(ref, player="p4", kind="referee", points=-5, reason="rude")
    by_player = api.get("/api/penalties/?tournament=open-2026&player=p4").json()["results"]
    assert [(p["kind"], p["points"]) for p in by_player] == [("foul", 0), ("referee", -5)]
    by_kind = api.get("/api/penalties/?tournament=open-2026&kind=late_arrival").json()["results"]
    assert [(p["player"], p["points"], p["minutes_late"]) for p in by_kind] == [("p3", -20, 12)]
    assert api.get("/api/penalties/?tournament=open-2026&session=2").json()["results"] == []


def test_penalties_of_a_private_tournament_are_hidden(make_tournament, make_user, api, api_as):
    director = make_user("closed-director")
    closed = make_tournament(slug="closed", director=director, is_public=False)
    regs = {r.key: r for r in closed.registrations.all()}
    tournament_services.session_seat(
        session=closed.sessions.get(number=1), tables=[[regs[k] for k in ("p1", "p2", "p3", "p4")]]
    )
    made = api_as(director).post(
        "/api/penalties/",
        {"tournament": "closed", "player": "p1", "session": 1, "kind": "late_arrival", "minutes_late": 2},
        format="json",
    )
    assert made.status_code == 201
    assert api.get("/api/penalties/?tournament=closed").json()["results"] == []
    assert api.get(f"/api/penalties/{made.json()['id']}/").status_code == 404
    stranger = make_user("stranger")
    response = api_as(stranger).post(
        "/api/penalties/",
        {"tournament": "closed", "player": "p1", "session": 1, "kind": "late_arrival", "minutes_late": 2},
        format="json",
    )
    assert response.status_code == 400
    assert response.json()["tournament"] == ["there is no tournament closed"]
