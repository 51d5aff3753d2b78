"""A tournament run from an empty server by its director, on a 390 × 844 phone, with the product's pages
only (never /admin/): an organiser signs in, creates the tournament, keeps the default rules, creates a
referee's account, imports the EMA player list, registers 15 players by CSV, one by hand (flagged as a
possible duplicate) and one from the EMA list, checks in, seats, publishes, starts and finishes every
session, has every table entered through its table link or by the referee and confirmed by the referee,
records one penalty of each kind the ruleset has, finishes the tournament, reveals the results and downloads
the EMA results file, whose rows are checked. Run for MCR and for EMA riichi.

Every page visited is saved as a full-page screenshot under test-artifacts/journey-<ruleset>/, with
pages.txt listing the pages in order and the taps made on each."""

from __future__ import annotations

import csv
import io
import re
import shutil
import time
from collections import OrderedDict
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model

from tests.conftest import skip_or_fail
from tournaments.console.services import organiser_grant

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts"
WIDTH, HEIGHT = 390, 844
WAIT_SECONDS = 30
PASSWORD = "organiser-pw-2026"
FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    f"--window-size={WIDTH},{HEIGHT}",
)
FIRST = ["Ana", "Bruno", "Carmen", "David", "Eva", "Fermín", "Gloria", "Héctor", "Irene", "Jorge",
         "Karen", "Luis", "Lucía", "Mateo", "Nuria"]  # fmt: skip
LAST = ["García", "López", "Martínez", "Sánchez", "Pérez", "Gómez", "Díaz", "Ruiz", "Moreno", "Muñoz",
        "Álvarez", "Romero", "Fernández", "Navarro", "Torres"]  # fmt: skip
EMA_LIST = [
    ("04010001", "Élodie", "Marchand", "FRA"),
    ("04010002", "Jan", "de Vries", "NLD"),
    ("04010003", "Anna", "Schmidt", "DEU"),
]


class Journey:
    """One ruleset's journey: the pages visited (in order) and the taps made on each, shared by the phones."""

    def __init__(self, name: str, base: str):
        self.name = name
        self.base = base
        self.folder = ARTIFACTS / f"journey-{name}"
        shutil.rmtree(self.folder, ignore_errors=True)
        self.folder.mkdir(parents=True)
        self.downloads = self.folder / "downloads"
        self.downloads.mkdir()
        self.visits: list[tuple[str, str, str]] = []  # (phone, page, file)
        self.taps: OrderedDict[str, int] = OrderedDict()
        self.wide: list[str] = []
        self.shot_seconds = 0.0
        self.load_seconds: dict[str, float] = {}

    def page_name(self, url: str) -> str:
        path = url.removeprefix(self.base).split("?")[0].split("#")[0]
        path = re.sub(r"^/t/[^/]+/", "/t/{slug}/", path)
        path = re.sub(r"/table/[A-Za-z0-9_-]{16,}/", "/table/{link}/", path)
        path = re.sub(r"/welcome/[^/]+/[^/]+/", "/welcome/{uid}/{token}/", path)
        path = re.sub(r"/players/p\d+/", "/players/{key}/", path)
        return re.sub(r"/\d+/", "/{n}/", re.sub(r"/\d+/", "/{n}/", path))

    def report(self) -> str:
        lines = [
            f"Journey {self.name}: {len(self.visits)} page visits, {sum(self.taps.values())} taps",
            f"Screenshots took {self.shot_seconds:.1f} s. Wider than the screen: {', '.join(self.wide) or 'none'}",
            "",
        ]
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
    """One person's phone: a headless Chromium at 390 × 844."""

    def __init__(self, who: str, journey: Journey, tmp: Path):
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service

        options = webdriver.ChromeOptions()
        options.binary_location = shutil.which("chromium") or shutil.which("chromium-browser")
        for flag in FLAGS:
            options.add_argument(flag)
        options.add_argument(f"--user-data-dir={tmp / who}")
        options.add_argument("--lang=en")
        self.driver = webdriver.Chrome(service=Service(shutil.which("chromedriver")), options=options)
        self.driver.set_page_load_timeout(30)
        self.driver.execute_cdp_cmd(
            "Emulation.setDeviceMetricsOverride",
            {"width": WIDTH, "height": HEIGHT, "deviceScaleFactor": 1, "mobile": True},
        )
        self.driver.execute_cdp_cmd(
            "Page.setDownloadBehavior", {"behavior": "allow", "downloadPath": str(journey.downloads)}
        )
        self.who = who
        self.journey = journey
        self._page: str | None = None

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

    def shot(self) -> None:
        j = self.journey
        begun = time.monotonic()
        number = len(j.visits) + 1
        page = self.page
        slug = re.sub(r"[^a-z0-9]+", "-", page.lower()).strip("-") or "home"
        file = f"{number:03d}-{self.who}-{slug}.png"
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
        import base64

        (j.folder / file).write_bytes(base64.b64decode(image["data"]))
        j.visits.append((self.who, page, file))
        overflow = self.driver.execute_script(
            "return Math.max(document.documentElement.scrollWidth, document.body.scrollWidth) - window.innerWidth;"
        )
        if overflow > 0:
            j.wide.append(f"{page} ({overflow} px)")
        j.shot_seconds += time.monotonic() - begun

    def go(self, url: str) -> None:
        """Open a link received from someone else (a table link, a sign-in link) or typed."""
        self.driver.get(url if url.startswith("http") else self.journey.base + url)
        self._arrived()

    def tap(self, element) -> None:
        self.journey.taps[self.page] = self.journey.taps.get(self.page, 0) + 1
        self.driver.execute_script("arguments[0].scrollIntoView({block: 'center'});", element)
        element.click()

    def tap_and_load(self, element, *, accept: bool = False) -> None:
        """Tap what leads to another page (a link, a submit button) and wait for that page."""
        page, begun = self.page, time.monotonic()
        self.tap(element)
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

    def link(self, text: str, within: str = "body"):
        scope = self.find(within)
        found = scope.find_elements("xpath", f".//a[normalize-space()={_xpath_text(text)}]")
        assert found, f"no link {text!r} on {self.page}"
        return found[0]

    def follow(self, text: str, within: str = "body") -> None:
        self.tap_and_load(self.link(text, within))

    def fill(self, form: str, values: dict) -> None:
        """Type the text fields; tap the choices (selects, radios, checkboxes, files)."""
        from selenium.webdriver.support.ui import Select

        for name, value in values.items():
            fields = self.finds(f"{form} [name='{name}']")
            assert fields, f"no field {name} in {form} on {self.page}"
            field = fields[0]
            kind = (field.get_attribute("type") or field.tag_name).lower()
            if field.tag_name == "select":
                Select(field).select_by_value(str(value))
                self.journey.taps[self.page] = self.journey.taps.get(self.page, 0) + 1
            elif kind == "radio":
                self.tap(next(f for f in fields if f.get_attribute("value") == str(value)))
            elif kind == "checkbox":
                if field.is_selected() != bool(value):
                    self.tap(field)
            elif kind == "file":
                field.send_keys(str(value))
                self.journey.taps[self.page] = self.journey.taps.get(self.page, 0) + 1
            elif kind in ("date", "datetime-local"):
                self.driver.execute_script("arguments[0].value = arguments[1];", field, str(value))
            else:
                field.clear()
                field.send_keys(str(value))

    def submit(self, form: str, *, accept: bool = False) -> None:
        self.tap_and_load(self.find(f"{form} button[type=submit]"), accept=accept)

    def save_hand(self, number: int) -> None:
        """Save a hand on the table page: the page stays, its parts are replaced once the server answers."""
        self.tap(self.find("form.hand-form button[type=submit]"))
        wait_for(
            lambda: f"Hand {number} saved." in self.driver.execute_script("return document.body.innerText;"),
            f"hand {number} saved",
        )

    def messages(self) -> str:
        return " ".join(m.text for m in self.finds("article.message"))

    def quit(self) -> None:
        self.driver.quit()


def _xpath_text(text: str) -> str:
    return "'" + text + "'" if "'" not in text else 'concat("' + text.replace('"', '", \'"\', "') + '")'


def wait_for(condition, what: str):
    deadline = time.monotonic() + WAIT_SECONDS
    while time.monotonic() < deadline:
        try:
            value = condition()
        except Exception:  # a page between two loads
            value = None
        if value:
            return value
        time.sleep(0.05)
    pytest.fail(f"waited {WAIT_SECONDS} s for {what}")


@pytest.fixture
def phones(tmp_path, live_server):
    if not (shutil.which("chromium") or shutil.which("chromium-browser")) or not shutil.which("chromedriver"):
        skip_or_fail(
            "chromium and chromedriver are needed for the browser tests (apt-get install chromium chromium-driver)"
        )
    made: list[Phone] = []

    def make(who: str, journey: Journey) -> Phone:
        phone = Phone(who, journey, tmp_path)
        made.append(phone)
        return phone

    yield make
    for phone in made:
        phone.quit()


def _csv_files(folder: Path) -> tuple[Path, Path]:
    players = folder / "players.csv"
    with players.open("w", encoding="utf-8", newline="") as f:
        w = csv.writer(f)
        w.writerow(["first_name", "last_name", "ema_id", "country", "club"])
        for i, (first, last) in enumerate(zip(FIRST, LAST, strict=True)):
            w.writerow(
                [
                    first,
                    last,
                    f"0402{i:04d}" if i % 3 == 0 else "",
                    ["ESP", "FRA", "NLD", "DEU"][i % 4],
                    f"Club {i % 5}",
                ]
            )
    ema = folder / "ema-list.csv"
    with ema.open("w", encoding="utf-8", newline="") as f:
        w = csv.writer(f)
        w.writerow(["ema_id", "first_name", "last_name", "country"])
        w.writerows(EMA_LIST)
    return players, ema


def _totals(ruleset: str, n: int) -> list[int]:
    if ruleset == "mcr":
        return [30 + n, 10, -15, -25 - n]
    return [40000 + 1000 * n, 32000, 28000 - 1000 * n, 20000]


PENALTY_VALUES = {
    "late_arrival": {"minutes_late": 5},
    "foul": {},
    "false_hu": {"hand_number": 1},
    "dead_hand": {"hand_number": 1},
    "forgot_winning_tile": {"hand_number": 1},
    "chombo": {},
    "referee": {"reason": "Showed tiles to a neighbour"},
    "table_points": {"table_points": "-1", "reason": "Slow play after warnings"},
    "replaced": {"reason": "illness", "during": True},
    "disqualified": {"scope": "session", "reason": "Unsporting behaviour"},
}


def run_journey(ruleset: str, live_server, phones) -> Journey:
    started = time.monotonic()
    User = get_user_model()
    organiser = User.objects.create_user("org", email="org@example.org", password=PASSWORD)
    organiser_grant(user=organiser)

    journey = Journey(ruleset, live_server.url)
    players_csv, ema_csv = _csv_files(journey.folder)
    boss = phones("director", journey)

    # Sign in: the organiser lands on their tournaments.
    boss.go("/")
    boss.follow("Log in")
    boss.fill("main form", {"username": "org", "password": PASSWORD})
    boss.submit("main form")
    assert boss.page == "/my/"

    # Create the tournament; the sessions come from the day plan.
    boss.tap_and_load(boss.find("#new-tournament"))
    boss.fill(
        "#tournament-form",
        {
            "name": f"Journey {ruleset}",
            "ruleset": ruleset,
            "starts_on": "2026-06-06",
            "days": "2",
            "city": "Valencia",
            "country": "ESP",
            "hide_last_sessions": "1",
            "sessions": "4",
            "times": "10:00, 16:00",
        },
    )
    boss.submit("#tournament-form")
    assert boss.page == "/t/{slug}/console/rules/", boss.messages()
    slug = boss.driver.current_url.split("/t/")[1].split("/")[0]
    boss.submit("#rules-form")  # the preset as it is
    assert boss.page == "/t/{slug}/console/"
    assert len(boss.finds("#console-sessions tbody tr[data-session]")) == 4

    # A referee's account, made on the spot with a password shown once.
    boss.follow("Staff", ".console-nav")
    boss.fill("#create-staff form", {"new-username": "ref1", "new-role": "referee", "new-access": "password"})
    boss.submit("#create-staff form")
    referee_password = boss.find("#new-password").text.strip()
    assert len(referee_password) >= 10

    # The EMA player list, then the players: 15 by CSV, one by hand, one from the list.
    boss.follow("Players", ".console-nav")
    boss.follow("Import it", "#ema")
    boss.fill("main form", {"file": ema_csv})
    boss.submit("main form")
    assert boss.page == "/t/{slug}/console/players/" and "3 added" in boss.messages()
    boss.follow("Import players from CSV")
    boss.fill("main form", {"file": players_csv})
    boss.submit("main form")
    assert "15 players registered" in boss.messages()
    boss.follow("Back to the players")
    boss.fill(
        "#player-form", {"first_name": "Lucia", "last_name": "Fernandez", "country": "ESP", "club": "Club 9"}
    )
    boss.submit("#player-form")
    assert "is it the same person?" in boss.find("#player-form").text  # "Lucía Fernández" is registered
    boss.fill("#player-form", {"same_player": "0"})
    boss.submit("#player-form")
    assert "Lucia Fernandez is registered" in boss.messages()
    search = boss.find("#ema-q")
    boss.tap(search)
    search.send_keys("elodie")
    button = wait_for(lambda: boss.find("#ema-found button[data-ema='04010001']"), "the EMA list search")
    boss.tap_and_load(button)
    assert "Élodie Marchand is registered" in boss.messages()
    assert len(boss.finds("#registrations tbody tr[data-player]")) == 17

    referee = phones("referee", journey)
    referee.go("/accounts/login/")
    referee.fill("main form", {"username": "ref1", "password": referee_password})
    referee.submit("main form")
    assert referee.page == "/my/"
    table_phone = phones("table", journey)

    absent_key = None
    substitute_name = "Sam Reserve"
    for number in range(1, 5):
        # Check-in, seating, publishing and starting: the director.
        boss.follow("Console", ".console-nav")
        boss.follow(f"Session {number}", "#console-sessions")
        if number == 1:  # 17 registered: one does not come and withdraws
            row = boss.finds("#checkin-form select")[0]
            absent_key = row.get_attribute("name").removeprefix("p_")
            boss.fill("#checkin-form", {f"p_{absent_key}": "withdraw"})
        if number == 2:  # a substitute comes, in case someone cannot play on
            boss.fill("#checkin-form", {"new_substitutes": substitute_name})
        boss.submit("#checkin-form")
        assert "Check-in saved" in boss.messages()
        boss.submit("#actions form")  # seat
        assert "is seated" in boss.messages(), boss.messages()
        boss.tap_and_load(boss.find("#advance"), accept=True)  # publish
        boss.tap_and_load(boss.find("#advance"))  # start: the confirmation step says what will happen
        assert "4 tables, 16 players seated." in boss.find("#confirm-step").text
        boss.tap_and_load(boss.find("#confirm-action"))
        assert "Playing" in boss.find("hgroup").text
        links = [a.get_attribute("href") for a in boss.finds("#console-tables a.table-link")]
        assert len(links) == 4

        # Tables 1 and 2 through their table links: the players enter and submit.
        for t in (1, 2):
            table_phone.go(links[t - 1])
            scores = _totals(ruleset, number * 10 + t)
            if ruleset == "mcr" and number == 1 and t == 1:  # hand by hand: two hands, time runs out
                table_phone.fill(
                    "form.hand-form", {"result": "win", "winner": "0", "discarder": "1", "fan": "8"}
                )
                table_phone.save_hand(1)
                table_phone.fill("form.hand-form", {"result": "draw"})
                table_phone.save_hand(2)
            else:
                table_phone.tap(table_phone.find("#totals summary"))
                table_phone.fill("#totals form", {f"score{i}": v for i, v in enumerate(scores)})
                table_phone.submit("#totals form")
            table_phone.submit("#submit")
            assert "Result submitted" in table_phone.messages()

        # The referee enters tables 3 and 4, records penalties in session 2, confirms all four.
        if number == 1:
            referee.follow("Its pages")
        else:
            referee.follow(f"Journey {ruleset}", "nav.crumbs")
        referee.follow(f"Enter results: session {number}")
        for t in (1, 2, 3, 4):
            referee.follow(f"Table {t}", ".tables-list")
            if t >= 3:
                referee.tap(referee.find("#totals summary"))
                scores = _totals(ruleset, number * 10 + t)
                referee.fill("#totals form", {f"score{i}": v for i, v in enumerate(scores)})
                referee.submit("#totals form")
            if number == 2 and t == 2:
                record_penalties(referee, ruleset)
            referee.submit("#confirm")
            if ruleset == "mcr" and number == 1 and t == 1:
                assert "the usual 16" in referee.find("#confirm").text  # fewer hands: the reason is asked
                referee.fill("#confirm", {"short_reason": "Time limit reached"})
                referee.submit("#confirm")
                assert "Fewer hands than usual: Time limit reached" in referee.find("#confirmed").text
            assert f"Table {t} confirmed" in referee.messages(), referee.find("main").text[:500]
            referee.follow(f"Session {number} tables", "nav.crumbs")

        # The director finishes the session.
        boss.driver.refresh()
        boss._arrived()
        boss.submit("#actions form")
        assert "Finished" in boss.find("hgroup").text, boss.messages()

    # The public sees the standings after session 3 only; the session 4 results stay hidden.
    table_phone.go(f"/t/{slug}/standings/")
    assert "After session 3" in table_phone.find("#hidden-note").text
    table_phone.go(f"/t/{slug}/s/4/")
    assert "results hidden" in table_phone.find("main").text

    # Finishing the tournament, the prize-giving, the results made public.
    boss.follow("Console", ".console-nav")
    boss.submit("#finish form")  # the confirmation step, then the act
    assert "Finish the tournament?" in boss.find("#confirm-step").text
    boss.submit("#confirm-step form")
    assert "counts for the EMA ranking" in boss.messages()
    boss.follow("Reveal the results")
    places = len(boss.finds("#reveal li"))
    assert places >= 16
    for _ in range(places):
        boss.tap(boss.find("#next-place"))
    assert boss.find("#reveal-done").is_displayed()
    shown = [li.get_attribute("data-rank") for li in boss.finds("#reveal li")]
    assert shown[0] == "1"  # the winner came last, on top
    boss.shot()
    boss.follow("Back to the console")
    boss.submit("#results-reveal form")
    assert "The standings are public" in boss.messages()
    table_phone.go(f"/t/{slug}/standings/")
    assert not table_phone.finds("#hidden-note")

    # The EMA results file.
    boss.follow("Exports")
    boss.fill("main form", {"exporter": "ema-results", "format": "csv"})
    boss.submit("main form")
    download = wait_for(lambda: boss.find("a.filename"), "the export")
    boss.tap(download)
    files = wait_for(lambda: list(journey.downloads.glob("*.csv")), "the downloaded file")
    rows = list(csv.reader(io.StringIO(files[0].read_text(encoding="utf-8-sig"))))
    check_ema_rows(rows, ruleset)

    (journey.folder / "pages.txt").write_text(
        journey.report() + f"\nSeconds: {time.monotonic() - started:.1f}\n"
    )
    return journey


def record_penalties(referee: Phone, ruleset: str) -> None:
    """One penalty of each kind the ruleset offers, at this table."""
    kinds = [
        a.get_attribute("href").rstrip("/").rsplit("/", 1)[1]
        for a in referee.finds("#penalties .kind-links a")
    ]
    assert len(kinds) >= 5 and "referee" in kinds
    players = None
    for kind in kinds:
        details = referee.find("#penalties details")
        if not details.get_attribute("open"):
            referee.tap(details.find_element("css selector", "summary"))
        link = next(
            a
            for a in referee.finds("#penalties .kind-links a")
            if a.get_attribute("href").rstrip("/").endswith("/" + kind)
        )
        referee.tap_and_load(link)
        if players is None:
            players = [
                o.get_attribute("value")
                for o in referee.finds("#record select[name=player] option")
                if o.get_attribute("value")
            ]
        values = dict(PENALTY_VALUES.get(kind, {}))
        # the substitution and the disqualification concern other players than the rest
        values["player"] = (
            players[3] if kind == "replaced" else players[2] if kind == "disqualified" else players[0]
        )
        if kind == "referee":
            values["points"] = "-5" if ruleset == "mcr" else "-1000"
        if kind == "false_hu" and ruleset == "mcr":
            values["variant"] = "below_minimum"
        if kind == "replaced":
            values["substitute"] = next(
                o.get_attribute("value")
                for o in referee.finds("#record select[name=substitute] option")
                if o.get_attribute("value")
            )
        referee.fill("#record", values)
        referee.submit("#record")
        assert "recorded" in referee.messages(), f"{kind}: {referee.find('main').text[:600]}"


def check_ema_rows(rows: list[list[str]], ruleset: str) -> None:
    header, body = rows[0], rows[1:]
    assert len(body) >= 16
    places = [int(r[0]) for r in body]
    assert places[0] == 1 and places == sorted(places)
    by_ema = {r[3]: r for r in body}
    assert by_ema["04010001"][1:3] == ["Élodie", "Marchand"] and by_ema["04010001"][7] == "FRA"
    assert by_ema["04020000"][1:3] == ["Ana", "García"]  # a CSV player's EMA number, leading zeros kept
    assert len(header) == 8
    if ruleset == "mcr":
        assert all(r[4] != "" for r in body)  # table points
    else:
        assert all(r[4] == "" for r in body)  # riichi: no table points


@pytest.mark.parametrize("ruleset", ["mcr", "ema-riichi-2016"])
def test_director_runs_a_tournament_on_a_phone(ruleset, live_server, phones):
    journey = run_journey(ruleset, live_server, phones)
    assert journey.visits
    console_wide = [w for w in journey.wide if "/console/" in w or w.startswith(("/my/", "/new/"))]
    assert not console_wide, f"console pages wider than the phone: {console_wide}"
