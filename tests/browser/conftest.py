"""The browser tests' fixtures: a table phone in headless Chromium with its network tools on, a proxy in
front of the live server that can cut or stall the network (the entry pages' browser tests), and the
people's phones of the journeys through the pages (tests/browser/phone.py)."""

import threading

import pytest

from tests.browser.chromium import start
from tests.browser.netproxy import Proxy
from tests.browser.phone import Journey, Phone


@pytest.fixture(autouse=True, scope="session")
def _one_request_at_a_time_on_sqlite():
    """The live server answers each request in a thread; on SQLite every thread shares the test's one
    in-memory connection, which two requests at once (four table phones, a referee, a director) can break.
    There, the server handles one request at a time, as SQLite would anyway; PostgreSQL (CI) is left alone."""
    from django.core.handlers.wsgi import WSGIHandler
    from django.db import connection

    if connection.vendor != "sqlite":
        yield
        return
    lock = threading.Lock()
    original = WSGIHandler.__call__

    def one_at_a_time(self, environ, start_response):
        with lock:
            return original(self, environ, start_response)

    WSGIHandler.__call__ = one_at_a_time
    yield
    WSGIHandler.__call__ = original


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


@pytest.fixture
def phones(request, tmp_path, live_server):
    """``phones(who, journey)``: a person's phone in a browser of its own; ``phones(who, journey,
    tab_of=phone)``: a tab of that phone's browser. All are closed at the end of the test, after a
    screenshot of what each showed when the test failed."""
    made: list[Phone] = []

    def make(who: str, journey: Journey, *, tab_of: Phone | None = None) -> Phone:
        phone = Phone(who, journey, tmp_path, tab_of=tab_of)
        made.append(phone)
        return phone

    yield make
    if getattr(request.node, "failed_call", False):
        for phone in made:
            phone.shot_as_found()
    for phone in made:
        phone.quit()


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtest_makereport(item, call):
    """Marks a test whose body failed, for the fixtures that keep what the browser showed."""
    report = yield
    if report.when == "call" and report.failed:
        item.failed_call = True
    return report
