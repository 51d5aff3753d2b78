"""The nesting bound read on the bytes before any parser: brackets inside strings do not count, escapes
are followed, a text too deep is refused, and the check copies nothing (its memory does not grow with the
body), whether the text comes whole or in pieces of a stream."""

from __future__ import annotations

import io
import json
import tracemalloc

import pytest

from rankings.archive import open_source
from scoring.rules.base import RuleError
from scoring.rules.jsontext import nesting_over, nesting_over_chunks, stream_nesting_over


def nested(depth: int) -> str:
    """Objects in objects, an array of one number at the bottom: ``depth`` levels."""
    return '{"a":' * (depth - 1) + "[1]" + "}" * (depth - 1)


TEXTS = [
    # (text, deepest nesting)
    (nested(32), 32),
    (nested(33), 33),
    (json.dumps({"note": "[[[[{{{{" * 20, "x": [1, [2]]}), 3),
    (json.dumps({"note": 'a "quoted" [word]', "x": [[[]]]}), 4),
    (json.dumps({"note": "ends with a backslash \\", "x": "[" * 40}), 1),
    (json.dumps(["\\\\\\", '\\"[[[', ["]]]"]]), 2),
    (json.dumps({"ñandú": "日本[{", "k": [{"l": "}]"}]}), 3),
    ("[" + ",".join(["[]"] * 1000) + "]", 2),
    ("[" * 40 + "]" * 40, 40),
]


@pytest.mark.parametrize("text, depth", TEXTS)
def test_the_depth_counts_brackets_outside_strings_only(text, depth):
    data = text.encode("utf-8")
    assert json.loads(data) is not None  # every case is valid JSON
    assert nesting_over(data, depth - 1)
    assert not nesting_over(data, depth)


@pytest.mark.parametrize("text, depth", TEXTS)
def test_pieces_of_any_size_give_the_same_answer_as_the_whole_text(text, depth):
    data = text.encode("utf-8")
    for size in (1, 2, 3, 5, 64):
        pieces = [memoryview(data)[i : i + size] for i in range(0, len(data), size)]
        assert nesting_over_chunks(pieces, depth - 1)
        assert not nesting_over_chunks(pieces, depth)
        assert stream_nesting_over(io.BytesIO(data), depth - 1, chunk_size=size)
        assert not stream_nesting_over(io.BytesIO(data), depth, chunk_size=size)


def test_an_unterminated_string_hides_what_follows_and_is_left_to_the_parser():
    assert not nesting_over(b'["' + b"[" * 100, 32)
    assert nesting_over(b"[" * 33 + b'"', 32)


def test_a_deep_archive_is_refused_before_it_is_parsed():
    archive = '{"format": "mahjong-archive", "tournament": ' + nested(40) + "}"
    with pytest.raises(RuleError, match="more than 32 levels deep"):
        open_source(archive.encode())


def test_the_scan_copies_nothing_of_a_large_text():
    hands = [
        {"seat": i % 4, "fan": 8, "note": 'a "[b]" \\ {c}', "tiles": ["1m", [1, {"x": "]"}]]}
        for i in range(20_000)
    ]
    data = json.dumps({"hands": hands}).encode()
    assert len(data) > 1_000_000
    tracemalloc.start()
    try:
        assert not nesting_over(data, 32)
        assert not stream_nesting_over(io.BytesIO(data), 32)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < len(data) // 10  # the pieces read from the stream, never the text again
