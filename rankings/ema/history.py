"""A player's EMA ranking over time, and its chart as an SVG drawing made on the server.

Pure Python (no Django import). The ranking of a player only changes on three kinds of day: the last
day of a tournament (a result starts to count), the day after its first anniversary (it counts half) and
the day after its second (it no longer counts). :func:`ranking_history` computes the ranking on each of
those days with the same arithmetic as the stored ranking (:func:`rankings.ema.engine.ema_ranking`), so
the chart's last point is the ranking the page shows. A day on which the player has fewer than two
results that count (not listed, the ranking system's §3) has no ranking.

:func:`ranking_chart_svg` draws the history as a step line, sized by its ``viewBox`` so that it scales to
the width of a phone and its labels stay readable; every text is escaped.

:func:`ranking_moves` says, week by week, what moved the ranking: a new result, a result a year or two old,
a result pushed out of Part A (or back into it), a corrected import.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import date, timedelta
from fractions import Fraction
from html import escape

from rankings.ema.engine import EmaRanking, EmaResult, anniversary, ema_ranking

WIDTH, HEIGHT = 360, 210
LEFT, RIGHT, TOP, BOTTOM = 40, 12, 14, 28
MAX_POINTS = 400


@dataclass(frozen=True)
class HistoryPoint:
    on: date
    ranking: Fraction | None  # None while the player is not listed (fewer than two counting results)
    counted: int


def change_days(results: Iterable[EmaResult]) -> list[date]:
    """Every day on which a ranking computed from ``results`` can change, in order."""
    days: set[date] = set()
    for result in results:
        days.add(result.ended_on)
        days.add(anniversary(result.ended_on, 1) + timedelta(days=1))
        days.add(anniversary(result.ended_on, 2) + timedelta(days=1))
    return sorted(days)


def ranking_history(results: Sequence[EmaResult], *, ruleset: str, until: date) -> list[HistoryPoint]:
    """The player's ranking on every day it changed, up to ``until`` (which is always the last point)."""
    own = [r for r in results if r.ruleset == ruleset and r.ended_on <= until]
    if not own:
        return []
    days = [*[d for d in change_days(own) if d < until][-(MAX_POINTS - 1) :], until]
    points = []
    for day in days:
        ranking = ema_ranking(own, ruleset=ruleset, on=day)
        points.append(HistoryPoint(day, ranking.ranking if ranking.listed else None, ranking.counted))
    return points


def _axis_bounds(values: list[float]) -> tuple[int, int]:
    low = max(0, int(min(values) // 100) * 100)
    high = min(1000, -int(-max(values) // 100) * 100)
    if high - low < 200:
        high = min(1000, low + 200)
        low = max(0, high - 200)
    return low, high


@dataclass(frozen=True)
class _Frame:
    """Where the chart's days and rankings land: the plot between its margins."""

    start: date
    end: date
    low: int
    high: int

    def x(self, day: date) -> float:
        span = max((self.end - self.start).days, 1)
        return LEFT + (WIDTH - LEFT - RIGHT) * (day - self.start).days / span

    def y(self, value: Fraction) -> float:
        return TOP + (HEIGHT - TOP - BOTTOM) * (1 - (float(value) - self.low) / (self.high - self.low))


def ranking_chart_svg(
    points: Sequence[HistoryPoint],
    *,
    title: str,
    empty_text: str,
    number_format=lambda v: f"{v:.0f}",
    marks: Sequence[date] = (),
) -> str:
    """The history as an inline SVG step chart (ranking against time); text in ``title`` is escaped.
    ``marks``: the weeks something moved the ranking (:func:`ranking_moves`), a tick each on the time axis."""
    known = [p for p in points if p.ranking is not None]
    label = escape(title)
    if not known:
        return (
            f'<svg viewBox="0 0 {WIDTH} 60" role="img" aria-label="{label}" class="ranking-chart">'
            f"<title>{label}</title>"
            f'<text x="{WIDTH / 2}" y="34" text-anchor="middle" font-size="13" fill="currentColor">'
            f"{escape(empty_text)}</text></svg>"
        )
    frame = _Frame(points[0].on, points[-1].on, *_axis_bounds([float(p.ranking) for p in known]))
    parts = [
        f'<svg viewBox="0 0 {WIDTH} {HEIGHT}" role="img" aria-label="{label}" class="ranking-chart" '
        'font-family="system-ui, sans-serif">',
        f"<title>{label}</title>",
        *_ranking_lines(frame),
        *_year_lines(frame),
        *_move_marks(frame, marks),
        _step_path(frame, points),
        *_last_ranking(frame, points[-1], number_format),
        "</svg>",
    ]
    return "".join(parts)


def _ranking_lines(frame: _Frame) -> list[str]:
    """A line and a label every 100 (every 200 on a tall axis) of the ranking."""
    parts = []
    step = 100 if frame.high - frame.low <= 500 else 200
    for value in range(frame.low, frame.high + 1, step):
        gy = frame.y(Fraction(value))
        parts.append(
            f'<line x1="{LEFT}" x2="{WIDTH - RIGHT}" y1="{gy:.1f}" y2="{gy:.1f}" '
            'stroke="currentColor" stroke-opacity="0.15"/>'
            f'<text x="{LEFT - 5}" y="{gy + 4:.1f}" text-anchor="end" font-size="11" '
            f'fill="currentColor" fill-opacity="0.75">{value}</text>'
        )
    return parts


def _year_lines(frame: _Frame) -> list[str]:
    """A line and a label at the start of each year (at most six), or the first day when none starts."""
    start, end = frame.start, frame.end
    parts = []
    years = list(range(start.year + (0 if start.month == 1 and start.day == 1 else 1), end.year + 1))
    every = max(1, -(-len(years) // 6))
    for year in years[::every]:
        gx = frame.x(date(year, 1, 1))
        parts.append(
            f'<line x1="{gx:.1f}" x2="{gx:.1f}" y1="{TOP}" y2="{HEIGHT - BOTTOM}" '
            'stroke="currentColor" stroke-opacity="0.12"/>'
            f'<text x="{gx:.1f}" y="{HEIGHT - BOTTOM + 16}" text-anchor="middle" font-size="11" '
            f'fill="currentColor" fill-opacity="0.75">{year}</text>'
        )
    if not years:
        parts.append(
            f'<text x="{LEFT}" y="{HEIGHT - BOTTOM + 16}" font-size="11" fill="currentColor" '
            f'fill-opacity="0.75">{start.isoformat()}</text>'
        )
    return parts


def _move_marks(frame: _Frame, marks: Sequence[date]) -> list[str]:
    parts = []
    for mark in sorted(set(marks)):
        if frame.start <= mark <= frame.end:
            mx = frame.x(mark)
            parts.append(
                f'<line class="move-mark" x1="{mx:.1f}" x2="{mx:.1f}" y1="{HEIGHT - BOTTOM - 7}" '
                f'y2="{HEIGHT - BOTTOM}" stroke="currentColor" stroke-opacity="0.7" stroke-width="1.5"/>'
            )
    return parts


def _step_path(frame: _Frame, points: Sequence[HistoryPoint]) -> str:
    """A step line: the ranking holds until the next day it changes; gaps where it is not ranked."""
    path: list[str] = []
    drawing = False
    for i, point in enumerate(points):
        if point.ranking is None:
            if drawing and i:
                path.append(f"H{frame.x(point.on):.1f}")
            drawing = False
            continue
        py = frame.y(point.ranking)
        if not drawing:
            path.append(f"M{frame.x(point.on):.1f},{py:.1f}")
            drawing = True
        else:
            path.append(f"H{frame.x(point.on):.1f}V{py:.1f}")
    return (
        f'<path d="{"".join(path)}" fill="none" stroke="var(--pico-primary, #1d6fb8)" '
        'stroke-width="2.5" stroke-linejoin="round"/>'
    )


def _last_ranking(frame: _Frame, last: HistoryPoint, number_format) -> list[str]:
    """A dot and the figure at the last point, when it is ranked."""
    if last.ranking is None:
        return []
    lx, ly = frame.x(last.on), frame.y(last.ranking)
    return [
        f'<circle cx="{lx:.1f}" cy="{ly:.1f}" r="4" fill="var(--pico-primary, #1d6fb8)"/>'
        f'<text x="{lx - 6:.1f}" y="{ly - 8:.1f}" text-anchor="end" font-size="13" font-weight="bold" '
        f'fill="currentColor">{escape(number_format(float(last.ranking)))}</text>'
    ]


# -- why the ranking moved ----------------------------------------------------------------------------

NEW, HALF, GONE, DROPPED, BACK, CORRECTED = "new", "half", "gone", "dropped", "back", "corrected"


@dataclass(frozen=True)
class Reason:
    kind: str  # NEW, HALF (a year old: half its weight), GONE (two years old), DROPPED (out of Part A),
    # BACK (into Part A again), CORRECTED (its imported tournament was corrected that day)
    tournament: str  # the result's ``tournament`` label


@dataclass(frozen=True)
class Move:
    """What changed a player's ranking in one week (Monday ``week``), with the ranking before and after."""

    week: date
    before: Fraction | None  # None: not listed
    after: Fraction | None
    reasons: tuple[Reason, ...]


def ranking_moves(
    results: Sequence[EmaResult],
    *,
    ruleset: str,
    until: date,
    corrections: Mapping[str, date] | None = None,
) -> list[Move]:
    """Week by week, latest first, what changed the ranking computed from ``results`` up to ``until``: a
    new result, a result a year old (half its weight) or two (no longer counting), a result leaving or
    entering Part A, and the days imported results were corrected (``corrections``: label → day; the
    figures are those of the results as they are now, the earlier ones are not kept)."""
    own = [r for r in results if r.ruleset == ruleset and r.ended_on <= until]
    if not own:
        return []
    days = set(change_days(own))
    for label, day in (corrections or {}).items():
        if any(r.tournament == label for r in own):
            days.add(day)
    days = {d for d in days if d <= until}
    weeks: dict[date, list[tuple[date, EmaRanking, EmaRanking, list[Reason]]]] = {}
    for day in sorted(days)[-MAX_POINTS:]:
        before = ema_ranking(own, ruleset=ruleset, on=day - timedelta(days=1))
        after = ema_ranking(own, ruleset=ruleset, on=day)
        a_before = {id(c.result) for c in before.part_a_results if c.result is not None}
        a_after = {id(c.result) for c in after.part_a_results if c.result is not None}
        reasons: list[Reason] = []
        for r in own:
            if r.ended_on == day:
                kind = NEW
            elif anniversary(r.ended_on, 1) + timedelta(days=1) == day:
                kind = HALF
            elif anniversary(r.ended_on, 2) + timedelta(days=1) == day:
                kind = GONE
            elif id(r) in a_before and id(r) not in a_after:
                kind = DROPPED
            elif id(r) in a_after and id(r) not in a_before:
                kind = BACK
            else:
                kind = ""
            if kind:
                reasons.append(Reason(kind, r.tournament))
            if (corrections or {}).get(r.tournament) == day:
                reasons.append(Reason(CORRECTED, r.tournament))
        if reasons:
            week = day - timedelta(days=day.weekday())
            weeks.setdefault(week, []).append((day, before, after, reasons))
    moves = []
    for week, changes in weeks.items():
        first, last = changes[0][1], changes[-1][2]
        moves.append(
            Move(
                week=week,
                before=first.ranking if first.listed else None,
                after=last.ranking if last.listed else None,
                reasons=tuple(reason for *_, reasons in changes for reason in reasons),
            )
        )
    moves.sort(key=lambda m: m.week, reverse=True)
    return moves
