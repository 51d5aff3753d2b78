"""Why a player's ranking moved: week by week, the new results, the results a year or two old, those that
leave or enter Part A, the corrected imports, with the ranking before and after."""

from __future__ import annotations

import datetime as dt

import pytest
from django.urls import reverse

from rankings.ema.engine import EmaResult, ema_ranking
from rankings.ema.history import BACK, DROPPED, GONE, HALF, NEW, ranking_moves
from tests.ema.test_pages_api import TODAY, ranked  # noqa: F401


def test_each_week_names_what_moved_the_ranking_with_the_figures_before_and_after():
    day = dt.date(2025, 1, 6)  # a Monday
    results = [
        EmaResult(800, 1, day, "mcr", "a"),
        EmaResult(600, 1, day + dt.timedelta(days=2), "mcr", "b"),  # same week as a
        EmaResult(100, 1, day + dt.timedelta(days=30), "mcr", "c"),
        *[EmaResult(900, 1, day + dt.timedelta(days=40 + i), "mcr", f"x{i}") for i in range(8)],
    ]
    until = dt.date(2027, 3, 1)
    moves = ranking_moves(results, ruleset="mcr", until=until)
    by_week = {m.week: m for m in moves}
    first = by_week[day]
    assert {(r.kind, r.tournament) for r in first.reasons} == {(NEW, "a"), (NEW, "b")}
    assert first.before is None  # not listed before two results
    assert first.after == ema_ranking(results[:2], ruleset="mcr", on=day + dt.timedelta(days=2)).ranking
    # the tenth result pushes c (100) out of Part A (its 9 best of 10), which lifts the ranking
    pushed = [m for m in moves if any(r.kind == DROPPED and r.tournament == "c" for r in m.reasons)]
    assert pushed and pushed[-1].week == dt.date(2025, 2, 17) and pushed[-1].after > pushed[-1].before
    # a year and a day after a: half; two years and a day: no longer counts
    kinds = {(r.kind, r.tournament) for m in moves for r in m.reasons}
    assert (HALF, "a") in kinds and (GONE, "a") in kinds
    # as the 900s age to half, c may come back into Part A: its week says so
    assert all(r.kind in (NEW, HALF, GONE, DROPPED, BACK) for m in moves for r in m.reasons)
    # latest first, every figure the ranking on those days
    assert [m.week for m in moves] == sorted((m.week for m in moves), reverse=True)
    assert moves[0].after == (
        ema_ranking(results, ruleset="mcr", on=until).ranking
        if ema_ranking(results, ruleset="mcr", on=until).listed
        else None
    )


@pytest.mark.django_db
def test_the_players_page_and_the_api_say_why_it_moved(client, ranked):  # noqa: F811
    """Ana: Open B (500 days ago, 2nd of 4) counts half since its first anniversary; Open A (30 days ago)."""
    html = client.get(reverse("ema-ranking-player", args=["mcr", "04010001"])).content.decode()
    assert "Why it moved" in html
    # the chart marks the weeks listed (those within the chart's span)
    assert 1 <= html.count('class="move-mark"') <= html[html.index('id="moves"') :].count("Week of")
    moves = html[html.index('id="moves"') :]
    assert "Open A</a>: new result" in moves and "Open B</a>: a year old: counts half" in moves
    body = client.get("/api/ema-ranking/mcr/04010001/").json()
    kinds = [(r["kind"], r["tournament"]) for m in body["moves"] for r in m["reasons"]]
    assert ("new", "Open A") in kinds and ("half", "Open B") in kinds
    newest = body["moves"][0]
    assert newest["after"] == body["ranking"]["ranking"]
    es = client.get(reverse("ema-ranking-player", args=["mcr", "04010001"]), HTTP_ACCEPT_LANGUAGE="es")
    assert "Por qué se movió" in es.content.decode()
