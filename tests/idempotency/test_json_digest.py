"""A JSON body's fingerprint is read as a stream: key order and spacing do not change it, anything else
does, and it builds nothing of the body (its memory stays under the body's size)."""

from __future__ import annotations

import json
import tracemalloc

import pytest

from idempotency.fingerprint import canonical_json, held_pairs, json_digest

BOUNDS = {"max_bytes": 4 * 1024 * 1024, "max_depth": 32}


def digest(text: str | bytes) -> bytes | None:
    return json_digest(text.encode() if isinstance(text, str) else text, **BOUNDS)


def test_key_order_spacing_and_escapes_do_not_count():
    a = '{"b": [1, 2.5, {"x": null, "y": true}], "a": "\\u00e9t\\u00e9", "c": 1e2}'
    b = json.dumps(json.loads(a), sort_keys=True, ensure_ascii=False, indent=2)
    assert digest(a) is not None
    assert digest(a) == digest(b) == digest(b.encode())


@pytest.mark.parametrize(
    "one, other",
    [
        ('{"a": [1, 2]}', '{"a": [2, 1]}'),
        ('{"a": 1}', '{"a": 1.0}'),
        ('{"a": 1}', '{"a": "1"}'),
        ('{"a": {"b": 1}}', '{"a": {}, "b": 1}'),
        ('{"a": true}', '{"a": 1}'),
        ('{"ab": "c"}', '{"a": "bc"}'),
        ('[["a"], "b"]', '["a", ["b"]]'),
    ],
)
def test_anything_else_makes_another_body(one, other):
    assert digest(one) != digest(other)


@pytest.mark.parametrize("text", ['{"a": 1', '{"a": 1} x', "", "{'a': 1}", b'{"a": "\xff"}'])
def test_a_body_that_is_not_json_has_no_digest(text):
    assert digest(text) is None


def test_a_body_beyond_the_bounds_has_no_digest():
    assert json_digest(b"[" * 40 + b"]" * 40, max_bytes=1000, max_depth=32) is None
    assert json_digest(b'"' + b"x" * 2000 + b'"', max_bytes=1000, max_depth=32) is None


def test_the_digest_builds_nothing_of_a_large_body():
    hands = [
        {"result": "win", "winner": f"p{i % 400}", "fan": 8 + i % 17, "note": "x" * (i % 20)}
        for i in range(12_000)
    ]
    body = json.dumps({"hands": hands}).encode()
    tracemalloc.start()
    try:
        assert digest(body) is not None
        streamed = tracemalloc.get_traced_memory()[1]
        tracemalloc.reset_peak()
        assert canonical_json(body, **BOUNDS) is not None
        parsed = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert streamed < len(body) // 4 < len(body) < parsed  # the old way built the body whole, several times


def test_an_object_of_many_keys_is_fingerprinted_by_its_bytes_within_its_size():
    """A wide object's keys are held until it closes (to be sorted): past ``held_pairs`` of them the body
    has no digest (its raw bytes are its fingerprint), so that the digest costs no more than the body."""
    wide = ("{" + ",".join(f'"k{i}":{i % 10}' for i in range(120_000)) + "}").encode()
    tracemalloc.start()
    try:
        assert digest(wide) is None
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 2 * len(wide)
    assert held_pairs(len(wide)) < 120_000
    some = {f"k{i}": i for i in range(held_pairs(0))}  # as many as any body may hold: still a digest
    assert digest(json.dumps(some)) == digest(json.dumps(dict(reversed(some.items())))) is not None
