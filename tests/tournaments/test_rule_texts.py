"""The rules as the pages state them come from the engine that computes the results: the rules page of
every preset says what the preset's late-arrival scale, short-table rule and table points do, and a page
that said otherwise than the engine would fail here."""

from __future__ import annotations

import html
import re
from fractions import Fraction

import pytest
from django.urls import reverse

from scoring.rules.registry import RULESET_KEYS, get_ruleset
from tournaments.organising import services as organising_services

pytestmark = pytest.mark.django_db

MINUS = "\u2212"


def summary(client, tournament) -> str:
    page = client.get(reverse("console-rules", args=[tournament.slug])).content.decode()
    found = re.search(r'<article id="rule-summary">(.*?)</article>', page, re.S)
    return html.unescape(re.sub(r"<[^>]+>", " ", found.group(1))) if found else ""


def late_scale(text: str) -> dict[int, tuple[int, bool]]:
    """Minute → (points, out of the session) for minutes 0..90, read back from the page's sentence."""
    found = re.search(r"Late arrival: (.*?)\.(?:\s|$)", text)
    if not found:
        return {}
    out: dict[int, tuple[int, bool]] = {}
    for part in found.group(1).split("; "):
        when, what = part.split(": ", 1)
        if what.startswith("out of the session"):
            outcome = (0, True)
        elif what == "no deduction":
            outcome = (0, False)
        else:
            outcome = (int(what.replace(MINUS, "-")), False)
        if m := re.fullmatch(r"under (\d+) minutes?", when):
            minutes = range(int(m[1]))
        elif m := re.fullmatch(r"(\d+) to (\d+) minutes", when):
            minutes = range(int(m[1]), int(m[2]) + 1)
        elif m := re.fullmatch(r"from (\d+) minutes?", when):
            minutes = range(int(m[1]), 91)
        elif m := re.fullmatch(r"(\d+) minutes?", when):
            minutes = range(int(m[1]), int(m[1]) + 1)
        else:
            assert when == "Any delay", when
            minutes = range(91)
        for minute in minutes:
            assert minute not in out, f"minute {minute} stated twice: {text}"
            out[minute] = outcome
    return out


@pytest.mark.parametrize("key", RULESET_KEYS)
def test_the_rules_page_states_the_late_arrival_scale_the_engine_applies(
    client, make_tournament, director, key
):
    tournament = make_tournament(slug=f"t-{key}", ruleset=key, director=director, players=0)
    client.force_login(director)
    rules = get_ruleset(key)
    stated = late_scale(summary(client, tournament))
    try:
        rules.late_arrival(0)
    except Exception:
        assert stated == {}  # no scale, no sentence
        return
    assert stated, f"{key}: the rules page states no late-arrival scale"
    for minute in range(91):
        applied = rules.late_arrival(minute)
        assert stated[minute] == (applied.points, applied.disqualified), f"{key}, {minute} minutes late"


def test_the_mers_scale_in_words_follows_the_preset_and_the_tournament(client, make_tournament, director):
    """MERS 2.2: fewer than 10 minutes late costs 10 points, 10 to 15 minutes 20, later a substitute
    plays. The issue reported: 10 minutes late is the long penalty, not the short one."""
    tournament = make_tournament(ruleset="mcr", director=director, players=0)
    client.force_login(director)
    config = get_ruleset("mcr").config
    text = summary(client, tournament)
    assert (
        f"under {config.late_short_minutes} minutes: {MINUS}{config.late_short_penalty}; "
        f"{config.late_short_minutes} to {config.late_grace_minutes} minutes: {MINUS}{config.late_long_penalty}; "
        f"from {config.late_grace_minutes + 1} minutes: out of the session, a substitute plays" in text
    )
    assert late_scale(text)[10] == (-config.late_long_penalty, False)
    page = client.get(reverse("console-rules", args=[tournament.slug])).content.decode()
    assert "Up to this many minutes late: the short penalty" not in page
    organising_services.tournament_edit(tournament=tournament, fields={}, rules={"late_short_minutes": 5})
    assert "under 5 minutes: −10; 5 to 15 minutes: −20" in summary(client, tournament)


@pytest.mark.parametrize("key", RULESET_KEYS)
def test_the_short_table_rule_and_the_table_points_are_the_engines(client, make_tournament, director, key):
    tournament = make_tournament(slug=f"t-{key}", ruleset=key, director=director, players=0)
    client.force_login(director)
    rules = get_ruleset(key)
    text = summary(client, tournament)
    usual = rules.usual_hands()
    assert (f"A full session is {usual} hands" in text) == bool(usual)
    if rules.ranks_by == "table_points":
        points = rules.table_result(rules.game_from_totals([3, 1, -1, -3])).seats
        stated = re.search(r"1st to 4th: ([^(]*) \(", text)[1]
        assert [Fraction(p) for p in stated.split(", ")] == [s.table_points for s in points]
        penalised = rules.table_result(rules.game_from_totals([3, 1, -1, -3]), deductions=(-50, 0, 0, 0))
        keeps = penalised.seats[0].table_points == points[0].table_points
        assert ("Penalties do not change the order at a table" in text) == keeps
    else:
        assert "Table points" not in text


def test_the_mers_table_points_are_the_preset_and_penalties_keep_the_order(client, make_tournament, director):
    tournament = make_tournament(ruleset="mcr", director=director, players=0)
    client.force_login(director)
    config = get_ruleset("mcr").config
    text = summary(client, tournament)
    assert "1st to 4th: " + ", ".join(str(p) for p in config.table_points) in text
    assert f"A full session is {config.max_hands} hands" in text
    assert "Penalties do not change the order at a table" in text
    organising_services.tournament_edit(
        tournament=tournament, fields={}, rules={"deductions_before_ranking": True, "max_hands": 12}
    )
    text = summary(client, tournament)
    assert "Penalties do not change the order" not in text and "A full session is 12 hands" in text


def test_the_confirmation_asks_why_with_the_count_the_rules_set(client, make_tournament, director):
    """The short-table rule on the table page: the reason is asked for fewer than the rules' full session,
    and the label names that count (16 under the MCR preset, 12 when the tournament sets 12)."""
    from tests.scoring.test_pages_support import post, seat_session, table_url

    tournament = make_tournament(ruleset="mcr", director=director)
    table = seat_session(tournament)[0]
    client.force_login(director)
    win = {"result": "win", "winner": 0, "discarder": 2, "fan": 8}
    assert post(client, table_url(table), "hand", table, **win).status_code == 302
    usual = get_ruleset("mcr").usual_hands()
    assert f"Why fewer than {usual} hands" in client.get(table_url(table)).content.decode()
    organising_services.tournament_edit(tournament=tournament, fields={}, rules={"max_hands": 12})
    page = client.get(table_url(table), HTTP_ACCEPT_LANGUAGE="es").content.decode()
    assert "Por qué menos de 12 manos" in page


def test_a_riichi_scale_set_by_the_tournament_is_stated_as_the_engine_applies_it(
    client, make_tournament, director
):
    """Riichi presets set no late-arrival scale; a tournament that sets one sees it in words, minute by
    minute what the engine deducts."""
    tournament = make_tournament(ruleset="wrc-riichi", director=director, players=0)
    client.force_login(director)
    assert "Late arrival" not in summary(client, tournament)
    scale = {"late_arrival_minutes": [1, 5], "late_arrival_points": [1000, 4000], "late_arrival_limit": 10}
    organising_services.tournament_edit(tournament=tournament, fields={}, rules=scale)
    text = summary(client, tournament)
    assert "under 1 minute: no deduction; 1 to 4 minutes: −1000; 5 to 10 minutes: −4000" in text
    rules = tournament.get_rules()
    stated = late_scale(text)
    for minute in range(91):
        applied = rules.late_arrival(minute)
        assert stated[minute] == (applied.points, applied.disqualified), minute


# -- lateness, substitutes and the end of a session (EMA riichi rules 2025 §7.2-§7.4 and the others) -----


def _in_spanish(client, tournament) -> str:
    client.cookies["django_language"] = "es"
    page = client.get(reverse("console-rules", args=[tournament.slug]), HTTP_ACCEPT_LANGUAGE="es")
    client.cookies.pop("django_language")
    found = re.search(r'<article id="rule-summary">(.*?)</article>', page.content.decode(), re.S)
    return html.unescape(re.sub(r"<[^>]+>", " ", found.group(1)))


def test_the_riichi_2025_page_states_7_2_7_3_and_7_4_in_english_and_spanish(
    client, make_tournament, director
):
    """ema-riichi-rules-2025.txt: §7.2 (lines 1322-1325) 1,000 points a minute late, rounded up, up to 10
    minutes; §7.3 (lines 1326-1337) −15,000 points and −15,000 uma for the substituted player, the
    substitute's uma before and after the game began; §7.4 (lines 1338-1345) the signal at 15 minutes, the
    hand in play and one more, no sound at the end, a chombo one of those hands."""
    tournament = make_tournament(ruleset="ema-riichi-2025", director=director, players=0)
    client.force_login(director)
    text = summary(client, tournament)
    scale = late_scale(text)
    assert [scale[m] for m in (0, 1, 6, 10, 11, 12)] == [
        (0, False), (-1000, False), (-6000, False), (-10000, False), (0, True), (0, True)
    ]  # fmt: skip
    assert "A started minute counts as a whole minute (9 minutes 30 seconds: 10)." in text
    assert (
        f"A player replaced by a substitute scores {MINUS}15000 points and {MINUS}15000 uma for that session "
        f"({MINUS}30000 in all), and may play the later sessions."
    ) in text
    assert (
        "before the game at the table begins and finishes first: "
        f"{MINUS}15000 uma for the substitute, 5000, {MINUS}5000, {MINUS}15000 for the others"
    ) in text
    assert (
        "after the game at the table began and finishes first: "
        f"{MINUS}15000 uma for the substitute, 15000, 5000, {MINUS}5000 for the others"
    ) in text
    assert (
        "A session lasts 90 minutes; a signal sounds when 15 minutes are left. After it the hand in play is "
        "finished and one more is played (unless the game is complete), however long they take: nothing "
        "sounds at the end. A chombo after the signal counts as one of those hands."
    ) in text
    spanish = _in_spanish(client, tournament)
    assert "Un minuto empezado cuenta como un minuto entero" in spanish
    assert (
        f"obtiene {MINUS}15000 puntos y {MINUS}15000 de uma en esa sesión ({MINUS}30000 en total)" in spanish
    )
    assert f"{MINUS}15000 de uma para el suplente, 15000, 5000, {MINUS}5000 para los demás" in spanish
    assert "suena un aviso cuando quedan 15 minutos" in spanish and "Un chombo después del aviso" in spanish
    # the settings behind them, by name in the rules form
    client.cookies["django_language"] = "es"
    form = client.get(reverse("console-rules", args=[tournament.slug]), HTTP_ACCEPT_LANGUAGE="es")
    page = form.content.decode()
    assert "Suplente fuera del uma" in page and "Retraso: un minuto empezado cuenta" in page
    assert "desde el aviso: la mano en juego y una más, sin sonido al final" in page


@pytest.mark.parametrize("key", RULESET_KEYS)
def test_every_preset_states_what_a_substitution_and_the_end_of_a_session_do(
    client, make_tournament, director, key
):
    """The sentences come from the engine: the replaced player's fixed result, the uma or table points at a
    table where the substitute finishes first, the clock's end of time."""
    tournament = make_tournament(slug=f"t-{key}", ruleset=key, director=director, players=0)
    client.force_login(director)
    text = summary(client, tournament)
    rules = get_ruleset(key)
    fixed = rules.replacement_result()
    assert ("scores nothing for the session missed" in text) is (fixed is None)
    end = rules.session_end()
    assert f"A session lasts {end.minutes} minutes" in text
    said = {
        "last_hand": "the hand in play is finished, and it is the last",
        "one_more_hand": "the hand in play is finished and one more is played.",
        "at_once": "play stops at once",
        "after_signal": "nothing sounds at the end",
    }
    assert said[end.end_of_time] in text
    if rules.ranks_by == "table_points":  # MERS §4.1.2: after the start the substitute gets no table points
        assert (
            "after the game at the table began and finishes first: 0 table points for the substitute, 4, 2, 1"
            in text
        )
    elif not rules.substitute_outside_uma():
        assert "A substitute plays the seat as any player" in text
    spanish = _in_spanish(client, tournament)
    assert f"Una sesión dura {end.minutes} minutos" in spanish and "Un jugador sustituido" in spanish
