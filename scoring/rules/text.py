"""Messages a person reads, kept translatable in the pure engines (no Django import here).

An engine writes ``gettext_noop("fan %(fan)s is below the minimum of %(least)s", fan=fan, least=8)``: an
English template with named values (the function's name lets the translation tools find the template). The
text is rendered when it is read, through the translator the web layer installs once
(:func:`set_translator`, Django's ``gettext``), so a page in Spanish shows the Spanish template. Values are
shown as a person types them: ``10.5``, not ``Fraction(21, 2)``; text in quotes.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from typing import Any

_translate: Callable[[str], str] = str
MAX_SHOWN_CHARS = 60


def set_translator(translate: Callable[[str], str]) -> None:
    """Install the function that turns an English template into the reader's language."""
    global _translate
    _translate = translate


def shown(value: Any) -> str:
    """A value as a person would have typed it."""
    if isinstance(value, Text | Names):
        return str(value)
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "null"
    if isinstance(value, Fraction):
        if value.denominator == 1:
            return str(value.numerator)
        denominator, twos, fives = value.denominator, 0, 0
        while denominator % 2 == 0:
            denominator, twos = denominator // 2, twos + 1
        while denominator % 5 == 0:
            denominator, fives = denominator // 5, fives + 1
        if denominator == 1 and max(twos, fives) <= 6:
            return f"{float(value):.{max(twos, fives)}f}".rstrip("0").rstrip(".")
        return f"{value.numerator}/{value.denominator}"
    if isinstance(value, int | float):
        return str(value)
    if isinstance(value, str):
        text = value if len(value) <= MAX_SHOWN_CHARS else value[:MAX_SHOWN_CHARS] + "…"
        return f"“{text}”"
    text = repr(value)
    return text if len(text) <= MAX_SHOWN_CHARS else text[:MAX_SHOWN_CHARS] + "…"


class Names:
    """Names an engine uses (fan, yaku), each with its value, rendered in the reader's language when read:
    ``Escalera Pura 16, Mano Oculta 2`` on a Spanish page. The names are marked for the catalogue where
    the engine lists them (``scoring.rules.tiles.mcr.FAN_NAMES``, ...)."""

    __slots__ = ("items",)

    def __init__(self, items: Any):
        self.items = tuple((str(name), value) for name, value in items)

    def __str__(self) -> str:
        return ", ".join(
            _translate(name) if value is None else f"{_translate(name)} {value}" for name, value in self.items
        )

    def __repr__(self) -> str:
        return f"Names({self.items!r})"


class Text:
    """An English template and its values, rendered in the reader's language when read."""

    __slots__ = ("params", "template")

    def __init__(self, template: str, params: dict[str, Any]):
        self.template = template
        self.params = params

    def __str__(self) -> str:
        values = {
            name: (value if isinstance(value, str) and name.startswith("_") else shown(value))
            for name, value in self.params.items()
        }
        try:
            return _translate(self.template) % values
        except (KeyError, ValueError, TypeError):  # a faulty translation never hides the message
            return self.template % values

    def __repr__(self) -> str:
        return f"Text({self.template!r}, {self.params!r})"

    def __eq__(self, other: object) -> bool:
        return str(self) == str(other)

    def __hash__(self) -> int:
        return hash(str(self))


def gettext_noop(template: str, /, **params: Any) -> Text:
    """A translatable message. Values whose name starts with ``_`` are words already chosen by the engine
    (shown as they are, not quoted); the others are values the person entered or the rules set."""
    return Text(template, params)
