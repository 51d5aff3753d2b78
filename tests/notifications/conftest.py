from __future__ import annotations

import pytest

from notifications import vapid
from tests.notifications.pushserver import Browser, PushServer

PAIR = vapid.new_pair()


@pytest.fixture
def push_server(settings):
    server = PushServer()
    settings.PUSH_SERVICE_HOSTS = [*settings.PUSH_SERVICE_HOSTS, "http://127.0.0.1"]
    settings.VAPID_PUBLIC_KEY, settings.VAPID_PRIVATE_KEY = PAIR
    settings.VAPID_SUBJECT = "mailto:tests@example.org"
    yield server
    server.close()


@pytest.fixture
def phone(push_server):
    count = iter(range(1, 1000))
    return lambda: Browser(push_server, f"phone{next(count)}")
