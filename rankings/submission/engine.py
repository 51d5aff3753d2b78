"""The EMA's requirements for a MERS tournament, checked on plain facts (pure: no Django import).

Every check cites the article it applies and quotes the words it relies on, so that the page, the API
and the pack say why an item is red. The texts:

- ERGMT: "EMA requirements and guidelines for MERS tournaments".
- MERS: "The Mahjong Europe Ranking System"; MERS-R: "MERS Tournament Regulations (MCR)".

A check is ``ok`` (met), ``fail`` (not met: the messages say what and where), ``pending`` (cannot be
known yet: nothing is wrong so far, e.g. the results of a session not yet played) or ``info`` (said
for the record, never blocking: guests without an EMA number).
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from difflib import SequenceMatcher
from fractions import Fraction
from unicodedata import category, normalize

from scoring.rules.text import Text, gettext_noop

OK, FAIL, PENDING, INFO = "ok", "fail", "pending", "info"
STATUSES = (OK, FAIL, PENDING, INFO)
RANKED = ("mcr", "riichi")

# ERGMT §3.6: "MCR tournaments must include at least the minimum number of sessions and minimum length of
# sessions stated below: 1 day 4 sessions of 90 minutes / 2 days 6 sessions of 120 minutes / 3 days 9
# sessions of 120 minutes. MCR tournaments must not have more than 4 sessions per day. RCR tournaments
# [...]: 1 day 4 sessions of 90 minutes / 2 days 7 sessions of 90 minutes / 3 days 11 sessions of 90
# minutes. RCR tournaments must not have more than 5 sessions per day."
MINIMUM_FORMAT: dict[str, dict[int, tuple[int, int]]] = {
    "mcr": {1: (4, 90), 2: (6, 120), 3: (9, 120)},
    "riichi": {1: (4, 90), 2: (7, 90), 3: (11, 90)},
}
MOST_PER_DAY = {"mcr": 4, "riichi": 5}
# ERGMT §3.6: "A break should be present between 2 sessions. The duration of this break, at least 15
# minutes, [...] Lunch breaks should be at least 30 minutes."
SHORTEST_BREAK_MINUTES = 15
# ERGMT §2.1: "There must be at least 16 players from EMA member countries participating".
LEAST_EMA_PLAYERS = 16
# ERGMT §3.10: "For all tournaments, one referee should be available for each 32 players."
PLAYERS_PER_REFEREE = 32
CLOSE_NAME = 0.6  # how alike two names must be for the EMA list's entry to be named as the closest match

ARTICLES = {
    "schedule": "ERGMT §3.6",
    "breaks": "ERGMT §3.6",
    "participants": "ERGMT §2.1",
    "referees": "ERGMT §3.10",
    "ema_numbers": "ERGMT §3.13",
    "substitutes": "ERGMT §3.9, MERS-R §4",
    "results": "ERGMT §3.13",
    "balance": "ERGMT §3.13",
    "clock": "ERGMT §3.6, §3.8",
    "published": "ERGMT §3.6",
    "observer": "ERGMT §3.11",
    "prizes": "ERGMT §3.12",
}
TITLES = {
    "schedule": gettext_noop("Sessions and their length"),
    "breaks": gettext_noop("Breaks between sessions"),
    "participants": gettext_noop("At least 16 players from EMA countries"),
    "referees": gettext_noop("One referee per 32 players"),
    "ema_numbers": gettext_noop("EMA numbers of the players"),
    "substitutes": gettext_noop("Substitutes asked whether their results count"),
    "results": gettext_noop("Every table confirmed"),
    "balance": gettext_noop("Every table sums as the rules say"),
    "clock": gettext_noop("A countdown clock ran in every session"),
    "published": gettext_noop("Results published before the next session"),
    "observer": gettext_noop("An EMA observer named"),
    "prizes": gettext_noop("A prize for the three best players"),
}
ORDER = tuple(TITLES)


@dataclass(frozen=True)
class SessionFact:
    number: int
    starts_at: datetime | None  # planned start
    minutes: int  # planned length
    played: bool  # finished (its results are known)
    clock_started_at: datetime | None = None  # when the countdown first ran (the clock's record)
    clock_ran: bool = False
    results_published_at: datetime | None = None  # the last table confirmed


@dataclass(frozen=True)
class ListedPlayer:
    """A line of the EMA player list."""

    ema_id: str
    name: str
    country: str


@dataclass(frozen=True)
class PlayerFact:
    key: str
    name: str
    ema_id: str
    country: str
    is_substitute: bool = False
    listed: ListedPlayer | None = None  # the EMA list's line of this number
    closest: ListedPlayer | None = None  # the list's closest name, for a number the list does not have


@dataclass(frozen=True)
class RefereeFact:
    name: str
    plays: bool


@dataclass(frozen=True)
class TableFact:
    session: int
    table: int
    confirmed: bool
    balance: Fraction | None = None  # what the scores sum to beyond what the rules say (0: as they say)
    imbalance_reason: str = ""


@dataclass(frozen=True)
class Facts:
    family: str
    days: int
    sessions: tuple[SessionFact, ...]
    players: tuple[PlayerFact, ...]  # every registration, substitutes included
    ema_countries: frozenset[str]
    referees: tuple[RefereeFact, ...]
    substitute_answers: dict[str, bool] = field(default_factory=dict)  # registration key → results count
    substitutes_played: frozenset[str] = frozenset()  # keys of substitutes who took a seat
    ranked_substitutes: frozenset[str] = frozenset()  # keys of substitutes given a place in the results
    ema_list_loaded: bool = False
    tables: tuple[TableFact, ...] = ()
    observer: str = ""
    prizes: tuple[str, ...] = ()
    finished: bool = False  # the tournament is over: what is still missing is missing for good


@dataclass(frozen=True)
class Check:
    key: str
    status: str
    messages: tuple[Text, ...] = ()

    @property
    def article(self) -> str:
        return ARTICLES[self.key]

    @property
    def title(self) -> Text:
        return TITLES[self.key]


# -- helpers ----------------------------------------------------------------------------------------


def fold(text: str) -> str:
    """Lower case, accents and punctuation dropped, spaces collapsed ("Ødegaard, Ñúñez" ≈ "odegaard nunez")."""
    decomposed = normalize("NFKD", text.replace("ø", "o").replace("Ø", "O").replace("ß", "ss"))
    kept = "".join(ch for ch in decomposed if category(ch) != "Mn")
    return " ".join("".join(ch if ch.isalnum() else " " for ch in kept.lower()).split())


def same_name(a: str, b: str) -> bool:
    """Names alike once folded; word order does not matter ("Martín Ana" is "Ana Martín")."""
    return sorted(fold(a).split()) == sorted(fold(b).split())


def closest(name: str, candidates: Sequence[ListedPlayer]) -> ListedPlayer | None:
    """The candidate whose folded name is most alike, when alike enough."""
    target = fold(name)
    best, best_ratio = None, CLOSE_NAME
    for candidate in candidates:
        ratio = SequenceMatcher(None, target, fold(candidate.name)).ratio()
        if ratio > best_ratio:
            best, best_ratio = candidate, ratio
    return best


def _minutes(seconds: float) -> int:
    return int(seconds // 60)


def _status(messages: list[Text], *, pending: bool = False) -> str:
    return FAIL if messages else PENDING if pending else OK


def _num(value: Fraction) -> str:
    if value.denominator == 1:
        return str(value.numerator)
    return f"{float(value):.2f}".rstrip("0").rstrip(".")


# -- the checks -------------------------------------------------------------------------------------


def format_shortfall(family: str, days: int, sessions: int) -> Text | None:
    """ERGMT §3.6's minimum number of sessions for ``days`` days, said when ``sessions`` fall short (None:
    enough, or a ruleset the EMA does not rank). A warning for the director, never a refusal: a tournament
    may be held outside the EMA ranking."""
    if family not in MINIMUM_FORMAT:
        return None
    least, _length = MINIMUM_FORMAT[family][min(max(days, 1), 3)]
    if sessions >= least:
        return None
    return gettext_noop(
        "For the EMA ranking, ERGMT §3.6 asks at least %(_least)s sessions for %(_days)s day(s); this "
        "tournament has %(_planned)s. It is created as it is: add sessions if it is to count.",
        _least=str(least),
        _days=str(days),
        _planned=str(sessions),
    )


def check_schedule(facts: Facts) -> Check:
    messages: list[Text] = []
    family, days = facts.family, facts.days
    least = MINIMUM_FORMAT[family][min(days, 3)]
    sessions, length = least
    if len(facts.sessions) < sessions:
        messages.append(
            gettext_noop(
                "%(_days)s day(s) need at least %(_least)s sessions; %(_planned)s are planned.",
                _days=str(days),
                _least=str(sessions),
                _planned=str(len(facts.sessions)),
            )
        )
    for s in facts.sessions:
        if s.minutes < length:
            messages.append(
                gettext_noop(
                    "Session %(_n)s lasts %(_minutes)s minutes; at least %(_least)s are needed.",
                    _n=str(s.number),
                    _minutes=str(s.minutes),
                    _least=str(length),
                )
            )
    per_day: dict[object, list[int]] = {}
    for s in facts.sessions:
        if s.starts_at is not None:
            per_day.setdefault(s.starts_at.date(), []).append(s.number)
    most = MOST_PER_DAY[family]
    for day, numbers in sorted(per_day.items()):
        if len(numbers) > most:
            messages.append(
                gettext_noop(
                    "%(_day)s has %(_count)s sessions; at most %(_most)s a day.",
                    _day=day.isoformat(),
                    _count=str(len(numbers)),
                    _most=str(most),
                )
            )
    if len(per_day) > days:
        messages.append(
            gettext_noop(
                "The sessions are planned over %(_planned)s days; the tournament lasts %(_days)s.",
                _planned=str(len(per_day)),
                _days=str(days),
            )
        )
    return Check("schedule", _status(messages), tuple(messages))


def check_breaks(facts: Facts) -> Check:
    messages: list[Text] = []
    timed = sorted((s for s in facts.sessions if s.starts_at is not None), key=lambda s: s.number)
    missing = [s.number for s in facts.sessions if s.starts_at is None]
    for before, after in itertools.pairwise(timed):
        if before.starts_at.date() != after.starts_at.date():
            continue
        gap = _minutes((after.starts_at - before.starts_at).total_seconds()) - before.minutes
        if gap < 0:
            messages.append(
                gettext_noop(
                    "Session %(_b)s starts %(_overlap)s minutes before session %(_a)s ends; a break of at "
                    "least 15 minutes is needed.",
                    _a=str(before.number),
                    _b=str(after.number),
                    _overlap=str(-gap),
                )
            )
        elif gap < SHORTEST_BREAK_MINUTES:
            messages.append(
                gettext_noop(
                    "Between sessions %(_a)s and %(_b)s the break is %(_gap)s minutes; at least 15.",
                    _a=str(before.number),
                    _b=str(after.number),
                    _gap=str(gap),
                )
            )
    if missing:
        messages.append(
            gettext_noop(
                "Sessions without a planned start: %(_numbers)s.", _numbers=", ".join(map(str, missing))
            )
        )
    return Check("breaks", _status(messages), tuple(messages))


def check_participants(facts: Facts) -> Check:
    players = [p for p in facts.players if not p.is_substitute]
    from_ema = [p for p in players if p.country in facts.ema_countries]
    messages: list[Text] = []
    if len(from_ema) < LEAST_EMA_PLAYERS:
        messages.append(
            gettext_noop(
                "%(_count)s players from EMA countries; at least 16 are needed.", _count=str(len(from_ema))
            )
        )
    others = [p for p in players if p.country not in facts.ema_countries]
    if others and not messages:
        messages_info = (
            gettext_noop(
                "%(_count)s players from other countries (or no country given) also play.",
                _count=str(len(others)),
            ),
        )
        return Check("participants", OK, messages_info)
    return Check("participants", _status(messages), tuple(messages))


def referees_needed(players: int) -> int:
    return max(1, -(-players // PLAYERS_PER_REFEREE))


def check_referees(facts: Facts) -> Check:
    needed = referees_needed(len([p for p in facts.players if not p.is_substitute]))
    count = len(facts.referees)
    if count < needed:
        return Check(
            "referees",
            FAIL,
            (
                gettext_noop(
                    "%(_count)s referee(s) named; %(_needed)s needed for these players.",
                    _count=str(count),
                    _needed=str(needed),
                ),
            ),
        )
    playing = [r.name for r in facts.referees if r.plays]
    said = gettext_noop(
        "%(_count)s referee(s), %(_playing)s playing.", _count=str(count), _playing=str(len(playing))
    )
    return Check("referees", OK, (said,))


def check_ema_numbers(facts: Facts) -> Check:
    messages: list[Text] = []
    plain: list[Text] = []
    for p in facts.players:
        if p.is_substitute and p.key not in facts.substitutes_played:
            continue
        if not p.ema_id:
            plain.append(
                gettext_noop(
                    "%(_name)s has no EMA number: a guest, counted in N and never ranked.", _name=p.name
                )
            )
            continue
        if len(p.ema_id) != 8 or not p.ema_id.isascii() or not p.ema_id.isdigit():
            messages.append(
                gettext_noop("%(_name)s: EMA number %(_ema)s is not 8 digits.", _name=p.name, _ema=p.ema_id)
            )
            continue
        if not facts.ema_list_loaded:
            continue
        if p.listed is None:
            if p.closest is not None:
                messages.append(
                    gettext_noop(
                        "%(_name)s: EMA number %(_ema)s is not in the EMA player list; closest: "
                        "%(_other)s, %(_other_ema)s (%(_other_country)s).",
                        _name=p.name,
                        _ema=p.ema_id,
                        _other=p.closest.name,
                        _other_ema=p.closest.ema_id,
                        _other_country=p.closest.country or "—",
                    )
                )
            else:
                messages.append(
                    gettext_noop(
                        "%(_name)s: EMA number %(_ema)s is not in the EMA player list.",
                        _name=p.name,
                        _ema=p.ema_id,
                    )
                )
            continue
        if not same_name(p.name, p.listed.name):
            messages.append(
                gettext_noop(
                    "%(_name)s: the EMA list has %(_ema)s as %(_listed)s.",
                    _name=p.name,
                    _ema=p.ema_id,
                    _listed=p.listed.name,
                )
            )
        if p.listed.country and p.country != p.listed.country:
            messages.append(
                gettext_noop(
                    "%(_name)s: country %(_country)s here, %(_listed)s in the EMA list.",
                    _name=p.name,
                    _country=p.country or "—",
                    _listed=p.listed.country,
                )
            )
    if not facts.ema_list_loaded and not messages:
        plain.append(gettext_noop("No EMA player list is loaded: numbers were checked for their form only."))
    status = FAIL if messages else INFO if plain else OK
    return Check("ema_numbers", status, tuple(messages + plain))


def check_substitutes(facts: Facts) -> Check:
    """Each substitute who played was asked whether the results count (ERGMT §3.9); one who never played
    needs no answer (nothing of theirs counts): pending while the tournament runs, met once it is over."""
    messages: list[Text] = []
    notes: list[Text] = []
    pending = False
    for p in facts.players:
        if not p.is_substitute:
            continue
        answer = facts.substitute_answers.get(p.key)
        if answer is None and p.key not in facts.substitutes_played and facts.finished:
            notes.append(
                gettext_noop(
                    "%(_name)s never played: no answer is needed, no results to count.", _name=p.name
                )
            )
        elif answer is None and p.key not in facts.substitutes_played:
            pending = True
            notes.append(
                gettext_noop(
                    "%(_name)s has not played: ask whether the results count before they play.", _name=p.name
                )
            )
        elif answer is None:
            messages.append(
                gettext_noop(
                    "%(_name)s was not asked (or the answer was not recorded) whether the results count.",
                    _name=p.name,
                )
            )
        elif not answer and p.key in facts.ranked_substitutes:
            messages.append(
                gettext_noop(
                    "%(_name)s answered that the results do not count, yet has a place in the results.",
                    _name=p.name,
                )
            )
        elif not answer:
            notes.append(
                gettext_noop(
                    "%(_name)s: results do not count; as MERS-R §4 says, no ranking result.", _name=p.name
                )
            )
        elif p.key not in facts.ranked_substitutes and p.key in facts.substitutes_played:
            notes.append(
                gettext_noop(
                    "%(_name)s answered that the results count but did not play from the first session: "
                    "an 'in tournament' substitute gets no ranking result (MERS-R §4).",
                    _name=p.name,
                )
            )
        else:
            notes.append(gettext_noop("%(_name)s: results count.", _name=p.name))
    return Check("substitutes", _status(messages, pending=pending), tuple(messages + notes))


def check_results(facts: Facts) -> Check:
    messages: list[Text] = []
    pending = False
    played = {s.number for s in facts.sessions if s.played}
    for t in facts.tables:
        if not t.confirmed:
            if t.session in played or facts.finished:
                messages.append(
                    gettext_noop(
                        "Session %(_s)s, table %(_t)s is not confirmed.", _s=str(t.session), _t=str(t.table)
                    )
                )
            else:
                pending = True
    if len(played) < len(facts.sessions) and not facts.finished:
        pending = True
    return Check("results", _status(messages, pending=pending), tuple(messages))


def check_balance(facts: Facts) -> Check:
    messages: list[Text] = []
    for t in facts.tables:
        if t.balance is None or t.balance == 0:
            continue
        if t.imbalance_reason:
            messages.append(
                gettext_noop(
                    "Session %(_s)s, table %(_t)s: the scores are off by %(_off)s (accepted as: %(_why)s).",
                    _s=str(t.session),
                    _t=str(t.table),
                    _off=_num(t.balance),
                    _why=t.imbalance_reason,
                )
            )
        else:
            messages.append(
                gettext_noop(
                    "Session %(_s)s, table %(_t)s: the scores are off by %(_off)s.",
                    _s=str(t.session),
                    _t=str(t.table),
                    _off=_num(t.balance),
                )
            )
    pending = not any(t.confirmed for t in facts.tables)
    return Check("balance", _status(messages, pending=pending and not messages), tuple(messages))


def check_clock(facts: Facts) -> Check:
    messages = [
        gettext_noop("No countdown clock ran in session %(_n)s.", _n=str(s.number))
        for s in facts.sessions
        if s.played and not s.clock_ran
    ]
    pending = any(not s.played for s in facts.sessions)
    return Check("clock", _status(messages, pending=pending), tuple(messages))


def check_published(facts: Facts) -> Check:
    messages: list[Text] = []
    ordered = sorted(facts.sessions, key=lambda s: s.number)
    pending = False
    for before, after in itertools.pairwise(ordered):
        if not before.played:
            pending = True
            continue
        began = after.clock_started_at
        if began is None:
            pending = pending or not after.played
            continue
        if before.results_published_at is None or before.results_published_at > began:
            messages.append(
                gettext_noop(
                    "The results of session %(_a)s were not published before session %(_b)s began.",
                    _a=str(before.number),
                    _b=str(after.number),
                )
            )
    if ordered and not ordered[-1].played:
        pending = True
    return Check("published", _status(messages, pending=pending), tuple(messages))


def check_observer(facts: Facts) -> Check:
    if facts.observer.strip():
        return Check("observer", OK, (gettext_noop("Observer: %(_name)s.", _name=facts.observer.strip()),))
    return Check("observer", FAIL, (gettext_noop("No EMA observer is named."),))


def check_prizes(facts: Facts) -> Check:
    if facts.prizes:
        return Check(
            "prizes", OK, (gettext_noop("%(_count)s prize(s) recorded.", _count=str(len(facts.prizes))),)
        )
    return Check("prizes", FAIL, (gettext_noop("No prize is recorded."),))


CHECKS = {
    "schedule": check_schedule,
    "breaks": check_breaks,
    "participants": check_participants,
    "referees": check_referees,
    "ema_numbers": check_ema_numbers,
    "substitutes": check_substitutes,
    "results": check_results,
    "balance": check_balance,
    "clock": check_clock,
    "published": check_published,
    "observer": check_observer,
    "prizes": check_prizes,
}


def run_checks(facts: Facts) -> list[Check]:
    """Every check, in the order of :data:`ORDER`; an empty list for a ruleset the EMA does not rank."""
    if facts.family not in RANKED:
        return []
    return [CHECKS[key](facts) for key in ORDER]


def summary(checks: Sequence[Check]) -> dict[str, int]:
    counts = dict.fromkeys(STATUSES, 0)
    for c in checks:
        counts[c.status] += 1
    return counts
