"""Results as text for pages: a hand in one line, where in the game it was played, what is left on the
table. No queries here; ``scoring.selectors`` reads and calls these."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from django.utils.translation import gettext as _

from scoring.rules.base import Ruleset
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


def describe_hand(rules: Ruleset, data: Mapping[str, Any], seats: Sequence[str]) -> str:
    """A short line for one stored hand (players as seat numbers), with the players' names, in the shape
    of the ruleset's hand form (``Ruleset.hand_form``; a form without a description is an error)."""
    try:
        describe = _DESCRIBE[rules.hand_form]
    except KeyError:
        raise LookupError(
            f"no description of a hand of the {rules.key} rules ({rules.hand_form!r})"
        ) from None
    return describe(data, seats)


def _describe_han_fu(data: Mapping[str, Any], seats: Sequence[str]) -> str:
    result = data.get("result")
    if result == "ron":
        winners = data.get("winners") or []
        loser = _who(seats, data.get("loser"))
        winners = [w for w in winners if isinstance(w, Mapping)]
        parts = [f"{_who(seats, w.get('player'))} {riichi_value(w.get('han'), w.get('fu'))}" for w in winners]
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
        for w in winners:
            text += _liability(seats, w, data.get("loser"), several=len(parts) > 1)
    elif result == "tsumo":
        text = _("Tsumo: %(winner)s %(value)s") % {
            "winner": _who(seats, data.get("winner")),
            "value": riichi_value(data.get("han"), data.get("fu")),
        }
        if data.get("liable") is not None:
            text += " · " + _("paid by %(player)s (liability)") % {"player": _who(seats, data["liable"])}
    elif result == "draw" and data.get("abortive"):
        tenpai = data.get("tenpai") or []
        text = (
            _("Abortive draw, tenpai: %(players)s") % {"players": _names(seats, tenpai)}
            if tenpai
            else _("Abortive draw")
        )
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


def _liability(seats: Sequence[str], win: Mapping[str, Any], loser: Any, *, several: bool) -> str:
    """A ron winner's liable player, who pays half the hand (nothing more to say when they discarded)."""
    liable = win.get("liable")
    if liable is None or liable == loser:
        return ""
    text = _("half paid by %(player)s (liability)") % {"player": _who(seats, liable)}
    return " · " + (f"{_who(seats, win.get('player'))}: {text}" if several else text)


def _describe_values(data: Mapping[str, Any], seats: Sequence[str]) -> str:
    result = data.get("result")
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


def _describe_fan(data: Mapping[str, Any], seats: Sequence[str]) -> str:
    result = data.get("result")
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


# A hand's line by ``Ruleset.hand_form`` (tests/rules/test_contract.py checks every ruleset has one).
_DESCRIBE = {
    "fan": _describe_fan,
    "fan_colours": _describe_fan,
    "han_fu": _describe_han_fu,
    "values": _describe_values,
}


def round_label(
    rules: Ruleset, seats: Sequence[Any], dealer: int | None, wind: str | None, honba: int
) -> str:
    """Where in the game a hand is played: "East 2, 1 counter", "South round, Ana G. deals"."""
    if wind is None:
        return _("Game over")
    wind_name = str(WIND_NAMES.get(wind, wind))
    if rules.numbered_rounds:
        text = f"{wind_name} {(dealer or 0) + 1}"
        if honba:
            text += ", " + (_("%(n)s counter") if honba == 1 else _("%(n)s counters")) % {"n": honba}
        return text
    if not rules.shows_dealer or dealer is None:
        return _("%(wind)s round") % {"wind": wind_name}
    return _("%(wind)s round, %(dealer)s deals") % {"wind": wind_name, "dealer": seats[dealer].short}


def after_hand(rules: Ruleset, honba: int, sticks: int) -> str:
    """Counters and riichi sticks left on the table after a hand (rules with counters and sticks)."""
    if not rules.counters_and_sticks:
        return ""
    parts = []
    if honba:
        parts.append((_("%(n)s counter") if honba == 1 else _("%(n)s counters")) % {"n": honba})
    if sticks:
        parts.append((_("%(n)s riichi stick") if sticks == 1 else _("%(n)s riichi sticks")) % {"n": sticks})
    return ", ".join(parts)


def needs_referee(rows: Sequence[Any]) -> list[Any]:
    """The tables of a session that wait for a referee, as the referees' overviews flag them: those with a
    held hand (its claimed value differs from its tiles) first, then those submitted and waiting for
    confirmation; each group by table number."""
    held = [row for row in rows if row.held]
    waiting = [row for row in rows if row.entry == "submitted" and not row.held]
    return sorted(held, key=lambda r: r.number) + sorted(waiting, key=lambda r: r.number)
