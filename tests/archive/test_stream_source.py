"""An archive read as a stream gives the sessions ``json`` reads, one at a time, each built with its
repeated keys and short texts shared (a session's hands would otherwise each hold their own copies)."""

from __future__ import annotations

import io
import json
import tracemalloc

import ijson
import pytest

from rankings.archive.source import open_source

from .conftest import RULESETS, fixture_path, load


@pytest.mark.parametrize("ruleset", RULESETS)
def test_the_streamed_sessions_are_the_parsed_ones(ruleset):
    source = open_source(fixture_path(ruleset))
    assert list(source.sessions()) == load(ruleset)["sessions"]


def test_every_value_comes_as_json_reads_it():
    sessions = [
        {
            "number": 1,
            "tables": [
                {
                    "long": 'é\u00e9\\"\n' * 30,
                    "nested": [[], {}, [{"a": [1, 2.5, -3e2, None, True, False]}], {"": ""}],
                    "same": {"k": 1, "k2": "k"},
                }
            ],
        },
        [],
        "text",
        7,
        None,
    ]
    text = json.dumps({"format": "x", "sessions": sessions, "after": {"sessions": [1]}})
    assert list(open_source(text.encode()).sessions()) == json.loads(text)["sessions"]


def test_a_repeated_sessions_key_gives_what_ijson_gives():
    text = b'{"sessions": [{"number": 1}], "players": [], "sessions": [{"number": 2}]}'
    streamed = list(open_source(text).sessions())
    assert streamed == list(ijson.items(io.BytesIO(text), "sessions.item", use_float=True))


def test_a_session_costs_less_than_ijson_builds_of_it():
    hands = [{"result": "win", "winner": f"p{i % 4}", "discarder": None, "fan": 8} for i in range(1600)]
    text = json.dumps({"sessions": [{"number": 1, "tables": [{"number": 1, "hands": hands}]}]}).encode()
    costs = []
    for read in (
        lambda: list(open_source(text).sessions()),
        lambda: list(ijson.items(io.BytesIO(text), "sessions.item", use_float=True)),
    ):
        tracemalloc.start()
        try:
            sessions = read()
            costs.append(tracemalloc.get_traced_memory()[0])
        finally:
            tracemalloc.stop()
        assert sessions[0]["tables"][0]["hands"] == hands
        del sessions
    shared, built = costs
    assert shared < built * 2 // 3  # the hands themselves (their dicts) are most of what is left
