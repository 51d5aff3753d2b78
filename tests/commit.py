"""The domain event in tests, which run inside one transaction that never commits: the event's commit
callbacks are found and run where the server would commit (see ``tests/conftest.py``)."""

from __future__ import annotations


def test_depth(connection) -> int:
    """How many of the connection's transactions are the test's own."""
    return sum(1 for block in connection.atomic_blocks if getattr(block, "_from_testcase", False))


def events_send(connection) -> None:
    """Send the domain events waiting for a commit, as the commit would (merged, once)."""
    while True:
        found = [e for e in connection.run_on_commit if getattr(e[1], "event_delivery", False)]
        if not found:
            return
        connection.run_on_commit.remove(found[0])  # the others stay, for it to see them as waiting
        found[0][1]()
