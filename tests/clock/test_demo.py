"""The demo tournament runs a clock on its current session."""

from __future__ import annotations

import pytest

from tournaments.demo import load_demo

pytestmark = pytest.mark.django_db


def test_the_demo_runs_the_clock_of_session_2(client):
    load_demo()
    body = client.get("/api/tournaments/demo-open-2026/clock/").json()
    assert body["session"] == 2 and body["state"] == "running"
    assert 49 * 60 <= body["remaining_seconds"] <= 50 * 60  # 120 minutes started 70 minutes ago
    table4 = next(t for t in body["tables"] if t["table"] == 4)
    assert table4["extra_seconds"] == 300
    screen = client.get("/t/demo-open-2026/screen/").content.decode()
    assert "Lunch after session 2" in screen
    assert client.get("/t/demo-open-2026/clock/").status_code == 200
