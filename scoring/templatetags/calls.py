"""``{% referee_calls session referee everywhere %}``: the calls waiting for a referee, first on the
"Needs a referee" list of the referees' overview, the session's tables, the console and the dashboard;
``{% recent_calls tournament %}``: the calls resolved last and the tables' waits, on the dashboard."""

from django import template

from rankings.submission.report import calls_text, wait_text
from scoring.calls import selectors

register = template.Library()


@register.inclusion_tag("scoring/_referee_calls.html", takes_context=True)
def referee_calls(context, session, referee=False, everywhere=False) -> dict:
    """The calls of ``session`` not resolved; ``everywhere`` (the director's dashboard): those of every
    session of the tournament."""
    if session is None:
        return {"calls": []}
    if everywhere:
        calls = selectors.tournament_open_calls(tournament=session.tournament)
    else:
        calls = selectors.session_queue(session=session)
    return {
        "calls": calls,
        "session": session,
        "tournament": session.tournament,
        "referee": referee,
        "everywhere": everywhere,
    }


@register.inclusion_tag("scoring/_recent_calls.html")
def recent_calls(tournament) -> dict:
    """The tournament's calls resolved last, each with its waits and what resolved it, and the figures the
    observer's report gives (how many calls, how long tables waited)."""
    calls = selectors.recent_resolved(tournament=tournament)
    rows = [
        {
            "call": call,
            "waited": wait_text(_seconds(call.called_at, call.acknowledged_at)),
            "took": wait_text(_seconds(call.called_at, call.resolved_at)),
        }
        for call in calls
    ]
    figures = selectors.call_figures(tournament=tournament)
    return {"rows": rows, "figures": calls_text(figures), "tournament": tournament, "any": figures.calls > 0}


def _seconds(start, end) -> int | None:
    return None if end is None else max(0, round((end - start).total_seconds()))
