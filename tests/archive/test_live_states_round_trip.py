"""Every state live entry allows exports to an archive that the import accepts again, unchanged.

Random sessions are entered through the services of live entry (hands or totals, penalties on recorded
hands and on the hand in play, draft, submitted or confirmed); whatever live entry accepts must round-trip,
each table in its state: a restore confirms nothing. A backup of a running tournament (tables being
entered, submitted, confirmed, a table with no seats, a session seated and not published) restores in
place as it was, and the private link of a table being entered still enters its hands.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import itertools

import pytest
from django.db import transaction
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from penalties.services import penalty_record
from rankings.archive import archive_export, archive_import
from scoring import services as scoring
from scoring.rules.base import RuleError
from tournaments import services
from tournaments.models import Role, Seat, Table, Tournament

pytestmark = pytest.mark.django_db

_slugs = itertools.count(1)

mcr_hand = st.one_of(
    st.just({"result": "draw"}),
    st.builds(
        lambda w, d, fan: {"result": "win", "winner": w, "discarder": None if d == w else d, "fan": fan},
        st.integers(0, 3),
        st.integers(0, 3),
        st.integers(8, 40),
    ),
)
penalty = st.fixed_dictionaries(
    {
        "kind": st.sampled_from(
            ["false_hu", "dead_hand", "foul", "late_arrival", "chombo", "forgot_winning_tile"]
        ),
        "seat": st.integers(0, 3),
        "hand": st.one_of(st.none(), st.integers(1, 20)),
        "with_table": st.booleans(),
    }
)
state = st.fixed_dictionaries(
    {
        "ruleset": st.sampled_from(["mcr", "ema-riichi-2016"]),
        "totals": st.booleans(),
        "hands": st.lists(mcr_hand, max_size=6),
        "swing": st.tuples(st.integers(-300, 300), st.integers(-300, 300)),
        "penalties": st.lists(penalty, max_size=4),
        "confirm": st.booleans(),
        "submit": st.booleans(),
    }
)


class _Rollback(Exception):
    pass


def _enter(s: dict, director) -> object:
    riichi = s["ruleset"] != "mcr"
    tournament = services.tournament_create(
        name="Live",
        slug=f"live-{next(_slugs)}",
        ruleset=s["ruleset"],
        starts_on=dt.date(2026, 5, 1),
        director=director,
        sessions=1,
    )
    regs = [
        services.registration_create(
            tournament=tournament,
            player=services.player_create(first_name=f"P{i}", last_name="Live"),
            key=f"p{i}",
        )
        for i in range(1, 5)
    ]
    session = tournament.sessions.get(number=1)
    table = services.session_seat(session=session, tables=[regs])[0]
    actor = scoring.Actor(user=director, role=Role.DIRECTOR)
    a, b = s["swing"]
    if s["totals"] or riichi:
        scores = (
            [30000 + a * 100, 30000 - a * 100, 30000 + b * 100, 30000 - b * 100] if riichi else [a, -a, b, -b]
        )
        scoring.totals_set(table=table, scores=scores, actor=actor, expected_version=None)
    else:
        for hand in s["hands"]:
            with contextlib.suppress(RuleError):  # refused live: not a state the product allows
                scoring.hand_add(table=table, hand=hand, actor=actor, expected_version=None)
    for p in s["penalties"]:
        with contextlib.suppress(RuleError):
            penalty_record(
                tournament=tournament,
                registration=regs[p["seat"]],
                kind=p["kind"],
                actor=actor,
                session=session,
                table=table if p["with_table"] else None,
                hand_number=p["hand"],
                variant="below_minimum" if p["kind"] == "false_hu" else "",
                minutes_late=3 if p["kind"] == "late_arrival" else None,
                reason="seen by the referee",
            )
    if s["confirm"]:
        with contextlib.suppress(RuleError):
            scoring.result_confirm(table=table, actor=actor, expected_version=None)
    elif s.get("submit"):
        with contextlib.suppress(RuleError):
            scoring.result_submit(table=table, actor=actor, expected_version=None)
    return tournament


def _states(tournament, rows: bool = True) -> dict:
    """What a restore must give back: each table's result state and seats, each session's status and
    publication, the tournament's status, and the standings' rows (confirmed tables only)."""
    from scoring.models import SeatSummary, TableResult

    tables = {}
    for table in Table.objects.filter(session__tournament=tournament).select_related("session"):
        result = TableResult.objects.filter(table=table).first()
        played = result is not None and (result.hands.exists() or result.scores is not None)
        tables[(table.session.number, table.number)] = (
            result.status if played else None,
            result.hands.count() if result else 0,
            sorted(table.seats.values_list("position", "registration__key")),
        )
    sessions = {s.number: (s.status, s.seating_published) for s in tournament.sessions.all()}
    summaries = sorted(
        SeatSummary.objects.filter(tournament=tournament).values_list(
            "session__number", "table__number", "position", "final"
        )
    )
    tournament.refresh_from_db()
    return {
        "status": tournament.status,
        "sessions": sessions,
        "tables": tables,
        "rows": summaries if rows else None,
    }


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(s=state)
def test_every_live_state_exports_to_an_archive_that_imports_again(s, director):
    try:
        with transaction.atomic():
            tournament = _enter(s, director)
            document = archive_export(tournament=tournament)
            copy = {**document, "tournament": {**document["tournament"], "slug": tournament.slug + "-copy"}}
            imported = archive_import(document=copy, user=director)
            again = archive_export(tournament=imported)
            assert again == copy  # the tables' states and the statuses among the rest
            # (the rows a penalty rewrites are the commit's listeners' work: this test never commits)
            assert _states(imported, rows=False) == _states(tournament, rows=False)
            raise _Rollback
    except _Rollback:
        pass


def test_a_false_hu_on_the_hand_in_play_round_trips_and_one_beyond_is_refused_live(director):
    """The probe's finding: live entry took hand 9 on a table of 4 hands; the archive refused it."""
    s = {
        "ruleset": "mcr",
        "totals": False,
        "swing": (0, 0),
        "confirm": False,
        "penalties": [],
        "hands": [{"result": "draw"}] * 4,
    }
    tournament = _enter(s, director)
    table = tournament.sessions.get(number=1).tables.get()
    actor = scoring.Actor(user=director, role=Role.DIRECTOR)
    reg = tournament.registrations.get(key="p2")
    kwargs = {
        "tournament": tournament,
        "registration": reg,
        "kind": "false_hu",
        "actor": actor,
        "session": table.session,
        "table": table,
        "variant": "below_minimum",
    }
    with pytest.raises(RuleError) as caught:
        penalty_record(hand_number=9, **kwargs)
    assert caught.value.path == "hand"
    assert (
        "has 4 hands recorded: the hand is one of them or the hand in play (5), not 9" in caught.value.message
    )
    penalty_record(hand_number=5, **kwargs)
    document = archive_export(tournament=tournament)
    copy = {**document, "tournament": {**document["tournament"], "slug": "copy"}}
    assert archive_export(tournament=archive_import(document=copy)) == copy


def _running_cup(director) -> Tournament:
    """A running tournament in the middle of session 2: session 1 finished (every table confirmed),
    session 2 playing (a table with hands being entered, a table submitted, a table confirmed from its
    totals, a table with no seats yet), session 3 seated and not published, session 4 planned."""
    tournament = services.tournament_create(
        name="Live Cup",
        slug="live-cup",
        ruleset="mcr",
        starts_on=dt.date(2026, 5, 1),
        director=director,
        sessions=4,
    )
    regs = [
        services.registration_create(
            tournament=tournament,
            player=services.player_create(first_name=f"P{i}", last_name="Cup"),
            key=f"p{i}",
        )
        for i in range(1, 13)
    ]
    actor = scoring.Actor(user=director, role=Role.DIRECTOR)
    groups = [regs[0:4], regs[4:8], regs[8:12]]
    one, two, three = (tournament.sessions.get(number=n) for n in (1, 2, 3))
    Tournament.objects.filter(pk=tournament.pk).update(status=Tournament.Status.RUNNING)
    for t in services.session_seat(session=one, tables=groups):
        scoring.totals_set(table=t, scores=[30, 10, -10, -30], actor=actor, expected_version=None)
        scoring.result_confirm(table=t, actor=actor, expected_version=None)
    entering, submitted, confirmed = services.session_seat(
        session=two, tables=[groups[1], groups[2], groups[0]]
    )
    for _ in range(3):
        scoring.hand_add(table=entering, hand={"result": "draw"}, actor=actor, expected_version=None)
    scoring.totals_set(table=submitted, scores=[20, 0, 0, -20], actor=actor, expected_version=None)
    scoring.result_submit(table=submitted, actor=actor, expected_version=None)
    scoring.totals_set(table=confirmed, scores=[40, 10, -20, -30], actor=actor, expected_version=None)
    scoring.result_confirm(table=confirmed, actor=actor, expected_version=None)
    Table.objects.create(session=two, number=4)  # added by the director, not seated yet
    services.session_seat(session=three, tables=groups)
    from tournaments.models import Session

    Session.objects.filter(pk=one.pk).update(status=Session.Status.FINISHED, seating_published=True)
    Session.objects.filter(pk=two.pk).update(status=Session.Status.PLAYING, seating_published=True)
    Session.objects.filter(pk=three.pk).update(status=Session.Status.SEATED)
    tournament.refresh_from_db()
    return tournament


def test_a_backup_of_a_running_tournament_restores_in_place_as_it_was(director, settings, tmp_path):
    from rest_framework.test import APIClient

    from rankings.backups import services as backups

    settings.BACKUP_ROOT = tmp_path / "backups"
    tournament = _running_cup(director)
    before = _states(tournament)
    assert before["tables"][(2, 1)][0] == "draft" and before["tables"][(2, 2)][0] == "submitted"
    assert before["tables"][(2, 4)] == (None, 0, [])
    keys = dict(Table.objects.filter(session__tournament=tournament).values_list("pk", "private_key"))
    backup = backups.backup_write(tournament=tournament)
    restored = backups.backup_restore(tournament=tournament, name=backup.name, in_place=True, user=director)
    assert _states(restored) == before  # nothing confirmed that was not, nothing lost
    assert sorted(
        Table.objects.filter(session__tournament=restored).values_list("private_key", flat=True)
    ) == sorted(keys.values())
    # the private link of the table being entered still enters its next hand
    entering = Table.objects.get(session__tournament=restored, session__number=2, number=1)
    client = APIClient()
    client.credentials(HTTP_X_TABLE_KEY=entering.private_key)
    version = entering.result.version
    response = client.post(
        f"/api/tables/{entering.pk}/result/hands/", {"result": "draw", "version": version}, format="json"
    )
    assert response.status_code == 201, response.content
    assert entering.result.hands.count() == 4
    # and a backup taken now restores again, as a new tournament too
    again = backups.backup_write(tournament=restored, now=dt.datetime(2026, 5, 2, 12, tzinfo=dt.UTC))
    copy = backups.backup_restore(tournament=restored, name=again.name, in_place=False, user=director)
    assert _states(copy)["tables"] == _states(restored)["tables"]


def test_a_table_with_no_seats_or_some_seats_backs_up_and_restores(director, settings, tmp_path):
    """Live, a table is added before its seats: the backup of that moment restores (the seats it has)."""
    from rankings.backups import services as backups

    settings.BACKUP_ROOT = tmp_path / "backups"
    tournament = _running_cup(director)
    four = tournament.sessions.get(number=4)
    empty = Table.objects.create(session=four, number=1)
    partial = Table.objects.create(session=four, number=2)
    Seat.objects.create(
        table=partial, session=four, position=2, registration=tournament.registrations.get(key="p5")
    )
    backup = backups.backup_write(tournament=tournament)
    document = archive_export(tournament=tournament)
    assert document["sessions"][3]["tables"][1]["seats"] == [None, None, "p5", None]
    restored = backups.backup_restore(tournament=tournament, name=backup.name, in_place=True, user=director)
    tables = {t.number: t for t in restored.sessions.get(number=4).tables.all()}
    assert set(tables) == {empty.number, partial.number}
    assert list(tables[2].seats.values_list("position", "registration__key")) == [(2, "p5")]
    assert not tables[1].seats.exists()


def test_a_played_table_still_needs_its_four_players(director):
    tournament = _running_cup(director)
    document = archive_export(tournament=tournament)
    document["tournament"]["slug"] = "other"
    document["sessions"][1]["tables"][0]["seats"][3] = None
    with pytest.raises(RuleError) as caught:
        archive_import(document=document, user=director)
    assert caught.value.path == "sessions[1].tables[0].seats[3]"


def test_a_finished_session_with_a_table_not_confirmed_is_refused(director):
    tournament = _running_cup(director)
    document = archive_export(tournament=tournament)
    document["tournament"]["slug"] = "other"
    document["sessions"][1]["status"] = "finished"
    with pytest.raises(RuleError) as caught:
        archive_import(document=document, user=director)
    assert caught.value.path == "sessions[1].status"
    assert "table 1 is not confirmed" in caught.value.message


def test_a_backup_that_would_not_restore_is_refused_when_it_is_made(director, settings, tmp_path, client):
    """Live entry took a hand of 8 fan; the minimum was raised to 10 later. Such an archive does not import
    again: the backup is refused with the path and the reason (on the page too), and no file is written."""
    from rankings.backups import services as backups

    settings.BACKUP_ROOT = tmp_path / "backups"
    tournament = _running_cup(director)
    entering = Table.objects.get(session__tournament=tournament, session__number=2, number=1)
    actor = scoring.Actor(user=director, role=Role.DIRECTOR)
    scoring.hand_add(
        table=entering,
        hand={"result": "win", "winner": 0, "discarder": 1, "fan": 8},
        actor=actor,
        expected_version=None,
    )
    Tournament.objects.filter(pk=tournament.pk).update(rules={"min_fan": 10})
    tournament.refresh_from_db()
    with pytest.raises(RuleError) as caught:
        backups.backup_write(tournament=tournament)
    assert caught.value.path.startswith("sessions[1].tables[0].hands[3]")
    assert backups.backups_list(tournament=tournament) == []
    client.force_login(director)
    response = client.post(
        f"/t/{tournament.slug}/director/backups/now/", follow=True, HTTP_ACCEPT_LANGUAGE="es"
    )
    assert "No se ha escrito ninguna copia de seguridad" in response.content.decode()
    assert "sessions[1].tables[0].hands[3]" in response.content.decode()
    assert backups.backups_list(tournament=tournament) == []
    assert Tournament.objects.filter(slug__startswith="backup-check").count() == 0
