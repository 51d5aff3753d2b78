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
from tournaments.lifecycle import Blocked
from tournaments.models import Registration, Session
from tournaments.registrations import checkin as checkin_services
from tournaments.sessions import services as session_services


def session(tournament, number: int) -> Session:
    return Session.objects.get(tournament=tournament, number=number)


def keys(tournament, number: int) -> set[str]:
    return set(session(tournament, number).seats.values_list("registration__key", flat=True))


def everyone_but(*absent: str, players: int = 8) -> list[str]:
    return [f"p{i}" for i in range(1, players + 1) if f"p{i}" not in absent]


def play(tournament, number: int, user) -> None:
    """Seat, publish, start, confirm every table ([10, 5, -5, -10] in seat order) and finish ``number``."""
    s = session(tournament, number)
    session_services.session_seat(session=s)
    session_services.session_advance(session=s)
    session_services.session_advance(session=s)
    for table in s.tables.order_by("number"):
        confirm(table, [10, 5, -5, -10], user)
    session_services.session_advance(session=s)


# -- the service -----------------------------------------------------------------------------------------


def test_absent_for_one_session_the_substitute_plays_it_and_the_player_comes_back(make_tournament, director):
    tournament = make_tournament(director=director, players=8, sessions=2, substitutes=1)
    with events() as sent:
        report = checkin_services.checkin_apply(
            session=session(tournament, 1),
            present=everyone_but("p3"),
            absent={"p3": checkin_services.ABSENT_SUBSTITUTE},
            substitutes_present=["s1"],
        )
    assert report.absent == ["Player3 open-2026"] and report.withdrawn == []
    assert len(sent) == 1 and {"roster", "schedule"} <= sent[0].what  # one event for the check-in
    p3 = Registration.objects.get(tournament=tournament, key="p3")
    assert p3.withdrawn_from is None and session(tournament, 1).absent == ["p3"]
    play(tournament, 1, director)
    assert "s1" in keys(tournament, 1) and "p3" not in keys(tournament, 1)
    # session 2: he is back in the draw, no substitute needed
    checkin_services.checkin_apply(session=session(tournament, 2), present=everyone_but(), absent={})
    session_services.session_seat(session=session(tournament, 2))
    assert "p3" in keys(tournament, 2) and "s1" not in keys(tournament, 2)


def test_withdrawn_leaves_every_later_session(make_tournament, director):
    tournament = make_tournament(director=director, players=8, sessions=2, substitutes=1)
    report = checkin_services.checkin_apply(
        session=session(tournament, 1),
        present=everyone_but("p3"),
        absent={"p3": checkin_services.ABSENT_WITHDRAW},
        substitutes_present=["s1"],
    )
    assert report.withdrawn == ["Player3 open-2026"] and report.absent == []
    assert Registration.objects.get(tournament=tournament, key="p3").withdrawn_from == 1
    assert session(tournament, 1).absent == []
    play(tournament, 1, director)
    session_services.session_seat(session=session(tournament, 2))
    assert "p3" not in keys(tournament, 2) and "s1" in keys(tournament, 2)


def test_an_absent_player_without_a_substitute_present_is_refused_and_nothing_is_written(
    make_tournament, director
):
    tournament = make_tournament(director=director, players=8, sessions=2)
    with (
        events() as sent,
        pytest.raises(Blocked, match="1 absent player needs a substitute, but no substitute is here"),
    ):
        checkin_services.checkin_apply(
            session=session(tournament, 1), present=everyone_but("p3"), absent={"p3": "substitute"}
        )
    assert session(tournament, 1).absent == [] and sent == []


def test_checkin_before_the_first_session_records_the_substitutes_answer_as_the_ema_submission_does(
    make_tournament, director
):
    tournament = make_tournament(director=director, players=8, sessions=2, substitutes=2)
    report = checkin_services.checkin_apply(
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
    checkin_services.checkin_apply(
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
        checkin_services.checkin_apply(
            session=session(tournament, 2), present=everyone_but(), absent={}, substitute_answers={"s1": True}
        )
    assert "substitute_answers" in later.value.message_dict
    with pytest.raises(ValidationError) as regular:
        checkin_services.checkin_apply(
            session=session(tournament, 1), present=everyone_but(), absent={}, substitute_answers={"p1": True}
        )
    assert "substitute_answers" in regular.value.message_dict
    assert not EmaSubmission.objects.filter(tournament=tournament, substitute_answers__has_key="p1").exists()


def test_checkin_is_refused_once_the_session_is_seated(make_tournament, director):
    tournament = make_tournament(director=director, players=8, sessions=1)
    session_services.session_seat(session=session(tournament, 1))
    with pytest.raises(Blocked, match="already seated"):
        checkin_services.checkin_apply(
            session=session(tournament, 1), present=everyone_but("p3"), absent={"p3": "substitute"}
        )


# -- standings and the EMA results file ------------------------------------------------------------------


def day_with_absent_withdrawn_and_substitutes(make_tournament, director):
    """p3 absent from session 1 (s1, who asked that his results count, plays it); p5 withdrawn before
    session 2 (s2, who did not ask, plays for him)."""
    tournament = make_tournament(director=director, players=8, sessions=2, substitutes=2)
    checkin_services.checkin_apply(
        session=session(tournament, 1),
        present=everyone_but("p3"),
        absent={"p3": "substitute"},
        substitutes_present=["s1"],
        substitute_answers={"s1": True, "s2": False},
    )
    play(tournament, 1, director)
    checkin_services.checkin_apply(
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
    checkin_services.checkin_apply(
        session=session(tournament, 1), present=everyone_but(), absent={}, substitute_answers={"s1": True}
    )
    play(tournament, 1, director)
    checkin_services.checkin_apply(
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
    checkin_services.checkin_apply(
        session=session(tournament, 1), present=everyone_but("p3"), absent={"p3": "substitute"},
        substitutes_present=["s1"], substitute_answers={"s1": True},
    )  # fmt: skip
    play(tournament, 1, director)
    assert "s1" in {r.player for r in standings_view(tournament=tournament).listed}  # so far from the start
    checkin_services.checkin_apply(session=session(tournament, 2), present=everyone_but(), absent={})
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
    checkin_services.checkin_apply(
        session=session(tournament, 1),
        present=everyone_but("p3"),
        absent={"p3": "substitute"},
        substitutes_present=["s1"],
    )
    session_services.session_seat(session=session(tournament, 1))
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


def test_the_substitutes_start_present_and_the_saved_count_is_the_headers(client, make_tournament, director):
    """Before the first save everybody starts present, the substitutes too: marking a player absent is
    enough for the substitute to play; the message counts who is here as the header does."""
    tournament = make_tournament(director=director, players=8, sessions=2, substitutes=1)
    client.force_login(director)
    url = reverse("console-session", args=[tournament.slug, 1])
    html = client.get(url).content.decode()
    box = (
        html.split('name="s_s1"', 1)[0].rsplit("<input", 1)[1]
        + html.split('name="s_s1"', 1)[1].split(">", 1)[0]
    )
    assert "checked" in box  # the substitute's "is here" starts ticked
    data = {f"p_p{i}": "present" for i in range(1, 9)}
    data.update({"p_p3": "substitute", "s_s1": "on", "c_s1": "no"})
    html = client.post(url, data, follow=True).content.decode()
    assert "Check-in saved: 8 present." in html  # seven players and the substitute
    assert '<span class="badge ok">8 present</span>' in html
    # once saved, the page shows what was saved: a substitute left out stays unticked
    data.update({"p_p3": "present"})
    data.pop("s_s1")
    client.post(url, data)
    html = client.get(url).content.decode()
    box = html.split('name="s_s1"', 1)[1].split(">", 1)[0]
    assert "checked" not in box


def test_an_absent_player_with_no_substitute_is_told_what_to_do(client, make_tournament, director):
    tournament = make_tournament(director=director, players=8, sessions=2, substitutes=1)
    client.force_login(director)
    url = reverse("console-session", args=[tournament.slug, 1])
    data = {f"p_p{i}": "present" for i in range(1, 9)}
    data.update({"p_p3": "substitute", "p_p4": "substitute", "s_s1": "on"})
    html = client.post(url, data, follow=True).content.decode()
    assert (
        "2 absent players need a substitute, but only 1 substitute is here: tick the substitutes who are "
        "here, name the new ones, or mark a player withdrawn." in html
    )
    spanish = client.post(url, data, follow=True, headers={"Accept-Language": "es"}).content.decode()
    assert "2 jugadores ausentes necesitan un suplente, pero solo hay 1 suplente" in spanish


def test_find_my_seat_before_any_seating_says_it_is_not_published(client, make_tournament, director):
    tournament = make_tournament(director=director, players=8, sessions=2)
    url = reverse("tournament-home", args=[tournament.slug])
    html = client.get(url, {"name": "Player3"}).content.decode()
    line = html.split('class="seat-found"', 1)[1].split("</li>", 1)[0]
    assert "Player3" in line and "the seating is not published yet" in line
    spanish = client.get(url, {"name": "Player3"}, headers={"Accept-Language": "es"}).content.decode()
    assert "la distribución de mesas aún no está publicada" in spanish


# -- nothing sent is left out unsaid ---------------------------------------------------------------------


@pytest.mark.parametrize(
    "change, field, words",
    [
        ({"absent": {"p99": "substitute"}}, "absent", "p99 is not a player of this tournament"),
        ({"present": [*everyone_but(), "p99"]}, "present", "p99 is not a player of this tournament"),
        ({"absent": {"p3": "substitute"}}, "absent", "p3 is both present and absent"),
        ({"absent": {"s1": "withdraw"}}, "absent", "s1 is a substitute"),
        ({"substitutes_present": ["s9"]}, "substitutes_present", "s9 is not a substitute of this tournament"),
        ({"substitutes_present": ["p1"]}, "substitutes_present", "p1 is not a substitute of this tournament"),
    ],
)
def test_a_check_in_naming_someone_who_cannot_be_there_is_a_400_naming_the_list(
    client, make_tournament, director, change, field, words
):
    tournament = make_tournament(director=director, players=8, sessions=2, substitutes=1)
    client.force_login(director)
    url = f"/api/tournaments/{tournament.slug}/console/sessions/1/checkin/"
    body = {"present": everyone_but(), **change}
    response = client.post(url, body, content_type="application/json")
    assert response.status_code == 400, response.content
    assert words in response.json()[field][0]
    first = session(tournament, 1)
    assert first.checked_in == [] and first.absent == []  # nothing recorded
    assert Registration.objects.filter(tournament=tournament, withdrawn_from__isnull=False).count() == 0


def test_a_withdrawn_player_sent_as_present_is_refused_not_checked_in(client, make_tournament, director):
    tournament = make_tournament(director=director, players=8, sessions=2, substitutes=1)
    checkin_services.checkin_apply(
        session=session(tournament, 1),
        present=everyone_but("p5"),
        absent={"p5": "withdraw"},
        substitutes_present=["s1"],
    )
    client.force_login(director)
    response = client.post(
        f"/api/tournaments/{tournament.slug}/console/sessions/2/checkin/",
        {"present": everyone_but()},
        content_type="application/json",
    )
    assert response.status_code == 400
    assert "p5 withdrew before session 1 and cannot be checked in" in response.json()["present"][0]
    assert "p5" not in (session(tournament, 2).checked_in or [])


def test_the_console_page_checks_in_as_before(client, make_tournament, director):
    """The page sends only the players it lists: its check-in still goes through."""
    tournament = make_tournament(director=director, players=8, sessions=2, substitutes=1)
    client.force_login(director)
    page = reverse("console-session", args=[tournament.slug, 1])
    data = {f"p_p{i}": "present" for i in range(1, 9)}
    data["p_p3"] = "substitute"
    data["s_s1"] = "on"
    response = client.post(page, data)
    assert response.status_code == 302, response.content.decode()[:2000]
    assert session(tournament, 1).absent == ["p3"]


def test_riichi_2025_a_substitute_seated_for_an_absent_player_counts_for_the_others_uma(
    make_tournament, director
):
    """EMA riichi rules 2025 §7.3 (ema-riichi-rules-2025.txt lines 1330-1335), with the preset's figures and
    no setting: p3, absent at check-in, scores −15,000 points and −15,000 uma; s1, seated in his place
    before the game began, wins the table and receives −15,000 uma; the others receive 5,000, −5,000 and
    −15,000 by their places behind him."""
    from scoring.models import SeatSummary
    from tests.penalties.test_services_substitutes import confirm as confirm_riichi
    from tournaments.models import Role
    from tournaments.permissions import Actor

    tournament = make_tournament(
        slug="riichi-2025-cup", ruleset="ema-riichi-2025", director=director, sessions=1, substitutes=1
    )
    checkin_services.checkin_apply(
        session=session(tournament, 1),
        present=everyone_but("p3"),
        absent={"p3": "substitute"},
        substitutes_present=["s1"],
    )
    session_services.session_seat(session=session(tournament, 1))
    actor = Actor(user=director, role=Role.DIRECTOR)
    tables = list(session(tournament, 1).tables.order_by("number"))
    table = next(t for t in tables if t.seats.filter(registration__key="s1").exists())
    other = next(t for t in tables if t.pk != table.pk)
    order = [s.registration.key for s in table.seats.order_by("position").select_related("registration")]
    scores = [45000 if key == "s1" else 0 for key in order]
    rest = iter([32000, 25000, 18000])
    scores = [s or next(rest) for s in scores]
    confirm_riichi(table, actor, scores)
    confirm_riichi(other, actor, [30000, 30000, 30000, 30000])
    uma = {
        s.registration.key: s.uma
        for s in SeatSummary.objects.filter(table=table).select_related("registration")
    }
    assert uma.pop("s1") == -15000
    assert sorted(uma.values(), reverse=True) == [5000, -5000, -15000]
    p3 = standings_view(tournament=tournament).row("p3")
    assert (p3.score, p3.sessions) == (-30000, 1)
