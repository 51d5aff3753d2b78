"""Check-in: a player absent from one session (a substitute plays it, he stays in the draw) is not a
withdrawn player; before the first session a substitute answers whether his results count (ERGMT §3.9),
one record with the EMA submission's answers; the standings and the EMA results file follow MERS-R §4."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from rankings.ema.engine import ema_results_rows
from rankings.exports.tournament import ema_players
from rankings.standings.selectors import standings_view
from rankings.standings.services import standings_refresh
from rankings.submission.models import EmaSubmission
from rankings.submission.selectors import checks
from tests.events import events
from tests.rankings.test_standings_pages import confirm
from tournaments.console import services
from tournaments.models import Registration, Session


def session(tournament, number: int) -> Session:
    return Session.objects.get(tournament=tournament, number=number)


def keys(tournament, number: int) -> set[str]:
    return set(session(tournament, number).seats.values_list("registration__key", flat=True))


def everyone_but(*absent: str, players: int = 8) -> list[str]:
    return [f"p{i}" for i in range(1, players + 1) if f"p{i}" not in absent]


def play(tournament, number: int, user) -> None:
    """Seat, publish, start, confirm every table ([10, 5, -5, -10] in seat order) and finish ``number``."""
    s = session(tournament, number)
    services.session_seat(session=s)
    services.session_advance(session=s)
    services.session_advance(session=s)
    for table in s.tables.order_by("number"):
        confirm(table, [10, 5, -5, -10], user)
    services.session_advance(session=s)


# -- the service -----------------------------------------------------------------------------------------


def test_absent_for_one_session_the_substitute_plays_it_and_the_player_comes_back(make_tournament, director):
    tournament = make_tournament(director=director, players=8, sessions=2, substitutes=1)
    with events() as sent:
        report = services.checkin_apply(
            session=session(tournament, 1),
            present=everyone_but("p3"),
            absent={"p3": services.ABSENT_SUBSTITUTE},
            substitutes_present=["s1"],
        )
    assert report.absent == ["Player3 open-2026"] and report.withdrawn == []
    assert len(sent) == 1 and {"roster", "schedule"} <= sent[0].what  # one event for the check-in
    p3 = Registration.objects.get(tournament=tournament, key="p3")
    assert p3.withdrawn_from is None and session(tournament, 1).absent == ["p3"]
    play(tournament, 1, director)
    assert "s1" in keys(tournament, 1) and "p3" not in keys(tournament, 1)
    # session 2: he is back in the draw, no substitute needed
    services.checkin_apply(session=session(tournament, 2), present=everyone_but(), absent={})
    services.session_seat(session=session(tournament, 2))
    assert "p3" in keys(tournament, 2) and "s1" not in keys(tournament, 2)


def test_withdrawn_leaves_every_later_session(make_tournament, director):
    tournament = make_tournament(director=director, players=8, sessions=2, substitutes=1)
    report = services.checkin_apply(
        session=session(tournament, 1),
        present=everyone_but("p3"),
        absent={"p3": services.ABSENT_WITHDRAW},
        substitutes_present=["s1"],
    )
    assert report.withdrawn == ["Player3 open-2026"] and report.absent == []
    assert Registration.objects.get(tournament=tournament, key="p3").withdrawn_from == 1
    assert session(tournament, 1).absent == []
    play(tournament, 1, director)
    services.session_seat(session=session(tournament, 2))
    assert "p3" not in keys(tournament, 2) and "s1" in keys(tournament, 2)


def test_an_absent_player_without_a_substitute_present_is_refused_and_nothing_is_written(
    make_tournament, director
):
    tournament = make_tournament(director=director, players=8, sessions=2)
    with events() as sent, pytest.raises(services.Blocked, match="need a substitute"):
        services.checkin_apply(
            session=session(tournament, 1), present=everyone_but("p3"), absent={"p3": "substitute"}
        )
    assert session(tournament, 1).absent == [] and sent == []


def test_checkin_before_the_first_session_records_the_substitutes_answer_as_the_ema_submission_does(
    make_tournament, director
):
    tournament = make_tournament(director=director, players=8, sessions=2, substitutes=2)
    report = services.checkin_apply(
        session=session(tournament, 1),
        present=everyone_but("p3"),
        absent={"p3": "substitute"},
        substitutes_present=["s1", "s2"],
        substitute_answers={"s1": True, "s2": False},
    )
    assert report.answers == {"s1": True, "s2": False}
    assert EmaSubmission.objects.get(tournament=tournament).substitute_answers == {"s1": True, "s2": False}
    substitutes = next(c for c in checks(tournament=tournament) if c.key == "substitutes")
    assert "was not asked" not in " ".join(str(m) for m in substitutes.messages)
    # a second check-in of the same session may change the answer: one record, not two
    services.checkin_apply(
        session=session(tournament, 1),
        present=everyone_but("p3"),
        absent={"p3": "substitute"},
        substitutes_present=["s1", "s2"],
        substitute_answers={"s1": None, "s2": False},
    )
    assert EmaSubmission.objects.get(tournament=tournament).substitute_answers == {"s2": False}


def test_the_answer_is_refused_after_the_first_session_and_for_a_player_who_is_no_substitute(
    make_tournament, director
):
    tournament = make_tournament(director=director, players=8, sessions=2, substitutes=1)
    with pytest.raises(ValidationError) as later:
        services.checkin_apply(
            session=session(tournament, 2), present=everyone_but(), absent={}, substitute_answers={"s1": True}
        )
    assert "substitute_answers" in later.value.message_dict
    with pytest.raises(ValidationError) as regular:
        services.checkin_apply(
            session=session(tournament, 1), present=everyone_but(), absent={}, substitute_answers={"p1": True}
        )
    assert "substitute_answers" in regular.value.message_dict
    assert not EmaSubmission.objects.filter(tournament=tournament, substitute_answers__has_key="p1").exists()


def test_checkin_is_refused_once_the_session_is_seated(make_tournament, director):
    tournament = make_tournament(director=director, players=8, sessions=1)
    services.session_seat(session=session(tournament, 1))
    with pytest.raises(services.Blocked, match="already seated"):
        services.checkin_apply(
            session=session(tournament, 1), present=everyone_but("p3"), absent={"p3": "substitute"}
        )


# -- standings and the EMA results file ------------------------------------------------------------------


def day_with_absent_withdrawn_and_substitutes(make_tournament, director):
    """p3 absent from session 1 (s1, who asked that his results count, plays it); p5 withdrawn before
    session 2 (s2, who did not ask, plays for him)."""
    tournament = make_tournament(director=director, players=8, sessions=2, substitutes=2)
    services.checkin_apply(
        session=session(tournament, 1),
        present=everyone_but("p3"),
        absent={"p3": "substitute"},
        substitutes_present=["s1"],
        substitute_answers={"s1": True, "s2": False},
    )
    play(tournament, 1, director)
    services.checkin_apply(
        session=session(tournament, 2),
        present=everyone_but("p5"),
        absent={"p5": "withdraw"},
        substitutes_present=["s2"],
    )
    play(tournament, 2, director)
    return tournament


def test_standings_rank_the_absent_with_what_he_played_and_list_the_withdrawn_apart(
    make_tournament, director
):
    tournament = day_with_absent_withdrawn_and_substitutes(make_tournament, director)
    standings = standings_view(tournament=tournament)
    ranked = {r.player: r for r in standings.rows}
    assert ranked["p3"].sessions == 1  # absent from session 1, ranked with the session he played
    assert "s1" in ranked and ranked["s1"].counted_substitute and ranked["s1"].sessions >= 1
    assert "s2" not in ranked and "s2" not in {r.player for r in standings.withdrawn}  # never ranked
    assert "p5" not in ranked
    (p5,) = standings.withdrawn
    assert (p5.player, p5.withdrawn_from, p5.sessions) == ("p5", 2, 1)
    assert p5.rank == len(standings.rows) + 1  # the place after every ranked player
    standings_refresh(tournament_id=tournament.pk)
    from rankings.models import StandingsState

    document = StandingsState.objects.get(tournament=tournament).document
    assert [r["player"] for r in document["withdrawn"]] == ["p5"] and document["withdrawn"][0]["rank"] is None
    assert next(r for r in document["standings"] if r["player"] == "s1")["substitute"] is True


def test_the_ema_results_file_places_the_withdrawn_after_the_ranking_and_lists_the_substitute_who_counts(
    make_tournament, director
):
    tournament = day_with_absent_withdrawn_and_substitutes(make_tournament, director)
    standings = standings_view(tournament=tournament)
    registrations = {
        r.key: r for r in Registration.objects.filter(tournament=tournament).select_related("player")
    }
    table = ema_results_rows(standings, ema_players(registrations))
    names = [f"{row[1]} {row[2]}" for row in table[1:]]
    places = [row[0] for row in table[1:]]
    assert len(table) - 1 == 9  # 8 players (the withdrawn one included) and the substitute who counts
    assert names[-1] == "Player5 open-2026" and places[-1] == 9  # withdrawn: after every ranked player
    assert "Sub1 open-2026" in names and "Sub2 open-2026" not in names
    assert "Player3 open-2026" in names[:-1]  # absent from one session: ranked


def test_a_substitute_who_answered_yes_but_first_played_later_is_not_ranked(make_tournament, director):
    tournament = make_tournament(director=director, players=8, sessions=2, substitutes=1)
    services.checkin_apply(
        session=session(tournament, 1), present=everyone_but(), absent={}, substitute_answers={"s1": True}
    )
    play(tournament, 1, director)
    services.checkin_apply(
        session=session(tournament, 2),
        present=everyone_but("p2"),
        absent={"p2": "substitute"},
        substitutes_present=["s1"],
    )
    play(tournament, 2, director)
    standings = standings_view(tournament=tournament)
    assert "s1" not in {r.player for r in standings.listed}  # an 'in tournament' substitute (MERS-R §4)
    assert standings.row("p2").sessions == 1
    substitutes = next(c for c in checks(tournament=tournament) if c.key == "substitutes")
    assert any("did not play from the first session" in str(m) for m in substitutes.messages)


def test_a_substitute_for_a_player_absent_from_the_first_session_only_is_not_ranked(
    make_tournament, director
):
    """ERGMT §3.9 asks a substitute who replaces a player from the beginning of the tournament; one who
    stood in for session 1 only, the player coming back, is an 'in tournament' substitute (MERS-R §4)."""
    tournament = make_tournament(director=director, players=8, sessions=2, substitutes=1)
    services.checkin_apply(
        session=session(tournament, 1), present=everyone_but("p3"), absent={"p3": "substitute"},
        substitutes_present=["s1"], substitute_answers={"s1": True},
    )  # fmt: skip
    play(tournament, 1, director)
    assert "s1" in {r.player for r in standings_view(tournament=tournament).listed}  # so far from the start
    services.checkin_apply(session=session(tournament, 2), present=everyone_but(), absent={})
    play(tournament, 2, director)
    standings = standings_view(tournament=tournament)
    assert "s1" not in {r.player for r in standings.listed}
    assert standings.row("p3").sessions == 1


# -- the page --------------------------------------------------------------------------------------------


def test_the_checkin_page_explains_both_choices_and_records_the_answer(client, make_tournament, director):
    tournament = make_tournament(director=director, players=8, sessions=2, substitutes=1)
    client.force_login(director)
    url = reverse("console-session", args=[tournament.slug, 1])
    html = client.get(url).content.decode()
    assert "absent this session: a substitute plays" in html and "withdrawn: leaves the tournament" in html
    assert "stays in the draw" in html and 'name="c_s1"' in html
    data = {f"p_p{i}": "present" for i in range(1, 9)}
    data.update({"p_p3": "substitute", "s_s1": "on", "c_s1": "yes"})
    response = client.post(url, data, follow=True)
    html = response.content.decode()
    assert "Absent this session, a substitute plays: Player3 open-2026." in html
    assert 'id="absent-list"' in html and "results count, ranked" in html
    assert EmaSubmission.objects.get(tournament=tournament).substitute_answers == {"s1": True}
    assert Registration.objects.get(tournament=tournament, key="p3").withdrawn_from is None
    # the form comes back with the absent player's choice; session 2 does not ask the substitutes
    assert '<option value="substitute" selected>' in client.get(url).content.decode()
    assert (
        'name="c_s1"'
        not in client.get(reverse("console-session", args=[tournament.slug, 2])).content.decode()
    )


def test_the_checkin_page_in_spanish(client, make_tournament, director):
    tournament = make_tournament(director=director, players=8, sessions=2, substitutes=1)
    client.force_login(director)
    html = client.get(
        reverse("console-session", args=[tournament.slug, 1]), HTTP_ACCEPT_LANGUAGE="es"
    ).content.decode()
    assert "ausente en esta sesión: juega un suplente" in html
    assert "retirado: deja el torneo" in html
    assert "¿cuentan sus resultados en la clasificación?" in html


# -- the API ---------------------------------------------------------------------------------------------


def test_the_api_checks_in_an_absent_player_and_the_substitutes_answer(client, make_tournament, director):
    tournament = make_tournament(director=director, players=8, sessions=2, substitutes=1)
    client.force_login(director)
    url = f"/api/tournaments/{tournament.slug}/console/sessions/1/checkin/"
    body = {
        "present": everyone_but("p3"),
        "absent": {"p3": "substitute"},
        "substitutes_present": ["s1"],
        "substitute_answers": {"s1": True},
    }
    response = client.post(url, body, content_type="application/json")
    assert response.status_code == 200, response.content
    assert response.json()["absent"] == ["p3"] and "s1" in response.json()["checked_in"]
    assert EmaSubmission.objects.get(tournament=tournament).substitute_answers == {"s1": True}
    bad = client.post(url, {**body, "absent": {"p3": "gone"}}, content_type="application/json")
    assert bad.status_code == 400 and "absent" in bad.json()
    later = client.post(
        f"/api/tournaments/{tournament.slug}/console/sessions/2/checkin/",
        {"present": everyone_but(), "substitute_answers": {"s1": False}},
        content_type="application/json",
    )
    assert later.status_code == 400 and "substitute_answers" in later.json()
    assert EmaSubmission.objects.get(tournament=tournament).substitute_answers == {"s1": True}


# -- the substitute where he plays -----------------------------------------------------------------------


def test_a_late_player_s_substitute_is_shown_where_he_plays(client, make_tournament, director):
    """The venue screen's 'where you sit', the seating page, the public session page, the table page and
    "find my seat" show the substitute in the seat of the late player he replaced."""
    from penalties.services import penalty_record
    from tests.rankings.test_standings_pages import seat
    from tournaments.permissions import actor_for

    tournament = make_tournament(director=director, players=8, sessions=1, substitutes=1)
    (table, _other) = seat(
        tournament, 1, [["p1", "p2", "p3", "p4"], ["p5", "p6", "p7", "p8"]], status="seated"
    )
    registrations = {r.key: r for r in Registration.objects.filter(tournament=tournament)}
    penalty_record(
        tournament=tournament, registration=registrations["p3"], kind="replaced", actor=actor_for(user=director, table=table),
        session=session(tournament, 1), substitute=registrations["s1"], reason="late_arrival",
    )  # fmt: skip
    client.force_login(director)
    screen = client.get(reverse("venue-screen", args=[tournament.slug])).content.decode()
    sub_line = screen[screen.index("OPEN-2026, Sub1") :].split("</li>")[0]
    # the substitute at the late player's seat; the late player is not listed at a table he does not play
    assert "substitute for OPEN-2026, Player3" in sub_line and "T1 W" in sub_line
    assert "OPEN-2026, Player3</span>" not in screen
    seating = client.get(reverse("seating", args=[tournament.slug])).content.decode()
    assert "replaced by Sub1 open-2026" in seating
    tables = client.get(reverse("session", args=[tournament.slug, 1])).content.decode()
    row = tables[tables.index("Sub1 open-2026") :].split("</tr>")[0]
    assert "for Player3 open-2026" in row
    page = client.get(reverse("table-page", args=[tournament.slug, 1, table.number])).content.decode()
    assert '<span class="name">Sub1 open-2026</span>' in page and "substitute for Player3 open-2026" in page
    # the tournament page's "find my seat": the substitute finds the seat he plays, the late player his substitute
    home = reverse("tournament-home", args=[tournament.slug])
    sub = " ".join(client.get(home, {"name": "Sub1"}).content.decode().split())
    assert "table 1, seat W</strong> <small>for Player3 open-2026</small>" in sub
    late = " ".join(client.get(home, {"name": "Player3"}).content.decode().split())
    found = late[late.index('class="seat-found"') :].split("</ul>")[0]
    assert "replaced by Sub1 open-2026" in found and "table 1" not in found


def test_riichi_an_absent_player_carries_the_fixed_result_of_a_replaced_player(make_tournament, director):
    """EMA riichi rules §7.3: a substituted player scores -15,000 points and -15,000 uma for the session;
    absent at check-in is a substitution from the start, as the tournament's replacement result says."""
    from tests.penalties.test_services_substitutes import confirm as confirm_riichi
    from tournaments.models import Role
    from tournaments.permissions import Actor

    tournament = make_tournament(
        slug="riichi-cup", ruleset="ema-riichi-2016", director=director, sessions=1, substitutes=1,
        rules={"replacement_points": -15000, "replacement_uma": -15000},
    )  # fmt: skip
    services.checkin_apply(
        session=session(tournament, 1),
        present=everyone_but("p3"),
        absent={"p3": "substitute"},
        substitutes_present=["s1"],
    )
    services.session_seat(session=session(tournament, 1))
    actor = Actor(user=director, role=Role.DIRECTOR)
    tables = list(session(tournament, 1).tables.order_by("number"))
    confirm_riichi(tables[0], actor, [45000, 32000, 25000, 18000])
    assert standings_view(tournament=tournament).row("p3").sessions == 0  # not before the session is over
    confirm_riichi(tables[1], actor, [30000, 30000, 30000, 30000])
    p3 = standings_view(tournament=tournament).row("p3")
    assert (p3.score, p3.sessions, p3.rank) == (-30000, 1, 8)
    assert "s1" not in {r.player for r in standings_view(tournament=tournament).listed}


def test_the_withdrawn_player_s_page_and_the_standings_command_say_he_is_not_ranked(
    client, make_tournament, director
):
    import io

    from django.core.management import call_command

    tournament = day_with_absent_withdrawn_and_substitutes(make_tournament, director)
    standings_refresh(tournament_id=tournament.pk)
    absent = client.get(reverse("player-public", args=[tournament.slug, "p3"])).content.decode()
    assert "Absent from session 1: a substitute played it." in absent
    spanish = client.get(reverse("player-public", args=[tournament.slug, "p3"]), HTTP_ACCEPT_LANGUAGE="es")
    assert "Ausente en la sesión 1: la jugó un suplente." in spanish.content.decode()
    page = client.get(reverse("player-public", args=[tournament.slug, "p5"])).content.decode()
    assert "withdrawn from session 2" in page and "not ranked: listed apart, below the ranking" in page
    out = io.StringIO()
    call_command("standings", tournament.slug, stdout=out)
    last = out.getvalue().strip().splitlines()[-1]
    assert last.split()[:2] == ["—", "p5"] and "withdrawn from session 2, not ranked" in last


def test_the_standings_api_lists_the_withdrawn_apart(client, make_tournament, director):
    tournament = day_with_absent_withdrawn_and_substitutes(make_tournament, director)
    standings_refresh(tournament_id=tournament.pk)
    body = client.get(f"/api/tournaments/{tournament.slug}/standings/").json()
    assert "p5" not in [r["player"] for r in body["standings"]]
    assert [(r["player"], r["rank"], r["withdrawn_from"]) for r in body["withdrawn"]] == [("p5", None, 2)]
    assert [r["rank"] for r in body["standings"]] == sorted(r["rank"] for r in body["standings"])


def test_standings_as_after_an_earlier_session_rank_a_player_who_withdrew_later(make_tournament, director):
    """Shown as after session 1 (the last sessions hidden for the prize-giving), p5 had not withdrawn yet."""
    tournament = day_with_absent_withdrawn_and_substitutes(make_tournament, director)
    earlier = standings_view(tournament=tournament, upto_session=1)
    assert "p5" in {r.player for r in earlier.rows} and earlier.withdrawn == ()
    assert "p5" in {r.player for r in standings_view(tournament=tournament).withdrawn}
