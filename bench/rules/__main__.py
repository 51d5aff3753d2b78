"""Rule engine benchmark: settle random valid hands per ruleset, and a whole MCR tournament.

    python -m bench.rules [--hands 1000000] [--seed 1] [--rulesets mcr,salamanca,...]

    python -m bench.rules --tiles 20000 [--hands 0]

Prints, per ruleset, hands settled per second (hands replayed inside whole games, as the entry and the
archive import do), then the time to settle a 400-player, 10-session MCR tournament (1000 tables of 16
hands) from hands to table points; then, per family, hand values computed from tiles per second.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable

from scoring.rules.registry import RULESET_KEYS, get_ruleset
from scoring.rules.riichi import valid_fu

from . import tiles as tile_bench

Game = list[dict]


def mcr_game(rng: random.Random) -> Game:
    hands = []
    for _ in range(16):
        if rng.random() < 0.1:
            hands.append({"result": "draw"})
            continue
        winner = rng.randrange(4)
        discarder = rng.choice([None, *[s for s in range(4) if s != winner]])
        hands.append({"result": "win", "winner": winner, "discarder": discarder, "fan": rng.randint(8, 40)})
    return hands


def salamanca_game(rng: random.Random) -> Game:
    # a non-dealer wins every hand, so the deal passes and the game has 16 hands (4 rounds)
    hands = []
    for i in range(16):
        dealer = i % 4
        winner = rng.choice([s for s in range(4) if s != dealer])
        discarder = rng.choice([None, *[s for s in range(4) if s != winner]])
        fan = rng.randint(1 if discarder is None else 0, 13)
        hands.append({"result": "win", "winner": winner, "discarder": discarder, "fan": fan})
    return hands


def classical_game(rng: random.Random) -> Game:
    hands = []
    for i in range(16):
        dealer = i % 4
        winner = rng.choice([s for s in range(4) if s != dealer])
        values = {str(s): rng.choice([0, 2, 4, 8, 16, 24, 32, 48, 64]) for s in range(4)}
        values[str(winner)] = rng.choice([20, 24, 32, 48, 64, 96, 128, 256, 512, 640])
        hands.append({"result": "win", "winner": winner, "values": values})
    return hands


def riichi_game(rng: random.Random) -> Game:
    # every hand passes the deal (a non-dealer wins, or the dealer is noten at a draw): 8 hands, East and South
    hands = []
    for i in range(8):
        dealer = i % 4
        others = [s for s in range(4) if s != dealer]
        riichi = sorted(rng.sample(range(4), rng.randint(0, 2)))
        kind = rng.random()
        if kind < 0.15:
            tenpai = sorted(rng.sample(others, rng.randint(0, 3)))
            hands.append({"result": "draw", "tenpai": tenpai, "riichi": [p for p in riichi if p in tenpai]})
            continue
        han = rng.choice([1, 1, 2, 2, 3, 3, 4, 5, 6, 8, 11, 13])
        if kind < 0.55:
            winner = rng.choice(others)
            fu = rng.choice(valid_fu(han, "tsumo")) if han < 5 else None
            hand = {"result": "tsumo", "winner": winner, "han": han, "riichi": riichi}
        else:
            loser = rng.choice(range(4))
            candidates = [s for s in others if s != loser]
            winners = rng.sample(candidates, 2 if len(candidates) > 1 and rng.random() < 0.05 else 1)
            fu = None
            hand = {"result": "ron", "loser": loser, "winners": [], "riichi": riichi}
            for w in sorted(winners):
                entry = {"player": w, "han": han}
                if han < 5:
                    entry["fu"] = rng.choice(valid_fu(han, "ron"))
                hand["winners"].append(entry)
        if fu is not None:
            hand["fu"] = fu
        hands.append(hand)
    return hands


GENERATORS: dict[str, Callable[[random.Random], Game]] = {
    "mcr": mcr_game,
    "salamanca": salamanca_game,
    "classical": classical_game,
    "ema-riichi-2016": riichi_game,
    "ema-riichi-2025": riichi_game,
    "wrc-riichi": riichi_game,
    "ema-riichi-2008": riichi_game,
}


def settle_hands(key: str, total: int, seed: int) -> tuple[int, float]:
    """Settle ``total`` random valid hands of ruleset ``key``; (hands settled, seconds)."""
    rules = get_ruleset(key)
    rng = random.Random(seed)
    make = GENERATORS[key]
    games = [make(rng) for _ in range(200)]  # generated up front: only settling is timed
    settled = 0
    start = time.perf_counter()
    i = 0
    while settled < total:
        game = games[i % len(games)]
        result = rules.play_game(game)
        rules.table_result(result)
        settled += len(game)
        i += 1
    return settled, time.perf_counter() - start


def settle_tournament(seed: int, players: int = 400, sessions: int = 10) -> tuple[int, float]:
    """A whole MCR tournament from hands to table points; (tables, seconds)."""
    rules = get_ruleset("mcr")
    rng = random.Random(seed)
    tables = [mcr_game(rng) for _ in range(players // 4 * sessions)]
    start = time.perf_counter()
    totals = [0] * 4
    for hands in tables:
        result = rules.table_result(rules.play_game(hands))
        for s, seat in enumerate(result.seats):
            totals[s] += seat.table_points
    elapsed = time.perf_counter() - start
    assert sum(totals) == 7 * len(tables)  # table points always sum to 7 a table
    return len(tables), elapsed


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--hands", type=int, default=1_000_000, help="hands to settle per ruleset")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rulesets", default=",".join(RULESET_KEYS))
    parser.add_argument("--tiles", type=int, default=20_000, help="values from tiles per family (0: none)")
    args = parser.parse_args()
    if args.hands:
        print(f"{'ruleset':<18}{'hands':>12}{'seconds':>10}{'hands/s':>12}")
        for key in args.rulesets.split(","):
            settled, seconds = settle_hands(key, args.hands, args.seed)
            print(f"{key:<18}{settled:>12,}{seconds:>10.2f}{settled / seconds:>12,.0f}")
        tables, seconds = settle_tournament(args.seed)
        print(
            f"\nMCR tournament, 400 players × 10 sessions: {tables} tables, {tables * 16:,} hands "
            f"settled to table points in {seconds:.3f} s\n"
        )
    if args.tiles:
        print(f"{'values from tiles':<18}{'hands':>12}{'seconds':>10}{'values/s':>12}")
        for key in tile_bench.FAMILIES:
            done, seconds = tile_bench.value_rate(key, args.tiles, args.seed)
            print(f"{key:<18}{done:>12,}{seconds:>10.2f}{done / seconds:>12,.0f}")


if __name__ == "__main__":
    main()
