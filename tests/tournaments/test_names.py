"""One way to fold and one way to sort names, on every search and every list: "soren" finds Søren, "nunez"
finds Ñúñez; Åström sorts among the A, Ødegaard among the O, "De Vries" under D."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse

from tests.clock.conftest import seat_session
from tournaments import services
from tournaments.clock import room
from tournaments.models import Player, Session
from tournaments.names import LETTERS, fold, name_key
from tournaments.search import name_query

NAMES = [  # first name, surname: in the order a European reader expects
    ("Ana", "Åström"),
    ("Kees", "De Vries"),
    ("Ana", "García"),
    ("Zoë", "Müller"),
    ("Carlos", "Ñúñez"),
    ("Seán", "Ó Súilleabháin"),
    ("Ola", "Ødegaard"),
    ("Lucía", "Peña"),
    ("Søren", "Rasmussen"),
    ("Piet", "van Dijk"),
    ("Łukasz", "Wójcik"),
    ("Zed", "Zielinski"),
]


def test_folding_as_a_european_reader_expects():
    assert fold("Søren") == "soren" and fold("Łukasz") == "lukasz" and fold("Ñúñez") == "nunez"
    assert fold("Zoë  MÜLLER ") == "zoe muller"
    assert fold("Æsa Straße") == "aesa strasse"
    assert fold("Đorđe Œdipe Þór") == "dorde oedipe thor"
    assert fold("Ó Súilleabháin") == "o suilleabhain"


def test_names_sort_by_folded_surname_with_particles_as_written():
    shuffled = sorted(NAMES, key=lambda n: n[1].casefold(), reverse=True)
    assert sorted(shuffled, key=lambda n: name_key(*n)) == NAMES
    # a person known by one name sorts by it
    assert sorted([("Zed", ""), ("Bea", "Adam")], key=lambda n: name_key(*n)) == [
        ("Bea", "Adam"),
        ("Zed", ""),
    ]


@pytest.fixture
def european(make_tournament, director):
    tournament = make_tournament("europa", director=director, players=0, sessions=1)
    for i, (first, last) in enumerate(reversed(NAMES), start=1):
        player = services.player_create(first_name=first, last_name=last, country="ESP")
        services.registration_create(tournament=tournament, player=player, key=f"p{i}")
    seat_session(tournament, 1)
    Session.objects.filter(tournament=tournament).update(seating_published=True)
    return tournament


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("query", "found"),
    [
        ("nunez", "Ñúñez"),
        ("zoe muller", "Müller"),
        ("soren", "Rasmussen"),
        ("lukasz", "Wójcik"),
        ("garcia", "García"),
        ("pena", "Peña"),
        ("lucia", "Peña"),
        ("odegaard", "Ødegaard"),
        ("o suill", "Ó Súilleabháin"),
    ],
)
def test_every_search_folds_the_same_way(client, european, query, found):
    assert [p.last_name for p in Player.objects.filter(name_query(query))] == [found]
    seat = client.get(f"/t/{european.slug}/", {"name": query}, HTTP_HX_REQUEST="true").content.decode()
    assert "Nobody called" not in seat
    player = Player.objects.get(last_name=found)
    assert player.full_name in seat


def names_in(html: str, names: list[str]) -> list[str]:
    return sorted(names, key=lambda n: html.index(n))


@pytest.mark.django_db
def test_lists_printouts_and_the_venue_screen_share_the_order(client, director, european):
    full = [f"{first} {last}" for first, last in NAMES]
    players_page = client.get(f"/t/{european.slug}/players/").content.decode()
    assert names_in(players_page, full) == full

    staff = Client()
    staff.force_login(director)
    console = staff.get(reverse("console-players", args=[european.slug])).content.decode()
    assert names_in(console, full) == full
    printed = staff.get(reverse("seating-print-players", args=[european.slug])).content.decode()
    listed = [f"{last}, {first}" for first, last in NAMES]
    assert names_in(printed, listed) == listed

    screen = [line.name for line in room.seating_by_name(session=european.sessions.get(number=1))]
    assert screen == [f"{last.upper()}, {first}" for first, last in NAMES]
    assert screen.index("DE VRIES, Kees") < screen.index("GARCÍA, Ana")  # under D
    assert screen.index("VAN DIJK, Piet") < screen.index("WÓJCIK, Łukasz")  # under V
    assert screen.index("ÅSTRÖM, Ana") == 0  # among the A, not after Z
    venue = client.get(f"/t/{european.slug}/screen/").content.decode()
    assert names_in(venue, screen) == screen


@pytest.mark.django_db
def test_the_search_fields_say_when_nothing_matches(client, director, european):
    staff = Client()
    staff.force_login(director)
    pages = [
        client.get(f"/t/{european.slug}/players/"),
        client.get(f"/t/{european.slug}/s/1/"),
        staff.get(reverse("console-players", args=[european.slug])),
        staff.get(reverse("console-session", args=[european.slug, 1])),
        staff.get(reverse("session-tables", args=[european.slug, 1])),
    ]
    for page in pages:
        html = page.content.decode()
        assert 'type="search"' in html and "data-filter=" in html, page.request["PATH_INFO"]
        assert 'data-filter-empty="Nobody of that name here."' in html, page.request["PATH_INFO"]
    spanish = client.get(f"/t/{european.slug}/players/", HTTP_ACCEPT_LANGUAGE="es").content.decode()
    assert 'data-filter-empty="No hay nadie con ese nombre."' in spanish


APP_JS = Path(settings.BASE_DIR) / "static" / "js" / "app.js"


def test_the_page_script_spells_out_the_same_letters_as_the_server():
    source = APP_JS.read_text(encoding="utf-8")
    table = re.search(r"var LETTERS = (\{.*?\});", source).group(1)
    assert json.loads(table) == LETTERS


@pytest.mark.skipif(shutil.which("node") is None, reason="needs node to run static/js/app.js")
def test_the_page_script_folds_like_the_server():
    samples = [f"{first} {last}" for first, last in NAMES] + ["Æsa Straße", "Đorđe Œdipe Þór", "ẞ ČĆŽŠ Ğİş"]
    script = (
        "global.window = {}; global.document = {addEventListener() {}, readyState: 'loading'};"
        f"require({json.dumps(str(APP_JS))});"
        f"console.log(JSON.stringify({json.dumps(samples)}.map(window.foldName)));"
    )
    out = subprocess.run(["node", "-e", script], capture_output=True, text=True, check=True).stdout
    assert json.loads(out) == [fold(s) for s in samples]


@pytest.mark.django_db(transaction=True)
def test_the_migration_folds_the_stored_names_again():
    from django.db import connection
    from django.db.migrations.executor import MigrationExecutor

    before = [("tournaments", "0006_session_clock_announcements")]
    executor = MigrationExecutor(connection)
    executor.migrate(before)
    old = executor.loader.project_state(before).apps
    player = old.get_model("tournaments", "Player").objects.create(
        first_name="Søren", last_name="Łukaszewski", search_name="søren łukaszewski"
    )
    line = old.get_model("tournaments", "EMAPlayer").objects.create(
        ema_id="04000001", first_name="Ødd", last_name="Æbelø", search_text="04000001 ødd æbelø"
    )
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes())
    assert Player.objects.get(pk=player.pk).search_name == "soren lukaszewski"
    from tournaments.models import EMAPlayer

    assert EMAPlayer.objects.get(pk=line.pk).search_text == "04000001 odd aebelo"


@pytest.mark.django_db
def test_the_statistics_list_players_by_name(director, european):
    from scoring import services as scoring
    from scoring.tiles.selectors import tournament_statistics
    from tournaments.permissions import actor_for

    for table in european.sessions.get(number=1).tables.all():
        actor = actor_for(user=director, table=table)
        scoring.hand_add(table=table, hand={"result": "draw"}, actor=actor, expected_version=None)
    names = [p.name for p in tournament_statistics(tournament=european, everything=True).players]
    assert names == [f"{first} {last}" for first, last in NAMES]


@pytest.mark.parametrize(
    ("first", "last", "short"),
    [
        ("Ana", "García", "Ana G."),
        ("Zoë", "van den Berg", "Zoë v.d.B."),
        ("Daan", "de Vries", "Daan d.V."),
        ("Bram", "Van Dijk", "Bram V."),
        ("Siobhán", "Ó Súilleabháin", "Siobhán Ó."),
        ("Madonna", "", "Madonna"),
    ],
)
def test_the_short_name_at_a_table_names_the_surname_not_its_particle(first, last, short):
    from tournaments.models import Player
    from tournaments.presenters import short_name

    assert short_name(Player(first_name=first, last_name=last)) == short
