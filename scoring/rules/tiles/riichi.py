"""Riichi han, fu, yaku and payment from tiles: a strict adapter over the ``mahjong`` package
(pinned 2.1.0).

The package takes 136-format tile ids (four ids per kind; 16, 52 and 88 are the red fives) and a
``HandConfig``; it reports faults as ``error`` codes, turned into RuleErrors here. The preset decides
kiriage, double yakuman and red fives (``RiichiConfig``); the payment is computed by the product's
own riichi engine from the han and fu, so that a computed value and a claimed one are paid alike.
Open tanyao (kuitan) is allowed, as in the EMA and WRC rules; 13 han or more count as one yakuman.
"""

from __future__ import annotations

from mahjong.constants import FIVE_RED_MAN, FIVE_RED_PIN, FIVE_RED_SOU
from mahjong.hand_calculating.hand import HandCalculator
from mahjong.hand_calculating.hand_config import HandConfig, HandConstants, OptionalRules
from mahjong.meld import Meld as LibMeld

from ..base import RuleError
from ..riichi import RiichiConfig, hand_value
from ..text import gettext_noop
from .notation import Tiles, number_of, suit_of, tile_name
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
}


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


def value(hand: Tiles, context: WinContext, config: RiichiConfig) -> Valuation:
    if hand.red_fives > config.red_fives:
        raise RuleError(
            gettext_noop(
                "red_fives is %(_red_fives)s but these rules play with %(_red_fives2)s red fives (rule 'red_fives')",
                _red_fives=hand.red_fives,
                _red_fives2=config.red_fives,
            ),
            "red_fives",
        )
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
    seat = hand.seat_wind if hand.seat_wind is not None else context.seat_wind
    round_wind = hand.round_wind if hand.round_wind is not None else context.round_wind
    riichi = context.riichi or hand.has("double_riichi")
    first = hand.has("first_turn")
    dealer = context.dealer if context.dealer is not None else seat == 0
    options = OptionalRules(
        has_open_tanyao=True,
        has_aka_dora=config.red_fives > 0,
        has_double_yakuman=config.double_yakuman,
        kazoe_limit=HandConstants.KAZOE_LIMITED,
        kiriage=config.kiriage_mangan,
    )
    if hand.has("ippatsu") and not riichi:
        raise RuleError(
            gettext_noop("ippatsu needs riichi: the winner is not among the riichi players"), "ippatsu"
        )
    if hand.ura_dora_indicators and not riichi:
        raise RuleError(gettext_noop("ura dora count only for a riichi winner"), "ura_dora_indicators")
    hand_config = HandConfig(
        is_tsumo=context.self_drawn,
        is_riichi=riichi and not hand.has("double_riichi"),
        is_daburu_riichi=hand.has("double_riichi"),
        is_ippatsu=hand.has("ippatsu"),
        is_rinshan=hand.has("replacement_tile"),
        is_chankan=hand.has("robbing_kong"),
        is_haitei=hand.has("last_tile") and context.self_drawn,
        is_houtei=hand.has("last_tile") and not context.self_drawn,
        is_tenhou=first and dealer,
        is_chiihou=first and not dealer,
        player_wind=27 + seat,
        round_wind=27 + round_wind,
        options=options,
    )
    indicator_ids = _Ids(set())
    dora = [indicator_ids.take(t) for t in hand.dora_indicators]
    ura = [indicator_ids.take(t) for t in hand.ura_dora_indicators]
    result = HandCalculator.estimate_hand_value(
        all_ids, win_id, melds=melds, dora_indicators=dora, ura_dora_indicators=ura, config=hand_config
    )
    if result.error:
        message = _ERRORS.get(result.error, f"the riichi calculator refused the hand ({result.error})")
        raise RuleError(
            gettext_noop(
                "%(_message)s: winning tile %(_value)s", _message=message, _value=tile_name(hand.winning_tile)
            ),
            "hand",
        )
    han = int(result.han)
    fu = int(result.fu)
    open_hand = not hand.is_concealed
    items = []
    for y in result.yaku:
        if y.is_yakuman:
            worth = y.han_open if open_hand and y.han_open else y.han_closed
            items.append(Item(y.name, int(worth), "yakuman" if worth >= 13 else "han"))
            continue
        worth = y.han_open if open_hand else y.han_closed
        if y.name in ("Dora", "Aka Dora", "Ura Dora"):
            worth = _count_dora(y.name, hand, result)
        items.append(Item(y.name, int(worth or 0), "han"))
    yakuman = 1
    if any(i.unit == "yakuman" for i in items):
        yakuman = 2 if han >= 26 and config.double_yakuman else 1
        han = 13
        fu_value: int | None = None
    else:
        han = min(han, 13)
        fu_value = fu if han < 5 else None
    paid = hand_value(han, fu_value, dealer=dealer, kiriage=config.kiriage_mangan, yakuman=yakuman)
    claim = {"han": han, "fu": fu_value, "yakuman": yakuman}
    if fu_value is None:
        summary = paid.limit or f"{han} han"
    else:
        summary = f"{han} han {fu_value} fu" + (f" ({paid.limit})" if paid.limit else "")
    payment = {"ron": paid.ron, "tsumo_dealer": paid.tsumo_dealer, "tsumo_other": paid.tsumo_other}
    return Valuation("riichi", claim, tuple(items), summary, payment)


def _count_dora(name: str, hand: Tiles, result) -> int:
    """The han of a dora kind (the package reports them as yaku carrying their count)."""
    for y in result.yaku:
        if y.name == name:
            return int(y.han_open if not hand.is_concealed and y.han_open else y.han_closed)
    return 0
