"""Teams: created by hand (service, API, page), from the CSV import and the archive; seating keeps
teammates apart; the standings document ranks the teams."""

from __future__ import annotations

from fractions import Fraction

import pytest
from django.urls import reverse

from rankings.archive import archive_export, archive_import
from rankings.standings.selectors import standings_view
from tests.archive.conftest import load
from tournaments.models import Registration, Team, Tournament
from tournaments.player_import import PlayerImportError, players_import_csv
from tournaments.seating import selectors as seating_selectors
from tournaments.teams.services import TeamError, team_delete, team_save, team_size_set

pytestmark = pytest.mark.django_db


def teams_url(tournament) -> str:
    return f"/api/tournaments/{tournament.slug}/teams/"


def test_team_save_checks_size_membership_and_names(make_tournament):
    t = make_tournament(players=16)
    team_size_set(tournament=t, size=4)
    dragons = team_save(tournament=t, name="Dragons", country="esp", member_keys=["p1", "p2", "p3", "p4"])
    assert dragons.country == "ESP"
    assert sorted(dragons.members.values_list("key", flat=True)) == ["p1", "p2", "p3", "p4"]

    with pytest.raises(TeamError) as too_many:
        team_save(tournament=t, name="Tigers", member_keys=["p5", "p6", "p7", "p8", "p9"])
    assert too_many.value.field == "members" and "4" in str(too_many.value)
    with pytest.raises(TeamError) as taken:
        team_save(tournament=t, name="Tigers", member_keys=["p5", "p1"])
    assert taken.value.field == "members" and "p1" in str(taken.value)
    with pytest.raises(TeamError) as unknown:
        team_save(tournament=t, name="Tigers", member_keys=["p5", "x9"])
    assert "x9" in str(unknown.value)
    with pytest.raises(TeamError) as same_name:
        team_save(tournament=t, name="dragons", member_keys=["p5"])
    assert same_name.value.field == "name"
    with pytest.raises(TeamError) as country:
        team_save(tournament=t, name="Tigers", country="XXX")
    assert country.value.field == "country"
    with pytest.raises(TeamError):
        team_size_set(tournament=t, size=3)  # Dragons already has 4
    assert Team.objects.filter(tournament=t).count() == 1

    # Changing the members replaces them; deleting keeps the players registered.
    team_save(tournament=t, team=dragons, name="Red Dragons", member_keys=["p1", "p5"])
    assert sorted(Registration.objects.filter(team=dragons).values_list("key", flat=True)) == ["p1", "p5"]
    team_delete(team=dragons)
    assert Registration.objects.filter(tournament=t).count() == 16
    assert not Registration.objects.filter(tournament=t, team__isnull=False).exists()


def test_api_directors_write_everyone_reads(api, api_as, make_tournament, director, make_user):
    t = make_tournament(director=director, players=8)
    client = api_as(director)
    assert client.post(f"{teams_url(t)}size/", {"team_size": 4}, format="json").json() == {"team_size": 4}
    created = client.post(
        teams_url(t), {"name": "Dragons", "country": "ESP", "members": ["p1", "p2"]}, format="json"
    )
    assert created.status_code == 201, created.json()
    team = created.json()
    assert team["members"] == ["p1", "p2"] and team["club"] == ""

    refused = client.post(teams_url(t), {"name": "Tigers", "members": ["p2", "p3"]}, format="json")
    assert refused.status_code == 400 and "members" in refused.json()
    too_big = client.post(f"{teams_url(t)}size/", {"team_size": 99}, format="json")
    assert too_big.status_code == 400 and "team_size" in too_big.json()

    changed = client.put(
        f"{teams_url(t)}{team['id']}/", {"name": "Dragons", "members": ["p1", "p2", "p3"]}, format="json"
    )
    assert changed.status_code == 200 and changed.json()["members"] == ["p1", "p2", "p3"]

    assert api.get(teams_url(t)).json() == [changed.json()]
    assert api.post(teams_url(t), {"name": "X"}, format="json").status_code in (401, 403)
    stranger = api_as(make_user("stranger"))
    assert stranger.post(teams_url(t), {"name": "X"}, format="json").status_code == 403
    assert stranger.delete(f"{teams_url(t)}{team['id']}/").status_code == 403
    assert client.delete(f"{teams_url(t)}{team['id']}/").status_code == 204
    assert api.get(teams_url(t)).json() == []


def test_director_page_creates_a_team(client, make_tournament, director):
    t = make_tournament(director=director, players=8)
    client.force_login(director)
    page = client.get(reverse("teams", args=[t.slug]))
    assert page.status_code == 200 and "Teams" in page.content.decode()
    response = client.post(
        reverse("teams", args=[t.slug]), {"name": "Club Pung", "club": "Pung Madrid", "members": ["p3", "p4"]}
    )
    assert response.status_code == 302
    team = Team.objects.get(tournament=t)
    assert team.club == "Pung Madrid" and sorted(team.members.values_list("key", flat=True)) == ["p3", "p4"]
    refused = client.post(reverse("teams", args=[t.slug]), {"name": "Other", "members": ["p3"]})
    assert refused.status_code == 200 and "already plays for another team" in refused.content.decode()


def test_csv_import_with_a_team_column(make_tournament):
    t = make_tournament(players=0)
    team_size_set(tournament=t, size=2)
    report = players_import_csv(
        tournament=t,
        data="first_name,last_name,country,team\nAna,Ruiz,ESP,Dragons\nBo,Li,CHN,Dragons\nCai,Wu,CHN,Tigers\nDan,Ho,CHN,\n",
    )
    assert len(report.registrations) == 4
    teams = {
        team.name: sorted(team.members.values_list("player__first_name", flat=True)) for team in t.teams.all()
    }
    assert teams == {"Dragons": ["Ana", "Bo"], "Tigers": ["Cai"]}

    other = make_tournament(slug="other", players=0)
    team_size_set(tournament=other, size=2)
    with pytest.raises(PlayerImportError) as refused:
        players_import_csv(tournament=other, data="first_name,team\nA,X\nB,X\nC,X\n")
    assert "X" in str(refused.value) and "2" in str(refused.value)
    assert not Registration.objects.filter(tournament=other).exists()  # all or nothing


def _with_teams(doc: dict) -> dict:
    doc = dict(doc)
    doc["tournament"] = {**doc["tournament"], "team_size": 4}
    players = [dict(p) for p in doc["players"]]
    for p in players:
        if p["key"] in ("p1", "p2", "p3", "p4"):
            p["team"] = "Dragons"
        elif p["key"] in ("p5", "p6", "p7", "p8"):
            p["team"] = "Tigers"
    doc["players"] = players
    doc["teams"] = [
        {"name": "Dragons", "country": "ESP", "club": ""},
        {"name": "Tigers", "country": "", "club": "Club Tigre"},
    ]
    return doc


def test_archive_round_trip_keeps_teams_and_standings_rank_them():
    doc = _with_teams(load("mcr"))
    tournament = archive_import(document=doc)
    assert archive_export(tournament=tournament) == doc
    assert tournament.team_size == 4
    assert Team.objects.get(tournament=tournament, name="Tigers").club == "Club Tigre"

    standings = standings_view(tournament=tournament)
    document = standings.to_document(tournament.slug, tournament.ruleset)
    rows = {r["player"]: r for r in document["standings"]}
    assert [t["name"] for t in document["teams"]] and len(document["teams"]) == 2
    for team in document["teams"]:
        assert set(team) == {"rank", "team", "name", "table_points", "score", "members"}
        assert sum(Fraction(str(rows[k]["table_points"])) for k in team["members"]) == Fraction(
            str(team["table_points"])
        )
    # Both teams together hold players p1..p8: their table points are every regular player's.
    total = sum(Fraction(str(t["table_points"])) for t in document["teams"])
    assert total == sum(Fraction(str(rows[f"p{i}"]["table_points"])) for i in range(1, 9))


def test_archive_refuses_a_team_over_its_size():
    doc = _with_teams(load("mcr"))
    doc["tournament"]["team_size"] = 3
    with pytest.raises(Exception) as refused:
        archive_import(document=doc)
    assert "players[3].team" in str(getattr(refused.value, "path", "")) + str(refused.value)
    assert not Tournament.objects.filter(slug=doc["tournament"]["slug"]).exists()


def test_seating_keeps_teammates_apart(api_as, make_tournament, director):
    # 16 players in 4 teams of 4 over 4 sessions: each player meets the 12 others exactly once.
    t = make_tournament(director=director, players=16, sessions=4)
    for n in range(4):
        team_save(tournament=t, name=f"Team {n}", member_keys=[f"p{4 * n + i}" for i in range(1, 5)])
    config = seating_selectors.seating_config(tournament=t)
    assert len(config.teams) == 4 and config.separate == ()
    client = api_as(director)
    response = client.post(
        f"/api/tournaments/{t.slug}/seating/generate/", {"sessions": [1, 2, 3, 4]}, format="json"
    )
    assert response.status_code == 200, response.json()
    quality = response.json()["quality"]
    assert quality["teammate_meetings"] == 0 and quality["separated_meetings"] == 0
    assert quality["repeated_meetings"] == 0
