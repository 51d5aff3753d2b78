"""Every state live entry allows exports to an archive that the import accepts again, unchanged.

Random sessions are entered through the services of live entry (hands or totals, penalties on recorded
hands and on the hand in play, confirmed or not); whatever live entry accepts must round-trip.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import itertools

import pytest
from django.db import transaction
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from penalties.services import penalty_record
from rankings.archive import archive_export, archive_import
from scoring import services as scoring
from scoring.rules.base import RuleError
from tournaments import services
from tournaments.models import Role

pytestmark = pytest.mark.django_db

_slugs = itertools.count(1)

mcr_hand = st.one_of(
    st.just({"result": "draw"}),
    st.builds(
        lambda w, d, fan: {"result": "win", "winner": w, "discarder": None if d == w else d, "fan": fan},
        st.integers(0, 3),
        st.integers(0, 3),
        st.integers(8, 40),
    ),
)
penalty = st.fixed_dictionaries(
    {
        "kind": st.sampled_from(
            ["false_hu", "dead_hand", "foul", "late_arrival", "chombo", "forgot_winning_tile"]
        ),
        "seat": st.integers(0, 3),
        "hand": st.one_of(st.none(), st.integers(1, 20)),
        "with_table": st.booleans(),
    }
)
state = st.fixed_dictionaries(
    {
        "ruleset": st.sampled_from(["mcr", "ema-riichi-2016"]),
        "totals": st.booleans(),
        "hands": st.lists(mcr_hand, max_size=6),
        "swing": st.tuples(st.integers(-300, 300), st.integers(-300, 300)),
        "penalties": st.lists(penalty, max_size=4),
        "confirm": st.booleans(),
    }
)


class _Rollback(Exception):
    pass


def _enter(s: dict, director) -> object:
    riichi = s["ruleset"] != "mcr"
    tournament = services.tournament_create(
        name="Live",
        slug=f"live-{next(_slugs)}",
        ruleset=s["ruleset"],
        starts_on=dt.date(2026, 5, 1),
        director=director,
        sessions=1,
    )
    regs = [
        services.registration_create(
            tournament=tournament,
            player=services.player_create(first_name=f"P{i}", last_name="Live"),
            key=f"p{i}",
        )
        for i in range(1, 5)
    ]
    session = tournament.sessions.get(number=1)
    table = services.session_seat(session=session, tables=[regs])[0]
    actor = scoring.Actor(user=director, role=Role.DIRECTOR)
    a, b = s["swing"]
    if s["totals"] or riichi:
        scores = (
            [30000 + a * 100, 30000 - a * 100, 30000 + b * 100, 30000 - b * 100] if riichi else [a, -a, b, -b]
        )
        scoring.totals_set(table=table, scores=scores, actor=actor, expected_version=None)
    else:
        for hand in s["hands"]:
            with contextlib.suppress(RuleError):  # refused live: not a state the product allows
                scoring.hand_add(table=table, hand=hand, actor=actor, expected_version=None)
    for p in s["penalties"]:
        with contextlib.suppress(RuleError):
            penalty_record(
                tournament=tournament,
                registration=regs[p["seat"]],
                kind=p["kind"],
                actor=actor,
                session=session,
                table=table if p["with_table"] else None,
                hand_number=p["hand"],
                variant="below_minimum" if p["kind"] == "false_hu" else "",
                minutes_late=3 if p["kind"] == "late_arrival" else None,
                reason="seen by the referee",
            )
    if s["confirm"]:
        with contextlib.suppress(RuleError):
            scoring.result_confirm(table=table, actor=actor, expected_version=None)
    return tournament


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(s=state)
def test_every_live_state_exports_to_an_archive_that_imports_again(s, director):
    try:
        with transaction.atomic():
            tournament = _enter(s, director)
            document = archive_export(tournament=tournament)
            copy = {**document, "tournament": {**document["tournament"], "slug": tournament.slug + "-copy"}}
            imported = archive_import(document=copy, user=director)
            again = archive_export(tournament=imported)
            assert again == copy
            raise _Rollback
    except _Rollback:
        pass


def test_a_false_hu_on_the_hand_in_play_round_trips_and_one_beyond_is_refused_live(director):
    """The probe's finding: live entry took hand 9 on a table of 4 hands; the archive refused it."""
    s = {
        "ruleset": "mcr",
        "totals": False,
        "swing": (0, 0),
        "confirm": False,
        "penalties": [],
        "hands": [{"result": "draw"}] * 4,
    }
    tournament = _enter(s, director)
    table = tournament.sessions.get(number=1).tables.get()
    actor = scoring.Actor(user=director, role=Role.DIRECTOR)
    reg = tournament.registrations.get(key="p2")
    kwargs = {
        "tournament": tournament,
        "registration": reg,
        "kind": "false_hu",
        "actor": actor,
        "session": table.session,
        "table": table,
        "variant": "below_minimum",
    }
    with pytest.raises(RuleError) as caught:
        penalty_record(hand_number=9, **kwargs)
    assert caught.value.path == "hand"
    assert (
        "has 4 hands recorded: the hand is one of them or the hand in play (5), not 9" in caught.value.message
    )
    penalty_record(hand_number=5, **kwargs)
    document = archive_export(tournament=tournament)
    copy = {**document, "tournament": {**document["tournament"], "slug": "copy"}}
    assert archive_export(tournament=archive_import(document=copy)) == copy
