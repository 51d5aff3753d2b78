"""The value preview of the tile picker at the table: a claim that differs from the tiles shows both values
and says the hand will be held; malformed tiles are refused with the field named, never a server error."""

from __future__ import annotations

import pytest

from scoring.models import Hand
from tournaments import services as tournament_services

pytestmark = pytest.mark.django_db

KEYS = ("p1", "p2", "p3", "p4")


def seat(tournament, *tables, session=1):
    regs = {r.key: r for r in tournament.registrations.all()}
    return tournament_services.session_seat(
        session=tournament.sessions.get(number=session), tables=[[regs[k] for k in t] for t in tables]
    )


def preview_url(table):
    return f"/table/{table.private_key}/tiles/value/"


# Robbing the Kong 8 + Dragon Pung 2 + Short Straight 1 = 11 fan
MCR_FIELDS = {
    "result": "win",
    "winner": "0",
    "discarder": "2",
    "tiles_hand": "234m567m99p",
    "tiles_melds": "pung 7z, chow 345s",
    "tiles_winning": "4m",
    "tiles_flags": ["robbing_kong"],
    "version": "1",
}


def test_an_mcr_claim_that_differs_shows_both_values_and_says_the_hand_is_held(client, tournament):
    table = seat(tournament, KEYS)[0]
    response = client.post(preview_url(table), {**MCR_FIELDS, "fan": "10"})
    assert response.status_code == 200
    text = response.content.decode()
    assert "The value entered (10 fan) differs from the tiles (11 fan)" in text
    assert "held for a referee" in text
    agreeing = client.post(preview_url(table), {**MCR_FIELDS, "fan": "11"}).content.decode()
    assert "agrees with the tiles" in agreeing
    assert not Hand.objects.exists()


def test_a_riichi_claim_that_differs_shows_both_values(client, make_tournament):
    tournament = make_tournament("riichi-preview", ruleset="ema-riichi-2025")
    table = seat(tournament, KEYS)[0]
    fields = {
        "result": "ron",
        "loser": "2",
        "winner": "1",
        "han": "2",
        "fu": "30",
        "tiles_hand": "123m456p789s24s99m3s",
        "tiles_winning": "3s",
        "tiles_flags": ["first_turn_discard"],
        "version": "1",
    }
    response = client.post(preview_url(table), fields)
    assert response.status_code == 200
    text = response.content.decode()
    assert "The value entered (2 han 30 fu) differs from the tiles (5 han" in text, text
    assert not Hand.objects.exists()


MALFORMED = [
    {"tiles_hand": "12x"},
    {"tiles_hand": "1m2"},
    {"tiles_hand": "0m" * 14},
    {"tiles_hand": "1m" * 15},
    {"tiles_hand": "1111m" + "1m"},
    {"tiles_hand": "z" * 5000},
    {"tiles_melds": "pung"},
    {"tiles_melds": "fly 123m"},
    {"tiles_melds": "chow 135m"},
    {"tiles_melds": "pung 7z, pung 7z, pung 7z, pung 7z, pung 7z"},
    {"tiles_winning": "9z"},
    {"tiles_winning": "1m2m"},
    {"tiles_flags": ["no_such_flag"]},
    {"tiles_flowers": "-1"},
    {"tiles_flowers": "many"},
    {"tiles_hand": "\x00\x01"},
]


@pytest.mark.parametrize("bad", MALFORMED, ids=[repr(b)[:40] for b in MALFORMED])
def test_malformed_tiles_are_refused_with_the_field_named(client, tournament, bad):
    table = seat(tournament, KEYS)[0]
    response = client.post(preview_url(table), {**MCR_FIELDS, **bad})
    assert 400 <= response.status_code < 500, (response.status_code, response.content[:300])
    text = response.content.decode()
    assert "tp-problem" in text
    assert not Hand.objects.exists()
