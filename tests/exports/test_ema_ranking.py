"""The EMA ranking across the tournaments in the database, with the figures of RULES.md."""

from __future__ import annotations

import datetime as dt
import io
from fractions import Fraction

import pytest
from django.core.management import call_command
from django.utils import timezone

from penalties.services import penalty_record
from rankings.ema.engine import shown
from rankings.ema.services import ema_ranking_recompute, tournament_results_store
from rankings.models import EmaRankingEntry, EmaTournament, TournamentResult
from tests.exports.helpers import ema_player, finish_in_order, place_player
from tournaments import lifecycle
from tournaments.models import Registration, Session
from tournaments.organising.services import tournament_finish, tournament_reopen
from tournaments.permissions import Actor
from tournaments.services import player_changed, registration_create

pytestmark = pytest.mark.django_db


def details_of(entry) -> list[dict]:
    """Every result of the entry's player as the player's page lists it (padding included)."""
    from rankings.ema.ranking import player_details

    return player_details(player_id=entry.player_id, family=entry.family, on=entry.on)[1]


ON = dt.date(2026, 6, 1)


def entry(player, family="mcr") -> EmaRankingEntry:
    return EmaRankingEntry.objects.get(player=player, family=family)


def test_base_ranks_475_and_867_in_tournaments_of_60_and_16_players(make_tournament):
    ana = ema_player("Ana", "04010001")
    big = place_player(make_tournament, "big-60", ana, place=32, players=60, ends_on=dt.date(2026, 3, 1))
    small = place_player(make_tournament, "small-16", ana, place=3, players=16, ends_on=dt.date(2026, 4, 1))
    for tournament in (big, small):
        tournament_results_store(tournament=tournament)
    assert TournamentResult.objects.get(tournament=big, player=ana).base_rank == 475  # 1000 × 28/59
    assert TournamentResult.objects.get(tournament=small, player=ana).base_rank == 867  # 1000 × 13/15
    assert TournamentResult.objects.get(tournament=big, place=1).base_rank == 1000
    assert TournamentResult.objects.get(tournament=big, place=60).base_rank == 0
    # MERS weight: 1 day + 41–80 players (0.5) + at most 5 countries (0)
    state = EmaTournament.objects.get(tournament=big)
    assert (state.players, state.countries, state.weight) == (60, 4, Fraction(3, 2))
    assert EmaTournament.objects.get(tournament=small).weight == 1


def test_ties_share_the_best_place_substitutes_do_not_count_players_without_ema_numbers_do(make_tournament):
    tournament = make_tournament("ties", "mcr", sessions=0, players=6, substitutes=1)
    # the substitute played and scored best; the fixture's players have no EMA numbers
    finish_in_order(tournament, ["s1", "p1", ("p2", "p3"), "p4", "p5", "p6"])
    tournament_results_store(tournament=tournament)
    results = {
        r.registration.key: (r.place, r.base_rank)
        for r in TournamentResult.objects.filter(tournament=tournament)
    }
    assert results == {
        "p1": (1, 1000),
        "p2": (2, 800),  # N = 6: 1000 × 4/5; tied with p3, both get the best tied place
        "p3": (2, 800),
        "p4": (4, 400),
        "p5": (5, 200),
        "p6": (6, 0),
    }
    assert EmaTournament.objects.get(tournament=tournament).players == 6


def test_the_worked_example_through_five_finished_tournaments(make_tournament):
    """RULES.md / tests/rankings/test_ema.py: Part A 650.6, Part B 667.33, ranking 658.97.

    The worked example's base ranks 700 and 653 at weight 1 need a tournament of at most 40 players;
    653 cannot come from one (no place gives it), so 703 (12th of 38) and 650 (8th of 21) stand in for
    them: the same sum, hence the same Parts A and B.
    """
    ana = ema_player("Ana", "04010001")
    place_player(make_tournament, "t750", ana, place=2, players=5, ends_on=dt.date(2026, 3, 1))
    place_player(make_tournament, "t703", ana, place=12, players=38, ends_on=dt.date(2025, 11, 1))
    place_player(make_tournament, "t650", ana, place=8, players=21, ends_on=dt.date(2025, 9, 1))
    # 1 day, 41 players: weight 1.5
    place_player(make_tournament, "t600", ana, place=17, players=41, ends_on=dt.date(2026, 1, 1))
    # 16 months before the ranking date: counts half
    place_player(make_tournament, "t500", ana, place=3, players=5, ends_on=dt.date(2025, 2, 1))

    call_command("recompute_ema_ranking", "--on", ON.isoformat(), stdout=io.StringIO())

    ranked = entry(ana)
    assert sorted(TournamentResult.objects.filter(player=ana).values_list("base_rank", flat=True)) == [
        500,
        600,
        650,
        703,
        750,
    ]
    assert ranked.part_b == Fraction(3003 * 2, 9)  # (750 + 703 + 650 + 1.5 × 600) / 4.5
    assert ranked.part_a == Fraction(3253, 5)  # (3003 + 0.5 × 500) / 5
    assert (shown(ranked.part_a), shown(ranked.part_b), shown(ranked.ranking)) == (
        Fraction("650.6"),
        Fraction("667.33"),
        Fraction("658.97"),
    )
    assert ranked.results == 5 and ranked.on == ON and ranked.ema_id == "04010001"
    by_slug = {d["slug"]: d for d in details_of(ranked)}
    assert Fraction(by_slug["t600"]["weight"]) == Fraction(3, 2)
    assert Fraction(by_slug["t500"]["ageing"]) == Fraction(1, 2)
    assert by_slug["t500"]["part_a"] and not by_slug["t500"]["part_b"]  # B keeps the best four
    assert all(by_slug[s]["part_b"] for s in ("t750", "t703", "t650", "t600"))


def test_fewer_than_five_results_are_padded_with_results_of_zero(make_tournament):
    bo = ema_player("Bo", "00000042")
    place_player(make_tournament, "two-days", bo, place=1, players=4, days=2, ends_on=dt.date(2026, 5, 1))
    place_player(make_tournament, "one-day", bo, place=2, players=6, ends_on=dt.date(2026, 4, 1))
    ema_ranking_recompute(on=ON, refresh_all=True)
    ranked = entry(bo)
    # A: (2 × 1000 + 800 + 0 + 0 + 0) / (2 + 1 + 1 + 1 + 1); B: (2 × 1000 + 800 + 0 + 0) / 5 = 560
    assert ranked.part_a == Fraction(2800, 6)
    assert ranked.part_b == 560
    assert shown(ranked.ranking) == Fraction("513.33")
    assert ranked.results == 2
    padding = [d for d in details_of(ranked) if d.get("padding")]
    assert len(padding) == 3 and [d["part_b"] for d in padding] == [True, True, False]


def test_a_result_counts_fully_for_a_year_half_in_the_second_and_then_not_at_all(make_tournament):
    cai = ema_player("Cai", "12345678")
    place_player(make_tournament, "old-win", cai, place=1, players=4, ends_on=dt.date(2025, 3, 1))
    place_player(make_tournament, "old-last", cai, place=4, players=4, ends_on=dt.date(2025, 3, 1))
    ema_ranking_recompute(on=dt.date(2026, 2, 1), refresh_all=True)
    assert (entry(cai).part_a, entry(cai).part_b) == (200, 250)  # 1000 / 5 and 1000 / 4
    ema_ranking_recompute(on=ON)
    # weight 1 × 50%: A = 500 / (0.5 + 0.5 + 3 made-up results of weight 1); B = 500 / (0.5 + 0.5 + 2)
    assert (shown(entry(cai).part_a), shown(entry(cai).part_b)) == (Fraction("125"), Fraction("166.67"))
    ema_ranking_recompute(on=dt.date(2027, 3, 2))
    assert not EmaRankingEntry.objects.filter(player=cai).exists()  # nothing counts any more


def test_mcr_and_riichi_are_ranked_apart_and_salamanca_is_not_ranked(make_tournament):
    dee = ema_player("Dee", "22222222")
    place_player(make_tournament, "mcr-win", dee, place=1, players=4, ends_on=dt.date(2026, 5, 1))
    place_player(make_tournament, "mcr-last", dee, place=4, players=4, ends_on=dt.date(2026, 5, 1))
    place_player(
        make_tournament,
        "riichi-last-too",
        dee,
        place=4,
        players=4,
        ends_on=dt.date(2026, 5, 1),
        ruleset="wrc-riichi",
    )
    place_player(
        make_tournament,
        "riichi-last",
        dee,
        place=4,
        players=4,
        ends_on=dt.date(2026, 5, 2),
        ruleset="wrc-riichi",
    )
    place_player(
        make_tournament,
        "mayon-win",
        dee,
        place=1,
        players=4,
        ends_on=dt.date(2026, 5, 3),
        ruleset="salamanca",
    )
    ema_ranking_recompute(on=ON, refresh_all=True)
    assert entry(dee, "mcr").part_b == 250 and entry(dee, "mcr").results == 2
    assert entry(dee, "riichi").ranking == 0 and entry(dee, "riichi").results == 2
    assert set(EmaRankingEntry.objects.filter(player=dee).values_list("family", flat=True)) == {
        "mcr",
        "riichi",
    }
    # the Salamanca tournament has its places, but never counts
    assert TournamentResult.objects.get(tournament__slug="mayon-win", player=dee).base_rank == 1000
    assert EmaTournament.objects.get(tournament__slug="mayon-win").family not in ("mcr", "riichi")


def test_positions_are_shared_by_equal_rankings(make_tournament):
    one, two, three = (
        ema_player("One", "00000001"),
        ema_player("Two", "00000002"),
        ema_player("Three", "00000003"),
    )
    for slug in ("shared", "shared-again"):  # two results each, to be listed
        tournament = make_tournament(slug, "mcr", sessions=0, players=0, starts_on=dt.date(2026, 5, 1))
        for key, player in (("a", one), ("b", two), ("c", three)):
            registration_create(tournament=tournament, player=player, key=key)
        finish_in_order(tournament, [("a", "b"), "c"])
    ema_ranking_recompute(on=ON, refresh_all=True)
    assert [(e.player.first_name, e.position) for e in EmaRankingEntry.objects.filter(family="mcr")] == [
        ("One", 1),
        ("Two", 1),
        ("Three", 3),
    ]


def test_finishing_or_correcting_a_tournament_recomputes_the_ranking(
    make_tournament, director, django_capture_on_commit_callbacks, monkeypatch
):
    # the results are summary rows written cheaply, with no table results to confirm: the lifecycle's
    # guards of the tables' results (tests/tournaments/test_lifecycle.py) are not what is checked here
    monkeypatch.setattr(lifecycle, "_SESSION_GUARDS", [])
    eve = ema_player("Eve", "33333333")
    yesterday = timezone.localdate() - dt.timedelta(days=1)
    # an earlier result (last of 4, base rank 0): alone it does not list Eve
    place_player(
        make_tournament, "earlier", eve, place=4, players=4, ends_on=yesterday - dt.timedelta(days=9)
    )
    with django_capture_on_commit_callbacks(execute=True):
        tournament = place_player(
            make_tournament,
            "live",
            eve,
            place=1,
            players=4,
            ends_on=yesterday,
            director=director,
            finish=False,
        )
    ema_ranking_recompute(refresh_all=True)
    assert not EmaRankingEntry.objects.exists()  # running: one counting result, not listed
    session = tournament.sessions.get(number=1)
    with django_capture_on_commit_callbacks(execute=True):
        lifecycle.session_move(session=session, to=Session.Status.FINISHED)
        tournament_finish(tournament=tournament)
    assert TournamentResult.objects.get(tournament=tournament, player=eve).base_rank == 1000
    assert entry(eve).part_b == 250 and entry(eve).on == timezone.localdate()

    # a referee's table points deduction after the end (the director reopens the tournament and the
    # session, with a reason, then finishes them again) drops Eve to last place
    with django_capture_on_commit_callbacks(execute=True):
        tournament_reopen(tournament=tournament, reason="late result sheet", user=director)
        lifecycle.session_move(session=session, to=Session.Status.PLAYING, reason="late result sheet")
        penalty_record(
            tournament=tournament,
            registration=Registration.objects.get(tournament=tournament, key="p0"),
            kind="table_points",
            points=-10,
            reason="late result sheet",
            session=tournament.sessions.get(number=1),
            actor=Actor(user=director, role="director"),
        )
        lifecycle.session_move(session=session, to=Session.Status.FINISHED)
        tournament_finish(tournament=tournament)
    assert TournamentResult.objects.get(tournament=tournament, player=eve).base_rank == 0
    assert entry(eve).ranking == 0

    # taken back to running: the tournament no longer counts
    with django_capture_on_commit_callbacks(execute=True):
        tournament_reopen(tournament=tournament, reason="appeal", user=director)
    assert not TournamentResult.objects.filter(tournament=tournament, player=eve).exists()
    assert not EmaRankingEntry.objects.filter(player=eve).exists()  # one result again: not listed


def test_a_new_ema_number_brings_the_player_into_the_ranking(
    make_tournament, django_capture_on_commit_callbacks
):
    fay = ema_player("Fay", "")  # no EMA number yet
    place_player(make_tournament, "no-number", fay, place=1, players=4, ends_on=timezone.localdate())
    place_player(make_tournament, "no-number-2", fay, place=2, players=4, ends_on=timezone.localdate())
    ema_ranking_recompute(refresh_all=True)
    assert not EmaRankingEntry.objects.filter(player=fay).exists()
    with django_capture_on_commit_callbacks(execute=True):
        fay.ema_id = "04444444"
        fay.save()
        player_changed(player=fay)  # what every service that edits a player sends
    assert entry(fay).ema_id == "04444444"


def test_with_the_broker_down_a_change_is_saved_and_the_delay_recorded(
    settings, monkeypatch, django_capture_on_commit_callbacks
):
    from rankings.ema.services import ema_ranking_touch
    from rankings.exports.tasks import ema_ranking_recompute as ema_task
    from rankings.models import EmaRankingState

    settings.CELERY_TASK_ALWAYS_EAGER = False

    def down(*args, **kwargs):
        raise ConnectionError("Connection refused")

    monkeypatch.setattr(ema_task, "apply_async", down)
    with django_capture_on_commit_callbacks(execute=True):
        ema_ranking_touch()  # does not raise: the change that called it stays saved
    state = EmaRankingState.objects.get()
    assert state.queue_failed_at is not None and "Connection refused" in state.queue_error
