"""Headless Chromium for the browser tests: one way to start it, wait on a page, and check the layout.

Started as the machine needs it (no sandbox, no network of its own, a fresh profile per test) and
showing a phone's viewport unless told otherwise; skipped (or failed, where the services are required)
when chromium or chromedriver is missing.
"""

from __future__ import annotations

import shutil
import time
from pathlib import Path

import pytest
from django.db.utils import OperationalError

from tests.conftest import skip_or_fail

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
)


def start(
    profile: Path,
    width: int = 390,
    height: int = 844,
    *,
    mobile: bool = True,
    flags: tuple[str, ...] = (),
    console_log: bool = False,
):
    """A Chromium driver with its own profile, a ``width`` × ``height`` window and viewport (a phone's
    when ``mobile``), and screenshots' folder ready."""
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    driver_path = shutil.which("chromedriver")
    if not chromium or not driver_path:
        skip_or_fail(
            "chromium and chromedriver are needed for the browser tests (apt-get install chromium chromium-driver)"
        )
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = chromium
    for flag in (*FLAGS, *flags, f"--window-size={width},{height}", f"--user-data-dir={profile}"):
        options.add_argument(flag)
    if console_log:
        options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service(driver_path), options=options)
    driver.set_page_load_timeout(30)
    if mobile:
        driver.execute_cdp_cmd(
            "Emulation.setDeviceMetricsOverride",
            {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": True},
        )
    ARTIFACTS.mkdir(exist_ok=True)
    return driver


def wait_for(condition, what: str, seconds: float = 60, interval: float = 0.2):
    """The first true value of ``condition()`` within ``seconds``; asks again while SQLite has a table
    locked by the live server's write, and while the page redraws what the condition reads (an element
    found and then replaced, or not there yet)."""
    from selenium.common.exceptions import NoSuchElementException, StaleElementReferenceException

    deadline = time.monotonic() + seconds
    value = None
    while time.monotonic() < deadline:
        try:
            value = condition()
        except (OperationalError, StaleElementReferenceException, NoSuchElementException):
            value = None
        if value:
            return value
        time.sleep(interval)
    pytest.fail(f"waited {seconds} s for {what} (last: {value!r})")


def click(driver, css: str, what: str = "", *, within=None) -> None:
    """Find the element ``css`` (in ``within``, else the page), bring it to the middle of the screen and tap
    it; found again when the page redrew it between the finding and the tap (a stale element), so a test
    taps what the page shows now, never an element it kept from before."""
    from selenium.common.exceptions import StaleElementReferenceException

    def tapped() -> bool:
        try:
            element = (within or driver).find_element("css selector", css)
            driver.execute_script("arguments[0].scrollIntoView({block: 'center'});", element)
            element.click()
        except StaleElementReferenceException:
            return False
        return True

    wait_for(tapped, what or f"{css} to tap")


def no_sideways_scroll(driver, *, body: bool = True) -> bool:
    """Nothing wider than the screen: the document (and its body, unless ``body`` is False). Measured
    against the layout viewport (the root's client width): a phone's browser zooms out to show a page that
    is too wide, and then the window's inner width grows with the page."""
    script = (
        "const screenWidth = document.documentElement.clientWidth;"
        "return document.documentElement.scrollWidth <= screenWidth"
    )
    if body:
        script += " && document.body.scrollWidth <= screenWidth"
    return driver.execute_script(script + ";")


AXE = Path(__file__).resolve().parent / "vendor" / "axe-4.10.3.min.js"


def serious_violations(driver, rules: tuple[str, ...] = ()) -> list[str]:
    """axe-core's serious and critical violations on the page as it is now (rule, and where): every rule,
    or only ``rules``."""
    if not driver.execute_script("return !!window.axe;"):
        driver.execute_script(AXE.read_text())
    return driver.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "const only = arguments[0].length ? {runOnly: {type: 'rule', values: arguments[0]}} : {};"
        "axe.run(document, {resultTypes: ['violations'], ...only}).then(r => done(r.violations"
        ".filter(v => v.impact === 'serious' || v.impact === 'critical')"
        ".map(v => v.id + ': ' + v.nodes.slice(0, 3).map(n => n.target.join(' ') + ' (' + n.failureSummary"
        ".split('\\n').slice(1).join(' ').trim() + ')').join(', '))))"
        ".catch(e => done(['axe failed: ' + e]));",
        list(rules),
    )
