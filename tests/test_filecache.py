"""The embedded default's file cache: ``add`` never overwrites, and waits for a write another process holds."""

from __future__ import annotations

import fcntl
import threading

import pytest

from config.filecache import LOCK_NAME, SharedFileCache


@pytest.fixture
def shared(tmp_path):
    return SharedFileCache(str(tmp_path / "cache"), {})


def test_add_keeps_what_is_there_and_set_replaces_it(shared):
    assert shared.add("clock:doc:open", "built by a reader", 60) is True
    assert shared.add("clock:doc:open", "an older reading", 60) is False
    shared.set("clock:doc:open", "after the commit", 60)
    assert shared.get("clock:doc:open") == "after the commit"
    assert shared.add("clock:doc:open", "an older reading", 60) is False
    shared.clear()
    assert shared.get("clock:doc:open") is None and shared.add("clock:doc:open", "new", 60) is True


def test_a_write_waits_while_another_process_holds_the_lock(shared, tmp_path):
    shared.set("warm", "up", 60)  # the folder and its lock file exist
    done = threading.Event()

    def write():
        shared.set("clock:doc:open", "after the commit", 60)
        done.set()

    with open(tmp_path / "cache" / LOCK_NAME, "a+b") as other:  # what another process's add holds
        fcntl.flock(other, fcntl.LOCK_EX)
        writer = threading.Thread(target=write)
        writer.start()
        assert not done.wait(0.3)  # still waiting for the lock
        assert shared.get("clock:doc:open") is None
        fcntl.flock(other, fcntl.LOCK_UN)
    writer.join(60)
    assert done.is_set() and shared.get("clock:doc:open") == "after the commit"
