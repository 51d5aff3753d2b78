"""What each player needs in a session for the places that matter: the standings before it, its seating
and the ruleset's range of a table's session, given to the pure engine (``rankings.standings.needs``).

Only reads. While the last sessions' standings are hidden for the prize-giving, nothing here uses a hidden
result: a session whose standings before it would need one is not worked out, for anybody.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from fractions import Fraction

from django.utils.formats import get_format
from django.utils.translation import gettext as _

from rankings.standings.engine import method_of
from rankings.standings.needs import MAX_PLACES, Contender, PlayerNeeds, check_places, compute_needs
from rankings.standings.needs_seating import compute_needs_any_seating
from rankings.standings.needs_teams import TeamContender, compute_team_needs, compute_team_needs_at_tables
from rankings.standings.selectors import standings_view
from tournaments.models import Registration, Seat, Session, Tournament
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
    members: tuple[str, ...] = ()  # a team's line: its members' keys


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
    any_seating: bool = False  # the seating is not published: worked out for any seating
    teams: tuple[NeedLine, ...] = ()  # what each team's members need together for the teams' podium
    team_places: tuple[int, ...] = ()
    teams_exact: bool = False  # worked out exactly at the published tables (else a bound, never wrong)

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
    """What each ranked player (and each team, for the teams' podium) needs in the session for the podium
    and the ``cuts`` (a cut line: finish in that place or better). Before the session's seating is
    published, for any seating."""
    session = needs_session(tournament=tournament, number=session_number)
    rules = tournament.get_rules()
    by_table_points = method_of(rules) == "table_points"
    unit = _("table points") if by_table_points else _("uma and oka points")
    refusal = _refusal(tournament, session, rules)
    if refusal is not None:
        reason, hidden = refusal
        return NeedsTable(tournament, session, PODIUM, (), reason, hidden, (), unit)
    standings = standings_view(tournament=tournament, upto_session=_counted_upto(tournament, session))
    rows = _staying(tournament, session, standings.rows)
    seats = _seats(session)
    places = check_places((*PODIUM, *cuts[:MAX_CUTS]), len(rows))
    outcomes = rules.session_outcomes()
    answers = _answers(rows, seats, outcomes, method_of(rules), places)
    place_of = _place_of(rules)
    lines = _lines(rows, answers, seats or {}, places, place_of, by_table_points)
    results = tuple(result_text(v, place_of, by_table_points) for v in _all_results(outcomes.places))
    team_places = check_places(PODIUM, len(standings.teams))
    teams, teams_exact = _team_lines(standings.teams, rows, seats, outcomes, method_of(rules), team_places)
    return NeedsTable(
        tournament, session, places, tuple(lines), "", False, results, unit,
        any_seating=seats is None, teams=teams, team_places=team_places, teams_exact=teams_exact,
    )  # fmt: skip


def _refusal(tournament: Tournament, session: Session | None, rules) -> tuple[str, bool] | None:
    """Why nothing is worked out for ``session`` (and whether it is that the standings are hidden)."""
    if session is None:
        return _("The tournament has no sessions yet."), False
    if rules.session_outcomes() is None:
        return _("These rules set no bound on a session's score, so no place can be worked out."), False
    if session.status == Session.Status.FINISHED:
        return _("Session %(number)s is finished.") % {"number": session.number}, False
    last = hidden_after(tournament=tournament)
    if last is not None and session.number - 1 > last:
        text = _(
            "The standings after session %(number)s are hidden until the prize-giving, so what "
            "each player needs is not shown."
        ) % {"number": session.number - 1}
        return text, True
    earlier = Session.objects.filter(tournament=tournament, number__lt=session.number).exclude(
        status=Session.Status.FINISHED
    )
    unfinished = earlier.order_by("number").first()
    if unfinished is not None:
        return _("Session %(number)s is not finished yet.") % {"number": unfinished.number}, False
    return None


def _counted_upto(tournament: Tournament, session: Session) -> int | None:
    """Once the session is under way its confirmed tables are in the standings: count up to the one
    before (penalties of no session then wait for the session's end); before it, the standings as they
    are."""
    started = Session.objects.filter(tournament=tournament, number__gte=session.number).exclude(
        status__in=(Session.Status.PLANNED, Session.Status.SEATED)
    )
    return session.number - 1 if started.exists() else None


def _staying(tournament: Tournament, session: Session, rows) -> list:
    """The standings' rows less the players withdrawn from the session or before: they will be listed
    apart, below the ranking, so they are nobody's rival for a place."""
    gone = set(
        Registration.objects.filter(
            tournament=tournament, withdrawn_from__isnull=False, withdrawn_from__lte=session.number
        ).values_list("key", flat=True)
    )
    return [row for row in rows if row.player not in gone]


def _seats(session: Session) -> dict[str, int] | None:
    """The table of each seated player (substitutes included); None while the seating is not published."""
    if not session.seating_published:
        return None
    return dict(Seat.objects.filter(table__session=session).values_list("registration__key", "table__number"))


def _contenders(rows, seats: dict[str, int] | None, by_table_points: bool) -> list[Contender]:
    """The ranked players (and, at a known seating, the substitutes seated) as the engine takes them."""
    known = seats or {}
    contenders = [
        Contender(
            player=row.player,
            name=row.name,
            primary=row.table_points if by_table_points else row.score,
            score=row.score,
            table=known.get(row.player),
            ranked=not row.disqualified,
        )
        for row in rows
    ]
    ranked_keys = {c.player for c in contenders}
    contenders += [
        Contender(player=key, name="", primary=Fraction(0), score=Fraction(0), table=table, ranked=False)
        for key, table in known.items()
        if key not in ranked_keys
    ]
    return contenders


def _answers(rows, seats, outcomes, method, places) -> dict[str, PlayerNeeds]:
    """The engine's answers by player: at the published tables, or for any seating."""
    compute = compute_needs if seats is not None else compute_needs_any_seating
    answers = compute(
        contenders=_contenders(rows, seats, method == "table_points"),
        outcomes=outcomes.places,
        spread=outcomes.spread,
        method=method,
        places=places,
    )
    return {a.player: a for a in answers}


def _place_of(rules) -> dict[Fraction, int]:
    """The place at a table each value is, when each of the four places has a value of its own."""
    strict = rules.session_places((3, 2, 1, 0))
    return {Fraction(v): i + 1 for i, v in enumerate(strict)} if len(set(strict)) == 4 else {}


def _lines(rows, answers, seats, places, place_of, by_table_points) -> list[NeedLine]:
    lines = []
    made: dict = {}  # the cells worded once (most players read the same few)
    for row in rows:
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
                cells=tuple(_cell(answer, k, place_of, by_table_points, made) for k in places),
            )
        )
    return lines


def _team_lines(team_rows, rows, seats, outcomes, method, places) -> tuple[tuple[NeedLine, ...], bool]:
    """What each team needs for the teams' podium: its playing members' total, exactly at the published
    tables, else a bound that is never wrong (:mod:`rankings.standings.needs_teams`); and whether it is
    exact."""
    if not team_rows:
        return (), False
    by_table_points = method == "table_points"
    rows = {row.player: row for row in rows}
    playing = [
        TeamContender(
            team=str(team.team),
            name=team.name,
            primary=team.table_points if by_table_points else team.score,
            score=team.score,
            playing=sum(1 for key in team.members if _plays(rows.get(key), key, seats)),
            tables=tuple(seats[key] for key in team.members if seats and _plays(rows.get(key), key, seats)),
        )
        for team in team_rows
    ]
    figures = {"outcomes": outcomes.places, "spread": outcomes.spread, "method": method, "places": places}
    if seats is None:
        answers, exact = compute_team_needs(teams=playing, **figures), False
    else:
        answers, exact = compute_team_needs_at_tables(teams=playing, sizes=Counter(seats.values()), **figures)
    ranks = {str(team.team): team.rank for team in team_rows}
    members = {str(team.team): tuple(team.members) for team in team_rows}
    return tuple(
        NeedLine(
            rank=ranks[a.player],
            player=a.player,
            name=a.name,
            plays=a.plays,
            table=None,
            cells=tuple(_cell(a, k, {}, by_table_points) for k in places),
            members=members[a.player],
        )
        for a in answers
    ), exact


def _plays(row, key: str, seats: dict[str, int] | None) -> bool:
    """Whether a team member plays the session: seated in it, or (seating not published) ranked."""
    if row is None or row.disqualified:
        return False
    return key in seats if seats is not None else True


def _all_results(vectors) -> list[Fraction]:
    return sorted({Fraction(v) for vector in vectors for v in vector})


def _cell(answer: PlayerNeeds, place: int, place_of: dict, by_table_points: bool, made=None) -> NeedCell:
    """One answer in words; ``made``: the cells worded so far in this table, by what they say."""
    need = answer.need(place)
    status = "safe" if answer.safe(place) else need.status
    key = (place, status, answer.plays, need.guaranteed, need.possible)
    if made is not None and key in made:
        return made[key]
    cell = _worded(need, status, answer.plays, place_of, by_table_points)
    if made is not None:
        made[key] = cell
    return cell


def _worded(need, status: str, plays: bool, place_of: dict, by_table_points: bool) -> NeedCell:
    place = need.place
    sure = result_text(need.guaranteed, place_of, by_table_points)
    maybe = result_text(need.possible, place_of, by_table_points)
    sure_short = figure(need.guaranteed, by_table_points)
    maybe_short = figure(need.possible, by_table_points)
    if status == "safe":
        text = short = _("safe")
    elif status == "out":
        text, short = _("out of reach"), _("out")
    elif not plays:
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
    if table.any_seating:
        rows.append(["", _("The seating is not published yet: this holds whatever the seating."), ""])
    for line in table.lines:
        rows.append([line.rank, line.name, line.table or "", *(cell.text for cell in line.cells)])
    if table.teams:
        rows.append([])
        rows.append(
            [_("Rank"), _("Team"), ""] + [_("Place %(place)s") % {"place": k} for k in table.team_places]
        )
        for line in table.teams:
            rows.append([line.rank, line.name, "", *(cell.text for cell in line.cells)])
    return rows
