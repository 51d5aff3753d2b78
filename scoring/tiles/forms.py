"""The tile fields of the hand forms (filled by the tile picker, or typed in suffix notation), the
referee's resolution of a held hand, and the director's setting."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from scoring.rules.base import Ruleset
from scoring.rules.tiles.notation import MAX_HAND_CHARS, MAX_INDICATORS

from . import services

FLAG_LABELS = {
    "last_tile": _("Last tile of the wall (or its discard)"),
    "replacement_tile": _("Replacement tile after a kong"),
    "robbing_kong": _("Robbing a kong"),
    "fourth_tile": _("Last tile of its kind (MCR)"),
    "double_riichi": _("Double riichi"),
    "ippatsu": _("Ippatsu"),
    "first_turn": _("Won on the first draw"),
    "dealer_first_discard": _("Won on the dealer's first discard"),
    "first_turn_discard": _("Won on a discard before the first draw (renhō)"),
}
# rule error paths inside ``tiles`` → form fields
PATHS = {
    "hand": "tiles_hand",
    "melds": "tiles_melds",
    "winning_tile": "tiles_winning",
    "flowers": "tiles_flowers",
    "red_fives": "tiles_red_fives",
    "dora_indicators": "tiles_dora",
    "ura_dora_indicators": "tiles_ura",
    "kongs_in_a_row": "tiles_kongs_in_a_row",
    "tiles": "tiles_hand",
}


def add_tile_fields(form: forms.Form, rules: Ruleset, mode: str) -> None:
    """Add the tile fields of ``rules`` (``Ruleset.tile_flags``, ``tile_extras``) to a hand form (nothing
    when the tournament's setting is off)."""
    if mode == "off":
        return
    _add_tile_fields_always(form.fields)
    _add_extra_fields(form.fields, rules.tile_extras)
    form.fields["tiles_flags"] = forms.MultipleChoiceField(
        label=_("How the hand was won"),
        choices=[(k, FLAG_LABELS[k]) for k in rules.tile_flags],
        widget=forms.CheckboxSelectMultiple(attrs={"class": "tiles-input"}),
        required=False,
    )


#: the attributes of a text field of tiles
TILE_TEXT = {"autocomplete": "off", "autocapitalize": "off", "spellcheck": "false", "class": "tiles-input"}


def _add_tile_fields_always(f: dict) -> None:
    """The concealed tiles, the melds and the winning tile: every ruleset's."""
    text = TILE_TEXT
    f["tiles_hand"] = forms.CharField(
        label=_("Concealed tiles, with the winning tile"),
        max_length=MAX_HAND_CHARS,
        required=False,
        help_text=_(
            "For example 234m567m99p4m: numbers then the suit, m p s, z for honours (1–4 winds, 5–7 dragons)."
        ),
        widget=forms.TextInput(attrs={**text, "placeholder": "123m456p789s11z"}),
    )
    f["tiles_melds"] = forms.CharField(
        label=_("Melds"),
        max_length=140,
        required=False,
        help_text=_("Separated by commas: pung 777p, chow 456s, kong 1z, concealed_kong 5z."),
        widget=forms.TextInput(attrs=text),
    )
    f["tiles_winning"] = forms.CharField(
        label=_("Winning tile"), max_length=4, required=False, widget=forms.TextInput(attrs=text)
    )


def _add_extra_fields(f: dict, extras: frozenset[str]) -> None:
    """The fields only some rulesets have (flowers, kongs in a row, dora, red fives)."""
    text = TILE_TEXT
    if "flowers" in extras:
        f["tiles_flowers"] = forms.IntegerField(
            label=_("Flowers"),
            min_value=0,
            max_value=8,
            required=False,
            widget=forms.NumberInput(attrs={"inputmode": "numeric", "class": "tiles-input"}),
        )
    if "own_flowers" in extras:
        f["tiles_own_flowers"] = forms.IntegerField(
            label=_("Own flower or season"), min_value=0, max_value=2, required=False
        )
    if "flower_sets" in extras:
        f["tiles_flower_sets"] = forms.IntegerField(
            label=_("Complete sets of four flowers"), min_value=0, max_value=2, required=False
        )
    if "kongs_in_a_row" in extras:
        f["tiles_kongs_in_a_row"] = forms.IntegerField(
            label=_("Kongs in a row before the winning replacement tile"),
            min_value=0,
            max_value=4,
            required=False,
            help_text=_(
                "With “Replacement tile after a kong”: 2 or more when one kong's loose tile made another."
            ),
            widget=forms.NumberInput(attrs={"inputmode": "numeric", "class": "tiles-input"}),
        )
    if "dora" in extras:
        f["tiles_dora"] = forms.CharField(
            label=_("Dora indicators"),
            max_length=3 * MAX_INDICATORS,
            required=False,
            widget=forms.TextInput(attrs=text),
        )
        f["tiles_ura"] = forms.CharField(
            label=_("Ura dora indicators"),
            max_length=3 * MAX_INDICATORS,
            required=False,
            widget=forms.TextInput(attrs=text),
        )
    if "red_fives" in extras:  # only where the set has red fives (the ruleset says)
        f["tiles_red_fives"] = forms.IntegerField(
            label=_("Red fives"),
            min_value=0,
            max_value=3,
            required=False,
            widget=forms.NumberInput(attrs={"inputmode": "numeric", "class": "tiles-input"}),
        )


def _indicators(text: str) -> list[str]:
    """``3m1z`` → ``["3m", "1z"]`` (the engine checks each)."""
    out, digits = [], ""
    for char in text.replace(" ", "").replace(",", ""):
        if char.isdigit():
            digits += char
        else:
            out.extend(f"{d}{char}" for d in digits)
            digits = ""
    if digits:
        out.append(digits)  # refused by the engine, naming it
    return out


def tiles_of(cleaned: dict[str, Any]) -> dict[str, Any] | None:
    """The ``tiles`` object of the archive from the form's fields; None when no tile was given."""
    hand = (cleaned.get("tiles_hand") or "").strip()
    melds_text = (cleaned.get("tiles_melds") or "").strip()
    if not hand and not melds_text:
        return None
    tiles: dict[str, Any] = {"hand": hand}
    melds = [m.strip() for m in melds_text.split(",") if m.strip()]
    if melds:
        tiles["melds"] = melds
    winning = (cleaned.get("tiles_winning") or "").strip()
    tiles["winning_tile"] = winning
    for name, key in (
        ("tiles_flowers", "flowers"),
        ("tiles_own_flowers", "own_flowers"),
        ("tiles_flower_sets", "flower_sets"),
        ("tiles_red_fives", "red_fives"),
        ("tiles_kongs_in_a_row", "kongs_in_a_row"),
    ):
        if cleaned.get(name):
            tiles[key] = cleaned[name]
    for name, key in (("tiles_dora", "dora_indicators"), ("tiles_ura", "ura_dora_indicators")):
        if (cleaned.get(name) or "").strip():
            tiles[key] = _indicators(cleaned[name])
    for flag in cleaned.get("tiles_flags") or []:
        tiles[flag] = True
    return tiles


def initial_from(tiles: dict[str, Any] | None) -> dict[str, Any]:
    """Form values from a stored ``tiles`` object (the hand correction page)."""
    if not isinstance(tiles, dict):
        return {}
    initial = {
        "tiles_hand": tiles.get("hand", ""),
        "tiles_melds": ", ".join(tiles.get("melds") or []),
        "tiles_winning": tiles.get("winning_tile", ""),
        "tiles_flowers": tiles.get("flowers") or None,
        "tiles_own_flowers": tiles.get("own_flowers") or None,
        "tiles_flower_sets": tiles.get("flower_sets") or None,
        "tiles_red_fives": tiles.get("red_fives") or None,
        "tiles_kongs_in_a_row": tiles.get("kongs_in_a_row") or None,
        "tiles_dora": "".join(tiles.get("dora_indicators") or []),
        "tiles_ura": "".join(tiles.get("ura_dora_indicators") or []),
        "tiles_flags": [k for k in FLAG_LABELS if tiles.get(k)],
    }
    return initial


def field_for_tiles_path(path: str) -> str | None:
    """The form field of a rule error inside ``tiles`` (``hands[3].winners[0].tiles.melds[1]``)."""
    if ".tiles" not in f".{path}":
        return None
    inner = path.split("tiles", 1)[1].lstrip(".")
    head = inner.split(".")[0].split("[")[0]
    if head in FLAG_LABELS:
        return "tiles_flags"
    return PATHS.get(head or "tiles", "tiles_hand")


class ResolveForm(forms.Form):
    version = forms.IntegerField(widget=forms.HiddenInput, min_value=1)
    decision = forms.ChoiceField(
        choices=(
            ("computed", _("Take the value of the tiles")),
            ("claim", _("Keep the claimed value (a ruling)")),
        ),
        widget=forms.RadioSelect,
        label=_("Decision"),
    )
    reason = forms.CharField(
        label=_("Reason"),
        max_length=500,
        required=False,
        help_text=_("Needed to keep the claimed value; it is kept with the hand."),
    )

    def clean(self):
        cleaned = super().clean()
        if cleaned.get("decision") == "claim" and not (cleaned.get("reason") or "").strip():
            self.add_error("reason", _("Give the reason of the ruling."))
        return cleaned


class SettingForm(forms.Form):
    tiles = forms.ChoiceField(
        label=_("Tiles of the winning hands"),
        choices=(
            ("off", _("Off: hands are entered with their value only")),
            ("optional", _("Optional: the tiles may be entered, and their value is checked")),
            ("required", _("Required: every win is entered with its tiles")),
        ),
        widget=forms.RadioSelect,
    )

    def clean_tiles(self):
        return services.tiles_mode_check(self.cleaned_data["tiles"])


class NotableHandForm(forms.Form):
    person = forms.CharField(label=_("Person"), max_length=200)
    title = forms.CharField(
        label=_("Title"), max_length=200, help_text=_("The hand's name, e.g. Thirteen orphans.")
    )
    value = forms.IntegerField(label=_("Value"), min_value=0, max_value=100_000)
    unit = forms.ChoiceField(
        label=_("Unit"), choices=(("fan", _("fan")), ("han", _("han")), ("points", _("points")))
    )
    hand_text = forms.CharField(
        label=_("Hand"), max_length=200, required=False, help_text=_("The tiles, e.g. 19m19p19s12345677z.")
    )
    opponents = forms.CharField(label=_("Opponents"), max_length=400, required=False)
    date = forms.DateField(label=_("Date"), widget=forms.DateInput(attrs={"type": "date"}))


class RegisterFromHandForm(forms.Form):
    title = forms.CharField(label=_("Title for the register"), max_length=200)
