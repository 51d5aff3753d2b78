"""Shared fixtures: users with roles, a small tournament, API clients."""

from __future__ import annotations

import datetime as dt
import os

import pytest
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.utils import translation
from hypothesis import settings as hypothesis_settings
from rest_framework.test import APIClient

from tournaments import services
from tournaments.models import Role

REQUIRE_SERVICES = os.environ.get("REQUIRE_SERVICES") == "1"

# Property tests judge results, never speed: no per-example deadline (a busy machine is not a failure).
hypothesis_settings.register_profile("project", deadline=None)
hypothesis_settings.load_profile("project")


def skip_or_fail(reason: str) -> None:
    """Skip when a service is simply not configured here; fail in CI where it must be."""
    if REQUIRE_SERVICES:
        pytest.fail(reason)
    pytest.skip(reason)


@pytest.fixture(autouse=True, scope="session")
def _cache_in_this_process():
    """The tests run in one process: without Redis the cache is this process's memory, empty at the start
    of every run (the server's default, files shared by its processes, is run by
    tests/test_processes.py under gunicorn)."""
    from django.conf import settings as django_settings
    from django.test.utils import override_settings

    if django_settings.CACHES["default"]["BACKEND"] == "config.filecache.SharedFileCache":
        with override_settings(
            CACHES={"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "t"}}
        ):
            yield
    else:
        yield


@pytest.fixture(autouse=True)
def _tasks_in_process(request, settings):
    """Tasks run in-process in tests, also where a broker is configured (CI), so that a test sees what a
    task did; tests marked ``worker`` use the real broker and worker, and tests of broker behaviour turn
    this off themselves."""
    if request.node.get_closest_marker("worker") is None:
        settings.CELERY_TASK_ALWAYS_EAGER = True


@pytest.fixture(autouse=True)
def _source_language():
    """A page asked for in Spanish leaves Spanish active in the test's thread (the locale middleware does
    not switch back): each test starts in the source language, whatever ran before it."""
    from django.conf import settings as django_settings

    translation.activate(django_settings.LANGUAGE_CODE)
    yield
    translation.activate(django_settings.LANGUAGE_CODE)


@pytest.fixture(autouse=True)
def _backups_in_a_temporary_folder(settings, tmp_path):
    """Backups written by a test (beat's task, or in-process from a page) go to its own folder."""
    settings.BACKUP_ROOT = tmp_path / "backups"


@pytest.fixture(autouse=True)
def _public_pages_follow_the_shared_cache(settings):
    """Tests change rows behind the services' back and clear the cache by hand: the public page cache
    then reads the publication stamp from the shared cache every time (no per-process memo), and starts
    empty in every test."""
    from tournaments import pagecache

    settings.PUBLIC_STAMP_MEMO_SECONDS = 0
    pagecache.local.clear()
    cache.clear()  # nothing cached by an earlier test (whose rows had the same ids) is read by this one
    yield
    pagecache.local.clear()


@pytest.fixture(autouse=True)
def _fast_password_hashing(settings):
    """Accounts are made by the dozen in tests: hash their passwords cheaply (never in production)."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def make_user(db):
    def make(username: str, **extra):
        return get_user_model().objects.create_user(username=username, password="pw-for-tests-123", **extra)

    return make


@pytest.fixture
def make_tournament(db):
    def make(
        slug="open-2026", ruleset="mcr", *, director=None, sessions=2, players=8, substitutes=0, **extra
    ):
        tournament = services.tournament_create(
            name=extra.pop("name", slug.replace("-", " ").title()),
            slug=slug,
            ruleset=ruleset,
            starts_on=extra.pop("starts_on", dt.date(2026, 5, 1)),
            director=director,
            sessions=sessions,
            **extra,
        )
        for i in range(1, players + 1):
            player = services.player_create(
                first_name=f"Player{i}", last_name=slug, country=["ESP", "FRA", "NLD", "DEU"][i % 4]
            )
            services.registration_create(tournament=tournament, player=player, key=f"p{i}")
        for i in range(1, substitutes + 1):
            player = services.player_create(first_name=f"Sub{i}", last_name=slug, country="ESP")
            services.registration_create(
                tournament=tournament, player=player, key=f"s{i}", is_substitute=True
            )
        return tournament

    return make


@pytest.fixture
def director(make_user):
    return make_user("director")


@pytest.fixture
def tournament(make_tournament, director):
    return make_tournament(director=director)


@pytest.fixture
def referee(make_user, tournament):
    user = make_user("referee")
    services.role_grant(tournament=tournament, user=user, role=Role.REFEREE)
    return user


@pytest.fixture
def scorer(make_user, tournament):
    user = make_user("scorer")
    services.role_grant(tournament=tournament, user=user, role=Role.SCORER)
    return user


@pytest.fixture
def api():
    return APIClient()


@pytest.fixture
def api_as():
    def login(user):
        client = APIClient()
        client.force_authenticate(user)
        return client

    return login
