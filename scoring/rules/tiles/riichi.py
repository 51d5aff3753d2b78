"""Riichi han, fu, yaku and payment from tiles: a strict adapter over the ``mahjong`` package
(pinned 2.1.0).

The package takes 136-format tile ids (four ids per kind; 16, 52 and 88 are the red fives) and a
``HandConfig``; it reports faults as ``error`` codes, turned into RuleErrors here. Every option of the
package is set from the preset (``RiichiConfig``), never left to the package's defaults: open tanyao,
red fives, counted yakuman, double yakuman, kiriage, renhō. What the package cannot express is done
here: yakuman are not cumulative (two yakuman pay as one; a hand the text makes worth two pays two),
renhō as a mangan not combined with other yaku or dora, a double wind pair worth 2 minipoints, and the
two yaku needed from five counters (002 §3.4.11). The payment is computed by the product's own riichi
engine from the han and fu, so that a computed value and a claimed one are paid alike.
"""

from __future__ import annotations

from dataclasses import dataclass

from mahjong.constants import FIVE_RED_MAN, FIVE_RED_PIN, FIVE_RED_SOU
from mahjong.hand_calculating.fu import FuCalculator
from mahjong.hand_calculating.hand import HandCalculator
from mahjong.hand_calculating.hand_config import HandConfig, HandConstants, OptionalRules
from mahjong.hand_calculating.yaku_list.yakuman import (
    DaburuChuurenPoutou,
    DaburuKokushiMusou,
    SuuankouTanki,
    Tenhou,
)
from mahjong.meld import Meld as LibMeld

from ..base import RuleError
from ..riichi import RiichiConfig, hand_value
from ..text import Names, gettext_noop
from .notation import Tiles, is_dragon, is_wind, number_of, suit_of, tile_name
from .result import Item, Valuation, WinContext

LIBRARY = "mahjong"
LIBRARY_VERSION = "2.1.0"
_RED = (FIVE_RED_MAN, FIVE_RED_PIN, FIVE_RED_SOU)
_ERRORS = {
    "winning_tile_not_in_hand": "the winning tile is not in the hand",
    "hand_not_winning": "the tiles do not make a winning hand",
    "no_yaku": "the hand has no yaku",
    "open_hand_riichi_not_allowed": "riichi cannot be declared with an open hand",
    "open_hand_daburi_not_allowed": "double riichi cannot be declared with an open hand",
    "ippatsu_without_riichi_not_allowed": "ippatsu needs riichi",
    "chankan_with_tsumo_not_allowed": "robbing a kong is a win on another player's tile, not self-drawn",
    "rinshan_without_tsumo_not_allowed": "a win on the replacement tile is self-drawn",
    "haitei_with_rinshan_not_allowed": "the last tile of the wall cannot be a replacement tile",
    "houtei_with_chankan_not_allowed": "the last discard cannot be a robbed kong",
    "tenhou_not_as_dealer_not_allowed": "a win on the first draw as dealer needs the dealer",
    "tenhou_without_tsumo_not_allowed": "a win on the first draw is self-drawn",
    "tenhou_with_meld_not_allowed": "a win on the first draw has no melds",
    "chiihou_without_tsumo_not_allowed": "a win on the first draw is self-drawn",
    "chiihou_with_meld_not_allowed": "a win on the first draw has no melds",
    "renhou_as_dealer_not_allowed": "renhō is a win before one's first draw: the dealer cannot score it",
    "renhou_with_tsumo_not_allowed": "renhō is a win on a discard, not self-drawn",
    "renhou_with_meld_not_allowed": "renhō needs an uninterrupted first go-around: no melds",
}
#: the package's yaku names, in romaji, marked for the catalogue: a Spanish page adds the Spanish name of
#: rulebook 002 §4.2 ("Tanyao (todo simple)"); the names with English words (yakuhai) are glossed too
GLOSSED_NAMES: tuple[str, ...] = tuple(
    text.template
    for text in (
        gettext_noop("Menzen Tsumo"),
        gettext_noop("Tanyao"),
        gettext_noop("Iipeiko"),
        gettext_noop("Sanshoku Doujun"),
        gettext_noop("Ittsu"),
        gettext_noop("Chantai"),
        gettext_noop("Rinshan Kaihou"),
        gettext_noop("Chankan"),
        gettext_noop("Haitei Raoyue"),
        gettext_noop("Houtei Raoyui"),
        gettext_noop("Chiitoitsu"),
        gettext_noop("Sanshoku Doukou"),
        gettext_noop("San Ankou"),
        gettext_noop("San Kantsu"),
        gettext_noop("Toitoi"),
        gettext_noop("Honitsu"),
        gettext_noop("Shou Sangen"),
        gettext_noop("Honroutou"),
        gettext_noop("Junchan"),
        gettext_noop("Ryanpeikou"),
        gettext_noop("Chinitsu"),
        gettext_noop("Nagashi Mangan"),
        gettext_noop("Kokushi Musou"),
        gettext_noop("Kokushi Musou Juusanmen Matchi"),
        gettext_noop("Chuuren Poutou"),
        gettext_noop("Daburu Chuuren Poutou"),
        gettext_noop("Tenhou"),
        gettext_noop("Chiihou"),
        gettext_noop("Renhou"),
        gettext_noop("Renhou (yakuman)"),
        gettext_noop("Suu Ankou"),
        gettext_noop("Suu Ankou Tanki"),
        gettext_noop("Suu Kantsu"),
        gettext_noop("Ryuuiisou"),
        gettext_noop("Chinroutou"),
        gettext_noop("Tsuu Iisou"),
        gettext_noop("Daisangen"),
        gettext_noop("Shousuushii"),
        gettext_noop("Dai Suushii"),
        gettext_noop("Yakuhai (chun)"),
        gettext_noop("Yakuhai (haku)"),
        gettext_noop("Yakuhai (hatsu)"),
        gettext_noop("Yakuhai (round wind east)"),
        gettext_noop("Yakuhai (round wind south)"),
        gettext_noop("Yakuhai (round wind west)"),
        gettext_noop("Yakuhai (round wind north)"),
        gettext_noop("Yakuhai (seat wind east)"),
        gettext_noop("Yakuhai (seat wind south)"),
        gettext_noop("Yakuhai (seat wind west)"),
        gettext_noop("Yakuhai (seat wind north)"),
        gettext_noop("Double Riichi"),
    )
)
#: the package's names of the dora kinds (they count as han, not as yaku)
DORA_NAMES = ("Dora", "Aka Dora", "Ura Dora")
#: yakuman counted twice for their wait (002 §4.2.5: thirteen-wait orphans, nine-wait gates, pair-wait four
#: concealed pungs), which 002 does not add to a heavenly hand ("No se añade ningún yakuman por esperas de
#: trece fichas, nueve fichas o espera simple")
WAIT_DOUBLES = (DaburuKokushiMusou.name, DaburuChuurenPoutou.name, SuuankouTanki.name)
MANGAN_HAN = 5


class _Ids:
    """Hands out distinct 136-format ids, red fives first when asked for."""

    def __init__(self, red_suits: set[int]):
        self.used: dict[int, int] = {}
        self.red_suits = red_suits

    def take(self, tile: int) -> int:
        n = self.used.get(tile, 0)
        self.used[tile] = n + 1
        base = tile * 4
        if tile < 27 and number_of(tile) == 5:
            red = _RED[suit_of(tile)]
            ids = [red, red + 1, red + 2, red + 3]  # red five is the first id of its kind
            if suit_of(tile) not in self.red_suits:
                ids = [red + 1, red + 2, red + 3, red]
            return ids[n]
        return base + n


def options(config: RiichiConfig) -> OptionalRules:
    """The package's options, every one from the preset or fixed by the rules texts."""
    return OptionalRules(
        has_open_tanyao=config.open_tanyao,
        has_aka_dora=config.red_fives > 0,
        has_double_yakuman=config.double_yakuman,
        kazoe_limit=HandConstants.KAZOE_LIMITED if config.counted_yakuman else HandConstants.KAZOE_SANBAIMAN,
        kiriage=config.kiriage_mangan,
        fu_for_open_pinfu=True,  # 002 §4.1.1 "pinfu abierto", 2025 §4.1.1: an open 20 fu hand is 30
        fu_for_pinfu_tsumo=False,  # 002 §4.1.1, 2025 §4.1.1: no self-draw minipoints with pinfu
        renhou_as_yakuman=config.renhou == "yakuman",
        has_daisharin=False,  # not a yaku in any EMA or WRC text
        has_daisharin_other_suits=False,
        has_sashikomi_yakuman=False,
        limit_to_sextuple_yakuman=True,  # no effect: yakuman are not cumulative here
        paarenchan_needs_yaku=True,  # no paarenchan in the texts
        has_daichisei=False,
        is_three_player=False,
    )


def value(hand: Tiles, context: WinContext, config: RiichiConfig) -> Valuation:
    _check_red_fives(hand, config)
    tiles = _library_tiles(hand)
    win = _situation(hand, context, config)
    result = _estimate(hand, context, config, tiles, win, is_renhou=win.renhou and config.renhou == "yakuman")
    # 2025 §4.2.4: renhō is five han and "cannot be combined with other yaku or with dora"; the hand
    # takes the higher of renhō alone and its other yaku (2025 §3.4.3, the highest-scoring possibility):
    # those count only as a yakuman or from six han
    renhou_alone = result.error == HandCalculator.ERR_NO_YAKU or (
        not result.error and not _has_yakuman(result) and int(result.han) <= MANGAN_HAN
    )
    if win.renhou and config.renhou == "mangan" and renhou_alone:
        return _valuation(MANGAN_HAN, None, 1, (Item("Renhou", MANGAN_HAN, "han"),), win.dealer, config)
    if result.error:
        message = _ERRORS.get(result.error, f"the riichi calculator refused the hand ({result.error})")
        raise RuleError(
            gettext_noop(
                "%(_message)s: winning tile %(_value)s", _message=message, _value=tile_name(hand.winning_tile)
            ),
            "hand",
        )
    fu = _fu(result, config)
    items, yakuman_worth = _items(hand, result)
    _check_two_yaku(items, context, config, bool(yakuman_worth))
    han, fu_value, yakuman = _limits(int(result.han), fu, yakuman_worth, config)
    return _valuation(han, fu_value, yakuman, tuple(items), win.dealer, config)


def _check_red_fives(hand: Tiles, config: RiichiConfig) -> None:
    if hand.red_fives > config.red_fives:
        raise RuleError(
            gettext_noop(
                "red_fives is %(_red_fives)s but these rules play with %(_red_fives2)s red fives (rule 'red_fives')",
                _red_fives=hand.red_fives,
                _red_fives2=config.red_fives,
            ),
            "red_fives",
        )


@dataclass(frozen=True)
class _LibraryTiles:
    """The hand in the library's tile ids: every tile, the winning one, the melds."""

    all_ids: list[int]
    win_id: int
    melds: list[LibMeld]


def _library_tiles(hand: Tiles) -> _LibraryTiles:
    fives = sorted({suit_of(t) for t in hand.all_tiles if t < 27 and number_of(t) == 5})
    ids = _Ids(set(fives[: hand.red_fives]))
    melds = []
    for m in hand.melds:
        meld_ids = [ids.take(t) for t in m.tiles]
        kind = {"chow": LibMeld.CHI, "pung": LibMeld.PON}.get(m.kind, LibMeld.KAN)
        melds.append(LibMeld(meld_type=kind, tiles=meld_ids, opened=not m.concealed))
    concealed_ids = [ids.take(t) for t in hand.concealed]
    win_id = concealed_ids[list(hand.concealed).index(hand.winning_tile)]
    all_ids = concealed_ids + [i for m in melds for i in m.tiles]
    return _LibraryTiles(all_ids=all_ids, win_id=win_id, melds=melds)


@dataclass(frozen=True)
class _Situation:
    """Where and when the hand is won: winds, riichi, a first-turn win, the dealer, renhō."""

    seat: int
    round_wind: int
    riichi: bool
    first: bool
    dealer: bool
    renhou: bool


def _situation(hand: Tiles, context: WinContext, config: RiichiConfig) -> _Situation:
    seat = hand.seat_wind if hand.seat_wind is not None else context.seat_wind
    round_wind = hand.round_wind if hand.round_wind is not None else context.round_wind
    riichi = context.riichi or hand.has("double_riichi")
    first = hand.has("first_turn")
    dealer = context.dealer if context.dealer is not None else seat == 0
    renhou = hand.has("first_turn_discard")
    if first and not context.self_drawn and not dealer and config.renhou != "none":
        # a first-turn win on a discard is renhō where the rules have it (002 line 594, "Bendición del
        # Hombre RENHO Ganar con un descarte el primer turno ininterrumpido"; 2025 §4.2.4)
        first, renhou = False, True
    if hand.has("ippatsu") and not riichi:
        raise RuleError(
            gettext_noop("ippatsu needs riichi: the winner is not among the riichi players"), "ippatsu"
        )
    if hand.ura_dora_indicators and not riichi:
        raise RuleError(gettext_noop("ura dora count only for a riichi winner"), "ura_dora_indicators")
    if renhou:
        _check_renhou(hand, context, config, dealer)
    return _Situation(seat, round_wind, riichi, first, dealer, renhou)


def _estimate(
    hand: Tiles,
    context: WinContext,
    config: RiichiConfig,
    tiles: _LibraryTiles,
    win: _Situation,
    *,
    is_renhou: bool,
):
    hand_config = HandConfig(
        is_tsumo=context.self_drawn,
        is_riichi=win.riichi and not hand.has("double_riichi"),
        is_daburu_riichi=hand.has("double_riichi"),
        is_ippatsu=hand.has("ippatsu"),
        is_rinshan=hand.has("replacement_tile"),
        is_chankan=hand.has("robbing_kong"),
        is_haitei=hand.has("last_tile") and context.self_drawn,
        is_houtei=hand.has("last_tile") and not context.self_drawn,
        is_tenhou=win.first and win.dealer,
        is_chiihou=win.first and not win.dealer,
        is_renhou=is_renhou,
        player_wind=27 + win.seat,
        round_wind=27 + win.round_wind,
        options=options(config),
    )
    indicator_ids = _Ids(set())
    dora = [indicator_ids.take(t) for t in hand.dora_indicators]
    ura = [indicator_ids.take(t) for t in hand.ura_dora_indicators]
    return HandCalculator.estimate_hand_value(
        tiles.all_ids,
        tiles.win_id,
        melds=tiles.melds,
        dora_indicators=dora,
        ura_dora_indicators=ura,
        config=hand_config,
    )


def _items(hand: Tiles, result) -> tuple[list[Item], list[int]]:
    """The yaku the calculator found with their worth, and the worth of each yakuman among them."""
    open_hand = not hand.is_concealed
    items = []
    yakuman_worth = []
    heavenly = any(y.name == Tenhou.name for y in result.yaku)
    for y in result.yaku:
        if y.is_yakuman:
            worth = y.han_open if open_hand and y.han_open else y.han_closed
            yakuman_worth.append(13 if heavenly and y.name in WAIT_DOUBLES else int(worth))
            items.append(Item(y.name, int(worth), "yakuman" if worth >= 13 else "han"))
            continue
        worth = y.han_open if open_hand else y.han_closed
        if y.name in DORA_NAMES:
            worth = _count_dora(y.name, hand, result)
        items.append(Item(y.name, int(worth or 0), "han"))
    return items, yakuman_worth


def _limits(han: int, fu: int | None, yakuman_worth: list[int], config: RiichiConfig):
    """Han, fu (None from five han) and how many yakuman the hand pays, after the limit hands."""
    yakuman = 1
    if yakuman_worth:
        # "Los yakuman no son acumulativos" (002), "Yakuman are not cumulative" (2025 §4.2): two yakuman
        # pay as one; only a hand the text makes worth two (002: big four winds, the thirteen-, nine-
        # and pair-wait yakuman) pays two, where the preset has double yakuman
        yakuman = 2 if config.double_yakuman and max(yakuman_worth) >= 26 else 1
        han, fu_value = 13, None
    elif han >= 13 and config.counted_yakuman:
        han, fu_value = 13, None  # 002 "Manos límite": Yakuman 13+
    elif han >= 13:
        han, fu_value = 12, None  # 2025 §4.1.2: "11 or more: Sanbaiman"; 13 would record a yakuman
    else:
        fu_value = fu if han < 5 else None
    return han, fu_value, yakuman


def _valuation(
    han: int, fu_value: int | None, yakuman: int, items: tuple[Item, ...], dealer: bool, config: RiichiConfig
) -> Valuation:
    paid = hand_value(han, fu_value, dealer=dealer, kiriage=config.kiriage_mangan, yakuman=yakuman)
    claim = {"han": han, "fu": fu_value, "yakuman": yakuman}
    if fu_value is None:
        summary = paid.limit or f"{han} han"
    else:
        summary = f"{han} han {fu_value} fu" + (f" ({paid.limit})" if paid.limit else "")
    payment = {"ron": paid.ron, "tsumo_dealer": paid.tsumo_dealer, "tsumo_other": paid.tsumo_other}
    return Valuation("riichi", claim, items, summary, payment)


def _has_yakuman(result) -> bool:
    return any(y.is_yakuman for y in result.yaku or ())


def _check_renhou(hand: Tiles, context: WinContext, config: RiichiConfig, dealer: bool) -> None:
    if config.renhou == "none":
        raise RuleError(
            gettext_noop("renhō is not a yaku under these rules (rule 'renhou')"), "first_turn_discard"
        )
    if context.self_drawn:
        raise RuleError(_ERRORS["renhou_with_tsumo_not_allowed"], "first_turn_discard")
    if dealer:
        raise RuleError(_ERRORS["renhou_as_dealer_not_allowed"], "first_turn_discard")
    if hand.melds:
        # any call, a concealed kong included, interrupts the first go-around (002 §4.2.5: "Se considera
        # que un kong oculto interrumpe el turno"; 2025 §4.2.4)
        raise RuleError(_ERRORS["renhou_with_meld_not_allowed"], "first_turn_discard")


def _check_two_yaku(items: list[Item], context: WinContext, config: RiichiConfig, yakuman: bool) -> None:
    """002 §3.4.11: "En caso de haber cinco o más contadores sobre la mesa, un mínimo de dos yakus son
    necesarios para declarar una victoria." 002 counts yaku as han ("una mano oculta con Todo Simple y
    Triple Chow Mezclado vale 4 yaku", §4.2) and adds red fives and dora to them only afterwards (§4.1:
    "al número de yaku (al menos uno) se añade el número de cincos rojos, el número de fichas dora"), so
    the win needs 2 han from yaku, dora and red fives not counted. A yakuman has them."""
    limit = config.two_yaku_counters
    if limit is None or context.honba < limit or yakuman:
        return
    yaku = [i for i in items if i.name not in DORA_NAMES]
    if sum(i.value for i in yaku) < 2:
        raise RuleError(
            gettext_noop(
                "with %(_honba)s counters on the table a win needs 2 yaku (2 han without dora), and these tiles have %(_names)s (rulebook 002 §3.4.11)",
                _honba=context.honba,
                _names=Names((i.name, i.value) for i in yaku) if yaku else gettext_noop("none"),
            ),
            "hand",
        )


def _fu(result, config: RiichiConfig) -> int:
    """The package's fu, with a double wind pair worth 2 minipoints where the preset says so (2025
    §4.1.1: "A pair of both seat and round winds is worth only 2 minipoints")."""
    fu = int(result.fu)
    details = result.fu_details or []
    if config.double_wind_pair_fu == 2 and any(
        d.get("reason") == FuCalculator.DOUBLE_VALUED_PAIR for d in details
    ):
        raw = sum(int(d["fu"]) for d in details) - 2
        fu = -(-raw // 10) * 10
    return fu


def _count_dora(name: str, hand: Tiles, result) -> int:
    """The han of a dora kind (the package reports them as yaku carrying their count)."""
    for y in result.yaku:
        if y.name == name:
            return int(y.han_open if not hand.is_concealed and y.han_open else y.han_closed)
    return 0


def liable_yakuman_of(hand: Tiles) -> str | None:
    """The yakuman of ``hand`` that can make a player liable, with its sets called from discards:
    "big three dragons" with three called dragon sets, "big four winds" with four called wind sets
    (2025 §3.3.7: "when the other triplets/quads have already been called"; 002 §3.3.6 "pung/kong
    descubierto"); None otherwise. A concealed kong is not called."""
    called = [m.tiles[0] for m in hand.melds if m.kind in ("pung", "kong")]
    if sum(1 for t in called if is_dragon(t)) == 3:
        return "big three dragons"
    if sum(1 for t in called if is_wind(t)) == 4:
        return "big four winds"
    return None
