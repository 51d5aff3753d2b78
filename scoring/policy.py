"""What may be done at a table, and why not: one pure policy for the table page, the API and the services.

Plain data in (``TableFacts``: the result's status and mode, how many hands, whether the game is over or
could not be replayed; who asks), plain answers out: the set of actions a visitor may take
(``allowed_actions``), and for a write the refusal that the service raises (``refusal``). No Django here:
``scoring.selectors`` builds the facts for the pages and the API, ``scoring.services`` for its guards.
"""

from __future__ import annotations

from dataclasses import dataclass

from scoring.rules.text import Text, gettext_noop

DRAFT, SUBMITTED, CONFIRMED = "draft", "submitted", "confirmed"
HANDS, TOTALS = "hands", "totals"

# Every action of a table, as the page's forms and the API's writes name them.
ACTIONS: tuple[str, ...] = (
    "hand",
    "edit",
    "undo",
    "totals",
    "clear_totals",
    "submit",
    "confirm",
    "reopen",
    "seats",
)
# What may still be done on a table whose stored hands the rules now refuse.
REPAIRS = frozenset({"undo", "reopen"})


@dataclass(frozen=True)
class TableFacts:
    """A table's result as the policy needs it."""

    status: str = DRAFT
    mode: str = HANDS
    totals_entered: bool = False  # game totals are stored
    hands: int = 0  # hands stored
    game_over: bool = False  # the rules end the game after the last hand
    replay_error: bool = False  # the stored hands do not replay under the rules

    @property
    def confirmed(self) -> bool:
        return self.status == CONFIRMED

    @property
    def has_entries(self) -> bool:
        return self.hands > 0 or self.totals_entered


@dataclass(frozen=True)
class Refusal:
    """Why a write is refused: ``permission`` (403) or a rule (400 naming ``path``)."""

    message: Text
    path: str = ""
    permission: bool = False


def allowed_actions(facts: TableFacts, *, referee: bool) -> frozenset[str]:
    """The actions a visitor may take now (``referee``: a referee or director of the tournament)."""
    confirmed = facts.confirmed
    can = {
        "hand": not confirmed and not facts.totals_entered and not facts.game_over,
        "totals": facts.hands == 0 and (not confirmed or (referee and facts.totals_entered)),
        "clear_totals": not confirmed and facts.totals_entered,
        "undo": not confirmed and facts.hands > 0,
        "edit": facts.hands > 0 and (not confirmed or referee),
        "submit": facts.status == DRAFT and facts.has_entries,
        "confirm": referee and not confirmed and facts.has_entries,
        "reopen": referee and confirmed,
        "seats": referee and not confirmed,
    }
    allowed = frozenset(name for name, yes in can.items() if yes)
    return allowed & REPAIRS if facts.replay_error else allowed


def write_refusal(facts: TableFacts, *, referee: bool, reason: str) -> Refusal | None:
    """Any change to a table's entries: a confirmed table only by a referee, with a reason."""
    if facts.confirmed:
        if not referee:
            return Refusal(gettext_noop("this table is confirmed; a referee must reopen it"), "status")
        if not reason.strip():
            return Refusal(gettext_noop("changing a confirmed result needs a reason"), "reason")
    return None


def refusal(action: str, facts: TableFacts, *, referee: bool, reason: str = "") -> Refusal | None:
    """Why the service refuses ``action`` on a table in state ``facts`` (None: the rules of the game and
    the version check still apply)."""
    if action in ("confirm", "reopen") and not referee:
        if action == "confirm":
            return Refusal(gettext_noop("Only a referee or a director confirms a table."), permission=True)
        return Refusal(gettext_noop("Only a referee or a director reopens a table."), permission=True)
    if action == "seats":
        if not referee:
            return Refusal(
                gettext_noop("Only a referee or a director corrects the seats of a table."), permission=True
            )
        if facts.confirmed:
            return Refusal(
                gettext_noop("this table is confirmed; reopen it before correcting its seats"), "status"
            )
        if not reason.strip():
            return Refusal(gettext_noop("correcting the seats needs a reason"), "reason")
        return None
    if action == "reopen":
        if not reason.strip():
            return Refusal(gettext_noop("reopening a table needs a reason"), "reason")
        if not facts.confirmed:
            return Refusal(gettext_noop("this table is not confirmed"), "status")
        return None
    if action == "confirm":
        refused = write_refusal(facts, referee=referee, reason="confirm")
        if refused is None and facts.confirmed:
            refused = Refusal(gettext_noop("this table is already confirmed"), "status")
        return refused
    refused = write_refusal(facts, referee=referee, reason="submit" if action == "submit" else reason)
    if refused is not None:
        return refused
    if action == "hand" and facts.mode == TOTALS and facts.totals_entered:
        return Refusal(
            gettext_noop("this table is entered as game totals; clear the totals to enter hands"), "mode"
        )
    if action == "totals" and facts.hands:
        return Refusal(gettext_noop("this table already has hands; undo them to enter game totals"), "mode")
    if action == "clear_totals":
        if facts.confirmed:
            return Refusal(
                gettext_noop("this table is confirmed; reopen it before clearing its totals"), "status"
            )
        if not (facts.mode == TOTALS and facts.totals_entered):
            return Refusal(gettext_noop("there are no game totals to clear"), "scores")
    if action == "edit" and not reason.strip():
        return Refusal(gettext_noop("editing a hand needs a reason"), "reason")
    if action == "undo" and not facts.hands:
        return Refusal(gettext_noop("there is no hand to undo"), "hands")
    if action == "submit" and facts.confirmed:
        return Refusal(gettext_noop("this table is already confirmed"), "status")
    return None
