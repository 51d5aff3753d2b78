"""One tournament's staff can touch only that tournament; shared players; private tournaments."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError

from tournaments import services
from tournaments.models import Player, Registration, Seat, Session, Table

pytestmark = pytest.mark.django_db


@pytest.fixture
def other_director(make_user):
    return make_user("other-director")


@pytest.fixture
def other(make_tournament, other_director):
    return make_tournament(slug="other-open", director=other_director, players=4)


@pytest.fixture
def seated(tournament, other):
    for t in (tournament, other):
        regs = list(t.registrations.order_by("key"))[:4]
        services.session_seat(session=t.sessions.get(number=1), tables=[regs])
    return tournament


def test_a_registration_cannot_move_to_another_tournament(api_as, director, tournament, other, make_user):
    # the attacker directs both: the move is still refused, the object stays where it was checked
    services.role_grant(tournament=other, user=director, role="director")
    registration = tournament.registrations.get(key="p1")
    response = api_as(director).patch(
        f"/api/registrations/{registration.pk}/", {"tournament": other.pk}, format="json"
    )
    assert response.status_code == 400, response.content
    assert "cannot change" in response.json()["tournament"][0]
    registration.refresh_from_db()
    assert registration.tournament_id == tournament.pk


def test_a_session_cannot_move_to_another_tournament(api_as, director, tournament, other):
    session = tournament.sessions.get(number=2)
    response = api_as(director).patch(f"/api/sessions/{session.pk}/", {"tournament": other.pk}, format="json")
    assert response.status_code in (400, 403), response.content
    session.refresh_from_db()
    assert session.tournament_id == tournament.pk


def test_a_table_cannot_move_to_another_session(api_as, director, seated, other):
    table = Table.objects.get(session__tournament=seated)
    target = other.sessions.get(number=2)
    response = api_as(director).patch(f"/api/tables/{table.pk}/", {"session": target.pk}, format="json")
    assert response.status_code == 400, response.content
    assert "session" in response.json()
    own_session_2 = seated.sessions.get(number=2)
    response = api_as(director).patch(
        f"/api/tables/{table.pk}/", {"session": own_session_2.pk}, format="json"
    )
    assert response.status_code == 400, response.content
    table.refresh_from_db()
    assert table.session.number == 1 and table.session.tournament_id == seated.pk


def test_a_seat_cannot_move_to_another_table(api_as, director, seated, other):
    seat = Seat.objects.filter(table__session__tournament=seated).first()
    target = Table.objects.get(session__tournament=other)
    response = api_as(director).patch(f"/api/seats/{seat.pk}/", {"table": target.pk}, format="json")
    assert response.status_code == 400, response.content
    seat.refresh_from_db()
    assert seat.table.session.tournament_id == seated.pk


def test_the_models_refuse_a_change_of_parent_whatever_the_entry_point(tournament, other, seated):
    registration = Registration.objects.filter(tournament=tournament).first()
    registration.tournament = other
    with pytest.raises(ValidationError):
        registration.save()
    session = Session.objects.get(tournament=tournament, number=1)
    session.tournament = other
    with pytest.raises(ValidationError):
        session.save()
    table = Table.objects.get(session__tournament=tournament)
    table.session = Session.objects.get(tournament=tournament, number=2)
    with pytest.raises(ValidationError):
        table.save()
    seat = Seat.objects.filter(table__session__tournament=tournament).first()
    seat.table = Table.objects.get(session__tournament=other)
    with pytest.raises(ValidationError):
        seat.save()


def test_creating_checks_the_role_in_the_target_tournament(api_as, director, other, seated):
    client = api_as(director)
    player = services.player_create(first_name="Intruder", last_name="X")
    target_session = other.sessions.get(number=2)
    target_table = Table.objects.get(session__tournament=other)
    attempts = [
        ("/api/registrations/", {"tournament": other.pk, "player": player.pk}),
        ("/api/sessions/", {"tournament": other.pk, "number": 5}),
        ("/api/tables/", {"session": target_session.pk, "number": 9}),
        ("/api/seats/", {"table": target_table.pk, "position": 0, "registration": 1}),
    ]
    for url, body in attempts:
        assert client.post(url, body, format="json").status_code == 403, url
    assert not Registration.objects.filter(player=player).exists()
    assert not other.sessions.filter(number=5).exists()


def test_a_director_edits_a_player_who_plays_only_in_their_tournaments(api_as, director, tournament):
    player = tournament.registrations.get(key="p1").player
    response = api_as(director).patch(f"/api/players/{player.pk}/", {"club": "Tsumo"}, format="json")
    assert response.status_code == 200, response.content
    player.refresh_from_db()
    assert player.club == "Tsumo"


def test_a_player_who_also_plays_elsewhere_is_changed_only_by_the_staff(
    api_as, director, other_director, tournament, other, make_user
):
    player = tournament.registrations.get(key="p1").player
    services.registration_create(tournament=other, player=player)
    player.ema_id = "04000001"
    player.save()
    for user in (director, other_director):
        response = api_as(user).patch(f"/api/players/{player.pk}/", {"ema_id": None}, format="json")
        assert response.status_code == 403, response.content
        assert "1 tournament you do not direct" in response.json()["detail"]
        assert api_as(user).delete(f"/api/players/{player.pk}/").status_code == 403
    player.refresh_from_db()
    assert player.ema_id == "04000001"
    staff = make_user("staff", is_staff=True)
    assert api_as(staff).patch(f"/api/players/{player.pk}/", {"club": "X"}, format="json").status_code == 200


def test_a_nickname_is_the_registrations_own(api_as, director, other_director, tournament, other):
    player = tournament.registrations.get(key="p1").player
    registration = services.registration_create(tournament=other, player=player)
    response = api_as(other_director).patch(
        f"/api/registrations/{registration.pk}/", {"nickname": "El Dragón"}, format="json"
    )
    assert response.status_code == 200, response.content
    assert response.json()["nickname"] == "El Dragón"
    player.refresh_from_db()
    assert player.first_name == "Player1"
    assert tournament.registrations.get(key="p1").display_name == "Player1 open-2026"
    registration.refresh_from_db()
    assert registration.display_name == "El Dragón"


def test_players_of_private_tournaments_are_not_listed_to_outsiders(
    api, api_as, make_tournament, make_user, tournament
):
    hidden_director = make_user("hidden-director")
    hidden = make_tournament(slug="hidden", director=hidden_director, players=2, is_public=False)
    secret = hidden.registrations.first().player
    secret.first_name, secret.ema_id, secret.club = "Secretina", "04000042", "Hidden club"
    secret.save()
    outsiders = [api, api_as(make_user("plain")), api_as(make_user("dir2"))]
    for client in outsiders:
        for query in ({"search": "Secretina"}, {"search": "04000042"}, {}):
            body = client.get("/api/players/", query).json()
            assert all(p["id"] != secret.pk for p in body["results"]), query
        assert client.get(f"/api/players/{secret.pk}/").status_code == 404
    insider = api_as(hidden_director).get("/api/players/", {"search": "Secretina"}).json()
    assert [p["id"] for p in insider["results"]] == [secret.pk]
    # playing in a public tournament too makes the player public
    services.registration_create(tournament=tournament, player=secret)
    assert api.get("/api/players/", {"search": "Secretina"}).json()["count"] == 1
    assert Player.objects.filter(pk=secret.pk).exists()


def test_the_nickname_shows_on_the_tournaments_pages_only(client, tournament, make_tournament, make_user):
    registration = tournament.registrations.get(key="p1")
    registration.nickname = "El Dragón"
    registration.save()
    other = make_tournament(slug="elsewhere", director=make_user("d3"), players=0)
    services.registration_create(tournament=other, player=registration.player, key="p1")
    assert "El Dragón" in client.get(f"/t/{tournament.slug}/players/").content.decode()
    assert "El Dragón" in client.get(f"/t/{tournament.slug}/p/p1/").content.decode()
    assert "El Dragón" not in client.get(f"/t/{other.slug}/players/").content.decode()


def test_the_console_cannot_rename_a_player_who_plays_in_another_directors_tournament():
    from django.test import Client

    from tests.trust.world import build_world

    world = build_world(public=False, prefix="sh-")
    shared = world.registration.player
    services.registration_create(tournament=world.other, player=shared, key="p9")
    client = Client()
    client.force_login(world.users["other_director"])
    url = f"/t/{world.other.slug}/console/players/p9/"
    response = client.post(
        url,
        {"form": "edit", "first_name": "Renamed", "last_name": "Vega", "country": "ESP", "club": "x"},
    )
    assert response.status_code == 400
    assert "tournament you do not direct" in response.content.decode()
    shared.refresh_from_db()
    assert (shared.first_name, shared.club) == ("Secretina1", "Hidden club")
    # the substitute flag belongs to the registration: that stays editable
    response = client.post(
        url,
        {
            "form": "edit",
            "first_name": shared.first_name,
            "last_name": shared.last_name,
            "country": shared.country,
            "club": shared.club,
            "ema_id": shared.ema_id,
            "is_substitute": "on",
            "same_player": "0",
        },
    )
    assert response.status_code == 302, response.content[:2000]
    assert world.other.registrations.get(key="p9").is_substitute


def test_registering_by_name_reveals_no_player_of_a_private_tournament(api_as):
    from tests.trust.world import MARKERS, build_world

    world = build_world(public=False, prefix="dp-")
    client = api_as(world.users["other_director"])
    url = f"/api/tournaments/{world.other.slug}/console/players/"
    response = client.post(url, {"first_name": "Secretina1", "last_name": "Vega"}, format="json")
    assert response.status_code == 201, response.content
    assert not [m for m in MARKERS if m in response.content.decode().replace("Secretina1", "")]
    created = Player.objects.get(pk=response.json()["player"])
    assert created.pk != world.registration.player_id
    # a private tournament's player cannot be picked by id either
    response = client.post(
        url,
        {"first_name": "X", "same_player": world.tournament.registrations.get(key="p2").player_id},
        format="json",
    )
    assert response.status_code == 400 and "same_player" in response.json()  # as an unknown id
    assert "Secretina" not in response.content.decode()
    assert not world.other.registrations.filter(player__first_name="Secretina2").exists()


def test_a_director_adds_to_the_shared_ema_list_but_cannot_rewrite_its_lines():
    from django.core.files.uploadedfile import SimpleUploadedFile
    from django.test import Client

    from tests.trust.world import build_world
    from tournaments.models import EMAPlayer

    world = build_world(prefix="el-")
    EMAPlayer.objects.create(ema_id="09000001", first_name="Real", last_name="Name", country="NLD")
    client = Client()
    client.force_login(world.users["other_director"])
    data = b"ema_id,first_name,last_name,country\n09000001,Fake,Name,ESP\n09000002,New,Line,ESP\n"
    response = client.post(
        "/ema-list/", {"file": SimpleUploadedFile("ema.csv", data, "text/csv")}, follow=True
    )
    assert response.status_code == 200
    assert "only a site admin" in response.content.decode()
    assert EMAPlayer.objects.get(ema_id="09000001").first_name == "Real"
    assert EMAPlayer.objects.get(ema_id="09000002").first_name == "New"
