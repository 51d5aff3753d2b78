"""Hand builders shared by the riichi tests (seat numbers 0..3)."""


def ron(loser, *winners, riichi=()):
    return {
        "result": "ron",
        "loser": loser,
        "winners": [{"player": p, "han": han, **({"fu": fu} if fu else {})} for p, han, fu in winners],
        "riichi": list(riichi),
    }


def tsumo(winner, han, fu=None, riichi=()):
    return {
        "result": "tsumo",
        "winner": winner,
        "han": han,
        **({"fu": fu} if fu else {}),
        "riichi": list(riichi),
    }


def draw(tenpai, riichi=()):
    return {"result": "draw", "tenpai": list(tenpai), "riichi": list(riichi)}


def chombo(player):
    return {"result": "chombo", "player": player}
