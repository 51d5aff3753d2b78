"""The domain event in tests, which run inside one transaction that never commits: the event's commit
callbacks are found and run where the server would commit (see ``tests/conftest.py``)."""

from __future__ import annotations


def test_depth(connection) -> int:
    """How many of the connection's transactions are the test's own."""
    return sum(1 for block in connection.atomic_blocks if getattr(block, "_from_testcase", False))


def events_send(connection) -> None:
    """Send the domain events waiting for a commit, as the commit would: Django takes every callback off
    the connection's list first, then runs them in order (the first sends them all, merged, once)."""
    found = [e for e in connection.run_on_commit if getattr(e[1], "event_delivery", False)]
    connection.run_on_commit = [e for e in connection.run_on_commit if e not in found]
    while found:
        _, callback, _ = found.pop(0)
        callback()
