"""Reads of hands from tiles."""

from __future__ import annotations

from typing import Any

from django.db import models

from scoring.models import Hand, NotableHand, TableResult
from scoring.rules.tiles import stats
from tournaments.models import Registration, Seat, Table, Tournament
from tournaments.names import person_key
from tournaments.selectors import HIDE_SETTING, visible_through


def held_hand_view(*, table: Table, number: int) -> dict[str, Any] | None:
    """What a referee sees of a held hand: the version, and per win the claimed and computed values with
    the fan or yaku; None when the hand is not held."""
    result = TableResult.objects.filter(table=table).first()
    if result is None:
        return None
    hand = result.hands.filter(number=number).first()
    if hand is None or not hand.valuation or hand.valuation.get("status") != "held":
        return None
    names = {
        s.position: s.registration.player.full_name
        for s in table.seats.select_related("registration__player")
    }
    wins = [{**w, "name": names.get(w["winner"], "")} for w in hand.valuation.get("wins", [])]
    return {"version": result.version, "number": number, "wins": wins, "data": hand.data}


def tournament_statistics(*, tournament, top: int = 10, user=None, everything: bool = False):
    """The statistics of a tournament from its tables entered hand by hand (scoring.rules.tiles.stats),
    as ``user`` may see them: while the last sessions are hidden for the prize-giving, their hands are
    left out for the public (``everything``: every session, whoever asks)."""
    registrations = Registration.objects.filter(tournament=tournament).select_related("player")
    order = {r.key: person_key(r.player) for r in registrations}
    names = {r.key: r.player.full_name for r in registrations}
    seats: dict[int, list[str]] = {}
    for table_id, _position, key in (
        Seat.objects.filter(session__tournament=tournament)
        .order_by("table_id", "position")
        .values_list("table_id", "position", "registration__key")
    ):
        seats.setdefault(table_id, []).append(key)
    grouped: dict[int, list] = {}
    places: dict[int, tuple[int, int]] = {}
    hands = Hand.objects.filter(result__table__session__tournament=tournament, result__mode="hands")
    last = None if everything else visible_through(tournament=tournament, user=user)
    if last is not None:
        hands = hands.filter(result__table__session__number__lte=last)
    rows = hands.order_by("result__table__session__number", "result__table__number", "number").values_list(
        "result__table_id",
        "result__table__session__number",
        "result__table__number",
        "number",
        "data",
        "valuation",
    )
    for table_id, session, table, number, data, valuation in rows.iterator(chunk_size=2000):
        grouped.setdefault(table_id, []).append((number, data, valuation))
        places[table_id] = (session, table)
    tables = [
        (places[t][0], places[t][1], seats.get(t, []), hands)
        for t, hands in grouped.items()
        if len(seats.get(t, [])) == 4
    ]
    computed = stats.compute(tournament.family, names, tables, top=top)
    computed.players.sort(key=lambda p: (order.get(p.key, ("", "", "", "")), p.key))
    return computed


def notable_hands(*, tournament=None, user=None, everything: bool = False):
    """The register: of one tournament, or the whole register's public part (entries of private
    tournaments are left out). Entries registered from a hand of a session hidden for the prize-giving
    are left out for ``user`` (None: the public) until the reveal, as every channel of results does;
    ``everything``: the directors' files."""
    found = NotableHand.objects.select_related("tournament")
    if tournament is not None:
        found = found.filter(tournament=tournament)
    else:
        found = found.filter(models.Q(tournament__isnull=True) | models.Q(tournament__is_public=True))
    if everything:
        return found
    hiding = Tournament.objects.filter(
        settings__has_key=HIDE_SETTING, sessions__tables__result__hands__notable_entry__isnull=False
    ).distinct()
    if tournament is not None:
        hiding = hiding.filter(pk=tournament.pk)
    for hider in hiding:
        last = visible_through(tournament=hider, user=user)
        if last is not None:
            found = found.exclude(
                source__result__table__session__tournament=hider,
                source__result__table__session__number__gt=last,
            )
    return found
