"""Tiles drawn as inline SVG in templates: ``{% tile "5p" %}`` and the picker's palette."""

from __future__ import annotations

from django import template
from django.utils.html import format_html, format_html_join
from django.utils.safestring import mark_safe
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from scoring.tiles.svg import tile_svg

register = template.Library()


def tile_label(code: str) -> str:
    number, suit = int(code[0]), code[1]
    if suit == "z":
        names = (
            _("East"),
            _("South"),
            _("West"),
            _("North"),
            _("White dragon"),
            _("Green dragon"),
            _("Red dragon"),
        )
        return names[number - 1]
    suits = {"m": _("characters"), "p": _("dots"), "s": _("bamboo")}
    return f"{number} {suits[suit]}"


@register.simple_tag
def tile(code: str) -> str:
    return mark_safe(tile_svg(code, tile_label(code)))


@register.simple_tag
def tile_palette() -> list[dict]:
    groups = (("m", _("Characters")), ("p", _("Dots")), ("s", _("Bamboo")), ("z", _("Winds and dragons")))
    return [
        {
            "suit": suit,
            "label": label,
            "tiles": [
                {"code": f"{n}{suit}", "label": tile_label(f"{n}{suit}"), "svg": tile(f"{n}{suit}")}
                for n in range(1, 8 if suit == "z" else 10)
            ],
        }
        for suit, label in groups
    ]


# The palette's markup by language: the same on every table page, built once per process and language.
_PALETTES: dict[str | None, str] = {}


@register.simple_tag
def tile_palette_html() -> str:
    """The picker's palette: a group of tile buttons per suit."""
    language = get_language()
    html = _PALETTES.get(language)
    if html is None:
        html = _PALETTES[language] = "".join(
            format_html(
                '\n    <div class="tp-suit" role="group" aria-label="{}">{}</div>',
                group["label"],
                format_html_join(
                    "",
                    '<button type="button" class="tp-tile" data-tile="{}" aria-label="{}">{}</button>',
                    ((t["code"], t["label"], t["svg"]) for t in group["tiles"]),
                ),
            )
            for group in tile_palette()
        )
    return mark_safe(html)
