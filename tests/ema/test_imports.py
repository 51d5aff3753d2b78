"""Imported results count in the EMA ranking like finished local tournaments: figures worked by hand.

Ranking date 2026-06-01. Tournaments (MCR unless said):

- A, imported, ended 2026-05-02 (30 days before), 1 day, 6 players from 1 country: weight 1.
  Ana 1st (1000); Bea, Cid and Ivo tied 2nd (base rank of place 2 of 6: 1000 × 4/5 = 800); Dan 5th
  (1000 × 1/5 = 200); Eve 6th, without an EMA number (0): she counts in N = 6 and is never ranked.
- B, imported, ended 2025-01-17 (500 days before: second year, half), 2 days, 4 players: weight 2 × ½ = 1.
  Bea 1st (1000), Ana 2nd (1000 × 2/3 = 667), two players without EMA numbers.
- C, imported, ended 2024-03-23 (800 days before: more than two years), Ana 1st: not counted.
- D, imported riichi, ended 2026-05-02, 4 players: Ana 1st (1000): the riichi ranking only.

With fewer than five results, dummy results (0, weight 1) fill up to five. Part A averages all five,
Part B the best four:

- Ana: (1000 + 667 + 0 + 0 + 0) / 5 = 333.4; (1000 + 667 + 0 + 0) / 4 = 416.75; ranking 375.075 → 375.08
- Bea: (800 + 1000) / 5 = 360; 1800 / 4 = 450; ranking 405
- Cid and Ivo (800), Dan (200) and Ana in riichi (1000) have one result that counts: not listed ("The
  Mahjong Europe Ranking System" §3: at least two certified competitions of the ranking).
"""

from __future__ import annotations

import datetime as dt
from fractions import Fraction

import pytest

from rankings.ema.engine import shown
from rankings.ema.imports import (
    ResultsImportError,
    TournamentFacts,
    imported_tournament_delete,
    imported_tournament_update,
    results_import,
    results_import_check,
    results_import_replace,
)
from rankings.ema.services import ema_ranking_recompute
from rankings.models import EmaRankingEntry, ImportedResult, ImportedTournament
from tests.ema.files import csv_bytes, xlsx_bytes
from tests.exports.helpers import ema_player, place_player
from tournaments.models import Player

pytestmark = pytest.mark.django_db


def details_of(entry) -> list[dict]:
    """Every result of the entry's player as the player's page lists it (padding included)."""
    from rankings.ema.ranking import player_details

    return player_details(player_id=entry.player_id, family=entry.family, on=entry.on)[1]


ON = dt.date(2026, 6, 1)
A = [
    [1, "04010001", "Alba", "Ana", "ESP", "Yes", 24, 150],
    [2, "04010002", "Bravo", "Bea", "ESP", "Yes", 20, 90],
    [2, "04010003", "Conde", "Cid", "ESP", "Yes", 20, 90],
    [2, "04010009", "Íñiguez", "Ivo", "ESP", "Yes", 20, 90],
    [5, "04010004", "Díaz", "Dan", "ESP", "Yes", 8, -100],
    [6, "", "Erro", "Eve", "ESP", "No", 0, -320],
]
B = [
    [1, "04010002", "Bravo", "Bea", "ESP", "Yes", 12, 80],
    [2, "04010001", "Alba", "Ana", "ESP", "Yes", 8, 20],
    [3, "", "Zeta", "Zoe", "ESP", "No", 6, -40],
    [4, "", "Yáñez", "Yan", "ESP", "No", 2, -60],
]
C = [
    [1, "04010001", "Alba", "Ana", "ESP", "Yes", 12, 80],
    [2, "04010004", "Díaz", "Dan", "ESP", "Yes", 8, 20],
    [3, "", "Zeta", "Zoe", "ESP", "No", 6, -40],
    [4, "", "Yáñez", "Yan", "ESP", "No", 2, -60],
]
D = [
    [1, "04010001", "Alba", "Ana", "ESP", "Yes", "", 95000],
    [2, "", "Zeta", "Zoe", "ESP", "No", "", 10000],
    [3, "", "Yáñez", "Yan", "ESP", "No", "", -30000],
    [4, "", "Uno", "Ugo", "ESP", "No", "", -75000],
]


def facts(name, ends_on, *, days=1, family="mcr", **extra) -> TournamentFacts:
    return TournamentFacts(
        name=name, family=family, starts_on=ends_on - dt.timedelta(days=days - 1), days=days, **extra
    )


def import_all():
    results_import(data=csv_bytes(A), facts=facts("Open A", ON - dt.timedelta(30)), filename="a.csv")
    results_import(data=csv_bytes(B), facts=facts("Open B", ON - dt.timedelta(500), days=2), filename="b.csv")
    results_import(data=csv_bytes(C), facts=facts("Open C", ON - dt.timedelta(800)), filename="c.csv")
    results_import(
        data=csv_bytes(D), facts=facts("Riichi D", ON - dt.timedelta(30), family="riichi"), filename="d.csv"
    )
    ema_ranking_recompute(on=ON)


def figures(family="mcr") -> dict[str, tuple]:
    return {
        e.player.first_name: (e.position, shown(e.ranking), shown(e.part_a), shown(e.part_b), e.results)
        for e in EmaRankingEntry.objects.filter(family=family).select_related("player")
    }


def test_imported_results_give_the_hand_worked_ranking():
    import_all()
    a = ImportedTournament.objects.get(name="Open A")
    assert (a.players, a.countries, a.weight) == (6, 1, 1)
    assert ImportedTournament.objects.get(name="Open B").weight == 2
    assert list(ImportedResult.objects.filter(tournament=a).values_list("base_rank", flat=True)) == [
        1000,
        800,
        800,
        800,
        200,
        0,
    ]
    assert figures() == {
        "Bea": (1, Fraction("405"), Fraction("360"), Fraction("450"), 2),
        "Ana": (2, Fraction("375.08"), Fraction("333.4"), Fraction("416.75"), 2),  # C is too old
    }  # Cid, Ivo and Dan have one result each: not listed
    assert figures("riichi") == {}  # Ana's one riichi result does not list her
    assert not Player.objects.filter(first_name="Eve").exists()  # no EMA number: a line, not a player
    ana = EmaRankingEntry.objects.get(family="mcr", player__ema_id="04010001")
    counted = [d for d in details_of(ana) if not d.get("padding")]
    assert [(d["tournament"], d["ageing"], d["part_a"], d["part_b"]) for d in counted] == [
        ("Open A", "1", True, True),
        ("Open B", "1/2", True, True),
    ]
    assert sum(1 for d in details_of(ana) if d.get("padding")) == 3


def test_imported_and_local_tournaments_count_alike(make_tournament):
    """Ana's 2nd place of 4 in B, run here instead of imported, gives the same ranking."""
    results_import(data=csv_bytes(A), facts=facts("Open A", ON - dt.timedelta(30)), filename="a.csv")
    ana = Player.objects.get(ema_id="04010001")
    place_player(make_tournament, "local-b", ana, place=2, players=4, ends_on=ON - dt.timedelta(500), days=2)
    ema_ranking_recompute(on=ON, refresh_all=True)
    assert figures()["Ana"][1:4] == (Fraction("375.08"), Fraction("333.4"), Fraction("416.75"))


def test_a_file_imported_twice_is_refused_in_any_format_or_by_its_facts(make_tournament):
    import_all()
    product = [[r[0], r[3], r[2], r[1], r[6], r[7], r[5], r[4]] for r in A]
    from tests.ema.files import PRODUCT_HEADER

    with pytest.raises(ResultsImportError, match="imported already as “Open A”"):
        results_import_check(data=xlsx_bytes(product, header=PRODUCT_HEADER), facts=facts("Other", ON))
    changed = [row[:] for row in A]
    changed[0][7] = 151
    with pytest.raises(ResultsImportError, match="was imported already") as refused:
        results_import_check(data=csv_bytes(changed), facts=facts("OPEN  Á", ON - dt.timedelta(30)))
    assert refused.value.faults[0].column == "name"
    # a tournament run here with the same rules, start date and name counts already
    local = make_tournament("spring", "mcr", starts_on=dt.date(2026, 4, 4), name="Spring Open")
    local.status = local.Status.FINISHED
    local.save()
    with pytest.raises(ResultsImportError, match="run in this installation"):
        results_import_check(data=csv_bytes(changed), facts=facts("Spring Ópen", dt.date(2026, 4, 4)))


def test_faulty_facts_are_reported_with_the_files_faults_and_nothing_is_written():
    bad = [row[:] for row in A]
    bad[2][1] = "12"
    bad[4][0] = 9
    with pytest.raises(ResultsImportError) as refused:
        results_import(
            data=csv_bytes(bad),
            facts=TournamentFacts(name="", family="salamanca", starts_on=ON, days=0, country="XX"),
        )
    columns = {(f.line, f.column) for f in refused.value.faults}
    assert {(0, "name"), (0, "family"), (0, "days"), (0, "country")} <= columns
    assert {(4, "EMA number"), (6, "Place")} <= columns
    assert not ImportedTournament.objects.exists() and not Player.objects.exists()


def test_corrections_and_removal_move_the_ranking():
    import_all()
    a = ImportedTournament.objects.get(name="Open A")
    # the organiser forgot the second day: weight 2, the ranking follows
    imported_tournament_update(tournament=a, facts=facts("Open A", ON - dt.timedelta(30), days=2))
    ema_ranking_recompute(on=ON)
    a.refresh_from_db()
    assert a.weight == 2 and a.ends_on == ON - dt.timedelta(30)
    # Ana, Part A: (1000×2 + 667×1 + 0×3) / (2 + 1 + 3) = 444.5; Part B, the best four:
    # (1000×2 + 667×1 + 0 + 0) / (2 + 1 + 1 + 1) = 533.4; ranking 488.95
    assert figures()["Ana"][1:4] == (Fraction("488.95"), Fraction("444.5"), Fraction("533.4"))
    # Bea, weight 2: (800×2 + 1000) / 6 = 433.33 and (800×2 + 1000) / 5 = 520: 476.67, second
    assert [name for name, _ in sorted(figures().items(), key=lambda kv: kv[1][0])] == ["Ana", "Bea"]
    # a corrected file, one day again: Bea and Ana swapped (Bea 1st 1000, Ana 2nd 800)
    swapped = [row[:] for row in A]
    swapped[0][1:4], swapped[1][1:4] = A[1][1:4], A[0][1:4]
    results_import_replace(
        tournament=a, data=csv_bytes(swapped), facts=facts("Open A", ON - dt.timedelta(30))
    )
    ema_ranking_recompute(on=ON)
    # Bea: (1000 + 1000) / 5 = 400 and 2000 / 4 = 500: 450; Ana: (800 + 667) / 5 = 293.4 and 1467 / 4
    # = 366.75: 330.08
    assert figures() == {
        "Bea": (1, Fraction("450"), Fraction("400"), Fraction("500"), 2),
        "Ana": (2, Fraction("330.08"), Fraction("293.4"), Fraction("366.75"), 2),
    }
    entry = EmaRankingEntry.objects.get(family="mcr", player__first_name="Bea")
    assert (entry.previous_position, entry.position) == (2, 1)  # change since the previous computation
    imported_tournament_delete(tournament=ImportedTournament.objects.get(name="Open B"))
    ema_ranking_recompute(on=ON)
    assert figures() == {}  # only A is left: one result each, nobody listed
    assert ImportedResult.objects.filter(tournament__name="Open B").count() == 0


def test_known_ema_numbers_keep_the_names_stored_here_unknown_ones_become_players():
    ema_player("Anabel", "04010001")
    preview = results_import_check(data=csv_bytes(A), facts=facts("Open A", ON - dt.timedelta(30)))
    assert preview.known_players == 1 and preview.new_players == 4
    assert any("04010001 is Anabel Ranked here" in note for note in preview.notes)
    results_import(data=csv_bytes(A), facts=facts("Open A", ON - dt.timedelta(30)))
    assert Player.objects.get(ema_id="04010001").first_name == "Anabel"
    assert Player.objects.get(ema_id="04010009").last_name == "Íñiguez"


def test_the_stored_ema_player_list_names_new_players():
    from tournaments.models import EMAPlayer

    EMAPlayer.objects.create(ema_id="04010009", first_name="Iván", last_name="Íñiguez Ruiz", country="ESP")
    results_import(data=csv_bytes(A), facts=facts("Open A", ON - dt.timedelta(30)))
    ivo = Player.objects.get(ema_id="04010009")
    assert (ivo.first_name, ivo.last_name) == (
        "Iván",
        "Íñiguez Ruiz",
    ) and ivo.search_name == "ivan iniguez ruiz"
    assert Player.objects.get(ema_id="04010001").first_name == "Ana"  # not on the list: the file's name
