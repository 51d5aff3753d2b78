"""Registering players from a CSV file: all or nothing, every fault named."""

import pytest
from django.core.management import CommandError, call_command

from tournaments.models import Player, Registration
from tournaments.player_import import PlayerImportError, players_import_csv

pytestmark = pytest.mark.django_db

GOOD = (
    "first_name,last_name,ema_id,country,club\n"
    "Ana,García,00012345,ESP,Salamanca\n"
    "Jean,Dupont,,fra,Paris\n"
    "Kenji,,10990043,JPN,\n"
)


def test_a_good_file_registers_everyone(make_tournament):
    tournament = make_tournament(players=0)
    report = players_import_csv(tournament=tournament, data=GOOD.encode())
    assert len(report.registrations) == 3
    ana = Player.objects.get(ema_id="00012345")
    assert (ana.first_name, ana.last_name, ana.country, ana.club) == ("Ana", "García", "ESP", "Salamanca")
    assert Player.objects.get(first_name="Jean").country == "FRA"
    assert Player.objects.get(first_name="Kenji").last_name == ""
    assert sorted(Registration.objects.filter(tournament=tournament).values_list("key", flat=True)) == [
        "p1",
        "p2",
        "p3",
    ]


def test_bom_and_semicolons_are_understood(make_tournament):
    tournament = make_tournament(players=0)
    data = "\ufefffirst_name;last_name;ema_id;country;club\nÉlodie;Lefèvre;00000007;FRA;Club de Paris, Nord\n"
    players_import_csv(tournament=tournament, data=data.encode("utf-8"))
    player = Player.objects.get(ema_id="00000007")
    assert (player.first_name, player.club) == ("Élodie", "Club de Paris, Nord")


def test_a_file_with_faults_is_refused_whole_with_every_fault_named(make_tournament):
    tournament = make_tournament(players=0)
    data = (
        "first_name,last_name,ema_id,country,club\n"
        "Ana,García,00012345,ESP,\n"
        ",Nameless,,ESP,\n"
        "Bob,Short,1234567,GBR,\n"
        "Carla,Country,,SPA,\n"
    )
    with pytest.raises(PlayerImportError) as err:
        players_import_csv(tournament=tournament, data=data.encode())
    faults = err.value.faults
    assert faults == [
        "line 3, first_name: a first name is required",
        "line 4, ema_id: “1234567” is not an EMA number of exactly 8 digits (leading zeros lost? keep the column as text)",
        "line 5, country: “SPA” is not an ISO 3166 three-letter code (ESP, FRA, …)",
    ]
    assert not Registration.objects.filter(tournament=tournament).exists()
    assert not Player.objects.filter(ema_id="00012345").exists()  # the good line was not written either


def test_duplicate_ema_numbers_in_one_file_are_named(make_tournament):
    tournament = make_tournament(players=0)
    data = "first_name,ema_id\nAna,00012345\nEva,00012345\n"
    with pytest.raises(PlayerImportError) as err:
        players_import_csv(tournament=tournament, data=data.encode())
    assert err.value.faults == ["line 3, ema_id: 00012345 is also on line 2"]


def test_a_known_ema_number_reuses_the_player(make_tournament):
    first = make_tournament(slug="first", players=0)
    second = make_tournament(slug="second", players=0)
    players_import_csv(tournament=first, data=GOOD.encode())
    report = players_import_csv(tournament=second, data=GOOD.encode())
    assert Player.objects.filter(ema_id="00012345").count() == 1
    assert len(report.reused) == 2  # the two with EMA numbers
    assert Registration.objects.filter(tournament=second).count() == 3


def test_importing_the_same_file_twice_does_not_register_twice(make_tournament):
    tournament = make_tournament(players=0)
    players_import_csv(tournament=tournament, data=GOOD.encode())
    report = players_import_csv(tournament=tournament, data=GOOD.encode())
    assert report.registrations == []
    assert len(report.already_registered) == 3
    assert Registration.objects.filter(tournament=tournament).count() == 3


def test_unknown_columns_and_missing_first_name_column_are_refused(make_tournament):
    tournament = make_tournament(players=0)
    with pytest.raises(PlayerImportError) as err:
        players_import_csv(tournament=tournament, data=b"name,email\nAna,a@b.c\n")
    assert err.value.faults[0].startswith("line 1: unknown column(s) name, email")
    assert err.value.faults[1] == "line 1: missing column(s) first_name"


def test_a_file_that_is_not_utf8_is_refused_with_advice(make_tournament):
    tournament = make_tournament(players=0)
    with pytest.raises(PlayerImportError, match="not UTF-8"):
        players_import_csv(tournament=tournament, data="first_name\nJosé\n".encode("latin-1"))


def test_the_management_command_imports_and_reports_faults(make_tournament, tmp_path, capsys):
    tournament = make_tournament(players=0)
    good = tmp_path / "good.csv"
    good.write_text(GOOD, encoding="utf-8")
    call_command("import_players", tournament.slug, str(good))
    assert "3 players registered (3 new" in capsys.readouterr().out
    bad = tmp_path / "bad.csv"
    bad.write_text("first_name,ema_id\nAna,12\n", encoding="utf-8")
    with pytest.raises(CommandError, match="line 2, ema_id"):
        call_command("import_players", tournament.slug, str(bad))


def test_the_director_page_imports_a_file(client, tournament, director):
    from django.core.files.uploadedfile import SimpleUploadedFile

    client.force_login(director)
    url = f"/t/{tournament.slug}/director/players/"
    response = client.post(
        url, {"file": SimpleUploadedFile("p.csv", b"first_name,ema_id\nZoe,00999999\nYann,9\n")}
    )
    assert response.status_code == 200
    assert "line 3, ema_id" in response.content.decode()
    response = client.post(url, {"file": SimpleUploadedFile("p.csv", b"first_name,ema_id\nZoe,00999999\n")})
    assert response.status_code == 302
    assert Registration.objects.filter(tournament=tournament, player__ema_id="00999999").exists()


def test_the_director_page_is_refused_to_others(client, tournament, make_user):
    client.force_login(make_user("someone"))
    assert client.get(f"/t/{tournament.slug}/director/players/").status_code == 403


def test_the_summary_speaks_of_one_player_in_the_singular(tournament):
    from tournaments.player_import import players_import_csv

    report = players_import_csv(tournament=tournament, data="first_name,last_name\nAna,Solo\n")
    assert report.summary() == (
        "1 player registered (1 new, 0 already known by EMA number); 0 were already in the tournament."
    )


def test_csv_faults_are_in_the_readers_language(tournament):
    from django.utils import translation

    from tournaments.player_import import PlayerImportError, players_import_csv

    with translation.override("es"), pytest.raises(PlayerImportError) as refused:
        players_import_csv(tournament=tournament, data="first_name,country\nAna,SPA\n")
    assert refused.value.faults == [
        "línea 2, country: «SPA» no es un código ISO 3166 de tres letras (ESP, FRA, …)"
    ]


def test_a_column_named_twice_is_refused_naming_it(make_tournament):
    """Which of two first_name columns would count? Neither: the file is refused, nothing registered."""
    tournament = make_tournament(players=0)
    data = b"first_name,last_name,first_name,country\nAna,Garcia,Eva,ESP\n"
    with pytest.raises(PlayerImportError) as err:
        players_import_csv(tournament=tournament, data=data)
    assert err.value.faults == ["line 1: column(s) first_name named more than once; name each column once"]
    assert not Registration.objects.filter(tournament=tournament).exists()
