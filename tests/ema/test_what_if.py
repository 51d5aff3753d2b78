"""What a result would do to a player's EMA ranking: the engine, the page and the API.

The what-if of a result already known reproduces the ranking computed once it came in: over the EMA ranking
benchmark's synthetic history (3,000 players, 1,500 tournaments over 10 years), for a sample of players, each
of their last results given as a hypothetical tournament (its players, place, days and countries) gives the
ranking the history replays on its last day; and on the server, a tournament imported after the what-if
gives the player the ranking and the position the what-if said.
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import random
from collections import defaultdict
from fractions import Fraction

import pytest
from django.urls import reverse

from bench.ema.__main__ import synthetic_files
from rankings.ema.engine import EmaResult, base_rank, ema_ranking, tournament_weight
from rankings.ema.history import ranking_history
from rankings.ema.imports import TournamentFacts, results_import
from rankings.ema.services import ema_ranking_recompute
from rankings.ema.whatif import MAX_RESULTS, Hypothesis, what_if
from rankings.models import EmaRankingEntry
from tests.ema.files import csv_bytes
from tests.ema.test_pages_api import TODAY, F, ranked  # noqa: F401

TODAY_BENCH = dt.date(2026, 6, 1)


def _bench_history():
    """Each ranked player's results in the benchmark's history, with what a hypothesis needs to repeat them."""
    by_player = defaultdict(list)
    for facts, data in synthetic_files(TODAY_BENCH):
        rows = list(csv.reader(io.StringIO(data.decode())))[1:]
        players = len(rows)
        countries = len({row[4] for row in rows})
        weight = tournament_weight(
            days=facts.days,
            players=players,
            countries=countries,
            european_qualifier=facts.qualifies_for_championship,
        )
        ended_on = facts.starts_on + dt.timedelta(days=facts.days - 1)
        for row in rows:
            if not row[1]:
                continue
            place = int(row[0])
            result = EmaResult(base_rank(place, players), weight, ended_on, facts.family, facts.name)
            hypothesis = Hypothesis(
                players=players,
                place=place,
                days=facts.days,
                countries=countries,
                qualifier=facts.qualifies_for_championship,
            )
            by_player[row[1]].append((result, hypothesis))
    return by_player


def test_the_what_if_of_a_known_result_is_the_ranking_computed_after_it():
    history = _bench_history()
    rng = random.Random(36)
    sample = rng.sample(sorted(p for p, results in history.items() if len(results) >= 8), 25)
    checked = 0
    for player in sample:
        results = history[player]
        for result, hypothesis in results[-4:]:
            family = result.ruleset
            others = [r for r, _ in results if r is not result]
            day = result.ended_on
            replayed = {p.on: p for p in ranking_history([r for r, _ in results], ruleset=family, until=day)}[
                day
            ]
            answer = what_if(others, [hypothesis], ruleset=family, on=day, ended_on=day)
            assert hypothesis.weight == result.weight and hypothesis.base_rank == result.base_rank
            assert (
                answer.after.ranking == ema_ranking([r for r, _ in results], ruleset=family, on=day).ranking
            )
            assert (answer.after.ranking if answer.after.listed else None) == replayed.ranking
            checked += 1
    assert checked == 100


def test_the_parts_that_change_are_named():
    """Five results of 1000 down to 600 and a 950 of two years ago, counting half: on the next day the 950
    no longer counts and leaves Part A and Part B, where a new 900 enters."""
    day = dt.date(2026, 6, 1)
    results = [
        EmaResult(rank, 1, day - dt.timedelta(days=10 * (i + 1)), "mcr", f"t{i}")
        for i, rank in enumerate((1000, 900, 800, 700, 600))
    ]
    old = EmaResult(950, 2, dt.date(2024, 5, 31), "mcr", "old")  # ages out on the way to the day below
    answer = what_if(
        [*results, old],
        [Hypothesis(players=11, place=2)],
        ruleset="mcr",
        on=day - dt.timedelta(days=1),
        ended_on=day,
    )
    by_name = {c.result.tournament: c for c in answer.changes}
    new = by_name["what-if:1"]
    assert new.hypothetical and (new.after_a, new.after_b) == (True, True) and new.result.base_rank == 900
    assert (by_name["t4"].before_b, by_name["t4"].after_b) == (False, False) and not by_name["t4"].changed
    gone = by_name["old"]
    assert (gone.before_a, gone.before_b, gone.after_a, gone.after_b) == (True, True, False, False)
    assert gone.ageing_before == Fraction(1, 2) and gone.ageing_after == 0 and gone.changed
    assert answer.after.counted == 6 and answer.before.counted == 6


def test_at_most_three_hypothetical_results():
    with pytest.raises(ValueError):
        what_if(
            [], [Hypothesis(players=4, place=1)] * (MAX_RESULTS + 1), ruleset="mcr", on=TODAY, ended_on=TODAY
        )


# -- the page and the API ------------------------------------------------------------------------------

CID = "04010003"


@pytest.mark.django_db
def test_the_page_says_what_a_win_would_do_and_the_import_agrees(client, ranked):  # noqa: F811
    """Cid (292.5, 4th) wins a 4-player one-day tournament: 517.5, first (F of the import tests)."""
    url = reverse("ema-ranking-what-if", args=["mcr", CID])
    page = client.get(url, {"players": "4", "place": "1", "days": "1", "countries": "1"})
    assert page.status_code == 200
    html = page.content.decode()
    assert "517.50" in html and "now 292.50" in html
    assert "<strong>1</strong><small>now 4</small>" in html.replace("\n", "")
    api = client.get(f"/api/ema-ranking/mcr/{CID}/what-if/", {"players": "4", "place": "1", "days": "1"})
    assert api.status_code == 200
    body = api.json()
    assert body["then"] == {"position": 1, "ranking": 517.5, "part_a": 460.0, "part_b": 575.0, "counted": 3}
    assert body["now"]["ranking"] == 292.5 and body["now"]["position"] == 4
    assert [r["hypothetical"] for r in body["results"]].count(True) == 1
    results_import(
        data=csv_bytes(F),
        facts=TournamentFacts(name="Open F", family="mcr", starts_on=TODAY, country="ESP"),
    )
    ema_ranking_recompute()
    entry = EmaRankingEntry.objects.get(family="mcr", ema_id=CID)
    assert (entry.position, float(entry.ranking)) == (1, 517.5)
    assert (
        client.get(reverse("ema-ranking-player", args=["mcr", CID])).content.decode().count("what-if/") == 1
    )


@pytest.mark.django_db
def test_bad_questions_are_refused_naming_the_field(client, ranked):  # noqa: F811
    api = f"/api/ema-ranking/mcr/{CID}/what-if/"
    answer = client.get(api, {"players": "4", "place": "9"})
    assert answer.status_code == 400 and "place[1]" in answer.json()
    answer = client.get(api, {"players": ["4", "8", "12", "16"], "place": ["1", "1", "1", "1"]})
    assert answer.status_code == 400 and "players" in answer.json()
    answer = client.get(api, {"players": "4", "place": "1", "weight": "1.3"})
    assert answer.status_code == 400 and "weight[1]" in answer.json()
    answer = client.get(api, {"players": "4", "place": "1", "on": "1999-01-01"})
    assert answer.status_code == 400 and "on" in answer.json()
    answer = client.get(api, {})
    assert answer.status_code == 400 and "players" in answer.json()
    page = client.get(reverse("ema-ranking-what-if", args=["mcr", CID]), {"players": "x", "place": "1"})
    assert page.status_code == 400 and "players[1]" in page.content.decode()
    assert client.get(reverse("ema-ranking-what-if", args=["mcr", "99999999"])).status_code == 404


@pytest.mark.django_db
def test_the_what_if_page_in_spanish(client, ranked):  # noqa: F811
    url = reverse("ema-ranking-what-if", args=["mcr", CID])
    html = client.get(
        url, {"players": "4", "place": "1", "days": "1"}, HTTP_ACCEPT_LANGUAGE="es"
    ).content.decode()
    assert 'lang="es"' in html and "Qué pasaría si" in html and "517,50" in html


@pytest.mark.django_db
def test_a_tournament_still_playing_here_is_offered_with_the_current_place(
    client,
    ranked,  # noqa: F811
    make_tournament,
    director,
):
    """Ana plays a public MCR tournament here, 3rd of 8 (shared) after its first session: the what-if offers it."""
    from rankings.ema.selectors import playing_now
    from tests.rankings.test_standings_pages import SESSION_1, play
    from tournaments.models import Player, Tournament
    from tournaments.services import registration_create

    ana = Player.objects.get(ema_id="04010001")
    tournament = make_tournament(slug="still-playing", director=director, players=7)
    registration_create(tournament=tournament, player=ana, key="p8")
    play(tournament, director, SESSION_1)
    Tournament.objects.filter(pk=tournament.pk).update(status=Tournament.Status.RUNNING)
    (offer,) = playing_now(player_id=ana.pk, family="mcr")
    assert (offer.place, offer.players, offer.countries) == (3, 8, 4)
    html = client.get(reverse("ema-ranking-what-if", args=["mcr", "04010001"])).content.decode()
    assert "Still Playing, where you are 3 of 8 now" in html
    assert "?players=8&amp;place=3&amp;days=1&amp;countries=4" in html
    # a private tournament is never offered
    Tournament.objects.filter(pk=tournament.pk).update(is_public=False)
    assert playing_now(player_id=ana.pk, family="mcr") == []
