"""The room's pages: the clock (public, cached; controls for staff), the venue screen, the referees'
overview, the table and player pages, the printouts."""

from __future__ import annotations

import datetime as dt

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from scoring import services as scoring
from scoring.models import Hand
from tests.clock.conftest import seat_session
from tournaments.clock import services
from tournaments.models import Session
from tournaments.permissions import actor_for

pytestmark = pytest.mark.django_db

WIN = {"result": "win", "winner": 0, "discarder": 2, "fan": 8}


@pytest.fixture
def seated(tournament):
    seat_session(tournament, 1)
    seat_session(tournament, 2)
    Session.objects.filter(tournament=tournament).update(seating_published=True)
    return tournament


def logged_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_clock_page_is_public_and_served_from_the_cache_without_a_query(client, seated):
    first = client.get("/t/open-2026/clock/")
    assert first.status_code == 200
    html = first.content.decode()
    assert 'data-clock-api="/api/tournaments/open-2026/clock/"' in html
    assert "Time is up. Stop playing: the hand in play ends and scores nothing." in html  # MCR (GB §3.5.6)
    assert "Clock controls" not in html  # no buttons for the public
    with CaptureQueriesContext(connection) as queries:
        again = client.get("/t/open-2026/clock/", HTTP_ACCEPT_ENCODING="gzip")
    assert again.status_code == 200 and again["X-Page-Cache"] == "hit"
    assert again["Content-Encoding"] == "gzip"
    assert len(queries) == 0
    assert "csrftoken" in first.cookies  # the forms' token comes from the cookie


def test_a_clock_change_gives_a_new_page(client, director, seated, fake_now):
    client.get("/t/open-2026/clock/")
    services.clock_act(tournament=seated, user=director, action="start")
    response = client.get("/t/open-2026/clock/")
    assert response["X-Page-Cache"] == "miss"  # the publication stamp changed with the clock


def test_spanish_clock_page(client, seated):
    html = client.get("/t/open-2026/clock/", HTTP_ACCEPT_LANGUAGE="es").content.decode()
    assert "Se acabó el tiempo" in html
    assert "Dejen de jugar: la mano en juego termina y no puntúa." in html  # MCR: Green Book §3.5.6


def test_staff_see_the_controls_and_use_them(director, seated, fake_now):
    client = logged_in(director)
    html = client.get("/t/open-2026/clock/").content.decode()
    assert "Clock controls" in html and "End the session" in html
    # MCR's end of time (Green Book §3.5.6, mcr-competition-rules-en.txt lines 233-234: "all players
    # cease playing immediately. Any hand in play at that moment ends immediately")
    assert "when time is up: play stops, the hand in play scores nothing" in html
    r = client.post("/t/open-2026/clock/control/", {"action": "start", "session": "1", "minutes": "90"})
    assert r.status_code == 302 and r["Location"] == "/t/open-2026/clock/#controls"  # where the messages are
    clock = seated.sessions.get(number=1).clock
    assert clock.state == "running" and clock.length_seconds == 5400
    client.post("/t/open-2026/clock/control/", {"action": "extend", "minutes": "5"})
    client.post("/t/open-2026/clock/control/", {"action": "extend", "minutes": "2", "table": "2"})
    clock.refresh_from_db()
    assert clock.extra_seconds == 300 and clock.table_extra == {"2": 120}
    r = client.post("/t/open-2026/clock/control/", {"action": "resume"}, follow=True)
    assert "Session 1: The clock is running; only a paused clock resumes" in r.content.decode()
    r = client.post("/t/open-2026/clock/control/", {"action": "extend", "minutes": "x"}, follow=True)
    assert "Minutes must be a whole number" in r.content.decode()
    r = client.post("/t/open-2026/clock/control/", {"action": "extend", "minutes": "300"}, follow=True)
    assert "Minutes must be a whole number from -240 to 240, not 0" in r.content.decode()  # not seconds
    r = client.post("/t/open-2026/clock/control/", {"action": "end"}, follow=True)
    assert "Session 1: time is up." in r.content.decode()
    # the page now runs session 2's clock, and says so when a button acts on it
    r = client.post("/t/open-2026/clock/control/", {"action": "extend", "minutes": "5"}, follow=True)
    assert "Session 2: time changed." in r.content.decode()
    r = client.post("/t/open-2026/clock/control/", {"action": "end"}, follow=True)
    assert "Session 2: The clock is stopped; only a started clock ends" in r.content.decode()


def test_a_spanish_director_reads_the_clocks_refusals_in_spanish(director, seated, fake_now):
    client = logged_in(director)
    client.cookies["django_language"] = "es"
    client.post("/t/open-2026/clock/control/", {"action": "start", "session": "1", "minutes": "10"})
    client.post("/t/open-2026/clock/control/", {"action": "extend", "minutes": "-5", "table": "2"})
    html = client.post("/t/open-2026/clock/control/", {"action": "resume"}, follow=True).content.decode()
    assert "Sesión 1: El reloj está en marcha; solo se reanuda un reloj en pausa" in html
    html = client.post(
        "/t/open-2026/clock/control/", {"action": "extend", "minutes": "-6"}, follow=True
    ).content.decode()
    assert "Sesión 1: Quitar 360 s deja a la mesa 2 con menos de nada (le quedan 300 s)" in html
    html = client.post(
        "/t/open-2026/clock/control/", {"action": "extend", "minutes": "-1", "table": "9"}, follow=True
    ).content.decode()
    assert "La mesa 9 no es una mesa de la sesión 1" in html
    html = client.post(
        "/t/open-2026/clock/control/", {"action": "extend", "minutes": "1", "table": "2"}, follow=True
    ).content.decode()
    assert "Sesión 1, mesa 2: tiempo cambiado." in html
    assert seated.sessions.get(number=1).clock.extra_seconds == 0  # nothing was taken


def test_controls_refused_to_others(client, scorer, seated):
    assert client.post("/t/open-2026/clock/control/", {"action": "start"}).status_code == 302  # to login
    assert logged_in(scorer).post("/t/open-2026/clock/control/", {"action": "start"}).status_code == 403
    assert not Session.objects.filter(clock__isnull=False).exists()


def test_session_length_before_the_start(director, seated):
    client = logged_in(director)
    client.post("/t/open-2026/clock/control/", {"action": "length", "session": "2", "minutes": "100"})
    assert seated.sessions.get(number=2).clock.length_seconds == 6000


def test_announcements_from_the_clock_page(client, director, referee, seated):
    r = logged_in(referee).post("/t/open-2026/clock/announcements/", {"text": "Lunch"})
    assert r.status_code == 403
    logged_in(director).post("/t/open-2026/clock/announcements/", {"text": "Lunch at 13:00 next door"})
    html = client.get("/t/open-2026/screen/").content.decode()
    assert "Lunch at 13:00 next door" in html


def test_venue_screen_shows_the_next_seating_by_name_and_the_standings(client, director, seated, fake_now):
    html = client.get("/t/open-2026/screen/").content.decode()
    assert "Session 1: where you sit" in html
    assert "OPEN-2026, Player1" in html and "T1 E" in html
    assert 'data-panel="clock"' in html
    # once session 1 runs, the screen shows where to sit in session 2
    services.clock_act(tournament=seated, user=director, action="start")
    html = client.get("/t/open-2026/screen/").content.decode()
    assert "Session 2: where you sit" in html
    panels = client.get("/t/open-2026/screen/panels/").content.decode()
    assert "Session 2: where you sit" in panels and "<html" not in panels
    # MCR ranks by table points, then score: the hall is told which figure is which
    assert '<small class="legend muted">TP · Score</small>' in panels


def test_referees_overview(director, referee, seated, fake_now):
    services.clock_act(tournament=seated, user=director, action="start", seconds=3600)
    services.clock_act(tournament=seated, user=director, action="extend", seconds=300, table=2)
    html = logged_in(referee).get("/t/open-2026/s/1/clock/").content.decode()
    assert 'data-clock-table-left="1"' in html and 'data-clock-table-left="2"' in html
    assert "Extra minutes" in html
    assert "The clock is on session 1." in logged_in(referee).get("/t/open-2026/s/2/clock/").content.decode()
    services.clock_act(tournament=seated, user=director, action="end")
    html = logged_in(referee).get("/t/open-2026/s/1/clock/").content.decode()
    assert "Time is up for this session." in html and "Extra minutes" not in html
    assert "Session clock" in logged_in(referee).get("/t/open-2026/s/2/clock/").content.decode()


def test_overview_needs_a_role(client, make_user, seated):
    assert client.get("/t/open-2026/s/1/clock/").status_code == 302
    assert logged_in(make_user("nobody")).get("/t/open-2026/s/1/clock/").status_code == 403


def test_table_page_shows_time_left_and_marks_hands_entered_after_time(director, seated, fake_now):
    services.clock_act(tournament=seated, user=director, action="start", seconds=600)
    table = seated.sessions.get(number=1).tables.get(number=1)
    actor = actor_for(user=director, table=table)
    scoring.hand_add(table=table, hand=WIN, actor=actor, expected_version=None)
    scoring.hand_add(table=table, hand=WIN, actor=actor, expected_version=None)
    # the second hand was entered after the end: the clock's end lies before it
    Hand.objects.filter(result__table=table, number=1).update(
        created_at=fake_now.value + dt.timedelta(seconds=60)
    )
    Hand.objects.filter(result__table=table, number=2).update(
        created_at=fake_now.value + dt.timedelta(seconds=700)
    )
    fake_now.advance(800)
    html = logged_in(director).get("/t/open-2026/s/1/table/1/").content.decode()
    assert 'id="table-clock"' in html and 'data-clock-table="1"' in html
    assert 'data-phase="over"' in html
    assert html.count(">after time<") == 1
    assert "1 hand entered after time" in html
    assert "the session is over at this table" in html  # MCR: the hand in play was the last
    overview = logged_in(director).get("/t/open-2026/s/1/clock/").content.decode()
    assert "1 after time" in overview


def test_ending_the_clock_early_does_not_turn_a_cut_tables_hands_late(director, seated, fake_now):
    """Table 1 was given 5 minutes less (its time is up at 300 s of 600). The director ends the clock at
    450 s: table 1's end stays at 300 s, so its hand of 200 s is within time and only that of 400 s is late;
    table 2's hand of 400 s was before the end."""
    start = fake_now.value
    services.clock_act(tournament=seated, user=director, action="start", seconds=600)
    services.clock_act(tournament=seated, user=director, action="extend", seconds=-300, table=1)
    session = seated.sessions.get(number=1)
    for number, times in ((1, (200, 400)), (2, (400,))):
        table = session.tables.get(number=number)
        actor = actor_for(user=director, table=table)
        for hand, seconds in enumerate(times, start=1):
            scoring.hand_add(table=table, hand=WIN, actor=actor, expected_version=None)
            Hand.objects.filter(result__table=table, number=hand).update(
                created_at=start + dt.timedelta(seconds=seconds)
            )
    fake_now.advance(450)
    services.clock_act(tournament=seated, user=director, action="end")
    fake_now.advance(100)
    html = logged_in(director).get("/t/open-2026/s/1/table/1/").content.decode()
    assert html.count(">after time<") == 1
    assert "1 hand entered after time" in html
    html = logged_in(director).get("/t/open-2026/s/1/table/2/").content.decode()
    assert ">after time<" not in html


def test_a_pause_keeps_a_cut_tables_late_hands_late(director, seated, fake_now):
    """Table 1 was given 5 minutes less (its time is up at 300 s of 600); its hand of 400 s is late. The
    clock is paused at 450 s for ten minutes, resumed, then ended: that hand stays late, the hand of 200 s
    stays within time, and the page shows the mark while the clock is paused."""
    start = fake_now.value
    services.clock_act(tournament=seated, user=director, action="start", seconds=600)
    services.clock_act(tournament=seated, user=director, action="extend", seconds=-300, table=1)
    table = seated.sessions.get(number=1).tables.get(number=1)
    actor = actor_for(user=director, table=table)
    for hand, seconds in ((1, 200), (2, 400)):
        scoring.hand_add(table=table, hand=WIN, actor=actor, expected_version=None)
        Hand.objects.filter(result__table=table, number=hand).update(
            created_at=start + dt.timedelta(seconds=seconds)
        )
    client = logged_in(director)
    fake_now.advance(450)
    services.clock_act(tournament=seated, user=director, action="pause")
    fake_now.advance(600)
    assert client.get("/t/open-2026/s/1/table/1/").content.decode().count(">after time<") == 1
    tables = {
        t["table"]: t["ends_at"] for t in client.get("/api/tournaments/open-2026/clock/").json()["tables"]
    }
    assert tables[1] == (start + dt.timedelta(seconds=300)).isoformat()
    assert tables[2] is None  # waiting with the session
    services.clock_act(tournament=seated, user=director, action="resume")
    fake_now.advance(60)
    services.clock_act(tournament=seated, user=director, action="end")
    html = client.get("/t/open-2026/s/1/table/1/").content.decode()
    assert html.count(">after time<") == 1 and "1 hand entered after time" in html


def test_the_table_page_says_its_own_extra_time_as_such(director, seated, fake_now):
    services.clock_act(tournament=seated, user=director, action="start", seconds=600)
    services.clock_act(tournament=seated, user=director, action="extend", seconds=-120, table=1)
    client = logged_in(director)
    assert "this table: −2:00" in client.get("/t/open-2026/s/1/table/1/").content.decode()
    client.cookies["django_language"] = "es"
    assert "esta mesa: −2:00" in client.get("/t/open-2026/s/1/table/1/").content.decode()
    assert "data-clock-extra></small>" in client.get("/t/open-2026/s/1/table/2/").content.decode()


def test_player_page_shows_table_seat_and_time_left(client, director, seated, fake_now):
    services.clock_act(tournament=seated, user=director, action="start", seconds=3600)
    fake_now.advance(600)
    html = client.get("/t/open-2026/p/p5/").content.decode()
    # session 1 is the next published session with tables to play
    assert "Table 2" in html
    assert 'data-clock-table="2"' in html
    assert "50:00" in html


def test_schedules_print(director, seated, make_tournament):
    client = logged_in(director)
    html = client.get("/t/open-2026/print/schedules/").content.decode()
    assert html.count('class="sheet"') == 8  # one page per player
    assert "size: A4" in html
    html = client.get("/t/open-2026/print/schedules/?per=4&paper=letter").content.decode()
    assert html.count('class="sheet quarter"') == 2 and "size: letter" in html
    Session.objects.filter(tournament=seated, number=2).update(seating_published=False)
    html = client.get("/t/open-2026/print/schedules/").content.decode()
    assert "not published" in html
    assert "not published" not in client.get("/t/open-2026/print/schedules/?drafts=1").content.decode()


def test_score_sheets_per_ruleset(director, seated, make_tournament):
    client = logged_in(director)
    html = client.get("/t/open-2026/s/1/print/sheets/").content.decode()
    assert html.count('<div class="sheet">') == 2
    assert "Fan" in html and "Discarder" in html and "Running totals" in html
    assert "Player1 open-2026" in html
    riichi = make_tournament(slug="riichi-day", ruleset="ema-riichi-2016", director=director, players=4)
    seat_session(riichi, 1)
    html = client.get("/t/riichi-day/s/1/print/sheets/?paper=letter").content.decode()
    assert "Han" in html and "Fu" in html and "Riichi" in html and "Counters" in html
    assert "30000" in html and "size: letter" in html


def test_printouts_need_staff(client, scorer, seated):
    assert client.get("/t/open-2026/print/schedules/").status_code == 302
    assert logged_in(scorer).get("/t/open-2026/s/1/print/sheets/").status_code == 403


def test_venue_screen_lists_a_substitute_where_they_play(client, make_tournament, director):
    from penalties import services as penalty_services
    from penalties.models import Kind
    from tournaments.clock import room
    from tournaments.permissions import Actor, Role

    tournament = make_tournament(slug="subs-open", director=director, substitutes=1)
    seat_session(tournament, 1)
    Session.objects.filter(tournament=tournament, number=1).update(seating_published=True)
    session = tournament.sessions.get(number=1)
    replaced = tournament.registrations.get(key="p3")
    seat = replaced.seats.get(session=session)
    penalty_services.penalty_record(
        tournament=tournament,
        registration=replaced,
        kind=Kind.REPLACED,
        actor=Actor(user=director, role=Role.DIRECTOR),
        session=session,
        substitute=tournament.registrations.get(key="s1"),
        reason="late_arrival",
    )
    lines = room.seating_by_name(session=session)
    assert len(lines) == 8
    assert "SUBS-OPEN, Player3" not in [line.name for line in lines]  # the replaced player does not play
    sub = next(line for line in lines if line.name == "SUBS-OPEN, Sub1")
    assert (sub.table, sub.wind, sub.substitute, sub.substitute_for) == (
        seat.table.number,
        "ESWN"[seat.position],
        True,
        "SUBS-OPEN, Player3",
    )
    html = client.get("/t/subs-open/screen/").content.decode()
    assert "substitute for SUBS-OPEN, Player3" in html
    assert html.count('data-panel="seating') == 1  # one panel: the screen pages it to its size
    assert '<script src="/i18n/js/en.js">' in html  # "page 2 of 5": the scripts' catalogue
    spanish = client.get("/t/subs-open/screen/", headers={"Accept-Language": "es"}).content.decode()
    assert "suplente de SUBS-OPEN, Player3" in spanish
    assert '<script src="/i18n/js/es.js">' in spanish


def test_a_phone_keeping_its_rows_is_told_which_hands_are_after_time_after_an_extension(
    client, director, seated, fake_now
):
    """The phone's save draws the new hand only and keeps the rows it shows: the answer names every hand
    entered after the table's time, so that a row drawn as late before the director extended the table's
    time loses its mark (static/js/offline-entry.js, markLate)."""
    from django.utils import timezone

    now = timezone.now()
    fake_now.set(now - dt.timedelta(seconds=3600))
    services.clock_act(tournament=seated, user=director, action="start", seconds=600)  # ended 50 min ago
    table = seated.sessions.get(number=1).tables.get(number=1)
    actor = actor_for(user=director, table=table)
    scoring.hand_add(table=table, hand=WIN, actor=actor, expected_version=None)
    Hand.objects.filter(result__table=table, number=1).update(created_at=now - dt.timedelta(seconds=3300))
    scoring.hand_add(table=table, hand=WIN, actor=actor, expected_version=None)  # entered now: after time
    fake_now.set(now)
    link = f"/table/{table.private_key}/"

    def save(version: int) -> str:
        hand = {"action": "hand", "version": version, "result": "draw"}
        response = client.post(link, hand, HTTP_X_ENTRY_FRAGMENTS="1")
        assert response.status_code == 200
        html = response.content.decode()
        return html[html.index('<section id="hands">') : html.index("</section>", html.index('id="hands"'))]

    html = save(3)
    assert 'data-rows-kept="2" data-late="2 3"' in html
    assert html.count('class="late-mark"') == 1  # hand 3's own row, the one drawn
    services.clock_act(tournament=seated, user=director, action="extend", seconds=7200, table=1)
    html = save(4)
    assert 'data-rows-kept="3" data-late=""' in html  # every hand is now within the table's time
    assert "late-mark" not in html
    page = client.get(link).content.decode()
    assert "data-late" not in page and ">after time<" not in page  # the whole page draws every row itself
