"""An installation of the previous release upgrades with `migrate` and keeps its data: a database is built
from the migrations that release shipped, filled through the models of that time, then migrated to today."""

from __future__ import annotations

import datetime as dt

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

# The migrations of the previous release: the state an existing installation is in.
PREVIOUS = [
    ("tournaments", "0001_initial"),
    ("scoring", "0002_history_reason_text"),
    ("penalties", "0002_history_reason_text_and_variant"),
    ("rankings", "0002_exports_and_ema_ranking"),
]


@pytest.mark.django_db(transaction=True)
def test_a_database_of_the_previous_release_migrates_and_keeps_its_data():
    executor = MigrationExecutor(connection)
    executor.migrate(PREVIOUS)
    old = executor.loader.project_state(PREVIOUS).apps

    tournament = old.get_model("tournaments", "Tournament").objects.create(
        name="Old Open", slug="old-open", ruleset="mcr", starts_on=dt.date(2025, 3, 1)
    )
    player = old.get_model("tournaments", "Player").objects.create(
        first_name="Lucía", last_name="Fernández", country="ESP", ema_id="04010001"
    )
    registration = old.get_model("tournaments", "Registration").objects.create(
        tournament=tournament, player=player, key="p1"
    )
    session = old.get_model("tournaments", "Session").objects.create(tournament=tournament, number=1)
    table = old.get_model("tournaments", "Table").objects.create(session=session, number=1)
    old.get_model("scoring", "TableResult").objects.create(
        table=table, status="confirmed", version=3, confirmed_at=dt.datetime(2025, 3, 1, 12, tzinfo=dt.UTC)
    )
    old.get_model("penalties", "Penalty").objects.create(
        tournament=tournament,
        registration=registration,
        session=session,
        kind="foul",
        points="-5",
        sequence=1,
    )

    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())

    from penalties.models import Penalty
    from scoring.models import TableResult
    from tournaments.models import Registration, Tournament

    upgraded = Tournament.objects.get(slug="old-open")
    assert upgraded.name == "Old Open" and upgraded.sessions.get(number=1).tables.count() == 1
    registration = Registration.objects.get(tournament=upgraded, key="p1")
    assert registration.player.full_name == "Lucía Fernández" and registration.player.ema_id == "04010001"
    assert TableResult.objects.get(table__session__tournament=upgraded).version == 3
    assert str(Penalty.objects.get(registration=registration).points) == "-5"
