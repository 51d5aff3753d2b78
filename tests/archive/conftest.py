"""Fixture archives, one per ruleset, in the canonical form the exporter writes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

FIXTURES = Path(__file__).resolve().parent / "fixtures"
RULESETS = (
    "mcr",
    "ema-riichi-2016",
    "ema-riichi-2025",
    "wrc-riichi",
    "ema-riichi-2008",
    "salamanca",
    "classical",
)


def fixture_path(ruleset: str) -> Path:
    return FIXTURES / f"{ruleset}.json"


def load(ruleset: str) -> dict:
    return json.loads(fixture_path(ruleset).read_text(encoding="utf-8"))


@pytest.fixture
def archive():
    """A fresh copy of a fixture archive, by ruleset."""
    return load
