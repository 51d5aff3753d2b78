"""The director's seating pages: generate, preview with the quality report, swap, publish, import,
refusals, substitutes, withdrawals and the settings, as a director uses them."""

from __future__ import annotations

import html as htmllib
import re

import pytest

from scoring.models import TableResult
from tournaments import services
from tournaments.models import Session, Table
from tournaments.seating.selectors import seating_quality

from .test_workflow_support import generate, meetings, metric, reg, seating, session, table_keys

pytestmark = pytest.mark.django_db


@pytest.fixture
def as_director(client, director):
    client.force_login(director)
    return client


def page(client, tournament) -> str:
    response = client.get(f"/t/{tournament.slug}/seating/")
    assert response.status_code == 200
    return htmllib.unescape(response.content.decode())


def test_generate_preview_swap_and_publish(as_director, make_tournament, director):
    tournament = make_tournament(slug="flow", director=director, players=16, sessions=5)
    before = page(as_director, tournament)
    assert "No session is seated yet." in before

    response = generate(as_director, tournament, [1, 2, 3, 4, 5])
    assert response.status_code == 302 and response.url.endswith("/seating/#quality")

    # the preview: five drafts, every player once per session, and nobody meets anyone twice
    html = page(as_director, tournament)
    assert "Sessions 1, 2, 3, 4, 5 seated as drafts." in html
    assert metric(html, "repeated_meetings") == 0
    assert metric(html, "max_pair_meetings") == 1
    assert "nobody meets twice" in html
    everyone = sorted(f"p{i}" for i in range(1, 17))
    for n in range(1, 6):
        assert sorted(k for t in seating(tournament, n) for k in t) == everyone
        assert not session(tournament, n).seating_published
    assert html.count('class="badge warn">draft<') == 10  # the overview and each session's heading
    assert set(meetings(tournament, range(1, 6)).values()) == {1}
    country = {r.key: r.player.country for r in tournament.registrations.select_related("player")}
    compatriots = sum(
        m for (a, b), m in meetings(tournament, range(1, 6)).items() if country[a] == country[b]
    )
    assert metric(html, "same_country_meetings") == compatriots
    # 16 players over 5 sessions meet all 15 others, so each meets their 3 compatriots: 24 meetings
    # no seating avoids, and the page says the count is the least possible.
    assert compatriots == 24
    assert re.search(r'data-metric="same_country_least" data-least="24">the least possible<', html)
    assert 'data-metric="same_club_least"' not in html  # no clubs: nothing to say
    spanish = as_director.get(f"/t/{tournament.slug}/seating/", HTTP_ACCEPT_LANGUAGE="es").content.decode()
    assert 'data-least="24">el mínimo posible<' in htmllib.unescape(spanish)
    winds = {}
    for n in range(1, 6):
        for table in seating(tournament, n):
            for position, key in enumerate(table):
                winds.setdefault(key, [0, 0, 0, 0])[position] += 1
    assert metric(html, "max_wind_spread") == max(max(c) - min(c) for c in winds.values())

    # swap two players of different tables in session 2: each now meets three players a second time
    tables = seating(tournament, 2)
    a, b = tables[0][0], tables[1][1]
    keys = table_keys(tournament, 2)
    response = as_director.post(
        f"/t/{tournament.slug}/seating/s/2/swap/", {"a": a, "b": b}, HTTP_HX_REQUEST="true"
    )
    assert response.status_code == 200
    fragment = htmllib.unescape(response.content.decode())
    name_a, name_b = reg(tournament, a).player.full_name, reg(tournament, b).player.full_name
    assert fragment.startswith('<div id="seating-main">')
    assert metric(fragment, "repeated_meetings") == 6
    assert metric(fragment, "max_pair_meetings") == 2
    assert "6 pairs meet more than once" in fragment
    pairs = re.search(r'<details open id="repeated-pairs">.*?</details>', fragment, re.S).group(0)
    assert pairs.count(": 2 times (sessions ") == 6 and name_a in pairs and name_b in pairs
    assert f"{name_a} and {name_b} swapped seats. This swap breaks:" in fragment
    warning = re.search(r'class="swap-result warn".*?</div>', fragment, re.S).group(0)
    assert warning.count("meet again: 2 times, in sessions") == 6
    assert f"{name_a} ({a}) and" in warning or f"and {name_a} ({a})" in warning
    after = seating(tournament, 2)
    assert after[0][0] == b and after[1][1] == a
    assert table_keys(tournament, 2) == keys  # the table links stay valid
    assert seating_quality(tournament=tournament).repeated_meetings == 6

    # publish session 1: players see their seat on their page
    response = as_director.post(f"/t/{tournament.slug}/seating/s/1/publish/")
    assert response.status_code == 302
    assert session(tournament, 1).seating_published
    html = page(as_director, tournament)
    assert "Session 1 is published: players see their seats." in html
    assert html.count('class="badge ok">published<') == 2
    east_of_table_2 = seating(tournament, 1)[1][0]
    player_page = as_director.get(f"/t/{tournament.slug}/p/{east_of_table_2}/").content.decode()
    assert "Your seat in session 1" in player_page
    assert "<strong>Table 2</strong> · seat East" in player_page


def test_a_swap_that_breaks_nothing_says_so_and_without_htmx_redirects(
    as_director, make_tournament, director
):
    tournament = make_tournament(slug="calm", director=director, players=8, sessions=1)
    generate(as_director, tournament, [1])
    first, _ = seating(tournament, 1)
    response = as_director.post(
        f"/t/{tournament.slug}/seating/s/1/swap/", {"a": first[0], "b": first[1]}, HTTP_HX_REQUEST="true"
    )
    assert "nothing got worse" in htmllib.unescape(response.content.decode())
    assert seating(tournament, 1)[0][:2] == [first[1], first[0]]

    response = as_director.post(f"/t/{tournament.slug}/seating/s/1/swap/", {"a": first[2], "b": first[2]})
    assert response.status_code == 302 and response.url.endswith("#session-1")
    assert "Choose two different players." in page(as_director, tournament)


def test_predefined_import_names_every_fault_and_saves_nothing(as_director, make_tournament, director):
    tournament = make_tournament(slug="import", director=director, players=8, sessions=2)
    text = "p1-p2-p3-p99\np2-p5-p6\n\np1 p2 p3 p4\np5 p6 p7 p8\n"
    response = as_director.post(
        f"/t/{tournament.slug}/seating/import/", {"sessions": ["1", "2"], "names": "auto", "text": text}
    )
    assert response.status_code == 200
    html = htmllib.unescape(response.content.decode())
    assert "The schedule was refused (nothing was seated): 5 problems." in html
    for fault in (
        "line 2: a table needs 4 players, found 3 (“p2-p5-p6”)",
        "line 1: unknown player “p99”",
        "session 1: player p2 is seated 2 times (lines 1, 2)",
        "session 1: players missing: p4, p7, p8",
        "session 1 seats 7 players in 2 tables; 8 players are needed",
    ):
        assert f"<li>{fault}</li>" in html
    assert not Table.objects.filter(session__tournament=tournament).exists()


def test_predefined_import_by_number_and_by_key(as_director, make_tournament, director):
    tournament = make_tournament(slug="import-ok", director=director, players=8, sessions=2)
    response = as_director.post(
        f"/t/{tournament.slug}/seating/import/",
        {
            "sessions": ["1", "2"],
            "names": "auto",
            "text": "1-2-3-4\n5-6-7-8\n\nSession 2\n1,5,2,6\n3,7,4,8\n",
        },
    )
    assert response.status_code == 302
    assert sorted(map(sorted, seating(tournament, 1))) == [["p1", "p2", "p3", "p4"], ["p5", "p6", "p7", "p8"]]
    assert sorted(map(sorted, seating(tournament, 2))) == [["p1", "p2", "p5", "p6"], ["p3", "p4", "p7", "p8"]]
    assert "Players were read by number." in page(as_director, tournament)

    # a CSV naming players by key seats the session again, in the file's table order
    csv = "session,table,east,south,west,north\n1,2,p8,p7,p6,p5\n1,1,p4,p3,p2,p1\n"
    upload = {"sessions": ["1"], "names": "keys", "text": csv}
    assert as_director.post(f"/t/{tournament.slug}/seating/import/", upload).status_code == 302
    assert [sorted(t) for t in seating(tournament, 1)] == [["p1", "p2", "p3", "p4"], ["p5", "p6", "p7", "p8"]]


def test_sessions_with_results_cannot_be_reseated(as_director, make_tournament, director):
    tournament = make_tournament(slug="played", director=director, players=8, sessions=2)
    generate(as_director, tournament, [1, 2])
    as_director.post(f"/t/{tournament.slug}/seating/s/1/publish/")
    as_director.post(f"/t/{tournament.slug}/seating/s/2/publish/")
    first = seating(tournament, 1)
    TableResult.objects.create(table=Table.objects.get(session=session(tournament, 1), number=1))

    # the page says why, and offers only session 2 once it is unpublished
    html = page(as_director, tournament)
    assert "Session 1 has results: its seating can no longer change." in html
    assert "Every session is published or played" in html
    response = as_director.post(f"/t/{tournament.slug}/seating/s/1/unpublish/")
    assert response.status_code == 302
    assert session(tournament, 1).seating_published
    assert "Session 1 has results: it stays published." in page(as_director, tournament)

    response = generate(as_director, tournament, [1])
    assert response.status_code == 200  # refused: session 1 is not among the sessions one may seat
    assert "Session 1 cannot be seated now: it is published (unpublish it first) or has results." in (
        htmllib.unescape(response.content.decode())
    )
    response = as_director.post(
        f"/t/{tournament.slug}/seating/s/1/swap/", {"a": first[0][0], "b": first[1][0]}
    )
    assert seating(tournament, 1) == first
    assert "Session 1 has results: its seating can no longer change." in page(as_director, tournament)

    # a published session without results can be unpublished and seated again
    assert as_director.post(f"/t/{tournament.slug}/seating/s/2/unpublish/").status_code == 302
    assert not session(tournament, 2).seating_published
    assert generate(as_director, tournament, [2], seed=5).status_code == 302
    assert seating(tournament, 1) == first


def test_a_published_session_being_played_cannot_be_unpublished(as_director, make_tournament, director):
    tournament = make_tournament(slug="playing", director=director, players=8, sessions=1)
    generate(as_director, tournament, [1])
    as_director.post(f"/t/{tournament.slug}/seating/s/1/publish/")
    Session.objects.filter(tournament=tournament).update(status=Session.Status.PLAYING)
    as_director.post(f"/t/{tournament.slug}/seating/s/1/unpublish/")
    assert session(tournament, 1).seating_published
    assert "Session 1 is being played: it stays published." in page(as_director, tournament)


def test_substitutes_complete_the_tables(as_director, make_tournament, director):
    tournament = make_tournament(slug="subs", director=director, players=10, substitutes=2, sessions=1)
    response = generate(as_director, tournament, [1])
    assert response.status_code == 302
    seated = sorted(k for t in seating(tournament, 1) for k in t)
    assert seated == sorted([f"p{i}" for i in range(1, 11)] + ["s1", "s2"])
    html = page(as_director, tournament)
    assert "Substitutes seated: s1, s2." in html
    assert html.count('class="badge">substitute<') == 2


def test_missing_players_are_counted_when_substitutes_run_short(as_director, make_tournament, director):
    tournament = make_tournament(slug="short", director=director, players=10, substitutes=1, sessions=1)
    response = generate(as_director, tournament, [1])
    assert response.status_code == 200
    html = htmllib.unescape(response.content.decode())
    assert "Nothing was seated:" in html
    assert "players: 10, substitutes: 1; tables of four need 1 more" in html
    assert not Table.objects.filter(session__tournament=tournament).exists()


def test_replan_after_a_withdrawal_keeps_the_played_session(as_director, make_tournament, director):
    tournament = make_tournament(slug="withdrawal", director=director, players=12, substitutes=1, sessions=3)
    generate(as_director, tournament, [1, 2, 3])
    as_director.post(f"/t/{tournament.slug}/seating/s/1/publish/")
    TableResult.objects.create(table=Table.objects.get(session=session(tournament, 1), number=2))
    played, played_keys = seating(tournament, 1), table_keys(tournament, 1)
    services.registration_withdraw(registration=reg(tournament, "p5"), from_session=2)

    html = page(as_director, tournament)
    assert "withdrew before session 2 but is seated at table" in html
    as_director.post(f"/t/{tournament.slug}/seating/s/2/publish/")
    assert not session(tournament, 2).seating_published  # publishing a seat for a withdrawn player is refused
    assert 'class="message error"' in page(as_director, tournament)

    response = as_director.post(f"/t/{tournament.slug}/seating/replan/")
    assert response.status_code == 302
    assert seating(tournament, 1) == played and table_keys(tournament, 1) == played_keys
    expected = sorted([f"p{i}" for i in range(1, 13) if i != 5] + ["s1"])
    for n in (2, 3):
        assert sorted(k for t in seating(tournament, n) for k in t) == expected
    html = page(as_director, tournament)
    assert "Sessions 2, 3 seated as drafts." in html and "Substitutes seated: s1." in html
    assert "withdrew before session" not in html


def test_replan_with_nothing_to_do_says_so(as_director, make_tournament, director):
    tournament = make_tournament(slug="no-replan", director=director, players=8, sessions=1)
    services.registration_withdraw(registration=reg(tournament, "p1"), from_session=3)
    response = as_director.post(f"/t/{tournament.slug}/seating/replan/", follow=True)
    assert "No draft session seats a withdrawn player: there is nothing to re-plan." in htmllib.unescape(
        response.content.decode()
    )


def test_settings_fix_a_table_and_keep_players_apart(as_director, make_tournament, director):
    tournament = make_tournament(slug="settings", director=director, players=12, sessions=3)
    url = f"/t/{tournament.slug}/seating/settings/"
    bad = {"seed": "3", "avoid_same_country": "on", "fixed_tables": "p7: 1\nzz: 2", "separate": "p1"}
    response = as_director.post(url, bad)
    html = htmllib.unescape(response.content.decode())
    assert "Line 2: no player has the key zz." in html
    assert "Line 1: a group needs at least two players." in html
    tournament.refresh_from_db()
    assert "seating" not in tournament.settings  # nothing saved

    good = {"seed": "3", "avoid_same_country": "on", "fixed_tables": "p7: 1", "separate": "p1, p2, p3"}
    assert as_director.post(url, good).status_code == 302
    tournament.refresh_from_db()
    assert tournament.settings["seating"]["fixed_tables"] == {"p7": 1}
    assert tournament.settings["seating"]["separate"] == [["p1", "p2", "p3"]]

    generate(as_director, tournament, [1, 2, 3], seed=3)
    other = seating(tournament, 1)[1][0]
    response = as_director.post(
        f"/t/{tournament.slug}/seating/s/1/swap/", {"a": "p7", "b": other}, HTTP_HX_REQUEST="true"
    )
    refusal = htmllib.unescape(response.content.decode())
    assert "The swap was refused:" in refusal and "In session 1: player p7 must stay at table 1" in refusal
    for n in (1, 2, 3):
        tables = seating(tournament, n)
        assert "p7" in tables[0]
        assert all(len({"p1", "p2", "p3"} & set(t)) <= 1 for t in tables)
    html = page(as_director, tournament)
    assert metric(html, "fixed_table_violations") == 0
    assert metric(html, "separated_meetings") == 0


def test_swiss_seats_the_leaders_together(as_director, make_tournament, director):
    from .test_workflow_support import confirm

    tournament = make_tournament(slug="swiss", director=director, players=16, sessions=2)
    as_director.post(f"/t/{tournament.slug}/seating/settings/", {"seed": "0"})  # compatriots may meet
    text = "p1-p2-p3-p4\np5-p6-p7-p8\np9-p10-p11-p12\np13-p14-p15-p16\n"
    as_director.post(
        f"/t/{tournament.slug}/seating/import/", {"sessions": ["1"], "names": "keys", "text": text}
    )
    as_director.post(f"/t/{tournament.slug}/seating/s/1/publish/")
    for table in Table.objects.filter(session=session(tournament, 1)).order_by("number"):
        confirm(table, [10, 5, -5, -10], director)  # the East player of each table wins it
    response = generate(as_director, tournament, [2], strategy="swiss")
    assert response.status_code == 302
    winners = {table[0] for table in seating(tournament, 1)}
    assert set(seating(tournament, 2)[0]) == winners


def test_more_compatriot_meetings_than_unavoidable_say_how_many_cannot_be():
    from django.template.loader import render_to_string
    from django.utils import translation

    def least(count, least):
        return render_to_string(
            "tournaments/seating/_least.html",
            {"count": count, "least": least, "metric": "same_country_least"},
        )

    assert "24 cannot be avoided" in least(30, 24) and "least possible" not in least(30, 24)
    assert "the least possible" in least(24, 24)
    assert least(3, 0).strip() == ""  # nothing forced: nothing said
    with translation.override("es"):
        assert "1 es inevitable" in least(2, 1) and "24 son inevitables" in least(30, 24)
