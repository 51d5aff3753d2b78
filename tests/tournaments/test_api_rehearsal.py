"""A whole MCR tournament played through the API as a club's scoring app or a federation's integration
would: API tokens only (no cookie, Django's CSRF check on as on the server), every write with an
Idempotency-Key and sent twice (the second answer is the first one replayed, and nothing is stored twice).

Create, staff, register, seat, publish, start, hands, a penalty, a correction, confirm, finish, reopen with
one reason, a referee's correction after the finish, finish again, the EMA pack; the standings and the
pack's results file checked against the figures worked out here from the hands themselves."""

from __future__ import annotations

import csv
import io
import uuid
import zipfile
from collections import defaultdict
from fractions import Fraction

import pytest
from django.core.management import call_command
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from idempotency.models import IdempotencyRecord
from penalties.models import Penalty
from scoring.models import Hand

pytestmark = pytest.mark.django_db

SLUG = "club-open"
PLAYERS = [
    ("Ana", "Ruiz", "ESP", "04010001"),
    ("Bea", "Soto", "ESP", "04010002"),
    ("Carl", "Olsen", "DNK", "06010003"),
    ("Dirk", "Maas", "NLD", "07010004"),
    ("Eva", "Novak", "CZE", ""),
    ("Finn", "Berg", "NOR", "05010006"),
    ("Gus", "Lind", "SWE", ""),
    ("Hana", "Kral", "CZE", "08010008"),
]
TABLE_POINTS = (4, 2, 1, 0)  # MCR: 4, 2, 1, 0 by the game's order (no ties in these games)


class Integration:
    """One API client with a token; every write carries a fresh Idempotency-Key and is sent twice."""

    def __init__(self, user):
        self.client = APIClient(enforce_csrf_checks=True)
        self.client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=user).key}")

    def get(self, path: str):
        response = self.client.get(path)
        assert response.status_code == 200, (path, response.content)
        return response.json()

    def write(self, method: str, path: str, body: dict | None = None, *, expect: int = 200):
        key = uuid.uuid4().hex
        send = getattr(self.client, method)
        first = send(path, body or {}, format="json", HTTP_IDEMPOTENCY_KEY=key)
        assert first.status_code == expect, (method, path, first.status_code, first.content)
        again = send(path, body or {}, format="json", HTTP_IDEMPOTENCY_KEY=key)
        assert (again.status_code, again.content) == (first.status_code, first.content), path
        assert again["Idempotent-Replayed"] == "true"
        return first.json() if first.content else None


def hands_for(seats: list[str]) -> list[tuple[dict, dict[str, int]]]:
    """The hands of one table by its seats (E, S, W, N), each with what it pays (MCR: 8 from each loser,
    the fan from the discarder or from each player on a self-draw)."""
    e, s, w, n = seats
    return [
        (
            {"result": "win", "winner": e, "discarder": s, "fan": 10},
            {e: 8 + 8 + 18, s: -18, w: -8, n: -8},
        ),
        ({"result": "win", "winner": w, "discarder": None, "fan": 8}, {w: 48, e: -16, s: -16, n: -16}),
        ({"result": "draw"}, {e: 0, s: 0, w: 0, n: 0}),
    ]


def add(total: dict[str, int], change: dict[str, int]) -> None:
    for key, value in change.items():
        total[key] += value


def table_points_of(scores: dict[str, int]) -> dict[str, int]:
    order = sorted(scores, key=lambda k: -scores[k])
    assert len(set(scores.values())) == 4, scores  # the hands are chosen so that nobody ties
    return {key: TABLE_POINTS[i] for i, key in enumerate(order)}


@pytest.fixture
def people(make_user):
    organiser = make_user("club-app")
    call_command("organiser", "add", "club-app")
    return {"organiser": organiser, "referee": make_user("ref-app"), "scorer": make_user("scorer-app")}


@pytest.fixture
def media(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"
    return settings.MEDIA_ROOT


def test_a_whole_tournament_through_the_api_with_tokens_and_repeated_writes(
    people, media, django_capture_on_commit_callbacks
):
    director = Integration(people["organiser"])
    referee = Integration(people["referee"])
    scorer = Integration(people["scorer"])
    console = f"/api/tournaments/{SLUG}/console"

    # -- create, staff, players ------------------------------------------------------------------------
    made = director.write(
        "post",
        "/api/tournaments/",
        {"name": "Club Open", "slug": SLUG, "ruleset": "mcr", "starts_on": "2026-09-12", "country": "ESP"},
        expect=201,
    )
    tournament_id = made["id"]
    for number, hour in ((1, 10), (2, 15)):
        director.write(
            "post",
            "/api/sessions/",
            {"tournament": tournament_id, "number": number, "starts_at": f"2026-09-12T{hour}:00:00Z"},
            expect=201,
        )
    director.write("post", f"{console}/staff/", {"who": "ref-app", "role": "referee"}, expect=201)
    director.write("post", f"{console}/staff/", {"who": "scorer-app", "role": "scorer"}, expect=201)
    names = {}
    for first, last, country, ema_id in PLAYERS:
        body = {
            "first_name": first,
            "last_name": last,
            "country": country,
            **({"ema_id": ema_id} if ema_id else {}),
        }
        row = director.write("post", f"{console}/players/", body, expect=201)
        names[row["key"]] = f"{first} {last}"
    assert len(names) == 8

    # -- two sessions: seat, publish, start, hands, confirm, finish ------------------------------------
    scores: dict[str, int] = defaultdict(int)
    table_points: dict[str, int] = defaultdict(int)
    penalty_points: dict[str, int] = defaultdict(int)
    director.write("post", f"/api/tournaments/{SLUG}/seating/generate/", {"sessions": [1, 2], "seed": 7})
    first_table = None
    for number in (1, 2):
        published = director.write("post", f"/api/tournaments/{SLUG}/seating/{number}/publish/")
        assert published is not None
        state = director.write("post", f"{console}/sessions/{number}/advance/")
        assert state["status"] == "playing", state  # published: seated; the advance starts it
        tables = _rows(director.get(f"/api/tables/?tournament={SLUG}&session={number}"))
        assert len(tables) == 2
        for table in tables:
            seats = _rows(
                director.get(f"/api/seats/?tournament={SLUG}&session={number}&table={table['number']}")
            )
            keys = [_key(director, s["registration"]) for s in sorted(seats, key=lambda s: s["position"])]
            assert len(keys) == 4
            first_table = first_table or (table["id"], keys)
            game: dict[str, int] = defaultdict(int)
            version = 1
            for hand, change in hands_for(keys):
                before = Hand.objects.filter(result__table_id=table["id"]).count()
                body = scorer.write(
                    "post",
                    f"/api/tables/{table['id']}/result/hands/",
                    {**hand, "version": version},
                    expect=201,
                )
                assert Hand.objects.filter(result__table_id=table["id"]).count() == before + 1  # stored once
                version = body["version"]
                add(game, change)
            # a correction by the referee: the draw was a win of North by 8 fan on West's discard
            e, s, w, n = keys
            body = referee.write(
                "put",
                f"/api/tables/{table['id']}/result/hands/3/",
                {
                    "result": "win",
                    "winner": n,
                    "discarder": w,
                    "fan": 8,
                    "version": version,
                    "reason": "misread",
                },
            )
            version = body["version"]
            add(game, {n: 8 + 8 + 16, w: -16, e: -8, s: -8})
            body = referee.write(
                "post",
                f"/api/tables/{table['id']}/result/confirm/",
                {"version": version, "short_reason": "time limit reached"},
            )
            assert body["status"] == "confirmed"
            add(scores, game)
            add(table_points, table_points_of(game))
        if number == 1:  # a referee's penalty: 10 points off West of the first table
            who = first_table[1][2]
            referee.write(
                "post",
                "/api/penalties/",
                {
                    "tournament": SLUG,
                    "session": 1,
                    "player": who,
                    "kind": "referee",
                    "points": -10,
                    "reason": "slow play after two warnings",
                },
                expect=201,
            )
            penalty_points[who] -= 10
            assert Penalty.objects.count() == 1
        finished = director.write("post", f"{console}/sessions/{number}/advance/")
        assert finished["status"] == "finished"
    assert Hand.objects.count() == 2 * 2 * 3

    def expected() -> list[tuple[str, str, str]]:
        return sorted((key, str(table_points[key]), str(scores[key] + penalty_points[key])) for key in names)

    def standings() -> list[tuple[str, str, str]]:
        rows = director.get(f"/api/tournaments/{SLUG}/standings/")["standings"]
        return sorted(
            (r["player"], str(Fraction(r["table_points"])), str(Fraction(r["score"]))) for r in rows
        )

    assert standings() == expected()

    # -- finish, reopen once, a referee's correction, finish again ---------------------------------------
    assert director.write("post", f"{console}/finish/")["status"] == "finished"
    with django_capture_on_commit_callbacks(execute=True):  # the server runs the job once the request commits
        early = director.write(
            "post", f"/api/tournaments/{SLUG}/exports/", {"exporter": "ema-pack"}, expect=201
        )
    assert director.get(f"/api/tournaments/{SLUG}/exports/{early['id']}/")["out_of_date"] is False
    version = referee.get(f"/api/tables/{first_table[0]}/result/")["version"]
    refused = referee.client.post(
        f"/api/tables/{first_table[0]}/result/reopen/", {"version": version, "reason": "x"}, format="json"
    )
    assert refused.status_code == 400 and "The tournament is finished" in refused.content.decode()
    assert (
        director.write("post", f"{console}/reopen/", {"reason": "a late appeal on table 1"})["status"]
        == "running"
    )
    result = referee.get(f"/api/tables/{first_table[0]}/result/")
    body = referee.write(
        "post",
        f"/api/tables/{first_table[0]}/result/reopen/",
        {"version": result["version"], "reason": "appeal"},
    )
    e, s, w, n = first_table[1]
    body = referee.write(
        "put",
        f"/api/tables/{first_table[0]}/result/hands/2/",
        {
            "result": "win",
            "winner": w,
            "discarder": None,
            "fan": 10,
            "version": body["version"],
            "reason": "appeal",
        },
    )
    # 8 fan self-drawn became 10: West +6 more, each other player pays 2 more; the order stays
    old = {w: 48, e: -16, s: -16, n: -16}
    new = {w: 54, e: -18, s: -18, n: -18}
    add(scores, {k: new[k] - old[k] for k in old})
    body = referee.write(
        "post",
        f"/api/tables/{first_table[0]}/result/confirm/",
        {"version": body["version"], "short_reason": "time limit reached"},
    )
    assert body["status"] == "confirmed"
    assert standings() == expected()
    # the pack made before the correction is out of date, alike in the export job and the submission
    assert director.get(f"/api/tournaments/{SLUG}/exports/{early['id']}/")["out_of_date"] is True
    assert director.get(f"/api/tournaments/{SLUG}/ema-submission/")["pack"]["out_of_date"] is True
    assert director.write("post", f"{console}/finish/")["status"] == "finished"

    # -- the EMA pack ----------------------------------------------------------------------------------
    with django_capture_on_commit_callbacks(execute=True):  # the server runs the job once the request commits
        job = director.write(
            "post", f"/api/tournaments/{SLUG}/exports/", {"exporter": "ema-pack"}, expect=201
        )
    job = director.get(f"/api/tournaments/{SLUG}/exports/{job['id']}/")
    assert (job["status"], job["out_of_date"]) == ("done", False)
    assert director.get(f"/api/tournaments/{SLUG}/ema-submission/")["pack"]["out_of_date"] is False
    download = director.client.get(f"/api/tournaments/{SLUG}/exports/{job['id']}/download/")
    assert download.status_code == 200
    archive = zipfile.ZipFile(io.BytesIO(b"".join(download.streaming_content)))
    rows = list(csv.reader(io.StringIO(archive.read("results.csv").decode("utf-8-sig"))))
    header, body_rows = rows[0], rows[1:]
    by_name = {f"{r[header.index('First name')]} {r[header.index('Last name')]}": r for r in body_rows}
    for key, name in names.items():
        row = by_name[name]
        assert Fraction(row[header.index("Table points")]) == table_points[key], name
        assert Fraction(row[header.index("Score")]) == scores[key] + penalty_points[key], name
    assert {r[header.index("EMA member")] for r in body_rows} == {""}  # no EMA player list loaded
    assert IdempotencyRecord.objects.exists()


def _rows(answer):
    return answer["results"] if isinstance(answer, dict) and "results" in answer else answer


def _key(client: Integration, registration_id: int) -> str:
    return client.get(f"/api/registrations/{registration_id}/")["key"]
