"""Reading results files: the product's CSV/XLSX and MTS's EMA report; every fault of a bad file."""

from __future__ import annotations

import io
import zipfile
from fractions import Fraction

import pytest

from rankings.ema.results_file import (
    BY_NAME,
    EMA_RESULTS,
    MAX_ROWS,
    MTS,
    ResultsFileError,
    read_results_file,
)
from tests.ema.files import PRODUCT_HEADER, csv_bytes, xlsx_bytes

GOOD_MTS = [
    [1, "04010001", "García", "Ana", "ESP", "Yes", 20, 120],
    [2, "04010002", "Núñez", "Bea", "FRA", "Yes", "15.5", "80.25"],
    [2, "", "Doe", "John", "NLD", "No", "15.5", "80.25"],
    [4, "4010004", "Li", "Wei", "ESP", "No", 9, -50],  # a spreadsheet dropped the leading zero
]


def test_an_mts_report_reads_with_ties_and_players_without_ema_numbers():
    results = read_results_file(csv_bytes(GOOD_MTS))
    assert results.format == MTS
    assert [r.place for r in results.rows] == [1, 2, 2, 4]
    assert [r.base_rank(results.players) for r in results.rows] == [1000, 667, 667, 0]
    assert results.rows[3].ema_id == "04010004"
    assert results.rows[2].ema_id == "" and results.ranked == 3 and results.players == 4
    assert results.rows[1].table_points == Fraction(31, 2) and results.rows[1].score == Fraction(321, 4)
    assert results.countries == 3
    assert results.rows[0].ema_member and not results.rows[3].ema_member


def test_the_products_own_xlsx_reads_and_has_the_same_fingerprint_as_the_same_csv():
    product_rows = [[r[0], r[3], r[2], r[1], r[6], r[7], r[5], r[4]] for r in GOOD_MTS]
    xlsx = read_results_file(xlsx_bytes(product_rows), filename="results.xlsx")
    assert xlsx.format == EMA_RESULTS
    semicolons = read_results_file(csv_bytes(product_rows, header=PRODUCT_HEADER, delimiter=";", bom=False))
    mts = read_results_file(csv_bytes(GOOD_MTS))
    assert xlsx.content_hash() == mts.content_hash() == semicolons.content_hash()
    assert [r.ema_id for r in xlsx.rows] == ["04010001", "04010002", "", "04010004"]


def test_columns_are_found_by_name_in_any_order_and_unknown_ones_are_listed():
    header = ["ema number", "LAST NAME", "first_name", "Place", "Notes"]
    results = read_results_file(csv_bytes([["04010001", "Gil", "Ana", 1, "x"]], header=header))
    assert results.format == BY_NAME and results.ignored_columns == ("Notes",)


def test_a_file_with_several_faulty_lines_is_refused_with_every_fault():
    rows = [
        [1, "0401000X", "García", "Ana", "ESP", "Yes", 20, 120],  # EMA number
        [3, "04010002", "Núñez", "Bea", "Francia", "maybe", 18, "8a0"],  # place, country, member, score
        [2, "04010003", "", "", "NLD", "No", -1, 80],  # name, table points (place 2 ties line 3's)
        [4, "04010002", "Li", "Wei", "ESP", "No", 9, 10**12],  # EMA number twice, score too large
    ]
    with pytest.raises(ResultsFileError) as refused:
        read_results_file(csv_bytes(rows))
    found = {(f.line, f.column) for f in refused.value.faults}
    assert found == {
        (2, "EMA number"),
        (3, "Place"),
        (3, "Country"),
        (3, "EMA member"),
        (3, "Score"),
        (4, "Last name"),
        (4, "Table points"),
        (5, "EMA number"),
        (5, "Score"),
    }
    text = str(refused.value)
    assert "line 5, EMA number: 04010002 is also on line 3" in text
    assert "line 3, Place: 3 where 1 (a tie) or 2 is expected" in text


def test_a_header_without_the_required_columns_is_refused():
    with pytest.raises(ResultsFileError, match="missing column"):
        read_results_file(csv_bytes([[1, "Ana"]], header=["Place", "Name"]))


@pytest.mark.parametrize(
    "data, message",
    [
        (b"", "empty"),
        (b"Place,EMA number,Last name,First name\n", "no players"),
        (b"x" * (2 * 1024 * 1024 + 1), "at most"),
        (b"PK\x03\x04 not a zip", "not a readable Excel"),
        ("Place;EMA number;Last name;First name\n1;04010001;Gómez;Ana\n".encode("cp1252"), None),
    ],
)
def test_bounds_and_damaged_files(data, message):
    if message is None:
        assert read_results_file(data).rows[0].last_name == "Gómez"  # Windows-1252 still reads
        return
    with pytest.raises(ResultsFileError, match=message):
        read_results_file(data)


def test_too_many_rows_and_a_workbook_that_unpacks_too_large_are_refused():
    rows = [[i, "", "P", str(i), "", "", "", ""] for i in range(1, MAX_ROWS + 2)]
    with pytest.raises(ResultsFileError, match=f"more than {MAX_ROWS} players"):
        read_results_file(csv_bytes(rows))
    bomb = io.BytesIO()
    with zipfile.ZipFile(bomb, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("xl/big.xml", b"0" * (21 * 1024 * 1024))
    with pytest.raises(ResultsFileError, match="unpacks to"):
        read_results_file(bomb.getvalue())


def test_the_quick_full_recompute_ranks_exactly_like_the_engine():
    """The recompute's whole-number arithmetic against rankings.ema.engine, on random histories."""
    import datetime as dt
    import random

    from rankings.ema.engine import ema_ranking, part_a_size
    from rankings.ema.ranking import ResultFact, _part_a_size, quick_ranking

    assert all(_part_a_size(n) == part_a_size(n) for n in range(300))
    rng = random.Random(17)
    on = dt.date(2026, 6, 1)
    listed_seen: set[tuple[int, bool]] = set()
    for _ in range(300):
        facts = [
            ResultFact(
                player_id=1,
                family=rng.choice(("mcr", "riichi")),
                base_rank=rng.choice((0, 250, 500, 667, 800, 1000, rng.randrange(1001))),
                weight=Fraction(rng.randrange(2, 11), 2),
                ended_on=on - dt.timedelta(days=rng.randrange(-10, 900)),
                place=1,
                players=4,
                tournament="t",
                link="imported:1",
            )
            for _ in range(rng.randrange(0, 14))
        ]
        for family in ("mcr", "riichi"):
            quick = quick_ranking(facts, family=family, on=on)
            exact = ema_ranking([f.as_result() for f in facts if f.family == family], ruleset=family, on=on)
            assert (quick.ranking, quick.part_a, quick.part_b, quick.counted, quick.listed) == (
                exact.ranking,
                exact.part_a,
                exact.part_b,
                exact.counted,
                exact.listed,
            )
            listed_seen.add((exact.counted, exact.listed))
    # the listing rule (two counting results, the ranking system's §3) was met and missed alike
    assert {(0, False), (1, False), (2, True)} <= listed_seen
