"""The registry of rulesets by key (the keys of ARCHIVE.md)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from . import classical, mcr, riichi, salamanca
from .base import RuleError, Ruleset
from .text import gettext_noop

_PRESETS: dict[str, Ruleset] = {
    **mcr.PRESETS,
    **riichi.PRESETS,
    **salamanca.PRESETS,
    **classical.PRESETS,
}

RULESET_KEYS: tuple[str, ...] = tuple(_PRESETS)


def get_ruleset(key: str, overrides: Mapping[str, Any] | None = None) -> Ruleset:
    """The ruleset ``key`` with the tournament's single-value overrides applied."""
    try:
        preset = _PRESETS[key]
    except (KeyError, TypeError):
        raise RuleError(
            gettext_noop(
                "unknown ruleset '%(_key)s' (known rulesets: %(_items)s)",
                _key=key,
                _items=", ".join(RULESET_KEYS),
            ),
            "ruleset",
        ) from None
    return preset.with_overrides(overrides)


def family_of(key: str) -> str:
    return get_ruleset(key).family
