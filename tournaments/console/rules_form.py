"""The rule settings of a tournament as a form per ruleset, generated from the preset data of
``scoring/rules/registry.py``: one named field per preset value, its default and a one-line explanation;
the overrides it produces are checked by the same key-by-key check as before (``Config.with_overrides``)."""

from __future__ import annotations

import dataclasses
import typing
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from scoring.rules.base import RuleError
from scoring.rules.registry import get_ruleset
from scoring.rules.salamanca import MAX_COLOURS_CHARS, SET_TILES, format_colours, parse_colours

LABELS: dict[str, tuple[Any, Any]] = {
    # MCR
    "min_fan": (_("Minimum fan"), _("Fan a hand needs to win, flowers not counted.")),
    "base_points": (_("Base points"), _("What every loser pays on top of the fan owed.")),
    "max_hands": (_("Hands in a session"), _("Hands of a full session (fewer when time runs out).")),
    "hands_per_round": (_("Hands per round"), _("The prevailing wind changes every this many hands.")),
    "table_points": (_("Table points"), _("Table points by rank at the table, 1st to 4th.")),
    "deductions_before_ranking": (
        _("Penalties count for the table rank"),
        _("Offender-only penalties are deducted before ranking the table."),
    ),
    "late_short_minutes": (
        _("Short delay (minutes)"),
        _("Late by fewer than this many minutes: the short penalty; from this many on: the long one."),
    ),
    "late_short_penalty": (_("Short delay penalty"), _("Points deducted for a short delay.")),
    "late_grace_minutes": (
        _("Late-arrival limit (minutes)"),
        _("Late by more than this many minutes: out of the session, a substitute plays."),
    ),
    "late_long_penalty": (
        _("Long delay penalty"),
        _("Points deducted for a delay from the short delay's minutes up to the limit."),
    ),
    "foul_ladder": (_("Foul ladder"), _("Points of the 1st, 2nd, … foul in a session (0 = warning).")),
    "foul_increment": (_("Foul increment"), _("Each foul after the ladder costs this much more.")),
    "forgot_winning_tile_penalty": (_("Forgot the winning tile"), _("Points deducted (MERS 2.8.7).")),
    "false_hu_below_minimum": (
        _("False Hu under the minimum"),
        _("Paid to each other player for four sets and a pair under the minimum."),
    ),
    "false_hu_invalid_hand": (
        _("False Hu, invalid hand"),
        _("Paid to each other player for an invalid hand."),
    ),
    "referee_max_penalty": (
        _("Largest referee penalty"),
        _("The most points a referee decision may deduct."),
    ),
    # riichi
    "start_points": (_("Starting points"), _("Each player's points at the start of a game.")),
    "target_points": (_("Target points"), _("Points subtracted from the final score before uma.")),
    "oka": (_("Oka"), _("Bonus for first place (shared when tied).")),
    "uma": (_("Uma"), _("Bonus by place, 1st to 4th.")),
    "chombo_policy": (_("Chombo"), _("Deducted from the final score, or a mangan paid at the table.")),
    "chombo_points": (_("Chombo points"), _("Deducted from the final score per chombo.")),
    "multiple_ron": (
        _("Multiple ron"),
        _("Off: head bump, only the first claimant after the discarder wins."),
    ),
    "kiriage_mangan": (_("Kiriage mangan"), _("4 han 30 fu and 3 han 60 fu count as mangan.")),
    "double_yakuman": (
        _("Double yakuman"),
        _("A hand the rules make worth two yakuman (big four winds) pays two; two yakuman never add up."),
    ),
    "counted_yakuman": (
        _("Counted yakuman"),
        _("13 han or more from yaku and dora pay a yakuman (off: a sanbaiman)."),
    ),
    "open_tanyao": (_("Open All Simples"), _("All Simples counts in an open hand (off: concealed only).")),
    "renhou": (
        _("Renhō"),
        _("A win on a discard before one's first draw, the first go-around uninterrupted."),
    ),
    "double_wind_pair_fu": (
        _("Double wind pair"),
        _("Minipoints of a pair that is both the seat and the round wind (2 or 4)."),
    ),
    "liability": (
        _("Liability (pao)"),
        _(
            "The player who fed the third called dragon set or the fourth called wind set pays the big three "
            "dragons or big four winds: the whole hand on a tsumo, half of it on a ron."
        ),
    ),
    "liability_counters": (
        _("Counters under liability"),
        _("On a ron with a liable player, who pays the counters."),
    ),
    "abortive_draws": (
        _("Abortive draws"),
        _("A draw may be abortive: no noten payments, a counter added, the riichi bets stay."),
    ),
    "honba_ron": (_("Counter on ron"), _("Per counter, paid by the discarder.")),
    "honba_tsumo": (_("Counter on tsumo"), _("Per counter, paid by each payer on a self-draw.")),
    "riichi_stick": (_("Riichi bet"), _("Points put down to declare riichi.")),
    "noten_total": (_("Noten payment"), _("Shared by the tenpai players at an exhaustive draw.")),
    "leftover_sticks_to_first": (
        _("Leftover sticks to first"),
        _("Riichi sticks left at the end go to first place."),
    ),
    "sticks_split": (
        _("Sticks split between tied firsts"),
        _("Exactly (fractions of a point kept), or whole points rounded down."),
    ),
    "ties": (_("Ties"), _("Tied players share the places, or the earlier seat ranks first.")),
    "two_yaku_counters": (
        _("Two yaku from counters"),
        _("From this many counters a win needs 2 yaku (empty: never)."),
    ),
    "rounds": (_("Rounds"), _("Rounds in a game (2 = East and South).")),
    "referee_limit": (_("Largest referee deduction"), _("The most points a referee decision may deduct.")),
    "referee_step": (
        _("Referee deduction step"),
        _("A referee decision is a multiple of this many points (empty: any amount)."),
    ),
    "referee_minimum": (
        _("Smallest referee deduction"),
        _("A referee decision deducts at least this many points, or 0 for a warning (empty: any amount)."),
    ),
    "replacement_points": (
        _("Replaced player's points"),
        _("Points against the target a replaced player carries for the session missed (empty: none)."),
    ),
    "replacement_uma": (
        _("Replaced player's uma"),
        _("Uma a replaced player carries for the session missed (empty: none)."),
    ),
    "late_arrival_minutes": (
        _("Late arrival: from minutes"),
        _("Where each step of the late-arrival scale starts, in minutes late (empty: no scale)."),
    ),
    "late_arrival_points": (
        _("Late arrival: points"),
        _("Points deducted from the final score at each step, one per starting minute."),
    ),
    "late_arrival_limit": (
        _("Late-arrival limit (minutes)"),
        _("Later than this: out of the session, a substitute plays (empty: no limit)."),
    ),
    "late_minutes_rounded_up": (
        _("Late arrival: a started minute counts"),
        _("A started minute of lateness counts as a whole one (9 min 30 s late: 10)."),
    ),
    "substitute_outside_uma": (
        _("Substitute outside the uma"),
        _(
            "A substitute receives the last place's uma; one who came after the game at the table began "
            "does not count for the others' uma."
        ),
    ),
    # the session clock (every ruleset)
    "session_minutes": (_("Session minutes"), _("Playing time of a session on the clock.")),
    "end_of_time": (_("End of time"), _("What happens when the clock reaches zero.")),
    "signal_minutes": (_("Signal minutes"), _("The clock signals when this many minutes are left.")),
    "red_zone_minutes": (_("Red zone minutes"), _("The last this many minutes are shown in red.")),
    # Salamanca
    "fan_points": (_("Points by fan"), _("Points of 0, 1, 2, … fan; more fan score the last value.")),
    "min_fan_self_drawn": (_("Minimum fan on self-draw"), _("Fan a self-drawn win needs.")),
    "false_declaration_fan": (
        _("False declaration (fan)"),
        _("The offender pays each player the points of this many fan."),
    ),
    "pot": (_("Pot"), _("Play with the pot (by agreement).")),
    "pot_points": (_("Pot points"), _("Points of each contribution to the pot.")),
    "colours": (
        _("Colours of the tile set"),
        _(
            "Play with colours (art. 32): tick the colours printed on each tile of your set; none: without colours."
        ),
    ),
    # classical
    "limit": (_("Limit"), _("The most a hand pays.")),
    "east_multiplier": (_("East multiplier"), _("East pays and receives this many times.")),
    "limit_applies_to": (_("Limit applies to"), _("Each payment, or the whole hand.")),
    "draw_settles": (_("Settle after a draw"), _("The hands settle their differences after a draw.")),
    "dealer_keeps_on_draw": (_("Dealer keeps East on a draw"), _("East stays after an exhaustive draw.")),
}
CHOICE_LABELS = {
    "discarder": _("the discarder alone"),
    "shared": _("shared with the liable player"),
    "exact": _("exactly"),
    "round_down": _("rounded down"),
    "none": _("not a yaku"),
    "mangan": _("mangan, not combined"),
    "yakuman": _("yakuman"),
    "final": _("from the final score"),
    "table": _("mangan paid at the table"),
    "share": _("share the place"),
    "seat": _("earlier seat first"),
    "payment": _("each payment"),
    "hand": _("the whole hand"),
    "last_hand": _("finish the hand in play"),
    "one_more_hand": _("the hand in play and one more"),
    "at_once": _("stop at once: the hand in play scores nothing"),
    "after_signal": _("from the signal: the hand in play and one more, no sound at the end"),
}
MAX_ABS = 10_000_000
COLOUR_CHOICES = (("r", _("red")), ("g", _("green")), ("k", _("black or blue")))
SUIT_NAMES = {"s": _("bamboo"), "p": _("dots")}


def _list_text(value: Any) -> str:
    return ", ".join(str(v) for v in value)


class RulesForm(forms.Form):
    """One field per preset value of ``ruleset``; ``overrides()`` gives the values that differ."""

    def __init__(self, *args, ruleset: str, current: dict | None = None, **kwargs):
        super().__init__(*args, **kwargs)
        self.ruleset = ruleset
        preset = get_ruleset(ruleset)
        self.preset = preset.config
        self.hints = typing.get_type_hints(type(self.preset))
        current = dict(current or {})
        self.defaults: dict[str, Any] = {}
        # what the preset's text rules out (riichi: red fives where the set has none) is not offered,
        # unless the tournament already changed it
        left_out = preset.settings_not_offered() - set(current)
        for f in dataclasses.fields(self.preset):
            if f.name in left_out:
                continue
            default = getattr(self.preset, f.name)
            self.defaults[f.name] = default
            label, help_text = LABELS.get(f.name, (f.name.replace("_", " ").capitalize(), ""))
            field = self._field(self.hints[f.name], default)
            if isinstance(default, tuple) and not default:
                field.required = False  # an empty list is the preset's value (e.g. no late-arrival scale)
            field.label = label
            field.help_text = help_text
            value = current.get(f.name, default)
            field.initial = _list_text(value) if isinstance(value, (list, tuple)) else value
            field.preset_text = self._show(default)
            field.changed_from_preset = f.name in current and self._plain(current[f.name]) != self._plain(
                default
            )
            self.fields[f.name] = field
        if "colours" in self.fields:
            self._add_colour_fields(current.get("colours", self.defaults["colours"]))

    def _add_colour_fields(self, current: str) -> None:
        """Art. 32's colours as one row of checkboxes per tile the set decides; the setting's text is
        composed from them (a hidden field keeps its place among the rules)."""
        hidden = forms.CharField(required=False, max_length=MAX_COLOURS_CHARS, widget=forms.HiddenInput)
        for name in ("label", "help_text", "initial", "preset_text", "changed_from_preset"):
            setattr(hidden, name, getattr(self.fields["colours"], name))
        self.fields["colours"] = hidden
        try:
            table = parse_colours(current)
        except RuleError:
            table = {}
        text = format_colours(table) if table else ""
        chosen = dict(part.split(":") for part in text.split()) if text else {}
        self.colour_names = []
        for name in SET_TILES:
            field = forms.MultipleChoiceField(
                choices=COLOUR_CHOICES,
                widget=forms.CheckboxSelectMultiple,
                required=False,
                label=f"{name[0]} {SUIT_NAMES[name[1]]}",
            )
            field.initial = list(chosen.get(name, ""))
            field.tile = name
            self.fields[f"colour_{name}"] = field
            self.colour_names.append(f"colour_{name}")

    def colour_rows(self):
        return [self[name] for name in getattr(self, "colour_names", [])]

    @staticmethod
    def _plain(value: Any) -> Any:
        return list(value) if isinstance(value, (list, tuple)) else value

    @staticmethod
    def _show(value: Any) -> str:
        if isinstance(value, bool):
            return str(_("on") if value else _("off"))
        if value is None or value == "" or (isinstance(value, (list, tuple)) and not value):
            return "—"
        if isinstance(value, (list, tuple)):
            return _list_text(value)
        return str(CHOICE_LABELS.get(value, value))

    def _field(self, hint: Any, default: Any) -> forms.Field:
        origin = typing.get_origin(hint)
        args = typing.get_args(hint)
        if hint is bool:
            return forms.BooleanField(required=False)
        if hint is int:
            return forms.IntegerField(min_value=-MAX_ABS, max_value=MAX_ABS)
        if origin in (typing.Union, getattr(__import__("types"), "UnionType", None)) and int in args:
            return forms.IntegerField(required=False, min_value=-MAX_ABS, max_value=MAX_ABS)
        if origin is typing.Literal:
            return forms.ChoiceField(choices=[(a, CHOICE_LABELS.get(a, a)) for a in args])
        if origin is tuple:
            return forms.CharField(max_length=300, widget=forms.TextInput(attrs={"inputmode": "text"}))
        return forms.CharField(max_length=100)

    def _clean_colours(self, cleaned: dict) -> None:
        names = getattr(self, "colour_names", [])
        if not names:
            return
        picked = {name: cleaned.pop(name, None) or [] for name in names}
        empty = [name for name, letters in picked.items() if not letters]
        if len(empty) == len(names):
            cleaned["colours"] = ""
            return
        if empty:
            self.add_error(empty[0], _("Tick the colours of every tile, or of none to play without colours."))
            return
        cleaned["colours"] = " ".join(
            f"{n.removeprefix('colour_')}:{''.join(c for c in 'rgk' if c in v)}" for n, v in picked.items()
        )

    def clean(self):
        cleaned = super().clean()
        self._clean_colours(cleaned)
        for name, value in list(cleaned.items()):
            hint = self.hints.get(name)
            if typing.get_origin(hint) is tuple and isinstance(value, str):
                try:
                    numbers = [int(v.strip().replace("\u2212", "-")) for v in value.split(",") if v.strip()]
                except ValueError:
                    self.add_error(name, _("Give whole numbers separated by commas."))
                    continue
                if any(abs(n) > MAX_ABS for n in numbers) or len(numbers) > 30:
                    self.add_error(name, _("Too many or too large numbers."))
                    continue
                cleaned[name] = numbers
        if not self.errors:
            try:
                get_ruleset(self.ruleset, self.overrides(cleaned))
            except RuleError as exc:
                key = exc.path.removeprefix("rules.") if exc.path else ""
                self.add_error(key if key in self.fields else None, str(exc))
        return cleaned

    def overrides(self, cleaned: dict | None = None) -> dict[str, Any]:
        """The values that differ from the preset: what the tournament stores."""
        cleaned = self.cleaned_data if cleaned is None else cleaned
        out = {}
        for name, default in self.defaults.items():
            if name not in cleaned:
                continue
            value = cleaned[name]
            if self._plain(value) != self._plain(default):
                out[name] = value
        return out

    def changed_rows(self) -> list[tuple[Any, str, str]]:
        """(label, preset value, tournament value) of every changed value."""
        rows = []
        for _name, field in self.fields.items():
            if getattr(field, "changed_from_preset", False):
                rows.append((field.label, field.preset_text, self._show(field.initial)))
        return rows
