"""The checks on plain facts (no database): the formats of ERGMT §3.6 per ruleset and number of days, the
sessions a day, breaks, referees per 32 players, names compared as people write them."""

from __future__ import annotations

import datetime as dt

import pytest

from rankings.submission import engine
from rankings.submission.engine import Facts, ListedPlayer, PlayerFact, RefereeFact, SessionFact


def sessions(count: int, *, minutes: int, per_day: int, gap: int = 30, start: dt.date = dt.date(2027, 5, 1)):
    found = []
    for i in range(count):
        day, slot = divmod(i, per_day)
        at = dt.datetime.combine(start + dt.timedelta(days=day), dt.time(9)) + dt.timedelta(
            minutes=slot * (minutes + gap)
        )
        found.append(SessionFact(number=i + 1, starts_at=at, minutes=minutes, played=False))
    return tuple(found)


def facts(family="mcr", days=1, planned=(), players=(), referees=(), **extra) -> Facts:
    return Facts(
        family=family,
        days=days,
        sessions=planned,
        players=players,
        ema_countries=frozenset({"ESP", "FRA"}),
        referees=referees,
        **extra,
    )


def said(check) -> list[str]:
    return [str(m) for m in check.messages]


@pytest.mark.parametrize(
    ("family", "days", "count", "minutes", "per_day"),
    [
        ("mcr", 1, 4, 90, 4),
        ("mcr", 2, 6, 120, 3),
        ("mcr", 3, 9, 120, 3),
        ("riichi", 1, 4, 90, 4),
        ("riichi", 2, 7, 90, 4),
        ("riichi", 3, 11, 90, 4),
    ],
)
def test_the_least_format_of_each_ruleset_and_length_is_met(family, days, count, minutes, per_day):
    planned = sessions(count, minutes=minutes, per_day=per_day)
    check = engine.check_schedule(facts(family, days, planned))
    assert (check.status, said(check)) == ("ok", [])
    fewer = engine.check_schedule(facts(family, days, planned[:-1]))
    assert said(fewer) == [f"{days} day(s) need at least {count} sessions; {count - 1} are planned."]


def test_short_sessions_and_crowded_days_are_named():
    planned = sessions(5, minutes=60, per_day=5)
    check = engine.check_schedule(facts("mcr", 1, planned))
    assert said(check) == [
        *(f"Session {n} lasts 60 minutes; at least 90 are needed." for n in range(1, 6)),
        "2027-05-01 has 5 sessions; at most 4 a day.",
    ]
    riichi = engine.check_schedule(facts("riichi", 1, sessions(5, minutes=90, per_day=5)))
    assert riichi.status == "ok"  # riichi allows 5 a day
    spread = engine.check_schedule(facts("mcr", 1, sessions(4, minutes=90, per_day=2)))
    assert said(spread) == ["The sessions are planned over 2 days; the tournament lasts 1."]


def test_longer_tournaments_count_as_three_days():
    assert engine.check_schedule(facts("mcr", 4, sessions(9, minutes=120, per_day=3))).status == "ok"


def test_breaks_shorter_than_15_minutes_and_missing_times():
    planned = (
        *sessions(2, minutes=90, per_day=4, gap=10),
        SessionFact(number=3, starts_at=None, minutes=90, played=False),
    )
    assert said(engine.check_breaks(facts(planned=planned))) == [
        "Between sessions 1 and 2 the break is 10 minutes; at least 15.",
        "Sessions without a planned start: 3.",
    ]
    assert engine.check_breaks(facts(planned=sessions(4, minutes=90, per_day=2, gap=15))).status == "ok"


def test_one_referee_per_32_players_counts_the_players_not_the_substitutes():
    players = tuple(PlayerFact(key=f"p{i}", name=f"P{i}", ema_id="", country="ESP") for i in range(33))
    subs = (PlayerFact(key="s1", name="S", ema_id="", country="ESP", is_substitute=True),)
    one = (RefereeFact(name="R", plays=True),)
    assert said(engine.check_referees(facts(players=players[:32] + subs, referees=one))) == [
        "1 referee(s), 1 playing."
    ]
    assert said(engine.check_referees(facts(players=players, referees=one))) == [
        "1 referee(s) named; 2 needed for these players."
    ]


def test_names_are_compared_as_people_write_them():
    assert engine.same_name("Ana Martín", "martin ana")
    assert engine.same_name("Lars Ødegaard", "LARS ODEGAARD")
    assert not engine.same_name("Maria Garcia", "Marta Garcia")
    listed = [ListedPlayer("04010001", "Lars Ødegaard", "NOR"), ListedPlayer("04010002", "Ana Martín", "ESP")]
    assert engine.closest("Lars Odegard", listed) == listed[0]
    assert engine.closest("Zhang Wei", listed) is None


def test_without_an_ema_list_numbers_are_checked_for_their_form_only():
    players = (
        PlayerFact(key="p1", name="Ana", ema_id="0401001", country="ESP"),
        PlayerFact(key="p2", name="Bo", ema_id="04010002", country="ESP"),
    )
    check = engine.check_ema_numbers(facts(players=players))
    assert (check.status, said(check)) == ("fail", ["Ana: EMA number 0401001 is not 8 digits."])
    check = engine.check_ema_numbers(facts(players=players[1:]))
    assert (check.status, said(check)) == (
        "info",
        ["No EMA player list is loaded: numbers were checked for their form only."],
    )


def test_a_substitute_who_refused_but_has_a_place_is_named():
    sub = PlayerFact(key="s1", name="Sub", ema_id="", country="ESP", is_substitute=True)
    check = engine.check_substitutes(
        facts(players=(sub,), substitute_answers={"s1": False}, ranked_substitutes=frozenset({"s1"}))
    )
    assert said(check) == ["Sub answered that the results do not count, yet has a place in the results."]


def test_only_the_rulesets_the_ema_ranks_are_checked():
    assert engine.run_checks(facts("salamanca")) == []
    assert [c.key for c in engine.run_checks(facts("riichi"))] == list(engine.ORDER)


def test_a_substitute_who_never_played_needs_no_answer():
    """Added at a later session's check-in and never seated: nothing of theirs counts, nothing to ask."""
    idle = PlayerFact(key="s2", name="Marek Nowak", ema_id="", country="POL", is_substitute=True)
    seated = PlayerFact(key="s1", name="Sub", ema_id="", country="ESP", is_substitute=True)
    check = engine.check_substitutes(facts(players=(idle,), finished=True))
    assert check.status == engine.OK
    assert said(check) == ["Marek Nowak never played: no answer is needed, no results to count."]
    # while the tournament runs the substitute may still play: to ask, not a fault
    check = engine.check_substitutes(facts(players=(idle,)))
    assert check.status == engine.PENDING
    assert said(check) == ["Marek Nowak has not played: ask whether the results count before they play."]
    check = engine.check_substitutes(facts(players=(idle, seated), substitutes_played=frozenset({"s1"})))
    assert check.status == engine.FAIL
    assert said(check)[0] == "Sub was not asked (or the answer was not recorded) whether the results count."
