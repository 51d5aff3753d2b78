"""Every write endpoint and page form × every kind of caller.

The write operations of the API come from the OpenAPI schema and the pages from the URL resolver, so an
endpoint or a page added later fails ``test_every_write_is_in_the_table`` until it is given its row here.
Each row says who may write; every other caller must be refused with the stated status, and the
database must be exactly as it was (every row of every table of the apps compared). The callers allowed
must succeed, so the row's request is a real write, not one refused for its content. Each request runs
in a transaction rolled back afterwards, so every caller meets the same state. A refused write sends no
domain event (``tournaments.signals.changed``); an allowed write of tournament data sends at least one
(``event=False`` marks the rows whose data no listener reads: accounts, roles, files, other registers).

Callers: anonymous, the holder of a table's private link (table 2 of session 1), a scorer, a referee and
the director of the tournament, the director of another tournament, and a signed-in user with no role.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass

import pytest
from django.apps import apps
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import transaction
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from rankings.archive import archive_export
from scoring.models import TableResult
from tests.trust.urlmap import api_operations, page_patterns
from tests.trust.world import World, build_world

pytestmark = pytest.mark.django_db

ACTORS = ("anonymous", "table_link", "scorer", "referee", "director", "other_director", "plain")
NOBODY: frozenset = frozenset()
DIRECTORS = frozenset({"director"})
ANY_DIRECTOR = frozenset({"director", "other_director"})
REFEREES = frozenset({"referee", "director"})
STAFF = frozenset({"scorer", "referee", "director"})
RESULT_WRITERS = STAFF | {"table_link"}
LINK = frozenset({"table_link"})
APPS = ("tournaments", "scoring", "penalties", "rankings", "submission", "auth")


@dataclass(frozen=True)
class Write:
    allowed: frozenset
    body: Callable[[World], object] | None = None
    ok: tuple = (200, 201, 204)  # what an allowed caller gets
    refused: tuple = (403,)  # what a caller without the right gets (pages: anonymous is sent to log in)
    path: Callable[[World], dict] | None = None  # path parameters
    query: Callable[[World], str] | None = None
    multipart: bool = False
    changes: bool = True  # an allowed caller's request writes something
    htmx: bool = False
    setup: Callable[[World], None] | None = None  # the state this write needs, made before every caller
    anonymous: tuple | None = None  # a page that refuses anonymous callers outright instead of to log in
    event: bool = True  # an allowed caller's write sends the domain event


def version(table) -> int:
    return TableResult.objects.get(table=table).version


def t(world: World, n: int):
    return world.tables[n - 1]


def reg(world: World, key: str):
    return world.tournament.registrations.get(key=key)


def csv_upload(name="players.csv"):
    return SimpleUploadedFile(
        name, b"first_name,last_name,ema_id,country,club\nNuevo,Jugador,,ESP,\n", "text/csv"
    )


def importable_archive(world: World) -> dict:
    """The tournament's archive as it is (session 2's table of three included: its empty seat is null)."""
    return archive_export(tournament=world.tournament)


def archive_upload(world: World):
    data = json.dumps(importable_archive(world)).encode()
    return SimpleUploadedFile("archive.json", data, "application/json")


def session3_text() -> str:
    return "\n".join(",".join(f"p{i + j}" for j in range(4)) for i in range(1, 21, 4))


def publish(world: World, number: int) -> None:
    world.tournament.sessions.filter(number=number).update(seating_published=True)


def withdraw(world: World, key: str, session: int) -> None:
    world.tournament.registrations.filter(key=key).update(withdrawn_from=session)


def running(world: World) -> None:
    world.tournament.status = "running"
    world.tournament.save(update_fields=["status"])


def seated(world: World) -> None:
    """Session 1 (published) is seated, through the lifecycle."""
    from tournaments import lifecycle

    running(world)
    lifecycle.session_move(session=world.session, to="seated")


def finished(world: World) -> None:
    """The state a reopening needs (made here, not through the console: its sessions are not all done)."""
    world.tournament.status = "finished"
    world.tournament.save(update_fields=["status"])


def team_of_two(world: World) -> None:
    from tournaments.teams.services import team_save, team_size_set

    team_size_set(tournament=world.tournament, size=4)
    team_save(tournament=world.tournament, name="Norte", member_keys=["p1", "p2"])


def team_id(world: World) -> dict:
    return {"id": world.tournament.teams.get(name="Norte").pk}


def ema_line(world: World) -> None:
    from tournaments.models import EMAPlayer

    EMAPlayer.objects.create(ema_id="09000001", first_name="Listed", last_name="Player", country="NLD")


def rules_body(world: World) -> dict:
    """The rules form as shown, with one value changed (the minimum fan)."""
    from tournaments.console.rules_form import RulesForm

    form = RulesForm(ruleset=world.tournament.ruleset, current=world.tournament.rules)
    data = {}
    for name in form.fields:
        value = form[name].value()
        if value is True:
            data[name] = "on"
        elif value not in (False, None):
            data[name] = str(value)
    data["min_fan"] = "10"
    return data


def referee_call(world: World) -> None:
    """Table 2 of session 1 has called a referee."""
    from scoring.calls.services import call_create
    from tournaments.permissions import Actor

    call_create(table=t(world, 2), actor=Actor(role="table", table_id=t(world, 2).pk), reason="foul")


def referee_call_id(world: World) -> dict:
    from scoring.models import RefereeCall

    pk = RefereeCall.objects.get(table=t(world, 2)).pk
    return {"id": pk, "pk": pk}


def announcement(world: World) -> None:
    from tournaments.models import Announcement

    Announcement.objects.create(tournament=world.tournament, text="Lunch at 14:00")


def announcement_id(world: World) -> dict:
    return {"id": world.tournament.announcements.get().pk}


def backup(world: World) -> None:
    """A backup of the tournament as it is (session 2's partly seated table of three included)."""
    from rankings.backups.services import backup_write

    backup_write(tournament=world.tournament)


def backup_name(world: World) -> str:
    from rankings.backups.services import backups_list

    return backups_list(tournament=world.tournament)[0].name


def ema_csv():
    return SimpleUploadedFile(
        "ema.csv", b"ema_id,first_name,last_name,country\n09000002,Nueva,Lista,ESP\n", "text/csv"
    )


API: dict[str, Write] = {
    "POST /api/archives/": Write(DIRECTORS, body=importable_archive, query=lambda w: "replace=true"),
    "POST /api/penalties/": Write(
        REFEREES,
        body=lambda w: {"tournament": w.tournament.slug, "player": "p9", "kind": "foul", "session": 1},
    ),
    "POST /api/penalties/{id}/appeal/": Write(REFEREES, body=lambda w: {"appeal": "I was at the table"}),
    "POST /api/penalties/{id}/cancel/": Write(REFEREES, body=lambda w: {"reason": "the clock was wrong"}),
    "POST /api/players/": Write(ANY_DIRECTOR, body=lambda w: {"first_name": "Nueva", "country": "ESP"}),
    "PUT /api/players/{id}/": Write(DIRECTORS, body=lambda w: {"first_name": "Renamed", "last_name": "Vega"}),
    "PATCH /api/players/{id}/": Write(DIRECTORS, body=lambda w: {"club": "Another club"}),
    "DELETE /api/players/{id}/": Write(ANY_DIRECTOR, path=lambda w: {"id": w.lone_player.pk}),
    "POST /api/registrations/": Write(
        DIRECTORS, body=lambda w: {"tournament": w.tournament.pk, "player": w.lone_player.pk}
    ),
    "PUT /api/registrations/{id}/": Write(
        DIRECTORS,
        path=lambda w: {"id": w.spare_registration.pk},
        body=lambda w: {
            "tournament": w.tournament.pk,
            "player": w.spare_registration.player_id,
            "nickname": "Nick",
        },
    ),
    "PATCH /api/registrations/{id}/": Write(
        DIRECTORS, path=lambda w: {"id": w.spare_registration.pk}, body=lambda w: {"nickname": "Nick"}
    ),
    "DELETE /api/registrations/{id}/": Write(DIRECTORS, path=lambda w: {"id": w.spare_registration.pk}),
    "POST /api/seats/": Write(
        DIRECTORS,
        body=lambda w: {"table": w.open_table.pk, "position": 3, "registration": reg(w, "p4").pk},
    ),
    "PUT /api/seats/{id}/": Write(
        DIRECTORS,
        body=lambda w: {"table": w.open_table.pk, "position": 0, "registration": reg(w, "p5").pk},
    ),
    "PATCH /api/seats/{id}/": Write(DIRECTORS, body=lambda w: {"registration": reg(w, "p5").pk}),
    "DELETE /api/seats/{id}/": Write(DIRECTORS),
    "POST /api/sessions/": Write(DIRECTORS, body=lambda w: {"tournament": w.tournament.pk, "number": 5}),
    "PUT /api/sessions/{id}/": Write(  # the status is the lifecycle's: a body naming it is refused
        DIRECTORS,
        body=lambda w: {"tournament": w.tournament.pk, "number": 2, "starts_at": "2026-05-02T10:00:00Z"},
    ),
    "PATCH /api/sessions/{id}/": Write(DIRECTORS, body=lambda w: {"starts_at": "2026-05-02T10:00:00Z"}),
    "DELETE /api/sessions/{id}/": Write(DIRECTORS),
    "POST /api/tables/": Write(DIRECTORS, body=lambda w: {"session": w.spare_session.pk, "number": 2}),
    "PUT /api/tables/{id}/": Write(DIRECTORS, body=lambda w: {"session": w.spare_session.pk, "number": 3}),
    "PATCH /api/tables/{id}/": Write(DIRECTORS, body=lambda w: {"number": 3}),
    "DELETE /api/tables/{id}/": Write(DIRECTORS),
    "POST /api/tables/{table_pk}/result/confirm/": Write(
        REFEREES, path=lambda w: {"table_pk": t(w, 5).pk}, body=lambda w: {"version": version(t(w, 5))}
    ),
    "POST /api/tables/{table_pk}/result/hands/": Write(
        RESULT_WRITERS, body=lambda w: {"result": "draw", "version": version(t(w, 2))}
    ),
    "PUT /api/tables/{table_pk}/result/hands/{number}/": Write(
        RESULT_WRITERS, body=lambda w: {"result": "draw", "version": version(t(w, 2)), "reason": "recount"}
    ),
    "PATCH /api/tables/{table_pk}/result/hands/{number}/": Write(
        RESULT_WRITERS, body=lambda w: {"result": "draw", "version": version(t(w, 2)), "reason": "recount"}
    ),
    "DELETE /api/tables/{table_pk}/result/hands/last/": Write(
        RESULT_WRITERS, query=lambda w: f"version={version(t(w, 2))}"
    ),
    "POST /api/tables/{table_pk}/result/reopen/": Write(
        REFEREES,
        path=lambda w: {"table_pk": t(w, 1).pk},
        body=lambda w: {"version": version(t(w, 1)), "reason": "recount"},
    ),
    "POST /api/tables/{table_pk}/result/seats/": Write(
        REFEREES,
        path=lambda w: {"table_pk": t(w, 2).pk},
        body=lambda w: {
            "order": [s.registration.key for s in t(w, 2).seats.order_by("-position")],
            "reason": "the players sat the other way round",
            "version": version(t(w, 2)),
        },
    ),
    "POST /api/tables/{table_pk}/result/submit/": Write(
        STAFF, path=lambda w: {"table_pk": t(w, 4).pk}, body=lambda w: {"version": version(t(w, 4))}
    ),
    "PUT /api/tables/{table_pk}/result/totals/": Write(
        STAFF,
        path=lambda w: {"table_pk": t(w, 3).pk},
        body=lambda w: {"scores": [40, 10, -20, -30], "version": 1},
    ),
    "POST /api/tables/{table_pk}/tiles/value/": Write(  # computes a value, stores nothing
        RESULT_WRITERS,
        body=lambda w: {
            "result": "win",
            "winner": "p5",
            "discarder": "p7",
            "tiles": {
                "hand": "234m567m99p",
                "melds": ["pung 7z", "chow 345s"],
                "winning_tile": "4m",
                "robbing_kong": True,
            },
        },
        ok=(200,),
        changes=False,
    ),
    "POST /api/tables/{table_pk}/tiles/hands/{number}/resolve/": Write(  # no held hand here: the rule answers
        REFEREES,
        body=lambda w: {"version": version(t(w, 2)), "decision": "computed"},
        ok=(400,),
        changes=False,
    ),
    "POST /api/notable-hands/": Write(
        ANY_DIRECTOR,
        body=lambda w: {
            "person": "Ana",
            "title": "Nine gates",
            "value": 88,
            "unit": "fan",
            "date": "2026-05-01",
        },
        ok=(201,),
        event=False,  # the register of notable hands belongs to no tournament's pages
    ),
    "POST /api/tournaments/": Write(  # staff only (or the add_tournament permission): none of these callers
        NOBODY,
        body=lambda w: {"name": "New", "slug": "brand-new", "ruleset": "mcr", "starts_on": "2026-09-01"},
    ),
    "PUT /api/tournaments/{slug}/": Write(
        DIRECTORS,
        body=lambda w: {
            "name": "Renamed Cup",
            "slug": w.tournament.slug,
            "ruleset": "mcr",
            "starts_on": "2026-05-01",
        },
    ),
    "PATCH /api/tournaments/{slug}/": Write(DIRECTORS, body=lambda w: {"city": "León"}),
    "DELETE /api/tournaments/{slug}/": Write(DIRECTORS, ok=(409,), changes=False),  # results hold it
    "POST /api/tournaments/{slug}/import-players/": Write(
        DIRECTORS, body=lambda w: {"file": csv_upload()}, multipart=True
    ),
    "POST /api/tournaments/{tournament_slug}/exports/": Write(
        DIRECTORS, body=lambda w: {"exporter": "standings", "format": "csv"}, event=False
    ),
    "POST /api/tournaments/{tournament_slug}/seating/{number}/publish/": Write(
        DIRECTORS, path=lambda w: {"number": 3}
    ),
    "POST /api/tournaments/{tournament_slug}/seating/{number}/swap/": Write(
        DIRECTORS, path=lambda w: {"number": 3}, body=lambda w: {"a": "p1", "b": "p5"}
    ),
    "POST /api/tournaments/{tournament_slug}/seating/{number}/unpublish/": Write(
        DIRECTORS, path=lambda w: {"number": 3}, setup=lambda w: publish(w, 3)
    ),
    "POST /api/tournaments/{tournament_slug}/seating/generate/": Write(
        DIRECTORS, body=lambda w: {"sessions": [4], "seed": 1}
    ),
    "POST /api/tournaments/{tournament_slug}/seating/import/": Write(
        DIRECTORS, body=lambda w: {"sessions": [4], "names": "keys", "text": session3_text()}
    ),
    "POST /api/tournaments/{tournament_slug}/seating/replan/": Write(
        DIRECTORS, setup=lambda w: withdraw(w, "p20", 3)
    ),
    # the director's console
    "POST /api/tournaments/{tournament_slug}/console/finish/": Write(  # unconfirmed tables block it
        DIRECTORS, setup=running, ok=(400,), changes=False
    ),
    "POST /api/tournaments/{tournament_slug}/console/reopen/": Write(
        DIRECTORS, setup=finished, body=lambda w: {"reason": "a late appeal"}
    ),
    "POST /api/tournaments/{tournament_slug}/console/reveal/": Write(
        DIRECTORS, body=lambda w: {"revealed": True}
    ),
    "POST /api/tournaments/{tournament_slug}/console/players/": Write(
        DIRECTORS, body=lambda w: {"first_name": "Nueva", "last_name": "Jugadora", "country": "ESP"}
    ),
    "POST /api/tournaments/{tournament_slug}/console/staff/": Write(
        DIRECTORS, body=lambda w: {"who": w.users["plain"].username, "role": "scorer"}, event=False
    ),
    "POST /api/tournaments/{tournament_slug}/console/sessions/{number}/advance/": Write(
        DIRECTORS, path=lambda w: {"number": 3}, setup=running
    ),
    "POST /api/tournaments/{tournament_slug}/console/sessions/{number}/reopen/": Write(
        DIRECTORS,
        path=lambda w: {"number": 3},
        setup=lambda w: (running(w), w.tournament.sessions.filter(number=3).update(status="playing")),
    ),
    "POST /api/tournaments/{tournament_slug}/console/sessions/{number}/seat/": Write(
        DIRECTORS, path=lambda w: {"number": 4}
    ),
    "POST /api/tournaments/{tournament_slug}/console/sessions/{number}/checkin/": Write(
        DIRECTORS,
        setup=running,
        path=lambda w: {"number": 4},
        body=lambda w: {"present": [f"p{i}" for i in range(1, 20)], "absent": {"p20": "withdraw"}},
    ),
    # teams
    "POST /api/tournaments/{tournament_slug}/teams/": Write(
        DIRECTORS,
        setup=lambda w: team_of_two(w),
        body=lambda w: {"name": "Sur", "members": ["p3", "p4"]},
        ok=(201,),
    ),
    "PUT /api/tournaments/{tournament_slug}/teams/{id}/": Write(
        DIRECTORS,
        setup=team_of_two,
        path=team_id,
        body=lambda w: {"name": "Norte", "members": ["p1", "p2", "p3"]},
    ),
    "DELETE /api/tournaments/{tournament_slug}/teams/{id}/": Write(
        DIRECTORS, setup=team_of_two, path=team_id
    ),
    "POST /api/tournaments/{tournament_slug}/teams/size/": Write(DIRECTORS, body=lambda w: {"team_size": 4}),
    # the session clock and the venue screen's announcements
    "POST /api/tournaments/{tournament_slug}/clock/": Write(  # a seated session: its clock starts it
        REFEREES, setup=seated, body=lambda w: {"action": "start", "session": 1}
    ),
    "POST /api/tournaments/{tournament_slug}/announcements/": Write(
        DIRECTORS, body=lambda w: {"text": "Lunch at 14:00"}, ok=(201,)
    ),
    # a table calls a referee; the tournament's referees and directors go and resolve
    "POST /api/tables/{table_pk}/referee-call/": Write(RESULT_WRITERS, body=lambda w: {"reason": "foul"}),
    "POST /api/tournaments/{tournament_slug}/referee-calls/{id}/acknowledge/": Write(
        REFEREES, setup=referee_call, path=referee_call_id
    ),
    "POST /api/tournaments/{tournament_slug}/referee-calls/{id}/resolve/": Write(
        REFEREES, setup=referee_call, path=referee_call_id, body=lambda w: {"note": "Settled."}
    ),
    "DELETE /api/tournaments/{tournament_slug}/announcements/{id}/": Write(
        DIRECTORS, setup=announcement, path=announcement_id
    ),
    # the EMA submission: the observer, referees, prizes, substitutes' answers
    "PATCH /api/tournaments/{tournament_slug}/ema-submission/": Write(
        DIRECTORS,
        body=lambda w: {"observer": "Jan Novák", "substitute_answers": {"p21": True}},
        # a substitute's answer decides whether he is ranked (ERGMT §3.9): the standings read it
    ),
    # results of tournaments held elsewhere: the site's staff (or the model permissions) only
    "POST /api/ranking-imports/": Write(NOBODY, body=lambda w: {"name": "Elsewhere Open"}),
    "PATCH /api/ranking-imports/{id}/": Write(NOBODY, path=lambda w: {"id": 1}, body=lambda w: {"name": "X"}),
    "DELETE /api/ranking-imports/{id}/": Write(NOBODY, path=lambda w: {"id": 1}),
    "POST /api/ranking-imports/{id}/replace/": Write(NOBODY, path=lambda w: {"id": 1}, body=lambda w: {}),
}

LOGIN = 302  # pages send an anonymous caller to the login page
KEYED = (404,)  # a page opened by a private link: a caller without the right link finds nothing

PAGES: dict[str, Write] = {
    "tiles-setting": Write(DIRECTORS, body=lambda w: {"tiles": "optional"}, ok=(302,)),
    "tiles-hand-resolve": Write(  # no held hand here: the referee is sent back to the table
        REFEREES,
        body=lambda w: {"version": version(t(w, 2)), "decision": "computed"},
        ok=(302,),
        changes=False,
    ),
    "tiles-register-hand": Write(  # a hand with no tiles: the referee is told so, nothing is registered
        REFEREES,
        path=lambda w: {"number": 2},
        body=lambda w: {"title": "Nine gates"},
        ok=(302,),
        changes=False,
    ),
    "notable-hands": Write(
        ANY_DIRECTOR,
        body=lambda w: {
            "person": "Ana",
            "title": "Nine gates",
            "value": "88",
            "unit": "fan",
            "date": "2026-05-01",
        },
        ok=(302,),
        anonymous=(403,),
        event=False,  # the register of notable hands
    ),
    # importing needs the right to create tournaments (staff), even to replace one's own tournament
    "archive-import": Write(NOBODY, body=lambda w: {"file": archive_upload(w), "replace": "on"}, ok=(302,)),
    "director-archive": Write(
        DIRECTORS, body=lambda w: {"file": archive_upload(w), "replace": "on"}, ok=(302,)
    ),
    "director-players": Write(DIRECTORS, body=lambda w: {"file": csv_upload()}, ok=(302,)),
    "director-recompute": Write(DIRECTORS, ok=(302,), event=False),
    "director-tiebreaks": Write(DIRECTORS, body=lambda w: {"tiebreak_1": "first_places"}, ok=(302,)),
    "export-list": Write(
        DIRECTORS, body=lambda w: {"exporter": "standings", "format": "csv"}, ok=(302,), event=False
    ),
    "penalty-appeal": Write(REFEREES, body=lambda w: {"appeal": "I was at the table"}, ok=(302,)),
    "penalty-cancel": Write(REFEREES, body=lambda w: {"reason": "the clock was wrong"}, ok=(302,)),
    "player-penalties": Write(
        REFEREES, body=lambda w: {"kind": "foul", "session": "1", "reason": "slow"}, ok=(302,)
    ),
    "seating-generate": Write(
        DIRECTORS, body=lambda w: {"strategy": "schedule", "sessions": ["4"], "seed": "1"}, ok=(302,)
    ),
    "seating-import": Write(
        DIRECTORS, body=lambda w: {"sessions": ["4"], "names": "keys", "text": session3_text()}, ok=(302,)
    ),
    "seating-publish": Write(DIRECTORS, ok=(302,)),
    "seating-replan": Write(DIRECTORS, ok=(302,), setup=lambda w: withdraw(w, "p20", 3)),
    "seating-settings": Write(DIRECTORS, body=lambda w: {"seed": "3", "avoid_same_country": "on"}, ok=(302,)),
    "seating-swap": Write(DIRECTORS, body=lambda w: {"a": "p1", "b": "p5"}, ok=(200,), htmx=True),
    "seating-unpublish": Write(DIRECTORS, ok=(302,), setup=lambda w: publish(w, 3)),
    "session-tables": Write(
        REFEREES, body=lambda w: {"table": t(w, 5).pk, "version": version(t(w, 5))}, ok=(302,)
    ),
    "table-hand": Write(
        STAFF, body=lambda w: {"result": "draw", "version": version(t(w, 2)), "reason": "recount"}, ok=(302,)
    ),
    "table-page": Write(
        STAFF, body=lambda w: {"action": "hand", "result": "draw", "version": version(t(w, 2))}, ok=(302,)
    ),
    "table-penalty": Write(
        REFEREES, body=lambda w: {"kind": "foul", "player": "p5", "reason": "slow"}, ok=(302,)
    ),
    "table-link": Write(
        LINK,
        body=lambda w: {"action": "hand", "result": "draw", "version": version(t(w, 2))},
        ok=(302,),
        refused=KEYED,
    ),
    "table-link-hand": Write(
        LINK,
        body=lambda w: {"result": "draw", "version": version(t(w, 2)), "reason": "recount"},
        ok=(302,),
        refused=KEYED,
    ),
    "table-call": Write(STAFF, body=lambda w: {"reason": "foul"}, ok=(302,)),
    "table-link-call": Write(LINK, body=lambda w: {"reason": "foul"}, ok=(302,), refused=KEYED),
    "referee-call": Write(
        REFEREES,
        setup=referee_call,
        path=referee_call_id,
        body=lambda w: {"action": "acknowledge"},
        ok=(302,),
    ),
    "table-player-confirm": Write(
        LINK, body=lambda w: {"version": version(t(w, 5))}, ok=(302,), refused=KEYED
    ),
    # the director's console
    "tournament-new": Write(  # organisers only: none of these callers is one
        NOBODY,
        body=lambda w: {
            "name": "New",
            "ruleset": "mcr",
            "starts_on": "2026-09-01",
            "days": "1",
            "sessions": "4",
        },
        ok=(302,),
    ),
    "console-edit": Write(
        DIRECTORS,
        body=lambda w: {
            "t-name": "Renamed Cup",
            "t-ruleset": "mcr",
            "t-starts_on": "2026-05-01",
            "t-days": "1",
            "t-country": "ESP",
            "t-is_public": "on",
            "t-hide_last_sessions": "0",
        },
        ok=(302,),
    ),
    "console-session-add": Write(DIRECTORS, ok=(302,)),
    "console-session-remove": Write(DIRECTORS, ok=(302,)),
    "console-rules": Write(DIRECTORS, body=rules_body, ok=(302,)),
    "console-staff": Write(
        DIRECTORS,
        body=lambda w: {"form": "add", "add-who": w.users["plain"].username, "add-role": "scorer"},
        ok=(302,),
        event=False,  # roles
    ),
    "console-players": Write(
        DIRECTORS,
        body=lambda w: {"first_name": "Nueva", "last_name": "Jugadora", "country": "ESP"},
        ok=(302,),
    ),
    "console-player": Write(
        DIRECTORS,
        path=lambda w: {"key": "p21"},
        body=lambda w: {"form": "withdraw", "from_session": "2"},
        ok=(302,),
    ),
    "console-ema-register": Write(
        DIRECTORS, setup=ema_line, body=lambda w: {"ema_id": "09000001"}, ok=(302,)
    ),
    "console-ema-list": Write(ANY_DIRECTOR, body=lambda w: {"file": ema_csv()}, ok=(302,), event=False),
    "console-session": Write(
        DIRECTORS,
        setup=running,
        path=lambda w: {"number": 4},
        body=lambda w: {**{f"p_p{i}": "present" for i in range(1, 20)}, "p_p20": "withdraw"},
        ok=(302,),
    ),
    "console-session-action": Write(DIRECTORS, path=lambda w: {"number": 4, "action": "seat"}, ok=(302,)),
    "console-tournament-action": Write(
        DIRECTORS,
        path=lambda w: {"action": "reopen"},
        setup=finished,
        body=lambda w: {"reason": "a late appeal"},
        ok=(302,),
    ),
    "console-password": Write(  # everyone signed in chooses their own password
        frozenset({"scorer", "referee", "director", "other_director", "plain"}),
        body=lambda w: {"new_password1": "A-long-new-pass-42", "new_password2": "A-long-new-pass-42"},
        ok=(302,),
        event=False,  # an account
    ),
    "first-organiser": Write(  # offered only while the server has no account: here it has, so nobody may
        NOBODY,
        body=lambda w: {"username": "first", "password1": "A-long-pass-42", "password2": "A-long-pass-42"},
        ok=(302,),
        refused=(404,),
        anonymous=(404,),
    ),
    "console-sign-in": Write(  # the one-time link is the permission: a wrong one signs nobody in
        NOBODY, ok=(302,), refused=(410,), anonymous=(410,)
    ),
    # teams
    "teams": Write(
        DIRECTORS,
        body=lambda w: {"name": "Sur", "members": ["p3", "p4"]},
        ok=(302,),
        anonymous=(403,),
        setup=team_of_two,
    ),
    "team-edit": Write(
        DIRECTORS,
        setup=team_of_two,
        path=lambda w: {"team_id": team_id(w)["id"]},
        body=lambda w: {"name": "Norte", "members": ["p1", "p2", "p3"]},
        ok=(302,),
        anonymous=(403,),
    ),
    "team-delete": Write(
        DIRECTORS,
        setup=team_of_two,
        path=lambda w: {"team_id": team_id(w)["id"]},
        ok=(302,),
        anonymous=(403,),
    ),
    # the session clock, the venue screen and the backups
    "clock-control": Write(  # a seated session: its clock starts it
        REFEREES, setup=seated, body=lambda w: {"action": "start", "session": "1"}, ok=(302,)
    ),
    "clock-announcements": Write(DIRECTORS, body=lambda w: {"text": "Lunch at 14:00"}, ok=(302,)),
    "director-backup-now": Write(  # writes a file of the backups folder, no row
        DIRECTORS, ok=(302,), changes=False, anonymous=None
    ),
    "director-backup-restore": Write(
        DIRECTORS,
        setup=backup,
        body=lambda w: {"prefix": "0", "0-name": backup_name(w), "0-mode": "new"},
        ok=(302,),
    ),
    # the EMA submission: a substitute's answer, the observer's report, the pack (an export job)
    # a substitute's answer decides whether he is ranked: the standings read it (the domain event);
    # the submission's other facts and its pack (a file): no listener reads them
    "ema-submission-substitute": Write(DIRECTORS, body=lambda w: {"key": "p21", "answer": "yes"}, ok=(302,)),
    "ema-submission-report": Write(
        DIRECTORS, body=lambda w: {"observer": "Jan Novák"}, ok=(302,), event=False
    ),
    "ema-submission-pack": Write(DIRECTORS, ok=(302,), event=False),
    # results of tournaments held elsewhere: the site's staff (or the model permissions) only
    "ema-import-new": Write(NOBODY, body=lambda w: {"name": "Elsewhere Open"}, ok=(302,)),
    "ema-import-correct": Write(NOBODY, body=lambda w: {"name": "X"}, ok=(302,)),
    "ema-import-delete": Write(NOBODY, ok=(302,)),
}

# Pages that change nothing: a POST to them (by the director) must leave the database as it was.
READ_PAGES = {
    "director-archive-download", "director-dashboard", "ema-ranking", "ema-ranking-export",
    "ema-ranking-family", "ema-ranking-player", "export-download", "export-job", "healthz", "home",
    "penalty-list", "player-private", "player-public", "riichi-fu-options", "seating",
    "seating-print-cards", "seating-print-players", "seating-print-tables", "session", "standings",
    "standings-rows", "tournament-home", "tournament-players", "tiles-value", "tiles-value-link",
    "tiles-statistics", "console-home", "console-ema-search", "console-reveal", "my-tournaments",
    "entry-manifest", "entry-sw", "archive-import-job", "clock-page", "clock-tables", "director-backups",
    "director-backup-download", "ema-imports", "ema-import-detail", "print-schedules", "print-sheets",
    "venue-screen", "venue-screen-panels", "ema-submission", "ema-submission-panel", "ema-submission-pdf",
    "director-players-job", "live-stamp", "standings-needs", "standings-needs-csv",
    "ema-ranking-what-if", "players-search", "player-record",
    "referee-calls-part",
}  # fmt: skip

# The player imports again with every file imported in the background (PLAYER_IMPORT_INLINE_ROWS = 0):
# the queued job is the write, for the tournament's directors only.
BACKGROUND_IMPORTS = {
    # the request stores a job; the players are registered (and the event sent) when the job runs
    "POST /api/tournaments/{slug}/import-players/": Write(
        DIRECTORS, body=lambda w: {"file": csv_upload()}, multipart=True, ok=(202,), event=False
    ),
    "director-players": Write(DIRECTORS, body=lambda w: {"file": csv_upload()}, ok=(302,), event=False),
}


def fingerprint() -> list:
    """Every row of every table of the apps (history included)."""
    rows = []
    for app in APPS:
        for model in apps.get_app_config(app).get_models():
            rows.append((model._meta.label, list(model.objects.order_by("pk").values())))
    return rows


def api_path(world: World, path: str, spec: Write) -> str:
    params = {
        "slug": world.tournament.slug,
        "tournament_slug": world.tournament.slug,
        "table_pk": t(world, 2).pk,
        "number": 1,
    }
    if path.startswith("/api/players/"):
        params["id"] = reg(world, "p1").player_id
    elif path.startswith("/api/registrations/"):
        params["id"] = reg(world, "p1").pk
    elif path.startswith("/api/sessions/"):
        params["id"] = world.spare_session.pk
    elif path.startswith("/api/tables/{id}"):
        params["id"] = world.open_table.pk
    elif path.startswith("/api/seats/"):
        params["id"] = world.open_table.seats.get(position=0).pk
    elif path.startswith("/api/penalties/"):
        params["id"] = world.penalty.pk
    if spec.path:
        params.update(spec.path(world))
    url = path
    for name, value in params.items():
        url = url.replace(f"{{{name}}}", str(value))
    return url


def page_url(world: World, name: str, route: str, spec: Write, actor: str) -> str:
    link_table = t(world, 5) if name == "table-player-confirm" else t(world, 2)
    right_link = actor == "table_link"
    values = {
        "slug": world.tournament.slug,
        "session": 1,
        "number": 2 if "table" in name else 3,
        "hand": 1,
        "kind": "foul",
        "pk": world.penalty.pk,
        "key": (link_table.private_key if right_link else "not-a-table-link")
        if name.startswith("table-")
        else "p9",
        "player_key": reg(world, "p17").player.private_key
        if right_link
        else reg(world, "p1").player.private_key,
        "family": "mcr",
        "fmt": "csv",
        "ema_id": "04000001",
        "uid": "MQ",
        "token": "not-a-token",
        "action": "advance",
        "team_id": 1,
        "name": "no-such-backup.json",
    }
    if spec.path:
        values.update(spec.path(world))
    import re

    kwargs = {k: values[k] for k in re.findall(r"<(?:\w+:)?(\w+)>", route)}
    return reverse(name, kwargs=kwargs)


def matrix_world() -> World:
    world = build_world(public=True, prefix="mx-")
    world.tournament.settings = {"players_confirm": True}
    world.tournament.save()
    return world


def api_client(world: World, actor: str) -> APIClient:
    client = APIClient()
    if actor == "table_link":
        client.credentials(HTTP_X_TABLE_KEY=t(world, 2).private_key)
    elif actor != "anonymous":
        client.force_authenticate(world.users[actor])
    return client


def page_client(world: World, actor: str) -> Client:
    client = Client()
    if actor not in ("anonymous", "table_link"):
        client.force_login(world.users[actor])
    return client


def attempt(send) -> tuple[int, bool, object]:
    from django.test import TestCase

    from tournaments.signals import changed as domain_event

    sent = []

    def listen(sender, *, change, **kwargs):
        sent.append(change)

    domain_event.connect(listen, dispatch_uid="write-matrix")
    try:
        with transaction.atomic():
            before = fingerprint()
            with TestCase.captureOnCommitCallbacks(execute=True):  # then what the commit would send
                response = send()
                changed = fingerprint() != before
            transaction.set_rollback(True)
    finally:
        domain_event.disconnect(dispatch_uid="write-matrix")
    response.events = sent
    return response.status_code, changed, response


WRITE_METHODS = ("POST", "PUT", "PATCH", "DELETE")


def test_every_write_is_in_the_table():
    """A new write endpoint or page must be given its row (who may write) before it ships."""
    api_writes = {f"{m} {p}" for m, p in api_operations() if m in WRITE_METHODS}
    assert api_writes - set(API) == set(), "API writes with no row in the matrix"
    assert set(API) - api_writes == set(), "rows for API writes that no longer exist"
    pages = set(page_patterns())
    assert pages - set(PAGES) - READ_PAGES - PUSH_ENDPOINTS == set(), "pages with no row in the matrix"
    assert (set(PAGES) | READ_PAGES | PUSH_ENDPOINTS) - pages == set(), "rows for pages that no longer exist"


#: a phone's Web Push subscription, written by its owner only (a private link, an account, a table's link,
#: a tournament's staff): each door's owner checks, refusals and 404s are in tests/notifications/test_push.py
#: (test_only_the_owner_lists_and_removes_a_phone, test_bad_subscriptions_are_refused_naming_the_field,
#: test_a_phone_is_told_only_while_its_account_still_may_know) and tests/notifications/test_pages.py
PUSH_ENDPOINTS = {
    "push-player-account",
    "push-player-account-delete",
    "push-player-link",
    "push-player-link-delete",
    "push-staff",
    "push-staff-delete",
    "push-staff-page",
    "push-table-link",
    "push-table-link-delete",
}


def check(results: list, label: str, spec: Write, actor: str, status: int, changed: bool, response) -> None:
    content = getattr(response, "content", b"")[:300]
    events = getattr(response, "events", [])
    if actor in spec.allowed:
        if status not in spec.ok or changed != spec.changes:
            results.append(
                f"{label} as {actor}: {status}, changed={changed} (expected {spec.ok}) {content!r}"
            )
        elif changed and spec.event and not events:
            results.append(f"{label} as {actor}: wrote without the domain event")
        return
    if events:
        results.append(f"{label} as {actor}: refused, yet sent {events}")
    expected = spec.refused
    if actor in ("anonymous", "table_link") and spec.anonymous:
        expected = spec.anonymous
    elif actor == "anonymous" and label.split()[0] not in WRITE_METHODS and spec.refused != KEYED:
        expected = (LOGIN,)
    elif actor == "table_link" and label.split()[0] not in WRITE_METHODS and spec.refused != KEYED:
        expected = (LOGIN,)  # a table link opens its own table's pages only, not the tournament's
    if status not in expected or changed:
        results.append(
            f"{label} as {actor}: {status}, changed={changed} (expected refusal {expected}) {content!r}"
        )
    elif status == LOGIN and "/accounts/login/" not in response.get("Location", ""):
        results.append(f"{label} as {actor}: redirected to {response['Location']}, not to the login page")


@pytest.mark.parametrize("operation", sorted(API))
def test_api_write_matrix(operation):
    world = matrix_world()
    method, path = operation.split(" ", 1)
    spec = API[operation]
    failures: list[str] = []
    if spec.setup:
        spec.setup(world)
    for actor in ACTORS:
        client = api_client(world, actor)
        url = api_path(world, path, spec)
        if spec.query:
            url += "?" + spec.query(world)

        def send(client=client, url=url):
            body = spec.body(world) if spec.body else None
            kwargs = {"format": "multipart" if spec.multipart else "json"} if body is not None else {}
            return getattr(client, method.lower())(url, body, **kwargs)

        status, changed, response = attempt(send)
        check(failures, operation, spec, actor, status, changed, response)
    assert not failures, "\n".join(failures)


@pytest.mark.parametrize("name", sorted(PAGES))
def test_page_form_matrix(name):
    world = matrix_world()
    spec = PAGES[name]
    route = page_patterns()[name]
    failures: list[str] = []
    if spec.setup:
        spec.setup(world)
    for actor in ACTORS:
        client = page_client(world, actor)
        url = page_url(world, name, route, spec, actor)
        extra = {"HTTP_HX_REQUEST": "true"} if spec.htmx else {}

        def send(client=client, url=url, extra=extra):
            return client.post(url, spec.body(world) if spec.body else {}, **extra)

        status, changed, response = attempt(send)
        check(failures, f"PAGE {name}", spec, actor, status, changed, response)
    assert not failures, "\n".join(failures)


@pytest.mark.parametrize("operation", sorted(BACKGROUND_IMPORTS))
def test_background_player_imports_are_for_directors(operation, settings):
    from rankings.models import PlayerImportJob

    settings.PLAYER_IMPORT_INLINE_ROWS = 0
    world = matrix_world()
    spec = BACKGROUND_IMPORTS[operation]
    failures: list[str] = []
    for actor in ACTORS:
        if operation.startswith("POST "):
            client = api_client(world, actor)
            url = api_path(world, operation.split(" ", 1)[1], spec)

            def send(client=client, url=url):
                return client.post(url, spec.body(world), format="multipart")

        else:
            client = page_client(world, actor)
            url = page_url(world, operation, page_patterns()[operation], spec, actor)

            def send(client=client, url=url):
                return client.post(url, spec.body(world))

        status, changed, response = attempt(send)
        check(failures, operation, spec, actor, status, changed, response)
    assert not failures, "\n".join(failures)
    assert not PlayerImportJob.objects.exists()  # every attempt was rolled back


def test_read_pages_change_nothing_when_posted_to():
    world = matrix_world()
    client = page_client(world, "director")
    routes = page_patterns()
    for name in sorted(READ_PAGES):
        url = page_url(world, name, routes[name], Write(NOBODY), "director")
        if name == "player-private":
            url = reverse(name, kwargs={"key": reg(world, "p1").player.private_key})
        status, changed, _ = attempt(lambda url=url: client.post(url, {"x": "1"}))
        assert status < 500 and not changed, (name, status)


def test_matrix_size():
    """The size of the matrix: write endpoints and page forms × callers."""
    size = (len(API) + len(PAGES)) * len(ACTORS)
    print(
        f"\nauthorization matrix: {len(API)} API writes + {len(PAGES)} page forms = "
        f"{len(API) + len(PAGES)} writes × {len(ACTORS)} callers = {size} cases; "
        f"{len(READ_PAGES)} read-only pages checked to change nothing"
    )
    assert size == (len(API) + len(PAGES)) * 7


def test_a_director_cannot_register_another_tournaments_private_player():
    """Player ids are sequential: choosing one of a private tournament's players by id is refused as an
    unknown player (400 naming the field), the name is not answered and nothing is written."""
    world = matrix_world()
    world.other.is_public = False
    world.other.save(update_fields=["is_public"])
    hidden = world.other.registrations.get(key="p1").player
    cases = [
        ("POST", "/api/registrations/", {"tournament": world.tournament.pk, "player": hidden.pk}),
        (
            "PUT",
            f"/api/registrations/{world.spare_registration.pk}/",
            {"tournament": world.tournament.pk, "player": hidden.pk},
        ),
        ("PATCH", f"/api/registrations/{world.spare_registration.pk}/", {"player": hidden.pk}),
    ]
    client = api_client(world, "director")
    for method, url, body in cases:
        status, changed, response = attempt(
            lambda method=method, url=url, body=body: getattr(client, method.lower())(
                url, body, format="json"
            )
        )
        assert status == 400 and not changed, (method, status, response.content)
        assert "player" in response.json()
        assert hidden.first_name.encode() not in response.content
    # the director of the private tournament registers the same player in a tournament of theirs
    world.tournament.roles.create(user=world.users["other_director"], role="director")
    mine = api_client(world, "other_director")
    status, changed, _ = attempt(
        lambda: mine.post(
            "/api/registrations/", {"tournament": world.tournament.pk, "player": hidden.pk}, format="json"
        )
    )
    assert status == 201 and changed


# -- a director after the finish ----------------------------------------------------------------------------
# Once the tournament is finished, its registrations, teams, rules, sessions, tables and results are
# read-only until the director reopens it with a reason: every write of the matrix, made by its director
# after the finish, is refused (the API with 400 naming ``status``), changes nothing and sends no event,
# except these, which change none of that.
OPEN_AFTER_FINISH = {
    # reopening is the way back; the prize-giving's reveal; accounts and staff; exports and backups (files);
    # the venue screen's announcements; the EMA submission, made after the finish; players' own data (shared
    # by every tournament); the register of notable hands; results of tournaments held elsewhere
    "POST /api/tournaments/{tournament_slug}/console/reopen/",
    "POST /api/tournaments/{tournament_slug}/console/reveal/",
    "POST /api/tournaments/{tournament_slug}/console/staff/",
    "POST /api/tournaments/{tournament_slug}/exports/",
    "POST /api/tournaments/{tournament_slug}/announcements/",
    "DELETE /api/tournaments/{tournament_slug}/announcements/{id}/",
    "PATCH /api/tournaments/{tournament_slug}/ema-submission/",
    "PUT /api/tournaments/{slug}/",  # its name, dates and place (the rules are refused: see below)
    "PATCH /api/tournaments/{slug}/",
    "POST /api/players/",
    "PUT /api/players/{id}/",
    "PATCH /api/players/{id}/",
    "DELETE /api/players/{id}/",
    "POST /api/notable-hands/",
    "POST /api/tables/{table_pk}/tiles/value/",  # computes a value, stores nothing
    "DELETE /api/tournaments/{slug}/",  # held by its results (409) whatever its status
    "notable-hands", "export-list", "director-backup-now", "director-recompute", "clock-announcements",
    "ema-submission-report", "ema-submission-pack", "ema-submission-substitute", "seating-settings",
    "director-tiebreaks", "tiles-setting", "console-ema-list", "console-password", "console-staff",
    "console-tournament-action",  # its reopening, with a reason
    "console-edit",  # its name and place (its ruleset, rules and session times are refused)
    # a whole tournament replaced by an archive or a backup (the statuses are the document's)
    "POST /api/archives/", "director-archive", "director-backup-restore",
}  # fmt: skip


def finished_world(spec: Write) -> World:
    world = matrix_world()
    if spec.setup and spec.setup is not finished:
        spec.setup(world)
    finished(world)
    return world


def check_finished(failures: list, label: str, status: int, changed: bool, response, api: bool) -> None:
    events = getattr(response, "events", [])
    content = getattr(response, "content", b"")[:300]
    if changed or events or status >= 500:
        failures.append(f"{label}: {status}, changed={changed}, events={events} {content!r}")
    elif api and (status not in (400, 409) or (b"status" not in content and b"finished" not in content)):
        failures.append(f"{label}: {status}, not a refusal naming the status {content!r}")


def directors_writes(table: dict) -> list[str]:
    """The rows the director may write while the tournament runs, less those still open after the finish."""
    return sorted(
        name for name, spec in table.items() if "director" in spec.allowed and name not in OPEN_AFTER_FINISH
    )


@pytest.mark.parametrize("operation", directors_writes(API))
def test_api_writes_of_a_finished_tournament_are_refused(operation):
    spec = API[operation]
    world = finished_world(spec)
    method, path = operation.split(" ", 1)
    failures: list[str] = []
    client = api_client(world, "director")
    url = api_path(world, path, spec) + ("?" + spec.query(world) if spec.query else "")

    def send():
        body = spec.body(world) if spec.body else None
        kwargs = {"format": "multipart" if spec.multipart else "json"} if body is not None else {}
        return getattr(client, method.lower())(url, body, **kwargs)

    status, changed, response = attempt(send)
    check_finished(failures, operation, status, changed, response, api=True)
    assert not failures, "\n".join(failures)


@pytest.mark.parametrize("name", directors_writes(PAGES))
def test_page_writes_of_a_finished_tournament_are_refused(name):
    spec = PAGES[name]
    world = finished_world(spec)
    failures: list[str] = []
    client = page_client(world, "director")
    url = page_url(world, name, page_patterns()[name], spec, "director")
    extra = {"HTTP_HX_REQUEST": "true"} if spec.htmx else {}
    status, changed, response = attempt(
        lambda: client.post(url, spec.body(world) if spec.body else {}, **extra)
    )
    check_finished(failures, f"PAGE {name}", status, changed, response, api=False)
    assert not failures, "\n".join(failures)


def test_the_rules_of_a_finished_tournament_are_refused_through_the_api():
    """The tournament's details still change after the finish; its rules do not."""
    world = matrix_world()
    finished(world)
    client = api_client(world, "director")
    status, changed, response = attempt(
        lambda: client.patch(
            f"/api/tournaments/{world.tournament.slug}/", {"rules": {"min_fan": 10}}, format="json"
        )
    )
    assert status == 400 and not changed and "status" in response.json()
    status, changed, response = attempt(
        lambda: client.patch(f"/api/tournaments/{world.tournament.slug}/", {"city": "León"}, format="json")
    )
    assert status == 200 and changed
