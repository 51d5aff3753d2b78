"""One domain event after every write: a census of the write services and the event each sends, and the
listeners that follow it (an imported or restored finished tournament is in the EMA ranking with no
command)."""

from __future__ import annotations

import datetime as dt
import inspect

import pytest
from django.db import transaction

from penalties import services as penalties
from rankings.archive import archive_export, archive_import
from rankings.archive.importer import tournament_delete
from rankings.backups import services as backups
from rankings.ema.imports import TournamentFacts, results_import
from rankings.models import EmaRankingEntry, EmaTournament, TournamentResult
from rankings.standings import services as standings
from scoring import services as scoring
from scoring.rules.base import RuleError
from scoring.tiles import services as tiles
from tests.ema.files import csv_bytes, mts_rows
from tests.events import events
from tests.scoring.test_pages_support import seat_session
from tests.tournaments.test_lifecycle import SCORES, boss, play, start
from tournaments import deletion, lifecycle, player_import
from tournaments import services as base
from tournaments.clock import services as clock
from tournaments.models import Player, Session, Tournament
from tournaments.organising import services as organising_services
from tournaments.registrations import checkin as checkin_services
from tournaments.registrations import ema_list as ema_list_services
from tournaments.registrations import services as registration_services
from tournaments.seating import services as seating
from tournaments.sessions import services as session_services
from tournaments.signals import (
    CLOCK,
    ENTRY,
    RESULTS,
    ROSTER,
    SCHEDULE,
    SETTINGS,
    STATUS,
    Change,
    changed,
)
from tournaments.staff import services as staff_services
from tournaments.teams import services as teams

pytestmark = pytest.mark.django_db


def one(sent: list[Change], what: str, tournament: Tournament | None) -> Change:
    """The event of ``what`` for ``tournament`` among those sent (exactly one)."""
    found = [c for c in sent if what in c.what and c.tournament_id == (tournament.pk if tournament else None)]
    assert len(found) == 1, f"expected one {what} event for {tournament}, got {sent}"
    return found[0]


HAND = {"result": "win", "winner": 0, "discarder": 1, "fan": 8}

# Every public function of the write modules is either in the census below or named here with why it
# sends nothing of its own: a new write service fails this test until it says what it changes.
SENDS_NOTHING = {
    # reads and helpers
    "next_registration_key", "player_changed", "roster_changed", "unique_slug", "confirmed_table_count",
    "sign_in_path", "possible_duplicates", "session_blockers", "table_registrations", "result_game",
    "usual_hands", "confirmation_faults", "table_outcome", "summary_rows", "summaries_write",
    "summaries_refresh", "hand_number_check", "fouls_recount", "active_penalties", "table_penalty_effects",
    "penalty_transfers", "tiles_mode_check", "tiles_mode", "hand_has_tiles", "hand_tiles_prepare",
    "hands_revalue", "held_numbers", "require_nothing_held", "hand_tiles_value", "session_holders",
    "table_holders", "registration_holders", "seating_holders", "seats_note", "parse_players_csv", "backup_root", "backups_list",
    "backup_get", "backups_write_running", "backup_write", "backups_set_aside",
    "upload_read", "claim_text", "facts_of", "result_hands", "require_nothing_held_in", "players_hidden", "players_import_open_check", "backup_check",
    "player_hidden_error", "seat_order_read",
    # the standings' own state, which follows the event
    "standings_state", "standings_bump", "standings_touch", "standings_enqueue", "standings_failed", "standings_store",
    "standings_recompute", "standings_refresh", "standings_current",
    # accounts and roles: no tournament data the listeners read
    "role_grant", "organiser_grant", "organiser_revoke", "staff_add", "staff_create", "staff_remove",
    "ema_list_import", "sign_in_link_use", "sign_in_link_user",
    # a start time in the server's time zone
    "aware",
    # the register of notable hands belongs to no tournament's pages
    "notable_hand_create", "notable_hand_from_hand",
    # through the services they call (listed in the census)
    "session_add", "session_seat", "player_register", "tournament_open", "standings_reveal",
    "seating_import", "seating_replan_after_withdrawal", "teams_assign", "clock_follow_session",
    "totals_clear", "result_confirm_by_player", "hand_tiles_resolve", "tiles_mode_set", "team_size_set",
}  # fmt: skip

WRITE_MODULES = (
    base,
    staff_services,
    registration_services,
    checkin_services,
    ema_list_services,
    session_services,
    organising_services,
    seating,
    teams,
    deletion,
    player_import,
    clock,
    scoring,
    penalties,
    tiles,
    backups,
    standings,
)


def test_the_census_names_every_public_function_of_the_write_modules():
    census = set(CENSUS)
    for module in WRITE_MODULES:
        for name, fn in inspect.getmembers(module, inspect.isfunction):
            if fn.__module__ != module.__name__ or name.startswith("_"):
                continue
            assert name in census or name in SENDS_NOTHING, f"{module.__name__}.{name}: what does it send?"


CENSUS = {
    "tournament_create": SETTINGS,
    "player_create": ROSTER,
    "registration_create": ROSTER,
    "registration_withdraw": ROSTER,
    "tournament_update": SETTINGS,
    "tournament_edit": SETTINGS,
    "confirmed_tables_rewrite": RESULTS,
    "session_create": SCHEDULE,
    "session_times_set": SCHEDULE,
    "session_remove_last": SCHEDULE,
    "registration_edit": ROSTER,
    "registration_reinstate": ROSTER,
    "registration_remove": ROSTER,
    "checkin_apply": ROSTER,
    "seating_config_update": SETTINGS,
    "seating_generate": SCHEDULE,
    "seating_swap": SCHEDULE,
    "seating_publish": STATUS,
    "seating_unpublish": STATUS,
    "session_advance": STATUS,
    "session_reopen": STATUS,
    "tournament_finish": STATUS,
    "tournament_reopen": STATUS,
    "team_save": ROSTER,
    "team_delete": ROSTER,
    "session_delete": SCHEDULE,
    "table_delete": SCHEDULE,
    "seat_delete": SCHEDULE,
    "registration_delete": ROSTER,
    "player_write": ROSTER,
    "player_delete": ROSTER,
    "registration_update": ROSTER,
    "session_save": SCHEDULE,
    "table_save": SCHEDULE,
    "seat_save": SCHEDULE,
    "players_import_csv": ROSTER,
    "clock_act": CLOCK,
    "clock_length_set": CLOCK,
    "announcement_add": CLOCK,
    "announcement_hide": CLOCK,
    "hand_add": ENTRY,
    "hand_replace": ENTRY,
    "hand_remove_last": ENTRY,
    "totals_set": ENTRY,
    "result_submit": ENTRY,
    "result_confirm": RESULTS,
    "result_reopen": RESULTS,
    "seats_correct": ENTRY,
    "penalty_record": RESULTS,
    "penalty_cancel": RESULTS,
    "penalty_appeal": RESULTS,
    "backup_restore": STATUS,
    "standings_tiebreaks_set": SETTINGS,
}


def test_every_write_service_sends_its_event(tournament, director, make_user):
    """Walk the write services in a tournament's life and check the event of each."""
    actor = boss(director)
    seen: dict[str, Change] = {}

    def check(name: str, call, where: Tournament | None = tournament):
        with events() as sent:
            result = call()
        seen[name] = one(sent, CENSUS[name], where)
        if where is not None:  # one event per call, whatever the service changed (a clock that follows a
            # status is written in the same transaction, and told in the same event)
            own = [
                c
                for c in sent
                if c.tournament_id == where.pk and (c.what != {CLOCK} or CENSUS[name] == CLOCK)
            ]
            assert own == [seen[name]], sent
        return result

    with events() as sent:
        other = base.tournament_create(
            name="Other", slug="other", ruleset="mcr", starts_on=tournament.starts_on
        )
    seen["tournament_create"] = one(sent, SETTINGS, other)
    player = check("player_create", lambda: base.player_create(first_name="Nuevo", last_name="Jugador"), None)
    assert seen["player_create"].players == (player.pk,)
    reg = check("registration_create", lambda: base.registration_create(tournament=tournament, player=player))
    check("registration_withdraw", lambda: base.registration_withdraw(registration=reg, from_session=2))
    check("registration_reinstate", lambda: registration_services.registration_reinstate(registration=reg))
    check(
        "registration_edit",
        lambda: registration_services.registration_edit(
            registration=reg,
            first_name="Nueva",
            last_name="Jugadora",
            ema_id=None,
            country="ESP",
            club="",
            is_substitute=True,
        ),
        None,
    )
    check("registration_remove", lambda: registration_services.registration_remove(registration=reg))
    check("tournament_update", lambda: base.tournament_update(tournament=tournament, city="Sevilla"))
    check(
        "standings_tiebreaks_set",
        lambda: standings.standings_tiebreaks_set(tournament=tournament, tiebreaks=["first_places"]),
    )
    check(
        "tournament_edit",
        lambda: organising_services.tournament_edit(tournament=tournament, fields={"city": "Madrid"}),
    )
    check("session_create", lambda: base.session_create(tournament=tournament))
    check(
        "session_times_set",
        lambda: session_services.session_times_set(tournament=tournament, starts={1: None}),
    )
    check("session_remove_last", lambda: session_services.session_remove_last(tournament=tournament))
    check("checkin_apply", lambda: checkin_services.checkin_apply(session=tournament.sessions.get(number=1),
                                                          present=[f"p{i}" for i in range(1, 9)], absent={}))  # fmt: skip
    config = seating.seating_config(tournament=tournament)
    check(
        "seating_config_update", lambda: seating.seating_config_update(tournament=tournament, config=config)
    )
    s1, s2 = tournament.sessions.get(number=1), tournament.sessions.get(number=2)
    check("seating_generate", lambda: seating.seating_generate(tournament=tournament, sessions=[s1, s2],
                                                                strategy="schedule"))  # fmt: skip
    keys = list(s1.seats.order_by("table__number", "position").values_list("registration__key", flat=True))
    check("seating_swap", lambda: seating.seating_swap(session=s1, a=keys[0], b=keys[4]))
    check("seating_publish", lambda: seating.seating_publish(session=s1))
    assert seen["seating_publish"].sessions == (s1.pk,)
    check("seating_unpublish", lambda: seating.seating_unpublish(session=s1))
    seating.seating_publish(session=s1)
    seating.seating_publish(session=s2)
    check("session_advance", lambda: session_services.session_advance(session=s1))  # seated → playing
    check("session_reopen", lambda: session_services.session_reopen(session=s1))  # playing → seated
    check("clock_act", lambda: clock.clock_act(tournament=tournament, user=director, action="pause"))
    session_services.session_advance(session=s1)  # seated → playing again (its clock is paused: it stays so)
    check("clock_length_set", lambda: clock.clock_length_set(tournament=tournament, user=director,
                                                              session_number=2, minutes=90))  # fmt: skip
    note = check("announcement_add", lambda: clock.announcement_add(tournament=tournament, user=director,
                                                                     text="Lunch"))  # fmt: skip
    check("announcement_hide", lambda: clock.announcement_hide(announcement=note, user=director))

    t1, t2 = s1.tables.order_by("number")
    check("hand_add", lambda: scoring.hand_add(table=t1, hand=HAND, actor=actor, expected_version=None))
    assert seen["hand_add"].tables == (t1.pk,) and seen["hand_add"].sessions == (s1.pk,)
    check("hand_replace", lambda: scoring.hand_replace(table=t1, number=1, hand=HAND, actor=actor,
                                                        expected_version=None, reason="fan"))  # fmt: skip
    check("hand_remove_last", lambda: scoring.hand_remove_last(table=t1, actor=actor, expected_version=None))
    for table, scores in ((t1, SCORES[0]), (t2, SCORES[1])):
        check("totals_set", lambda t=table, s=scores: scoring.totals_set(table=t, scores=s, actor=actor,
                                                                          expected_version=None))  # fmt: skip
    check("result_submit", lambda: scoring.result_submit(table=t1, actor=actor, expected_version=None))
    check("result_confirm", lambda: scoring.result_confirm(table=t1, actor=actor, expected_version=None))
    check("result_reopen", lambda: scoring.result_reopen(table=t1, actor=actor, reason="recount"))
    real = list(t1.seats.order_by("-position").values_list("registration__key", flat=True))
    check("seats_correct", lambda: scoring.seats_correct(table=t1, order=real, actor=actor,
                                                          expected_version=None, reason="sheet"))  # fmt: skip
    assert seen["seats_correct"].what == {ENTRY, SCHEDULE} and seen["seats_correct"].tables == (t1.pk,)
    scoring.result_confirm(table=t1, actor=actor, expected_version=None)
    scoring.result_confirm(table=t2, actor=actor, expected_version=None)
    offender = t1.seats.get(position=0).registration
    penalty = check("penalty_record", lambda: penalties.penalty_record(
        tournament=tournament, registration=offender, kind="table_points", points=-10, reason="sheet",
        session=s1, actor=actor,
    ))  # fmt: skip
    assert t1.pk in seen["penalty_record"].rewrite  # its confirmed table's rows are rewritten
    check("penalty_appeal", lambda: penalties.penalty_appeal(penalty=penalty, actor=actor, appeal="too much"))
    check(
        "penalty_cancel", lambda: penalties.penalty_cancel(penalty=penalty, actor=actor, reason="appeal won")
    )
    check(
        "confirmed_tables_rewrite",
        lambda: organising_services.confirmed_tables_rewrite(tournament=tournament),
    )
    check("team_save", lambda: teams.team_save(tournament=tournament, name="Red", member_keys=["p1"]))
    team = tournament.teams.get()
    check("team_delete", lambda: teams.team_delete(team=team))
    finishing = session_services.session_advance(session=s1)  # playing → finished
    assert finishing.status == Session.Status.FINISHED

    # deletions of what nothing holds yet, in the other tournament
    extra = base.session_create(tournament=other)
    regs = []
    for i in range(8):
        p = base.player_create(first_name=f"Otro{i}")
        regs.append(base.registration_create(tournament=other, player=p))
    tables = base.session_seat(session=extra, tables=[regs[:4], regs[4:]])
    check("seat_delete", lambda: deletion.seat_delete(seat=tables[1].seats.first()), other)
    check("table_delete", lambda: deletion.table_delete(table=tables[1]), other)
    spare = base.session_create(tournament=other)
    check("session_delete", lambda: deletion.session_delete(session=spare), other)
    check("registration_delete", lambda: deletion.registration_delete(registration=regs[-1]), other)
    check("players_import_csv", lambda: player_import.players_import_csv(
        tournament=other, data=b"first_name,last_name\nCsv,Player\n"), other)  # fmt: skip
    # the API's writes of checked fields
    check("player_write", lambda: base.player_write(player=regs[0].player, club="Otro club"), None)
    check("player_delete", lambda: base.player_delete(player=base.player_create(first_name="Solo")), None)
    check("registration_update", lambda: base.registration_update(registration=regs[0], nickname="O"), other)
    check("session_save", lambda: base.session_save(session=extra, starts_at=None), other)
    check("table_save", lambda: base.table_save(session=extra, number=2), other)
    seat = tables[0].seats.first()
    check("seat_save", lambda: base.seat_save(seat=seat, position=seat.position), other)

    # the rest of the tournament's life
    s2 = session_services.session_advance(session=s2)  # seated → playing (session 1 is finished)
    for table, scores in zip(s2.tables.order_by("number"), SCORES, strict=True):
        scoring.totals_set(table=table, scores=scores, actor=actor, expected_version=None)
        scoring.result_confirm(table=table, actor=actor, expected_version=None)
    session_services.session_advance(session=s2)
    check("tournament_finish", lambda: organising_services.tournament_finish(tournament=tournament))
    check("tournament_reopen", lambda: organising_services.tournament_reopen(tournament=tournament, reason="appeal",
                                                                  user=director))  # fmt: skip
    organising_services.tournament_finish(tournament=tournament)
    backup = backups.backup_write(tournament=tournament)
    with events() as sent:
        restored = backups.backup_restore(
            tournament=tournament, name=backup.name, in_place=True, user=director
        )
    assert len(sent) == 1  # the restore is one write: one event, for the tournament as it is now
    seen["backup_restore"] = one(sent, STATUS, restored)
    assert seen["backup_restore"].what >= {STATUS, RESULTS, ROSTER, SCHEDULE, SETTINGS}
    assert set(seen) == set(CENSUS)


@pytest.fixture
def archived(tournament, director):
    """The archive of a finished tournament whose eight players have EMA numbers; the tournament itself is
    gone (the archive is all that is left of it)."""
    play(tournament, director, 1)
    play(tournament, director, 2)
    organising_services.tournament_finish(tournament=tournament)
    for i, player in enumerate(Player.objects.filter(registrations__tournament=tournament).order_by("pk")):
        Player.objects.filter(pk=player.pk).update(ema_id=f"0401{i:04d}")
    document = archive_export(tournament=Tournament.objects.get(pk=tournament.pk))
    tournament_delete(Tournament.objects.get(pk=tournament.pk))
    assert not EmaTournament.objects.exists()
    return document


def test_an_import_sends_one_event_for_everything_it_wrote(archived, director):
    with events() as sent:
        imported = archive_import(document=archived, user=director)
    (change,) = sent  # one write, one event: what the import wrote, all of it
    assert change.tournament_id == imported.pk
    assert change.what >= {STATUS, RESULTS, ROSTER, SCHEDULE, SETTINGS}
    assert set(change.sessions) == set(imported.sessions.values_list("pk", flat=True))


# -- the listeners: the EMA ranking with no command ---------------------------------------------------------


def earlier_results_elsewhere(archived) -> None:
    """Each of the archive's eight players has one earlier result (a tournament held elsewhere), so the
    tournament's own result is the second that counts: the one that lists them (MERS ranking system §3)."""
    players = [
        (i + 1, p["ema_id"], p["last_name"], p["first_name"], "ESP", "Yes", 8 - i, 40 - 10 * i)
        for i, p in enumerate(sorted(archived["players"], key=lambda p: p["ema_id"]))
    ]
    ended = dt.date.fromisoformat(archived["tournament"]["starts_on"]) - dt.timedelta(days=30)
    results_import(
        data=csv_bytes(mts_rows(players)),
        facts=TournamentFacts(name="Earlier open", family="mcr", starts_on=ended, country="ESP"),
    )


def test_importing_a_finished_tournaments_archive_puts_it_in_the_ema_ranking(
    archived, director, django_capture_on_commit_callbacks
):
    earlier_results_elsewhere(archived)
    with django_capture_on_commit_callbacks(execute=True):
        imported = archive_import(document=archived, user=director)
    assert imported.status == Tournament.Status.FINISHED
    assert EmaTournament.objects.filter(tournament=imported, counted=True).exists()
    assert TournamentResult.objects.filter(tournament=imported).count() == 8
    assert EmaRankingEntry.objects.filter(family="mcr").count() == 8


def test_restoring_a_ranked_tournament_in_place_keeps_it_in_the_ranking(
    archived, director, django_capture_on_commit_callbacks
):
    earlier_results_elsewhere(archived)
    with django_capture_on_commit_callbacks(execute=True):
        tournament = archive_import(document=archived, user=director)
    before = sorted(EmaRankingEntry.objects.values_list("player__ema_id", "ranking"))
    assert len(before) == 8
    backup = backups.backup_write(tournament=tournament)
    with django_capture_on_commit_callbacks(execute=True):
        restored = backups.backup_restore(
            tournament=tournament, name=backup.name, in_place=True, user=director
        )
    assert restored.status == Tournament.Status.FINISHED
    assert sorted(EmaRankingEntry.objects.values_list("player__ema_id", "ranking")) == before
    assert TournamentResult.objects.filter(tournament=restored).count() == 8


def test_a_players_new_name_reaches_every_tournament_of_the_player(tournament, director):
    player = Player.objects.get(registrations__tournament=tournament, registrations__key="p1")
    with events() as sent:
        base.player_changed(player=player)
    (change,) = sent
    assert change.tournament_id is None and change.players == (player.pk,)


def test_finishing_the_tournament_leaves_the_last_backup(
    tournament, director, django_capture_on_commit_callbacks
):
    play(tournament, director, 1)
    play(tournament, director, 2)
    with django_capture_on_commit_callbacks(execute=True):
        organising_services.tournament_finish(tournament=tournament)
    (backup,) = backups.backups_list(tournament=tournament)
    import json

    assert json.loads(backup.path.read_text())["tournament"]["slug"] == tournament.slug
    assert archive_export(tournament=tournament)["sessions"]


def test_a_session_start_then_stop_sequence_sends_status_for_that_session(tournament):
    session = tournament.sessions.get(number=1)
    seat_session(tournament, 1)
    sent = []
    for step in (seating.seating_publish, session_services.session_advance):  # each its own write and commit
        with events() as told:
            step(session=session)
        sent += told
    statuses = [c for c in sent if STATUS in c.what]
    assert [c.sessions for c in statuses] == [(session.pk,), (session.pk,)]  # planned → seated → playing
    assert lifecycle.SESSION_STEPS[Session.Status.PLAYING] == {Session.Status.FINISHED, Session.Status.SEATED}


# -- after the commit, once -------------------------------------------------------------------------------


def test_the_event_is_sent_after_the_commit_once_for_all_the_changes_of_a_transaction(tournament, director):
    session = start(tournament.sessions.get(number=1))
    first, second = session.tables.order_by("number")
    with events() as sent, transaction.atomic():
        scoring.totals_set(table=first, scores=SCORES[0], actor=boss(director), expected_version=None)
        scoring.result_confirm(table=first, actor=boss(director), expected_version=None)
        assert sent == []  # nothing is told before the commit
    (change,) = sent
    assert change.what == {ENTRY, RESULTS} and change.tables == (first.pk,)

    with events() as sent, pytest.raises(RuleError), transaction.atomic():
        scoring.totals_set(table=second, scores=SCORES[1], actor=boss(director), expected_version=None)
        raise RuleError("the sheet was misread", "scores")
    assert sent == []  # a write that rolls back is told to nobody

    with events() as sent, transaction.atomic():
        scoring.hand_add(table=second, hand=HAND, actor=boss(director), expected_version=None)
        with pytest.raises(RuleError), transaction.atomic():
            scoring.result_reopen(table=first, actor=boss(director), reason="recount")
            raise RuleError("the recount was cancelled", "reason")
    (change,) = sent  # the savepoint that rolled back took its change with it
    assert change.what == {ENTRY} and change.tables == (second.pk,)


@pytest.mark.django_db(transaction=True)
def test_a_real_commit_sends_every_change_of_its_transaction_merged_per_tournament(make_tournament, director):
    """As the server commits (Django empties its list of commit callbacks before running any): no change
    of a transaction is lost, one event per tournament, and a savepoint rolled back takes its change."""
    from tournaments.signals import changed_send

    one, two, three = (make_tournament(slug=f"cup-{n}", director=director) for n in (1, 2, 3))
    with events() as sent, transaction.atomic():
        changed_send(tournament_id=one.pk, what={SETTINGS})
        changed_send(tournament_id=two.pk, what={SETTINGS}, sessions=[5])
        with transaction.atomic():
            changed_send(tournament_id=one.pk, what={CLOCK}, sessions=[3])
        try:
            with transaction.atomic():
                changed_send(tournament_id=three.pk, what={SETTINGS})
                raise RuleError("cancelled", "reason")
        except RuleError:
            pass
        changed_send(tournament_id=two.pk, what={CLOCK}, tables=[7])
        assert sent == []
    by_tournament = {change.tournament_id: change for change in sent}
    assert len(sent) == 2 and set(by_tournament) == {one.pk, two.pk}
    assert by_tournament[one.pk].what == {SETTINGS, CLOCK} and by_tournament[one.pk].sessions == (3,)
    assert by_tournament[two.pk].what == {SETTINGS, CLOCK} and by_tournament[two.pk].sessions == (5,)
    assert by_tournament[two.pk].tables == (7,)


def test_a_listener_that_fails_stops_no_other_and_is_logged_with_the_event(tournament, caplog):
    def broken(sender, *, change, **kwargs):
        raise RuntimeError("out of order")

    changed.connect(broken, dispatch_uid="broken")  # told before the census's listener
    try:
        with caplog.at_level("ERROR", logger="tournaments.signals"), events() as sent:
            base.tournament_update(tournament=tournament, city="Sevilla")
    finally:
        changed.disconnect(dispatch_uid="broken")
    (change,) = sent  # the listener after the broken one was told
    assert SETTINGS in change.what
    assert f"broken failed on Change(tournament_id={tournament.pk}," in caplog.text
    assert "RuntimeError: out of order" in caplog.text
    assert Tournament.objects.get(pk=tournament.pk).city == "Sevilla"  # the write is stored
