"""Every riichi preset against its own text: the preset values, and a table of hands valued from tiles
through every preset, asserting the differences the texts state.

Texts (quoted where a test relies on them):
- 002: EMA Riichi rules 2008 (Spanish), the ``ema-riichi-2008`` preset;
- 2025: EMA Riichi Rules, 2025 edition, the ``ema-riichi-2025`` preset; its revision notes list what
  changed from the 2016 edition (``ema-riichi-2016``);
- WRC: no WRC text among the rulebooks; ``wrc-riichi`` keeps the 2016 figures but for the head bump
  (RULES.md).
"""

from __future__ import annotations

import pytest

from scoring.rules.base import RuleError
from scoring.rules.registry import get_ruleset
from scoring.rules.riichi import PRESETS
from scoring.rules.tiles import WinContext, value_tiles
from scoring.rules.tiles.riichi import options

RIICHI = ("ema-riichi-2016", "ema-riichi-2025", "wrc-riichi", "ema-riichi-2008")
LATER = ("ema-riichi-2016", "ema-riichi-2025", "wrc-riichi")
RON = {"self_drawn": False, "seat_wind": 1}  # a non-dealer wins on a discard
TSUMO = {"self_drawn": True, "seat_wind": 1}


def paid(preset, tiles, context, **overrides):
    return value_tiles(get_ruleset(preset, overrides or None), tiles, WinContext(**context))


# -- the presets' values ------------------------------------------------------------------------------
def test_preset_values_follow_their_texts():
    """002 preface: "1. Todo Simple sólo tiene valor con una mano oculta. 2. Cuando hay cinco contadores
    en la mesa se requiere un mínimo de dos yaku"; 002 §1.1: "Se utilizan también tres cinco de color
    rojo"; 002 "Manos límite": "Yakuman 13+"; 002 §4.2.5: Renho a yakuman, Dai Suushii "vale dos
    yakuman". 2025 §1.3: "Red fives are not used in EMA riichi mahjong rules"; §4.1.2: "11 or more
    Sanbaiman"; §4.2: "Yakuman are not cumulative"; §4.2.4: Renhō five han; revision notes: "Mangan
    rounding up (kiriage mangan)" and "A pair of both the seat and round wind is treated as 2 minipoints
    instead of 4"; §3.7: tied winners split the sticks, "any decimals are rounded down"; §3.7.1 uma
    15000/5000/−5000/−15000 (002 §3.6.1: 9000/3000/−3000/−9000); §3.4.6 a chombo costs 20000 after the
    uma in a tournament (002 §3.4.6: a mangan paid at the table)."""
    c = {key: PRESETS[key].config for key in RIICHI}
    assert [c[k].counted_yakuman for k in RIICHI] == [False, False, False, True]
    assert [c[k].double_yakuman for k in RIICHI] == [False, False, False, True]
    assert [c[k].open_tanyao for k in RIICHI] == [True, True, True, False]
    assert [c[k].red_fives for k in RIICHI] == [0, 0, 0, 3]
    assert [c[k].renhou for k in RIICHI] == ["mangan", "mangan", "mangan", "yakuman"]
    assert [c[k].double_wind_pair_fu for k in RIICHI] == [4, 2, 4, 4]
    assert [c[k].kiriage_mangan for k in RIICHI] == [False, True, False, False]
    assert [c[k].two_yaku_counters for k in RIICHI] == [None, None, None, 5]
    assert [c[k].multiple_ron for k in RIICHI] == [True, True, False, True]
    assert [c[k].sticks_split for k in RIICHI] == ["exact", "round_down", "exact", "exact"]
    assert [c[k].uma for k in RIICHI] == [(15000, 5000, -5000, -15000)] * 3 + [(9000, 3000, -3000, -9000)]
    assert [c[k].chombo_policy for k in RIICHI] == ["final", "final", "final", "table"]


@pytest.mark.parametrize("preset", RIICHI)
def test_the_library_options_come_from_the_preset(preset):
    """No option of the ``mahjong`` package is left at its default: each is the preset's value."""
    config = PRESETS[preset].config
    o = options(config)
    assert o.has_open_tanyao is config.open_tanyao
    assert o.has_aka_dora is (config.red_fives > 0)
    assert o.has_double_yakuman is config.double_yakuman
    assert o.kiriage is config.kiriage_mangan
    assert o.renhou_as_yakuman is (config.renhou == "yakuman")
    assert o.kazoe_limit == (0 if config.counted_yakuman else 1)  # KAZOE_LIMITED / KAZOE_SANBAIMAN
    assert (o.has_daisharin, o.has_daichisei, o.has_sashikomi_yakuman, o.is_three_player) == (
        False,
        False,
        False,
        False,
    )


# -- a table of hands through every preset ------------------------------------------------------------
# chinitsu 6 + ryanpeikou 3 + riichi 1 + menzen tsumo 1 + pinfu 1 = 12 han, and two dora (indicator 1m)
COUNTED = {"hand": "223344m556677m99m", "winning_tile": "7m", "dora_indicators": ["1m"]}
# big three dragons and all honours, one dragon pung called: two yakuman in one hand
TWO_YAKUMAN = {"hand": "666777111z22z", "melds": ["pung 5z"], "winning_tile": "2z"}
# big four winds, the East pung called, won on the 5m pair
BIG_FOUR_WINDS = {"hand": "222333444z55m", "melds": ["pung 1z"], "winning_tile": "5m"}
# all simples with a called chow: the only yaku is All Simples; 20 + 2 (open 888p pung) → 30 fu
OPEN_TANYAO = {"hand": "234m567p55s", "melds": ["chow 234s", "pung 888p"], "winning_tile": "4m"}
# riichi is the only yaku (kanchan 3s, terminals), one dora (indicator 1m → 2m): 2 han, 1 yaku
ONE_YAKU = {"hand": "123m456p789s24s99m3s", "winning_tile": "3s", "dora_indicators": ["1m"]}
# riichi + menzen tsumo + pinfu + tanyao, fives in dots and the pair: one of them red under 002
PINFU = {"hand": "234m567p234678s55p", "winning_tile": "4s"}
# no yaku at all without renhō (terminals, kanchan wait)
NO_YAKU = {"hand": "123m456p789s24s99m3s", "winning_tile": "3s"}


@pytest.mark.parametrize("preset", RIICHI)
def test_thirteen_han_of_yaku_and_dora(preset):
    """002 "Manos límite": "Yakuman 13+ 16000 8000 16000" (13 han are a yakuman). 2025 §4.1.2: "11 or
    more Sanbaiman 6,000"; §4.2: "No more than eleven han can be obtained in this way" (yaku are not
    counted up to a yakuman). A 14-han self-draw by a non-dealer: 8000/16000 under 2008, 6000/12000
    (a sanbaiman, recorded as 12 han) under 2016, 2025 and WRC."""
    v = paid(preset, COUNTED, {**TSUMO, "riichi": True})
    assert sum(i.value for i in v.items) == 14
    if preset == "ema-riichi-2008":
        assert v.claim == {"han": 13, "fu": None, "yakuman": 1}
        assert (v.payment["tsumo_dealer"], v.payment["tsumo_other"]) == (16000, 8000)
    else:
        assert v.claim == {"han": 12, "fu": None, "yakuman": 1}
        assert (v.payment["tsumo_dealer"], v.payment["tsumo_other"]) == (12000, 6000)
        assert v.summary == "sanbaiman"


@pytest.mark.parametrize("preset", RIICHI)
def test_two_yakuman_pay_as_one(preset):
    """002 §4.2: "Los yakuman no son acumulativos"; 2025 §4.2: "Yakuman are not cumulative". Big three
    dragons with all honours, won on a discard by a non-dealer: 32000 under every preset, not 64000."""
    v = paid(preset, TWO_YAKUMAN, RON)
    assert {i.name for i in v.items if i.unit == "yakuman"} == {"Daisangen", "Tsuu Iisou"}
    assert v.claim == {"han": 13, "fu": None, "yakuman": 1}
    assert v.payment["ron"] == 32000


@pytest.mark.parametrize("preset", RIICHI)
def test_big_four_winds(preset):
    """002 §4.2.5, Cuatro Grandes Vientos: "Esta jugada vale dos yakuman" (and "Dos yakuman" in the
    yaku list): 64000 on a non-dealer's ron. 2025 §4.2.6 lists Big Four Winds among the yakuman with no
    second one, and "Yakuman are not cumulative": 32000 under 2016, 2025 and WRC."""
    v = paid(preset, BIG_FOUR_WINDS, RON)
    if preset == "ema-riichi-2008":
        assert v.claim["yakuman"] == 2 and v.payment["ron"] == 64000
    else:
        assert v.claim["yakuman"] == 1 and v.payment["ron"] == 32000


def test_no_wait_double_on_a_heavenly_hand():
    """002 §4.2.5, Bendición del Cielo TENHO: "No se añade ningún yakuman por esperas de trece fichas,
    nueve fichas o espera simple." Thirteen orphans on a thirteen-sided wait pays two yakuman (96000 to
    the dealer by self-draw), but as the dealer's starting hand it pays one (48000)."""
    orphans = {"hand": "19m19p19s12345677z", "winning_tile": "7z"}
    dealer = {"self_drawn": True, "seat_wind": 0}
    assert paid("ema-riichi-2008", orphans, dealer).claim["yakuman"] == 2
    heavenly = paid("ema-riichi-2008", {**orphans, "first_turn": True}, dealer)
    assert {i.name for i in heavenly.items} == {"Tenhou", "Kokushi Musou Juusanmen Matchi"}
    assert heavenly.claim == {"han": 13, "fu": None, "yakuman": 1}
    assert heavenly.payment["tsumo_dealer"] == 16000


@pytest.mark.parametrize("preset", RIICHI)
def test_all_simples_in_an_open_hand(preset):
    """002 preface and yaku list: "Todo Simple sólo tiene valor con una mano oculta" ("Todo Simple
    TANYAO CHUU Mano oculta sin ningún terminal u honor"): an open all-simples hand has no yaku under
    2008. 2025 §4.2.1: "All Simples TAN'YAO Hand with neither terminals nor honours" (open or not):
    1 han 30 fu, 1000 on a discard."""
    if preset == "ema-riichi-2008":
        with pytest.raises(RuleError) as exc:
            paid(preset, OPEN_TANYAO, RON)
        assert "no yaku" in exc.value.message and exc.value.path == "hand"
    else:
        v = paid(preset, OPEN_TANYAO, RON)
        assert [i.name for i in v.items] == ["Tanyao"]
        assert v.claim == {"han": 1, "fu": 30, "yakuman": 1} and v.payment["ron"] == 1000


@pytest.mark.parametrize("preset", RIICHI)
def test_red_fives(preset):
    """002 §1.1: "Se utilizan también tres cinco de color rojo, uno en cada palo"; §4.1: "al número de
    yaku (al menos uno) se añade el número de cincos rojos". 2025 §1.3: "Red fives are not used in EMA
    riichi mahjong rules". A riichi pinfu tanyao tsumo (4 han 20 fu) with one red five: a mangan under
    2008; refused elsewhere, naming the rule."""
    tiles = {**PINFU, "red_fives": 1}
    if preset == "ema-riichi-2008":
        v = paid(preset, tiles, {**TSUMO, "riichi": True})
        assert {i.name: i.value for i in v.items}["Aka Dora"] == 1
        assert v.claim == {"han": 5, "fu": None, "yakuman": 1}
        assert (v.payment["tsumo_dealer"], v.payment["tsumo_other"]) == (4000, 2000)
    else:
        with pytest.raises(RuleError) as exc:
            paid(preset, tiles, {**TSUMO, "riichi": True})
        assert exc.value.path == "red_fives" and "rule 'red_fives'" in exc.value.message


@pytest.mark.parametrize("preset", RIICHI)
def test_two_yaku_from_five_counters(preset):
    """002 §3.4.11: "En caso de haber cinco o más contadores sobre la mesa, un mínimo de dos yakus son
    necesarios para declarar una victoria." Riichi and one dora make 2 han but 1 yaku: refused from five
    counters under 2008 (the tiles show the dora); four counters, or the later presets, accept it."""
    context = {**RON, "riichi": True, "honba": 5}
    if preset == "ema-riichi-2008":
        with pytest.raises(RuleError) as exc:
            paid(preset, ONE_YAKU, context)
        assert "§3.4.11" in exc.value.message and "Riichi 1" in exc.value.message
        assert paid(preset, ONE_YAKU, {**context, "honba": 4}).claim["han"] == 2
    else:
        assert paid(preset, ONE_YAKU, context).claim == {"han": 2, "fu": 40, "yakuman": 1}


def test_two_yaku_from_five_counters_counts_han_of_yaku():
    """002 counts yaku as han (§4.2: "una mano oculta con Todo Simple y Triple Chow Mezclado vale 4
    yaku si se cierra robando del muro"): riichi, menzen tsumo, pinfu and tanyao pass at five counters."""
    v = paid("ema-riichi-2008", PINFU, {**TSUMO, "riichi": True, "honba": 5})
    assert v.claim == {"han": 4, "fu": 20, "yakuman": 1}


@pytest.mark.parametrize("preset", RIICHI)
def test_renhou(preset):
    """Renhō, a win on a discard before one's first draw in the first uninterrupted go-around. 002
    §4.2.5: "Bendición del Hombre RENHO Ganar con un descarte el primer turno ininterrumpido" among the
    yakuman: 32000. 2025 §4.2.4 "Five han yaku": "Blessing of Man RENHŌ … Cannot be combined with other
    yaku or with dora": a mangan, 8000 (2016 and WRC alike)."""
    tiles = {**NO_YAKU, "first_turn_discard": True}
    v = paid(preset, tiles, RON)
    if preset == "ema-riichi-2008":
        assert v.claim == {"han": 13, "fu": None, "yakuman": 1} and v.payment["ron"] == 32000
        assert [(i.name, i.unit) for i in v.items] == [("Renhou (yakuman)", "yakuman")]
    else:
        assert v.claim == {"han": 5, "fu": None, "yakuman": 1} and v.payment["ron"] == 8000
        assert [(i.name, i.value) for i in v.items] == [("Renhou", 5)]


def test_renhou_mangan_is_not_combined_but_a_better_hand_stands():
    """2025 §4.2.4: renhō "Cannot be combined with other yaku or with dora"; §3.4.3: "the
    highest-scoring possibility is always chosen". Pinfu and tanyao with three dora stay 5 han (a
    mangan either way, shown as renhō); a full flush of 6 han is a haneman, not renhō."""
    with_dora = {**PINFU, "dora_indicators": ["4m", "1m"], "first_turn_discard": True}
    v = paid("ema-riichi-2025", with_dora, RON)
    assert [i.name for i in v.items] == ["Renhou"] and v.payment["ron"] == 8000
    flush = {"hand": "12233445556789m", "winning_tile": "9m", "first_turn_discard": True}
    v = paid("ema-riichi-2025", flush, RON)
    assert "Renhou" not in {i.name for i in v.items}
    assert v.claim["han"] >= 6 and v.payment["ron"] > 8000


@pytest.mark.parametrize(
    ("context", "tiles", "message"),
    [
        (TSUMO, NO_YAKU, "not self-drawn"),
        ({"self_drawn": False, "seat_wind": 0}, NO_YAKU, "dealer cannot"),
        (RON, {"hand": "123m456p24s99m3s", "melds": ["chow 789s"], "winning_tile": "3s"}, "no melds"),
        (RON, {"hand": "123m456p24s99m3s", "melds": ["concealed_kong 1z"], "winning_tile": "3s"}, "no melds"),
    ],
)
def test_renhou_needs_a_discard_before_the_first_draw(context, tiles, message):
    """002 §4.2.5: "Se considera que un kong oculto interrumpe el turno"; 2025 §4.2.4: "before the
    player has had their first turn. A set of turns is interrupted if a tile is claimed for a set, or a
    quad is declared". Self-drawn, by the dealer or after a call, the flag is refused by name."""
    with pytest.raises(RuleError) as exc:
        paid("ema-riichi-2008", {**tiles, "first_turn_discard": True}, context)
    assert exc.value.path == "first_turn_discard" and message in exc.value.message


@pytest.mark.parametrize(
    ("preset", "han", "ron"), [("ema-riichi-2008", 13, 32000), ("ema-riichi-2025", 5, 8000)]
)
def test_a_first_turn_win_on_a_discard_is_renhou(preset, han, ron):
    """002 line 594: "Bendición del Hombre RENHO Ganar con un descarte el primer turno ininterrumpido": a
    win on a discard in the first uninterrupted go-around, marked "won on the first turn", is renhō where
    the rules have it (a yakuman under 2008, five han under 2025 §4.2.4), not refused as a self-draw."""
    v = paid(preset, {**NO_YAKU, "first_turn": True}, RON)
    assert (v.claim["han"], v.payment["ron"]) == (han, ron)
    assert any(i.name.startswith("Renhou") for i in v.items)
    # without renhō in the rules, or by the dealer, a first-turn win is a self-draw (tenhō, chiihō)
    for preset_rules, context in (({"renhou": "none"}, RON), ({}, {"self_drawn": False, "seat_wind": 0})):
        with pytest.raises(RuleError, match="a win on the first draw is self-drawn"):
            paid(preset, {**NO_YAKU, "first_turn": True}, context, **preset_rules)


def test_renhou_none_refuses_the_flag_and_other_rules_refuse_it():
    with pytest.raises(RuleError) as exc:
        paid("ema-riichi-2025", {**NO_YAKU, "first_turn_discard": True}, RON, renhou="none")
    assert exc.value.path == "first_turn_discard" and "rule 'renhou'" in exc.value.message
    with pytest.raises(RuleError) as exc:
        value_tiles(
            get_ruleset("mcr"),
            {"hand": "123m456p789s123s99m", "winning_tile": "9m", "first_turn_discard": True},
            WinContext(self_drawn=False),
        )
    assert exc.value.path == "first_turn_discard"


# -- rulebook 003 (Japanese scoring rules, Spanish): its worked hands ---------------------------------
# Ejemplo 1 and 2: the player on the dealer's right (South), closed, a concealed pung of South, a pair of
# White, winning on a White; the other sets score nothing (here 234m 567p 678s).
EXAMPLE_003 = {"hand": "234m567p678s222z55z", "winning_tile": "5z"}


@pytest.mark.parametrize("preset", RIICHI)
def test_003_example_1(preset):
    """003 "Ejemplos de cálculos", Ejemplo 1: "El jugador a la derecha del crupier sale por
    auto-robando … Los yaku son "auto-elección" (menzenchin-tsumo-hō) y "fichas de honor" (yakuhai), y
    dan un total de dos han. La suma de fu es 20 (fūtei) + 8 (un trío cerrado de Sur) + 2 (un par de
    Blancas) + 2 (espera de par) + 2 (auto-robando) = 34 fu, redondeado a 40 fu. … El crupier paga al
    ganador 640 × 2 = 1.280, redondeados a 1.300 puntos. Los otros dos jugadores … 640, redondeados a
    700 puntos." """
    v = paid(preset, EXAMPLE_003, TSUMO)
    assert [i.value for i in v.items] == [1, 1] and "Menzen Tsumo" in {i.name for i in v.items}
    assert v.claim == {"han": 2, "fu": 40, "yakuman": 1}
    assert (v.payment["tsumo_dealer"], v.payment["tsumo_other"]) == (1300, 700)


@pytest.mark.parametrize("preset", RIICHI)
def test_003_example_2(preset):
    """003 Ejemplo 2: "El mismo jugador sale con la misma mano, excepto que esta vez la ficha ganadora
    fue descartada … El número de fu es 20 (fūtei) + 10 (ron con una mano cerrada) + 8 (un trío cerrado
    de Sur) + 2 (el par de Blancos) + 2 (pareja espera) = 42 fu, redondeado a 50 fu. El punto básico es
    entonces 50 × 2^(2+1) = 400. El jugador que descarta paga al ganador 400 × 4 = 1.600 puntos." """
    v = paid(preset, EXAMPLE_003, RON)
    assert v.claim == {"han": 1, "fu": 50, "yakuman": 1}
    assert v.payment["ron"] == 1600


# "Un han 110 fu": yakuhai (here the red dragon), two concealed kongs of terminals or honours, a pung
# finished by the discard (1s), a pair of East when East is both the seat and the round wind.
HAND_110 = {"hand": "234m11s11z1s", "melds": ["concealed_kong 7z", "concealed_kong 9p"], "winning_tile": "1s"}


@pytest.mark.parametrize("preset", RIICHI)
def test_003_one_han_110_fu(preset):
    """003 "Un han 110 fu": "La mano tiene yakuhai de un han con 20 fu de fūtei, 10 fu de
    menzen-kafu, 32 fu de ankan, 32 fu de ankan, cuatro fu de minkō y cuatro fu de toitsu. El este es
    tanto el viento del asiento del jugador como el viento predominante" → 102 fu, 110; "Algunas reglas
    consideran que un par de este tipo sigue valiendo dos fu, lo que hace que la mano tenga exactamente
    100 fu." 002 §4.1.1 gives 2 minipoints for the seat wind pair and 2 for the round wind pair ("2
    minipuntos por cada una de las siguientes combinaciones"), as 2016 did; 2025 §4.1.1: "A pair of both
    seat and round winds is worth only 2 minipoints". The dealer's ron: 110 fu → 880 × 6 = 5280 → 5300;
    100 fu → 4800."""
    v = paid(preset, HAND_110, {"self_drawn": False, "seat_wind": 0, "round_wind": 0})
    if preset == "ema-riichi-2025":
        assert v.claim == {"han": 1, "fu": 100, "yakuman": 1} and v.payment["ron"] == 4800
    else:
        assert v.claim == {"han": 1, "fu": 110, "yakuman": 1} and v.payment["ron"] == 5300


def test_a_tournament_overrides_the_new_values_one_by_one():
    """A tournament playing another edition changes a value by name; a value no text has is refused,
    naming the rule."""
    ruleset = get_ruleset("wrc-riichi", {"double_wind_pair_fu": 2, "renhou": "none", "open_tanyao": False})
    assert (ruleset.config.double_wind_pair_fu, ruleset.config.renhou) == (2, "none")
    assert ruleset.config.open_tanyao is False
    for overrides, path in (
        ({"double_wind_pair_fu": 3}, "rules.double_wind_pair_fu"),
        ({"renhou": "sometimes"}, "rules.renhou"),
        ({"sticks_split": "up"}, "rules.sticks_split"),
    ):
        with pytest.raises(RuleError) as exc:
            get_ruleset("ema-riichi-2025", overrides)
        assert exc.value.path == path
