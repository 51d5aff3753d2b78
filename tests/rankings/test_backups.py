"""Backups: beat writes the archive of every running tournament; a director lists, downloads and restores
them (as a new tournament, or in place with a confirmation)."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

import pytest
from django.conf import settings

from rankings.archive import archive_export
from rankings.backups import services
from rankings.backups.tasks import backups_write_running as backups_task
from scoring.models import TableResult
from scoring.services import Actor, totals_set
from tests.scoring.test_pages_support import seat_session, text
from tournaments.models import Role, Tournament

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
