"""What each player needs in a session for the places that matter: the standings before it, its seating
and the ruleset's range of a table's session, given to the pure engine (``rankings.standings.needs``).

Only reads. While the last sessions' standings are hidden for the prize-giving, nothing here uses a hidden
result: a session whose standings before it would need one is not worked out, for anybody.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from django.utils.formats import get_format
from django.utils.translation import gettext as _

from rankings.standings.engine import method_of
from rankings.standings.needs import MAX_PLACES, Contender, PlayerNeeds, check_places, compute_needs
from rankings.standings.selectors import standings_view
from tournaments.models import Seat, Session, Tournament
from tournaments.presenters import num, signed
from tournaments.selectors import hidden_after

PODIUM = (1, 2, 3)
#: the places a request may name besides the podium (a cut line), at most this many
MAX_CUTS = MAX_PLACES - len(PODIUM)


@dataclass(frozen=True)
class NeedCell:
    place: int
    status: str  # "safe", "needs", "open", "out" (rankings.standings.needs.PlaceNeed.status)
    guaranteed: Fraction | None
    possible: Fraction | None
    text: str  # the cell in words (the player's page, the CSV)
    short: str  # the cell in the table of every player (a phone's width)


@dataclass(frozen=True)
class NeedLine:
    rank: int
    player: str
    name: str
    plays: bool
    table: int | None
    cells: tuple[NeedCell, ...]


@dataclass(frozen=True)
class NeedsTable:
    """What each player needs in ``session``; ``reason`` says why nothing is worked out (then ``lines``
    is empty)."""

    tournament: Tournament
    session: Session | None
    places: tuple[int, ...]
    lines: tuple[NeedLine, ...]
    reason: str
    hidden: bool  # the reason is that the standings are hidden
    results: tuple[str, ...]  # the results open at a table, worst first, as printed
    unit: str  # what a result counts: table points, or uma with the oka

    def line(self, player: str) -> NeedLine | None:
        return next((line for line in self.lines if line.player == player), None)


def needs_session(*, tournament: Tournament, number: int | None) -> Session | None:
    """The session asked for, else the last session of the tournament."""
    sessions = Session.objects.filter(tournament=tournament)
    if number is not None:
        return sessions.filter(number=number).first()
    return sessions.order_by("-number").first()


def figure(value: Fraction | None, by_table_points: bool) -> str:
    """A result's value as the reader writes numbers (2.33, 2,33), with its sign when it is uma."""
    if value is None:
        return "—"
    text = num(value) if by_table_points else signed(value)
    return text.replace(".", get_format("DECIMAL_SEPARATOR"))


def result_text(value: Fraction | None, places: dict[Fraction, int], by_table_points: bool) -> str:
    """A result as printed: the value, and the place at the table it is when it is one place's alone."""
    if value is None:
        return "—"
    shown = figure(value, by_table_points)
    place = places.get(value)
    if place is None:
        return shown
    return _("%(value)s (place %(place)s)") % {"value": shown, "place": place}


def needs_table(
    *, tournament: Tournament, session_number: int | None = None, cuts: tuple[int, ...] = ()
) -> NeedsTable:
    """What each ranked player needs in the session for the podium and the ``cuts`` (a cut line: finish
    in that place or better)."""
    session = needs_session(tournament=tournament, number=session_number)
    rules = tournament.get_rules()
    method = method_of(rules)
    by_table_points = method == "table_points"
    unit = _("table points") if by_table_points else _("uma and oka points")

    def empty(reason: str, *, hidden: bool = False, places=PODIUM) -> NeedsTable:
        return NeedsTable(tournament, session, places, (), reason, hidden, (), unit)

    if session is None:
        return empty(_("The tournament has no sessions yet."))
    outcomes = rules.session_outcomes()
    if outcomes is None:
        return empty(_("These rules set no bound on a session's score, so no place can be worked out."))
    if session.status == Session.Status.FINISHED:
        return empty(_("Session %(number)s is finished.") % {"number": session.number})
    last = hidden_after(tournament=tournament)
    if last is not None and session.number - 1 > last:
        return empty(
            _(
                "The standings after session %(number)s are hidden until the prize-giving, so what "
                "each player needs is not shown."
            )
            % {"number": session.number - 1},
            hidden=True,
        )
    earlier = Session.objects.filter(tournament=tournament, number__lt=session.number).exclude(
        status=Session.Status.FINISHED
    )
    unfinished = earlier.order_by("number").first()
    if unfinished is not None:
        return empty(_("Session %(number)s is not finished yet.") % {"number": unfinished.number})
    if not session.seating_published:
        return empty(
            _("The seating of session %(number)s is not published yet.") % {"number": session.number}
        )
    # once the session is under way its confirmed tables are in the standings: count up to the one before
    # (penalties of no session then wait for the session's end); before it, the standings as they are
    started = Session.objects.filter(tournament=tournament, number__gte=session.number).exclude(
        status__in=(Session.Status.PLANNED, Session.Status.SEATED)
    )
    upto = session.number - 1 if started.exists() else None
    standings = standings_view(tournament=tournament, upto_session=upto)
    seats = dict(
        Seat.objects.filter(table__session=session).values_list("registration__key", "table__number")
    )
    contenders = [
        Contender(
            player=row.player,
            name=row.name,
            primary=row.table_points if by_table_points else row.score,
            score=row.score,
            table=seats.get(row.player),
            ranked=not row.disqualified,
        )
        for row in standings.rows
    ]
    ranked_keys = {c.player for c in contenders}
    contenders += [
        Contender(player=key, name="", primary=Fraction(0), score=Fraction(0), table=table, ranked=False)
        for key, table in seats.items()
        if key not in ranked_keys
    ]
    places = check_places((*PODIUM, *cuts[:MAX_CUTS]), len(standings.rows))
    answers = {
        a.player: a
        for a in compute_needs(
            contenders=contenders,
            outcomes=outcomes.places,
            spread=outcomes.spread,
            method=method,
            places=places,
        )
    }
    strict = rules.session_places((3, 2, 1, 0))
    place_of = {Fraction(v): i + 1 for i, v in enumerate(strict)} if len(set(strict)) == 4 else {}
    lines = []
    for row in standings.rows:
        answer = answers.get(row.player)
        if answer is None:  # disqualified: below everybody, no place to play for
            continue
        lines.append(
            NeedLine(
                rank=row.rank,
                player=row.player,
                name=row.name,
                plays=answer.plays,
                table=seats.get(row.player),
                cells=tuple(_cell(answer, k, place_of, by_table_points) for k in places),
            )
        )
    results = tuple(
        result_text(Fraction(v), place_of, by_table_points) for v in _all_results(outcomes.places)
    )
    return NeedsTable(tournament, session, places, tuple(lines), "", False, results, unit)


def _all_results(vectors) -> list[Fraction]:
    return sorted({Fraction(v) for vector in vectors for v in vector})


def _cell(answer: PlayerNeeds, place: int, place_of: dict, by_table_points: bool) -> NeedCell:
    need = answer.need(place)
    status = "safe" if answer.safe(place) else need.status
    sure = result_text(need.guaranteed, place_of, by_table_points)
    maybe = result_text(need.possible, place_of, by_table_points)
    sure_short = figure(need.guaranteed, by_table_points)
    maybe_short = figure(need.possible, by_table_points)
    if status == "safe":
        text = short = _("safe")
    elif status == "out":
        text, short = _("out of reach"), _("out")
    elif not answer.plays:
        text, short = _("does not play: depends on the others"), _("others")
    elif status == "open":
        text = _("possible from %(result)s, never sure") % {"result": maybe}
        short = _("from %(result)s") % {"result": maybe_short}
    elif need.possible == need.guaranteed:
        text = _("sure with %(result)s") % {"result": sure}
        short = _("sure %(result)s") % {"result": sure_short}
    else:
        text = _("sure with %(sure)s, possible from %(possible)s") % {"sure": sure, "possible": maybe}
        short = _("sure %(sure)s · from %(possible)s") % {"sure": sure_short, "possible": maybe_short}
    return NeedCell(place, status, need.guaranteed, need.possible, text, short)


def needs_rows(table: NeedsTable) -> list[list]:
    """The table as rows for a CSV file: the header, then one row per player in the standings' order."""
    header = [_("Rank"), _("Player"), _("Table")]
    header += [_("Place %(place)s") % {"place": k} for k in table.places]
    rows: list[list] = [header]
    if table.reason:
        rows.append(["", table.reason, ""] + [""] * len(table.places))
        return rows
    for line in table.lines:
        rows.append([line.rank, line.name, line.table or "", *(cell.text for cell in line.cells)])
    return rows
