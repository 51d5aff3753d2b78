"""Writes and checks of hands that carry tiles.

The same preparation runs for live entry (``scoring.services.hand_add`` / ``hand_replace``) and for the
archive import: the tiles are valued with the rules of the tournament and the game state before the hand;
a value nobody claimed is filled in; a claim that differs from the tiles is held for a referee (live
entry) or refused (import: imported tables are confirmed), unless the hand carries a referee's ``ruling``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Literal

from django.db import transaction

from scoring.models import Hand, NotableHand, TableResult
from scoring.rules import tiles as engine
from scoring.rules.base import RuleError, Ruleset
from scoring.rules.text import Names, gettext_noop
from scoring.rules.tiles.check import claim_value, wins_with_tiles
from tournaments.models import Table, Tournament
from tournaments.services import tournament_update

SETTING = "tiles"
MODES = ("off", "optional", "required")
DEFAULT_MODE = "optional"
STATUSES = ("agreed", "filled", "held", "ruling", "computed")


def tiles_mode_check(value: Any) -> str:
    if value not in MODES:
        raise RuleError(
            gettext_noop(
                "tiles must be one of %(_items)s, not %(value)s", _items=", ".join(MODES), value=value
            ),
            SETTING,
        )
    return value


def tiles_mode(tournament: Tournament) -> str:
    value = (tournament.settings or {}).get(SETTING, DEFAULT_MODE)
    return value if value in MODES else DEFAULT_MODE


def tiles_mode_set(*, tournament: Tournament, mode: str) -> Tournament:
    """The director's setting: tiles off, optional, or required for every win."""
    tiles_mode_check(mode)
    with transaction.atomic():
        locked = Tournament.objects.select_for_update().get(pk=tournament.pk)
        settings = dict(locked.settings or {})
        settings[SETTING] = mode
        return tournament_update(tournament=locked, settings=settings)


def _wins(rules: Ruleset, hand: Mapping[str, Any]) -> list[tuple[str, Mapping[str, Any]]]:
    """(path, mapping that may hold ``tiles``) of every win of the hand."""
    return wins_with_tiles(rules, hand)


def hand_has_tiles(hand: Mapping[str, Any]) -> bool:
    if "tiles" in hand:
        return True
    winners = hand.get("winners")
    return isinstance(winners, list) and any(isinstance(w, Mapping) and "tiles" in w for w in winners)


def claim_text(family: str, claimed: Mapping[str, Any] | None) -> str:
    """A value as the table states it ("10 fan", "2 han 30 fu", "13 han", "48 points")."""
    claimed = claimed or {}
    value, unit = claim_value(family, claimed)
    fu = f" {claimed.get('fu')} fu" if unit == "han" and claimed.get("fu") is not None else ""
    return f"{value} {unit}{fu}"


def _claim_text(check: engine.WinCheck) -> str:
    return claim_text(check.valuation.family, check.claimed)


def hand_tiles_prepare(
    *,
    rules: Ruleset,
    mode: str,
    previous: Sequence[Mapping[str, Any]],
    hand: Mapping[str, Any],
    on_differ: Literal["hold", "refuse"] = "hold",
) -> tuple[dict[str, Any], dict[str, Any] | None]:
    """The hand to store (values filled from the tiles) and its valuation record (None without tiles).

    ``previous`` are the hands before this one (already valid). Paths of errors are relative to the hand.
    """
    hand = dict(hand)
    wins = _wins(rules, hand)
    if mode == "off" and hand_has_tiles(hand):
        raise RuleError(gettext_noop("this tournament does not take tiles (setting 'tiles' is off)"), "tiles")
    if mode == "required":
        for path, win in wins:
            if "tiles" not in win:
                raise RuleError(
                    gettext_noop("this tournament needs the tiles of every win (setting 'tiles')"), path
                )
    if not hand_has_tiles(hand):
        return hand, None
    game = rules.play_game(list(previous)) if previous else None
    state = engine.hand_state(rules, game, len(previous))
    checks = engine.hand_checks(rules, hand, state=state)
    filled = engine.fill(hand, checks)
    held = engine.held(filled, checks)
    if held and on_differ == "refuse":
        c = held[0]
        raise RuleError(
            gettext_noop(
                "the claim of %(_value)s differs from the tiles (%(_summary)s: %(_items)s); a referee's ruling is needed",
                _value=_claim_text(c),
                _summary=c.valuation.summary,
                _items=Names((i.name, None) for i in c.valuation.items),
            ),
            c.path.removesuffix(".tiles").removesuffix("tiles") or "tiles",
        )
    if held:
        status = "held"
    elif any(not c.agrees for c in checks):
        status = "ruling"
    elif any(c.claimed is None for c in checks):
        status = "filled"
    else:
        status = "agreed"
    return filled, {"status": status, "wins": [c.as_dict() for c in checks]}


def hands_revalue(*, rules: Ruleset, mode: str, hands: list[Hand], start: int) -> list[Hand]:
    """After hand ``start`` (0-based) changed, the later hands with tiles are valued again (the dealer,
    winds and counters may have moved). A value that was filled or taken from the tiles follows them;
    a claim is compared again. Returns the hands whose data or record changed (not saved)."""
    changed = []
    for index in range(start + 1, len(hands)):
        h = hands[index]
        if not hand_has_tiles(h.data):
            continue
        data = h.data
        if h.valuation and h.valuation.get("status") in ("filled", "computed"):
            previous = [x.data for x in hands[:index]]
            game = rules.play_game(previous) if previous else None
            checks = engine.hand_checks(rules, data, state=engine.hand_state(rules, game, index))
            data = engine.fill(data, checks, take_computed=True)
        new_data, record = hand_tiles_prepare(
            rules=rules, mode=mode, previous=[x.data for x in hands[:index]], hand=data
        )
        before = (h.valuation or {}).get("status")
        if record and before in ("filled", "computed") and record["status"] == "agreed":
            record["status"] = before  # the value still comes from the tiles
        if new_data != h.data or record != h.valuation:
            h.data, h.valuation = new_data, record
            changed.append(h)
    return changed


def held_numbers(result: TableResult) -> list[int]:
    return [
        number
        for number, valuation in result.hands.order_by("number").values_list("number", "valuation")
        if valuation and valuation.get("status") == "held"
    ]


def require_nothing_held(result: TableResult) -> None:
    _refuse_held(held_numbers(result))


def require_nothing_held_in(hands) -> None:
    """The same check over hands already read."""
    _refuse_held([h.number for h in hands if h.valuation and h.valuation.get("status") == "held"])


def _refuse_held(held: list[int]) -> None:
    if held:
        raise RuleError(
            gettext_noop(
                "hand %(_value)s is held: its claimed value differs from its tiles; a referee must accept the claim with a reason or take the computed value",
                _value=held[0],
            ),
            f"hands[{held[0] - 1}]",
        )


def hand_tiles_value(*, table: Table, hand: Mapping[str, Any], number: int | None = None) -> dict[str, Any]:
    """What the tiles of ``hand`` (seats) are worth as hand ``number`` of the table (default: the next
    hand), without writing anything: the record a write would store, and the hand it would store."""
    tournament = table.session.tournament
    rules = tournament.get_rules()
    result = TableResult.objects.filter(table=table).first()
    stored = [h.data for h in result.hands.order_by("number")] if result else []
    if number is None:
        number = len(stored) + 1
    if not 1 <= number <= len(stored) + 1:
        raise RuleError(gettext_noop("there is no hand %(_number)s at this table", _number=number), "number")
    if not hand_has_tiles(hand):
        raise RuleError(gettext_noop("give the tiles of the win"), "tiles")
    filled, record = hand_tiles_prepare(
        rules=rules, mode="optional", previous=stored[: number - 1], hand=hand
    )
    return {"number": number, "hand": filled, **(record or {})}


# -- the register of notable hands (Salamanca rules, appendix A) -------------------------------------

TEXT_LIMITS = {"person": 200, "title": 200, "hand_text": 200, "opponents": 400}


def _text(value: Any, name: str, *, required: bool) -> str:
    if value is None:
        value = ""
    if not isinstance(value, str):
        raise RuleError(gettext_noop("%(_name)s must be text", _name=name), name)
    value = value.strip()
    if required and not value:
        raise RuleError(gettext_noop("%(_name)s is required", _name=name), name)
    if len(value) > TEXT_LIMITS[name]:
        raise RuleError(
            gettext_noop("%(_name)s is at most %(_value)s characters", _name=name, _value=TEXT_LIMITS[name]),
            name,
        )
    return value


def notable_hand_create(
    *,
    person: str,
    title: str,
    value: int,
    unit: str = "fan",
    date,
    hand_text: str = "",
    opponents: str = "",
    tiles: Mapping[str, Any] | None = None,
    tournament: Tournament | None = None,
    user=None,
):
    """An entry written by hand (tiles optional, checked as notation when given)."""
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= 100_000:
        raise RuleError(gettext_noop("value must be a whole number from 0 to 100000"), "value")
    if unit not in ("fan", "han", "points"):
        raise RuleError(gettext_noop("unit must be fan, han or points"), "unit")
    if tiles is not None:
        try:
            engine.parse_tiles(tiles)
        except RuleError as exc:
            raise exc.within("tiles") from None
    entry = NotableHand(
        person=_text(person, "person", required=True),
        title=_text(title, "title", required=True),
        value=value,
        unit=unit,
        date=date,
        hand_text=_text(hand_text, "hand_text", required=False),
        opponents=_text(opponents, "opponents", required=False),
        tiles=dict(tiles) if tiles is not None else None,
        tournament=tournament,
        created_by=user if getattr(user, "is_authenticated", False) else None,
    )
    entry.full_clean()
    entry.save()
    return entry


def notable_hand_from_hand(*, hand: Hand, title: str, winner: int | None = None, user=None):
    """Register a recorded hand that carries tiles: person, value and tiles from the hand, the three
    opponents from the table, the date of its session (or the tournament's first day)."""
    if not hand.valuation or not hand.valuation.get("wins"):
        raise RuleError(
            gettext_noop("only a hand entered with its tiles can be registered from the table"), "hand"
        )
    if NotableHand.objects.filter(source=hand).exists():
        raise RuleError(
            gettext_noop("hand %(_number)s is already in the register", _number=hand.number), "hand"
        )
    wins = hand.valuation["wins"]
    win = next((w for w in wins if winner is None or w["winner"] == winner), None)
    if win is None:
        raise RuleError(
            gettext_noop(
                "seat %(_winner)s did not win hand %(_number)s", _winner=winner, _number=hand.number
            ),
            "winner",
        )
    table = hand.result.table
    seats = {
        s.position: s.registration.player.full_name
        for s in table.seats.select_related("registration__player")
    }
    computed = win["computed"]
    value, unit = claim_value(computed["family"], computed["claim"])
    value = int(value)
    tiles = hand.data.get("tiles") if "tiles" in hand.data else None
    if tiles is None:
        for w in hand.data.get("winners") or []:
            if w.get("player") == win["winner"]:
                tiles = w.get("tiles")
    session = table.session
    date = session.starts_at.date() if session.starts_at else session.tournament.starts_on
    melds = " ".join(f"[{m}]" for m in (tiles or {}).get("melds") or [])
    entry = notable_hand_create(
        person=seats.get(win["winner"], ""),
        title=title,
        value=value,
        unit=unit,
        date=date,
        hand_text=f"{(tiles or {}).get('hand', '')} {melds}".strip()[:200],
        opponents=", ".join(name for pos, name in sorted(seats.items()) if pos != win["winner"]),
        tiles=tiles,
        tournament=session.tournament,
        user=user,
    )
    entry.source = hand
    entry.save(update_fields=["source"])
    return entry
