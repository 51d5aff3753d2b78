"""Forms of the result-entry pages: one hand form per ruleset family, totals, and the small action forms.

Forms check the shape of what was typed (numbers, required choices); the rules themselves (minimum fan,
fu that exist for a han, liability shares, the end of the game) are checked by the rule engine through the
services, whose ``RuleError`` is shown next to the field its path names (:meth:`EntryForm.add_rule_error`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from scoring.rules.base import RuleError, Ruleset
from scoring.rules.numbers import SCORE_LIMIT, read_number
from scoring.rules.riichi import FU_VALUES, valid_fu
from scoring.rules.tiles import liable_yakuman_of
from scoring.tiles import forms as tile_forms
from tournaments.models import WIND_LETTERS
from tournaments.presenters import wind_letter

INDEX = re.compile(r"\[(\d+)\]")


class EntryForm(forms.Form):
    """Every write form carries the table version it was rendered with (optimistic concurrency)."""

    version = forms.IntegerField(widget=forms.HiddenInput, min_value=1)

    #: rule error paths (after the hand's own prefix) → form field
    path_fields: dict[str, str] = {}

    def field_for_path(self, path: str) -> str | None:
        """The field a RuleError path names: its last part without indices, or an explicit mapping."""
        path = re.sub(r"^hands\[\d+\]\.?", "", path or "")
        if path in self.path_fields:
            return self.path_fields[path]
        # try the path with its indices (winners[1].han), then without them (fan, scores)
        last = path.split(".")[-1]
        if last in self.path_fields:
            return self.path_fields[last]
        bare = INDEX.sub("", last)
        if bare in self.path_fields:
            return self.path_fields[bare]
        if bare in self.fields:
            return bare
        return None

    def add_rule_error(self, exc: RuleError) -> None:
        name = self.field_for_path(exc.path)
        self.add_error(name if name in self.fields else None, exc.message)


class SeatChoiceMixin:
    """Player choices by seat: ``E · Ana G.``."""

    def seat_choices(self, seats: Sequence[str], blank: str | None = None) -> list[tuple[str, str]]:
        choices = [(str(i), f"{wind_letter(WIND_LETTERS[i])} · {name}") for i, name in enumerate(seats)]
        return ([("", blank)] if blank is not None else []) + choices


def _seat(value: Any) -> int | None:
    return None if value in (None, "") else int(value)


# -- hand forms ---------------------------------------------------------------------------------------


class HandForm(SeatChoiceMixin, EntryForm):
    """Base of the family hand forms: ``hand()`` gives the hand in the archive's shape with seats."""

    results: Sequence[tuple[str, Any]] = ()
    liable_slots = 0  # liable players a hand may name (Salamanca art. 35–37)

    @property
    def has_liability(self) -> bool:
        return self.liable_slots > 0

    def __init__(
        self,
        *args,
        seats: Sequence[str],
        rules=None,
        reason_required: bool = False,
        tiles_mode: str = "off",
        **kwargs,
    ):
        super().__init__(*args, **kwargs)
        self.seats = list(seats)
        self.rules = rules
        self.tiles_mode = tiles_mode
        if tiles_mode != "off":
            tile_forms.add_tile_fields(self, rules, tiles_mode)
        self.fields["result"] = forms.ChoiceField(
            label=_("Result"), choices=self.results, widget=forms.RadioSelect, initial=self.results[0][0]
        )
        self.order_fields(["result"])
        self.partial = rules.hand_partial if rules is not None else ""  # the template that draws it
        if reason_required:
            self.fields["reason"] = forms.CharField(
                label=_("Reason for the change"),
                max_length=500,
                widget=forms.TextInput(attrs={"autocomplete": "off"}),
            )

    def require(self, cleaned: dict, *names: str) -> None:
        for name in names:
            if cleaned.get(name) in (None, "", []):
                self.add_error(name, _("This field is required for this result."))

    # -- tiles (scoring.tiles) ------------------------------------------------------------------------
    @property
    def has_tile_fields(self) -> bool:
        return "tiles_hand" in self.fields

    def tiles(self) -> dict | None:
        return tile_forms.tiles_of(self.cleaned_data) if self.has_tile_fields else None

    def has_tiles(self, cleaned: dict) -> bool:
        return self.has_tile_fields and tile_forms.tiles_of(cleaned) is not None

    def full_hand(self) -> dict:
        """``hand()`` with the tiles on its win (riichi ron: on the first winner)."""
        hand = self.hand()
        tiles = self.tiles()
        if tiles is None:
            return hand
        if hand.get("result") == "ron" and hand.get("winners"):
            hand["winners"][0]["tiles"] = tiles
        elif hand.get("result") in ("win", "tsumo"):
            hand["tiles"] = tiles
        return hand

    def clean(self):
        cleaned = super().clean()
        if self.has_tiles(cleaned) and cleaned.get("result") not in ("win", "tsumo", "ron"):
            self.add_error("tiles_hand", _("Tiles belong to a win."))
        return cleaned

    def add_rule_error(self, exc: RuleError) -> None:
        name = tile_forms.field_for_tiles_path(exc.path)
        if name and name in self.fields:
            self.add_error(name, exc.message)
            return
        super().add_rule_error(exc)

    # Each family's form defines hand() -> the archive-shaped hand, and initial_from(data) -> initial values.


class MCRHandForm(HandForm):
    fan_label = _("Fan (without flowers)")
    results = (("win", _("Win")), ("draw", _("Draw (no winner)")))

    def __init__(self, *args, seats, **kwargs):
        super().__init__(*args, seats=seats, **kwargs)
        self.fields["winner"] = forms.ChoiceField(
            label=_("Winner"), choices=self.seat_choices(seats, "—"), required=False
        )
        self.fields["discarder"] = forms.ChoiceField(
            label=_("Discarder"),
            choices=[("", "—"), ("self", _("Self-drawn")), *self.seat_choices(seats)],
            required=False,
        )
        self.fields["fan"] = forms.IntegerField(
            label=self.fan_label,
            min_value=0,
            max_value=1000,
            required=False,
            widget=forms.NumberInput(attrs={"inputmode": "numeric", "min": 0}),
        )
        self.order_fields(["result", "winner", "discarder", "fan"])

    def clean(self):
        cleaned = super().clean()
        if cleaned.get("result") == "win":
            self.require(cleaned, "winner", "discarder", *(() if self.has_tiles(cleaned) else ("fan",)))
        return cleaned

    def hand(self) -> dict:
        c = self.cleaned_data
        if c["result"] == "draw":
            return {"result": "draw"}
        discarder = None if c["discarder"] == "self" else int(c["discarder"])
        hand = {"result": "win", "winner": int(c["winner"]), "discarder": discarder}
        if c.get("fan") is not None:
            hand["fan"] = c["fan"]
        return hand

    @classmethod
    def initial_from(cls, data):
        if data.get("result") != "win":
            return {"result": "draw"}
        discarder = data.get("discarder")
        return {
            "result": "win",
            "winner": str(data.get("winner")),
            "discarder": "self" if discarder is None else str(discarder),
            "fan": data.get("fan"),
        }


SHARE_CHOICES = (("", "—"), ("all", _("all")), ("half", _("half")), ("third", _("a third")))


class SalamancaHandForm(MCRHandForm):
    fan_label = _("Fan")
    results = (("win", _("Win")), ("draw", _("No winner")))
    liable_slots = 3
    path_fields = {
        "liable": "liable1",
        "liable[0].player": "liable1",
        "liable[0].share": "share1",
        "liable[1].player": "liable2",
        "liable[1].share": "share2",
        "liable[2].player": "liable3",
        "liable[2].share": "share3",
        "liable[0]": "liable1",
        "liable[1]": "liable2",
        "liable[2]": "liable3",
    }

    def __init__(self, *args, seats, **kwargs):
        super().__init__(*args, seats=seats, **kwargs)
        for n in range(1, self.liable_slots + 1):
            self.fields[f"liable{n}"] = forms.ChoiceField(
                label=_("Liable player %(n)s") % {"n": n},
                choices=self.seat_choices(seats, "—"),
                required=False,
            )
            self.fields[f"share{n}"] = forms.ChoiceField(
                label=_("Share %(n)s") % {"n": n}, choices=SHARE_CHOICES, required=False
            )

    def liable_pairs(self):
        return [(self[f"liable{n}"], self[f"share{n}"]) for n in range(1, self.liable_slots + 1)]

    def liability_open(self) -> bool:
        return any(
            self[name].value() or self[name].errors
            for n in range(1, self.liable_slots + 1)
            for name in (f"liable{n}", f"share{n}")
        )

    def clean(self):
        cleaned = super().clean()
        for n in range(1, self.liable_slots + 1):
            player, share = cleaned.get(f"liable{n}"), cleaned.get(f"share{n}")
            if bool(player) != bool(share) and cleaned.get("result") == "win":
                self.add_error(
                    f"share{n}" if player else f"liable{n}", _("Give both the player and the share.")
                )
        return cleaned

    def hand(self) -> dict:
        hand = super().hand()
        if hand["result"] != "win":
            return hand
        liable = [
            {"player": int(self.cleaned_data[f"liable{n}"]), "share": self.cleaned_data[f"share{n}"]}
            for n in range(1, self.liable_slots + 1)
            if self.cleaned_data.get(f"liable{n}") and self.cleaned_data.get(f"share{n}")
        ]
        if liable:
            hand["liable"] = liable
        return hand

    @classmethod
    def initial_from(cls, data):
        initial = super().initial_from(data)
        for n, item in enumerate(data.get("liable") or [], start=1):
            initial[f"liable{n}"] = str(item.get("player"))
            initial[f"share{n}"] = item.get("share")
        return initial


HAN_CHOICES = [
    ("", "—"),
    *[(str(h), str(h)) for h in range(1, 5)],
    ("5", _("5 · mangan")),
    ("6", _("6 · haneman")),
    ("7", _("7 · haneman")),
    ("8", _("8 · baiman")),
    ("9", _("9 · baiman")),
    ("10", _("10 · baiman")),
    ("11", _("11 · sanbaiman")),
    ("12", _("12 · sanbaiman")),
    ("13", _("13+ · yakuman")),
]
FU_CHOICES = [("", "—"), *[(str(f), str(f)) for f in FU_VALUES]]


def han_choices(rules: Any) -> list[tuple[str, Any]]:
    """The han a winner may be given. 13 records a yakuman under every preset; where 13 han or more of
    yaku and dora are not a yakuman (no counted yakuman: EMA 2016, 2025, WRC) such a hand is 12, a
    sanbaiman, and the choices say so."""
    if rules.counted_yakuman():
        return HAN_CHOICES
    return [*HAN_CHOICES[:-2], ("12", _("12 or more · sanbaiman")), ("13", _("yakuman"))]


WINNER_BLOCKS = ("", "2", "3")


def fu_options(han: Any, win: str) -> list[int] | None:
    """The fu a hand of ``han`` won by ``win`` can have; ``[]`` from 5 han up (fu not asked);
    ``None`` when the han is not known yet (every fu value is offered)."""
    try:
        han = int(han)
    except (TypeError, ValueError):
        return None
    if han < 1:
        return None
    return valid_fu(han, "tsumo" if win == "tsumo" else "ron")


#: the names of the yakuman a ruleset makes a player liable for (``Ruleset.liable_yakuman``), as pages say them
YAKUMAN_NAMES = {"big three dragons": _("big three dragons"), "big four winds": _("big four winds")}


class RiichiHandForm(HandForm):
    results = (("ron", _("Ron")), ("tsumo", _("Tsumo")), ("draw", _("Draw")), ("chombo", _("Chombo")))
    path_fields = {
        "loser": "loser",
        "winner": "winner",
        "han": "han",
        "fu": "fu",
        "yakuman": "han",
        "riichi": "riichi",
        "tenpai": "tenpai",
        "player": "offender",
        "liable": "liable",
        "abortive": "abortive",
    }

    def __init__(self, *args, seats, **kwargs):
        super().__init__(*args, seats=seats, **kwargs)
        f = self.fields
        f["riichi"] = forms.MultipleChoiceField(
            label=_("Riichi declared this hand"),
            choices=self.seat_choices(seats),
            widget=forms.CheckboxSelectMultiple,
            required=False,
        )
        f["loser"] = forms.ChoiceField(
            label=_("Discarder"), choices=self.seat_choices(seats, "—"), required=False
        )
        for block in WINNER_BLOCKS:
            n = block or "1"
            f[f"winner{block}"] = forms.ChoiceField(
                label=_("Winner") if not block else _("Winner %(n)s") % {"n": n},
                choices=self.seat_choices(seats, "—"),
                required=False,
            )
            f[f"han{block}"] = forms.ChoiceField(
                label=_("Han"), choices=han_choices(self.rules), required=False
            )
            f[f"fu{block}"] = forms.ChoiceField(label=_("Fu"), choices=FU_CHOICES, required=False)
        f["tenpai"] = forms.MultipleChoiceField(
            label=_("Tenpai at the draw"),
            choices=self.seat_choices(seats),
            widget=forms.CheckboxSelectMultiple,
            required=False,
        )
        f["offender"] = forms.ChoiceField(
            label=_("Player who made the chombo"), choices=self.seat_choices(seats, "—"), required=False
        )
        yakuman = self.rules.liable_yakuman() if self.rules is not None else ()
        if yakuman:  # liability (pao), where the rules have it
            names = ", ".join(str(YAKUMAN_NAMES.get(name, name)) for name in yakuman)
            f["liable"] = forms.ChoiceField(
                label=_("Liable player (pao)"),
                choices=self.seat_choices(seats, "—"),
                required=False,
                help_text=_(
                    "Only for a yakuman win of %(yakuman)s: the player who fed the last called set. They pay "
                    "the whole hand on a tsumo and half of it on a ron."
                )
                % {"yakuman": names},
            )
        if self.rules is not None and self.rules.abortive_draws():
            f["abortive"] = forms.BooleanField(
                label=_("Abortive draw (no noten payments)"),
                required=False,
                help_text=_("Tick who showed tenpai: the dealer keeps the deal when tenpai."),
            )
        self._winner_blocks: list[str] = []

    def liability_shown(self) -> bool:
        """The liable player is asked where the rules have liability; once tiles are given, only when they
        hold a yakuman the rules make someone liable for (or a liable player was already named)."""
        if "liable" not in self.fields:
            return False
        if self["liable"].value() or self["liable"].errors:
            return True
        tiles = self.tiles() if getattr(self, "cleaned_data", None) is not None else None
        return tiles is None or liable_yakuman_of(self.rules, tiles) is not None

    # the value the page shows in a fu select, and the options it offers
    def result_value(self) -> str:
        value = self["result"].value()
        return value if value in dict(self.results) else "ron"

    def fu_block(self, block: str) -> dict:
        han = self[f"han{block}"].value()
        win = "ron" if block else self.result_value()
        options = fu_options(han, win)
        return {
            "block": block,
            "name": f"fu{block}",
            "field": self[f"fu{block}"],
            "selected": str(self[f"fu{block}"].value() or ""),
            "options": FU_VALUES if options is None else options,
            "needed": options != [],
        }

    def more_winners_open(self) -> bool:
        return any(
            self[f"{name}{b}"].value() or self[f"{name}{b}"].errors
            for b in ("2", "3")
            for name in ("winner", "han", "fu")
        )

    def winner_blocks(self) -> list[dict]:
        return [
            {
                "block": block,
                "winner": self[f"winner{block}"],
                "han": self[f"han{block}"],
                "fu": self.fu_block(block),
            }
            for block in WINNER_BLOCKS
        ]

    def field_for_path(self, path: str) -> str | None:
        path = re.sub(r"^hands\[\d+\]\.?", "", path or "")
        match = re.match(r"^winners\[(\d+)\](?:\.(\w+))?", path)
        if match:
            index = int(match.group(1))
            block = self._winner_blocks[index] if index < len(self._winner_blocks) else ""
            if match.group(2) == "liable":
                return "liable"
            name = {"player": "winner", "han": "han", "fu": "fu", "yakuman": "han"}.get(
                match.group(2) or "", "winner"
            )
            return f"{name}{block}"
        if path == "winners":
            return "winner"
        return super().field_for_path(path)

    def clean(self):
        cleaned = super().clean()
        result = cleaned.get("result")
        tiles = self.has_tiles(cleaned)
        if result == "ron":
            self.require(cleaned, "loser", "winner", *(() if tiles else ("han",)))
            for block in WINNER_BLOCKS[1:]:
                if cleaned.get(f"winner{block}"):
                    self.require(cleaned, f"han{block}")
        elif result == "tsumo":
            self.require(cleaned, "winner", *(() if tiles else ("han",)))
        elif result == "chombo":
            self.require(cleaned, "offender")
        blocks = WINNER_BLOCKS if result == "ron" else ("",) if result == "tsumo" else ()
        for block in blocks:
            han = cleaned.get(f"han{block}")
            if cleaned.get(f"winner{block}") and han and int(han) < 5 and not cleaned.get(f"fu{block}"):
                self.add_error(f"fu{block}", _("Give the fu (needed below 5 han)."))
        return cleaned

    def _win(self, block: str) -> dict:
        c = self.cleaned_data
        if not c.get(f"han{block}"):
            return {}  # valued from the tiles
        han = int(c[f"han{block}"])
        win: dict[str, Any] = {"han": han}
        if han < 5 and c.get(f"fu{block}"):
            win["fu"] = int(c[f"fu{block}"])
        return win

    def hand(self) -> dict:
        c = self.cleaned_data
        result = c["result"]
        riichi = sorted(int(s) for s in c.get("riichi") or [])
        if result == "chombo":
            return {"result": "chombo", "player": int(c["offender"])}
        if result == "draw":
            draw = {
                "result": "draw",
                "tenpai": sorted(int(s) for s in c.get("tenpai") or []),
                "riichi": riichi,
            }
            if c.get("abortive"):
                draw["abortive"] = True
            return draw
        liable = {"liable": int(c["liable"])} if c.get("liable") else {}
        if result == "tsumo":
            return {
                "result": "tsumo",
                "winner": int(c["winner"]),
                **self._win(""),
                **liable,
                "riichi": riichi,
            }
        winners = []
        self._winner_blocks = []
        for block in WINNER_BLOCKS:
            if c.get(f"winner{block}"):
                winners.append({"player": int(c[f"winner{block}"]), **self._win(block)})
                self._winner_blocks.append(block)
        if liable and winners:
            # the winner of the yakuman (13 han) pays with the liable player; else the first winner
            yakuman = [w for w in winners if w.get("han") == 13]
            (yakuman[0] if len(yakuman) == 1 else winners[0]).update(liable)
        return {"result": "ron", "loser": int(c["loser"]), "winners": winners, "riichi": riichi}

    @classmethod
    def initial_from(cls, data):
        result = data.get("result")
        initial: dict[str, Any] = {"result": result, "riichi": [str(s) for s in data.get("riichi") or []]}
        if result == "chombo":
            initial["offender"] = str(data.get("player"))
        elif result == "draw":
            initial["tenpai"] = [str(s) for s in data.get("tenpai") or []]
            initial["abortive"] = bool(data.get("abortive"))
        elif result == "tsumo":
            initial.update(winner=str(data.get("winner")), han=str(min(int(data.get("han", 1)), 13)))
            if data.get("liable") is not None:
                initial["liable"] = str(data["liable"])
            if data.get("fu") is not None:
                initial["fu"] = str(data["fu"])
        elif result == "ron":
            initial["loser"] = str(data.get("loser"))
            for block, win in zip(WINNER_BLOCKS, data.get("winners") or [], strict=False):
                initial[f"winner{block}"] = str(win.get("player"))
                initial[f"han{block}"] = str(min(int(win.get("han", 1)), 13))
                if win.get("liable") is not None:
                    initial["liable"] = str(win["liable"])
                if win.get("fu") is not None:
                    initial[f"fu{block}"] = str(win["fu"])
        return initial


class ClassicalHandForm(HandForm):
    results = (("win", _("Mah jong")), ("draw", _("Drawn hand")))
    path_fields = {"values": "value0", "winner": "winner", "limit_hand": "limit_hand"}

    def __init__(self, *args, seats, **kwargs):
        super().__init__(*args, seats=seats, **kwargs)
        self.fields["winner"] = forms.ChoiceField(
            label=_("Winner"), choices=self.seat_choices(seats, "—"), required=False
        )
        for i, name in enumerate(seats):
            self.fields[f"value{i}"] = forms.IntegerField(
                label=_("%(wind)s · %(name)s: hand value")
                % {"wind": wind_letter(WIND_LETTERS[i]), "name": name},
                min_value=0,
                required=False,
                widget=forms.NumberInput(attrs={"inputmode": "numeric", "min": 0}),
            )
        self.fields["limit_hand"] = forms.BooleanField(label=_("Limit hand (§85)"), required=False)

    def value_fields(self):
        return [self[f"value{i}"] for i in range(4)]

    def field_for_path(self, path: str) -> str | None:
        path = re.sub(r"^hands\[\d+\]\.?", "", path or "")
        match = re.match(r"^values\.(\d)$", path)
        if match:
            return f"value{match.group(1)}"
        return super().field_for_path(path)

    def clean(self):
        cleaned = super().clean()
        if cleaned.get("result") == "win":
            self.require(cleaned, "winner")
            winner = cleaned.get("winner")
            from_tiles = cleaned.get("limit_hand") or self.has_tiles(cleaned)
            for i in range(4):
                if cleaned.get(f"value{i}") is None and not (from_tiles and str(i) == winner):
                    self.add_error(f"value{i}", _("Give every player's hand value (0 for none)."))
        return cleaned

    def hand(self) -> dict:
        c = self.cleaned_data
        values = {str(i): c[f"value{i}"] for i in range(4) if c.get(f"value{i}") is not None}
        if c["result"] == "draw":
            return {"result": "draw", "values": values} if len(values) == 4 else {"result": "draw"}
        hand = {"result": "win", "winner": int(c["winner"]), "values": values}
        if c.get("limit_hand"):
            hand["limit_hand"] = True
        return hand

    @classmethod
    def initial_from(cls, data):
        initial: dict[str, Any] = {"result": data.get("result"), "limit_hand": bool(data.get("limit_hand"))}
        if data.get("winner") is not None:
            initial["winner"] = str(data["winner"])
        for key, value in (data.get("values") or {}).items():
            initial[f"value{key}"] = value
        return initial


# The hand forms by ``Ruleset.hand_form``; every ruleset names one (tests/rules/test_contract.py).
HAND_FORMS: dict[str, type[HandForm]] = {
    "fan": MCRHandForm,
    "han_fu": RiichiHandForm,
    "fan_colours": SalamancaHandForm,
    "values": ClassicalHandForm,
}


def hand_form_class(rules: Ruleset) -> type[HandForm]:
    """The hand form of ``rules``; a ruleset naming no known form is an error, never a fallback."""
    try:
        return HAND_FORMS[rules.hand_form]
    except KeyError:
        raise LookupError(f"the {rules.key} rules name no hand form ({rules.hand_form!r})") from None


# -- totals and actions -----------------------------------------------------------------------------


def parse_number(text: str, field: str = "score") -> int | Fraction:
    """A score as typed: ``-16``, ``+32``, ``21.5``, ``64/3``; the typographic minus is accepted; no
    exponent, at most the largest game score (:mod:`scoring.rules.numbers`)."""
    return read_number(text or "", field=field, limit=SCORE_LIMIT)


class TotalsForm(SeatChoiceMixin, EntryForm):
    """The four totals of the paper score sheet, E S W N; a referee may accept an imbalance with a reason."""

    def __init__(self, *args, seats: Sequence[str], referee: bool, reason_required: bool = False, **kwargs):
        super().__init__(*args, **kwargs)
        for i, name in enumerate(seats):
            self.fields[f"score{i}"] = forms.CharField(
                label=f"{'ESWN'[i]} · {name}",
                max_length=20,
                widget=forms.TextInput(attrs={"inputmode": "decimal", "autocomplete": "off"}),
            )
        if referee:
            self.fields["imbalance_reason"] = forms.CharField(
                label=_("Imbalance reason (referee)"),
                required=False,
                max_length=500,
                help_text=_("Only when the sheet already includes deductions made at the table."),
            )
            self.fields["confirm_unusual"] = forms.BooleanField(
                label=_("I have checked the sheet: these unusual totals are right (referee)"),
                required=False,
            )
        if reason_required:
            self.fields["reason"] = forms.CharField(label=_("Reason for the change"), max_length=500)

    def field_for_path(self, path: str) -> str | None:
        match = re.match(r"^scores\[(\d)\]", path or "")
        if match:
            return f"score{match.group(1)}"
        if path == "imbalance_reason" and "imbalance_reason" in self.fields:
            return "imbalance_reason"
        if path == "scores":
            return None
        return super().field_for_path(path)

    def clean(self):
        cleaned = super().clean()
        for i in range(4):
            text = cleaned.get(f"score{i}")
            if text is None:
                continue
            try:
                cleaned[f"score{i}"] = parse_number(text, f"scores[{i}]")
            except RuleError as exc:
                self.add_error(f"score{i}", _("Enter a number, such as -16 or 32.") + f" ({exc.message})")
        return cleaned

    def scores(self) -> list:
        return [self.cleaned_data[f"score{i}"] for i in range(4)]

    def score_fields(self):
        return [self[f"score{i}"] for i in range(4)]


class ActionForm(EntryForm):
    """Submit: just the version."""


class ConfirmForm(EntryForm):
    """Confirm: the version, and why the table played fewer hands than usual when it did."""

    short_reason = forms.CharField(
        label=_("Why fewer hands than usual"),
        required=False,
        max_length=500,
        help_text=_("For example: time limit reached. It shows with the table's result."),
    )

    def __init__(self, *args, usual: int | None = None, **kwargs):
        super().__init__(*args, **kwargs)
        if usual:  # the count the confirmation checks (the rules' full session)
            self.fields["short_reason"].label = _("Why fewer than %(n)s hands") % {"n": usual}


class UndoForm(EntryForm):
    reason = forms.CharField(label=_("Reason (optional)"), required=False, max_length=500)


class ReasonForm(EntryForm):
    """Reopen a confirmed table: a referee's reason is required."""

    reason = forms.CharField(label=_("Reason"), max_length=500)


WIND_LABELS = (_("Really East"), _("Really South"), _("Really West"), _("Really North"))


class SeatsForm(EntryForm):
    """Seats corrected after the fact: who really sat at each wind, and why (a referee's reason)."""

    reason = forms.CharField(
        label=_("Reason"),
        max_length=500,
        help_text=_("For example: the score sheet shows the players in other seats."),
    )

    def __init__(self, *args, players: Sequence[tuple[str, str]], **kwargs):
        """``players``: (key, name) of the table's four players in the seats recorded now, E S W N."""
        super().__init__(*args, **kwargs)
        choices = list(players)
        for i in range(4):
            self.fields[f"seat{i}"] = forms.ChoiceField(
                label=WIND_LABELS[i], choices=choices, initial=choices[i][0] if len(choices) == 4 else None
            )
        self.order_fields(["seat0", "seat1", "seat2", "seat3", "reason"])

    def field_for_path(self, path: str) -> str | None:
        match = re.fullmatch(r"order\[(\d)\]", path or "")
        if match:
            return f"seat{match.group(1)}"
        return None if path == "order" else super().field_for_path(path)

    def order(self) -> list[str]:
        return [self.cleaned_data[f"seat{i}"] for i in range(4)]


class PlayerConfirmForm(EntryForm):
    pass
