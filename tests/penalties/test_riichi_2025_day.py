"""A riichi 2025 tournament day through the services and the API: the EMA rules 2025 §7.2 (late arrival,
ema-riichi-rules-2025.txt lines 1322-1325) and §7.3 (substitutes, lines 1326-1337) as the preset has them,
with no setting made by the tournament. The standings, the player's page, the EMA results file and the
archive agree.

Session 1: p1 is 6 minutes late (−6,000 after uma); p5 is 12 minutes late, replaced by s1 before the game
at table 2 began (s1's score counts for the others' uma). Session 2: p5 plays again; p3 falls ill after the
game at table 1 began and s2 takes the seat (s2's score does not count for the others' uma).
"""

from __future__ import annotations

import csv
import io

import pytest
from django.urls import reverse

from penalties.models import Kind
from rankings.archive import archive_export, archive_import
from rankings.exports.registry import exporter_get
from rankings.standings.selectors import standings_view
from scoring.models import SeatSummary
from tests.penalties.test_services_substitutes import confirm
from tests.scoring.test_pages_support import text
from tournaments import services as tournament_services
from tournaments.models import Role, Session
from tournaments.permissions import Actor

pytestmark = pytest.mark.django_db

SLUG = "riichi-2025-day"


def _post(client, session, **penalty):
    return client.post("/api/penalties/", {"tournament": SLUG, "session": session, **penalty}, format="json")


@pytest.fixture
def day(make_tournament, director, api_as):
    tournament = make_tournament(
        slug=SLUG, ruleset="ema-riichi-2025", director=director, sessions=2, substitutes=2
    )
    regs = {r.key: r for r in tournament.registrations.all()}
    tables = {
        number: tournament_services.session_seat(
            session=tournament.sessions.get(number=number),
            tables=[[regs[k] for k in t.split()] for t in ("p1 p2 p3 p4", "p5 p6 p7 p8")],
        )
        for number in (1, 2)
    }
    Session.objects.filter(tournament=tournament).update(seating_published=True)  # as published
    client = api_as(director)
    actor = Actor(user=director, role=Role.DIRECTOR)
    # session 1
    late = _post(client, 1, player="p1", kind="late_arrival", minutes_late=6)
    assert late.status_code == 201, late.content
    assert (late.json()["points"], late.json()["disqualifies"]) == (-6000, False)  # line 1323
    out = _post(client, 1, player="p5", kind="late_arrival", minutes_late=12)
    assert (out.json()["points"], out.json()["disqualifies"]) == (0, True)  # lines 1331-1332
    sub = _post(client, 1, player="p5", kind="replaced", by="s1", reason="late_arrival", during=False)
    assert sub.status_code == 201, sub.content
    confirm(tables[1][0], actor, [45000, 32000, 25000, 18000])  # p1, p2, p3, p4
    confirm(tables[1][1], actor, [45000, 32000, 25000, 18000])  # s1 (for p5), p6, p7, p8
    # session 2: p5 is back; p3 falls ill during the game, s2 takes the seat and ends first
    ill = _post(client, 2, player="p3", kind="replaced", by="s2", reason="illness", during=True)
    assert ill.status_code == 201, ill.content
    confirm(tables[2][0], actor, [30000, 25000, 47000, 18000])  # p1, p2, s2 (for p3), p4
    confirm(tables[2][1], actor, [35000, 31000, 29000, 25000])  # p5, p6, p7, p8
    return tournament


#: each player's session finals, worked by hand from §3.7 (raw − 30,000 + uma), §7.2 and §7.3
EXPECTED = {
    # 45,000: +15,000 +15,000 uma, −6,000 late (after uma); s2: 0 + 15,000 uma (s2, first, does not count)
    "p1": (24000, 15000),
    "p2": (7000, 0),  # 2,000 + 5,000; s2: −5,000 + 5,000 (second of the three)
    "p3": (-10000, -30000),  # −5,000 − 5,000; s2: substituted, −15,000 and −15,000 uma
    "p4": (-27000, -17000),  # −12,000 − 15,000; s2: −12,000 − 5,000 (third of the three)
    "p5": (-30000, 20000),  # s1: substituted (line 1330); s2: he plays, 5,000 + 15,000
    # s1 won table 2 before the game began: his score counts, the others get 5,000, −5,000, −15,000
    "p6": (7000, 6000),  # 2,000 + 5,000; s2: 1,000 + 5,000
    "p7": (-10000, -6000),
    "p8": (-27000, -20000),
}


def test_the_standings_carry_the_figures_of_7_2_and_7_3(day):
    standings = standings_view(tournament=day)
    rows = {row.player: row for row in standings.rows}
    assert "s1" not in rows and "s2" not in rows  # substitutes are not ranked
    for key, (first, second) in EXPECTED.items():
        by_session = {r.session: r.final for r in rows[key].breakdown}
        assert (by_session[1], by_session[2]) == (first, second), key
        assert rows[key].score == first + second, key
    assert rows["p1"].penalties == -6000  # shown apart, taken after uma
    # the substitutes' own rows: −15,000 uma whatever their place (lines 1334 and 1337)
    subs = {
        (s.registration.key, s.session.number): (s.uma, s.final)
        for s in SeatSummary.objects.filter(tournament=day, registration__is_substitute=True).select_related(
            "registration", "session"
        )
    }
    assert subs == {("s1", 1): (-15000, 0), ("s2", 2): (-15000, 2000)}


def test_the_ema_results_file_has_the_same_scores(day):
    data = exporter_get("ema-results")(tournament=day).render("csv").data
    rows = list(csv.reader(io.StringIO(data.decode("utf-8-sig"))))
    header, body = rows[0], rows[1:]
    score = header.index("Score")
    by_name = {r[1]: r for r in body}
    for key, (first, second) in EXPECTED.items():
        row = by_name[f"Player{key[1:]}"]
        assert int(row[score]) == first + second, (key, row)
    assert not any(r[1].startswith("Sub") for r in body)  # substitutes have no place


def test_the_player_page_shows_the_replaced_session_and_the_late_arrival(client, day):
    """p5's page: session 1 replaced by Sub1, with the −15,000 points (a raw 15,000) and −15,000 uma of
    line 1330, −30,000 in all; session 2 as played. p1's page: the 6 minutes and their −6,000."""
    page = text(client.get(reverse("player-public", args=[SLUG, "p5"])))
    assert (
        "Session 1 · table 2 confirmed Replaced by Sub1 riichi-2025-day. E Player5 riichi-2025-day 15000 -15000 -30000"
        in page
    )
    assert "Score -10000" in page
    late = text(client.get(reverse("player-public", args=[SLUG, "p1"])))
    assert "Late arrival : 6 minutes late · -6000" in late and "Penalties -6000" in late
    ill = text(client.get(reverse("player-public", args=[SLUG, "p3"])))
    assert "Replaced by Sub2 riichi-2025-day. W Player3 riichi-2025-day 15000 -15000 -30000" in ill


def test_the_archive_replays_the_day(day):
    before = {row.player: row.score for row in standings_view(tournament=day).rows}
    document = archive_export(tournament=day)
    kinds = [(p["kind"], p["player"]) for p in document["penalties"]]
    assert kinds == [
        (Kind.LATE_ARRIVAL, "p1"),
        (Kind.LATE_ARRIVAL, "p5"),
        (Kind.REPLACED, "p5"),
        (Kind.REPLACED, "p3"),
    ]
    again = archive_import(document=document, replace=True)
    assert {row.player: row.score for row in standings_view(tournament=again).rows} == before


def test_the_referee_forms_say_the_2025_rules(client, make_tournament, director):
    """The table's penalty forms under the 2025 preset, with no setting made: the minutes late with §7.2's
    rounding and scale; 12 minutes late goes straight to the substitution (§7.3, line 1331), whose box is
    "after the game at the table began" (lines 1333-1337)."""
    from tests.scoring.test_pages_support import seat_session

    tournament = make_tournament(
        slug="riichi-2025-forms", ruleset="ema-riichi-2025", director=director, substitutes=1
    )
    table = seat_session(tournament)[0]
    client.force_login(director)
    url = reverse("table-penalty", args=[tournament.slug, 1, table.number, "late_arrival"])
    page = text(client.get(url))
    assert "a started minute counted whole (9 min 30 s late: 10)" in page
    assert "from 6 minutes: \u22126000 points off the final score" in page
    assert "later than 10 minutes: out of the session, a substitute takes the seat" in page
    response = client.post(url, {"kind": "late_arrival", "player": "p3", "minutes_late": 12})
    assert response.status_code == 302 and "/penalty/replaced/" in response["Location"]
    form = text(client.get(response["Location"]))
    assert (
        "After the game at the table began (the substitute's score does not count for the others' uma)"
        in form
    )
    spanish = client.get(response["Location"], HTTP_ACCEPT_LANGUAGE="es")
    assert "Después de empezada la partida en la mesa" in spanish.content.decode()


def test_the_session_page_shows_the_substitutes_uma(client, day):
    """The public session pages list each confirmed table's seats: Sub1 (session 1, before the game began)
    and Sub2 (session 2, after it began) each with −15,000 uma (lines 1334 and 1337), the others' uma as
    §7.3 gives them."""
    first = text(client.get(reverse("session", args=[SLUG, 1])))
    assert "Sub1" in first
    assert "45000 -15000 0" in first  # Sub1: 45,000 raw, −15,000 uma, 0 in all
    assert "32000 5000 7000" in first  # Player6, second behind him
    second = text(client.get(reverse("session", args=[SLUG, 2])))
    assert "47000 -15000 2000" in second  # Sub2, first at the table, outside the others' uma
    assert "30000 15000 15000" in second  # Player1, first of the three
