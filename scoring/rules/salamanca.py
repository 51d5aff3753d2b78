"""Salamanca "Mayón" rules, version 5.4 (9 November 2019).

Hands (art. 27–28): the winner's fan give x points (a table, up to 12 fan). Self-drawn: each loser
pays x, the winner gains 3x. On a discard: the discarder pays x and the two others x/2, the winner
gains 2x. The dealer pays and receives like anyone else.

Game (art. 4–8): rounds East, South, West, North. The dealer keeps the deal after a win of his
own or a hand without winner; otherwise the deal passes to the next seat. A round ends when its
first dealer deals again; the game ends after the North round.

Liability (art. 35–37): a hand may list ``liable`` players, each with a share of the winner's
total: ``all`` (art. 35, 37: the discarder pays for everyone), ``half`` (art. 36: one player
exposed to the big hand) or ``third`` (art. 36: two exposures). What the shares leave is paid in the
usual proportions of the hand (discarder x, others x/2; or x each when self-drawn).

Penalties: a false declaration after tiles were seen (art. 33) pays each other player the points
of 4 fan. Optional pot (art. 39, off by default): 20 points per hand that does not pass the deal.

Colours (art. 32, optional): played with colours, a hand scores "solo de dos colores" and "solo de un
color", and "solo de un palo" is 5 fan instead of 6. Some tiles have the colours the article fixes; the
others have the colours printed on the tile set in use, which the setting ``colours`` describes (see
:func:`parse_colours`). Empty: played without colours.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from . import common, numbers
from .base import SEATS, WINDS, Config, Four, GameResult, HandStep, Number, RuleError, Ruleset
from .text import gettext_noop

RULES_NAME = "Salamanca"

SHARES = {"all": Fraction(1), "half": Fraction(1, 2), "third": Fraction(1, 3)}
# how many entries of one kind a hand may carry (art. 35: one sole payer; art. 36: halves when one
# player was exposed, thirds when two were; the last half or third may be the discarder's)
SHARE_COUNTS = {"all": (1,), "half": (1, 2), "third": (2, 3)}
# the penalty has one amount whatever the kind of false declaration recorded
FALSE_HU_VARIANTS = ("", "false_declaration", "below_minimum", "invalid_hand")

# Art. 32, colours. Tiles are indices 0..33 (0–8 characters, 9–17 dots, 18–26 bamboo, 27–30 winds,
# 31–33 white, green and red dragons). Colours: r red, g green, k black (blue counts as black).
FIXED_COLOURS: dict[int, frozenset[str]] = {
    **{t: frozenset("rk") for t in range(9)},  # characters: red and black
    9: frozenset("rg"),  # one of dots ("as de oros"): red and green
    18: frozenset("rgk"),  # one of bamboo ("as de bastos"): red, green and black
    **{t: frozenset("k") for t in range(27, 31)},  # winds: black
    31: frozenset(),  # white dragon: no colour
    32: frozenset("g"),  # green dragon
    33: frozenset("r"),  # red dragon
}
# the tiles whose colours depend on the set: 2–9 of bamboo, then 2–9 of dots
SET_TILES = tuple(f"{n}s" for n in range(2, 10)) + tuple(f"{n}p" for n in range(2, 10))
COLOUR_LETTERS = {"r": "r", "g": "g", "v": "g", "k": "k", "n": "k", "b": "k", "a": "k"}
MAX_COLOURS_CHARS = 200


def _tile_index(name: str) -> int:
    number, suit = int(name[0]), name[1]
    return (9 if suit == "p" else 18) + number - 1


def parse_colours(text: str) -> dict[int, frozenset[str]]:
    """The colours of every tile under the setting ``colours``; empty when played without colours.

    The setting names the colours of the 16 tiles a set decides, as ``tile:letters`` separated by spaces
    or commas, for example ``2s:g 3s:g 4s:g 5s:rg … 9p:rgk``: r red (rojo), g or v green (verde), k, n, b or
    a black (negro; blue, azul, counts as black). Every one of 2s–9s and 2p–9p must be named once.
    """
    text = (text or "").strip()
    if not text:
        return {}
    if len(text) > MAX_COLOURS_CHARS:
        raise RuleError(
            gettext_noop("rule 'colours' is at most %(_n)s characters", _n=MAX_COLOURS_CHARS), "rules.colours"
        )
    table = dict(FIXED_COLOURS)
    seen: set[str] = set()
    for token in text.replace(",", " ").split():
        name, _sep, letters = token.partition(":")
        name = name.strip().lower()
        if name not in SET_TILES:
            raise RuleError(
                gettext_noop(
                    "rule 'colours': %(name)s is not one of the tiles a set decides (2s–9s, 2p–9p)", name=name
                ),
                "rules.colours",
            )
        if name in seen:
            raise RuleError(gettext_noop("rule 'colours' names %(name)s twice", name=name), "rules.colours")
        colours = set()
        for letter in letters.strip().lower():
            if letter not in COLOUR_LETTERS:
                raise RuleError(
                    gettext_noop(
                        "rule 'colours': %(letter)s of %(_name)s is not a colour (r red, g green, k black)",
                        letter=letter,
                        _name=name,
                    ),
                    "rules.colours",
                )
            colours.add(COLOUR_LETTERS[letter])
        if not colours:
            raise RuleError(
                gettext_noop("rule 'colours': %(_name)s needs at least one colour", _name=name),
                "rules.colours",
            )
        seen.add(name)
        table[_tile_index(name)] = frozenset(colours)
    missing = [t for t in SET_TILES if t not in seen]
    if missing:
        raise RuleError(
            gettext_noop("rule 'colours' does not give the colours of %(_tiles)s", _tiles=", ".join(missing)),
            "rules.colours",
        )
    return table


def format_colours(table: Mapping[int, frozenset[str]]) -> str:
    """The setting's text for a table of colours (the inverse of :func:`parse_colours`)."""
    order = "rgk"
    return " ".join(
        f"{name}:{''.join(c for c in order if c in table[_tile_index(name)])}" for name in SET_TILES
    )


@dataclass(frozen=True)
class SalamancaConfig(Config):
    # art. 27: points x by fan (index = fan); more fan than listed score the last value
    fan_points: tuple[int, ...] = (2, 4, 8, 16, 32, 48, 64, 96, 128, 192, 256, 384, 512)
    min_fan: int = 0  # art. 27–28 pay from 0 fan on a discard
    min_fan_self_drawn: int = 1  # art. 32: a self-drawn win always holds the fan of "cerrar robando"
    rounds: int = 4  # art. 4: East, South, West, North
    false_declaration_fan: int = 4  # art. 33: the offender pays each other player the points of 4 fan
    pot: bool = False  # art. 39 (experimental, by agreement)
    pot_points: int = 20  # art. 39: per contribution
    colours: str = ""  # art. 32: the colours of the set's tiles (parse_colours); empty: without colours

    def __post_init__(self) -> None:
        if not self.fan_points or any(p <= 0 for p in self.fan_points):
            raise RuleError(
                gettext_noop("rule 'fan_points' must list positive points from 0 fan up"), "rules.fan_points"
            )
        if list(self.fan_points) != sorted(self.fan_points):
            raise RuleError(
                gettext_noop("rule 'fan_points' must not decrease as the fan grow"), "rules.fan_points"
            )
        for name in ("min_fan", "min_fan_self_drawn", "false_declaration_fan", "pot_points"):
            if getattr(self, name) < 0:
                raise RuleError(
                    gettext_noop("rule '%(_name)s' cannot be negative", _name=name), f"rules.{name}"
                )
        if not 1 <= self.rounds <= 4:
            raise RuleError(gettext_noop("rule 'rounds' must be 1 to 4"), "rules.rounds")
        parse_colours(self.colours)

    @property
    def colour_table(self) -> dict[int, frozenset[str]]:
        """Colours of each tile index when played with colours; empty otherwise."""
        return parse_colours(self.colours)


@dataclass(frozen=True)
class Liability:
    player: int
    share: str


class SalamancaRuleset(common.GamePointsRuleset):
    family = "salamanca"
    hand_form = "fan_colours"
    hand_partial = "scoring/_hand_mcr.html"
    tile_flags = ("last_tile", "replacement_tile", "robbing_kong", "first_turn", "dealer_first_discard")
    tile_extras = frozenset({"kongs_in_a_row"})
    config: SalamancaConfig
    rules_name = RULES_NAME

    def points(self, fan: int) -> int:
        """Art. 27: the points x of ``fan`` fan."""
        table = self.config.fan_points
        return table[min(fan, len(table) - 1)]

    def score_bound(self) -> int:
        """A game of every round twice over (the dealer keeping the deal), each hand the largest payment
        (art. 27) doubled for the dealer, from three players."""
        return self.config.rounds * 4 * 2 * 3 * 2 * self.config.fan_points[-1]

    # -- one hand -------------------------------------------------------------------------
    def _liabilities(self, raw: Any, winner: int, discarder: int | None) -> tuple[Liability, ...]:
        if raw is None:
            return ()
        if isinstance(raw, (str, bytes, Mapping)) or not isinstance(raw, Sequence):
            raise RuleError(
                gettext_noop("liable must be a list of {player, share}, not %(raw)s", raw=raw), "liable"
            )
        entries = []
        for i, item in enumerate(raw):
            path = f"liable[{i}]"
            if not isinstance(item, Mapping):
                raise RuleError(
                    gettext_noop(
                        "a liable entry must be an object with player and share, not %(item)s", item=item
                    ),
                    path,
                )
            try:
                player = common.seat(common.field(item, "player"), "the liable player", "player")
                share = common.field(item, "share")
                if not isinstance(share, str) or share not in SHARES:
                    raise RuleError(
                        gettext_noop(
                            "share %(share)s is not one of %(_items)s (art. 35–37)",
                            share=share,
                            _items=", ".join(SHARES),
                        ),
                        "share",
                    )
            except RuleError as exc:
                raise exc.within(path) from None
            if player == winner:
                raise RuleError(
                    gettext_noop("the winner cannot be liable for his own hand"), f"{path}.player"
                )
            entries.append(Liability(player, share))
        if not entries:
            return ()
        kinds = {e.share for e in entries}
        if len(kinds) > 1:
            raise RuleError(
                gettext_noop(
                    "liable shares mix %(_items)s; the payment is split into either halves (one exposure) or thirds (two exposures), or one player pays all (art. 35–36)",
                    _items=" and ".join(sorted(kinds)),
                ),
                "liable",
            )
        kind = entries[0].share
        if len(entries) not in SHARE_COUNTS[kind]:
            allowed = " or ".join(str(n) for n in SHARE_COUNTS[kind])
            raise RuleError(
                gettext_noop(
                    "%(_count)s liable entries of '%(_kind)s' do not fit art. 35–36 (%(_allowed)s expected)",
                    _count=len(entries),
                    _kind=kind,
                    _allowed=allowed,
                ),
                "liable",
            )
        if sum(SHARES[e.share] for e in entries) == 1 and (
            discarder is None or entries[-1].player != discarder
        ):
            raise RuleError(
                gettext_noop(
                    "liable shares cover the whole payment, which only happens when the last of them is the player whose discard completed the hand (art. 35–37)"
                ),
                "liable",
            )
        return tuple(entries)

    def hand_deltas(self, hand: Any, dealer: int = 0) -> tuple[Four, int | None, str]:
        """The point changes of one hand (pot aside), its winner (None for a draw) and a note.

        The dealer pays and receives like anyone else; the argument is there for a common signature.
        Error paths are relative to the hand.
        """
        hand = common.hand_mapping(hand)
        common.known_fields(
            hand, ("result", "winner", "discarder", "fan", "liable", "tiles", "ruling"), RULES_NAME
        )
        result = common.hand_result(hand, ("win", "draw"), RULES_NAME)
        if result == "draw":
            return (0, 0, 0, 0), None, "no winner"
        cfg = self.config
        winner, discarder = common.win_parties(hand)
        fan = common.whole(common.field(hand, "fan"), "fan", "fan", limit=numbers.FAN_LIMIT)
        if fan < cfg.min_fan:
            raise RuleError(
                gettext_noop(
                    "fan %(_fan)s is below the Salamanca minimum of %(_min_fan)s",
                    _fan=fan,
                    _min_fan=cfg.min_fan,
                ),
                "fan",
            )
        if discarder is None and fan < cfg.min_fan_self_drawn:
            raise RuleError(
                gettext_noop(
                    "fan %(_fan)s is too few for a self-drawn win, which scores at least %(_min_fan_self_drawn)s (art. 32: cerrar robando)",
                    _fan=fan,
                    _min_fan_self_drawn=cfg.min_fan_self_drawn,
                ),
                "fan",
            )
        liable = self._liabilities(hand.get("liable"), winner, discarder)
        x = Fraction(self.points(fan))
        usual = [Fraction(0)] * SEATS
        for s in range(SEATS):
            if s != winner:
                usual[s] = x if discarder is None or s == discarder else x / 2
        total = sum(usual)
        covered = sum((SHARES[e.share] for e in liable), Fraction(0))
        pays = [u * (1 - covered) for u in usual]
        for e in liable:
            pays[e.player] += total * SHARES[e.share]
        deltas = [-p for p in pays]
        deltas[winner] = total
        how = "self-drawn" if discarder is None else f"on seat {discarder}'s discard"
        note = f"seat {winner} wins {how}, {fan} fan ({common.fmt(x)} points)"
        if liable:
            note += "; liable: " + ", ".join(f"seat {e.player} {e.share}" for e in liable)
        return common.exact_all(deltas), winner, note  # type: ignore[return-value]

    # -- the game ---------------------------------------------------------------------------
    def play_game(self, hands: Sequence[Mapping[str, Any]]) -> GameResult:
        cfg = self.config
        hands = common.hand_list(hands)
        rotation = common.DealerRotation(rounds=cfg.rounds)
        scores: tuple[Number, ...] = (0, 0, 0, 0)
        pot = [0] * SEATS  # each seat's contributions to the pot (art. 39)
        steps = []
        for i, hand in enumerate(hands):
            if rotation.over:
                raise RuleError(
                    gettext_noop(
                        "the game ended after the %(_value)s round (art. 8); hand %(_number)s is one too many",
                        _value=common.round_name(WINDS[cfg.rounds - 1]),
                        _number=i + 1,
                    ),
                    f"hands[{i}]",
                )
            dealer = rotation.dealer
            try:
                deltas, winner, note = self.hand_deltas(hand, dealer)
            except RuleError as exc:
                raise exc.within(f"hands[{i}]") from None
            keep = winner is None or winner == dealer
            deltas = list(deltas)
            if cfg.pot:
                if winner is None:
                    for s in range(SEATS):
                        if s != dealer:
                            deltas[s] -= cfg.pot_points
                            pot[s] += cfg.pot_points
                elif keep:
                    deltas[dealer] -= cfg.pot_points
                    pot[dealer] += cfg.pot_points
                elif any(pot):
                    note += f"; takes the pot of {sum(pot)}"
                    deltas[winner] += sum(pot)
                    pot = [0] * SEATS
            rotation.advance(keep=keep)
            scores = common.running(scores, deltas)
            steps.append(
                HandStep(
                    deltas=common.exact_all(deltas),  # type: ignore[arg-type]
                    scores=scores,  # type: ignore[arg-type]
                    dealer=rotation.next_dealer(),
                    round_wind=rotation.round_wind,
                    sticks=sum(pot) // cfg.pot_points if cfg.pot and cfg.pot_points else 0,
                    note=note,
                )
            )
        if any(pot):
            # a game cut short (by time) with a pot on the table: each seat takes back what it put in
            scores = common.running(scores, pot)
        return GameResult(scores=scores, steps=tuple(steps))  # type: ignore[arg-type]

    # -- penalties ------------------------------------------------------------------------
    def false_hu(self, seat: int, variant: str = "") -> Four:
        """Art. 33: after other players' tiles were seen, the offender pays each of them the points of 4 fan."""
        offender = common.seat(seat, "the offender", "player")
        if variant is None:
            variant = ""
        if not isinstance(variant, str) or variant not in FALSE_HU_VARIANTS:
            raise RuleError(
                gettext_noop(
                    "false declaration variant %(variant)s is not one of %(_items)s",
                    variant=variant,
                    _items=", ".join(repr(v) for v in FALSE_HU_VARIANTS),
                ),
                "variant",
            )
        each = self.points(self.config.false_declaration_fan)
        return tuple(-each * (SEATS - 1) if s == offender else each for s in range(SEATS))  # type: ignore[return-value]


PRESETS: dict[str, Ruleset] = {"salamanca": SalamancaRuleset("salamanca", SalamancaConfig())}

__all__ = ["PRESETS", "SHARES", "Liability", "SalamancaConfig", "SalamancaRuleset"]
