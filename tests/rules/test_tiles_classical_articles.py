"""Classical rules from tiles: the cases rulebook 001 (the Basque mah jong article, rules 1-85; the
classical preset's text) states by article, not yet covered by tests/rules/test_tiles_salamanca_classical.py.
Rulebook 001 has no worked hands, only its tables (§75) and the cases of §77, §78 and §85; rulebook 004 is
the MCR penalties text. Each test names the figure, the hand, the article and the line of
001_961f952b7c5a4c79.txt."""

import pytest

from scoring.rules.registry import get_ruleset
from scoring.rules.tiles import WinContext, value_tiles

CLASSICAL = get_ruleset("classical")


def test_art78_four_little_blessings_one_double():
    """§78, line 170: "Lau mesede txiki: haizeen hiru talde eta laugarren haizearen bikote bat dituen
    edozein esku betek bikoitz bat jasoko du ... eskuaren beste bikoitzez gain". Hand: exposed pungs of
    East, South and West, 234 of characters, a pair of North won on a discard by North in the North round.
    Table 1 (§75, lines 124-138): mah jong 20 + three exposed pungs of honours 3 × 4 + the pair of one's
    own prevalent wind 4 + filling the only place 2 = 38; table 2 (lines 139-150): clean hand (one suit
    and honours) 1 double, §78 1 double: 38 × 4 = 152."""
    v = value_tiles(
        CLASSICAL,
        {"hand": "234m44z", "melds": ["pung 1z", "pung 2z", "pung 3z"], "winning_tile": "4z"},
        WinContext(self_drawn=False, seat_wind=3, round_wind=3),
    )
    assert v.claim == {"value": 152}
    assert [(i.name, i.value) for i in v.items if i.unit == "doubles"] == [
        ("Clean hand: one suit and honours", 1),
        ("Four little blessings", 1),
    ]


@pytest.mark.parametrize(
    ("line", "name", "tiles"),
    [
        # II "Guztiak ohoreak": four pungs and a pair, all winds and dragons
        (188, "II All honours", {"hand": "77z", "melds": ["pung 1z", "pung 2z", "pung 3z", "pung 5z"]}),
        # III "Guztiak muturrak": all terminals
        (189, "III All terminals", {"hand": "99s", "melds": ["pung 1m", "pung 9m", "pung 1p", "pung 9p"]}),
        # IV "Esku berdea": green dragons and simples of bamboo
        (190, "IV Green hand", {"hand": "66z", "melds": ["pung 2s", "chow 345s", "pung 8s", "chow 456s"]}),
        # V "Esku gorria": red dragons and simples of dots
        (191, "V Red hand", {"hand": "77z", "melds": ["pung 2p", "chow 345p", "pung 8p", "chow 456p"]}),
        # VIII "Esku horizontala": three pungs of one number in the three suits, a pung and a pair of honours
        (194, "VIII Horizontal hand", {"hand": "11z", "melds": ["pung 3m", "pung 3p", "pung 3s", "pung 7z"]}),
        # IX "Lau mesedeak": pungs of the four winds and a pair
        (195, "IX Four blessings", {"hand": "55m", "melds": ["pung 1z", "pung 2z", "pung 3z", "pung 4z"]}),
    ],
)
def test_art85_limit_hands_are_worth_the_limit(line, name, tiles):
    """§85, line 186: "Esku hauek guztiek muga-balioa dute, 500 puntu eta 1.000 puntu ekiarentzat" (the
    limit, 500, doubled for East by the payment). Each hand of the line named, won on a discard of its
    pair's tile by South in the West round."""
    hand = {**tiles, "winning_tile": tiles["hand"][:1] + tiles["hand"][-1]}
    v = value_tiles(CLASSICAL, hand, WinContext(self_drawn=False, seat_wind=1, round_wind=2))
    assert v.claim == {"value": 500}, line
    assert [(i.name, i.unit) for i in v.items] == [(name, "limit")], line
