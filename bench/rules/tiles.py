"""Value computations from tiles per second, per family (MCR through PyMahjongGB, riichi through the
``mahjong`` package, Salamanca and classical in pure code)."""

from __future__ import annotations

import random
import time

from scoring.rules.base import RuleError
from scoring.rules.registry import get_ruleset
from scoring.rules.tiles import WinContext, value_tiles
from scoring.rules.tiles.notation import notation

FAMILIES = ("mcr", "ema-riichi-2016", "salamanca", "classical")
SUITS = "mps"


def _random_hand(rng: random.Random) -> tuple[dict, bool] | None:
    """A random hand of four sets and a pair (some declared), with its self-drawn flag."""
    counts = [0] * 34
    sets = []
    for _ in range(4):
        if rng.random() < 0.55:
            suit = rng.randrange(3)
            first = suit * 9 + rng.randrange(7)
            tiles = [first, first + 1, first + 2]
            kind = "chow"
        else:
            tile = rng.randrange(34)
            tiles = [tile] * 3
            kind = "pung"
        for t in tiles:
            counts[t] += 1
        sets.append((kind, tiles))
    pair = rng.randrange(34)
    counts[pair] += 2
    if max(counts) > 4:
        return None
    melds, concealed = [], [pair, pair]
    for kind, tiles in sets:
        if rng.random() < 0.3:
            melds.append(f"{kind} {notation(tiles)}")
        else:
            concealed.extend(tiles)
    winning = rng.choice(concealed)
    data = {"hand": notation(concealed), "melds": melds, "winning_tile": notation([winning])}
    return data, rng.random() < 0.4


def pool(key: str, size: int, seed: int) -> list[tuple[dict, WinContext]]:
    """``size`` random hands the family accepts (MCR: 8 fan; riichi: a yaku), found up front."""
    rules = get_ruleset(key)
    rng = random.Random(seed)
    found: list[tuple[dict, WinContext]] = []
    while len(found) < size:
        made = _random_hand(rng)
        if made is None:
            continue
        data, self_drawn = made
        context = WinContext(self_drawn=self_drawn, seat_wind=rng.randrange(4), round_wind=rng.randrange(2))
        try:
            value_tiles(rules, data, context)
        except RuleError:
            continue
        found.append((data, context))
    return found


def value_rate(key: str, total: int, seed: int) -> tuple[int, float]:
    rules = get_ruleset(key)
    hands = pool(key, 300, seed)
    start = time.perf_counter()
    for i in range(total):
        data, context = hands[i % len(hands)]
        value_tiles(rules, data, context)
    return total, time.perf_counter() - start
