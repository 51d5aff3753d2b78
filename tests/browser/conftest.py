"""The table phone's fixtures: a phone in headless Chromium with its network tools on, and a proxy in front
of the live server that can cut or stall the network (the entry pages' browser tests)."""

import pytest

from tests.browser.chromium import start
from tests.browser.netproxy import Proxy


@pytest.fixture
def browser(tmp_path):
    driver = start(tmp_path / "profile")
    driver.execute_cdp_cmd("Network.enable", {})
    yield driver
    driver.quit()


@pytest.fixture
def proxy(live_server):
    p = Proxy(int(live_server.url.rsplit(":", 1)[1]))
    yield p
    p.close()
