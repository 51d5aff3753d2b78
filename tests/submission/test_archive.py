"""The EMA submission's facts in the archive format: the observer, the referees and whether they play, the
prizes, the substitutes' answers and the observer's comments; export(import(doc)) == doc."""

from __future__ import annotations

import pytest

from rankings.archive import archive_export, archive_import
from rankings.submission import selectors
from rankings.submission.services import submission_update
from scoring.rules.base import RuleError
from tests.archive.conftest import load

pytestmark = pytest.mark.django_db

SUBMISSION = {
    "observer": "Jan Novák",
    "observer_ema_id": "04123456",
    "referees": [{"name": "Núria Árbitra", "plays": False}, {"name": "Lars Ødegaard", "plays": True}],
    "prizes": ["Trophies for the three best players", "Best team"],
    "substitute_answers": {"s1": True, "s2": False},
    "organisation": "Bright hall.",
    "conclusion": "Recommended.",
}


def test_the_submission_round_trips_and_reaches_the_checks():
    doc = load("mcr")
    doc["ema_submission"] = SUBMISSION
    tournament = archive_import(document=doc)
    assert archive_export(tournament=tournament) == doc
    facts = selectors.facts(tournament=tournament)
    assert facts.observer == "Jan Novák"
    assert facts.substitute_answers == {"s1": True, "s2": False}
    assert [(r.name, r.plays) for r in facts.referees] == [("Núria Árbitra", False), ("Lars Ødegaard", True)]


def test_a_tournament_without_submission_facts_has_no_key_and_empty_fields_are_left_out(director):
    tournament = archive_import(document=load("mcr"))
    assert "ema_submission" not in archive_export(tournament=tournament)
    submission_update(tournament=tournament, changes={"observer": "Ana", "conclusion": ""})
    assert archive_export(tournament=tournament)["ema_submission"] == {"observer": "Ana"}


@pytest.mark.parametrize(
    ("value", "path"),
    [
        ({"substitute_answers": {"p1": True}}, "ema_submission.substitute_answers.p1"),
        ({"substitute_answers": {"s1": "yes"}}, "ema_submission.substitute_answers.s1"),
        ({"referees": [{"name": "X", "plays": "no"}]}, "ema_submission.referees[0].plays"),
        ({"observer_ema_id": "4123456"}, "ema_submission.observer_ema_id"),
        ({"observer": "x" * 201}, "ema_submission.observer"),
        ({"observr": "typo"}, "ema_submission.observr"),
        ("Jan", "ema_submission"),
    ],
)
def test_faulty_submission_facts_are_refused_with_their_path_and_nothing_is_written(value, path):
    doc = load("mcr")
    doc["ema_submission"] = value
    with pytest.raises(RuleError) as refused:
        archive_import(document=doc)
    assert refused.value.path == path
    from tournaments.models import Tournament

    assert not Tournament.objects.filter(slug=doc["tournament"]["slug"]).exists()
