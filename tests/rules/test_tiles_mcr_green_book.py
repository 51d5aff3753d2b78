"""The Green Book's Appendix 1 through the PyMahjongGB adapter (scoring/rules/tiles/mcr.py), configured by
the MCR preset: one test per fan (1-81), asserting that the example hand of that fan scores it. The hands
are copied into tests/data/rulebooks/mcr-green-book-appendix-1.txt (the EMA's Spanish Green Book,
mcr-green-book-es.txt, Appendix 1, with the line of each hand); a fan with no example of its own uses the
Appendix's hand whose text names it, or the situation its definition describes on an Appendix hand.
Each failure message states the fan, its points, the example, the line and the hand."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

import pytest

from scoring.rules.base import RuleError
from scoring.rules.registry import get_ruleset
from scoring.rules.tiles import WinContext, value_tiles
from scoring.rules.tiles import mcr as mcr_tiles
from scoring.rules.tiles.notation import parse_tiles

DATA = Path(__file__).resolve().parents[1] / "data" / "rulebooks" / "mcr-green-book-appendix-1.txt"
MCR = get_ruleset("mcr")

# the Spanish text's keyboard tile font (see the data file's header)
FONT = {
    **{c: f"{n}m" for n, c in enumerate("qwertyuio", 1)},
    **{c: f"{n}p" for n, c in enumerate("asdfghjkl", 1)},
    **{c: f"{n}s" for n, c in enumerate("zxcvbnm,.", 1)},
    **{str(n): f"{n}z" for n in range(1, 8)},
}


@dataclass(frozen=True)
class Example:
    fan: int
    name: str
    points: int
    example: str
    line: int
    printed: str
    spec: dict

    def __str__(self) -> str:
        return (
            f"fan {self.fan} {self.name} ({self.points}), example {self.example}, mcr-green-book-es.txt "
            f"line {self.line}: {self.printed!r}"
        )

    def tiles(self) -> tuple[dict, WinContext]:
        groups = [[FONT[c] for c in g] for g in self.spec.get("reading", self.printed).split()]
        exposed = {int(i) - 1 for i in self.spec.get("exposed", "").split(",") if i}
        hand: list[str] = []
        melds: list[str] = []
        for index, group in enumerate(groups):
            if len(group) == 4 and len(set(group)) == 1:
                melds.append(f"{'kong' if index in exposed else 'concealed_kong'} {group[0]}")
            elif index in exposed:
                kind = "pung" if len(set(group)) == 1 else "chow"
                melds.append(f"{kind} {''.join(group)}")
            else:
                hand.extend(group)
        win = FONT[self.spec["win"]] if "win" in self.spec else hand[-1]
        tiles = {"hand": "".join(hand), "melds": melds, "winning_tile": win}
        for flag in filter(None, self.spec.get("flags", "").split(",")):
            tiles[flag] = True
        if "flowers" in self.spec:
            tiles["flowers"] = int(self.spec["flowers"])
        context = WinContext(
            self_drawn="self" in self.spec,
            seat_wind=int(self.spec.get("seat", 0)),
            round_wind=int(self.spec.get("round", 0)),
        )
        return tiles, context


def _read() -> dict[int, list[Example]]:
    by_fan: dict[int, list[Example]] = defaultdict(list)
    for raw in DATA.read_text(encoding="utf-8").splitlines():
        if not raw.strip() or raw.startswith("#"):
            continue
        fan, name, points, example, line, printed, spec_text = (part.strip() for part in raw.split("|"))
        spec: dict = {}
        for item in filter(None, (s.strip() for s in spec_text.split(";"))):
            key, _, value = item.partition("=")
            spec[key] = value
        by_fan[int(fan)].append(Example(int(fan), name, int(points), example, int(line), printed, spec))
    return by_fan


EXAMPLES = _read()


def scored(example: Example) -> dict[str, int]:
    """The fan PyMahjongGB gives the example (name: points), through the MCR preset when the hand has the
    preset's minimum, else through the adapter with no minimum (an example shows a fan, not a legal win)."""
    tiles, context = example.tiles()
    try:
        valuation = value_tiles(MCR, tiles, context)
    except RuleError as exc:
        assert "below the MCR minimum of 8" in exc.message, f"{example}: {exc.message}"
        valuation = mcr_tiles.value(parse_tiles(tiles), context, min_fan=0)
    return {item.name: item.value for item in valuation.items}


def test_every_fan_of_the_green_book_has_its_example():
    """Appendix 1 numbers the 81 fan of the Chinese Official rules; every one has a row in the data."""
    assert sorted(EXAMPLES) == list(range(1, 82))
    assert sum(len(rows) for rows in EXAMPLES.values()) == 125


@pytest.mark.parametrize("fan", sorted(EXAMPLES), ids=lambda n: f"{n}-{EXAMPLES[n][0].name}")
def test_the_appendix_1_example_scores_its_fan(fan):
    for example in EXAMPLES[fan]:
        fans = scored(example)
        assert example.name in fans, f"{example} scored {fans}"
        assert fans[example.name] % example.points == 0, f"{example}: {fans[example.name]} points"


def test_situations_the_definitions_exclude():
    """Lines 1919-1921: Last Tile Draw "No se puede combinar con Cerrar del Muro"; lines 1930-1932: Robbing
    the Kong "No se puede combinar con Mano Completamente Oculta"; line 2053: an exposed and a concealed
    kong "son 6 puntos" (Two Melded Kongs 4 + Concealed Kong 2); line 2222: each flower 1 point, counted
    after the 8 of Chicken Hand (line 1911)."""
    last_draw = scored(EXAMPLES[44][0])
    assert "Last Tile Draw" in last_draw and "Self-Drawn" not in last_draw
    robbing = scored(EXAMPLES[47][0])
    assert "Robbing The Kong" in robbing and "Fully Concealed Hand" not in robbing
    kongs = scored(EXAMPLES[57][1])
    assert kongs["Two Melded Kongs"] + kongs.get("Concealed Kong", 0) == 6, kongs
    chicken = scored(EXAMPLES[81][0])
    assert chicken == {"Chicken Hand": 8, "Flower Tiles": 2}


def test_the_adapter_takes_its_minimum_from_the_preset_not_the_library():
    """MERS / Green Book: a win needs 8 fan without flowers (``MCRConfig.min_fan``, 8). The Appendix's hand
    of fan 62 (line 2082, Concealed Hand 2 + All Chows 2 + All Simples 2 + Short Straight twice 2 + Single
    Wait 1 = 9, line 2083: "Escalera Corta (dos veces)") is a win under the preset and is refused when a
    tournament asks for one fan more: the minimum is the preset's, the library has none."""
    hand, context = EXAMPLES[62][0].tiles()
    total = sum(scored(EXAMPLES[62][0]).values())
    assert total == 9
    assert value_tiles(MCR, hand, context).claim == {"fan": 9}
    with pytest.raises(RuleError, match="below the MCR minimum of 10"):
        value_tiles(MCR.with_overrides({"min_fan": 10}), hand, context)


def test_the_green_book_points_where_the_library_differs():
    """Green Book fan 48 (line 1945: "Dos Kong Ocultos … (8 Puntos)") and fan 57 (line 2042: "Un Kong
    expuesto y un Kong oculto son 6 puntos"): the adapter gives the Green Book's points, not the library's
    6 and 5."""
    assert scored(EXAMPLES[48][0])["Two Concealed Kongs"] == 8
    kongs = scored(EXAMPLES[57][1])
    assert (kongs["Two Melded Kongs"], kongs["Concealed Kong"]) == (4, 2)
    assert "Concealed Kong and Melded Kong" not in kongs
