"""Text for pages, shared by every domain: exact numbers, signs, short names, winds. No queries here."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from django.utils.formats import get_format
from django.utils.translation import gettext, gettext_lazy, gettext_noop, ngettext, pgettext

from scoring.rules.base import GameResult, RuleError
from tournaments.models import WIND_LETTERS, Player, Registration
from tournaments.names import person_key

WIND_NAMES = {
    "E": gettext_lazy("East"),
    "S": gettext_lazy("South"),
    "W": gettext_lazy("West"),
    "N": gettext_lazy("North"),
}
SHARE_NAMES = {"all": gettext_lazy("all"), "half": gettext_lazy("half"), "third": gettext_lazy("a third")}
MINUS = "\u2212"


# -- numbers as shown ---------------------------------------------------------------------------------


def num(value: Any) -> str:
    """An exact number for the page, with the reader's decimal mark: ``12``, ``−10``, ``1.5`` (Spanish
    ``1,5``), ``2.33``; ``—`` for nothing."""
    if value is None or value == "":
        return "—"
    if type(value) is int:  # the commonest: no fraction built
        return (MINUS + str(-value)) if value < 0 else str(value)
    v = _fraction(value)
    text = str(abs(v.numerator)) if v.denominator == 1 else f"{abs(float(v)):.2f}".rstrip("0").rstrip(".")
    if "." in text:  # the reader's decimal mark (looked up only for a number that has one)
        text = text.replace(".", get_format("DECIMAL_SEPARATOR"))
    return (MINUS + text) if v < 0 else text


def signed(value: Any) -> str:
    """Like :func:`num`, with ``+`` before a gain."""
    if value is None or value == "":
        return "—"
    text = num(value)
    exact = value if type(value) in (int, Fraction) else Fraction(str(value))
    return "+" + text if exact > 0 else text


def _fraction(value: Any) -> Fraction:
    """``value`` as an exact number: itself when it is one, else read from its text."""
    if isinstance(value, Fraction):
        return value
    return Fraction(value) if isinstance(value, int) else Fraction(str(value))


def short_name(player: Player) -> str:
    """``Ana G.``: short enough for four columns on a phone. Particles written in small letters keep their
    initials before the surname's (``Zoë v.d.B.`` for van den Berg, ``Daan d.V.`` for de Vries); a particle
    written with a capital is the surname's first word (``Bram V.`` for Van Dijk)."""
    words = player.last_name.split()
    if not words:
        return player.first_name
    particles = []
    for word in words[:-1]:
        if not word[0].islower():
            break
        particles.append(word)
    main = words[len(particles)]
    return f"{player.first_name} {''.join(f'{w[0]}.' for w in particles)}{main[0]}."


# -- finding tables ----------------------------------------------------------------------------------


def sort_name(registration: Registration) -> str:
    """``Last, First`` for alphabetical lists."""
    player = registration.player
    return f"{player.last_name}, {player.first_name}" if player.last_name else player.first_name


def name_order(registration: Registration) -> tuple[str, str, str, str]:
    """The place of a registration in every list by name: folded surname, then first name."""
    return person_key(registration.player)


@dataclass
class SeatLine:
    """One seat of a table as every page lists it: who sits at which wind and, once the table is confirmed,
    what they scored (plain numbers). Seating pages fill the player's facts, result pages the figures."""

    position: int  # 0..3: East, South, West, North
    key: str
    name: str
    short: str = ""
    country: str = ""
    club: str = ""
    substitute: bool = False  # registered as a substitute
    withdrawn: bool = False
    sort_name: str = ""
    sort_key: tuple = ()  # tournaments.names.name_key: the order of names on every list
    substitute_for: str = ""  # the name of the replaced player when a substitute is credited
    replaced_by: str = ""  # the substitute who plays this seat instead of the player seated there
    game_score: Any = None
    table_points: Any = None
    uma: Any = None
    penalties: Any = None
    final: Any = None
    excluded: bool = False

    @property
    def wind(self) -> str:
        return WIND_LETTERS[self.position]

    @property
    def wind_name(self) -> str:
        return str(WIND_NAMES[self.wind])


@dataclass
class TableView:
    """One table of a session as every page lists it."""

    number: int
    seats: list[SeatLine] = field(default_factory=list)
    pk: int | None = None
    private_key: str = ""
    status: str = ""  # for the public: "waiting", "playing", "submitted", "confirmed"
    entry: str = ""  # for referees: "empty", "draft", "submitted", "confirmed"
    status_label: str = ""
    version: int = 1
    mode: str = "hands"
    hands: int = 0
    held: int = 0  # hands whose claimed value differs from their tiles, waiting for a referee
    held_numbers: list[int] = field(default_factory=list)  # the numbers of those hands
    has_result: bool = False
    imbalance_reason: str = ""
    short_reason: str = ""  # why the table played fewer hands than a full session

    @property
    def players(self) -> list[str]:
        return [seat.short or seat.name for seat in self.seats]


# -- the rules as sentences, asked of the engine --------------------------------------------------------
# Each text below is computed from what the tournament's rule engine does (not from a copy of its settings
# in words), so a page stating a rule cannot disagree with the results it computes.

LATE_PROBE_MINUTES = 600  # longer than any session: the scale is read minute by minute up to here


def late_arrival_steps(rules: Any) -> list[tuple[int, int | None, Any, bool]]:
    """The late-arrival scale as the engine applies it: ``(first minute, last minute or None for "and
    later", points, out of the session)``, one step per run of minutes with the same outcome; [] when the
    rules charge no late arrival."""
    steps: list[tuple[int, int | None, Any, bool]] = []
    for minute in range(LATE_PROBE_MINUTES + 1):
        try:
            outcome = rules.late_arrival(minute)
        except RuleError:
            return []
        key = (outcome.points, bool(outcome.disqualified))
        if steps and (steps[-1][2], steps[-1][3]) == key:
            first, _last, points, out = steps[-1]
            steps[-1] = (first, minute, points, out)
        else:
            steps.append((minute, minute, key[0], key[1]))
    if steps:
        first, _last, points, out = steps[-1]
        steps[-1] = (first, None, points, out)
    return steps


def late_arrival_text(rules: Any) -> str:
    """``Under 10 minutes late: −10; 10 to 15 minutes: −20; from 16 minutes: out of the session, a
    substitute plays.`` (the engine's scale, see :func:`late_arrival_steps`); "" with no scale."""
    parts = []
    for first, last, points, out in late_arrival_steps(rules):
        if out:
            what = gettext("out of the session, a substitute plays")
        elif points:
            what = num(points)
        else:
            what = gettext("no deduction")
        if last is None and first == 0:
            when = gettext("Any delay")
        elif last is None:
            when = ngettext("from %(first)s minute", "from %(first)s minutes", first) % {"first": first}
        elif first == 0:
            when = ngettext("under %(next)s minute", "under %(next)s minutes", last + 1) % {"next": last + 1}
        elif first == last:
            when = ngettext("%(first)s minute", "%(first)s minutes", first) % {"first": first}
        else:
            when = gettext("%(first)s to %(last)s minutes") % {"first": first, "last": last}
        parts.append(f"{when}: {what}")
    if not parts:
        return ""
    text = "; ".join(parts)
    stated = gettext("Late arrival: %(scale)s.") % {"scale": text}
    if rules.late_minutes_rounded_up():
        stated += " " + gettext("A started minute counts as a whole minute (9 minutes 30 seconds: 10).")
    return stated


def _sample_game(rules: Any) -> GameResult | None:
    """A table whose East finishes first, South second, West third, North fourth, in the rules' own
    scores (points held from the start, or gains and losses)."""
    deltas = (15000, 2000, -5000, -12000) if rules.raw_scores else (30, 10, -10, -30)
    try:
        return rules.game_from_totals(
            [start + d for start, d in zip(rules.start_scores(), deltas, strict=True)]
        )
    except RuleError:
        return None


def _place_value(rules: Any, seat: Any) -> Any:
    return seat.table_points if rules.ranks_by == "table_points" else seat.uma


def substitutes_text(rules: Any) -> list[str]:
    """What a substitution does, as the engine computes it: the replaced player's result for the session
    (``Ruleset.replacement_result``) and, on a sample table where the substitute finishes first, the
    substitute's and the others' uma or table points when the substitution came before or after the game
    at the table began (``substitution_exclusions``)."""
    texts = []
    fixed = rules.replacement_result()
    if fixed is not None:
        texts.append(
            gettext(
                "A player replaced by a substitute scores %(points)s points and %(uma)s uma for that session "
                "(%(final)s in all), and may play the later sessions."
            )
            % {"points": num(fixed.final - fixed.uma), "uma": num(fixed.uma), "final": num(fixed.final)}
        )
    else:
        texts.append(
            gettext(
                "A player replaced by a substitute scores nothing for the session missed, and may play the "
                "later sessions."
            )
        )
    game = _sample_game(rules)
    if game is None:
        return texts
    plain = rules.table_result(game).seats
    outcomes = []
    for during in (False, True):
        excluded = rules.substitution_exclusions(0, "illness", during=during)
        seats = rules.table_result(game, excluded=excluded, substitutes=frozenset({0})).seats
        outcomes.append([_place_value(rules, seat) for seat in seats])
    usual = [_place_value(rules, seat) for seat in plain]
    if all(values == usual for values in outcomes) or all(v is None for v in usual):
        texts.append(
            gettext(
                "A substitute plays the seat as any player: the others' results are those of the game as played."
            )
        )
        return texts
    what = gettext("table points") if rules.ranks_by == "table_points" else gettext("uma")
    for values, template in zip(
        outcomes,
        (
            gettext(
                "A substitute who takes the seat before the game at the table begins and finishes first: "
                "%(substitute)s %(what)s for the substitute, %(others)s for the others by their places."
            ),
            gettext(
                "A substitute who takes the seat after the game at the table began and finishes first: "
                "%(substitute)s %(what)s for the substitute, %(others)s for the others by their places."
            ),
        ),
        strict=True,
    ):
        texts.append(
            template
            % {"substitute": num(values[0]), "what": what, "others": ", ".join(num(v) for v in values[1:])}
        )
    return texts


def session_end_text(rules: Any) -> str:
    """The session's length, its signal and what is played once time is up (``Ruleset.session_end``)."""
    end = rules.session_end()
    if end.end_of_time == "after_signal":
        text = gettext(
            "A session lasts %(minutes)s minutes; a signal sounds when %(signal)s minutes are left. After it the "
            "hand in play is finished and one more is played (unless the game is complete), however long they "
            "take: nothing sounds at the end."
        ) % {"minutes": end.minutes, "signal": end.signal_minutes}
        if rules.has_chombo:
            text += " " + gettext("A chombo after the signal counts as one of those hands.")
        return text
    head = gettext(
        "A session lasts %(minutes)s minutes, with a signal %(signal)s minutes before the end."
    ) % {
        "minutes": end.minutes,
        "signal": end.signal_minutes,
    }
    tail = {
        "last_hand": gettext("When time is up the hand in play is finished, and it is the last."),
        "one_more_hand": gettext("When time is up the hand in play is finished and one more is played."),
        "at_once": gettext("When time is up play stops at once: the hand in play scores nothing."),
    }[end.end_of_time]
    return f"{head} {tail}"


def short_table_text(rules: Any) -> str:
    """What a table that played fewer hands than a full session needs (the count the confirmation checks)."""
    usual = rules.usual_hands()
    if not usual:
        return ""
    return gettext(
        "A full session is %(n)s hands: a table confirmed with fewer needs the reason (time ran out, a player left)."
    ) % {"n": usual}


def table_points_by_rank(rules: Any) -> tuple[Any, ...]:
    """The table points of 1st to 4th at a table with four different game scores, as the engine gives
    them; () when the rules rank by score, not table points."""
    if rules.ranks_by != "table_points":
        return ()
    game = GameResult(scores=(30, 10, -10, -30))  # a sample table (no game replayed)
    return tuple(seat.table_points for seat in rules.table_result(game).seats)


def penalties_keep_table_order(rules: Any) -> bool:
    """True when the engine ranks a table by its game score before penalties: a player who had the best
    game keeps the most table points however much a penalty costs (MERS)."""
    if rules.ranks_by != "table_points":
        return False
    game = GameResult(scores=(10, 5, -5, -10))
    plain = rules.table_result(game).seats
    penalised = rules.table_result(game, deductions=(-100, 0, 0, 0)).seats
    return penalised[0].table_points == plain[0].table_points


def table_points_text(rules: Any) -> str:
    """``Table points by place at the table: 4, 2, 1, 0 (…); a penalty lowers the score, never the
    table points.`` from the engine's result of a sample table."""
    points = table_points_by_rank(rules)
    if not points:
        return ""
    text = gettext(
        "Table points by place at the table, 1st to 4th: %(points)s (tied players share the points of their places)."
    ) % {"points": ", ".join(num(p) for p in points)}
    if penalties_keep_table_order(rules):
        text += " " + str(TABLE_ORDER_NOTE)
    return text


TABLE_ORDER_NOTE = gettext_lazy(
    "Penalties do not change the order at a table: the places, and so the table points, go by the game "
    "score before penalties; a penalty lowers the total score only. A player can have more table points "
    "and a lower score than another."
)


def rule_texts(rules: Any) -> list[str]:
    """The sentences a page shows for the rules the engine applies (late arrival, substitutes, the end of a
    session, a short table, table points), in that order; those the rules do not have are left out."""
    texts = [late_arrival_text(rules), *substitutes_text(rules), session_end_text(rules)]
    return [t for t in (*texts, short_table_text(rules), table_points_text(rules)) if t]


# -- what the engines and the services keep in English, in the reader's language -------------------------
# Fan, yaku and item names are marked for the catalogue where the engines list them (scoring.rules.tiles:
# FAN_NAMES, GLOSSED_NAMES, NAME_TEXTS); pages show them through the ``words`` template filters, exports
# through these functions.

WIND_SHORT = {"E", "S", "W", "N"}
POINTS = re.compile(r"(-?\d+) points( \(limit\))?")  # a classical hand's value


def wind_letter(letter: object) -> str:
    """E, S, W, N as the reader's language abbreviates the winds (Spanish: E, S, O, N)."""
    text = str(letter or "")
    if text in WIND_SHORT:
        return pgettext("wind letter", text)
    return text


def item_name(name: object) -> str:
    """A fan, yaku or scoring item's name in the reader's language (the name itself when the catalogue
    has none, e.g. a riichi yaku kept in romaji)."""
    text = str(name or "")
    return gettext(text) if text else text


def item_names(names) -> str:
    """Several names, translated, separated by commas."""
    return ", ".join(item_name(n) for n in names or ())


def value_label(label: object) -> str:
    """A hand's value as the engines write it (``12 fan``, ``3 han 30 fu (mangan)``, ``double yakuman``,
    ``320 points``) with its English words in the reader's language; fan, han, fu and the limit names
    stay as players say them."""
    text = str(label or "")
    text = text.replace("double yakuman", gettext("double yakuman"))
    found = POINTS.fullmatch(text)
    if found:
        template = gettext("%(n)s points (limit)") if found[2] else gettext("%(n)s points")
        text = template % {"n": found[1]}
    return text


HISTORY_WORDS = {
    "submitted": gettext_noop("submitted"),
    "confirmed": gettext_noop("confirmed"),
    "totals entered": gettext_noop("totals entered"),
    "totals cleared": gettext_noop("totals cleared"),
    "recorded": gettext_noop("recorded"),
    "last hand undone": gettext_noop("last hand undone"),
    "appeal decided": gettext_noop("appeal decided"),
    "appeal recorded": gettext_noop("appeal recorded"),
    "foul ladder recounted": gettext_noop("foul ladder recounted"),
}
HISTORY_HAND = re.compile(r"hand (\d+) (added|changed|undone)(?:: (.*))?", re.S)
HAND_NOTES = {
    "added": gettext_noop("hand %(n)s added"),
    "changed": gettext_noop("hand %(n)s changed"),
    "undone": gettext_noop("hand %(n)s undone"),
}


def history_reason(reason: object) -> str:
    """Why a change was made, as the services note it ("hand 3 added: …", "submitted"), in the reader's
    language; the words a person typed after the colon stay as typed."""
    text = str(reason or "")
    if text in HISTORY_WORDS:
        return gettext(HISTORY_WORDS[text])
    found = HISTORY_HAND.fullmatch(text)
    if found:
        note = gettext(HAND_NOTES[found[2]]) % {"n": found[1]}
        return f"{note}: {found[3]}" if found[3] else note
    return text
