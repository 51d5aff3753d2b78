"""Backups: beat writes the archive of every running tournament; a director lists, downloads and restores
them (as a new tournament, or in place with a confirmation)."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

import pytest
from django.conf import settings

from rankings.archive import archive_export
from rankings.archive.importer import tournament_delete
from rankings.backups import services
from rankings.backups.tasks import backups_write_running as backups_task
from scoring.models import TableResult
from scoring.services import Actor, totals_set
from tests.scoring.test_pages_support import link_url, seat_session, text
from tournaments.models import Role, Table, Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def running(tournament, director):
    tables = seat_session(tournament)
    totals_set(
        table=tables[0],
        scores=[10, -10, 0, 0],
        actor=Actor(user=director, role=Role.DIRECTOR),
        expected_version=None,
    )
    Tournament.objects.filter(pk=tournament.pk).update(status=Tournament.Status.RUNNING)
    tournament.refresh_from_db()
    return tournament


def test_beat_backs_up_every_running_tournament_and_keeps_the_newest(running, make_tournament, settings):
    make_tournament(slug="draft-one")  # not running: not backed up
    assert settings.CELERY_BEAT_SCHEDULE["backups"]["task"] == "rankings.backups.tasks.backups_write_running"
    assert settings.CELERY_BEAT_SCHEDULE["backups"]["schedule"] == 15 * 60
    names = backups_task.delay().get()
    assert len(names) == 1 and names[0].startswith("open-2026-")
    backup = services.backups_list(tournament=running)[0]
    assert json.loads(backup.path.read_text()) == archive_export(tournament=running)
    settings.BACKUP_KEEP = 3
    start = datetime(2026, 5, 1, 10, 0, tzinfo=UTC)
    for i in range(5):
        services.backup_write(tournament=running, now=start + timedelta(minutes=15 * i))
    kept = [b.taken_at for b in services.backups_list(tournament=running)]
    assert len(kept) == 3 and kept[0] > kept[-1]
    assert not list(settings.BACKUP_ROOT.rglob("*.partial"))


def test_a_director_lists_downloads_and_restores_as_a_new_tournament(client, running, director):
    backup = services.backup_write(tournament=running, now=datetime(2026, 5, 1, 10, 15, tzinfo=UTC))
    client.force_login(director)
    page = client.get(f"/t/{running.slug}/director/backups/")
    assert page.status_code == 200 and backup.name in page.content.decode()
    download = client.get(f"/t/{running.slug}/director/backups/{backup.name}")
    assert json.loads(b"".join(download.streaming_content)) == archive_export(tournament=running)
    response = client.post(
        f"/t/{running.slug}/director/backups/restore/",
        {"prefix": "0", "0-name": backup.name, "0-mode": "new"},
    )
    copy = Tournament.objects.get(slug="open-2026-20260501t101500z")
    assert response.status_code == 302 and response["Location"] == copy.get_absolute_url()
    assert copy.name == "Open 2026 (2026-05-01 10:15 UTC)"
    assert TableResult.objects.filter(table__session__tournament=copy).count() == 1
    assert Tournament.objects.filter(slug=running.slug).exists()
    # the same backup again, in Spanish: refused in the director's language, nothing made twice
    client.cookies["django_language"] = "es"
    again = client.post(
        f"/t/{running.slug}/director/backups/restore/",
        {"prefix": "0", "0-name": backup.name, "0-mode": "new"},
        follow=True,
    )
    assert "esta copia de seguridad ya está restaurada como el torneo open-2026-20260501t101500z" in (
        again.content.decode()
    )
    assert Tournament.objects.filter(slug__startswith="open-2026-").count() == 1


def test_restoring_in_place_needs_the_confirmation_and_takes_the_tournament_back(client, running, director):
    backup = services.backup_write(tournament=running)
    table = running.sessions.get(number=1).tables.get(number=2)
    totals_set(
        table=table,
        scores=[5, -5, 0, 0],
        actor=Actor(user=director, role=Role.DIRECTOR),
        expected_version=None,
    )
    assert TableResult.objects.filter(table__session__tournament=running).count() == 2
    client.force_login(director)
    url = f"/t/{running.slug}/director/backups/restore/"
    data = {"prefix": "0", "0-name": backup.name, "0-mode": "in_place"}
    refused = client.post(url, data)
    assert refused.status_code == 400
    assert "Confirm that the tournament goes back to the backup." in text(refused)
    assert TableResult.objects.filter(table__session__tournament=running).count() == 2
    response = client.post(url, {**data, "0-confirm": "on"})
    assert response.status_code == 302
    restored = Tournament.objects.get(slug=running.slug)
    assert TableResult.objects.filter(table__session__tournament=restored).count() == 1
    assert restored.roles.filter(user=director, role=Role.DIRECTOR).exists()


def test_only_the_directors_see_backups_and_no_other_file_is_reachable(client, running, make_user, director):
    services.backup_write(tournament=running)
    client.force_login(make_user("someone"))
    assert client.get(f"/t/{running.slug}/director/backups/").status_code == 403
    client.force_login(director)
    (settings.BACKUP_ROOT / "secret.json").write_text("{}")
    assert client.get(f"/t/{running.slug}/director/backups/..%2Fsecret.json").status_code == 404
    assert client.get(f"/t/{running.slug}/director/backups/secret.json").status_code == 404


@pytest.fixture
def private_cup(make_tournament, make_user):
    """Organiser A's private running tournament with one result, whose players' names show a leak."""
    owner = make_user("organiser-a")
    cup = make_tournament("secret-cup", director=owner, is_public=False)
    for registration in cup.registrations.select_related("player"):
        registration.player.first_name = f"Secretina{registration.key}"
        registration.player.save()
    tables = seat_session(cup)
    totals_set(
        table=tables[0],
        scores=[10, -10, 0, 0],
        actor=Actor(user=owner, role=Role.DIRECTOR),
        expected_version=None,
    )
    Tournament.objects.filter(pk=cup.pk).update(status=Tournament.Status.RUNNING)
    cup.refresh_from_db()
    return cup, owner


def _newcomer_sees_nothing(client, make_user, make_tournament, backup) -> Tournament:
    """Organiser B opens a tournament with the old slug: none of A's backups is listed, downloaded or
    restored."""
    from tournaments import services as tournament_services

    newcomer = make_user("organiser-b")
    taken = tournament_services.tournament_create(
        name="Secret Cup", slug="secret-cup", ruleset="mcr", starts_on=datetime(2026, 6, 1).date(),
        director=newcomer, sessions=1,
    )  # fmt: skip
    client.force_login(newcomer)
    page = client.get("/t/secret-cup/director/backups/")
    assert page.status_code == 200
    assert backup.name not in text(page) and "Secretina" not in text(page)
    assert services.backups_list(tournament=taken) == []
    assert client.get(f"/t/secret-cup/director/backups/{backup.name}").status_code == 404
    before = Tournament.objects.count()
    refused = client.post(
        "/t/secret-cup/director/backups/restore/", {"prefix": "0", "0-name": backup.name, "0-mode": "new"}
    )
    assert refused.status_code == 400 and Tournament.objects.count() == before
    return taken


def test_a_renamed_tournament_keeps_its_backups_and_its_old_slug_shows_none(
    client, api_as, private_cup, make_user, make_tournament
):
    cup, owner = private_cup
    backup = services.backup_write(tournament=cup, now=datetime(2026, 5, 1, 10, 15, tzinfo=UTC))
    renamed = api_as(owner).patch(f"/api/tournaments/{cup.slug}/", {"slug": "secret-cup-old"}, format="json")
    assert renamed.status_code == 200
    cup.refresh_from_db()
    _newcomer_sees_nothing(client, make_user, make_tournament, backup)
    # the owner still finds the backup under the new slug, and downloads it
    assert [b.name for b in services.backups_list(tournament=cup)] == [backup.name]
    client.force_login(owner)
    download = client.get(f"/t/secret-cup-old/director/backups/{backup.name}")
    assert download.status_code == 200 and b"Secretina" in b"".join(download.streaming_content)


def test_a_deleted_tournament_takes_its_backups_away_from_the_pages(
    client, private_cup, make_user, make_tournament, django_capture_on_commit_callbacks
):
    cup, _ = private_cup
    backup = services.backup_write(tournament=cup)
    cup_id = cup.pk
    with django_capture_on_commit_callbacks(execute=True):
        tournament_delete(cup)
    _newcomer_sees_nothing(client, make_user, make_tournament, backup)
    # kept on the server's disk for the site's administrators, outside every tournament's folder
    kept = settings.BACKUP_ROOT / "deleted" / f"tournament.{cup_id}" / backup.name
    assert kept.is_file() and b"Secretina" in kept.read_bytes()


def test_restoring_in_place_keeps_the_table_links_the_slug_and_the_backups(
    client, private_cup, django_capture_on_commit_callbacks
):
    cup, owner = private_cup
    backup = services.backup_write(tournament=cup)
    Tournament.objects.filter(pk=cup.pk).update(slug="secret-cup-old")
    cup.refresh_from_db()
    keys = {
        (t.session.number, t.number): t.private_key
        for t in Table.objects.filter(session__tournament=cup).select_related("session")
    }
    assert len(keys) == 2
    client.force_login(owner)
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(
            "/t/secret-cup-old/director/backups/restore/",
            {"prefix": "0", "0-name": backup.name, "0-mode": "in_place", "0-confirm": "on"},
        )
    assert response.status_code == 302
    restored = Tournament.objects.get(slug="secret-cup-old")
    assert not Tournament.objects.filter(slug="secret-cup").exists()
    tables = restored.sessions.get(number=1).tables.all()
    assert {(1, t.number): t.private_key for t in tables} == keys  # the printed QR cards still work
    client.logout()
    link = client.get(link_url(tables.get(number=1)))  # a printed card's link opens its table
    assert link.status_code == 200 and "Secretinap1" in text(link)
    assert [b.name for b in services.backups_list(tournament=restored)] == [backup.name]
