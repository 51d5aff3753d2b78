"""Penalty kinds answer for themselves: no code outside the registry (penalties/kinds.py) switches on a
kind, and penalties read scoring's tables only through what the results layer installs."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("config", "tournaments", "scoring", "penalties", "rankings", "idempotency")
#: where a kind may be named: the registry, and the model whose choices store it
REGISTRY = ("penalties/kinds.py", "penalties/models.py")
KIND_NAMED = re.compile(r"\bKind\.[A-Z][A-Z_]+\b")
#: scoring's relations on a table (its result, the result's hands, the seats' summary rows)
SCORING_RELATION = re.compile(r"\.result\b|\bresult__|\bsummaries|\.hands\.|\bhands__")


def _sources(packages=PACKAGES):
    for package in packages:
        for path in sorted((ROOT / package).rglob("*.py")):
            rel = path.relative_to(ROOT).as_posix()
            if "/migrations/" not in rel:
                yield rel, path.read_text(encoding="utf-8")


def _lines(pattern: re.Pattern, sources, allowed=()) -> list[str]:
    return [
        f"{rel}:{number}: {line.strip()}"
        for rel, text in sources
        if rel not in allowed
        for number, line in enumerate(text.splitlines(), start=1)
        if pattern.search(line)
    ]


def test_no_code_outside_the_registry_names_a_kind():
    found = _lines(KIND_NAMED, _sources(), REGISTRY)
    assert not found, "ask the kind (penalties.kinds.kind_of) instead:\n" + "\n".join(found)


def test_the_kind_check_finds_what_it_looks_for():
    assert KIND_NAMED.search("if penalty.kind == Kind.FALSE_HU:")
    assert KIND_NAMED.search("p.kind in (Kind.DISQUALIFIED, Kind.CHOMBO)")
    assert KIND_NAMED.search("Penalty.objects.filter(kind=Kind.REPLACED)")
    assert not KIND_NAMED.search("kind_of(p.kind).replaces")
    assert not KIND_NAMED.search("PenaltyKind.value")


def test_one_list_of_the_kinds_paid_by_the_offender_alone():
    assert not _lines(re.compile(r"\bOFFENDER_ONLY\b"), _sources())


def test_penalties_read_no_scoring_relation():
    found = _lines(SCORING_RELATION, _sources(("penalties",)))
    assert not found, "read through penalties.tables (installed by scoring) instead:\n" + "\n".join(found)
    assert SCORING_RELATION.search("result = table.result")
    assert SCORING_RELATION.search("Q(summaries__registration=registration_id)")
    assert SCORING_RELATION.search("result.hands.count()")
