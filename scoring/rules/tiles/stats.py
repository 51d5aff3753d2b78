"""Tournament statistics from recorded hands: per player (wins, self-draws, wins on a discard, deal-ins,
draws, average and biggest hand, riichi rate), the fan or yaku most often made where tiles are known,
and the biggest hands (the best-hand ranking). Plain data in and out, no Django.

Hands are compared by what they pay: MCR and Salamanca by fan, classical by the winner's hand value,
riichi by base points (a yakuman above a mangan above 3 han 30 fu).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..riichi import base_points


@dataclass(frozen=True)
class Win:
    winner: int
    discarder: int | None  # None: self-drawn (or not recorded: classical)
    size: int  # comparable within the family
    label: str  # "12 fan", "3 han 30 fu", "mangan", "320 points"
    value: int  # fan, han or points, for the average
    items: tuple[str, ...] = ()  # fan or yaku names where tiles are known


@dataclass
class PlayerStats:
    key: str
    name: str
    hands: int = 0
    wins: int = 0
    self_drawn: int = 0
    discard_wins: int = 0
    deal_ins: int = 0
    draws: int = 0
    riichi: int = 0
    value_total: int = 0
    biggest: Win | None = None

    @property
    def average(self) -> float | None:
        return round(self.value_total / self.wins, 2) if self.wins else None

    @property
    def riichi_rate(self) -> float | None:
        return round(self.riichi / self.hands, 3) if self.hands else None


@dataclass(frozen=True)
class BigHand:
    key: str
    name: str
    win: Win
    session: int
    table: int
    hand: int


@dataclass
class TournamentStats:
    family: str
    players: list[PlayerStats] = field(default_factory=list)
    items: list[tuple[str, int]] = field(default_factory=list)  # (fan or yaku, times), most frequent first
    biggest: list[BigHand] = field(default_factory=list)  # the biggest hands, biggest first
    hands: int = 0
    with_tiles: int = 0

    @property
    def declares_riichi(self) -> bool:
        """Players declare riichi: the statistics show how often each did."""
        return self.family == "riichi"

    def best_hand_ranking(self) -> list[PlayerStats]:
        """Players by their biggest hand (MTS's best-hand list); players without a win are left out."""
        ranked = [p for p in self.players if p.biggest is not None]
        return sorted(ranked, key=lambda p: (-p.biggest.size, p.key))


def _names(check: Mapping[str, Any] | None, winner: int) -> tuple[str, ...]:
    if not check:
        return ()
    for w in check.get("wins", []):
        if w.get("winner") == winner:
            return tuple(i["name"] for i in w["computed"]["items"])
    return ()


def riichi_size(han: int, fu: int | None, yakuman: int = 1) -> tuple[int, str]:
    base, limit = base_points(min(han, 13), fu if han < 5 else None, yakuman=yakuman)
    if limit:
        return base, limit
    return base, f"{han} han {fu} fu"


def hand_wins(family: str, hand: Mapping[str, Any], check: Mapping[str, Any] | None = None) -> list[Win]:
    """The wins of one stored hand (seats 0..3)."""
    result = hand.get("result")
    if family in ("mcr", "salamanca") and result == "win" and isinstance(hand.get("fan"), int):
        fan = hand["fan"]
        winner = hand["winner"]
        return [Win(winner, hand.get("discarder"), fan, f"{fan} fan", fan, _names(check, winner))]
    if family == "classical" and result == "win":
        winner = hand["winner"]
        values = {str(k): v for k, v in (hand.get("values") or {}).items()}
        value = values.get(str(winner))
        if not isinstance(value, int):
            return []
        return [Win(winner, None, value, f"{value} points", value, _names(check, winner))]
    if family == "riichi" and result in ("tsumo", "ron"):
        entries = (
            [(hand, None)]
            if result == "tsumo"
            else [(w, hand.get("loser")) for w in hand.get("winners") or []]
        )
        out = []
        for entry, loser in entries:
            winner = entry.get("winner", entry.get("player"))
            han = entry.get("han")
            if not isinstance(han, int) or winner is None:
                continue
            size, label = riichi_size(han, entry.get("fu"), entry.get("yakuman") or 1)
            out.append(Win(winner, loser, size, label, han, _names(check, winner)))
        return out
    return []


def compute(
    family: str,
    names: Mapping[str, str],
    tables: Sequence[
        tuple[int, int, Sequence[str], Sequence[tuple[int, Mapping[str, Any], Mapping[str, Any] | None]]]
    ],
    *,
    top: int = 10,
) -> TournamentStats:
    """``tables``: (session, table, seat keys E S W N, [(hand number, hand, tiles check)]) of every table
    entered hand by hand; ``names`` maps player keys to names."""
    stats = TournamentStats(family)
    players: dict[str, PlayerStats] = {}
    items: Counter = Counter()
    big: list[BigHand] = []

    def player(key: str) -> PlayerStats:
        if key not in players:
            players[key] = PlayerStats(key, names.get(key, key))
        return players[key]

    for session, table, keys, hands in tables:
        for number, hand, check in hands:
            if hand.get("result") == "chombo":
                continue
            stats.hands += 1
            if check:
                stats.with_tiles += 1
            for key in keys:
                player(key).hands += 1
            if hand.get("result") == "draw":
                for key in keys:
                    player(key).draws += 1
            for seat in hand.get("riichi") or []:
                if isinstance(seat, int) and 0 <= seat < len(keys):
                    player(keys[seat]).riichi += 1
            for win in hand_wins(family, hand, check):
                p = player(keys[win.winner])
                p.wins += 1
                p.value_total += win.value
                if family != "classical":
                    if win.discarder is None:
                        p.self_drawn += 1
                    else:
                        p.discard_wins += 1
                        player(keys[win.discarder]).deal_ins += 1
                if p.biggest is None or win.size > p.biggest.size:
                    p.biggest = win
                items.update(win.items)
                big.append(BigHand(p.key, p.name, win, session, table, number))
    stats.players = sorted(players.values(), key=lambda p: p.key)
    stats.items = sorted(items.items(), key=lambda kv: (-kv[1], kv[0]))
    stats.biggest = sorted(big, key=lambda b: (-b.win.size, b.session, b.table, b.hand))[:top]
    return stats
