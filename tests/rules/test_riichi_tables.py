"""Every cell of the payment tables of rulebook 002 (EMA Riichi 2008), read from a copy of the rulebook's tables
(tests/data/rulebooks/riichi-2008-payment-tables.txt, section 4.1.3 as published).

The four tables "Este/Otros cerrando del muro (Tsumo)" and "Este/Otros con descarte (Ron)" give han 1-4
by fu 20-100; "Manos limite" gives the limits. An empty cell, or a fu row a table leaves out (no 20 fu
row in the Ron tables), is a hand that cannot exist, and the engine must refuse it.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from scoring.rules.base import RuleError
from scoring.rules.riichi import PRESETS, hand_value, parse_hand, valid_fu

BOOK = Path(__file__).resolve().parents[1] / "data" / "rulebooks" / "riichi-2008-payment-tables.txt"

TABLES = {  # heading in the rulebook -> (dealer wins, win)
    "Este cerrando del muro (Tsumo)": (True, "tsumo"),
    "Este con descarte (Ron)": (True, "ron"),
    "Otros cerrando del muro (Tsumo)": (False, "tsumo"),
    "Otros con descarte (Ron)": (False, "ron"),
}
FU_ROWS = (20, 25, 30, 40, 50, 60, 70, 80, 90, 100)


def _rows_after(lines: list[str], heading: str) -> list[list[str]]:
    """The tab-separated rows under the first ``heading`` line, without the column header."""
    at = next(i for i, line in enumerate(lines) if line.strip() == heading)
    rows = []
    for line in lines[at + 1 :]:
        if not line.strip():
            if rows:
                break
            continue
        rows.append(line.rstrip("\n").split("\t"))
    return rows[1:]


def _cell(text: str) -> tuple[int, ...] | None:
    return tuple(int(n) for n in text.split()) if text.strip() else None


def read_tables() -> tuple[dict, list]:
    lines = BOOK.read_text(encoding="utf-8").splitlines()
    cells = {}
    for heading, (dealer, win) in TABLES.items():
        rows = {int(row[0]): (row[1:] + [""] * 4)[:4] for row in _rows_after(lines, heading)}
        assert set(rows) <= set(FU_ROWS) and len(rows) >= 9, f"could not read the table {heading!r}"
        for fu in FU_ROWS:
            for han in range(1, 5):
                cells[(heading, dealer, win, han, fu)] = _cell(rows[fu][han - 1]) if fu in rows else None
    limits = []
    for name, fan, dealer_each, others in _rows_after(lines, "Manos limite"):
        low, _, high = fan.rstrip("+").partition("-")
        han_range = range(int(low), int(high or (int(low) + 3 if fan.endswith("+") else low)) + 1)
        limits.append((name, han_range, int(dealer_each), _cell(others)))
    assert [row[0] for row in limits] == ["Mangan", "Haneman", "Baiman", "Sanbaiman", "Yakuman"]
    return cells, limits


CELLS, LIMITS = read_tables()
CELL_PARAMS = [
    pytest.param(*key, value, id=f"{key[0]}-{key[3]}han-{key[4]}fu") for key, value in CELLS.items()
]
LIMIT_PARAMS = [pytest.param(*row, id=row[0]) for row in LIMITS]


def _hand(win: str, han: int, fu: int) -> dict:
    if win == "ron":
        return {"result": "ron", "loser": 1, "winners": [{"player": 0, "han": han, "fu": fu}], "riichi": []}
    return {"result": "tsumo", "winner": 0, "han": han, "fu": fu, "riichi": []}


def test_the_rulebook_tables_are_complete():
    assert len(CELLS) == 4 * len(FU_ROWS) * 4
    # The tables leave exactly these cells empty: 1-han 20 fu and low-han 25 fu tsumo, and all 20 fu ron.
    empty = sorted((win, han, fu) for (_, dealer, win, han, fu), v in CELLS.items() if v is None and dealer)
    assert empty == sorted(
        [("ron", han, 20) for han in range(1, 5)]
        + [("ron", 1, 25)]
        + [("tsumo", 1, 20)]
        + [("tsumo", 1, 25), ("tsumo", 2, 25)]
    )


@pytest.mark.parametrize(("heading", "dealer", "win", "han", "fu", "cell"), CELL_PARAMS)
def test_payment_table_cell(heading, dealer, win, han, fu, cell):
    """A filled cell is what the engine charges; an empty one is a hand the engine refuses."""
    for preset in ("ema-riichi-2008", "ema-riichi-2016"):
        config = PRESETS[preset].config
        if cell is None and win == "ron" and fu == 20 and han >= 2:
            # no row in 002; accepted from 2 han and paid by the formula (see fu_problem)
            assert fu in valid_fu(han, win, dealer)
            assert (
                hand_value(han, fu, dealer=dealer).ron
                == -(-fu * 2 ** (han + 2) * (6 if dealer else 4) // 100) * 100
            )
            continue
        if cell is None:
            assert fu not in valid_fu(han, win, dealer)
            with pytest.raises(RuleError) as exc:
                parse_hand(_hand(win, han, fu), config)
            assert exc.value.path in ("fu", "winners[0].fu")
            continue
        assert fu in valid_fu(han, win, dealer)
        assert parse_hand(_hand(win, han, fu), config).winners[0].fu == fu
        value = hand_value(han, fu, dealer=dealer)
        if win == "ron":
            assert (value.ron,) == cell
        elif dealer:
            assert (value.tsumo_dealer, value.tsumo_other) == (cell[0], cell[0])
        else:  # "el mayor es el pago de Este, el menor el pago de cada uno de los otros dos"
            assert (value.tsumo_other, value.tsumo_dealer) == cell


@pytest.mark.parametrize(("name", "han_range", "dealer_each", "others"), LIMIT_PARAMS)
def test_limit_table_row(name, han_range, dealer_each, others):
    """Each opponent's payment on a self-draw; on a discard the discarder pays for everyone."""
    other_each, dealer_pays = others
    for han in han_range:
        dealer = hand_value(han, None, dealer=True)
        assert (dealer.tsumo_dealer, dealer.tsumo_other, dealer.ron) == (dealer_each,) * 2 + (
            3 * dealer_each,
        )
        non_dealer = hand_value(han, None, dealer=False)
        assert (non_dealer.tsumo_other, non_dealer.tsumo_dealer) == (other_each, dealer_pays)
        assert non_dealer.ron == 2 * other_each + dealer_pays
        assert dealer.limit == non_dealer.limit == name.lower()
