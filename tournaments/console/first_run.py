"""The first organiser of a new server: created from the home page while no account exists, or by
``manage.py organiser add USERNAME --create``."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.db import connection, transaction

from tournaments.staff.services import organiser_grant

# A fixed key for PostgreSQL's transaction-scoped advisory lock: two first-run requests at once queue on it.
_FIRST_RUN_LOCK = 0x6D6A6F6E67


class FirstRunClosed(Exception):
    """An account exists already: the first organiser is created only once."""


def accounts_exist() -> bool:
    return get_user_model().objects.exists()


def organiser_account_create(*, username: str, password: str):
    """A new account that may create tournaments (its password already validated by the caller)."""
    user = get_user_model().objects.create_user(username=username, password=password)
    organiser_grant(user=user)
    return user


def first_organiser_create(*, username: str, password: str):
    """The first account of the server, an organiser; refused (FirstRunClosed) as soon as any account exists.

    Race-safe: on PostgreSQL the check and the insert run under one advisory lock; SQLite lets one writer at a
    time, so a second request either waits for the first and finds its account or fails to write."""
    with transaction.atomic():
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute("SELECT pg_advisory_xact_lock(%s)", [_FIRST_RUN_LOCK])
        if accounts_exist():
            raise FirstRunClosed
        return organiser_account_create(username=username, password=password)
