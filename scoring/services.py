"""Result entry: hands, totals, submission, confirmation, and the per-seat summary rows.

Every write locks the table's result, checks the version the writer last saw (a stale write raises
``StaleWrite``, shown as 409), validates the whole game with the rule engine before saving anything, and
records who changed what and why in the history.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Literal

from django.core.exceptions import PermissionDenied
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from penalties.kinds import kind_of
from penalties.services import active_penalties, table_penalty_effects
from scoring import handshape, lifecycle, policy
from scoring.models import Hand, SeatSummary, TableResult
from scoring.rules import tiles as tile_engine
from scoring.rules.base import GameResult, RuleError, Ruleset
from scoring.rules.base import TableResult as EngineTableResult
from scoring.rules.numbers import SCORE_LIMIT, read_number, read_text
from scoring.rules.text import gettext_noop
from scoring.tiles import services as tiles_services
from tournaments.lifecycle import results_open_check
from tournaments.models import SEAT_PARKED, WIND_LETTERS, Registration, Seat, Table, Tournament
from tournaments.permissions import Actor
from tournaments.prepared import Prepared
from tournaments.signals import ATTENTION, ENTRY, RESULTS, SCHEDULE, changed_send


class StaleWrite(Exception):
    """The table changed since the writer loaded it."""

    def __init__(self, current_version: int):
        super().__init__(f"the table is at version {current_version}; reload it and try again")
        self.current_version = current_version


# -- reading a table ---------------------------------------------------------------------------


def table_registrations(table: Table) -> list[Registration]:
    """The four registrations in seat order E, S, W, N, with their players; a table without four seats
    is refused. Read once per table object (seats prefetched by the caller are used as they are)."""
    cached = getattr(table, "_registrations", None)
    if cached is not None:
        return cached
    if "seats" in getattr(table, "_prefetched_objects_cache", {}):
        seats = sorted(table.seats.all(), key=lambda s: s.position)
    else:
        seats = list(table.seats.select_related("registration__player").order_by("position"))
    if [s.position for s in seats] != [0, 1, 2, 3]:
        raise RuleError(f"table {table.number} is not seated with four players", "table")
    table._registrations = [s.registration for s in seats]
    return table._registrations


def result_game(
    result: TableResult, hands: Sequence[Hand] | None = None, rules: Ruleset | None = None
) -> GameResult | None:
    """The engine's game for a stored result (None when nothing is entered yet)."""
    rules = rules or result.table.session.tournament.get_rules()
    if result.mode == TableResult.Mode.TOTALS:
        if result.scores is None:
            return None
        totals = [handshape.exact_number(v) for v in result.scores]
        return rules.game_from_totals(totals, imbalance_reason=result.imbalance_reason)
    if hands is None:
        hands = _hands_read(result)
    return rules.play_game([h.data for h in hands])


def _hands_read(result: TableResult) -> list[Hand]:
    """The stored result's hands in order (each knowing its result): one read, compiled once per process."""
    hands = _HANDS_OF_RESULT(result_id=result.pk)
    for hand in hands:
        hand.result = result
    return hands


# The reads of every write, compiled once per process (``tournaments.prepared``).
_HANDS_OF_RESULT = Prepared(
    lambda result_id: Hand.objects.filter(result_id=result_id).order_by("number"), result_id=int
)
_LOCKED_RESULT = Prepared(
    lambda table_id: TableResult.objects.select_for_update().filter(table_id=table_id).order_by("pk")[:1],
    table_id=int,
)


# -- guards ------------------------------------------------------------------------------------


def _lock(table: Table, actor: Actor | None = None) -> TableResult:
    """The table's result, locked for this transaction (created first when the table has none). The
    result's ``table`` is the caller's, already loaded with its session and tournament."""
    locked = next(iter(_LOCKED_RESULT(table_id=table.pk)), None)
    if locked is None:
        created = TableResult(table=table)
        if actor is not None:
            _stamp(created, actor, table)
        try:
            with transaction.atomic():
                created.save()
        except IntegrityError:  # another writer created it meanwhile
            pass
        locked = TableResult.objects.select_for_update().get(table=table)
    locked.table = table
    locked.status_locked = locked.status  # what the write started from (the lifecycle may move it)
    return locked


def facts_of(result: TableResult, hands: int = 0) -> policy.TableFacts:
    """The policy's facts of a stored result with ``hands`` hands."""
    return policy.TableFacts(
        status=result.status, mode=result.mode, totals_entered=result.scores is not None, hands=hands
    )


def _refuse(refused: policy.Refusal | None) -> None:
    if refused is None:
        return
    if refused.permission:
        raise PermissionDenied(str(refused.message))
    raise RuleError(refused.message, refused.path)


def _guard(
    result: TableResult,
    actor: Actor,
    expected_version: int | None,
    reason: str = "",
    *,
    action: str = "write",
    hands: int = 0,
) -> None:
    """The table link, the role, the version the writer saw, then the table policy for ``action``."""
    reason = read_text(reason, field="reason")
    if actor.role == "table" and actor.table_id != result.table_id:
        raise PermissionDenied("This link opens another table.")
    facts = facts_of(result, hands)
    if action in ("confirm", "reopen", "seats"):
        permission = policy.refusal(action, facts, referee=actor.is_referee, reason=reason)
        _refuse(permission if permission is not None and permission.permission else None)
    if expected_version is not None and expected_version != result.version:
        raise StaleWrite(result.version)
    results_open_check(session=result.table.session)
    if action == "write":
        _refuse(policy.write_refusal(facts, referee=actor.is_referee, reason=reason))
    else:
        _refuse(policy.refusal(action, facts, referee=actor.is_referee, reason=reason))


def _stamp(record, actor: Actor, table: Table) -> None:
    """Who the history names: the user, or the table whose private link wrote."""
    record._history_user = actor.db_user
    record._history_table_link = table.number if actor.role == "table" else None


def _save(
    result: TableResult,
    actor: Actor,
    reason: str,
    hands: Sequence[Hand] | None = None,
    also: frozenset[str] = frozenset(),
    only_changes: bool = False,
    **changes,
) -> TableResult:
    """Every write of a table's result ends here: the version, the history, the summary rows of a
    confirmed table (``hands``: the table's hands, when the caller has read them), and the domain event
    (``RESULTS`` when the table counts or counted, else ``ENTRY``; with ``ATTENTION`` when one of
    ``hands`` is held for a referee). The status is the lifecycle's
    (``scoring.lifecycle.result_move``), never one of ``changes``. ``only_changes``: the caller changed
    nothing else of the result, and the row's other columns are left as they are."""
    if "status" in changes:
        raise ValueError("a result's status is moved by scoring.lifecycle")
    counted = getattr(result, "status_locked", result.status) == lifecycle.CONFIRMED
    for name, value in changes.items():
        setattr(result, name, value)
    result.version += 1
    result._change_reason = reason or ""
    _stamp(result, actor, result.table)
    result.save(update_fields=[*changes, "version", "updated_at"] if only_changes else None)
    if result.is_confirmed:
        summaries_write(result=result, hands=hands)
    if hands is not None:
        result.read_hands = list(hands)  # what an answer shows next needs no second read
    if hands is not None and any(_held(h) for h in hands):
        also = also | {ATTENTION}  # a hand waits for a referee's ruling: the staff are told
    table = result.table
    changed_send(
        tournament_id=table.session.tournament_id,
        what={RESULTS if counted or result.is_confirmed else ENTRY, *also},
        sessions=[table.session_id],
        tables=[table.pk],
        slug=table.session.tournament.slug,
        finished=table.session.tournament.status == Tournament.Status.FINISHED,
    )
    return result


def _held(hand: Hand) -> bool:
    return bool(hand.valuation) and hand.valuation.get("status") == "held"


def _with_hands_path(exc: RuleError) -> RuleError:
    return exc if exc.path.startswith("hands") else exc.within("hands")


def _with_tiles(
    result: TableResult, previous: list[Mapping[str, Any]], hand: dict[str, Any]
) -> tuple[dict[str, Any], dict[str, Any] | None]:
    """The hand with values filled from its tiles, and the record of the check (scoring.tiles)."""
    tournament = result.table.session.tournament
    number = len(previous) + 1
    try:
        return tiles_services.hand_tiles_prepare(
            rules=tournament.get_rules(),
            mode=tiles_services.tiles_mode(tournament),
            previous=previous,
            hand=hand,
        )
    except RuleError as exc:
        raise exc.within(f"hands[{number - 1}]") from None


def _validate_hands(result: TableResult, hands: list[Mapping[str, Any]]) -> GameResult:
    rules = result.table.session.tournament.get_rules()
    try:
        return rules.play_game(hands)
    except RuleError as exc:
        raise _with_hands_path(exc) from exc


# -- hands ---------------------------------------------------------------------------------------


@transaction.atomic
def hand_add(
    *,
    table: Table,
    hand: Mapping[str, Any],
    actor: Actor,
    expected_version: int | None,
    reason: str = "",
) -> TableResult:
    """Add the next hand. On a confirmed table only a referee may, and only with a ``reason``."""
    result = _lock(table, actor)
    _guard(result, actor, expected_version, reason=reason, action="hand")
    data = handshape.clean(hand)
    existing = _hands_read(result)
    data, valuation = _with_tiles(result, [h.data for h in existing], data)
    result.read_game = _validate_hands(result, [h.data for h in existing] + [data])
    new = Hand(
        result=result, number=len(existing) + 1, data=data, valuation=valuation, created_by=actor.db_user
    )
    note = f"hand {new.number} added" + (f": {reason.strip()}" if reason.strip() else "")
    _stamp(new, actor, table)
    new._change_reason = note
    new.save()
    result.hand_count = new.number
    return _save(result, actor, note, hands=[*existing, new], only_changes=True, mode=TableResult.Mode.HANDS)


@transaction.atomic
def hand_replace(
    *,
    table: Table,
    number: int,
    hand: Mapping[str, Any],
    actor: Actor,
    expected_version: int | None,
    reason: str,
) -> TableResult:
    """Correct hand ``number``; the whole game is replayed before anything is saved."""
    result = _lock(table, actor)
    hands = _hands_read(result)
    _guard(result, actor, expected_version, reason=reason, action="edit", hands=len(hands))
    if not 1 <= number <= len(hands):
        raise RuleError(f"there is no hand {number} at this table", "number")
    data = handshape.clean(hand)
    data, valuation = _with_tiles(result, [h.data for h in hands[: number - 1]], data)
    game = _validate_hands(result, [data if h.number == number else h.data for h in hands])
    target = hands[number - 1]
    target.data = data
    target.valuation = valuation
    target._change_reason = reason
    _stamp(target, actor, table)
    target.save()
    rules = result.table.session.tournament.get_rules()
    mode = tiles_services.tiles_mode(result.table.session.tournament)
    revalued = list(tiles_services.hands_revalue(rules=rules, mode=mode, hands=hands, start=number - 1))
    for later in revalued:
        later._change_reason = f"hand {later.number} valued again after hand {number} changed"
        _stamp(later, actor, table)
        later.save()
    if not revalued:  # the game replayed above is the stored one
        result.read_game = game
    return _save(result, actor, f"hand {number} changed: {reason}", hands=hands)


@transaction.atomic
def hand_remove_last(
    *, table: Table, actor: Actor, expected_version: int | None, reason: str = ""
) -> TableResult:
    """Undo the last hand."""
    result = _lock(table, actor)
    last = result.hands.order_by("-number").first()
    _guard(result, actor, expected_version, reason=reason, action="undo", hands=last.number if last else 0)
    last._change_reason = reason or "last hand undone"
    _stamp(last, actor, table)
    last.delete()
    return _save(result, actor, f"hand {last.number} undone" + (f": {reason}" if reason else ""))


# -- totals --------------------------------------------------------------------------------------


@transaction.atomic
def totals_set(
    *,
    table: Table,
    scores: Sequence[Any],
    actor: Actor,
    expected_version: int | None,
    imbalance_reason: str = "",
    reason: str = "",
    confirm_unusual: bool = False,
) -> TableResult:
    """The four totals of the table's score sheet (seat order E, S, W, N). Totals beyond what a session
    can end on under the ruleset (``Ruleset.score_bound``) need a referee's ``confirm_unusual``."""
    result = _lock(table, actor)
    _guard(result, actor, expected_version, reason=reason, action="totals", hands=result.hands.count())
    imbalance_reason = read_text(imbalance_reason, field="imbalance_reason")
    if imbalance_reason and not actor.is_referee:
        raise PermissionDenied("Only a referee can accept totals that do not balance.")
    rules = table.session.tournament.get_rules()
    if isinstance(scores, (str, bytes)) or not isinstance(scores, Sequence) or len(scores) != 4:
        raise RuleError("scores must list the four totals, East, South, West, North", "scores")
    scores = [read_number(v, field=f"scores[{i}]", limit=SCORE_LIMIT) for i, v in enumerate(scores)]
    bound = rules.score_bound()
    for i, score in enumerate(scores):
        if bound is not None and abs(score) > bound and not (actor.is_referee and confirm_unusual):
            raise RuleError(
                gettext_noop(
                    "%(value)s is more than a session can end on under these rules (at most %(bound)s up or "
                    "down); a referee must confirm unusual totals",
                    value=score,
                    bound=bound,
                ),
                f"scores[{i}]",
            )
    try:
        rules.game_from_totals(scores, imbalance_reason=imbalance_reason)
    except RuleError as exc:
        raise exc if exc.path.startswith("scores") else exc.within("scores") from exc
    return _save(
        result,
        actor,
        reason or "totals entered",
        mode=TableResult.Mode.TOTALS,
        scores=[handshape.json_number(s) for s in scores],
        imbalance_reason=imbalance_reason,
    )


@transaction.atomic
def totals_clear(
    *, table: Table, actor: Actor, expected_version: int | None, reason: str = ""
) -> TableResult:
    """Clear a draft table's totals so that it can be entered hand by hand instead."""
    result = _lock(table, actor)
    _guard(result, actor, expected_version, reason=reason, action="clear_totals")
    return _save(
        result,
        actor,
        reason or "totals cleared",
        mode=TableResult.Mode.HANDS,
        scores=None,
        imbalance_reason="",
    )


# -- submission and confirmation -----------------------------------------------------------------


def result_hands(result: TableResult) -> list[Hand]:
    """The result's hands in order: one read (none for a result not stored yet)."""
    return _hands_read(result) if result.pk else []


def _require_complete(
    result: TableResult, hands: Sequence[Hand] | None = None, rules: Ruleset | None = None
) -> GameResult:
    """The game of a table ready to be confirmed (``hands``: the result's hands, when already read)."""
    hands = result_hands(result) if hands is None else hands
    if result.mode == TableResult.Mode.HANDS and not hands:
        raise RuleError("no hands entered yet", "hands")
    game = result_game(result, hands, rules=rules)
    if game is None:
        raise RuleError("no totals entered yet", "scores")
    tiles_services.require_nothing_held_in(hands)
    return game


@transaction.atomic
def result_submit(*, table: Table, actor: Actor, expected_version: int | None) -> TableResult:
    result = _lock(table, actor)
    _guard(result, actor, expected_version, reason="submit", action="submit")
    _require_complete(result)
    lifecycle.result_move(result=result, to=lifecycle.SUBMITTED, user=actor.db_user)
    return _save(result, actor, "submitted")


def usual_hands(table: Table) -> int | None:
    """The hands of a full session under the table's rules (None: the rules set no count)."""
    return table.session.tournament.get_rules().usual_hands()


def confirmation_faults(
    *, table: Table, registrations: Sequence[Registration] | None = None, penalties: Sequence | None = None
) -> list[str]:
    """What keeps a table from being confirmed: a player put out of the session whom nobody replaced.

    ``registrations`` (seat order) and ``penalties`` (the session's active penalties, with their
    registrations and players) when the caller has read them."""
    seated = {r.pk for r in (registrations if registrations is not None else table_registrations(table))}
    penalties = active_penalties(session=table.session) if penalties is None else penalties
    replaced = {p.registration_id for p in penalties if kind_of(p.kind).replaces}
    out = [
        p
        for p in penalties
        if p.disqualifies and p.registration_id in seated and p.registration_id not in replaced
    ]
    return [
        _("%(name)s is out of the session and nobody replaced them: record the substitution first.")
        % {"name": p.registration.player.full_name}
        for p in out
    ]


@transaction.atomic
def result_confirm(
    *, table: Table, actor: Actor, expected_version: int | None, short_reason: str = ""
) -> TableResult:
    """A referee confirms the table: its summary rows are written and standings recomputed. A table with a
    player out and no substitute is refused; fewer hands than a full session need the reason."""
    result = _lock(table)
    _guard(result, actor, expected_version, reason="confirm", action="confirm")
    hands = result_hands(result)
    game = _require_complete(result, hands)
    registrations = table_registrations(table)
    penalties = active_penalties(session=table.session)
    faults = confirmation_faults(table=table, registrations=registrations, penalties=penalties)
    if faults:
        raise RuleError(" ".join(faults), "status")
    short_reason = (short_reason or "").strip()[:500]
    usual = usual_hands(table)
    played = len(hands) if result.mode == TableResult.Mode.HANDS else None
    if usual and played is not None and played < usual:
        if not short_reason:
            raise RuleError(
                _(
                    "The table played %(n)s hands of the usual %(usual)s: say why (for example, time limit reached)."
                )
                % {"n": played, "usual": usual},
                "short_reason",
            )
        result.short_reason = short_reason
    else:
        result.short_reason = ""
    lifecycle.result_move(result=result, to=lifecycle.CONFIRMED, user=actor.db_user)
    result._read = (registrations, penalties, game)  # summaries_write reuses them
    return _save(result, actor, "confirmed", hands=hands)


@transaction.atomic
def result_confirm_by_player(*, table: Table, player_key: str, expected_version: int | None) -> TableResult:
    """With the tournament setting ``players_confirm``, the four players confirm together, each with
    their private link; the table is confirmed when the fourth does."""
    result = _lock(table)
    tournament = table.session.tournament
    if not tournament.settings.get("players_confirm"):
        raise PermissionDenied("In this tournament a referee confirms the tables.")
    registrations = table_registrations(table)
    seat_players = {r.player.private_key: r.key for r in registrations}
    if player_key not in seat_players:
        raise PermissionDenied("Only the four players of the table can confirm it.")
    if expected_version is not None and expected_version != result.version:
        raise StaleWrite(result.version)
    results_open_check(session=table.session)
    if result.status != lifecycle.SUBMITTED:
        raise RuleError("the table must be submitted before the players confirm it", "status")
    confirmed = sorted(set(result.player_confirmations) | {seat_players[player_key]})
    result.player_confirmations = confirmed
    if len(confirmed) == 4:
        lifecycle.result_move(result=result, to=lifecycle.CONFIRMED)
    return _save(result, Actor(role="player"), f"confirmed by {seat_players[player_key]}")


@transaction.atomic
def result_reopen(
    *, table: Table, actor: Actor, reason: str, expected_version: int | None = None
) -> TableResult:
    """A referee takes a confirmed table back to submitted: it stops counting until confirmed again."""
    result = _lock(table)
    _guard(result, actor, expected_version, reason=reason, action="reopen")
    SeatSummary.objects.filter(table=table).delete()
    lifecycle.result_move(result=result, to=lifecycle.SUBMITTED)
    return _save(result, actor, f"reopened: {reason}")


# -- seats corrected after the fact ----------------------------------------------------------------


def seat_order_read(order: Any, keys: Sequence[str]) -> list[int]:
    """``order`` (four player keys in the seats they really took, E S W N) as moves: the player entered
    at seat ``s`` really sat at ``moves[s]``. Anything but the table's four players once each is refused
    on ``order``."""
    if isinstance(order, (str, bytes)) or not isinstance(order, Sequence) or len(order) != 4:
        raise RuleError(_("List the four players of the table, East, South, West, North."), "order")
    for i, key in enumerate(order):
        if not isinstance(key, str) or key not in keys:
            raise RuleError(
                _("%(key)s is not seated at this table (its players are %(keys)s).")
                % {"key": str(key)[:40], "keys": ", ".join(keys)},
                f"order[{i}]",
            )
        if key in order[:i]:
            raise RuleError(_("%(key)s is named twice.") % {"key": key}, f"order[{i}]")
    moves = [list(order).index(key) for key in keys]
    if moves == [0, 1, 2, 3]:
        raise RuleError(_("This is the seating already recorded: change at least two seats."), "order")
    return moves


@transaction.atomic
def seats_correct(
    *, table: Table, order: Sequence[str], actor: Actor, expected_version: int | None, reason: str
) -> TableResult:
    """A referee records that the table's players sat in other seats than the recorded ones: ``order``
    gives their keys in the seats they really took (E, S, W, N). The hands entered follow the players
    (every winner, discarder, payer and riichi names the player who sat there), totals follow them too,
    the winds and the dealer order come from the corrected seating, and the whole game is replayed before
    anything is saved. Not on a confirmed table (reopen it first); the history keeps who, what and why."""
    result = _lock(table)
    hands = _hands_read(result)
    _guard(result, actor, expected_version, reason=reason, action="seats", hands=len(hands))
    registrations = table_registrations(table)
    keys = [r.key for r in registrations]
    moves = seat_order_read(order, keys)
    for hand in hands:
        hand.data = handshape.reseat(hand.data, moves)
    changes: dict[str, Any] = {}
    if result.mode == TableResult.Mode.TOTALS and result.scores is not None:
        scores: list[Any] = [None] * 4
        for seat, score in enumerate(result.scores):
            scores[moves[seat]] = score
        changes["scores"] = scores
    if hands:
        result.read_game = _validate_hands(result, [h.data for h in hands])
    tournament = table.session.tournament
    rules = tournament.get_rules()
    mode = tiles_services.tiles_mode(tournament)
    revalued = {h.pk for h in tiles_services.hands_revalue(rules=rules, mode=mode, hands=hands, start=-1)}
    if revalued:  # a value from the tiles followed the seat wind: the game is checked again
        result.read_game = _validate_hands(result, [h.data for h in hands])
    corrections = [
        *result.seat_corrections,
        {
            "at": timezone.now().isoformat(),
            "from": keys,
            "to": [str(k) for k in order],
            "by": _writer_name(actor),
            "reason": reason.strip(),
        },
    ]
    changes["seat_corrections"] = corrections
    note = seats_note(keys, order, reason)
    for hand in hands:
        hand._change_reason = note if hand.pk not in revalued else f"{note}; valued again from its tiles"
        _stamp(hand, actor, table)
        hand.save()
    _seats_move(table, registrations, moves)
    seated: list[Registration] = list(registrations)
    for seat, registration in enumerate(registrations):
        seated[moves[seat]] = registration
    table._registrations = seated
    table.__dict__.pop("_seat_rows", None)
    getattr(table, "_prefetched_objects_cache", {}).pop("seats", None)
    table.__dict__.pop("_seats_read", None)  # the seats a page or the API read before the correction
    return _save(result, actor, note, hands=hands, also=frozenset({SCHEDULE}), **changes)


def _writer_name(actor: Actor) -> str:
    user = actor.db_user
    if user is None:
        return ""
    return ((user.get_full_name() or "").strip() or user.get_username())[:150]


def seats_note(before: Sequence[str], after: Sequence[str], reason: str) -> str:
    """The history's words for a seat correction (the table's history and an imported archive's)."""
    was = " ".join(f"{WIND_LETTERS[s]} {k}" for s, k in enumerate(before))
    now = " ".join(f"{WIND_LETTERS[s]} {k}" for s, k in enumerate(after))
    return f"seats corrected to {now} (recorded {was}): {reason.strip()}"


def _seats_move(table: Table, registrations: Sequence[Registration], moves: Sequence[int]) -> None:
    """Each seat row that changes wind keeps its row (its id): parked first (``SEAT_PARKED`` + its new
    wind), then put on its wind, so that no moment has two players on one wind."""
    rows = {s.registration_id: s for s in Seat.objects.select_for_update().filter(table=table)}
    moving = [(rows[r.pk], moves[seat]) for seat, r in enumerate(registrations) if moves[seat] != seat]
    for offset in (SEAT_PARKED, 0):
        for row, wind in moving:
            row.table = table
            row.position = wind + offset
            row.save(update_fields=["position"])


# -- summary rows -----------------------------------------------------------------------------------


def table_outcome(
    result: TableResult,
    *,
    hands: Sequence[Hand] | None = None,
    registrations: Sequence[Registration] | None = None,
    penalties: Sequence | None = None,
    game: GameResult | None = None,
    rules: Ruleset | None = None,
) -> tuple[GameResult, EngineTableResult, list[Registration], frozenset[int]]:
    """The engine's session result for a table, with the penalties that belong to it applied.

    Returns the game, the table result, the registration credited with each seat (a substitute when
    the seated player was replaced), and the seats that get no table points (MERS §4). What the caller
    has already read is passed in and not read again: the ``hands``, the seated ``registrations``, the
    session's active ``penalties`` and the replayed ``game``.
    """
    table = result.table
    rules = rules or table.session.tournament.get_rules()
    if game is None:
        game = _require_complete(result, hands, rules=rules)
    else:
        tiles_services.require_nothing_held_in(result_hands(result) if hands is None else hands)
    effects = table_penalty_effects(
        table=table,
        registrations=table_registrations(table) if registrations is None else registrations,
        rules=rules,
        game=game,
        penalties=penalties,
        mode=result.mode,
    )
    outcome = rules.table_result(
        game,
        transfers=effects.transfers,
        deductions=effects.deductions,
        chombos=effects.chombos,
        excluded=effects.excluded,
        substitutes=effects.substitutes,
    )
    return game, outcome, effects.credited, effects.excluded


def summary_rows(
    *,
    table: Table,
    result_version: int,
    outcome: EngineTableResult,
    registration_ids: Sequence[int],
    excluded: frozenset[int] = frozenset(),
) -> list[SeatSummary]:
    """The (unsaved) summary rows of a table: one per seat, credited to ``registration_ids[seat]``."""
    return [
        SeatSummary(
            tournament_id=table.session.tournament_id,
            session_id=table.session_id,
            table=table,
            position=position,
            registration_id=registration_ids[position],
            game_score=seat.game_score,
            table_points=seat.table_points,
            uma=seat.uma,
            transfers=seat.transfers,
            chombo=seat.chombo,
            penalties=seat.penalties,
            final=seat.final,
            excluded=position in excluded,
            result_version=result_version,
        )
        for position, seat in enumerate(outcome.seats)
    ]


def summaries_write(*, result: TableResult, hands: Sequence[Hand] | None = None) -> list[SeatSummary]:
    """(Re)write the summary rows of a confirmed table (the caller's event tells the standings)."""
    table = result.table
    registrations, penalties, game = getattr(result, "_read", (None, None, None))
    _, outcome, credited, excluded = table_outcome(
        result, hands=hands, registrations=registrations, penalties=penalties, game=game
    )
    if getattr(result, "status_locked", lifecycle.CONFIRMED) == lifecycle.CONFIRMED:
        SeatSummary.objects.filter(table=table).delete()  # a table not confirmed until now has no rows
    rows = summary_rows(
        table=table,
        result_version=result.version,
        outcome=outcome,
        registration_ids=[r.pk for r in credited],
        excluded=excluded,
    )
    SeatSummary.objects.bulk_create(rows)
    return rows


def summaries_refresh(*, table: Table) -> None:
    """Rewrite a confirmed table's rows after a penalty that touches it changed."""
    result = TableResult.objects.filter(table=table, status=lifecycle.CONFIRMED).first()
    if result is not None:
        summaries_write(result=result)


@transaction.atomic
def hand_tiles_resolve(
    *,
    table: Table,
    number: int,
    actor,
    expected_version: int | None,
    decision: Literal["claim", "computed"],
    reason: str = "",
) -> TableResult:
    """A referee resolves a held hand: accept the claimed value with a reason (a ruling, kept on the hand
    as ``ruling``), or take the value computed from the tiles."""
    result = _lock(table)
    if not actor.is_referee:
        raise PermissionDenied("Only a referee or a director resolves a held hand.")
    _guard(result, actor, expected_version, reason=reason or decision)
    hands = _hands_read(result)
    if not 1 <= number <= len(hands):
        raise RuleError(gettext_noop("there is no hand %(_number)s at this table", _number=number), "number")
    target = hands[number - 1]
    if not target.valuation or target.valuation.get("status") != "held":
        raise RuleError(gettext_noop("hand %(_number)s is not held for a referee", _number=number), "number")
    rules = table.session.tournament.get_rules()
    previous = [h.data for h in hands[: number - 1]]
    game = rules.play_game(previous) if previous else None
    checks = tile_engine.hand_checks(
        rules, target.data, state=tile_engine.hand_state(rules, game, number - 1)
    )
    reason = (reason or "").strip()
    if decision == "claim":
        if not reason:
            raise RuleError(gettext_noop("accepting the claimed value needs the referee's reason"), "reason")
        if len(reason) > tile_engine.check.RULING_MAX:
            raise RuleError(
                gettext_noop(
                    "a ruling is at most %(_RULING_MAX)s characters", _RULING_MAX=tile_engine.check.RULING_MAX
                ),
                "reason",
            )
        data = {**target.data, "ruling": reason}
        status = "ruling"
        note = f"hand {number}: claimed value accepted by ruling: {reason}"
    elif decision == "computed":
        data = tile_engine.fill(target.data, checks, take_computed=True)
        status = "computed"
        note = f"hand {number}: value taken from the tiles" + (f": {reason}" if reason else "")
    else:
        raise RuleError(gettext_noop("decision must be 'claim' or 'computed'"), "decision")
    all_data = [data if h.number == number else h.data for h in hands]
    try:
        rules.play_game(all_data)
    except RuleError as exc:
        raise (exc if exc.path.startswith("hands") else exc.within("hands")) from None
    target.data = data
    target.valuation = {**target.valuation, "status": status, "wins": [c.as_dict() for c in checks]}
    target._change_reason = note
    target._history_user = actor.db_user
    target.save()
    mode = tiles_services.tiles_mode(table.session.tournament)
    for later in tiles_services.hands_revalue(rules=rules, mode=mode, hands=hands, start=number - 1):
        later._change_reason = f"hand {later.number} valued again after hand {number} changed"
        later._history_user = actor.db_user
        later.save()
    still_held = frozenset({ATTENTION}) if any(_held(h) for h in hands) else frozenset()
    return _save(result, actor, note, also=still_held)
