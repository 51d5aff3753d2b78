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
import time
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model

from tests.browser.phone import Journey, Phone, wait_for
from tournaments.staff.services import organiser_grant

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "organiser-pw-2026"
FIRST = ["Ana", "Bruno", "Carmen", "David", "Eva", "Fermín", "Gloria", "Héctor", "Irene", "Jorge",
         "Karen", "Luis", "Lucía", "Mateo", "Nuria"]  # fmt: skip
LAST = ["García", "López", "Martínez", "Sánchez", "Pérez", "Gómez", "Díaz", "Ruiz", "Moreno", "Muñoz",
        "Álvarez", "Romero", "Fernández", "Navarro", "Torres"]  # fmt: skip
EMA_LIST = [
    ("04010001", "Élodie", "Marchand", "FRA"),
    ("04010002", "Jan", "de Vries", "NLD"),
    ("04010003", "Anna", "Schmidt", "DEU"),
]


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
        referee.open_penalty_kind(kind)
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
