"""People's phones for the journeys through the product's pages (tests/browser/test_director_journey.py,
tests/browser/test_tournament_day.py): a headless Chromium at 390 × 844 per person, or a tab of another
person's browser (the table phones, which need no account), that saves a full-page screenshot of every page
it arrives on, notes the pages wider than the screen and, when the journey asks for it, runs axe-core once
on every page (per language).

A :class:`Journey` holds what the phones saw: the pages in order, the taps made on each, the wide pages, the
accessibility findings; ``report()`` writes them out for pages.txt beside the screenshots."""

from __future__ import annotations

import base64
import re
import shutil
import time
from collections import OrderedDict
from pathlib import Path

import pytest

from tests.browser.chromium import ARTIFACTS, serious_violations, start

WIDTH, HEIGHT = 390, 844
WAIT_SECONDS = 30


class Journey:
    """One journey: the pages visited (in order) and the taps made on each, shared by the phones."""

    def __init__(self, name: str, base: str, *, folder: str | None = None, axe: bool = False):
        self.name = name
        self.base = base
        self.folder = ARTIFACTS / (folder or f"journey-{name}")
        shutil.rmtree(self.folder, ignore_errors=True)
        self.folder.mkdir(parents=True)
        self.downloads = self.folder / "downloads"
        self.downloads.mkdir()
        self.visits: list[tuple[str, str, str]] = []  # (phone, page, file)
        self.taps: OrderedDict[str, int] = OrderedDict()
        self.wide: list[str] = []
        self.shot_seconds = 0.0
        self.load_seconds: dict[str, float] = {}
        self.axe = axe
        self.axe_checked: set[tuple[str, str]] = set()  # (page, language)
        self.axe_found: dict[str, list[str]] = {}
        self.axe_seconds = 0.0

    def page_name(self, url: str) -> str:
        path = re.sub(r"^https?://[^/]+", "", url).split("?")[0].split("#")[0]
        path = re.sub(r"^/t/[^/]+/", "/t/{slug}/", path)
        path = re.sub(r"/table/[A-Za-z0-9_-]{16,}/", "/table/{link}/", path)
        path = re.sub(r"/welcome/[^/]+/[^/]+/", "/welcome/{uid}/{token}/", path)
        path = re.sub(r"/players/p\d+/", "/players/{key}/", path)
        return re.sub(r"/\d+/", "/{n}/", re.sub(r"/\d+/", "/{n}/", path))

    def report(self) -> str:
        lines = [
            f"Journey {self.name}: {len(self.visits)} page visits, {sum(self.taps.values())} taps",
            f"Screenshots took {self.shot_seconds:.1f} s. Wider than the screen: {', '.join(self.wide) or 'none'}",
        ]
        if self.axe:
            lines.append(
                f"axe-core: {len(self.axe_checked)} pages checked in {self.axe_seconds:.1f} s; serious or"
                f" critical: {'; '.join(f'{p}: {v}' for p, v in self.axe_found.items()) or 'none'}"
            )
        lines.append("")
        lines.append("Taps per page (page: taps over all its visits / visits):")
        visits: dict[str, int] = {}
        for _, page, _ in self.visits:
            visits[page] = visits.get(page, 0) + 1
        for page, count in visits.items():
            lines.append(f"  {page}: {self.taps.get(page, 0)} / {count}")
        slow = sorted(self.load_seconds.items(), key=lambda kv: -kv[1])[:8]
        lines += ["", "Seconds from a tap to the next page, by page tapped on (slowest):"]
        lines += [f"  {page}: {seconds:.1f}" for page, seconds in slow]
        lines += ["", "Visits in order:"]
        lines += [f"  {file}  {phone:9} {page}" for phone, page, file in self.visits]
        return "\n".join(lines) + "\n"


class Phone:
    """One person's phone: a headless Chromium at 390 × 844, or (``tab_of``) a tab of another phone's
    browser, with its own window but that browser's cookies and storage."""

    def __init__(self, who: str, journey: Journey, tmp: Path, *, tab_of: Phone | None = None):
        if tab_of is None:
            self._driver = start(tmp / who, WIDTH, HEIGHT, flags=("--disable-dev-shm-usage", "--lang=en"))
            self._driver.execute_cdp_cmd(
                "Page.setDownloadBehavior", {"behavior": "allow", "downloadPath": str(journey.downloads)}
            )
            self._front = {"handle": self._driver.current_window_handle}
            self.owns_browser = True
        else:
            self._driver = tab_of._driver
            self._front = tab_of._front
            self._driver.switch_to.new_window("tab")
            self._front["handle"] = self._driver.current_window_handle
            self._driver.execute_cdp_cmd(
                "Emulation.setDeviceMetricsOverride",
                {"width": WIDTH, "height": HEIGHT, "deviceScaleFactor": 1, "mobile": True},
            )
            self.owns_browser = False
        self.handle = self._front["handle"]
        self.who = who
        self.journey = journey
        self._page: str | None = None

    @property
    def driver(self):
        """The browser, showing this phone's tab."""
        if self._front["handle"] != self.handle:
            self._driver.switch_to.window(self.handle)
            self._front["handle"] = self.handle
        return self._driver

    # -- pages -------------------------------------------------------------------------------------------
    @property
    def page(self) -> str:
        if self._page is None:
            self._page = self.journey.page_name(self.driver.current_url)
        return self._page

    def _arrived(self) -> None:
        self._page = None
        wait_for(
            lambda: self.driver.execute_script("return document.readyState") == "complete", "the page to load"
        )
        # a new page replaces the window's marks; the table page's script swaps in the server's <main> instead
        self.driver.execute_script(
            "window.__same_page = true; var m = document.querySelector('main'); if (m) m.__same_page = true;"
        )
        self.shot()
        self.check()

    def language(self) -> str:
        return self.driver.execute_script("return document.documentElement.lang || '';")

    def check(self) -> None:
        """axe-core on this page, once per page and language, when the journey asks for it."""
        j = self.journey
        key = (self.page, self.language())
        if not j.axe or key in j.axe_checked:
            return
        begun = time.monotonic()
        j.axe_checked.add(key)
        found = serious_violations(self.driver)
        if found:
            j.axe_found[f"{key[0]} ({key[1]})"] = found
        j.axe_seconds += time.monotonic() - begun

    def shot(self, suffix: str = "") -> None:
        j = self.journey
        begun = time.monotonic()
        number = len(j.visits) + 1
        page = self.page
        slug = re.sub(r"[^a-z0-9]+", "-", page.lower()).strip("-") or "home"
        file = f"{number:03d}-{self.who}-{slug}{'-' + suffix if suffix else ''}.png"
        metrics = self.driver.execute_cdp_cmd("Page.getLayoutMetrics", {})
        height = min(int(metrics["cssContentSize"]["height"]) + 1, 8000)
        image = self.driver.execute_cdp_cmd(
            "Page.captureScreenshot",
            {
                "format": "png",
                "captureBeyondViewport": True,
                "optimizeForSpeed": True,
                "clip": {"x": 0, "y": 0, "width": WIDTH, "height": max(height, HEIGHT), "scale": 1},
            },
        )
        (j.folder / file).write_bytes(base64.b64decode(image["data"]))
        j.visits.append((self.who, page, file))
        overflow = self.driver.execute_script(
            "return Math.max(document.documentElement.scrollWidth, document.body.scrollWidth) - window.innerWidth;"
        )
        if overflow > 0:
            j.wide.append(f"{page} ({overflow} px)")
        j.shot_seconds += time.monotonic() - begun

    def shot_as_found(self) -> None:
        """A screenshot of this phone's page as it is now, and its text, for a test that failed."""
        try:
            self._page = None
            self.shot("as-found")
            (self.journey.folder / f"{self.who}-as-found.txt").write_text(self.text("body"))
        except Exception:  # a closed tab or a browser gone: nothing to show
            pass

    def go(self, url: str) -> None:
        """Open a link received from someone else (a table link, a sign-in link) or typed."""
        self.driver.get(url if url.startswith("http") else self.journey.base + url)
        self._arrived()

    def tap(self, target) -> None:
        """Tap ``target``: a CSS selector or a function finding the element, found again when the page
        redrew it between the finding and the tap; or an element just found (a kept element goes stale
        when the page redraws: pass a selector or a finder instead)."""
        from selenium.common.exceptions import StaleElementReferenceException

        self.journey.taps[self.page] = self.journey.taps.get(self.page, 0) + 1
        find = (
            (lambda: self.find(target)) if isinstance(target, str) else target if callable(target) else None
        )

        if find is None:
            self.driver.execute_script("arguments[0].scrollIntoView({block: 'center'});", target)
            target.click()
            return

        def tapped() -> bool:
            element = find()
            try:
                self.driver.execute_script("arguments[0].scrollIntoView({block: 'center'});", element)
                element.click()
            except StaleElementReferenceException:
                return False
            return True

        wait_for(tapped, f"{target if isinstance(target, str) else 'the element'} to tap")

    def tap_and_load(self, target, *, accept: bool = False) -> None:
        """Tap what leads to another page (a link, a submit button) and wait for that page."""
        page, begun = self.page, time.monotonic()
        self.tap(target)
        if accept:
            wait_for(self._alert, "the confirmation dialog")
            self.driver.switch_to.alert.accept()
            self.journey.taps[self.page] = self.journey.taps.get(self.page, 0) + 1
        wait_for(
            lambda: self.driver.execute_script(
                "var m = document.querySelector('main');"
                "return (window.__same_page !== true || (m && m.__same_page !== true))"
                " && document.readyState === 'complete';"
            ),
            "the next page",
        )
        self.journey.load_seconds[page] = self.journey.load_seconds.get(page, 0) + time.monotonic() - begun
        self._arrived()

    def _alert(self) -> bool:
        try:
            self.driver.switch_to.alert  # noqa: B018
        except Exception:
            return False
        return True

    def find(self, css: str):
        return self.driver.find_element("css selector", css)

    def finds(self, css: str):
        return self.driver.find_elements("css selector", css)

    def text(self, css: str = "main") -> str:
        return self.driver.execute_script(
            "const e = document.querySelector(arguments[0]); return e ? e.innerText : '';", css
        )

    def link(self, text: str, within: str = "body"):
        scope = self.find(within)
        found = scope.find_elements("xpath", f".//a[normalize-space()={xpath_text(text)}]")
        assert found, f"no link {text!r} on {self.page}"
        return found[0]

    def follow(self, text: str, within: str = "body") -> None:
        self.tap_and_load(lambda: self.link(text, within))

    def fill(self, form: str, values: dict) -> None:
        """Type the text fields; tap the choices (selects, radios, checkboxes, files)."""
        from selenium.common.exceptions import StaleElementReferenceException
        from selenium.webdriver.support.ui import Select

        def one(name: str, value) -> bool:
            fields = self.finds(f"{form} [name='{name}']")
            assert fields, f"no field {name} in {form} on {self.page}"
            field = fields[0]
            kind = (field.get_attribute("type") or field.tag_name).lower()
            if field.tag_name == "select":
                Select(field).select_by_value(str(value))
                self.journey.taps[self.page] = self.journey.taps.get(self.page, 0) + 1
            elif kind == "radio":
                self.tap(
                    lambda: next(
                        f
                        for f in self.finds(f"{form} [name='{name}']")
                        if f.get_attribute("value") == str(value)
                    )
                )
            elif kind == "checkbox":
                if field.is_selected() != bool(value):
                    self.tap(lambda: self.finds(f"{form} [name='{name}']")[0])
            elif kind == "file":
                field.send_keys(str(value))
                self.journey.taps[self.page] = self.journey.taps.get(self.page, 0) + 1
            elif kind in ("date", "datetime-local"):
                self.driver.execute_script("arguments[0].value = arguments[1];", field, str(value))
            else:
                field.clear()
                field.send_keys(str(value))
            return True

        for name, value in values.items():
            assert self.finds(f"{form} [name='{name}']"), f"no field {name} in {form} on {self.page}"

            # the field found again when the page redrew it (an htmx update of the form) before it was used
            def filled(name=name, value=value) -> bool:
                try:
                    return one(name, value)
                except StaleElementReferenceException:
                    return False

            wait_for(filled, f"the field {name} to fill")

    def submit(self, form: str, *, accept: bool = False) -> None:
        self.tap_and_load(f"{form} button[type=submit]", accept=accept)

    def save_hand(self, number: int, *, saved: str = "Hand {n} saved.") -> None:
        """Save a hand on the table page: the page stays, its parts are replaced once the server answers."""
        self.tap("form.hand-form button[type=submit]")
        wait_for(
            lambda: saved.format(n=number) in self.driver.execute_script("return document.body.innerText;"),
            f"hand {number} saved",
        )

    def open_penalty_kind(self, kind: str) -> None:
        """On a table page: open "Record a penalty" and follow the link of the penalty ``kind``."""
        if not self.find("#penalties details").get_attribute("open"):
            self.tap("#penalties details > summary")
        self.tap_and_load(
            lambda: next(
                a
                for a in self.finds("#penalties .kind-links a")
                if a.get_attribute("href").rstrip("/").endswith("/" + kind)
            )
        )

    def messages(self) -> str:
        return " ".join(m.text for m in self.finds("article.message"))

    def close(self) -> None:
        """Close this phone's tab (the browser stays for its other tabs)."""
        self.driver.close()
        self._front["handle"] = None

    def quit(self) -> None:
        if self.owns_browser:
            self._driver.quit()


def xpath_text(text: str) -> str:
    return "'" + text + "'" if "'" not in text else 'concat("' + text.replace('"', '", \'"\', "') + '")'


def wait_for(condition, what: str, seconds: float = WAIT_SECONDS):
    """The first true value of ``condition()`` within ``seconds``, asking again while a page is between
    two loads."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            value = condition()
        except Exception:  # a page between two loads
            value = None
        if value:
            return value
        time.sleep(0.05)
    pytest.fail(f"waited {seconds} s for {what}")
