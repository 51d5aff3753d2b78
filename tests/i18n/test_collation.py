"""Names in the order a reader of each language expects (the Unicode Collation Algorithm with the
language's own letters), and the same search in every language."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.test import Client
from django.utils import translation

from tests.tournaments.test_names import NAMES
from tournaments import services
from tournaments.names import collation_key, fold, name_key

LANGUAGES = [code for code, _name in settings.LANGUAGES]
# Surnames whose order differs from one language to another
MIXED = ["Lz", "Łukasz", "Lopez", "Nz", "Ñúñez", "Nuñez", "Oz", "Ówiec", "Zz", "Żak", "Źrebiec"]
EXPECTED = {
    # Spanish: ñ a letter of its own after n
    "es": ["Lopez", "Łukasz", "Lz", "Nuñez", "Nz", "Ñúñez", "Ówiec", "Oz", "Żak", "Źrebiec", "Zz"],
    # Polish: ł, ó, ź, ż letters of their own after l, o, z (ź before ż); ñ is an n with a mark
    "pl": ["Lopez", "Lz", "Łukasz", "Nuñez", "Ñúñez", "Nz", "Oz", "Ówiec", "Zz", "Źrebiec", "Żak"],
}
ROOT = ["Lopez", "Łukasz", "Lz", "Nuñez", "Ñúñez", "Nz", "Ówiec", "Oz", "Żak", "Źrebiec", "Zz"]


@pytest.mark.parametrize("language", LANGUAGES)
def test_each_language_orders_its_letters(language):
    ordered = sorted(MIXED, key=lambda last: name_key("Ana", last, language))
    assert ordered == EXPECTED.get(language, ROOT)


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_language_keeps_the_european_order_of_the_names(language):
    """The reference list of tests/tournaments/test_names.py: Åström among the A, "De Vries" under D,
    "van Dijk" under V, Ødegaard among the O, in every language."""
    expected = list(NAMES)
    if language == "pl":  # Polish: Ó is a letter of its own, after every O (Ødegaard is an O with a stroke)
        expected.insert(6, expected.pop(5))
    shuffled = sorted(NAMES, key=lambda n: n[1].casefold(), reverse=True)
    assert sorted(shuffled, key=lambda n: name_key(*n, language=language)) == expected


@pytest.mark.parametrize("language", LANGUAGES)
def test_case_and_accents_decide_only_between_otherwise_equal_names(language):
    names = ["müller", "Muller", "Müller", "Mullet", "MULLER", "Mülleŕ"]
    ordered = sorted(names, key=lambda last: name_key("", last, language))
    assert ordered[-1] == "Mullet"  # the letters first: müller… before Mullet
    assert ordered[:5] == sorted(ordered[:5], key=lambda last: collation_key(last, language))
    # German: ä, ö, ü are a, o, u with a mark (Müller beside Muller, not after Mz)
    assert name_key("", "Müller", "de") < name_key("", "Mz", "de")
    # French: é among the e (Élodie before Emma), ç among the c
    assert name_key("Élodie", "", "fr") < name_key("Emma", "", "fr") < name_key("Eva", "", "fr")
    assert name_key("", "Çelik", "fr") < name_key("", "Cz", "fr")


def test_the_reader_s_language_orders_the_lists_without_saying_it():
    with translation.override("pl"):
        polish = sorted(["Łukasz", "Lz"], key=lambda last: name_key("", last))
    with translation.override("es"):
        spanish = sorted(["Łukasz", "Lz"], key=lambda last: name_key("", last))
    assert polish == ["Lz", "Łukasz"] and spanish == ["Łukasz", "Lz"]


@pytest.mark.parametrize("language", LANGUAGES)
def test_search_folds_the_same_way_in_every_language(language):
    with translation.override(language):
        assert fold("Łukasz Ñúñez") == "lukasz nunez" and fold("Straße Ødegaard") == "strasse odegaard"


@pytest.mark.django_db
@pytest.mark.parametrize("language", ["es", "pl"])
def test_the_players_page_orders_names_in_the_reader_s_language(make_tournament, director, language):
    tournament = make_tournament("lenguas", director=director, players=0, sessions=1)
    for i, last in enumerate(MIXED, start=1):
        player = services.player_create(first_name="Ana", last_name=last, country="ESP")
        services.registration_create(tournament=tournament, player=player, key=f"p{i}")
    html = Client().get(f"/t/{tournament.slug}/players/", HTTP_ACCEPT_LANGUAGE=language).content.decode()
    shown = sorted(
        MIXED, key=lambda last: html.index(f"Ana {last}<") if f"Ana {last}<" in html else html.index(last)
    )
    assert shown == EXPECTED[language], shown
