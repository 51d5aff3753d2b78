"""Results as text for pages: a hand in one line, where in the game it was played, what is left on the
table. No queries here; ``scoring.selectors`` reads and calls these."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from django.utils.translation import gettext as _

from tournaments.presenters import SHARE_NAMES, WIND_NAMES


def _names(seats: Sequence[str], values: Iterable[Any]) -> str:
    out = []
    for v in values:
        try:
            out.append(seats[int(v)])
        except (TypeError, ValueError, IndexError):
            out.append(str(v))
    return ", ".join(out)


def _who(seats: Sequence[str], value: Any) -> str:
    return _names(seats, [value])


def riichi_value(han: Any, fu: Any) -> str:
    try:
        han = int(han)
    except (TypeError, ValueError):
        return "?"
    for least, name in ((13, "yakuman"), (11, "sanbaiman"), (8, "baiman"), (6, "haneman"), (5, "mangan")):
        if han >= least:
            return name
    return _("%(han)s han %(fu)s fu") % {"han": han, "fu": fu}


def describe_hand(family: str, data: Mapping[str, Any], seats: Sequence[str]) -> str:
    """A short line for one stored hand (players as seat numbers), with the players' names."""
    result = data.get("result")
    if family == "riichi":
        if result == "ron":
            winners = data.get("winners") or []
            parts = [
                f"{_who(seats, w.get('player'))} {riichi_value(w.get('han'), w.get('fu'))}"
                for w in winners
                if isinstance(w, Mapping)
            ]
            loser = _who(seats, data.get("loser"))
            if len(parts) == 1:
                text = _("Ron: %(winner)s from %(loser)s") % {"winner": parts[0], "loser": loser}
            elif len(parts) == 2:
                text = _("Double ron from %(loser)s: %(winners)s") % {
                    "loser": loser,
                    "winners": "; ".join(parts),
                }
            else:
                text = _("Triple ron from %(loser)s: %(winners)s") % {
                    "loser": loser,
                    "winners": "; ".join(parts),
                }
        elif result == "tsumo":
            text = _("Tsumo: %(winner)s %(value)s") % {
                "winner": _who(seats, data.get("winner")),
                "value": riichi_value(data.get("han"), data.get("fu")),
            }
        elif result == "draw":
            tenpai = data.get("tenpai") or []
            text = (
                _("Draw, tenpai: %(players)s") % {"players": _names(seats, tenpai)}
                if tenpai
                else _("Draw, nobody tenpai")
            )
        elif result == "chombo":
            return _("Chombo by %(player)s (hand replayed)") % {"player": _who(seats, data.get("player"))}
        else:
            return str(result)
        if data.get("riichi"):
            text += " · " + _("riichi: %(players)s") % {"players": _names(seats, data["riichi"])}
        return text
    if family == "classical":
        if result != "win":
            return _("Drawn hand")
        winner = _who(seats, data.get("winner"))
        if data.get("limit_hand"):
            return _("%(winner)s mah jong, limit hand") % {"winner": winner}
        values = data.get("values") or {}
        value = values.get(str(data.get("winner")), values.get(data.get("winner"), "?"))
        others = ", ".join(
            f"{_who(seats, k)} {v}" for k, v in sorted(values.items()) if str(k) != str(data.get("winner"))
        )
        text = _("%(winner)s mah jong, %(value)s points") % {"winner": winner, "value": value}
        return f"{text} ({others})" if others else text
    # MCR and Salamanca
    if result != "win":
        return _("Draw")
    winner = _who(seats, data.get("winner"))
    if data.get("discarder") is None:
        text = _("%(winner)s self-drawn, %(fan)s fan") % {"winner": winner, "fan": data.get("fan")}
    else:
        text = _("%(winner)s wins on %(discarder)s's discard, %(fan)s fan") % {
            "winner": winner,
            "discarder": _who(seats, data.get("discarder")),
            "fan": data.get("fan"),
        }
    liable = data.get("liable") or []
    if liable:
        shares = ", ".join(
            f"{_who(seats, item.get('player'))} ({SHARE_NAMES.get(item.get('share'), item.get('share'))})"
            for item in liable
            if isinstance(item, Mapping)
        )
        text += " · " + _("liable: %(players)s") % {"players": shares}
    return text


def round_label(family: str, seats: Sequence[Any], dealer: int | None, wind: str | None, honba: int) -> str:
    """Where in the game a hand is played: "East 2, 1 counter", "South round, Ana G. deals"."""
    if wind is None:
        return _("Game over")
    wind_name = str(WIND_NAMES.get(wind, wind))
    if family == "riichi":
        text = f"{wind_name} {(dealer or 0) + 1}"
        if honba:
            text += ", " + (_("%(n)s counter") if honba == 1 else _("%(n)s counters")) % {"n": honba}
        return text
    if family == "mcr" or dealer is None:
        return _("%(wind)s round") % {"wind": wind_name}
    return _("%(wind)s round, %(dealer)s deals") % {"wind": wind_name, "dealer": seats[dealer].short}


def after_hand(family: str, honba: int, sticks: int) -> str:
    """Counters and riichi sticks left on the table after a hand (riichi only)."""
    if family != "riichi":
        return ""
    parts = []
    if honba:
        parts.append((_("%(n)s counter") if honba == 1 else _("%(n)s counters")) % {"n": honba})
    if sticks:
        parts.append((_("%(n)s riichi stick") if sticks == 1 else _("%(n)s riichi sticks")) % {"n": sticks})
    return ", ".join(parts)
