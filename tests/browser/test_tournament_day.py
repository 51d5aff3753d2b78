"""The rehearsal: a small MCR event played end to end through the pages alone, as its three kinds of users
would, on 390 × 844 phones.

A director on an empty server creates the first organiser, an MCR tournament of 16 players over 3 sessions,
a referee's account, and imports a CSV of European names; checks in session 1 (one player absent, a
substitute plays; one arrives late), seats, publishes and starts it (its clock starts) and opens the venue
screen. Four table phones (tabs of one browser, since they need no account) enter the hands on their table
links, by value and with the tile picker; table 3's phone loses the network for two hands, which wait on
the phone and are sent when it is back. The referee, in Spanish, records a false Hu, a dead hand, a foul
twice and a late arrival at the tables while they play, and confirms every table; table 1's phone, left
open on its confirmed table, says so when a hand is entered (no "add my hands after these"). Session 2 is
played with fewer hands: table 1's scorer corrects a hand, presses Back and saves again (a page that says
what happened, with a way back, never a header or a path); table 2 claims more than its tiles are worth,
the hand is held, and the director finds it on the dashboard and resolves it; at its check-in the director
names a new substitute, who is not needed and never plays. Session 3 is played from the paper score
sheets' totals; at its check-in the player absent from session 1 withdraws and the first substitute plays
his seat (the new one has gone home); the standings read on a phone list him apart, below the ranking, and
keep their numbers on the screen. After every session the public standings are checked against the
figures this test computes itself from the hands it entered and the penalties it recorded (MCR payments,
table points 4/2/1/0 shared on ties, offender-only deductions after the table's ranking); the director
records the first substitute's answer (her results do not count), finishes the tournament and downloads
the EMA results file, checked against the same figures.

Then a late appeal. While the tournament is finished, the director's session page offers no "Reopen the
session" (it says to reopen the tournament), and the referee's table and penalty pages draw no correction
or penalty form and say why, in Spanish. The director reopens the tournament once, with a reason; the
referee corrects a hand of session 2 on its confirmed table with no second reopening (of the session or
the table); the director finishes the tournament again, and the standings and the EMA results file
downloaded again show the corrected figures. Last, the EMA submission page's substitutes check is met:
the substitute who never played needs no answer, and the check says so.

Every page visit is saved as a full-page screenshot under test-artifacts/tournament-day/ with pages.txt;
axe-core runs once on every page (per language) and every visit is checked for sideways scrolling."""

from __future__ import annotations

import csv
import io
import itertools
import re
import time
from dataclasses import dataclass, field
from fractions import Fraction
from functools import partial

import pytest

from tests.browser.netproxy import network
from tests.browser.phone import Journey, Phone, wait_for
from tests.browser.test_entry_session_browser import mcr_tiles_hand, win

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "rehearsal-pw-2026"
# first name, last name, EMA number, country
PLAYERS = [
    ("Søren", "Østergaard", "05010001", "DNK"),
    ("Zoë", "van den Berg", "04020002", "NLD"),
    ("Łukasz", "Wiśniewski", "", "POL"),
    ("Jürgen", "Groß", "03030004", "DEU"),
    ("Ólafur", "Jónsson", "", "ISL"),
    ("Anaïs", "Lefèvre", "02050006", "FRA"),
    ("Inès", "Müller", "", "AUT"),
    ("Marco", "Rossi", "06070008", "ITA"),
    ("Ana", "Núñez", "01080009", "ESP"),
    ("Björn", "Åkesson", "", "SWE"),
    ("Eilís", "Ní Bhriain", "", "IRL"),
    ("Jiří", "Dvořák", "07120012", "CZE"),
    ("Gergő", "Kovács", "", "HUN"),
    ("Matti", "Virtanen", "08140014", "FIN"),
    ("Luís", "Gonçalves", "", "PRT"),
    ("Dimitra", "Papadopoulou", "09160016", "GRC"),
]
ABSENT = "Matti Virtanen"  # session 1: absent, a substitute plays
SUBSTITUTE = "Noémie Dubois"
LATE = "Jiří Dvořák"  # session 1: arrives 5 minutes late (MERS 2.2: 10 points)
WITHDRAWN = ABSENT  # session 3: withdraws at check-in, the substitute plays his seat; listed apart
NEVER_PLAYS = "Tomás Herrera"  # a substitute named at session 2's check-in, never seated; gone by session 3
# After the finish, the referee corrects session 2, table 3, hand 1 (North won on South's discard): 12 fan,
# not 8. One reopening of the tournament is enough.
CORRECTED = (2, 3, 1, ("win", 3, 1, 12))  # session, table, hand, the hand as corrected

# Hands per session and table, seats by position (0 = East): ("win", winner, discarder or "self", fan),
# ("tiles",) = South on North's discard with the picker (11 fan), ("draw",).
TILES = ("win", 1, 3, 11)
HANDS = {
    1: {
        1: [("win", 0, 2, 8), ("tiles",), ("draw",), ("win", 3, "self", 10)],
        2: [("win", 2, 1, 9), ("win", 0, "self", 8), ("tiles",), ("win", 1, 0, 12)],
        3: [("win", 1, 2, 8), ("win", 3, 0, 8), ("win", 2, "self", 9), ("draw",)],
        4: [("tiles",), ("win", 0, 3, 16), ("draw",), ("win", 2, 3, 8)],
    },
    2: {
        1: [("win", 0, "self", 8), ("win", 2, 1, 10)],
        2: [("tiles", 12), ("draw",)],  # 12 fan claimed for tiles worth 11: held for a referee
        3: [("win", 3, 1, 8), ("win", 1, "self", 12)],
        4: [("win", 1, 0, 9), ("win", 3, 2, 8)],
    },
}
OFFLINE_TABLE, OFFLINE_HANDS = 3, (2, 3)  # session 1
# Session 3: the paper score sheets' totals, by seat.
TOTALS = {1: [48, 12, -20, -40], 2: [-30, 30, 30, -30], 3: [0, 0, 0, 0], 4: [25, -25, 60, -60]}


@dataclass
class Expected:
    """The standings as this test computes them: per player, table points and score."""

    table_points: dict[str, Fraction] = field(default_factory=dict)
    score: dict[str, Fraction] = field(default_factory=dict)

    def add(self, name: str, points: Fraction, score: Fraction) -> None:
        self.table_points[name] = self.table_points.get(name, Fraction(0)) + points
        self.score[name] = self.score.get(name, Fraction(0)) + score

    def ranked(self, substitutes: set[str]) -> list[tuple[str, Fraction, Fraction]]:
        rows = [(n, self.table_points[n], self.score[n]) for n in self.table_points if n not in substitutes]
        return sorted(rows, key=lambda r: (-r[1], -r[2]))


def hand_scores(hand: tuple) -> list[int]:
    """MCR payments of one hand: on a discard the discarder pays 8 + fan, the others 8; self-drawn, each
    pays 8 + fan."""
    if hand[0] == "tiles":
        hand = TILES
    scores = [0, 0, 0, 0]
    if hand[0] == "draw":
        return scores
    _, winner, discarder, fan = hand
    for seat in range(4):
        if seat == winner:
            continue
        pay = 8 + fan if discarder in ("self", seat) else 8
        scores[seat] -= pay
        scores[winner] += pay
    return scores


def table_points(game: list[Fraction]) -> list[Fraction]:
    """4/2/1/0 by rank; tied players share the points of the places they occupy."""
    places = [4, 2, 1, 0]
    order = sorted(range(4), key=lambda s: -game[s])
    points = [Fraction(0)] * 4
    i = 0
    while i < 4:
        j = i
        while j + 1 < 4 and game[order[j + 1]] == game[order[i]]:
            j += 1
        share = Fraction(sum(places[i : j + 1]), j - i + 1)
        for k in range(i, j + 1):
            points[order[k]] = share
        i = j + 1
    return points


def number(text: str) -> Fraction:
    """A number as the pages print it: a true minus sign, a decimal point or comma."""
    return Fraction(text.strip().replace("−", "-").replace("+", "").replace(",", ".") or "0")


# -- the director's steps -------------------------------------------------------------------------------


def first_organiser(boss: Phone) -> None:
    boss.go("/")
    boss.follow("Create the first organiser", "#first-run")
    boss.fill("main form", {"username": "director", "password1": PASSWORD, "password2": PASSWORD})
    boss.submit("main form")
    assert boss.page == "/new/", boss.messages()


def create_tournament(boss: Phone) -> str:
    boss.fill(
        "#tournament-form",
        {
            "name": "Rehearsal Open",
            "ruleset": "mcr",
            "starts_on": "2026-11-28",
            "days": "1",
            "city": "Bilbao",
            "country": "ESP",
            "sessions": "3",
            "times": "09:30, 13:00, 16:30",
        },
    )
    boss.submit("#tournament-form")
    assert boss.page == "/t/{slug}/console/rules/", boss.messages()
    slug = boss.driver.current_url.split("/t/")[1].split("/")[0]
    boss.submit("#rules-form")
    assert boss.page == "/t/{slug}/console/"
    assert len(boss.finds("#console-sessions tbody tr[data-session]")) == 3
    return slug


def referee_account(boss: Phone) -> str:
    boss.follow("Staff", ".console-nav")
    boss.fill(
        "#create-staff form", {"new-username": "referee", "new-role": "referee", "new-access": "password"}
    )
    boss.submit("#create-staff form")
    password = boss.find("#new-password").text.strip()
    assert len(password) >= 10
    return password


def import_players(boss: Phone, journey: Journey) -> None:
    path = journey.folder / "players.csv"
    with path.open("w", encoding="utf-8", newline="") as f:
        w = csv.writer(f)
        w.writerow(["first_name", "last_name", "ema_id", "country"])
        w.writerows(PLAYERS)
    boss.follow("Players", ".console-nav")
    boss.follow("Import players from CSV")
    boss.fill("main form", {"file": path})
    boss.submit("main form")
    assert "16 players registered" in boss.messages()
    boss.follow("Back to the players")
    assert len(boss.finds("#registrations tbody tr[data-player]")) == 16


def to_console(boss: Phone) -> None:
    """The console's home: from a console page by its menu, from a tournament page by "Director"."""
    if boss.finds(".console-nav"):
        boss.follow("Console", ".console-nav")
    else:
        boss.follow("Director", ".tournament-nav")


def open_session(boss: Phone, n: int) -> None:
    to_console(boss)
    boss.follow(f"Session {n}", "#console-sessions")


def checkin_field(boss: Phone, name: str) -> str:
    """The check-in choice's field of a player, by the label's name."""
    for row in boss.finds("#checkin-form .checkin-row"):
        if row.find_element("css selector", "label").text.strip() == name:
            return row.find_element("css selector", "select").get_attribute("name")
    raise AssertionError(f"{name} is not on the check-in list")


def check_in_absent_with_substitute(boss: Phone, absent: str, substitute: str) -> None:
    """Session check-in: ``absent`` does not come and a substitute, named on the spot, plays instead;
    everybody else is present (the late player arrives before play starts)."""
    boss.fill("#checkin-form", {checkin_field(boss, absent): "substitute", "new_substitutes": substitute})
    boss.submit("#checkin-form")
    assert "Check-in saved" in boss.messages(), boss.messages()


def check_in_withdrawn(boss: Phone, name: str, gone: str) -> None:
    """Session check-in: ``name`` withdraws; the substitute, here (the box starts ticked), plays; the
    substitute ``gone`` went home (his box unticked)."""
    boss.fill("#checkin-form", {checkin_field(boss, name): "withdraw", substitute_box(boss, gone): False})
    boss.submit("#checkin-form")
    assert f"Withdrawn: {name}." in boss.messages(), boss.messages()


def check_in_everybody(boss: Phone, new_substitute: str = "") -> None:
    """Everybody is here; ``new_substitute``, come today, is named (nobody needs him: he is not seated)."""
    if new_substitute:
        boss.fill("#checkin-form", {"new_substitutes": new_substitute})
    boss.submit("#checkin-form")
    assert "Check-in saved" in boss.messages(), boss.messages()


def substitute_box(boss: Phone, name: str) -> str:
    """The check-in's "(substitute) is here" box of a substitute, by name."""
    for label in boss.finds("#checkin-form label.check"):
        if label.text.strip().startswith(name):
            return label.find_element("css selector", "input").get_attribute("name")
    raise AssertionError(f"{name} is not on the check-in list as a substitute")


def seat_publish_start(boss: Phone, n: int) -> list[str]:
    """Seat, publish and start session ``n``; the table links, by table."""
    boss.submit("#actions form")
    assert "is seated" in boss.messages(), boss.messages()
    boss.tap_and_load(boss.find("#advance"), accept=True)  # publish
    boss.tap_and_load(boss.find("#advance"))  # start: the confirmation step says what will happen
    assert "4 tables, 16 players seated." in boss.find("#confirm-step").text
    boss.tap_and_load(boss.find("#confirm-action"))
    assert "Playing" in boss.find("hgroup").text
    links = [a.get_attribute("href") for a in boss.finds("#console-tables a.table-link")]
    assert len(links) == 4
    return links


def finish_session(boss: Phone, n: int) -> None:
    open_session(boss, n)
    boss.submit("#actions form")
    assert "Finished" in boss.find("hgroup").text, boss.messages()


# -- the table phones -----------------------------------------------------------------------------------


def seats_of(phone: Phone) -> list[str]:
    return phone.driver.execute_script(
        "return [...document.querySelectorAll('.seats .seat .name')].map(e => e.innerText.trim());"
    )


def enter_hand(phone: Phone, hand: tuple) -> None:
    driver = phone.driver
    if hand[0] == "tiles":
        mcr_tiles_hand(driver)
        if len(hand) > 1:  # a claimed value other than the tiles'
            driver.execute_script(
                "document.querySelector('form.hand-form').fan.value = arguments[0];", str(hand[1])
            )
    elif hand[0] == "draw":
        driver.find_element("css selector", "form.hand-form input[name=result][value=draw]").click()
    else:
        _, winner, discarder, fan = hand
        win(driver, winner=str(winner), discarder=str(discarder), fan=str(fan))
    phone.tap("form.hand-form button[type=submit]")


def queued(phone: Phone) -> int:
    return phone.driver.execute_script(
        "const page = document.getElementById('offline-entry').dataset.page;"
        "return JSON.parse(localStorage.getItem('mahjong-entry-queue:' + page) || '[]').length;"
    )


def banner(phone: Phone) -> str:
    return phone.driver.execute_script(
        "const b = document.getElementById('offline-banner'); return b ? b.innerText : '';"
    )


def play_hands(
    phone: Phone, hands: list[tuple], *, offline: tuple[int, ...] = (), proxy=None, during=None
) -> None:
    """Enter ``hands`` one after the other; ``during(n)`` is called while hand ``n`` is in play (the
    referee at the table), before it is entered."""
    for number, hand in enumerate(hands, start=1):
        if during is not None:
            during(number)
        if number in offline and number == offline[0]:
            network(phone.driver, proxy, online=False)
        enter_hand(phone, hand)
        if number in offline:
            waiting = number - offline[0] + 1
            wait_for(
                lambda w=waiting: f"{w} hand{'s' if w > 1 else ''} waiting to send" in banner(phone),
                f"hand {number} kept on the phone",
            )
            if number == offline[-1]:
                phone.shot("offline")
                network(phone.driver, proxy, online=True)
                wait_for(lambda: queued(phone) == 0 and not banner(phone), "the phone's hands sent")
        else:
            wait_for(lambda n=number: f"Hand {n} saved." in phone.text(), f"hand {number} saved")


def correct_then_back(phone: Phone) -> None:
    """The scorer corrects hand 1 (the values kept, the reason given), then presses Back and saves the
    correction form again: the page says in words that nothing was saved and leads back to the table."""
    table = phone.driver.current_url
    phone.tap_and_load(lambda: phone.find("#hands a[href$='/1/']"))
    phone.fill("form.hand-form", {"reason": "checked with the players"})
    phone.submit("form.hand-form")
    assert "Hand 1 corrected." in phone.messages(), phone.text()[:400]
    phone.driver.back()
    wait_for(lambda: phone.finds("form.hand-form [name=reason]"), "the correction form again")
    phone._arrived()
    phone.fill("form.hand-form", {"reason": "checked twice"})
    phone.submit("form.hand-form")
    text = phone.text()
    assert "Nothing was saved" in text or "Hand 1 corrected." in text, text[:600]
    assert "Idempotency-Key" not in text and "/hand/1/" not in text and "422" not in text
    phone.shot("back-after-correction")
    if phone.driver.current_url.split("#")[0] != table.split("#")[0]:
        phone.tap_and_load(lambda: phone.find("nav.crumbs a"))  # back to the table
    assert phone.finds("form.hand-form"), phone.text()[:400]


def director_resolves_held(boss: Phone, slug: str, table: int) -> None:
    """The director looks for the held hand on the dashboard and resolves it from there."""
    boss.go(f"/t/{slug}/director/")
    line = wait_for(
        lambda: boss.text(f"#needs-referee li[data-table='{table}']"), "the held hand on the dashboard"
    )
    assert "1 hand held" in line, boss.text()[:600]
    boss.tap_and_load(f"#needs-referee li[data-table='{table}'] a.resolve")
    boss.fill("main form", {"decision": "computed"})
    boss.submit("main form")
    assert "Hand 1 resolved." in boss.messages(), boss.text()[:600]
    boss.go(f"/t/{slug}/console/")  # where the director was


def stale_phone_on_a_confirmed_table(phone: Phone) -> None:
    """A second phone of table 1, opened on the table before any hand and left there while the table was
    played and confirmed: the hand entered on it is kept on the phone, which says the table is confirmed
    (not that someone changed it) and offers no adding after."""
    enter_hand(phone, ("draw",))
    closed = wait_for(
        lambda: phone.text("#offline-closed"), "the phone to say that the referee confirmed the table"
    )
    assert "A referee confirmed this table" in closed and "Hand 1" in closed, closed
    text = phone.text()
    assert "Add my hands after these" not in text and "Bad Request" not in text, text[:600]
    phone.shot("confirmed")


def submit_result(phone: Phone) -> None:
    phone.submit("#submit")
    assert "Result submitted" in phone.messages(), phone.text()[:400]


def enter_totals(phone: Phone, scores: list[int]) -> None:
    phone.tap(phone.find("#totals summary"))
    phone.fill("#totals form", {f"score{i}": v for i, v in enumerate(scores)})
    phone.submit("#totals form")


# -- the referee (in Spanish) ---------------------------------------------------------------------------


def switch_to_spanish(phone: Phone) -> None:
    from selenium.webdriver.support.ui import Select

    Select(phone.find("form.lang select[name=language]")).select_by_value("es")
    wait_for(lambda: phone.language() == "es", "the page in Spanish")
    phone._arrived()


def referee_table(referee: Phone, slug: str, session: int, table: int) -> None:
    """From the session's tables page, the referee opens one table."""
    tables = f"/t/{slug}/s/{session}/tables/"
    if referee.page == "/my/":  # opened again once play starts: "Session n tables", the session being played
        referee.go("/my/")
        referee.tap_and_load(referee.find(f"main a[data-tables-link][href$='{tables}']"))
    elif referee.finds(f"nav.crumbs a[href$='{tables}']"):  # a table of this session
        referee.tap_and_load(referee.find(f"nav.crumbs a[href$='{tables}']"))
    elif referee.page != "/t/{slug}/s/{n}/tables/":  # a table of the session before: the tournament's page
        referee.tap_and_load(referee.find(f"nav.crumbs a[href$='/t/{slug}/']"))
    if referee.page == "/t/{slug}/":  # "Enter results: session n"
        referee.tap_and_load(referee.find(f"main a[href$='{tables}']"))
    link = next(
        a
        for a in referee.finds(".tables-list a")
        if a.get_attribute("href").rstrip("/").endswith(f"/s/{session}/table/{table}")
    )
    referee.tap_and_load(link)


def record_penalty(referee: Phone, kind: str, player: str, values: dict) -> None:
    """On a table page: "Record a penalty", its kind, the player by name, the kind's fields."""
    referee.open_penalty_kind(kind)
    options = {
        o.text.strip(): o.get_attribute("value")
        for o in referee.finds("#record select[name=player] option")
        if o.get_attribute("value")
    }
    key = next(v for label, v in options.items() if player in label)
    referee.fill("#record", {"player": key, **values})
    referee.submit("#record")
    assert "registrad" in referee.messages(), (
        f"{kind}: {referee.text()[:600]}"
    )  # "Penalización registrada para …"


def confirm_table(referee: Phone, table: int, *, short: bool) -> None:
    if short:  # fewer than the 16 hands of a full session: the form asks why
        referee.fill("#confirm", {"short_reason": "Límite de tiempo"})
    referee.submit("#confirm")
    assert f"Mesa {table} confirmada." in referee.messages(), referee.text()[:600]


# -- the standings --------------------------------------------------------------------------------------


def shown_standings(phone: Phone, rows: str = ":not(.withdrawn)") -> list[tuple[str, Fraction, Fraction]]:
    """The ranked rows (``rows=".withdrawn"``: the withdrawn players' rows, listed apart)."""
    rows = phone.driver.execute_script(
        "return [...document.querySelectorAll(`#standings tbody tr[data-player]${arguments[0]}`)].map(tr =>"
        " [...tr.querySelectorAll('td')].map(td => td.innerText.trim()));",
        rows,
    )
    out = []
    for cells in rows:
        out.append((cells[1], number(cells[2]), number(cells[3])))
    return out


def check_standings(
    phone: Phone,
    slug: str,
    expected: Expected,
    substitutes: set[str],
    after: int,
    withdrawn: set[str] = frozenset(),
) -> None:
    phone.go(f"/t/{slug}/standings/")
    want = expected.ranked(substitutes | withdrawn)
    if withdrawn:  # listed apart, below the ranking, with what they played; the points on the screen
        apart = {name: (tp, score) for name, tp, score in shown_standings(phone, ".withdrawn")}
        for name in withdrawn:
            found = [n for n in apart if n.startswith(name)]
            assert found and apart[found[0]] == (expected.table_points[name], expected.score[name]), apart
        assert phone.driver.execute_script(
            "return document.querySelector('table.standings').getBoundingClientRect().right"
            " <= document.documentElement.clientWidth;"
        ), "the standings are wider than the phone"
    shown = wait_for(lambda: shown_standings(phone) or None, "the standings")
    by_name = {name: (tp, score) for name, tp, score in shown}
    for name, tp, score in want:
        matches = [n for n in by_name if n.startswith(name)]
        assert matches, f"after session {after}: {name} is not in the standings {list(by_name)}"
        assert by_name[matches[0]] == (tp, score), (
            f"after session {after}: {name} has {by_name[matches[0]]}, expected {(tp, score)}"
        )
    assert len(shown) == len(want), (shown, want)  # the substitute has no place
    assert [(tp, score) for _, tp, score in shown] == [(tp, score) for _, tp, score in want]


# -- what each player needs before the last session ------------------------------------------------------


def read_needs(phone: Phone, slug: str) -> dict[str, tuple[str, list[str]]]:
    """The "what each player needs" page as a player reads it before the last session: by name, the table
    and the answer for each place of the podium in words."""
    phone.go(f"/t/{slug}/standings/needs/")
    rows = phone.driver.execute_script(
        "return [...document.querySelectorAll('#needs tbody tr[data-player]')].map(tr =>"
        " [...tr.querySelectorAll('td')].map(td => td.getAttribute('title') || td.innerText.trim()));"
    )
    return {cells[1]: (cells[2], cells[3:]) for cells in rows}


def answer_of(text: str) -> tuple[Fraction | None, Fraction | None]:
    """(sure from, possible from) as the page says it in words; the place at the table is left out."""
    if text == "safe":
        return Fraction(0), Fraction(0)
    if text == "out of reach":
        return None, None
    found = {k: re.search(rf"{k} (\S+?)(?:,| \(|$)", text) for k in ("sure with", "possible from")}
    sure = number(found["sure with"].group(1)) if found["sure with"] else None
    possible = number(found["possible from"].group(1)) if found["possible from"] else sure
    return sure, possible


def own_needs(expected: Expected, seats: dict[int, list[str]], ranked: set[str]) -> dict[str, list]:
    """What each ranked player needs for the podium in the last session, as this test works it out itself
    at the session's tables: every way the places of a table can fall (table points 4/2/1/0 shared on ties,
    from every order of four game scores), tables independent. The scores are far closer than a session
    can change them (MCR: thousands of points), so a player level on table points counts against for
    "sure" and for "possible". Per place: (sure from, possible from), None for none."""
    ways = {tuple(table_points(list(game))) for game in itertools.product(range(4), repeat=4)}
    values = sorted({v for way in ways for v in way})
    out = {}
    for p in ranked:
        mine = next(t for t in seats if p in seats[t])
        most, fewest = {}, {}
        for r in values:
            x = expected.table_points[p] + r
            most[r] = fewest[r] = 0
            for t, names in seats.items():
                options = [w for w in ways if t != mine or w[names.index(p)] == r]
                rivals = [(i, n) for i, n in enumerate(names) if n in ranked and n != p]
                most[r] += max(sum(expected.table_points[n] + w[i] >= x for i, n in rivals) for w in options)
                fewest[r] += min(sum(expected.table_points[n] + w[i] > x for i, n in rivals) for w in options)
        out[p] = []
        for k in (1, 2, 3):
            sure = None
            for r in reversed(values):
                if most[r] >= k:
                    break
                sure = r
            out[p].append((sure, next((r for r in values if fewest[r] < k), None)))
    return out


def check_needs(shown: dict, expected: Expected, seats: dict[int, list[str]], ranked: set[str]) -> None:
    """The page's answers are this test's own, for every ranked player and every place of the podium."""
    assert max(expected.score.values()) - min(expected.score.values()) < 2 * 4608  # the score never decides
    own = own_needs(expected, seats, ranked)
    assert len(shown) == len(ranked), (sorted(shown), sorted(ranked))
    for name, answers in own.items():
        found = [n for n in shown if n.startswith(name)]
        assert found, f"{name} is not on the page"
        table, texts = shown[found[0]]
        assert table == str(next(t for t in seats if name in seats[t])), (name, table)
        read = [answer_of(text) for text in texts]
        want = [tuple(None if v is None else round(v, 2) for v in answer) for answer in answers]
        got = [tuple(None if v is None else round(v, 2) for v in answer) for answer in read]
        assert got == want, (name, texts, answers)


# -- the day --------------------------------------------------------------------------------------------


def test_a_tournament_day_through_the_pages(live_server, proxy, phones):
    started = time.monotonic()
    journey = Journey("tournament-day", live_server.url, folder="tournament-day", axe=True)
    try:
        a_tournament_day(live_server, proxy, phones, journey)
    finally:
        seconds = time.monotonic() - started
        (journey.folder / "pages.txt").write_text(journey.report() + f"\nSeconds: {seconds:.1f}\n")
    assert journey.axe_found == {}, journey.axe_found
    assert journey.wide == [], journey.wide


def venue_screen(phones, journey: Journey, boss: Phone, slug: str, session: int) -> None:
    """The venue screen on the hall's big screen (a window of the director's browser) shows the session's
    clock running; closed afterwards, so that its polling stays out of the rest of the day."""
    screen = phones("screen", journey, tab_of=boss)
    screen.go(f"/t/{slug}/clock/")
    screen.follow("Venue screen")
    wait_for(
        lambda: (
            screen.text("[data-clock-session]") == str(session)
            and screen.text(".panel-clock [data-clock-text]").startswith("1:59:")
        ),
        "the session's clock on the venue screen",
    )
    screen.shot("clock")
    screen.close()


def tables_play(
    tables: list[Phone], links: list[str], n: int, proxy, referee: Phone, slug: str, boss: Phone
) -> tuple[dict, dict, dict]:
    """Each table phone opens its table link, enters the session's hands (or the score sheet's totals)
    and submits, while in session 1 the referee records penalties at the tables in play; the seats by
    table, the game scores this test expects by table, and the offender-only deductions by name."""
    games: dict[int, list[Fraction]] = {}
    seats: dict[int, list[str]] = {}
    deductions: dict[str, Fraction] = {}
    for t, phone in enumerate(tables, start=1):
        link = links[t - 1]
        if n == 1 and t == OFFLINE_TABLE:  # this phone goes through a network that will fail
            link = proxy.url + "/" + link.split("/", 3)[3]
        phone.go(link)
        seats[t] = seats_of(phone)
        assert len(seats[t]) == 4
        if n in HANDS:
            offline = OFFLINE_HANDS if (n == 1 and t == OFFLINE_TABLE) else ()
            during = None
            if n == 1:
                during = partial(referee_during_play, referee, slug, t, seats[t], deductions)
            play_hands(phone, HANDS[n][t], offline=offline, proxy=proxy, during=during)
            game = [Fraction(0)] * 4
            for hand in HANDS[n][t]:
                game = [g + s for g, s in zip(game, hand_scores(hand), strict=True)]
            if n == 1 and t == 2:  # the false Hu: 10 to each other player (MERS 2.9.2)
                game = [g + d for g, d in zip(game, (10, 10, 10, -30), strict=True)]
            if n == 2 and t == 1:
                correct_then_back(phone)
            if n == 2 and t == 2:
                director_resolves_held(boss, slug, t)
                phone.go(link)  # the table as the resolution left it
        else:
            enter_totals(phone, TOTALS[t])
            game = [Fraction(s) for s in TOTALS[t]]
        games[t] = game
        submit_result(phone)
    return seats, games, deductions


def referee_during_play(
    referee: Phone, slug: str, t: int, seats: list[str], deductions: dict[str, Fraction], hand: int
) -> None:
    """Session 1, while hand ``hand`` is in play at table ``t``: the late player's late arrival before the
    first hand; at table 2 a false Hu shown during hand 3, and a dead hand; at table 4 a foul during hands
    2 and 4 (a warning, then 5 points: MERS 3.1). Offender-only deductions are added to ``deductions``."""
    recorded = []
    if hand == 1 and LATE in seats:
        recorded.append(("late_arrival", LATE, {"minutes_late": "5"}))
        deductions[LATE] = deductions.get(LATE, 0) - 10
    if t == 2 and hand == 3:
        recorded.append(("false_hu", seats[3], {"hand_number": "3", "variant": "below_minimum"}))
        recorded.append(("dead_hand", seats[0], {"hand_number": "3"}))
    if t == 4 and hand in (2, 4):
        recorded.append(("foul", seats[0], {}))
        if hand == 4:
            deductions[seats[0]] = deductions.get(seats[0], 0) - 5
    if recorded:
        referee_table(referee, slug, 1, t)
        for kind, player, values in recorded:
            record_penalty(referee, kind, player, values)


def referee_confirms(referee: Phone, slug: str, n: int) -> None:
    for t in (1, 2, 3, 4):
        referee_table(referee, slug, n, t)
        confirm_table(referee, t, short=n in HANDS)


def finish_and_download(boss: Phone, journey: Journey) -> list[list[str]]:
    """The director finishes the tournament and downloads the EMA results file; its rows."""
    to_console(boss)
    boss.submit("#finish form")
    assert "Finish the tournament?" in boss.find("#confirm-step").text
    boss.submit("#confirm-step form")
    assert "counts for the EMA ranking" in boss.messages()
    boss.follow("Exports")
    boss.fill("main form", {"exporter": "ema-results", "format": "csv"})
    boss.submit("main form")
    for old in journey.downloads.glob("*.csv"):  # the file downloaded at the finish before
        old.unlink()
    boss.tap(lambda: boss.find("a.filename"))
    files = wait_for(lambda: list(journey.downloads.glob("*.csv")), "the downloaded file")
    return list(csv.reader(io.StringIO(files[0].read_text(encoding="utf-8-sig"))))


def check_ema_file(rows: list[list[str]], expected: Expected, substitutes: set[str]) -> None:
    """The EMA results file: the ranked players, then the withdrawn one; the substitutes have no place."""
    want = expected.ranked(substitutes | {WITHDRAWN})
    want.append((WITHDRAWN, expected.table_points[WITHDRAWN], expected.score[WITHDRAWN]))  # after the ranked
    body = rows[1:]
    assert len(body) == 16  # the substitutes have no place
    assert [(f"{r[1]} {r[2]}", number(r[4]), number(r[5])) for r in body] == want
    ema = {(first, last): ema_id for first, last, ema_id, _ in PLAYERS}
    assert all(r[3] == ema[(r[1], r[2])] for r in body)  # EMA numbers as given, leading zeros kept


def substitute_answer(boss: Phone, slug: str, name: str, answer: str) -> None:
    """On the EMA submission page, the director records a substitute's answer (ERGMT §3.9)."""
    boss.go(f"/t/{slug}/ema-submission/")
    form = next(
        i for i, f in enumerate(boss.finds("form.substitute-answer")) if f.text.strip().startswith(name)
    )
    boss.fill(f"form.substitute-answer:nth-of-type({form + 1})", {"answer": answer})
    boss.submit(f"form.substitute-answer:nth-of-type({form + 1})")
    assert "The substitute's answer is recorded." in boss.messages(), boss.text()[:600]


def substitutes_check(boss: Phone, slug: str, never_played: str) -> None:
    """At the end, the EMA submission page's substitutes check is met: the substitute who never played
    needs no answer, and the check says so."""
    boss.go(f"/t/{slug}/ema-submission/")
    check = boss.find("#check-substitutes")
    text = check.text
    assert check.get_attribute("data-status") in ("ok", "info"), text
    assert f"{never_played} never played: no answer is needed, no results to count." in text, text


def closed_while_finished(boss: Phone, referee: Phone, slug: str) -> None:
    """While the tournament is finished: the director's session page offers no "Reopen the session" (it
    says that the tournament is reopened instead); the referee's table page draws no correction and no
    penalty form, and says why, in Spanish; the penalty page too."""
    session, table, hand, _ = CORRECTED
    open_session(boss, session)
    assert not boss.finds("#reopen") and "Reopen the session" not in boss.text(), boss.text()[:600]
    assert "to change a result, reopen the tournament" in boss.text("#tournament-finished")
    page = f"/t/{slug}/s/{session}/table/{table}/"
    referee.go(page)
    closed = referee.text("#results-closed")
    assert "El torneo está terminado" in closed and "Pida la reapertura al director." in closed, closed
    assert not referee.finds(f"#hands a[href$='/hand/{hand}/']") and not referee.finds(
        "#penalties .kind-links"
    )
    assert not referee.finds("form.hand-form") and not referee.finds("#reopen")
    referee.go(page + "penalty/foul/")
    assert "El torneo está terminado" in referee.text("#results-closed")
    assert not referee.finds("#record"), referee.text()[:600]


def reopen_tournament(boss: Phone) -> None:
    to_console(boss)
    boss.fill("#finish form", {"reason": "A scoring appeal after the prize-giving"})
    boss.submit("#finish form", accept=True)
    assert "The tournament is open again" in boss.messages(), boss.text()[:600]


def referee_corrects_after_reopen(referee: Phone, slug: str) -> None:
    """The referee, in Spanish, corrects a hand of a finished session's confirmed table: the tournament's
    one reopening is enough (no session or table reopened); the table stays confirmed."""
    session, table, hand, corrected = CORRECTED
    referee.go(f"/t/{slug}/s/{session}/table/{table}/")
    assert not referee.finds("#results-closed"), referee.text("#results-closed")
    referee.tap_and_load(lambda: referee.find(f"#hands a[href$='/hand/{hand}/']"))
    referee.driver.execute_script(
        "document.querySelector('form.hand-form').fan.value = arguments[0];", str(corrected[3])
    )
    referee.fill("form.hand-form", {"reason": "Recurso: revisado con los jugadores"})
    referee.submit("form.hand-form")
    assert f"Mano {hand} corregida." in referee.messages(), referee.text()[:600]
    assert referee.finds("#confirmed"), referee.text()[:600]


def a_tournament_day(live_server, proxy, phones, journey: Journey) -> None:
    boss = phones("director", journey)
    first_organiser(boss)
    slug = create_tournament(boss)
    referee_password = referee_account(boss)
    import_players(boss, journey)

    referee = phones("referee", journey)
    referee.go("/accounts/login/")
    referee.fill("main form", {"username": "referee", "password": referee_password})
    referee.submit("main form")
    assert referee.page == "/my/"
    switch_to_spanish(referee)

    tables = [phones("table1", journey)]
    tables += [phones(f"table{t}", journey, tab_of=tables[0]) for t in (2, 3, 4)]
    expected = Expected()
    substitutes = {SUBSTITUTE}

    played: dict[int, tuple[dict, dict]] = {}  # by session: the seats and the game scores by table

    for n in (1, 2, 3):
        open_session(boss, n)
        if n == 1:
            check_in_absent_with_substitute(boss, ABSENT, SUBSTITUTE)
        elif n == 3:
            check_in_withdrawn(boss, WITHDRAWN, gone=NEVER_PLAYS)
        else:  # the player absent from session 1 plays again; a new substitute comes, not needed
            check_in_everybody(boss, new_substitute=NEVER_PLAYS)
        links = seat_publish_start(boss, n)
        if n == 3:  # the players read what they need before the last session's results come in
            needs_shown = read_needs(tables[0], slug)
            tables[0].shot("needs-before-the-last-session")
            ranked = set(expected.table_points) - substitutes - {WITHDRAWN}
            leader = expected.ranked(substitutes | {WITHDRAWN})[0][0]
            tables[0].go(
                tables[0].driver.execute_script(
                    "return [...document.querySelectorAll('#needs tbody td a')]"
                    ".find(a => a.innerText.trim().startsWith(arguments[0])).getAttribute('href');",
                    leader,
                )
            )
            assert "What you need in session 3" in tables[0].text("#player-needs")
            own_page = tables[0].text("#player-needs")
            tables[0].shot("needs-the-leader")
        if n == 1:
            venue_screen(phones, journey, boss, slug, n)
            stale = phones("table1-left-open", journey, tab_of=tables[0])
            stale.go(links[0])
        seats, games, deductions = tables_play(tables, links, n, proxy, referee, slug, boss)
        played[n] = (seats, games)
        if n == 3:  # the standings before it: the figures this test computed after session 2
            check_needs(needs_shown, expected, seats, ranked)
            leader_texts = next(texts for name, (_t, texts) in needs_shown.items() if name.startswith(leader))
            assert all(text in own_page for text in leader_texts), (own_page, leader_texts)
        seated = [name for t in seats for name in seats[t]]
        assert NEVER_PLAYS not in seated
        if n in (1, 3):
            assert SUBSTITUTE in seated and ABSENT not in seated
        else:
            assert SUBSTITUTE not in seated and ABSENT in seated
        referee_confirms(referee, slug, n)
        if n == 1:
            stale_phone_on_a_confirmed_table(stale)
            stale.close()
        finish_session(boss, n)

        for t in (1, 2, 3, 4):
            points = table_points(games[t])
            for seat, name in enumerate(seats[t]):
                expected.add(name, points[seat], games[t][seat] + deductions.get(name, 0))
        if n == 1:
            expected.add(ABSENT, Fraction(0), Fraction(0))
        withdrawn = {WITHDRAWN} if n == 3 else set()
        check_standings(tables[0], slug, expected, substitutes, after=n, withdrawn=withdrawn)

    substitutes.add(NEVER_PLAYS)
    substitute_answer(boss, slug, SUBSTITUTE, "no")  # asked at session 1: she plays for the others
    check_ema_file(finish_and_download(boss, journey), expected, substitutes)

    # a late appeal: one reopening of the finished tournament, a correction, finished again
    closed_while_finished(boss, referee, slug)
    reopen_tournament(boss)
    referee_corrects_after_reopen(referee, slug)
    session, table, hand, corrected = CORRECTED
    seats, games = played[session]
    before = HANDS[session][table][hand - 1]
    game = [
        g + new - old
        for g, new, old in zip(games[table], hand_scores(corrected), hand_scores(before), strict=True)
    ]
    points, points_before = table_points(game), table_points(games[table])
    for seat, name in enumerate(seats[table]):
        expected.add(name, points[seat] - points_before[seat], game[seat] - games[table][seat])
    check_ema_file(finish_and_download(boss, journey), expected, substitutes)
    check_standings(tables[0], slug, expected, substitutes, after=3, withdrawn={WITHDRAWN})
    substitutes_check(boss, slug, NEVER_PLAYS)
