"""The one reader of numbers given by people and documents: forms, API bodies and archives.

A number arrives as JSON (an int or a float) or as typed text (``-16``, ``+32``, ``21.5``, ``21,5``,
``64/3``, with the typographic minus). Every reading is bounded before any arithmetic is done:

- text is at most :data:`MAX_TEXT` characters and has no exponent (``1e300`` is refused as written,
  never expanded), so refusing costs the same whatever the value;
- the magnitude is at most the limit of what the number is (a game score, fan, penalty points, a count):
  no rule of any supported ruleset comes near these limits, and a database column holds them.

Refusals are :class:`RuleError` whose message names the field and the rule. Pure Python, no Django import.
"""

from __future__ import annotations

import math
import re
from fractions import Fraction
from typing import Any

from .base import RuleError
from .text import gettext_noop

MAX_TEXT = 20  # characters of a typed number

#: The largest magnitude of each kind of number. A game score is riichi raw points or a session's game
#: points (a riichi table starts at 30,000 each; the largest MCR hand pays a few hundred per player);
#: fan and han are counted per hand (the largest MCR hand is a few hundred fan); a hand value is a
#: classical hand before its limit; points are penalty and referee points; a count is a hand, session or
#: table number, minutes late and the like.
SCORE_LIMIT = 10_000_000
FAN_LIMIT = 1_000
HAND_VALUE_LIMIT = 1_000_000
POINTS_LIMIT = 1_000_000
COUNT_LIMIT = 32_767

_PLAIN = re.compile(r"[+-]?(?:\d+(?:\.\d+)?|\.\d+|\d+/\d+)")
_EXAMPLES = "such as -16, 21.5 or 64/3"


def _named(field: str) -> str:
    return field or "the value"


def read_number(value: Any, *, field: str, limit: int, whole: bool = False) -> int | Fraction:
    """``value`` as an exact number (``int`` when whole, else ``Fraction``) no larger than ``limit``.

    ``field`` is the name or JSON path of the value (``scores[2]``, ``fan``); it is both the refusal's
    path and the name in its message. ``whole`` refuses fractions.
    """
    name = _named(field)
    if isinstance(value, bool):
        raise RuleError(
            gettext_noop("%(_name)s must be a number, not %(_value)s", _name=name, _value=str(value).lower()),
            field,
        )
    if isinstance(value, int):
        number: int | Fraction = value
    elif isinstance(value, Fraction):
        number = value
    elif isinstance(value, float):
        if not math.isfinite(value) or abs(value) > limit:
            raise _too_large(name, field, limit)
        number = Fraction(repr(value))  # its decimal text: 0.1 is 1/10
    elif isinstance(value, str):
        number = _from_text(value, name, field)
    else:
        raise RuleError(
            gettext_noop(
                "%(_name)s must be a number (%(_EXAMPLES)s), not %(_type)s",
                _name=name,
                _EXAMPLES=_EXAMPLES,
                _type=type(value).__name__,
            ),
            field,
        )
    if abs(number) > limit:
        raise _too_large(name, field, limit)
    if isinstance(number, Fraction):
        if number.denominator == 1:
            number = int(number.numerator)
        elif whole:
            raise RuleError(
                gettext_noop("%(_name)s must be a whole number, not %(_number)s", _name=name, _number=number),
                field,
            )
    return number


def _from_text(text: str, name: str, field: str) -> Fraction:
    if len(text) > MAX_TEXT:
        raise RuleError(
            gettext_noop(
                "%(_name)s is %(_count)s characters long; a number has at most %(_MAX_TEXT)s",
                _name=name,
                _count=len(text),
                _MAX_TEXT=MAX_TEXT,
            ),
            field,
        )
    plain = text.strip().replace("\u2212", "-").replace(",", ".").replace(" ", "")
    if not _PLAIN.fullmatch(plain):
        raise RuleError(
            gettext_noop(
                "%(_name)s must be written as a plain number (%(_EXAMPLES)s; no exponent), not %(text)s",
                _name=name,
                _EXAMPLES=_EXAMPLES,
                text=text,
            ),
            field,
        )
    if "/" in plain and int(plain.split("/")[1]) == 0:
        raise RuleError(gettext_noop("%(_name)s divides by zero: %(text)s", _name=name, text=text), field)
    return Fraction(plain)


def _too_large(name: str, field: str, limit: int) -> RuleError:
    return RuleError(
        gettext_noop(
            "%(_name)s is too large: at most %(_limit)s in magnitude", _name=name, _limit=format(limit, ",")
        ),
        field,
    )


#: The longest free text a person types into a form or an API body: reasons, appeals, decisions.
TEXT_LIMIT = 500


def read_text(value: Any, *, field: str, limit: int = TEXT_LIMIT) -> str:
    """Free text, stripped, at most ``limit`` characters; None is empty."""
    if value is None:
        return ""
    if not isinstance(value, str):
        raise RuleError(
            gettext_noop(
                "%(_value)s must be text, not %(_type)s", _value=_named(field), _type=type(value).__name__
            ),
            field,
        )
    value = value.strip()
    if len(value) > limit:
        raise RuleError(
            gettext_noop(
                "%(_value)s has %(_count)s characters; at most %(_limit)s",
                _value=_named(field),
                _count=format(len(value), ","),
                _limit=limit,
            ),
            field,
        )
    return value
